/* The explicit methods' kernels (docs/method/shll.md §7): one fused kernel per stage that
 * recomputes every face flux from the stage's input state (no stored split fluxes), the
 * ghost fills, and the one-group kernel that turns the per-group maxima into the next Δt.
 * Each inline function is the twin of a Rust function of the same name in
 * src/methods/explicit/reference/cell.rs: they work on whole states (a private array of
 * components), which expression macros cannot return; the formulas are the fragments.
 *
 * -D contract: CFG_NXT, CFG_NYT, CFG_NS (stored columns, rows, cells per variable), CFG_NX,
 * CFG_NY (computed), CFG_NG (ghost layers), CFG_DIM (1, 2), CFG_NV, CFG_SYS (1 Euler,
 * 2 shallow water, 3 convection–diffusion, 4 convection), CFG_FLUX (0 SHLL, 1 HLL,
 * 2 Rusanov), CFG_MUSCL, CFG_LIMITER, CFG_CLAMP_CHI, CFG_D, CFG_WALLS, CFG_SOLID_GROUPS (the
 * strip skips the groups whose computed cells are all solid), CFG_DX, CFG_DY,
 * CFG_CFL, CFG_T_END, CFG_FIXED_DT, CFG_NGROUPS, the system constants (CFG_GAMMA,
 * CFG_PHI_DRY, CFG_CX, CFG_CY, CFG_AX, CFG_AY, CFG_NU, CFG_NUX, CFG_NUY), the sides
 * (CFG_WEST, CFG_EAST, CFG_SOUTH, CFG_NORTH: 0 outflow, 1 reflective, 2 inflow, 3 periodic);
 * DEV_LX, DEV_LY (stage work-group), DEV_RPI (cells per work-item), DEV_TILE (1: the tiled
 * stage of 2D first-order Euler and shallow water, see tile_fill; 2: the strip stage of
 * first-order SHLL, see strip_body; 3: the MUSCL strip, cl/explicit/muscl_strip.cl),
 * DEV_PREFETCH (the strip reads each row one row ahead),
 * DEV_UNROLL (the strip's row loop unrolled that many times; 1: not unrolled),
 * DEV_LOCAL_PENDING (the strip's pending row in local memory, not in registers),
 * DEV_WALLED_APART (with walls: the strip's walled groups in stage_fe_walled, cl/explicit/kernels.cl),
 * DEV_RED (reduction work-groups), CFG_NGROUPS2 (groups of `reduce`).
 *
 * Storage: variable v of stored cell k at v·CFG_NS + k, k = i + j·CFG_NXT; computed cells
 * i = NG … NG+NX−1 and j = NG … NG+NY−1 (2D) or j = 0 (1D). Bytes per cell and stage
 * (compulsory DRAM traffic): 8·NV read + 8·NV written (+ 8·NV read of U⁰ in the second RK2
 * stage, + 4 of the mask with walls). */

#ifndef DEV_WALLED_APART
#error "DEV_WALLED_APART not defined (1: the strip's walled groups in a kernel of their own)"
#endif
#ifndef CFG_SYS
#error "CFG_SYS not defined (1 Euler, 2 shallow water, 3 convection-diffusion, 4 convection)"
#endif
#ifndef DEV_LX
#error "DEV_LX not defined (stage work-group width)"
#endif

#define Q(q,v,k)   ((q)[(v) * CFG_NS + (k)])
#if CFG_WALLS
#define SOLID(k)   (mask[(k)] != 0)
#else
#define SOLID(k)   (false)
#endif
#define J0         (CFG_DIM == 2 ? CFG_NG : 0)
#define TWO_D      (CFG_DIM == 2)

/* The stage kernels' grid of work-groups: STAGE_GX groups along x (the whole launch's), and
 * a group's place in it from its global ids, not get_group_id, so that a launch may cover a
 * rectangle of the grid (a global work offset of whole groups: on a rank the boundary cells
 * are computed first, src/methods/explicit/opencl/bands.rs) and update the cells, fill the
 * tile and write the partial maxima of the whole launch's groups. */
#if CFG_DIM == 2 && DEV_TILE == 2
/* The strip stage: a group updates DEV_LX − 2 columns (its first and last items are halo). */
#define STAGE_GX   ((CFG_NX + DEV_LX - 3) / (DEV_LX - 2))
#elif CFG_DIM == 2 && DEV_TILE == 3
/* The MUSCL strip: DEV_LX − 4 columns (two halo items at each end). */
#define STAGE_GX   ((CFG_NX + DEV_LX - 5) / (DEV_LX - 4))
#elif CFG_DIM == 2
#define STAGE_GX   ((CFG_NX + DEV_LX - 1) / DEV_LX)
#else
#define STAGE_GX   ((CFG_NX + DEV_LX * DEV_RPI - 1) / (DEV_LX * DEV_RPI))
#endif
#define GROUP_X    ((int)(get_global_id(0) - get_local_id(0)) / DEV_LX)
#define GROUP_Y    ((int)(get_global_id(1) - get_local_id(1)) / DEV_LY)

