/* The ranges form of a Brandvik–Pullan step (spec §10 items 2–3; docs/decisions.md): the
 * interior nodes and faces find their neighbours by index arithmetic and use the constant
 * weights (no table reads), the boundary nodes and the two j-boundary face lines read compact
 * rows in launches of their own over those ranges only. Each kernel applies the same
 * formula to the same operands as its table twin in step.cl, so the results are the same
 * bits; the twin of the whole form is the ranges branch of src/methods/bp/step.rs.
 *
 * Launch order: set_secondary, apply_bconds, flux_i_r, flux_j_r, flux_j_edge, calc_changes,
 * sum_interior, sum_edge, smooth_interior, smooth_edge, reduce.
 *
 * -D contract (beyond step.cl's): CFG_NE (boundary nodes, 2·NI + 2·(NJ − 2)), CFG_G_INT
 * (work-groups of smooth_interior; smooth_edge's partials follow them, and CFG_NGROUPS is
 * the sum). Rows of the boundary node e: e_node[e], e_sum[4e + m], e_sidx[4e + m],
 * e_sw[4e + m]; mul_e: the multipliers of the j = 0 faces, then of the j = NJ − 1 faces. */

#ifndef CFG_NE
#error "CFG_NE not defined (boundary nodes of the ranges form)"
#endif

#define NIN   (CFG_NI - 2)
#define NINT  (NIN * (CFG_NJ - 2))

/* §4.2 i-faces: every multiplier is ½ (walls are j-faces). */
__kernel void flux_i_r(__global const real* w, __global const real* sec, __global const real* dli,
                       __global real* fi)
{
    const int f = get_global_id(0);
    if (f < NFI)
        face(w, sec, f, f + CFG_NI, dli[f], dli[NFI + f], 0.5, fi, NFI, f);
}

/* §4.2 the j-faces off the two boundary lines (j = 1 .. NJ − 2): multiplier ½. */
__kernel void flux_j_r(__global const real* w, __global const real* sec, __global const real* dlj,
                       __global real* fj)
{
    const int g = get_global_id(0);
    if (g >= NFJ - 2 * NC)
        return;
    const int f = NC + g;
    const int a = f % NC + (f / NC) * CFG_NI;
    face(w, sec, a, a + 1, dlj[f], dlj[NFJ + f], 0.5, fj, NFJ, f);
}

/* §4.2 the j-faces of the j = 0 and NJ − 1 lines: walls (0) or periodic seams (½). */
__kernel void flux_j_edge(__global const real* w, __global const real* sec,
                          __global const real* dlj, __global const real* mul_e, __global real* fj)
{
    const int e = get_global_id(0);
    if (e >= 2 * NC)
        return;
    const int f = e < NC ? e : (CFG_NJ - 1) * NC + (e - NC);
    const int a = f % NC + (f / NC) * CFG_NI;
    face(w, sec, a, a + 1, dlj[f], dlj[NFJ + f], mul_e[e], fj, NFJ, f);
}

/* §4.5 an interior node (i, j) plus ¼ of cells (i−1, j−1), (i, j−1), (i−1, j), (i, j). */
__kernel void sum_interior(__global const real* w, __global const real* cells, __global real* tmp)
{
    const int g = get_global_id(0);
    if (g >= NINT)
        return;
    const int i = 1 + g % NIN, j = 1 + g / NIN;
    const int k = i + j * CFG_NI;
    const int c2 = i - 1 + j * NC, c0 = c2 - NC;
    for (int v = 0; v < 4; v++)
        W(tmp, v, k) = bp_sum(W(w, v, k), cells[v * NCELL + c0], cells[v * NCELL + c0 + 1],
                              cells[v * NCELL + c2], cells[v * NCELL + c2 + 1]);
}

/* §4.5 a boundary node through its row. */
__kernel void sum_edge(__global const real* w, __global const real* cells,
                       __global const int* e_node, __global const int* e_sum, __global real* tmp)
{
    const int e = get_global_id(0);
    if (e >= CFG_NE)
        return;
    const int k = e_node[e];
    const int c0 = e_sum[4 * e], c1 = e_sum[4 * e + 1];
    const int c2 = e_sum[4 * e + 2], c3 = e_sum[4 * e + 3];
    for (int v = 0; v < 4; v++)
        W(tmp, v, k) = bp_sum(W(w, v, k), cells[v * NCELL + c0], cells[v * NCELL + c1],
                              cells[v * NCELL + c2], cells[v * NCELL + c3]);
}

/* §4.6 an interior node smoothed with its four neighbours at ¼ each; partials at the group. */
__kernel void smooth_interior(__global const real* tmp, __global const real* w,
                              __global real* w_new, __global real* part_res,
                              __global int* part_bad)
{
    __local real lres[DEV_RED];
    __local int lbad[DEV_RED];
    const int g = get_global_id(0);
    real res = 0.0;
    int bad = INT_MAX;
    if (g < NINT) {
        const int k = 1 + g % NIN + (1 + g / NIN) * CFG_NI;
        smooth_node(tmp, w, w_new, k, k - 1, k + 1, k - CFG_NI, k + CFG_NI, 0.25, 0.25, 0.25,
                    0.25, &res, &bad);
    }
    group_reduce(lres, lbad, res, bad, part_res, part_bad, get_group_id(0));
}

/* §4.6 a boundary node smoothed through its row; partials after smooth_interior's. */
__kernel void smooth_edge(__global const real* tmp, __global const real* w, __global real* w_new,
                          __global const int* e_node, __global const int* e_sidx,
                          __global const real* e_sw, __global real* part_res,
                          __global int* part_bad)
{
    __local real lres[DEV_RED];
    __local int lbad[DEV_RED];
    const int e = get_global_id(0);
    real res = 0.0;
    int bad = INT_MAX;
    if (e < CFG_NE)
        smooth_node(tmp, w, w_new, e_node[e], e_sidx[4 * e], e_sidx[4 * e + 1], e_sidx[4 * e + 2],
                    e_sidx[4 * e + 3], e_sw[4 * e], e_sw[4 * e + 1], e_sw[4 * e + 2],
                    e_sw[4 * e + 3], &res, &bad);
    group_reduce(lres, lbad, res, bad, part_res, part_bad, CFG_G_INT + get_group_id(0));
}
