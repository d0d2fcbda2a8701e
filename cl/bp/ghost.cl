/* The ghost form of a Brandvik–Pullan step (docs/method/bp.md "Boundary forms"): the node
 * grid padded with one ghost layer (GI × GJ nodes, padded node (p, q) = real (p − 1, q − 1)),
 * filled after apply_bconds, then the interior stencils on every padded face and cell and
 * every real node, with no tables and no boundary branches. The twin is
 * src/methods/bp/ghost.rs, operation for operation.
 *
 * Launch order: set_secondary, apply_bconds, ghost_copy, ghost_walls, ghost_flux_i,
 * ghost_flux_j, ghost_changes (ghost_changes_first on the first step), ghost_sum,
 * ghost_smooth, reduce.
 *
 * Padded arrays, structure of arrays: gw, gsec, gtmp at v·GNN + n; gfi (i-faces, n = p + q·GI)
 * at v·GFI + n, gfj (j-faces, p + q·GC) at v·GFJ + n, gcells and gprev at v·GCELL + c;
 * gdli, gdlj as dli, dlj; gnorm: the unit wall normals per padded column, lower wall
 * (x at 2p, y at 2p + 1), then the upper wall (from 2·GI). */

#define GI     (CFG_NI + 2)
#define GJ     (CFG_NJ + 2)
#define GNN    (GI * GJ)
#define GC     (GI - 1)
#define GCELL  (GC * (GJ - 1))
#define GFI    (GI * (GJ - 1))
#define GFJ    (GC * GJ)
#define GW(a,v,k)   ((a)[(v) * GNN + (k)])

/* The real nodes and the inlet and exit columns (p = 0, GI − 1: copies of the boundary node
 * after its condition), one item per padded node of the rows q = 1 .. NJ. Ghost values go
 * into gtmp too: the smoothing reads them there. */
__kernel void ghost_copy(__global const real* w, __global const real* sec, __global real* gw,
                         __global real* gsec, __global real* gtmp)
{
    const int g = get_global_id(0);
    if (g >= GI * CFG_NJ)
        return;
    const int p = g % GI, j = g / GI;
    const int i = p == 0 ? 0 : (p == GI - 1 ? CFG_NI - 1 : p - 1);
    const int k = i + j * CFG_NI, n = p + (j + 1) * GI;
    for (int v = 0; v < 4; v++) {
        GW(gw, v, n) = W(w, v, k);
        GW(gsec, v, n) = W(sec, v, k);
        if (p == 0 || p == GI - 1)
            GW(gtmp, v, n) = W(w, v, k);
    }
}

/* a − 2(a·n)n, component 0 or 1 (the twin of ghost::mirror). */
/* The wall rows (q = 0 from q = 2, GJ − 1 from GJ − 3; corners included): the mirror across
 * the wall line, one item per padded column and wall. */
__kernel void ghost_walls(__global const real* gnorm, __global real* gw, __global real* gsec,
                          __global real* gtmp)
{
    const int e = get_global_id(0);
    if (e >= 2 * GI)
        return;
    const int side = e / GI, p = e % GI;
    const real n0 = gnorm[2 * e], n1 = gnorm[2 * e + 1];
    const int s = p + (side == 0 ? 2 : GJ - 3) * GI;
    const int o = p + (side == 0 ? 0 : GJ - 1) * GI;
    const real m1 = GW(gw, 1, s), m2 = GW(gw, 2, s);
    const real dm = m1 * n0 + m2 * n1;
    const real u = GW(gsec, 0, s), v = GW(gsec, 1, s);
    const real du = u * n0 + v * n1;
    const real out[4] = {GW(gw, 0, s), m1 - 2.0 * dm * n0, m2 - 2.0 * dm * n1, GW(gw, 3, s)};
    for (int c = 0; c < 4; c++) {
        GW(gw, c, o) = out[c];
        GW(gtmp, c, o) = out[c];
    }
    GW(gsec, 0, o) = u - 2.0 * du * n0;
    GW(gsec, 1, o) = v - 2.0 * du * n1;
    GW(gsec, 2, o) = GW(gsec, 2, s);
    GW(gsec, 3, o) = GW(gsec, 3, s);
}

/* §4.2 the flux through the padded face of nodes a, b, multiplier ½. */
inline void gface(__global const real* gw, __global const real* gsec, const int a, const int b,
                  const real dlx, const real dly, __global real* f, const int n, const int at)
{
    const real m = bp_mass(0.5, GW(gw, 1, a), GW(gw, 1, b), GW(gw, 2, a), GW(gw, 2, b), dlx, dly);
    const real pp = GW(gsec, 2, a) + GW(gsec, 2, b);
    f[at] = m;
    f[n + at] = bp_fmom(m, GW(gsec, 0, a), GW(gsec, 0, b), pp, dlx);
    f[2 * n + at] = bp_fmom(m, GW(gsec, 1, a), GW(gsec, 1, b), pp, dly);
    f[3 * n + at] = bp_fe(m, GW(gsec, 3, a), GW(gsec, 3, b));
}

