/* The kernels of one Brandvik–Pullan step (docs/method/bp.md, seed 001 §4), in launch order:
 * set_secondary, apply_bconds, flux_i, flux_j, calc_changes (calc_changes_first on the first
 * step), sum_changes, smooth, reduce. Every node and face runs one formula (cl/bp/formulas.cl)
 * through the host's index tables (§5); only apply_bconds is special, and it runs over the
 * inlet and outlet columns only. The twin of each kernel is the loop of the same step in
 * src/methods/bp/step.rs.
 *
 * -D contract: CFG_NI, CFG_NJ (nodes along i and j; the prelude's CFG_NXT, CFG_NYT equal them), CFG_GAMMA, CFG_CFL, CFG_SF, CFG_RHO0,
 * CFG_P_EXIT (exit static pressure), CFG_FREE_EXIT (optional flag: a supersonic exit, no
 * pressure imposed), CFG_NGROUPS (work-groups of `smooth`), DEV_RED (the
 * work-group of `smooth` and `reduce`, a power of two).
 *
 * Storage, structure of arrays: component v of node k = i + j·NI at v·NN + k (w, sec, tmp);
 * of i-face f = i + j·NI at v·NFI + f (fi, dli), of j-face f = i + j·NC at v·NFJ + f (fj, dlj),
 * of cell c = i + j·NC at v·NCELL + c (cells, prev); the tables per node at 4k + m (sum_idx,
 * smooth_idx, smooth_w); the inlet states per inlet node j at v·NJ + j (inlet, inlet_old). */

#ifndef CFG_NI
#error "CFG_NI not defined (nodes along i)"
#endif
#ifndef DEV_RED
#error "DEV_RED not defined (work-group of smooth and reduce)"
#endif

#define NN     (CFG_NI * CFG_NJ)
#define NC     (CFG_NI - 1)
#define NCJ    (CFG_NJ - 1)
#define NCELL  (NC * NCJ)
#define NFI    (CFG_NI * NCJ)
#define NFJ    (NC * CFG_NJ)
#define W(a,v,k)   ((a)[(v) * NN + (k)])

/* §4.1 (u, v, p, H) of node k (the twin of Flow::secondary). */
inline void put_secondary(__global const real* w, __global real* sec, const int k)
{
    const real r = W(w, 0, k);
    const real e = W(w, 3, k);
    const real u = bp_vel(r, W(w, 1, k));
    const real v = bp_vel(r, W(w, 2, k));
    const real p = bp_p(r, e, u, v);
    W(sec, 0, k) = u;
    W(sec, 1, k) = v;
    W(sec, 2, k) = p;
    W(sec, 3, k) = bp_h(r, e, p);
}

/* §4.1 set_secondary: every node. */
__kernel void set_secondary(__global const real* w, __global real* sec)
{
    const int k = get_global_id(0);
    if (k < NN)
        put_secondary(w, sec, k);
}

/* §4.7 apply_bconds over the inlet and outlet columns (one work-item per j): the inlet node
 * takes the state the host computed (step::inlet_state; its old state is kept in inlet_old
 * for the read-back of the state before the step; a supersonic inlet's state is fixed), the
 * outlet node the exit pressure (none with CFG_FREE_EXIT: the exit nodes keep the scheme's
 * one-sided update). */
__kernel void apply_bconds(__global real* w, __global real* sec, __global const real* inlet,
                           __global real* inlet_old)
{
    const int j = get_global_id(0);
    if (j >= CFG_NJ)
        return;
    const int k = j * CFG_NI;
    for (int v = 0; v < 4; v++) {
        inlet_old[v * CFG_NJ + j] = W(w, v, k);
        W(w, v, k) = inlet[v * CFG_NJ + j];
    }
    put_secondary(w, sec, k);
#ifndef CFG_FREE_EXIT
    W(sec, 2, CFG_NI - 1 + j * CFG_NI) = CFG_P_EXIT;
#endif
}

/* §4.2 the flux through the face of nodes a, b (projected length dl, multiplier mul) into
 * component v of f at v·n + at (the twin of Bp::face). */