inline void load(__global const real* q, const int k, real* s)
{
    s[0] = Q(q, 0, k);
    s[1] = CFG_NV > 1 ? Q(q, 1, k) : 0.0;
    s[2] = CFG_NV > 2 ? Q(q, 2, k) : 0.0;
    s[3] = CFG_NV > 3 ? Q(q, 3, k) : 0.0;
}

inline void frame(real* s, const int axis)
{
#if CFG_SYS == 1 || CFG_SYS == 2
    if (axis == 1) {
        const real t = s[1];
        s[1] = s[2];
        s[2] = t;
    }
#endif
}

inline void mirror(const real* s, real* m)
{
    m[0] = s[0];
#if CFG_SYS == 1 || CFG_SYS == 2
    m[1] = -s[1];
#else
    m[1] = s[1];
#endif
    m[2] = s[2];
    m[3] = s[3];
}

inline void phys(const real* s, const int axis, real* f, real* un, real* a)
{
#if CFG_SYS == 1
    const real ri = 1.0 / s[0];
    *un = s[1] * ri;
    const real ut = s[2] * ri;
    const real p = euler_p(s[1], s[2], *un, ut, s[3]);
    *a = euler_a(ri, p);
    f[0] = s[1];
    f[1] = euler_f_mn(s[1], *un, p);
    f[2] = euler_f_mt(s[2], *un);
    f[3] = euler_f_e(s[3], p, *un);
#elif CFG_SYS == 2
    *un = sw_vel(s[0], s[1]);
    *a = sw_a(s[0]);
    f[0] = sw_f_phi(s[0], *un);
    f[1] = sw_f_mn(s[0], s[1], *un);
    f[2] = sw_f_mt(s[2], *un);
    f[3] = 0.0;
#else
    const real c = axis == 0 ? CFG_CX : CFG_CY;
    *un = c;
    *a = axis == 0 ? CFG_AX : CFG_AY;
    f[0] = c * s[0];
    f[1] = 0.0;
    f[2] = 0.0;
    f[3] = 0.0;
#endif
}

/* The flux through a face from its two states and their physical fluxes, normal velocities
 * and wave speeds (the part of face_flux after phys). */
/* The critical number of a face side for the flux in use (SHLL's χ; 0 for HLL, Rusanov). */
inline real chi_of(const real un, const real a)
{
#if CFG_FLUX == 0
    return shll_chi(un, a);
#else
    return 0.0;
#endif
}

/* face_flux_of with the two sides' critical numbers cl, cr (read by SHLL only). */
inline void face_flux_chi(const real* l, const real* r, const real* fl, const real ul,
                          const real al, const real cl, const real* fr, const real ur,
                          const real ar, const real cr, real* f)
{
#if CFG_FLUX == 0
    for (int v = 0; v < CFG_NV; v++)
        f[v] = shll_plus(l[v], fl[v], al, cl) + shll_minus(r[v], fr[v], ar, cr);
#elif CFG_FLUX == 1
    const real sl = hll_sl(ul, al, ur, ar);
    const real sr = hll_sr(ul, al, ur, ar);
    for (int v = 0; v < CFG_NV; v++)
        f[v] = hll_flux(l[v], r[v], fl[v], fr[v], sl, sr);
#else
    const real s = rusanov_s(ul, al, ur, ar);
    for (int v = 0; v < CFG_NV; v++)
        f[v] = rusanov_flux(l[v], r[v], fl[v], fr[v], s);
#endif
}

inline void face_flux_of(const real* l, const real* r, const real* fl, const real ul,
                         const real al, const real* fr, const real ur, const real ar, real* f)
{
    face_flux_chi(l, r, fl, ul, al, chi_of(ul, al), fr, ur, ar, chi_of(ur, ar), f);
}

inline void face_flux(const real* l, const real* r, const int axis, real* f)
{
    real fl[4], fr[4], ul, al, ur, ar;
    phys(l, axis, fl, &ul, &al);
    phys(r, axis, fr, &ur, &ar);
    face_flux_of(l, r, fl, ul, al, fr, ur, ar, f);
}

inline bool admissible(const real* s)
{
#if CFG_SYS == 1
    const real ri = 1.0 / s[0];
    return s[0] > 0.0 && euler_p(s[1], s[2], s[1] * ri, s[2] * ri, s[3]) > 0.0;
#elif CFG_SYS == 2
    return s[0] >= 0.0;
#else
    return true;
#endif
}

#if CFG_MUSCL
inline void slopes(__global const real* q, __global const int* mask, const int k, const int km,
                   const int kp, real* s)
{
    s[0] = 0.0;
    s[1] = 0.0;
    s[2] = 0.0;
    s[3] = 0.0;
    if (SOLID(km) || SOLID(kp))
        return;
    real sm[4], s0[4], sp[4], hi[4], lo[4];
    load(q, km, sm);
    load(q, k, s0);
    load(q, kp, sp);
    hi[3] = lo[3] = hi[2] = lo[2] = hi[1] = lo[1] = 0.0;
    for (int v = 0; v < CFG_NV; v++) {
        s[v] = muscl_slope(sm[v], s0[v], sp[v]);
        hi[v] = muscl_plus(s0[v], s[v]);
        lo[v] = muscl_minus(s0[v], s[v]);
    }
    if (!(admissible(hi) && admissible(lo))) {
        s[0] = 0.0;
        s[1] = 0.0;
        s[2] = 0.0;
        s[3] = 0.0;
    }
}
#endif

