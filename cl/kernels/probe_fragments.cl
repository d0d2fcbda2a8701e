/* Probe entry points for the equation fragments (tests/fragments.rs): no physics, each line
 * evaluates one fragment at given inputs and stores it.  cl/README.md, STYLE §5.
 * Run with BuiltProgram::run_kernel: real inputs, then int inputs, then the output. */

/* cl/ops.cl on rows of OPS_IN inputs (p1 p2 p3 p4 h1 h2 h3 h4 w kn), OPS_OUT outputs per row;
 * one work-item per row. The argument mapping is mirrored in tests/fragments.rs. */
#define OPS_IN  10
#define OPS_OUT 8

__kernel void probe_ops(__global const real* a, __global real* out)
{
    const size_t r = get_global_id(0);
    __global const real* x = a + r * OPS_IN;
    __global real* y = out + r * OPS_OUT;
    y[0] = upwind(x[0], x[1], x[8]);
    y[1] = van_leer(x[0]);
    y[2] = tvd_s(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]);
    y[3] = tvd_c(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[8]);
    y[4] = li(x[0], x[1], x[4], x[5]);
    y[5] = hi(x[0], x[1], x[4], x[5]);
    y[6] = slip(x[0], x[1], x[6], x[7], x[4], x[9]);
    y[7] = jump(x[0], x[1], x[6], x[7], x[5], x[9]);
}

/* cl/density.cl at every stored cell: out[2k] = rho_fc, out[2k+1] = rho_cf, k = IDX(i,j);
 * one work-item per stored cell. */
__kernel void probe_density(__global const real* rho, __global const real* u,
                            __global const real* v, __global const real* hx,
                            __global const real* hy, __global const int* cell,
                            __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    out[2 * k] = rho_fc(i, j);
    out[2 * k + 1] = rho_cf(i, j);
}