inline void face(__global const real* w, __global const real* sec, const int a, const int b,
                 const real dlx, const real dly, const real mul, __global real* f, const int n,
                 const int at)
{
    const real m = bp_mass(mul, W(w, 1, a), W(w, 1, b), W(w, 2, a), W(w, 2, b), dlx, dly);
    const real pp = W(sec, 2, a) + W(sec, 2, b);
    f[at] = m;
    f[n + at] = bp_fmom(m, W(sec, 0, a), W(sec, 0, b), pp, dlx);
    f[2 * n + at] = bp_fmom(m, W(sec, 1, a), W(sec, 1, b), pp, dly);
    f[3 * n + at] = bp_fe(m, W(sec, 3, a), W(sec, 3, b));
}

/* §4.2 calc_fluxes, i-faces: face f = i + j·NI joins nodes (i, j) and (i, j+1). */
__kernel void flux_i(__global const real* w, __global const real* sec, __global const real* dli,
                     __global const real* mul_i, __global real* fi)
{
    const int f = get_global_id(0);
    if (f < NFI)
        face(w, sec, f, f + CFG_NI, dli[f], dli[NFI + f], mul_i[f], fi, NFI, f);
}

/* §4.2 calc_fluxes, j-faces: face f = i + j·NC joins nodes (i, j) and (i+1, j). */
__kernel void flux_j(__global const real* w, __global const real* sec, __global const real* dlj,
                     __global const real* mul_j, __global real* fj)
{
    const int f = get_global_id(0);
    if (f >= NFJ)
        return;
    const int i = f % NC, j = f / NC;
    const int a = i + j * CFG_NI;
    face(w, sec, a, a + 1, dlj[f], dlj[NFJ + f], mul_j[f], fj, NFJ, f);
}

/* §4.3–4.4 calc_changes of cell c with local time steps and SCREE: the change applied,
 * 2Δⁿ − Δⁿ⁻¹ (Δⁿ on the first step), into cells; Δⁿ kept in prev. */
inline void changes(__global const real* w, __global const real* sec, __global const real* fi,
                    __global const real* fj, __global const real* area,
                    __global const real* dmin, __global real* prev, __global real* cells,
                    const bool first)
{
    const int c = get_global_id(0);
    if (c >= NCELL)
        return;
    const int i = c % NC, j = c / NC;
    const int n0 = i + j * CFG_NI;
    const int nodes[4] = {n0, n0 + 1, n0 + 1 + CFG_NI, n0 + CFG_NI};
    real s = 0.0;
    for (int q = 0; q < 4; q++) {
        const int k = nodes[q];
        s = fmax(s, bp_speed(W(w, 0, k), W(sec, 0, k), W(sec, 1, k), W(sec, 2, k)));
    }
    const real r = bp_rate(dmin[c], s, area[c]);
    const int fa = i + j * CFG_NI, fu = i + (j + 1) * NC;
    for (int v = 0; v < 4; v++) {
        const real dn = bp_change(r, fi[v * NFI + fa], fi[v * NFI + fa + 1], fj[v * NFJ + c],
                                  fj[v * NFJ + fu]);
        const real old = first ? dn : prev[v * NCELL + c];
        cells[v * NCELL + c] = bp_scree(dn, old);
        prev[v * NCELL + c] = dn;
    }
}

__kernel void calc_changes(__global const real* w, __global const real* sec,
                           __global const real* fi, __global const real* fj,
                           __global const real* area, __global const real* dmin,
                           __global real* prev, __global real* cells)
{
    changes(w, sec, fi, fj, area, dmin, prev, cells, false);
}

__kernel void calc_changes_first(__global const real* w, __global const real* sec,
                                 __global const real* fi, __global const real* fj,
                                 __global const real* area, __global const real* dmin,
                                 __global real* prev, __global real* cells)
{
    changes(w, sec, fi, fj, area, dmin, prev, cells, true);
}

/* §4.5 sum_changes: every node adds ¼ of its four table cells' changes, into tmp. */
__kernel void sum_changes(__global const real* w, __global const real* cells,
                          __global const int* sum_idx, __global real* tmp)
{
    const int k = get_global_id(0);
    if (k >= NN)
        return;
    const int c0 = sum_idx[4 * k], c1 = sum_idx[4 * k + 1];
    const int c2 = sum_idx[4 * k + 2], c3 = sum_idx[4 * k + 3];
    for (int v = 0; v < 4; v++)
        W(tmp, v, k) = bp_sum(W(w, v, k), cells[v * NCELL + c0], cells[v * NCELL + c1],
                              cells[v * NCELL + c2], cells[v * NCELL + c3]);
}

/* §4.6 node k smoothed from tmp into w_new with the stencil nodes n0..n3 and weights
 * w0..w3; its residual |Δρ|/ρ0 against w (the state of the step after the boundary
 * conditions) into *res, and k into *bad if the result is not admissible. */