/* face_states with the two cells' MUSCL slopes sl, sr given (read with CFG_MUSCL only): a
 * cell's slope along an axis is the same for both its faces, so a caller that has them
 * passes them instead of computing them again (the same values, the same bits). */
inline void face_states_sl(__global const real* q, const int kl, const int kr, const int axis,
                           __global const int* mask, const real* sl, const real* sr, real* l,
                           real* r)
{
    load(q, kl, l);
    load(q, kr, r);
#if CFG_MUSCL
    for (int v = 0; v < CFG_NV; v++) {
        l[v] = muscl_plus(l[v], sl[v]);
        r[v] = muscl_minus(r[v], sr[v]);
    }
#endif
    frame(l, axis);
    frame(r, axis);
    if (SOLID(kr))
        mirror(l, r);
    else if (SOLID(kl))
        mirror(r, l);
}

/* flux_at with the two cells' slopes given (face_states_sl). */
inline void flux_at_sl(__global const real* q, __global const int* mask, const int kl,
                       const int kr, const int axis, const real* sl, const real* sr, real* f)
{
    real l[4], r[4];
    face_states_sl(q, kl, kr, axis, mask, sl, sr, l, r);
    face_flux(l, r, axis, f);
    frame(f, axis);
#if CFG_SYS == 3
    f[0] += cd_diff_flux(Q(q, 0, kl), Q(q, 0, kr), axis == 0 ? CFG_DX : CFG_DY);
#endif
}

inline void flux_at(__global const real* q, __global const int* mask, const int kl, const int kr,
                    const int step, const int axis, real* f)
{
    real sl[4] = {0.0, 0.0, 0.0, 0.0}, sr[4] = {0.0, 0.0, 0.0, 0.0};
#if CFG_MUSCL
    slopes(q, mask, kl, kl - step, kr, sl);
    slopes(q, mask, kr, kl, kr + step, sr);
#endif
    flux_at_sl(q, mask, kl, kr, axis, sl, sr, f);
}

#if DEV_TILE
/* Primitives of a conserved state s (natural frame): Euler (u, v, p, a), shallow water
 * (u, v, 0, a); the values `phys` computes in either face frame (the frame only swaps which
 * velocity is normal, and p sums the same two products in the other order: IEEE addition
 * commutes), so the tiled and strip stages stay bit-identical to the reference. */
inline void prim_of(const real* s, real* P)
{
#if CFG_SYS == 1
    const real ri = 1.0 / s[0], mx = s[1], my = s[2];
    P[0] = mx * ri;
    P[1] = my * ri;
    P[2] = euler_p(mx, my, P[0], P[1], s[3]);
    P[3] = euler_a(ri, P[2]);
#else
    const real phi = s[0], ri = 1.0 / phi;
    P[0] = sw_vel_of(phi, ri, s[1]);
    P[1] = sw_vel_of(phi, ri, s[2]);
    P[2] = 0.0;
    P[3] = sw_a(phi);
#endif
}
#endif

#if DEV_TILE == 1
/* The tiled stage (2D first-order Euler and shallow water): a work-group's cells are a tile
 * of DEV_LX × (DEV_LY·DEV_RPI) cells; before the update the group computes the primitives
 * (prim) of every cell of the tile and its one-cell halo once, into local memory, so a
 * cell's divisions and square root are done about once (1.2 times with the halo) instead of
 * twice per face. The values are those `phys` computes in either face frame: the frame only
 * swaps which velocity is normal, and p sums the same two products in the other order (IEEE
 * addition commutes), so the update stays bit-identical to the reference's. */
#define TILE_W   (DEV_LX + 2)
#define TILE_H   (DEV_LY * DEV_RPI + 2)
#define TILE_N   (TILE_W * TILE_H)
/* Values per tile cell: (u, v, p, a), and for SHLL the critical numbers (χ_x, χ_y) = (u/a,
 * v/a) clamped, which every face of the cell reads (one division each instead of one per
 * face side). */
#if CFG_FLUX == 0
#define TILE_VALS 6
#else
#define TILE_VALS 4
#endif

#if CFG_SYS != 1 && CFG_SYS != 2
#error "the tiled stage is for Euler and shallow water (CFG_SYS 1, 2)"
#endif

/* Primitives of stored cell k (prim_of). */
inline void prim(__global const real* q, const int k, real* P)
{
    real s[4];
    load(q, k, s);
    prim_of(s, P);
}

/* Fill the tile's primitives (tp[c·TILE_N + t], t = column + row·TILE_W, the halo included)
 * from q; every item of the group calls it (it holds the barrier). */
