/* The CE/SE kernels (docs/method/cese.md §5): the two half steps as two launches (half_a,
 * half_b) or fused in one (fused_1d, fused_2d: a work-group computes the half-level points
 * its outputs need, with the halo that needs: B outputs need B + 1 half points, which need
 * B + 2 integer points per axis); the reduction of the CFL rate into the next Δt is the
 * explicit methods' (cl/explicit/reduce.cl, assembled before this file). Each
 * inline function is the twin of the Rust function of the same name in
 * src/methods/cese/reference.rs; the formulas are the fragments (cl/cese/fragments.cl).
 *
 * -D contract: CFG_NX, CFG_NY (integer points), CFG_SX (row stride nx + 1), CFG_NS (values
 * per plane), CFG_NV (3 in 1D, 4 in 2D), CFG_DIM, CFG_GAMMA, CFG_ALPHA, CFG_QDX, CFG_QDY
 * (Δ/4), CFG_RDX, CFG_RDY (1/Δ), CFG_RDX2 (2/Δx), CFG_H (the CFL length), CFG_CFL,
 * CFG_T_END, CFG_FIXED_DT, CFG_WEST, CFG_EAST, CFG_SOUTH, CFG_NORTH (0 outflow,
 * 1 reflective, 2 inflow, 3 periodic), CFG_NGROUPS (groups of half_b or fused_*),
 * CFG_NGROUPS2 (groups of reduce); DEV_LX, DEV_LY (work-group of half_a and half_b),
 * DEV_SW, DEV_SR (the fused kernels: DEV_SW items per group, fused_2d's DEV_SR output rows
 * per group), DEV_RED (reduction work-group).
 *
 * Storage: a level is CFG_NV·(1 + CFG_DIM) planes of CFG_NS values (u, u_x, u_y), point
 * (i, j) at i + j·CFG_SX. Bytes per integer point and step (compulsory): fused 8·P read +
 * 8·P written (P = planes: 6 in 1D, 12 in 2D); split twice that (the half level written and
 * read back), + 8 read of ρ for the residual. */

#ifndef CFG_NV
#error "CFG_NV not defined (3 in 1D, 4 in 2D)"
#endif
#ifndef DEV_LX
#error "DEV_LX not defined (work-group width)"
#endif

#define PL(q,p,k)   ((q)[(p) * CFG_NS + (k)])
#define TWO_D       (CFG_DIM == 2)

typedef struct {
    real u[4], ux[4], uy[4];
} Point;

typedef struct {
    real rx, ry, dt4, hdt, kxy, kyx;
} StepK;

typedef struct {
    real u[3], s[3], up[3];
} Parent1;

/* A 2D parent's shares of its four children (the child it is the LD, RD, RU, LU parent of)
 * and its Taylor values. */
typedef struct {
    real ld[4], rd[4], ru[4], lu[4], up[4];
} Parent2;

inline StepK step_k(const real dt)
{
    StepK k;
    k.rx = dt * CFG_RDX;
    k.ry = dt * CFG_RDY;
    k.dt4 = 0.25 * dt;
    k.hdt = 0.5 * dt;
    k.kxy = k.rx * CFG_QDY;
    k.kyx = k.ry * CFG_QDX;
    return k;
}

inline Point load(__global const real* q, const int k)
{
    Point p;
    for (int v = 0; v < 4; v++) {
        p.u[v] = v < CFG_NV ? PL(q, v, k) : 0.0;
        p.ux[v] = v < CFG_NV ? PL(q, CFG_NV + v, k) : 0.0;
        p.uy[v] = (TWO_D && v < CFG_NV) ? PL(q, 2 * CFG_NV + v, k) : 0.0;
    }
    return p;
}

inline void put(__global real* q, const int k, const Point* p)
{
    for (int v = 0; v < CFG_NV; v++) {
        PL(q, v, k) = p->u[v];
        PL(q, CFG_NV + v, k) = p->ux[v];
#if CFG_DIM == 2
        PL(q, 2 * CFG_NV + v, k) = p->uy[v];
#endif
    }
}