inline void smooth_node(__global const real* tmp, __global const real* w, __global real* w_new,
                        const int k, const int n0, const int n1, const int n2, const int n3,
                        const real w0, const real w1, const real w2, const real w3, real* res,
                        int* bad)
{
    real out[4];
    for (int v = 0; v < 4; v++) {
        const real avg = bp_avg(w0, w1, w2, w3, W(tmp, v, n0), W(tmp, v, n1), W(tmp, v, n2),
                                W(tmp, v, n3));
        out[v] = bp_blend(W(tmp, v, k), avg);
        W(w_new, v, k) = out[v];
    }
    *res = bp_res(out[0], W(w, 0, k));
    const real u = bp_vel(out[0], out[1]);
    const real vv = bp_vel(out[0], out[2]);
    if (!bp_admissible(out[0], bp_p(out[0], out[3], u, vv)))
        *bad = k;
}

/* The work-group's largest residual and smallest bad node into part_res, part_bad at slot. */
inline void group_reduce(__local real* lres, __local int* lbad, const real res, const int bad,
                         __global real* part_res, __global int* part_bad, const int slot)
{
    const int l = get_local_id(0);
    lres[l] = res;
    lbad[l] = bad;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = DEV_RED / 2; s > 0; s >>= 1) {
        if (l < s) {
            lres[l] = fmax(lres[l], lres[l + s]);
            lbad[l] = min(lbad[l], lbad[l + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        part_res[slot] = lres[0];
        part_bad[slot] = lbad[0];
    }
}

/* §4.6 smooth from tmp into w_new through the smooth table, and per work-group the largest
 * residual and the smallest index of a node that is not admissible (INT_MAX: none). Maxima
 * and minima do not depend on the order they are taken in, so the result is the
 * reference's. */
__kernel void smooth(__global const real* tmp, __global const real* w, __global real* w_new,
                     __global const int* smooth_idx, __global const real* smooth_w,
                     __global real* part_res, __global int* part_bad)
{
    __local real lres[DEV_RED];
    __local int lbad[DEV_RED];
    const int k = get_global_id(0);
    real res = 0.0;
    int bad = INT_MAX;
    if (k < NN)
        smooth_node(tmp, w, w_new, k, smooth_idx[4 * k], smooth_idx[4 * k + 1],
                    smooth_idx[4 * k + 2], smooth_idx[4 * k + 3], smooth_w[4 * k],
                    smooth_w[4 * k + 1], smooth_w[4 * k + 2], smooth_w[4 * k + 3], &res, &bad);
    group_reduce(lres, lbad, res, bad, part_res, part_bad, get_group_id(0));
}

/* One work-group of DEV_RED: the groups' maxima and minima into report[0] (the residual)
 * and report[1] (the first node that is not admissible, −1: none), and the density of the
 * inlet nodes of w_new into report[2 + j] (the host's next inlet condition). */
__kernel void reduce(__global const real* w_new, __global const real* part_res,
                     __global const int* part_bad, __global real* report)
{
    __local real lres[DEV_RED];
    __local int lbad[DEV_RED];
    const int l = get_local_id(0);
    real res = 0.0;
    int bad = INT_MAX;
    for (int g = l; g < CFG_NGROUPS; g += DEV_RED) {
        res = fmax(res, part_res[g]);
        bad = min(bad, part_bad[g]);
    }
    lres[l] = res;
    lbad[l] = bad;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = DEV_RED / 2; s > 0; s >>= 1) {
        if (l < s) {
            lres[l] = fmax(lres[l], lres[l + s]);
            lbad[l] = min(lbad[l], lbad[l + s]);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) {
        report[0] = lres[0];
        report[1] = lbad[0] == INT_MAX ? -1.0 : (real)lbad[0];
    }
    for (int j = l; j < CFG_NJ; j += DEV_RED)
        report[2 + j] = W(w_new, 0, j * CFG_NI);
}

/* After a step that left a node not admissible: the inlet column of w back to the state
 * before apply_bconds, so the state is the one before the step (as the reference's). */
__kernel void restore_inlet(__global real* w, __global const real* inlet_old)
{
    const int j = get_global_id(0);
    if (j < CFG_NJ)
        for (int v = 0; v < 4; v++)
            W(w, v, j * CFG_NI) = inlet_old[v * CFG_NJ + j];
}