__kernel void ghost_flux_i(__global const real* gw, __global const real* gsec,
                           __global const real* gdli, __global real* gfi)
{
    const int f = get_global_id(0);
    if (f < GFI)
        gface(gw, gsec, f, f + GI, gdli[f], gdli[GFI + f], gfi, GFI, f);
}

__kernel void ghost_flux_j(__global const real* gw, __global const real* gsec,
                           __global const real* gdlj, __global real* gfj)
{
    const int f = get_global_id(0);
    if (f >= GFJ)
        return;
    const int a = f % GC + (f / GC) * GI;
    gface(gw, gsec, a, a + 1, gdlj[f], gdlj[GFJ + f], gfj, GFJ, f);
}

/* §4.3–4.4 a padded cell's change with its local time step and SCREE. */
inline void gchanges(__global const real* gw, __global const real* gsec, __global const real* gfi,
                     __global const real* gfj, __global const real* garea,
                     __global const real* gdmin, __global real* gprev, __global real* gcells,
                     const bool first)
{
    const int c = get_global_id(0);
    if (c >= GCELL)
        return;
    const int i = c % GC, j = c / GC;
    /* The padded ring's cells have no SCREE memory (the twin's comment says why). */
    const bool ghost = i == 0 || i == GC - 1 || j == 0 || j == GJ - 2;
    const int n0 = i + j * GI;
    const int nodes[4] = {n0, n0 + 1, n0 + 1 + GI, n0 + GI};
    real s = 0.0;
    for (int q = 0; q < 4; q++) {
        const int k = nodes[q];
        s = fmax(s, bp_speed(GW(gw, 0, k), GW(gsec, 0, k), GW(gsec, 1, k), GW(gsec, 2, k)));
    }
    const real r = bp_rate(gdmin[c], s, garea[c]);
    const int fa = i + j * GI, fu = i + (j + 1) * GC;
    for (int v = 0; v < 4; v++) {
        const real dn = bp_change(r, gfi[v * GFI + fa], gfi[v * GFI + fa + 1], gfj[v * GFJ + c],
                                  gfj[v * GFJ + fu]);
        const real old = (first || ghost) ? dn : gprev[v * GCELL + c];
        gcells[v * GCELL + c] = bp_scree(dn, old);
        gprev[v * GCELL + c] = dn;
    }
}

__kernel void ghost_changes(__global const real* gw, __global const real* gsec,
                            __global const real* gfi, __global const real* gfj,
                            __global const real* garea, __global const real* gdmin,
                            __global real* gprev, __global real* gcells)
{
    gchanges(gw, gsec, gfi, gfj, garea, gdmin, gprev, gcells, false);
}

__kernel void ghost_changes_first(__global const real* gw, __global const real* gsec,
                                  __global const real* gfi, __global const real* gfj,
                                  __global const real* garea, __global const real* gdmin,
                                  __global real* gprev, __global real* gcells)
{
    gchanges(gw, gsec, gfi, gfj, garea, gdmin, gprev, gcells, true);
}

/* §4.5 a real node plus ¼ of its four padded cells, into gtmp. */
__kernel void ghost_sum(__global const real* w, __global const real* gcells, __global real* gtmp)
{
    const int k = get_global_id(0);
    if (k >= NN)
        return;
    const int p = k % CFG_NI + 1, q = k / CFG_NI + 1;
    const int c = p + (q - 1) * GC, n = p + q * GI;
    for (int v = 0; v < 4; v++)
        GW(gtmp, v, n) = bp_sum(W(w, v, k), gcells[v * GCELL + c - 1], gcells[v * GCELL + c],
                                gcells[v * GCELL + c + GC - 1], gcells[v * GCELL + c + GC]);
}

/* §4.6 a real node smoothed with its four padded neighbours at ¼ each, into w_new; partials
 * per work-group as smooth's. */
__kernel void ghost_smooth(__global const real* gtmp, __global const real* w,
                           __global real* w_new, __global real* part_res, __global int* part_bad)
{
    __local real lres[DEV_RED];
    __local int lbad[DEV_RED];
    const int k = get_global_id(0);
    real res = 0.0;
    int bad = INT_MAX;
    if (k < NN) {
        const int n = k % CFG_NI + 1 + (k / CFG_NI + 1) * GI;
        real out[4];
        for (int v = 0; v < 4; v++) {
            const real avg = bp_avg(0.25, 0.25, 0.25, 0.25, GW(gtmp, v, n - 1),
                                    GW(gtmp, v, n + 1), GW(gtmp, v, n - GI), GW(gtmp, v, n + GI));
            out[v] = bp_blend(GW(gtmp, v, n), avg);
            W(w_new, v, k) = out[v];
        }
        res = bp_res(out[0], W(w, 0, k));
        const real u = bp_vel(out[0], out[1]);
        const real vv = bp_vel(out[0], out[2]);
        if (!bp_admissible(out[0], bp_p(out[0], out[3], u, vv)))
            bad = k;
    }
    group_reduce(lres, lbad, res, bad, part_res, part_bad, get_group_id(0));
}