inline Point mirror_x(Point p)
{
    Point o = p;
    o.u[1] = -p.u[1];
    o.ux[0] = -p.ux[0];
    o.ux[2] = -p.ux[2];
#if CFG_DIM == 2
    o.ux[3] = -p.ux[3];
    o.uy[1] = -p.uy[1];
#endif
    return o;
}

inline Point mirror_y(Point p)
{
    Point o = p;
    o.u[2] = -p.u[2];
    o.uy[0] = -p.uy[0];
    o.uy[1] = -p.uy[1];
    o.uy[3] = -p.uy[3];
    o.ux[2] = -p.ux[2];
    return o;
}

/* Source index of axis index i (−1 … n) under side rule bc, and whether it is mirrored;
 * false for an inflow (a fixed state). */
inline bool ghost_src(const int bc, const int i, const int n, int* src, bool* flip)
{
    *flip = false;
    if (i >= 0 && i < n) {
        *src = i;
        return true;
    }
    const bool low = i < 0;
    if (bc == 0) {
        *src = low ? 0 : n - 1;
    } else if (bc == 1) {
        *src = low ? -1 - i : 2 * n - 1 - i;
        *flip = true;
    } else if (bc == 3) {
        *src = low ? i + n : i - n;
    } else {
        return false;
    }
    return true;
}

inline Point fixed(__global const real* inflow, const int side)
{
    Point p;
    for (int v = 0; v < 4; v++) {
        p.u[v] = inflow[4 * side + v];
        p.ux[v] = 0.0;
        p.uy[v] = 0.0;
    }
    return p;
}

/* Integer point (i, j), or its ghost outside the domain. */
inline Point parent_point(__global const real* q, __global const real* inflow, const int i,
                          const int j)
{
    const int sxd = i < 0 ? 0 : 1;
    const int bx = i < 0 ? CFG_WEST : CFG_EAST;
    int si, sj = 0;
    bool fx, fy = false;
    if (!ghost_src(bx, i, CFG_NX, &si, &fx))
        return fixed(inflow, sxd);
#if CFG_DIM == 2
    const int syd = j < 0 ? 2 : 3;
    const int by = j < 0 ? CFG_SOUTH : CFG_NORTH;
    if (!ghost_src(by, j, CFG_NY, &sj, &fy))
        return fixed(inflow, syd);
#endif
    Point p = load(q, si + sj * CFG_SX);
    if (fx)
        p = mirror_x(p);
    if (fy)
        p = mirror_y(p);
    return p;
}

inline Parent1 parent_1d(const Point* pt, const StepK* k)
{
    const real* u = pt->u;
    const real* ux = pt->ux;
    const real ri = 1.0 / u[0];
    const real w2 = u[1] * ri;
    const real w3 = u[2] * ri;
    real ut[3], f[3], ft[3];
    ut[0] = -ux[1];
    ut[1] = -c1_a2(w2, ux[0], ux[1], ux[2]);
    ut[2] = -c1_a3(w2, w3, ux[0], ux[1], ux[2]);
    f[0] = u[1];
    f[1] = c1_f2(u[1], u[2], w2);
    f[2] = c1_f3(u[1], u[2], w2);
    ft[0] = ut[1];
    ft[1] = c1_a2(w2, ut[0], ut[1], ut[2]);
    ft[2] = c1_a3(w2, w3, ut[0], ut[1], ut[2]);
    Parent1 o;
    for (int v = 0; v < 3; v++) {
        o.u[v] = u[v];
        o.s[v] = cese_s(CFG_QDX, ux[v], k->rx, f[v], k->dt4, ft[v]);
        o.up[v] = cese_up(u[v], k->hdt, ut[v]);
    }
    return o;
}

inline Point point_1d(const Parent1 l, const Parent1 r)
{
    Point o;
    for (int v = 0; v < 3; v++) {
        o.u[v] = cese_mid(l.u[v], r.u[v], l.s[v], r.s[v]);
        o.ux[v] = cese_grad(l.up[v], o.u[v], r.up[v], CFG_RDX2);
        o.uy[v] = 0.0;
    }
    o.u[3] = o.ux[3] = o.uy[3] = 0.0;
    return o;
}

