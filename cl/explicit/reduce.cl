/* The reduction of the per-group maxima of the CFL rate and of |Δq₀| (|Δρ|) into the next
 * Δt, shared by the explicit methods and CE/SE (after explicit/update.cl, whose nan_max,
 * next_dt and advance_time it uses): group_max2 and group_partials, which the stage kernels
 * call, and the `reduce` and `finish` kernels. Needs CFG_NGROUPS, CFG_NGROUPS2, DEV_RED,
 * CFG_FIXED_DT, CFG_CFL, CFG_T_END. */

/* NaN-propagating maximum of the pairs (lr, ld) of the n work-items of a group (n a power
 * of two); every item calls it (it holds the barriers); the result is in lr[0], ld[0]. */
inline void group_max2(__local real* lr, __local real* ld, const int l, const int n)
{
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = n / 2; s > 0; s >>= 1) {
        if (l < s) {
            lr[l] = nan_max(lr[l], lr[l + s]);
            ld[l] = nan_max(ld[l], ld[l + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* The group's maxima of every item's (r, d) (item l of n, group_max2), written by item 0 as
 * partial g of the stage's (part_rate, part_dq). */
inline void group_partials(__local real* lr, __local real* ld, const int l, const int n,
                           const real r, const real d, __global real* part_rate,
                           __global real* part_dq, const int g)
{
    lr[l] = r;
    ld[l] = d;
    group_max2(lr, ld, l, n);
    if (l == 0) {
        part_rate[g] = lr[0];
        part_dq[g] = ld[0];
    }
}

/* First level of the reduction of the stage's per-group maxima: CFG_NGROUPS2 groups of
 * DEV_RED items, each group the maxima of a strided share of the CFG_NGROUPS partials. */
__kernel void reduce(__global const real* part_rate, __global const real* part_dq,
                     __global real* part2_rate, __global real* part2_dq)
{
    __local real lr[DEV_RED], ld[DEV_RED];
    const int l = get_local_id(0), g0 = get_global_id(0);
    real r = 0.0, d = 0.0;
    for (int g = g0; g < CFG_NGROUPS; g += CFG_NGROUPS2 * DEV_RED) {
        r = nan_max(r, part_rate[g]);
        d = nan_max(d, part_dq[g]);
    }
    group_partials(lr, ld, l, DEV_RED, r, d, part2_rate, part2_dq, get_group_id(0));
}

/* The end of a step, one work-group of DEV_RED items: the largest rate and update of the
 * new state from the CFG_NGROUPS2 maxima of `reduce`; clock = [Δt, t, max rate, max |Δq0|]
 * becomes the new state's (t advanced, the next Δt). A NaN (failed step) leaves Δt and t as
 * they were. */
__kernel void finish(__global const real* part2_rate, __global const real* part2_dq,
                     __global real* clock)
{
    __local real lr[DEV_RED], ld[DEV_RED];
    const int l = get_local_id(0);
    real r = 0.0, d = 0.0;
    for (int g = l; g < CFG_NGROUPS2; g += DEV_RED) {
        r = nan_max(r, part2_rate[g]);
        d = nan_max(d, part2_dq[g]);
    }
    lr[l] = r;
    ld[l] = d;
    group_max2(lr, ld, l, DEV_RED);
    if (l == 0) {
        const real smax = lr[0], dmax = ld[0];
        clock[2] = smax;
        clock[3] = dmax;
        if (!(isnan(smax) || isnan(dmax))) {
            const real dt = clock[0];
            const real t = advance_time(clock[1], dt);
            clock[1] = t;
            clock[0] = CFG_FIXED_DT ? dt : next_dt(smax, t);
        }
    }
}
