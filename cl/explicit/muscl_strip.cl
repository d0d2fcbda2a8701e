/* The MUSCL strip stage (DEV_TILE = 3: 2D MUSCL with the SHLL flux, Euler and shallow water,
 * no walls; docs/method/shll.md §9). The reference's face flux is F⁺(left state) +
 * F⁻(right state) (face_flux), its face states are a cell's state ± half its slope along
 * the axis (face_states_sl), and a slope is a function of the cell and its two neighbours
 * alone (slopes). So each cell computes its x and y slopes, its four face states with their
 * primitives, and the four half fluxes it gives its faces once: F⁺_x of its east state, F⁻_x
 * of its west, F⁺_y of its north, F⁻_y of its south; a face adds two of them. The same
 * operations in the same order as the reference, hence the same bits, with 2 slopes and 4
 * face states' fluxes per cell where the plain stage computes 4 and 6.
 *
 * A work-group is one row of DEV_LX work-items that sweeps up a strip of DEV_RPI rows. Item
 * lx holds column i = gx·(DEV_LX − 4) + lx − 2: the two items at each end hold halo columns
 * (the outer one only its state, for the inner one's slope), so a group updates DEV_LX − 4
 * columns (MSTRIP_W). Pass rr reads row R = j0 + rr (rr = −2 … DEV_RPI + 1: two halo rows
 * below and above; each read one pass ahead) and then
 *  - puts its state of row R and its x half fluxes of row R − 1 in the row buffer (two
 *    buffers, one barrier per pass);
 *  - row R − 1: its x faces from its own and its neighbours' half fluxes, and the x half of
 *    its update (fv_update_1d, as in the first-order strip);
 *  - row R: its x slope from the neighbours' states, its east and west states and their half
 *    fluxes, kept for the next pass;
 *  - row R − 1: its y slope from rows R − 2, R − 1 and R (kept in registers), its north and
 *    south states and their half fluxes, and its south face: the row below's F⁺_y plus its
 *    own F⁻_y;
 *  - row R − 2: finished with that face as its north face (its x half and south face wait
 *    in local memory, read by the item alone). */

#if DEV_TILE == 3
#if CFG_FLUX != 0 || !CFG_MUSCL || CFG_DIM != 2 || DEV_LY != 1 || CFG_WALLS || CFG_NG < 2 \
    || (CFG_SYS != 1 && CFG_SYS != 2)
#error "the MUSCL strip is 2D MUSCL SHLL, Euler or shallow water, no walls, one row of items"
#endif
#define MSTRIP_W   (DEV_LX - 4)
/* Local reals of the two row buffers: per item its state (components 0–3), F⁺_x of its east
 * state (4–7) and F⁻_x of its west state (8–11). */
#define MSTRIP_XS  (2 * 12 * DEV_LX)
#ifndef DEV_MSTRIP_LOCAL
#error "DEV_MSTRIP_LOCAL not defined (1: rows R - 1, R - 2, x half fluxes in local memory)"
#endif
/* Local reals of the pending row: per item its x-updated state (0–3), its south face (4–7),
 * and with DEV_MSTRIP_LOCAL the rows R − 1 (8–11) and R − 2 (12–15). */
#define MSTRIP_XP  ((DEV_MSTRIP_LOCAL ? 16 : 8) * DEV_LX)

/* admissible(x) of a face state x whose primitives P are known: the same pressure (prim_of
 * and admissible compute it by the same operations), so the same answer. */
inline bool admissible_p(const real* x, const real* P)
{
#if CFG_SYS == 1
    return x[0] > 0.0 && P[2] > 0.0;
#else
    return x[0] >= 0.0;
#endif
}

/* A cell's two face states along an axis (natural frame) from its state s and its
 * neighbours' sm (−) and sp (+): the + state hi and the − state lo with their primitives,
 * from the limited slope (slopes), or from a slope of 0 where either state with it is not
 * admissible (slopes' fallback; face_states_sl then adds half of that 0). */
