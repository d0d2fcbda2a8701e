/* The explicit methods' stage and ghost kernels (the -D contract and the storage:
 * cl/explicit/step.cl, whose functions they call; the MUSCL strip: cl/explicit/muscl_strip.cl;
 * `reduce` and `finish`: cl/explicit/reduce.cl). */

/* A forward-Euler stage: q_out = q_in + Δt L(q_in) (Δt = clock[0]). With the strip and
 * walls, `walled` gives each launched group, at its place GROUP_X + GROUP_Y·STAGE_GX, the
 * group it runs as 4·g + flag (bands::walled_order; the flags of Stage::walled_groups): a
 * group with no solid cell among the cells or the halo it reads (0) takes a copy of the strip
 * without any wall code (no mask read, no solid flags exchanged), a group with one (1) the
 * strip with its wall faces; where a group's footprint has no solid cell the wall branches
 * are never taken, so both give the same bits. Both copies in this kernel (WalledMode::Mixed),
 * or with DEV_WALLED_APART the walled groups in stage_fe_walled, each kernel at the registers
 * of its own copy and launched as a row of groups (bands::WalledLaunch). A group whose
 * computed cells are all solid (2; CFG_SOLID_GROUPS where there is one) only stores its
 * partial maxima, the strip's +0 for solid cells: its cells keep their state, which both
 * levels hold from the start. */
__kernel void stage_fe(__global const real* q_in, __global real* q_out,
                       __global const real* clock, __global real* part_rate,
                       __global real* part_dq, __global const int* mask,
                       __global const int* walled)
{
#if DEV_TILE == 2
    __local real lr[DEV_LX], ld[DEV_LX], xs[STRIP_XS + STRIP_XP];
    __local int xsolid[2 * DEV_LX];
#if CFG_WALLS
    const int e = walled[GROUP_X + GROUP_Y * STAGE_GX], g = e >> 2;
#if CFG_SOLID_GROUPS
    if ((e & 3) == 2) {
        if (get_local_id(0) == 0) {
            part_rate[g] = 0.0;
            part_dq[g] = 0.0;
        }
        return;
    }
#endif
#if DEV_WALLED_APART
    strip_body(q_in, q_in, false, q_out, clock, part_rate, part_dq, mask, lr, ld, xs, xsolid,
               g % STAGE_GX, g / STAGE_GX, false);
#else
    if (e & 1)
        strip_body(q_in, q_in, false, q_out, clock, part_rate, part_dq, mask, lr, ld, xs,
                   xsolid, g % STAGE_GX, g / STAGE_GX, true);
    else
        strip_body(q_in, q_in, false, q_out, clock, part_rate, part_dq, mask, lr, ld, xs,
                   xsolid, g % STAGE_GX, g / STAGE_GX, false);
#endif
#else
    strip_body(q_in, q_in, false, q_out, clock, part_rate, part_dq, mask, lr, ld, xs, xsolid,
               GROUP_X, GROUP_Y, false);
#endif
#elif DEV_TILE == 3
    __local real lr[DEV_LX], ld[DEV_LX], xs[MSTRIP_XS + MSTRIP_XP];
    mstrip_body(q_in, q_in, false, q_out, clock, part_rate, part_dq, lr, ld, xs, GROUP_X,
                GROUP_Y);
#else
    __local real lr[DEV_LX * DEV_LY], ld[DEV_LX * DEV_LY], tp[TILE_VALS * TILE_N];
    stage_body(q_in, q_in, false, q_out, clock, part_rate, part_dq, mask, lr, ld, tp);
#endif
}

#if DEV_TILE == 2 && CFG_WALLS && DEV_WALLED_APART
/* stage_fe's groups that read a solid cell (flag 1), through the strip with its wall faces. */
__kernel void stage_fe_walled(__global const real* q_in, __global real* q_out,
                              __global const real* clock, __global real* part_rate,
                              __global real* part_dq, __global const int* mask,
                              __global const int* walled)
{
    __local real lr[DEV_LX], ld[DEV_LX], xs[STRIP_XS + STRIP_XP];
    __local int xsolid[2 * DEV_LX];
    const int g = walled[GROUP_X + GROUP_Y * STAGE_GX] >> 2;
    strip_body(q_in, q_in, false, q_out, clock, part_rate, part_dq, mask, lr, ld, xs, xsolid,
               g % STAGE_GX, g / STAGE_GX, true);
}
#endif