/* A_x x into a and A_y x into b, sharing x's velocity and pressure perturbations. */
inline void jac(const real wx, const real wy, const real q, const real h, const real* x,
                real* a, real* b)
{
    const real dx = c2_dv(x[1], wx, x[0]);
    const real dy = c2_dv(x[2], wy, x[0]);
    const real dp = c2_dp(wx, wy, q, x[0], x[1], x[2], x[3]);
    const real e4 = x[3] + dp;
    a[0] = x[1];
    a[1] = c2_jn(wx, x[1], dx, dp);
    a[2] = c2_jt(x[2], wx, wy, dx);
    a[3] = c2_je(e4, wx, h, dx);
    b[0] = x[2];
    b[1] = c2_jt(x[1], wy, wx, dy);
    b[2] = c2_jn(wy, x[2], dy, dp);
    b[3] = c2_je(e4, wy, h, dy);
}

/* A 2D parent's four shares t = (u + s_x s_y R) − (s_x P + s_y Q) and its Taylor values. */
inline Parent2 parent_2d(const Point* pt, const StepK* k)
{
    const real* u = pt->u;
    const real ri = 1.0 / u[0];
    const real wx = u[1] * ri;
    const real wy = u[2] * ri;
    const real q = c2_q(wx, wy);
    const real p = c2_pq(u[0], u[3], q);
    const real h = c2_h(u[3], p, ri);
    real axx[4], fyx[4], fxy[4], ayy[4], ut[4], fxt[4], fyt[4];
    jac(wx, wy, q, h, pt->ux, axx, fyx);
    jac(wx, wy, q, h, pt->uy, fxy, ayy);
    for (int v = 0; v < 4; v++)
        ut[v] = -(axx[v] + ayy[v]);
    jac(wx, wy, q, h, ut, fxt, fyt);
    const real fx[4] = {u[1], c2_fn(u[1], wx, p), u[2] * wx, h * u[1]};
    const real fy[4] = {u[2], u[1] * wy, c2_fn(u[2], wy, p), h * u[2]};
    Parent2 o;
    for (int v = 0; v < 4; v++) {
        const real pl = c2_lever(CFG_QDX, pt->ux[v], k->rx, c2_fc(fx[v], k->dt4, fxt[v]));
        const real ql = c2_lever(CFG_QDY, pt->uy[v], k->ry, c2_fc(fy[v], k->dt4, fyt[v]));
        const real r = c2_cross(k->kxy, fxy[v], k->kyx, fyx[v]);
        const real e = u[v] + r, f = u[v] - r, s = pl + ql, d = pl - ql;
        o.ru[v] = e - s;
        o.ld[v] = e + s;
        o.rd[v] = f - d;
        o.lu[v] = f + d;
        o.up[v] = cese_up(u[v], k->hdt, ut[v]);
    }
    return o;
}

/* The new 2D point from the shares and Taylor values of its four parents (the twin of
 * point_2d, whose parents are whole Parent2 values). */
inline Point point_2d(const real* tld, const real* trd, const real* tru, const real* tlu,
                      const real* uld, const real* urd, const real* uru, const real* ulu)
{
    Point o;
    for (int v = 0; v < 4; v++) {
        o.u[v] = c2_sum(tld[v], trd[v], tru[v], tlu[v]);
        const real da = cese_w0(o.u[v] - uld[v], uru[v] - o.u[v]);
        const real db = cese_w0(o.u[v] - urd[v], ulu[v] - o.u[v]);
        o.ux[v] = c2_dx(da, db, CFG_RDX);
        o.uy[v] = c2_dy(da, db, CFG_RDY);
    }
    return o;
}

/* The new 2D point from four points (parents LD, RD, RU, LU). */
inline Point point_from(const Point* ld, const Point* rd, const Point* ru, const Point* lu,
                        const StepK* k)
{
    const Parent2 pld = parent_2d(ld, k), prd = parent_2d(rd, k);
    const Parent2 pru = parent_2d(ru, k), plu = parent_2d(lu, k);
    return point_2d(pld.ld, prd.rd, pru.ru, plu.lu, pld.up, prd.up, pru.up, plu.up);
}

