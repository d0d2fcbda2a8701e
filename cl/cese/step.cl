/* The CE/SE kernels (docs/method/cese.md §5): the two half steps as two launches (half_a,
 * half_b) or fused in one (fused_1d, fused_2d: a work-group computes the half-level points
 * its outputs need, with the halo that needs: B outputs need B + 1 half points, which need
 * B + 2 integer points per axis), and the reduction of the CFL rate into the next Δt. Each
 * inline function is the twin of the Rust function of the same name in
 * src/methods/cese/reference.rs; the formulas are the fragments (cl/cese/fragments.cl).
 *
 * -D contract: CFG_NX, CFG_NY (integer points), CFG_SX (row stride nx + 1), CFG_NS (values
 * per plane), CFG_NV (3 in 1D, 4 in 2D), CFG_DIM, CFG_GAMMA, CFG_ALPHA, CFG_QDX, CFG_QDY
 * (Δ/4), CFG_RDX, CFG_RDY (1/Δ), CFG_RDX2 (2/Δx), CFG_H (the CFL length), CFG_CFL,
 * CFG_T_END, CFG_FIXED_DT, CFG_WEST, CFG_EAST, CFG_SOUTH, CFG_NORTH (0 outflow,
 * 1 reflective, 2 inflow, 3 periodic), CFG_NGROUPS (groups of half_b / fused_*),
 * CFG_NGROUPS2 (groups of reduce); DEV_LX, DEV_LY (work-group of half_b and fused_*; the
 * fused tile is DEV_LX × DEV_LY outputs), DEV_RED (reduction work-group).
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
    real rx, ry, dt4, hdt;
} StepK;

typedef struct {
    real u[3], s[3], up[3];
} Parent1;

typedef struct {
    real u[4], a[4], b[4], fc[4], fd[4], gc[4], gd[4], up[4];
} Parent2;

inline StepK step_k(const real dt)
{
    StepK k;
    k.rx = dt * CFG_RDX;
    k.ry = dt * CFG_RDY;
    k.dt4 = 0.25 * dt;
    k.hdt = 0.5 * dt;
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

inline void ax(const real wx, const real wy, const real w4, const real* x, real* o)
{
    o[0] = x[1];
    o[1] = c2_an(wx, wy, x[0], x[1], x[2], x[3]);
    o[2] = c2_ac(wx, wy, x[0], x[1], x[2]);
    o[3] = c2_ae(wx, wy, w4, x[0], x[1], x[2], x[3]);
}

inline void ay(const real wx, const real wy, const real w4, const real* x, real* o)
{
    o[0] = x[2];
    o[1] = c2_ac(wy, wx, x[0], x[2], x[1]);
    o[2] = c2_an(wy, wx, x[0], x[2], x[1], x[3]);
    o[3] = c2_ae(wy, wx, w4, x[0], x[2], x[1], x[3]);
}

inline Parent2 parent_2d(const Point* pt, const StepK* k)
{
    const real* u = pt->u;
    const real ri = 1.0 / u[0];
    const real wx = u[1] * ri;
    const real wy = u[2] * ri;
    const real w4 = u[3] * ri;
    real axx[4], ayy[4], ut[4], fx[4], fy[4], fxy[4], fxt[4], fyx[4], fyt[4];
    ax(wx, wy, w4, pt->ux, axx);
    ay(wx, wy, w4, pt->uy, ayy);
    for (int v = 0; v < 4; v++)
        ut[v] = -(axx[v] + ayy[v]);
    fx[0] = u[1];
    fx[1] = c2_fn(u[1], u[2], u[3], wx, wy);
    fx[2] = u[2] * wx;
    fx[3] = c2_fe(u[1], u[3], wx, wy);
    fy[0] = u[2];
    fy[1] = u[1] * wy;
    fy[2] = c2_fn(u[2], u[1], u[3], wy, wx);
    fy[3] = c2_fe(u[2], u[3], wy, wx);
    ax(wx, wy, w4, pt->uy, fxy);
    ax(wx, wy, w4, ut, fxt);
    ay(wx, wy, w4, pt->ux, fyx);
    ay(wx, wy, w4, ut, fyt);
    Parent2 o;
    for (int v = 0; v < 4; v++) {
        o.u[v] = u[v];
        o.a[v] = CFG_QDX * pt->ux[v];
        o.b[v] = CFG_QDY * pt->uy[v];
        o.fc[v] = c2_fc(fx[v], k->dt4, fxt[v]);
        o.fd[v] = CFG_QDY * fxy[v];
        o.gc[v] = c2_fc(fy[v], k->dt4, fyt[v]);
        o.gd[v] = CFG_QDX * fyx[v];
        o.up[v] = cese_up(u[v], k->hdt, ut[v]);
    }
    return o;
}

inline real term(const StepK* k, const Parent2* p, const int v, const real sx, const real sy)
{
    const real uq = c2_bottom(p->u[v], sx, p->a[v], sy, p->b[v]);
    const real fq = c2_face(p->fc[v], sy, p->fd[v]);
    const real gq = c2_face(p->gc[v], sx, p->gd[v]);
    return c2_term(uq, sx, k->rx, fq, sy, k->ry, gq);
}

/* One parent's four shares t[v] at offset (sx, sy) and its Taylor values up[v]: the
 * parent's quantities live only while its shares are taken (register pressure). */
