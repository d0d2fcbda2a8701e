/* Memory-bandwidth probe (STREAM triad): a = b + s·c over CFG_NTRIAD doubles, 24 bytes of
 * traffic per element. `simplets bench` times it with profiling events to get the measured
 * bandwidth its roofline figures refer to. */
__kernel void triad(__global real* ta, __global const real* tb, __global const real* tc)
{
    const size_t k = get_global_id(0);
    if (k < CFG_NTRIAD)
        ta[k] = tb[k] + 3.0 * tc[k];
}