/* The CFL rate (|v| + a)/h, NaN if ρ ≤ 0 or p ≤ 0. */
inline real rate(const real* u)
{
    const real ri = 1.0 / u[0];
#if CFG_DIM == 1
    const real w = u[1] * ri;
    const real p = c1_p(u[1], u[2], w);
    const real s = fabs(w);
#else
    const real wx = u[1] * ri;
    const real wy = u[2] * ri;
    const real p = c2_p(u[1], u[2], u[3], wx, wy);
    const real s = sqrt(wx * wx + wy * wy);
#endif
    if (!(u[0] > 0.0 && p > 0.0))
        return NAN;
    return cese_rate(s + cese_a(ri, p), CFG_H);
}

/* The maxima of the rate and |Δρ| over the n items of a group (item l holds r, d) into
 * part_rate, part_dq. */
inline void group_out_n(__local real* lr, __local real* ld, const int l, const int n,
                        const real r, const real d, __global real* part_rate,
                        __global real* part_dq)
{
    group_partials(lr, ld, l, n, r, d, part_rate, part_dq,
                   get_group_id(0) + get_group_id(1) * get_num_groups(0));
}

/* group_out_n over a DEV_LX × DEV_LY group. */
inline void group_out(__local real* lr, __local real* ld, const real r, const real d,
                      __global real* part_rate, __global real* part_dq)
{
    const int l = get_local_id(0) + get_local_id(1) * DEV_LX;
    group_out_n(lr, ld, l, DEV_LX * DEV_LY, r, d, part_rate, part_dq);
}

/* Half step A: one work-item per half-level point (nx + 1 (× ny + 1)). */
__kernel void half_a(__global const real* q, __global real* h, __global const real* clock,
                     __global const real* inflow)
{
    const int i = get_global_id(0), j = get_global_id(1);
    /* (nx + 1) × (ny + 1) half points in 2D, nx + 1 in 1D (CFG_NYT = 1: j = 0 only). */
    if (i > CFG_NX || j >= CFG_NYT)
        return;
    const StepK k = step_k(clock[0]);
#if CFG_DIM == 1
    const Point pl = parent_point(q, inflow, i - 1, 0);
    const Point pr = parent_point(q, inflow, i, 0);
    const Point o = point_1d(parent_1d(&pl, &k), parent_1d(&pr, &k));
#else
    const Point ld = parent_point(q, inflow, i - 1, j - 1);
    const Point rd = parent_point(q, inflow, i, j - 1);
    const Point ru = parent_point(q, inflow, i, j);
    const Point lu = parent_point(q, inflow, i - 1, j);
    const Point o = point_from(&ld, &rd, &ru, &lu, &k);
#endif
    put(h, i + j * CFG_SX, &o);
}

/* Half step B: one work-item per integer point, the group's rate and |Δρ| maxima. */
__kernel void half_b(__global const real* h, __global const real* q_old, __global real* q_out,
                     __global const real* clock, __global real* part_rate,
                     __global real* part_dq)
{
    __local real lr[DEV_LX * DEV_LY], ld[DEV_LX * DEV_LY];
    const int i = get_global_id(0), j = get_global_id(1);
    real r = 0.0, d = 0.0;
    if (i < CFG_NX && j < CFG_NY) {
        const StepK k = step_k(clock[0]);
        const int c = i + j * CFG_SX;
#if CFG_DIM == 1
        const Point pl = load(h, c);
        const Point pr = load(h, c + 1);
        const Point o = point_1d(parent_1d(&pl, &k), parent_1d(&pr, &k));
#else
        const Point pld = load(h, c);
        const Point prd = load(h, c + 1);
        const Point pru = load(h, c + 1 + CFG_SX);
        const Point plu = load(h, c + CFG_SX);
        const Point o = point_from(&pld, &prd, &pru, &plu, &k);
#endif
        put(q_out, c, &o);
        r = rate(o.u);
        d = fabs(o.u[0] - q_old[c]);
    }
    group_out(lr, ld, r, d, part_rate, part_dq);
}

#if CFG_DIM == 1
/* Both half steps of DEV_SR tiles of DEV_SW − 2 integer points each in one launch: in tile t
 * item l holds the integer point k0 − 1 + l (items 0 and DEV_SW − 1 the halo, ghosts
 * included), the half point k0 + l (between its point and its right neighbour's) and the
 * output k0 + l, so every item of a phase has a point to compute; each parent's
 * contribution is computed once per tile and lives in local memory. Each item loads its
 * integer point of the next tile while the tile computes (the load's latency is hidden
 * behind two barriers and the half step). The group's maxima are taken over its tiles and
 * reduced once (the reduction's barriers are most of a tile's). */