inline void share(const Point* pt, const StepK* k, const real sx, const real sy, real* t,
                  real* up)
{
    const Parent2 p = parent_2d(pt, k);
    for (int v = 0; v < 4; v++) {
        t[v] = term(k, &p, v, sx, sy);
        up[v] = p.up[v];
    }
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
    real tld[4], trd[4], tru[4], tlu[4], uld[4], urd[4], uru[4], ulu[4];
    share(ld, k, -1.0, -1.0, tld, uld);
    share(rd, k, 1.0, -1.0, trd, urd);
    share(ru, k, 1.0, 1.0, tru, uru);
    share(lu, k, -1.0, 1.0, tlu, ulu);
    return point_2d(tld, trd, tru, tlu, uld, urd, uru, ulu);
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

/* NaN-propagating maxima of (lr, ld) over the n items of a group (n a power of two);
 * every item calls it; the result is in lr[0], ld[0]. */
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

/* The group's maxima of the rate and |Δρ| into part_rate, part_dq. */
inline void group_out(__local real* lr, __local real* ld, const real r, const real d,
                      __global real* part_rate, __global real* part_dq)
{
    const int l = get_local_id(0) + get_local_id(1) * DEV_LX;
    lr[l] = r;
    ld[l] = d;
    group_max2(lr, ld, l, DEV_LX * DEV_LY);
    if (l == 0) {
        const int g = get_group_id(0) + get_group_id(1) * get_num_groups(0);
        part_rate[g] = lr[0];
        part_dq[g] = ld[0];
    }
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
/* Both half steps of DEV_LX integer points in one launch: the group's DEV_LX + 2 integer
 * parents (ghosts included) and DEV_LX + 1 half points live in local memory, each parent's
 * contribution computed once. */
__kernel void fused_1d(__global const real* q_old, __global real* q_out,
                       __global const real* clock, __global const real* inflow,
                       __global real* part_rate, __global real* part_dq)
{
    __local Parent1 pa[DEV_LX + 2];
    __local Parent1 pb[DEV_LX + 1];
    __local real lr[DEV_LX], ld[DEV_LX];
    const int l = get_local_id(0);
    const int k0 = get_group_id(0) * DEV_LX;
    const StepK k = step_k(clock[0]);
    for (int t = l; t < DEV_LX + 2; t += DEV_LX) {
        const int i = k0 - 1 + t;
        if (i <= CFG_NX) {
            const Point p = parent_point(q_old, inflow, i, 0);
            pa[t] = parent_1d(&p, &k);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int t = l; t < DEV_LX + 1; t += DEV_LX) {
        if (k0 + t <= CFG_NX) {
            const Point hp = point_1d(pa[t], pa[t + 1]);
            pb[t] = parent_1d(&hp, &k);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int i = k0 + l;
    real r = 0.0, d = 0.0;
    if (i < CFG_NX) {
        const Point o = point_1d(pb[l], pb[l + 1]);
        put(q_out, i, &o);
        r = rate(o.u);
        d = fabs(o.u[0] - pa[l + 1].u[0]);
    }
    group_out(lr, ld, r, d, part_rate, part_dq);
}
#else
/* Values per parent in the fused 2D kernel's local memory: its shares for the four children
 * it is a parent of (4 roles × 4 components) and its 4 Taylor values. */
#define NSH 20

/* The shares and Taylor values of the parent `pt` into entry t of the structure-of-arrays
 * local buffer s of n entries. Roles: 0 the child's LD parent (sx, sy) = (−1, −1), 1 RD
 * (1, −1), 2 RU (1, 1), 3 LU (−1, 1), the offsets point_from gives them, so each share is
 * the value point_from computes. */
inline void shares_to(__local real* s, const int n, const int t, const Point* pt,
                      const StepK* k)
{
    const Parent2 p = parent_2d(pt, k);
    for (int v = 0; v < 4; v++) {
        s[v * n + t] = term(k, &p, v, -1.0, -1.0);
        s[(4 + v) * n + t] = term(k, &p, v, 1.0, -1.0);
        s[(8 + v) * n + t] = term(k, &p, v, 1.0, 1.0);
        s[(12 + v) * n + t] = term(k, &p, v, -1.0, 1.0);
        s[(16 + v) * n + t] = p.up[v];
    }
}

/* The new point whose parents LD, RD, RU, LU are entries a, b, c, d of s (shares_to). */
inline Point point_of(__local const real* s, const int n, const int a, const int b,
                      const int c, const int d)
{
    real tld[4], trd[4], tru[4], tlu[4], uld[4], urd[4], uru[4], ulu[4];
    for (int v = 0; v < 4; v++) {
        tld[v] = s[v * n + a];
        trd[v] = s[(4 + v) * n + b];
        tru[v] = s[(8 + v) * n + c];
        tlu[v] = s[(12 + v) * n + d];
        uld[v] = s[(16 + v) * n + a];
        urd[v] = s[(16 + v) * n + b];
        uru[v] = s[(16 + v) * n + c];
        ulu[v] = s[(16 + v) * n + d];
    }
    return point_2d(tld, trd, tru, tlu, uld, urd, uru, ulu);
}

/* Both half steps of a DEV_LX × DEV_LY tile of integer points in one launch, each parent's
 * quantities computed once (as fused_1d does): the shares of the (DEV_LX + 2) × (DEV_LY + 2)
 * integer points around the tile (ghosts included) into local memory, from them the
 * (DEV_LX + 1) × (DEV_LY + 1) half points the tile needs and their shares, then the tile.
 * The split kernels evaluate parent_2d eight times per integer point and step (four per
 * new point and half step); this kernel (N1 + N2) / (DEV_LX · DEV_LY) times (3.0 at the default 16 × 4). */
__kernel void fused_2d(__global const real* q_old, __global real* q_out,
                       __global const real* clock, __global const real* inflow,
                       __global real* part_rate, __global real* part_dq)
{
#define W1 (DEV_LX + 2)
#define N1 ((DEV_LX + 2) * (DEV_LY + 2))
#define W2 (DEV_LX + 1)
#define N2 ((DEV_LX + 1) * (DEV_LY + 1))
    __local real s1[NSH * N1];
    __local real s2[NSH * N2];
    __local real lr[DEV_LX * DEV_LY], ld[DEV_LX * DEV_LY];
    const int l = get_local_id(0) + get_local_id(1) * DEV_LX;
    const int i0 = get_group_id(0) * DEV_LX, j0 = get_group_id(1) * DEV_LY;
    const StepK k = step_k(clock[0]);
    /* Integer points i0 − 1 … i0 + DEV_LX, j0 − 1 … j0 + DEV_LY (those some half point reads). */
    for (int t = l; t < N1; t += DEV_LX * DEV_LY) {
        const int i = i0 - 1 + t % W1, j = j0 - 1 + t / W1;
        if (i <= CFG_NX && j <= CFG_NY) {
            const Point p = parent_point(q_old, inflow, i, j);
            shares_to(s1, N1, t, &p, &k);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    /* Half points (i0 + a, j0 + b): parents (i0 + a − 1, j0 + b − 1) … (i0 + a, j0 + b). */
    for (int t = l; t < N2; t += DEV_LX * DEV_LY) {
        const int a = t % W2, b = t / W2;
        if (i0 + a <= CFG_NX && j0 + b <= CFG_NY) {
            const int e = a + b * W1;
            const Point h = point_of(s1, N1, e, e + 1, e + 1 + W1, e + W1);
            shares_to(s2, N2, t, &h, &k);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int li = get_local_id(0), lj = get_local_id(1);
    const int i = i0 + li, j = j0 + lj;
    real r = 0.0, d = 0.0;
    if (i < CFG_NX && j < CFG_NY) {
        const int t = li + lj * W2;
        const Point o = point_of(s2, N2, t, t + 1, t + 1 + W2, t + W2);
        const int c = i + j * CFG_SX;
        put(q_out, c, &o);
        r = rate(o.u);
        d = fabs(o.u[0] - q_old[c]);
    }
    group_out(lr, ld, r, d, part_rate, part_dq);
#undef W1
#undef N1
#undef W2
#undef N2
}
#endif

/* First level of the reduction of the per-group maxima: CFG_NGROUPS2 groups of DEV_RED. */
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
    lr[l] = r;
    ld[l] = d;
    group_max2(lr, ld, l, DEV_RED);
    if (l == 0) {
        part2_rate[get_group_id(0)] = lr[0];
        part2_dq[get_group_id(0)] = ld[0];
    }
}

/* The end of a step (one group of DEV_RED): clock = [Δt, t, max rate, max |Δρ|] of the new
 * level; a NaN (a failed step) leaves Δt and t as they were. */
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