inline void tile_fill(__global const real* q, __local real* tp)
{
    const int l = get_local_id(0) + get_local_id(1) * DEV_LX;
    const int i0 = GROUP_X * DEV_LX + CFG_NG - 1;
    const int j0 = GROUP_Y * DEV_LY * DEV_RPI + CFG_NG - 1;
    for (int t = l; t < TILE_N; t += DEV_LX * DEV_LY) {
        const int i = i0 + t % TILE_W, j = j0 + t / TILE_W;
        if (i < CFG_NXT && j < CFG_NYT) {
            real P[4];
            prim(q, IDX(i, j), P);
            for (int c = 0; c < 4; c++)
                tp[c * TILE_N + t] = P[c];
#if CFG_FLUX == 0
            tp[4 * TILE_N + t] = shll_chi(P[0], P[3]);
            tp[5 * TILE_N + t] = shll_chi(P[1], P[3]);
#endif
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

/* `phys` of the framed state s of tile cell t from its primitives, and its critical number
 * along `axis` (SHLL; 0 otherwise). */
inline void tile_phys(__local const real* tp, const int t, const real* s, const int axis,
                      real* f, real* un, real* a, real* chi)
{
    *un = tp[axis * TILE_N + t];
    *a = tp[3 * TILE_N + t];
#if CFG_FLUX == 0
    *chi = tp[(4 + axis) * TILE_N + t];
#else
    *chi = 0.0;
#endif
#if CFG_SYS == 1
    const real p = tp[2 * TILE_N + t];
    f[0] = s[1];
    f[1] = euler_f_mn(s[1], *un, p);
    f[2] = euler_f_mt(s[2], *un);
    f[3] = euler_f_e(s[3], p, *un);
#else
    f[0] = sw_f_phi(s[0], *un);
    f[1] = sw_f_mn(s[0], s[1], *un);
    f[2] = sw_f_mt(s[2], *un);
    f[3] = 0.0;
#endif
}

/* flux_at with the primitives of the tile cells tl, tr (a mirrored wall state's own). */
inline void flux_tile(__global const real* q, __global const int* mask, __local const real* tp,
                      const int kl, const int kr, const int tl, const int tr, const int axis,
                      real* f)
{
    real l[4], r[4], fl[4], fr[4], ul, al, ur, ar, cl, cr;
    load(q, kl, l);
    load(q, kr, r);
    frame(l, axis);
    frame(r, axis);
    if (SOLID(kr)) {
        mirror(l, r);
        tile_phys(tp, tl, l, axis, fl, &ul, &al, &cl);
        phys(r, axis, fr, &ur, &ar);
        cr = chi_of(ur, ar);
    } else if (SOLID(kl)) {
        mirror(r, l);
        phys(l, axis, fl, &ul, &al);
        cl = chi_of(ul, al);
        tile_phys(tp, tr, r, axis, fr, &ur, &ar, &cr);
    } else {
        tile_phys(tp, tl, l, axis, fl, &ul, &al, &cl);
        tile_phys(tp, tr, r, axis, fr, &ur, &ar, &cr);
    }
    face_flux_chi(l, r, fl, ul, al, cl, fr, ur, ar, cr, f);
    frame(f, axis);
}
#else
#define TILE_W   1
#define TILE_N   1
#define TILE_VALS 4
#endif

/* The first-order flux through the y face between stored cells kl and kr: from the tile's
 * primitives (tile cells tl, tr) in the tiled stage, else from the states. */
inline void flux_y1(__global const real* q, __global const int* mask, __local const real* tp,
                    const int kl, const int kr, const int tl, const int tr, real* f)
{
#if DEV_TILE == 1
    flux_tile(q, mask, tp, kl, kr, tl, tr, 1, f);
#else
    flux_at(q, mask, kl, kr, CFG_NXT, 1, f);
#endif
}

inline real rate(const real* o)
{
    const real dy = TWO_D ? CFG_DY : 1.0;
#if CFG_SYS == 1
    const real ri = 1.0 / o[0];
    const real u = o[1] * ri;
    const real v = o[2] * ri;
    const real pr = euler_p(o[1], o[2], u, v, o[3]);
    if (!(o[0] > 0.0 && pr > 0.0))
        return NAN;
    const real a = euler_a(ri, pr);
    const real sx = fabs(u) + a;
    const real sy = TWO_D ? fabs(v) + a : 0.0;
    return cfl_rate_2d(sx, sy, CFG_DX, dy);
#elif CFG_SYS == 2
    if (!(o[0] >= 0.0))
        return NAN;
    const real a = sw_a(o[0]), ri = 1.0 / o[0];
    const real sx = fabs(sw_vel_of(o[0], ri, o[1])) + a;
    const real sy = TWO_D ? fabs(sw_vel_of(o[0], ri, o[2])) + a : 0.0;
    return cfl_rate_2d(sx, sy, CFG_DX, dy);
#elif CFG_SYS == 3
    if (isnan(o[0]))
        return NAN;
    const real ry = TWO_D ? cd_rate(CFG_AY, CFG_DY) : 0.0;
    return cd_rate(CFG_AX, CFG_DX) + ry;
#else
    if (isnan(o[0]))
        return NAN;
    return fabs(CFG_NUX) + fabs(CFG_NUY);
#endif
}

/* The new state of cell k (the twin of cell_update). In 2D a work-item updates a column of
 * cells bottom to top, so the north face flux of one cell is the south face flux of the
 * next (the same call with the same arguments, so the same bits): on entry fy holds the
 * south face flux when *have_fy is set; on exit fy holds this cell's north face flux and
 * *have_fy says whether it was computed (not for a solid cell or convection). With MUSCL,
 * sy likewise carries the y slope of the next cell (computed for this cell's north face). */
inline void cell_update(__global const real* q_in, __global const real* q0, const bool rk2,
                        __global const int* mask, __local const real* tp, const int t,
                        const real dt, const int k, real* o, real* r, real* d, real* fy,
                        real* sy, bool* have_fy)
{
    real s[4];
    load(q_in, k, s);
    const bool had_fy = *have_fy;
    *have_fy = false;
    if (SOLID(k)) {
        for (int v = 0; v < 4; v++)
            o[v] = s[v];
        *r = 0.0;
        *d = 0.0;
        return;
    }
    o[1] = o[2] = o[3] = 0.0;
#if CFG_SYS == 4
    const real ddx = ftbs_diff(CFG_NUX, Q(q_in, 0, k - 1), s[0], Q(q_in, 0, k + 1));
    const real ddy = TWO_D ? ftbs_diff(CFG_NUY, Q(q_in, 0, k - CFG_NXT), s[0], Q(q_in, 0, k + CFG_NXT)) : 0.0;
    o[0] = ftbs_update(s[0], ddx, ddy);
#else
    real fw[4], fe[4];
#if DEV_TILE == 1
    flux_tile(q_in, mask, tp, k - 1, k, t - 1, t, 0, fw);
    flux_tile(q_in, mask, tp, k, k + 1, t, t + 1, 0, fe);
#elif CFG_MUSCL
    /* The x slopes of the cell and its two neighbours, each once for the two faces. */
    real sxm[4], sx0[4], sxp[4];
    slopes(q_in, mask, k - 1, k - 2, k, sxm);
    slopes(q_in, mask, k, k - 1, k + 1, sx0);
    slopes(q_in, mask, k + 1, k, k + 2, sxp);
    flux_at_sl(q_in, mask, k - 1, k, 0, sxm, sx0, fw);
    flux_at_sl(q_in, mask, k, k + 1, 0, sx0, sxp, fe);
#else
    flux_at(q_in, mask, k - 1, k, 1, 0, fw);
    flux_at(q_in, mask, k, k + 1, 1, 0, fe);
#endif
    const real dtdx = dt / CFG_DX;
#if CFG_DIM == 2
    real fs[4], fn[4];
#if CFG_MUSCL
    /* The y slope of the cell: the one its predecessor computed for its north face. */
    real sy0[4], syn[4];
    if (had_fy) {
        for (int v = 0; v < 4; v++) {
            fs[v] = fy[v];
            sy0[v] = sy[v];
        }
    } else {
        real sys[4];
        slopes(q_in, mask, k - CFG_NXT, k - 2 * CFG_NXT, k, sys);
        slopes(q_in, mask, k, k - CFG_NXT, k + CFG_NXT, sy0);
        flux_at_sl(q_in, mask, k - CFG_NXT, k, 1, sys, sy0, fs);
    }
    slopes(q_in, mask, k + CFG_NXT, k, k + 2 * CFG_NXT, syn);
    flux_at_sl(q_in, mask, k, k + CFG_NXT, 1, sy0, syn, fn);
    for (int v = 0; v < 4; v++) {
        fy[v] = fn[v];
        sy[v] = syn[v];
    }
    *have_fy = true;
#else
    if (had_fy) {
        for (int v = 0; v < 4; v++)
            fs[v] = fy[v];
    } else {
        flux_y1(q_in, mask, tp, k - CFG_NXT, k, t - TILE_W, t, fs);
    }
    flux_y1(q_in, mask, tp, k, k + CFG_NXT, t, t + TILE_W, fn);
    for (int v = 0; v < 4; v++)
        fy[v] = fn[v];
    *have_fy = true;
#endif
    const real dtdy = dt / CFG_DY;
    for (int v = 0; v < CFG_NV; v++)
        o[v] = fv_update_2d(s[v], fw[v], fe[v], fs[v], fn[v], dtdx, dtdy);
#else
    for (int v = 0; v < CFG_NV; v++)
        o[v] = fv_update_1d(s[v], fw[v], fe[v], dtdx);
#endif
#endif
    real b[4];
    if (rk2) {
        load(q0, k, b);
        for (int v = 0; v < CFG_NV; v++)
            o[v] = rk2_average(b[v], o[v]);
    } else {
        for (int v = 0; v < 4; v++)
            b[v] = s[v];
    }
#if CFG_SYS == 2
    if (!sw_wet(o[0])) {
        o[1] = 0.0;
        o[2] = 0.0;
    }
#endif
    *r = rate(o);
    *d = fabs(o[0] - b[0]);
}

#if DEV_TILE >= 2
/* The split fluxes F⁺ (fp) and F⁻ (fm) of the framed state s along `axis`, from its
 * primitives P and its critical number chi along the axis (tile_phys's physical flux). */
inline void split_of(const real* s, const real* P, const real chi, const int axis, real* fp,
                     real* fm)
{
    const real un = P[axis], a = P[3];
    real f[4];
#if CFG_SYS == 1
    f[0] = s[1];
    f[1] = euler_f_mn(s[1], un, P[2]);
    f[2] = euler_f_mt(s[2], un);
    f[3] = euler_f_e(s[3], P[2], un);
#else
    f[0] = sw_f_phi(s[0], un);
    f[1] = sw_f_mn(s[0], s[1], un);
    f[2] = sw_f_mt(s[2], un);
    f[3] = 0.0;
#endif
    for (int v = 0; v < CFG_NV; v++) {
        fp[v] = shll_plus(s[v], f[v], a, chi);
        fm[v] = shll_minus(s[v], f[v], a, chi);
    }
}
#endif

#if DEV_TILE == 2
/* The strip stage (2D first-order SHLL, Euler and shallow water; docs/method/shll.md §9).
 * SHLL's interface flux is F⁺(left) + F⁻(right), and each half is a function of one state
 * alone (eq. 9), so every cell computes its primitives, its critical numbers and its four
 * split fluxes F±_x, F±_y once, and a face adds two of them: the same operations, in the
 * same order, as the reference's face_flux, hence the same bits, with no face evaluated
 * twice and no state read twice.
 *
 * A work-group is one row of DEV_LX work-items that sweeps up a strip of DEV_RPI rows. Item
 * lx holds the column i = gx·(DEV_LX − 2) + lx − 1 of the computed cells: items 0 and
 * DEV_LX − 1 hold the halo columns, whose split fluxes the neighbours need, and update
 * nothing, so a group updates DEV_LX − 2 columns (STRIP_W). Per row, each item reads its
 * state once (one row ahead with DEV_PREFETCH), writes its F±_x to local memory (two row
 * buffers: one barrier per row) and keeps its F⁺_y for the row above; a row is finished one row later, when its north face is
 * known. The strip's first and last pass are the halo rows below and above (their F⁺_y and
 * F⁻_y). A face next to a solid cell takes the mirror state's split flux (split_mirror).
 * `walls` (a constant at each call): false for a group with no solid cell among the cells it
 * reads, whose copy then has no wall code (no mask read, no solid flags exchanged). */
#if CFG_FLUX != 0 || CFG_MUSCL || CFG_DIM != 2 || DEV_LY != 1
#error "the strip stage is 2D first-order SHLL with work-groups of one row (DEV_LY = 1)"
#endif
#define STRIP_W    (DEV_LX - 2)
/* Local reals of the two row buffers: F⁺_x (components 0–3) and F⁻_x (4–7) of DEV_LX items. */
#define STRIP_XS   (2 * 8 * DEV_LX)
/* Local reals of the pending row (DEV_LOCAL_PENDING): 8 per item. */
#define STRIP_XP   (DEV_LOCAL_PENDING ? 8 * DEV_LX : 1)

/* F⁺ (plus) or F⁻ of the mirror image of the framed state s across a wall normal to `axis`
 * (face_states' mirror, phys's flux, the split): the same operations on the same operands as
 * the reference, without its division and square root. The mirror flips the normal momentum
 * only, so its phys values follow from the cell's own primitives P exactly: the normal
 * velocity is −u_n ((−m_n)·(1/ρ) = −(m_n·(1/ρ)) in IEEE arithmetic; a dry shallow-water cell's
 * 0 stays 0), the pressure (the same two products summed) and the wave speed are the cell's,
 * and the critical number is −χ (the clamp is odd). Where the reference's χ is +0 and −χ is
 * −0 (a ≤ 0), the split reads χ only through 1 ± Dχ and χ², which are the same. So the bits
 * are the reference's for every state (a NaN state gives a NaN either way). */
inline void split_mirror(const real* s, const real* P, const real chi, const int axis,
                         const bool plus, real* h)
{
    real m[4], f[4];
    mirror(s, m);
#if CFG_SYS == 1
    const real un = -P[axis];
    f[0] = m[1];
    f[1] = euler_f_mn(m[1], un, P[2]);
    f[2] = euler_f_mt(m[2], un);
    f[3] = euler_f_e(m[3], P[2], un);
#else
    const real un = sw_wet(s[0]) ? -P[axis] : P[axis];
    f[0] = sw_f_phi(m[0], un);
    f[1] = sw_f_mn(m[0], m[1], un);
    f[2] = sw_f_mt(m[2], un);
    f[3] = 0.0;
#endif
    const real a = P[3], cm = -chi;
    for (int v = 0; v < CFG_NV; v++)
        h[v] = plus ? shll_plus(m[v], f[v], a, cm) : shll_minus(m[v], f[v], a, cm);
}

inline void strip_body(__global const real* q_in, __global const real* q0, const bool rk2,
                       __global real* q_out, __global const real* clock,
                       __global real* part_rate, __global real* part_dq,
                       __global const int* mask, __local real* lr, __local real* ld,
                       __local real* xs, __local int* xsolid, const int gx, const int gy,
                       const bool walls)
{
    const int lx = get_local_id(0);
    const int i = gx * STRIP_W + lx - 1;
    const int j0 = gy * DEV_RPI;
    /* Columns −1 … NX are stored (ghosts included); items past them only hold barriers. */
    const bool col = i <= CFG_NX;
    const bool updates = lx >= 1 && lx <= DEV_LX - 2 && i < CFG_NX;
    const real dt = clock[0];
    const real dtdx = dt / CFG_DX, dtdy = dt / CFG_DY;
    real r = 0.0, d = 0.0;
    /* The pending row (the one below): the first component of its state (for |Δq₀|),
     * s − Δt/Δx·(fe − fw) (the first half of fv_update_2d; a solid cell's own state), its
     * south face flux, whether it is solid. */
    real ps0 = 0.0;
#if DEV_LOCAL_PENDING
    /* In local memory (this item's slots, read by it alone: no barrier): fewer registers. */
    __local real* lp = xs + STRIP_XS + lx;
#define PA(v)  lp[(v) * DEV_LX]
#define PFS(v) lp[(4 + (v)) * DEV_LX]
#else
    real pa[4] = {0.0, 0.0, 0.0, 0.0}, pfs[4] = {0.0, 0.0, 0.0, 0.0};
#define PA(v)  pa[v]
#define PFS(v) pfs[v]
#endif
    bool pend = false, psolid = false;
    int pk = 0;
    /* F⁺_y of the row below (framed), or, where this row is solid and the row below is
     * fluid, that row's whole north face flux (its F⁺_y plus its mirror's F⁻_y); and
     * whether the cell below is solid. */
    real fpy_b[4] = {0.0, 0.0, 0.0, 0.0};
    bool solid_b = false;
#if DEV_PREFETCH
    /* The next row's state, read one row ahead so that its latency hides behind this row's
     * arithmetic. The reads keep their condition: read on every pass (column and row clamped),
     * they were placed by ptxas next to their use, below the barrier (run 109). */
    real sn[4] = {0.0, 0.0, 0.0, 0.0};
    bool solid_n = false;
    if (col) {
        load(q_in, IDX(i + CFG_NG, j0 - 1 + CFG_NG), sn);
        solid_n = walls && SOLID(IDX(i + CFG_NG, j0 - 1 + CFG_NG));
    }
#endif
#if DEV_UNROLL > 1
#pragma unroll DEV_UNROLL
#endif
    for (int rr = -1; rr <= DEV_RPI; rr++) {
        const int j = j0 + rr;
        const bool ok = col && j <= CFG_NY;
        const int k = IDX(i + CFG_NG, j + CFG_NG);
        real s[4] = {0.0, 0.0, 0.0, 0.0}, P[4] = {0.0, 0.0, 0.0, 0.0};
        real cx = 0.0, cy = 0.0;
        bool solid = false;
#if DEV_PREFETCH
        for (int v = 0; v < 4; v++)
            s[v] = sn[v];
        solid = solid_n;
        if (rr < DEV_RPI && col && j + 1 <= CFG_NY) {
            load(q_in, k + CFG_NXT, sn);
            solid_n = walls && SOLID(k + CFG_NXT);
        }
#endif
        if (ok) {
#if !DEV_PREFETCH
            load(q_in, k, s);
            solid = walls && SOLID(k);
#endif
            prim_of(s, P);
            cx = shll_chi(P[0], P[3]);
            cy = shll_chi(P[1], P[3]);
        }
        /* The y face below this row: the pending row's north face, this row's south face. */
        real sy[4], fpy[4], fmy[4], fsc[4];
        for (int v = 0; v < 4; v++)
            sy[v] = s[v];
        frame(sy, 1);
        split_of(sy, P, cy, 1, fpy, fmy);
        if (rr >= 0) {
            if (solid_b) {
                split_mirror(sy, P, cy, 1, true, fsc);
                for (int v = 0; v < CFG_NV; v++)
                    fsc[v] += fmy[v];
            } else if (solid) {
                /* Needed only as the pending fluid row's north face, which that row left
                 * in fpy_b. */
                for (int v = 0; v < 4; v++)
                    fsc[v] = fpy_b[v];
            } else {
                for (int v = 0; v < CFG_NV; v++)
                    fsc[v] = fpy_b[v] + fmy[v];
            }
            frame(fsc, 1);
            if (pend) {
                /* Finish the row below (cell_update's end). */
                real o[4], b[4];
                if (psolid) {
                    for (int v = 0; v < 4; v++)
                        o[v] = PA(v);
                } else {
                    o[3] = 0.0;
                    for (int v = 0; v < CFG_NV; v++)
                        o[v] = fv_update_1d(PA(v), PFS(v), fsc[v], dtdy);
                }
                if (rk2) {
                    load(q0, pk, b);
                    if (!psolid)
                        for (int v = 0; v < CFG_NV; v++)
                            o[v] = rk2_average(b[v], o[v]);
                } else {
                    b[0] = ps0;
                }
                real rc = 0.0, dc = 0.0;
                if (!psolid) {
#if CFG_SYS == 2
                    if (!sw_wet(o[0])) {
                        o[1] = 0.0;
                        o[2] = 0.0;
                    }
#endif
                    rc = rate(o);
                    dc = fabs(o[0] - b[0]);
                }
                for (int v = 0; v < CFG_NV; v++)
                    Q(q_out, v, pk) = o[v];
                r = nan_max(r, rc);
                d = nan_max(d, dc);
            }
        }
        /* This row's x faces: the item's own F±_x stay in registers, its neighbours' come
         * through the row buffer (with their solid flags where there are walls). */
        const bool row = rr >= 0 && rr < DEV_RPI && j < CFG_NY;
        __local real* xb = xs + (rr & 1) * (8 * DEV_LX);
#if CFG_WALLS
        __local int* xw = xsolid + (rr & 1) * DEV_LX;
#endif
        real fpx[4] = {0.0, 0.0, 0.0, 0.0}, fmx[4] = {0.0, 0.0, 0.0, 0.0};
        if (row) {
            split_of(s, P, cx, 0, fpx, fmx);
            for (int v = 0; v < CFG_NV; v++) {
                xb[v * DEV_LX + lx] = fpx[v];
                xb[(4 + v) * DEV_LX + lx] = fmx[v];
            }
#if CFG_WALLS
            if (walls)
                xw[lx] = solid;
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        pend = row && updates;
        /* The north face of a fluid cell under a solid one is its F⁺_y plus its mirror's
         * F⁻_y (the solid row above finishes it from fpy_b). */
        bool wall_n = false;
        if (pend) {
            if (solid) {
                for (int v = 0; v < 4; v++)
                    PA(v) = s[v];
            } else {
                real fw[4], fe[4];
#if CFG_WALLS
                real h[4];
#if DEV_PREFETCH
                wall_n = solid_n;
#else
                wall_n = walls && SOLID(k + CFG_NXT);
#endif
                if (walls && xw[lx - 1]) {
                    split_mirror(s, P, cx, 0, true, h);
                    for (int v = 0; v < CFG_NV; v++)
                        fw[v] = h[v] + fmx[v];
                } else
#endif
                {
                    for (int v = 0; v < CFG_NV; v++)
                        fw[v] = xb[v * DEV_LX + lx - 1] + fmx[v];
                }
#if CFG_WALLS
                if (walls && xw[lx + 1]) {
                    split_mirror(s, P, cx, 0, false, h);
                    for (int v = 0; v < CFG_NV; v++)
                        fe[v] = fpx[v] + h[v];
                } else
#endif
                {
                    for (int v = 0; v < CFG_NV; v++)
                        fe[v] = fpx[v] + xb[(4 + v) * DEV_LX + lx + 1];
                }
                /* fv_update_2d(q, fw, fe, fs, fn) = (q − Δt/Δx·(fe − fw)) − Δt/Δy·(fn − fs):
                 * its first half now, the second when the north face is known (the
                 * same two roundings; tests/explicit_fragments.rs checks the identity). */
                for (int v = 0; v < CFG_NV; v++)
                    PA(v) = fv_update_1d(s[v], fw[v], fe[v], dtdx);
            }
            ps0 = s[0];
            for (int v = 0; v < 4; v++)
                PFS(v) = fsc[v];
            psolid = solid;
            pk = k;
        }
        for (int v = 0; v < 4; v++)
            fpy_b[v] = fpy[v];
#if CFG_WALLS
        if (wall_n) {
            real mm[4];
            split_mirror(sy, P, cy, 1, false, mm);
            for (int v = 0; v < CFG_NV; v++)
                fpy_b[v] = fpy[v] + mm[v];
        }
#endif
        solid_b = solid;
    }
    group_partials(lr, ld, lx, DEV_LX, r, d, part_rate, part_dq, gx + gy * STAGE_GX);
#undef PA
#undef PFS
}
#endif

/* Each work-item updates DEV_RPI cells (amortising the group reduction): in 2D the rows
 * DEV_RPI·gj … DEV_RPI·gj + DEV_RPI − 1 of its column, in 1D the cells gi + r·(the whole
 * launch's global size). */
inline void stage_body(__global const real* q_in, __global const real* q0, const bool rk2,
                       __global real* q_out, __global const real* clock,
                       __global real* part_rate, __global real* part_dq,
                       __global const int* mask, __local real* lr, __local real* ld,
                       __local real* tp)
{
    const int l = get_local_id(0) + get_local_id(1) * DEV_LX;
    const real dt = clock[0];
    real r = 0.0, d = 0.0;
    /* The north face flux of the item's previous cell (2D; see cell_update). */
    real fy[4] = {0.0, 0.0, 0.0, 0.0}, sy[4] = {0.0, 0.0, 0.0, 0.0};
    bool have_fy = false;
#if DEV_TILE == 1
    tile_fill(q_in, tp);
#endif
    for (int c = 0; c < DEV_RPI; c++) {
#if CFG_DIM == 2
        const int gi = get_global_id(0), gj = get_global_id(1) * DEV_RPI + c;
        const bool inside = gi < CFG_NX && gj < CFG_NY;
#else
        const int gi = get_global_id(0) + c * STAGE_GX * DEV_LX, gj = 0;
        const bool inside = gi < CFG_NX;
#endif
        if (inside) {
            const int k = IDX(gi + CFG_NG, gj + J0);
            real o[4], rc, dc;
            /* The cell in the tile (used by the tiled stage only). */
            const int t = get_local_id(0) + 1 + (get_local_id(1) * DEV_RPI + c + 1) * (DEV_LX + 2);
            cell_update(q_in, q0, rk2, mask, tp, t, dt, k, o, &rc, &dc, fy, sy, &have_fy);
            for (int v = 0; v < CFG_NV; v++)
                Q(q_out, v, k) = o[v];
            r = nan_max(r, rc);
            d = nan_max(d, dc);
        }
    }
    group_partials(lr, ld, l, DEV_LX * DEV_LY, r, d, part_rate, part_dq,
                   GROUP_X + GROUP_Y * STAGE_GX);
}