inline void face_pair(const real* sm, const real* s, const real* sp, real* hi, real* Ph,
                      real* lo, real* Pl)
{
    real sl[4] = {0.0, 0.0, 0.0, 0.0};
    for (int v = 0; v < CFG_NV; v++)
        sl[v] = muscl_slope(sm[v], s[v], sp[v]);
    for (int pass = 0; pass < 2; pass++) {
        for (int v = 0; v < 4; v++) {
            hi[v] = v < CFG_NV ? muscl_plus(s[v], sl[v]) : s[v];
            lo[v] = v < CFG_NV ? muscl_minus(s[v], sl[v]) : s[v];
        }
        prim_of(hi, Ph);
        prim_of(lo, Pl);
        if (admissible_p(hi, Ph) && admissible_p(lo, Pl))
            return;
        for (int v = 0; v < 4; v++)
            sl[v] = 0.0;
    }
}

inline void mstrip_body(__global const real* q_in, __global const real* q0, const bool rk2,
                        __global real* q_out, __global const real* clock,
                        __global real* part_rate, __global real* part_dq, __local real* lr,
                        __local real* ld, __local real* xs, const int gx, const int gy)
{
    const int lx = get_local_id(0);
    const int i = gx * MSTRIP_W + lx - 2;
    const int j0 = gy * DEV_RPI;
    /* Columns −NG … NX + NG − 1 are stored; items past them only hold barriers. */
    const bool col = i + CFG_NG < CFG_NXT;
    /* Items with both neighbours compute x slopes; the inner DEV_LX − 4 update. */
    const bool inner = col && lx >= 1 && lx <= DEV_LX - 2;
    const bool updates = lx >= 2 && lx <= DEV_LX - 3 && i < CFG_NX;
    const real dt = clock[0];
    const real dtdx = dt / CFG_DX, dtdy = dt / CFG_DY;
    real r = 0.0, d = 0.0;
    __local real* lp = xs + MSTRIP_XS + lx;
#define PA(v)  lp[(v) * DEV_LX]
#define PFS(v) lp[(4 + (v)) * DEV_LX]
    /* The pending row R − 2: the first component of its state, its index, whether it is. */
    real ps0 = 0.0;
    int pk = 0;
    bool pend = false;
    /* The states of rows R − 1 (S1) and R − 2 (S2), the next row's (sn), this item's x half
     * fluxes of the last row (hpe: F⁺_x of the east state, hmw: F⁻_x of the west state),
     * whether that row was one the strip updates, and F⁺_y of the last row's north state.
     * With DEV_MSTRIP_LOCAL (fewer registers) S1 and S2 live in the item's local slots and
     * the half fluxes go straight into the next pass's row buffer (free once this pass's
     * barrier is passed: every item has finished reading it). */
#if DEV_MSTRIP_LOCAL
#define S1(v) lp[(8 + (v)) * DEV_LX]
#define S2(v) lp[(12 + (v)) * DEV_LX]
    for (int v = 0; v < 4; v++)
        S1(v) = S2(v) = 0.0;
#else
    real s1[4] = {0.0, 0.0, 0.0, 0.0}, s2[4] = {0.0, 0.0, 0.0, 0.0};
#define S1(v) s1[v]
#define S2(v) s2[v]
#endif
    real sn[4] = {0.0, 0.0, 0.0, 0.0};
    real hpe[4] = {0.0, 0.0, 0.0, 0.0}, hmw[4] = {0.0, 0.0, 0.0, 0.0};
    real fpn_b[4] = {0.0, 0.0, 0.0, 0.0};
    bool xlast = false;
    if (col)
        load(q_in, IDX(i + CFG_NG, j0 - 2 + CFG_NG), sn);
    for (int rr = -2; rr <= DEV_RPI + 1; rr++) {
        const int j = j0 + rr;
        const int k = IDX(i + CFG_NG, j + CFG_NG);
        real s[4];
        for (int v = 0; v < 4; v++)
            s[v] = sn[v];
        if (rr <= DEV_RPI && col && j + 1 + CFG_NG < CFG_NYT)
            load(q_in, k + CFG_NXT, sn);
        __local real* xb = xs + (rr & 1) * (12 * DEV_LX);
        if (col) {
            for (int v = 0; v < CFG_NV; v++) {
                xb[v * DEV_LX + lx] = s[v];
#if !DEV_MSTRIP_LOCAL
                xb[(4 + v) * DEV_LX + lx] = hpe[v];
                xb[(8 + v) * DEV_LX + lx] = hmw[v];
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* Row R − 1: its x faces and the x half of its update. */
        const bool xdone = xlast && updates;
        real pa[4] = {0.0, 0.0, 0.0, 0.0};
        if (xdone) {
            for (int v = 0; v < CFG_NV; v++) {
#if DEV_MSTRIP_LOCAL
                hmw[v] = xb[(8 + v) * DEV_LX + lx];
                hpe[v] = xb[(4 + v) * DEV_LX + lx];
#endif
                const real fw = xb[(4 + v) * DEV_LX + lx - 1] + hmw[v];
                const real fe = hpe[v] + xb[(8 + v) * DEV_LX + lx + 1];
                pa[v] = fv_update_1d(S1(v), fw, fe, dtdx);
            }
        }
        /* Row R: its x slope, east and west states and their half fluxes. */
        xlast = rr >= 0 && rr < DEV_RPI && j < CFG_NY;
        if (xlast && inner) {
            real sm[4], sp[4], e[4], pe[4], w[4], pw[4], t[4];
            for (int v = 0; v < 4; v++) {
                sm[v] = v < CFG_NV ? xb[v * DEV_LX + lx - 1] : 0.0;
                sp[v] = v < CFG_NV ? xb[v * DEV_LX + lx + 1] : 0.0;
            }
            face_pair(sm, s, sp, e, pe, w, pw);
            split_of(e, pe, shll_chi(pe[0], pe[3]), 0, hpe, t);
            split_of(w, pw, shll_chi(pw[0], pw[3]), 0, t, hmw);
#if DEV_MSTRIP_LOCAL
            __local real* xnext = xs + ((rr + 1) & 1) * (12 * DEV_LX);
            for (int v = 0; v < CFG_NV; v++) {
                xnext[(4 + v) * DEV_LX + lx] = hpe[v];
                xnext[(8 + v) * DEV_LX + lx] = hmw[v];
            }
#endif
        }
        /* Row R − 1 (from the halo row below to the one above): its y slope, north and south
         * states and their half fluxes, and its south face fs. */
        real fs[4] = {0.0, 0.0, 0.0, 0.0};
        if (updates && rr >= 0 && j - 1 <= CFG_NY) {
            real n[4], pn[4], so[4], ps[4], fpn[4], fms[4], t[4];
            real a1[4], a2[4];
            for (int v = 0; v < 4; v++) {
                a1[v] = S1(v);
                a2[v] = S2(v);
            }
            face_pair(a2, a1, s, n, pn, so, ps);
            frame(n, 1);
            frame(so, 1);
            split_of(n, pn, shll_chi(pn[1], pn[3]), 1, fpn, t);
            split_of(so, ps, shll_chi(ps[1], ps[3]), 1, t, fms);
            for (int v = 0; v < CFG_NV; v++) {
                fs[v] = fpn_b[v] + fms[v];
                fpn_b[v] = fpn[v];
            }
            frame(fs, 1);
        }
        /* Row R − 2: finished with its north face, row R − 1's south face (cell_update's
         * end). */
        if (pend) {
            real o[4], b[4];
            o[3] = 0.0;
            for (int v = 0; v < CFG_NV; v++)
                o[v] = fv_update_1d(PA(v), PFS(v), fs[v], dtdy);
            if (rk2) {
                load(q0, pk, b);
                for (int v = 0; v < CFG_NV; v++)
                    o[v] = rk2_average(b[v], o[v]);
            } else {
                b[0] = ps0;
            }
#if CFG_SYS == 2
            if (!sw_wet(o[0])) {
                o[1] = 0.0;
                o[2] = 0.0;
            }
#endif
            for (int v = 0; v < CFG_NV; v++)
                Q(q_out, v, pk) = o[v];
            r = nan_max(r, rate(o));
            d = nan_max(d, fabs(o[0] - b[0]));
        }
        /* Row R − 1 waits for its north face. */
        pend = xdone;
        if (pend) {
            for (int v = 0; v < 4; v++) {
                PA(v) = pa[v];
                PFS(v) = fs[v];
            }
            ps0 = S1(0);
            pk = k - CFG_NXT;
        }
        for (int v = 0; v < 4; v++) {
            S2(v) = S1(v);
            S1(v) = s[v];
        }
    }
    group_partials(lr, ld, lx, DEV_LX, r, d, part_rate, part_dq, gx + gy * STAGE_GX);
#undef PA
#undef PFS
#undef S1
#undef S2
}
#endif