__kernel void fused_1d(__global const real* q_old, __global real* q_out,
                       __global const real* clock, __global const real* inflow,
                       __global real* part_rate, __global real* part_dq)
{
    __local Parent1 pa[DEV_SW];
    __local Parent1 pb[DEV_SW - 1];
    __local real lr[DEV_SW], ld[DEV_SW];
    const int l = get_local_id(0);
    const StepK k = step_k(clock[0]);
    real r = 0.0, d = 0.0;
    int k0 = get_group_id(0) * DEV_SR * (DEV_SW - 2);
    Point p = {{0.0}};
    if (k0 < CFG_NX && k0 - 1 + l <= CFG_NX)
        p = parent_point(q_old, inflow, k0 - 1 + l, 0);
    for (int t = 0; t < DEV_SR; t++) {
        /* The same for the whole group: no item leaves a barrier behind. */
        if (k0 >= CFG_NX)
            break;
        if (t > 0)
            barrier(CLK_LOCAL_MEM_FENCE);
        if (k0 - 1 + l <= CFG_NX)
            pa[l] = parent_1d(&p, &k);
        /* The next tile's integer point, loaded while this tile computes. */
        const int k1 = k0 + (DEV_SW - 2);
        if (t + 1 < DEV_SR && k1 < CFG_NX && k1 - 1 + l <= CFG_NX)
            p = parent_point(q_old, inflow, k1 - 1 + l, 0);
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l < DEV_SW - 1 && k0 + l <= CFG_NX) {
            const Point hp = point_1d(pa[l], pa[l + 1]);
            pb[l] = parent_1d(&hp, &k);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        const int i = k0 + l;
        if (l < DEV_SW - 2 && i < CFG_NX) {
            const Point o = point_1d(pb[l], pb[l + 1]);
            put(q_out, i, &o);
            r = nan_max(r, rate(o.u));
            d = nan_max(d, fabs(o.u[0] - pa[l + 1].u[0]));
        }
        k0 = k1;
    }
    group_out_n(lr, ld, l, DEV_SW, r, d, part_rate, part_dq);
}
#else
/* The local memory of one level of the sweep (structure of arrays, DEV_SW entries per
 * component): slot 0 the ru shares of the current row, slots 1 + p the rd shares and 3 + p
 * the Taylor values of the rows of parity p (the current and the previous row). */
#define SW_SLOTS   (5 * 4 * DEV_SW)
#define SW_AT(s,v) (((s) * 4 + (v)) * DEV_SW)

/* An item's row of one level: its parent's shares the left neighbour needs into b (rd and up
 * in the slots of parity par). */
inline void sweep_put(__local real* b, const int l, const int par, const real* rd,
                      const real* ru, const real* up)
{
    for (int v = 0; v < 4; v++) {
        b[SW_AT(0, v) + l] = ru[v];
        b[SW_AT(1 + par, v) + l] = rd[v];
        b[SW_AT(3 + par, v) + l] = up[v];
    }
}

/* The new point above and right of an item's parents, from its own shares (ld and uld of
 * the previous row, lu and ulu of the current one) and its right neighbour's in b. */
inline Point sweep_point(__local const real* b, const int l, const int par, const real* ld,
                         const real* uld, const real* lu, const real* ulu)
{
    real trd[4], tru[4], urd[4], uru[4];
    for (int v = 0; v < 4; v++) {
        tru[v] = b[SW_AT(0, v) + l + 1];
        uru[v] = b[SW_AT(3 + par, v) + l + 1];
        trd[v] = b[SW_AT(2 - par, v) + l + 1];
        urd[v] = b[SW_AT(4 - par, v) + l + 1];
    }
    return point_2d(ld, trd, tru, lu, uld, urd, uru, ulu);
}

