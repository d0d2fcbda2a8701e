/* Test entry points (tests/opencl_device.rs): no physics.  cl/README.md.
 * Contract of every probe kernel: (__global const real* a, __global real* b), one work-item
 * per element of b. */

/* Pipeline self-test: b = 2a, exact in FP64. */
__kernel void probe_copy(__global const real* a, __global real* b)
{
    const size_t k = get_global_id(0);
    b[k] = a[k] * 2.0;
}