/* The second SSP-RK2 stage: q_out = ½ q0 + ½ (q_in + Δt L(q_in)). */
__kernel void stage_rk2(__global const real* q_in, __global const real* q0,
                        __global real* q_out, __global const real* clock,
                        __global real* part_rate, __global real* part_dq,
                        __global const int* mask)
{
#if DEV_TILE == 2
    __local real lr[DEV_LX], ld[DEV_LX], xs[STRIP_XS + STRIP_XP];
    __local int xsolid[2 * DEV_LX];
    strip_body(q_in, q0, true, q_out, clock, part_rate, part_dq, mask, lr, ld, xs, xsolid,
               GROUP_X, GROUP_Y, CFG_WALLS);
#elif DEV_TILE == 3
    __local real lr[DEV_LX], ld[DEV_LX], xs[MSTRIP_XS + MSTRIP_XP];
    mstrip_body(q_in, q0, true, q_out, clock, part_rate, part_dq, lr, ld, xs, GROUP_X, GROUP_Y);
#else
    __local real lr[DEV_LX * DEV_LY], ld[DEV_LX * DEV_LY], tp[TILE_VALS * TILE_N];
    stage_body(q_in, q0, true, q_out, clock, part_rate, part_dq, mask, lr, ld, tp);
#endif
}

/* Ghost value of variable v from a source cell (normal momentum `vn` reversed on a
 * reflective side) or the side's inflow state. */
inline real ghost_value(__global const real* q, __global const real* inflow, const int bc,
                        const int side, const int v, const int vn, const int src)
{
    if (bc == 2)
        return inflow[side * 4 + v];
    const real x = Q(q, v, src);
    return (bc == 1 && v == vn) ? -x : x;
}

/* Source index along an axis of ghost layer g (1 … NG, outward) of a side with n computed
 * cells (the twin of ghost_source; inflow: unused). */
inline int ghost_src(const int bc, const int n, const int g, const bool low)
{
    if (bc == 0)
        return low ? CFG_NG : CFG_NG + n - 1;
    if (bc == 1)
        return low ? CFG_NG + g - 1 : CFG_NG + n - g;
    return low ? CFG_NG + n - g : CFG_NG + g - 1;
}

/* x-ghosts of computed row w / NG, layer w % NG + 1, both sides. */
inline void ghost_row(__global real* q, __global const real* inflow, const int w)
{
    const int j = w / CFG_NG + J0, g = w % CFG_NG + 1;
    const int iw = CFG_NG - g, ie = CFG_NG + CFG_NX + g - 1;
    const int sw = ghost_src(CFG_WEST, CFG_NX, g, true), se = ghost_src(CFG_EAST, CFG_NX, g, false);
    /* Every value read before any is written: the sources are computed cells, never ghosts,
     * so the order is free, and the reads then overlap instead of waiting for each store. */
    real vw[4], ve[4];
    for (int v = 0; v < CFG_NV; v++) {
        vw[v] = ghost_value(q, inflow, CFG_WEST, 0, v, 1, IDX(sw, j));
        ve[v] = ghost_value(q, inflow, CFG_EAST, 1, v, 1, IDX(se, j));
    }
    for (int v = 0; v < CFG_NV; v++) {
        Q(q, v, IDX(iw, j)) = vw[v];
        Q(q, v, IDX(ie, j)) = ve[v];
    }
}

/* y-ghosts (2D) of computed column w / NG, layer w % NG + 1, both sides. */
inline void ghost_column(__global real* q, __global const real* inflow, const int w)
{
#if CFG_DIM == 2
    const int i = w / CFG_NG + CFG_NG, g = w % CFG_NG + 1;
    const int js = CFG_NG - g, jn = CFG_NG + CFG_NY + g - 1;
    const int ss = ghost_src(CFG_SOUTH, CFG_NY, g, true), sn = ghost_src(CFG_NORTH, CFG_NY, g, false);
    /* Read all, then write (as ghost_row). */
    real vs[4], vn[4];
    for (int v = 0; v < CFG_NV; v++) {
        vs[v] = ghost_value(q, inflow, CFG_SOUTH, 2, v, 2, IDX(i, ss));
        vn[v] = ghost_value(q, inflow, CFG_NORTH, 3, v, 2, IDX(i, sn));
    }
    for (int v = 0; v < CFG_NV; v++) {
        Q(q, v, IDX(i, js)) = vs[v];
        Q(q, v, IDX(i, jn)) = vn[v];
    }
#endif
}

/* x-ghosts of the computed rows: one work-item per (row, layer), both sides (1D). */
__kernel void ghosts_x(__global real* q, __global const real* inflow)
{
    const int w = get_global_id(0);
    if (w < CFG_NY * CFG_NG)
        ghost_row(q, inflow, w);
}

/* Both axes' ghosts in one launch (2D): items 0 … NY·NG − 1 fill the x-ghosts of the computed
 * rows, the next NX·NG the y-ghosts of the computed columns. The two sets of cells are
 * disjoint and every source is a computed cell, so one launch is the two in any order. */
__kernel void ghosts_2d(__global real* q, __global const real* inflow)
{
    const int w = get_global_id(0);
    if (w < CFG_NY * CFG_NG)
        ghost_row(q, inflow, w);
    else if (w < CFG_NY * CFG_NG + CFG_NX * CFG_NG)
        ghost_column(q, inflow, w - CFG_NY * CFG_NG);
}