/* Both half steps of a strip of (DEV_SW − 2) × DEV_SR integer points in one launch, each
 * parent's quantities computed once: a work-group is one row of DEV_SW items that sweeps up
 * the strip. Item l holds the integer column i0 − 1 + l (items 0 and DEV_SW − 1 the halo
 * columns, ghosts included), the half column i0 + l (between its integer point and its right
 * neighbour's) and the output column i0 + l (l < DEV_SW − 2). Pass m computes the integer
 * row j0 − 1 + m, the half row j0 − 1 + m from it and the row below, and the output row
 * j0 − 2 + m from the last two half rows: DEV_SR + 2 integer and DEV_SR + 1 half rows for
 * DEV_SR output rows (the halo the fusion needs, spec §5.1), a parent of either level
 * evaluated (1 + 2/DEV_SR)·DEV_SW/(DEV_SW − 2) and (1 + 1/DEV_SR)·(DEV_SW − 1)/(DEV_SW − 2)
 * times per output (the split kernels: 4 and 4). An item keeps its own shares for the next
 * row in registers and passes its neighbour the rest through local memory (two rows of each
 * level: one barrier per level and row). The same parents, shares and points as half_a and
 * half_b, hence the same bits. */
__kernel void fused_2d(__global const real* q_old, __global real* q_out,
                       __global const real* clock, __global const real* inflow,
                       __global real* part_rate, __global real* part_dq)
{
    __local real bi[SW_SLOTS], bh[SW_SLOTS];
    __local real lr[DEV_SW], ld[DEV_SW];
    const int l = get_local_id(0);
    const int i0 = get_group_id(0) * (DEV_SW - 2), j0 = get_group_id(1) * DEV_SR;
    const StepK k = step_k(clock[0]);
    const int i = i0 - 1 + l;
    /* Output rows j0 … j0 + rows − 1 of this group; pass m ends output row j0 + m − 2. */
    const int rows = min(DEV_SR, CFG_NY - j0);
    /* The own shares of the previous row (ld, and the Taylor values) of either level. */
    real ild[4] = {0.0, 0.0, 0.0, 0.0}, iup[4] = {0.0, 0.0, 0.0, 0.0};
    real hld[4] = {0.0, 0.0, 0.0, 0.0}, hup[4] = {0.0, 0.0, 0.0, 0.0};
    real r = 0.0, d = 0.0;
    for (int m = 0; m < rows + 2; m++) {
        const int par = m & 1, j = j0 - 1 + m;
        Parent2 si;
        /* Integer point (i, j): every point some half point of the group reads. */
        const bool have_i = i <= CFG_NX && j <= CFG_NY;
        if (have_i) {
            const Point p = parent_point(q_old, inflow, i, j);
            si = parent_2d(&p, &k);
            sweep_put(bi, l, par, si.rd, si.ru, si.up);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* Half point (i0 + l, j): parents (i, j − 1), (i + 1, j − 1), (i + 1, j), (i, j). */
        const bool have_h = m > 0 && l < DEV_SW - 1 && i0 + l <= CFG_NX && j <= CFG_NY;
        Parent2 sh;
        if (have_h) {
            const Point h = sweep_point(bi, l, par, ild, iup, si.lu, si.up);
            sh = parent_2d(&h, &k);
            sweep_put(bh, l, par, sh.rd, sh.ru, sh.up);
        }
        if (have_i) {
            for (int v = 0; v < 4; v++) {
                ild[v] = si.ld[v];
                iup[v] = si.up[v];
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        /* Output (i0 + l, j − 1): half parents (i0 + l, j − 1) … (i0 + l + 1, j). */
        const int oi = i0 + l, oj = j - 1;
        if (m > 1 && l < DEV_SW - 2 && oi < CFG_NX) {
            const Point o = sweep_point(bh, l, par, hld, hup, sh.lu, sh.up);
            const int c = oi + oj * CFG_SX;
            put(q_out, c, &o);
            r = nan_max(r, rate(o.u));
            d = nan_max(d, fabs(o.u[0] - q_old[c]));
        }
        if (have_h) {
            for (int v = 0; v < 4; v++) {
                hld[v] = sh.ld[v];
                hup[v] = sh.up[v];
            }
        }
    }
    group_out_n(lr, ld, l, DEV_SW, r, d, part_rate, part_dq);
}
#undef SW_SLOTS
#undef SW_AT
#endif
