/* One loop-2 iteration as ONE kernel (spec §5.3–5.4, Appendix A of the paper): a work-group
 * owns DEV_COLS stored columns and DEV_ROWS stored rows and marches along y. Its DEV_W
 * work-items are one column each: DEV_HALO halo columns on each side compute what the owned
 * columns need and never write to global memory.
 *
 *   work-item l:   0 .. DEV_HALO-1 | DEV_HALO .. DEV_HALO+DEV_COLS-1 | .. DEV_W-1
 *   column i:      ibase + l, ibase = 1 + group_x·DEV_COLS − DEV_HALO
 *
 * Per row j (a prologue row r0−1 first, with writes suppressed):
 *   phase 0  ρu(i,j+1), ρv(i,j+2) → local rings; barrier
 *   phase 1  û(i,j), d_u → local row;  v̂(i,j+1), d_v → local ring (j+1)&1;  T(i,j) → private
 *   barrier
 *   phase 2  p(i,j) (from û of columns i, i+1, v̂ of rows j, j+1, T(i,j)) → local ring j&1
 *   barrier
 *   phase 3  u(i,j) = û − d_u (p(i,j) − p(i−1,j)), v(i,j) = v̂ − d_v (p(i,j) − p(i,j−1)),
 *            T, p, ρ = p/T, Γ = √T of cell (i,j) → global (the other Jacobi buffer set)
 *   barrier
 * With DEV_SWEEPS = 2 (the C++ order: loop 3 has two Jacobi T/p sweeps) the pass of row j
 * also runs the second sweep of row j − 1 from the first sweep's T and p of rows j − 2 .. j
 * (local rings, read through the ghosts' aliases as the reference reads its ghosts after
 * `apply_pt`), and phase 3 corrects row j − 1 with that pressure: a second prologue row and an
 * epilogue row, one more halo column each side (DEV_HALO = 3), and longer rings (30 local
 * rows; subdomains.rs). The residuals of p and T are those of the last sweep against the one
 * before, as in the reference.
 * Every right-hand side reads iterate k (read set) or level n: fully Jacobi, so results do not
 * depend on DEV_W or DEV_ROWS. ρu and ρv live in 4-row local rings: pass j reads ρu rows
 * j−1..j+1 and ρv rows j−1..j+2 and first computes the newest of each (ρu row j+1, ρv row
 * j+2), each face density once (spec §5.4); Fx, Fy are rebuilt from them (flux_inline.cl).
 * Local memory: 16 rows of DEV_W doubles (32 KiB at DEV_W = 256, the paper's budget).
 *
 * Each evaluation point takes the fast path or the boundary path (PATHS, cl/simple_ts/fields.cl,
 * spec §5.6) by the host's mask `fast`. Copy ghosts and copy/periodic faces are not written:
 * the boundary path reads their sources through c_alias, u_alias, v_alias (DEV_ALIAS), so
 * one launch is one complete loop-2 iteration.
 *
 * Periodic sides are not handled here: the seam's velocity correction needs the new p of the
 * opposite side's work-group, which one launch cannot see without a grid-wide barrier, and
 * evaluating it redundantly at wrapped halo columns would not reproduce the reference's
 * ghost-column face densities bit for bit. The host uses the phase kernels for them. */

#ifndef DEV_W
#error "DEV_W not defined (work-items per work-group, gpu::decomposition)"
#endif
#ifndef DEV_COLS
#error "DEV_COLS not defined (owned columns per work-group)"
#endif
/* Rows per subdomain (Ny_sub) from the launch, so one build serves every value: the host
 * balances them, rows = ceil((CFG_NYT - 1) / groups along y) (gpu::decomposition). */
#ifndef DEV_ROWS
#define DEV_ROWS ((int)((CFG_NYT - 1 + get_num_groups(1) - 1) / get_num_groups(1)))
#endif
#ifndef DEV_HALO
#error "DEV_HALO not defined (halo columns on each side)"
#endif
#ifndef DEV_SWEEPS
#define DEV_SWEEPS 1
#endif
#if DEV_SWEEPS != 1 && DEV_SWEEPS != 2
#error "DEV_SWEEPS must be 1 (GPU order) or 2 (C++ order with two loop-3 sweeps)"
#endif
#if DEV_HALO != DEV_SWEEPS + 1
#error "DEV_HALO must be DEV_SWEEPS + 1"
#endif
/* Ring slots: û and d_u rows (1, or 2 when the second sweep lags a row), v̂ and d_v rows. */
#define UR (DEV_SWEEPS)
#define VR (2 * DEV_SWEEPS)

/* The pressure fragments read û, d_u, v̂, d_v through these accessors: here they are the
 * work-group's local rows (row j implied for û; v̂ by the ring slot of its row). */
#undef U_HAT
#undef D_U
#undef V_HAT
#undef D_V
#define U_HAT(i,j) (lu_hat[((j) & (UR - 1)) * DEV_W + (i) - ibase])
#define D_U(i,j)   (ld_u[((j) & (UR - 1)) * DEV_W + (i) - ibase])
#define V_HAT(i,j) (lv_hat[((j) & (VR - 1)) * DEV_W + (i) - ibase])
#define D_V(i,j)   (ld_v[((j) & (VR - 1)) * DEV_W + (i) - ibase])
/* The new pressure of rows j − 1 and j (ring slot j & 1), for the velocity correction. */
#define LP(i,j)    (lp[((j) & 1) * DEV_W + (i) - ibase])
#if DEV_SWEEPS == 2
/* The first sweep's T and p of rows j − 3 .. j (slot j & 3), read as the second sweep's
 * previous values: a copy ghost through its alias (the reference's `apply_pt` after the
 * first sweep), every other cell in place (fluid: the first sweep; else iterate k). */
inline real ring_alias(__local const real* a, const int k, const int ka, const int i,
                       const int j, const int ibase)
{
    const int dk = ka - k; /* dy·NXT + dx with |dx|, |dy| ≤ 1 (pack_geometry checks) */
    const int dy = (dk + CFG_NXT + 1) / CFG_NXT - 1;
    const int dx = dk - dy * CFG_NXT;
    return a[((j + dy) & 3) * DEV_W + i + dx - ibase];
}
#define RING1(a,i,j) \
    (FASTP ? a[((j) & 3) * DEV_W + (i) - ibase] \
           : ring_alias(a, IDX((i), (j)), CI((i), (j)), (i), (j), ibase))
#define T1(i,j) RING1(lt1, (i), (j))
#define P1(i,j) RING1(lp1, (i), (j))
#endif

/* Face densities from the local rings (row j in slot j & 3). Fx, Fy (flux_inline.cl) read
 * them through these accessors. */
#undef RHO_U
#undef RHO_V
#define RHO_U(i,j) (lru[((j) & 3) * DEV_W + (i) - ibase])
#define RHO_V(i,j) (lrv[((j) & 3) * DEV_W + (i) - ibase])

/* Parameters beyond iterate k and the geometry: level n (ρ_n unless DEV_LEAN), the explicit
 * convective terms (one-value buffers for implicit schemes), and the write set. */
#if DEV_LEAN
#define K_RHO_N
#define K_RHO_GAM_W
#else
#define K_RHO_N , __global const real* rho_n
#define K_RHO_GAM_W , __global real* rho_w, __global real* gam_w
#endif
#define K_CONVECTIVE , __global const real* cu, __global const real* cv, __global const real* ct

__kernel void loop2(K_REALS_K, K_GEOMETRY, __global const real* u_n,
                    __global const real* v_n, __global const real* p_n,
                    __global const real* t_n K_RHO_N K_CONVECTIVE,
                    __global real* u_w, __global real* v_w, __global real* p_w,
                    __global real* t_w K_RHO_GAM_W, __global real* part EAST_OUTER_ARGS)
{
    __local real lu_hat[UR * DEV_W];
    __local real ld_u[UR * DEV_W];
    __local real lv_hat[VR * DEV_W];
    __local real ld_v[VR * DEV_W];
    __local real lp[2 * DEV_W];
#if DEV_SWEEPS == 2
    __local real lp1[4 * DEV_W];
    __local real lt1[4 * DEV_W];
#endif
    __local real lru[4 * DEV_W];
    __local real lrv[4 * DEV_W];
    __local real red_v[DEV_W];
    __local int red_i[DEV_W];

    const int l = (int)get_local_id(0);
    const int ibase = 1 + (int)get_group_id(0) * DEV_COLS - DEV_HALO;
    const int i = ibase + l;
    const int r0 = 1 + (int)get_group_id(1) * DEV_ROWS;
    const int r1 = min(r0 + DEV_ROWS, CFG_NYT);
    const bool live = i >= 0 && i < CFG_NXT;
    const bool owned = live && l >= DEV_HALO && l < DEV_HALO + DEV_COLS;
    /* p (and v̂, T) is needed at the owned columns and one to the west (for u at the first
     * column); û also one to the east (for p at the last). Their stencils then stay within the
     * group's columns 0 .. DEV_W−1, where the ρ rings hold values. */
    const bool need_p = live && l >= DEV_HALO - 1 && l < DEV_HALO + DEV_COLS;
    /* The first sweep (and the û, v̂ it reads) one column further per later sweep: the
     * second sweep of the owned columns and one to the west reads its neighbours. */
    const bool need_p1 =
        live && l >= DEV_HALO - DEV_SWEEPS && l < DEV_HALO + DEV_COLS + DEV_SWEEPS - 1;
    const bool need_u =
        live && l >= DEV_HALO - DEV_SWEEPS && l <= DEV_HALO + DEV_COLS + DEV_SWEEPS - 1;
    /* First pass: the prologue rows (DEV_SWEEPS of them); last pass: the lag of the second
     * sweep (one epilogue row). */
    const int j0 = r0 - DEV_SWEEPS;
    const int jend = r1 + DEV_SWEEPS - 1;

    real best[4] = {0.0, 0.0, 0.0, 0.0}; /* u, v, p, T */
    int at[4] = {0, 0, 0, 0};

    /* Prologue of the rings: ρu rows j0−1, j0 and ρv rows j0−1 .. j0+1. */
    if (live) {
        for (int jr = j0 - 1; jr <= j0 + 1; jr++) {
            if (jr >= 0 && jr < CFG_NYT) {
                PATHS(FAST(i, jr),
                    if (jr <= j0)
                        lru[(jr & 3) * DEV_W + l] = rho_fc(i, jr);
                    lrv[(jr & 3) * DEV_W + l] = rho_cf(i, jr);)
            }
        }
    }

    for (int j = j0; j < jend; j++) {
        /* phase 0: the newest ring rows, ρu(·, j+1) and ρv(·, j+2). */
        if (live && j + 1 < CFG_NYT)
            PATHS(FAST(i, j + 1), lru[((j + 1) & 3) * DEV_W + l] = rho_fc(i, j + 1);)
        if (live && j + 2 < CFG_NYT)
            PATHS(FAST(i, j + 2), lrv[((j + 2) & 3) * DEV_W + l] = rho_cf(i, j + 2);)
        barrier(CLK_LOCAL_MEM_FENCE);

        /* phase 1: pseudo-velocities of this row and the next v-row, T of this row. */
        real t1 = 0.0;
        const int jn = j + 1;
        /* (The two-sweep form's first and last passes lie a row outside the storage.) */
        if (live && j >= 0 && j < CFG_NYT) {
            PATHS(FAST(i, j),
            if (need_p1 && j == j0 && j >= 1 && i >= 1 && i <= CFG_NXT - 2
                && V_FACE(i, j) == F_SOLVED)
                V_HAT_D_V(i, j, lv_hat[(j & (VR - 1)) * DEV_W + l],
                          ld_v[(j & (VR - 1)) * DEV_W + l]);
            if (need_u && j >= 1 && j <= CFG_NYT - 2 && i >= 1 && U_FACE(i, j) == F_SOLVED)
                U_HAT_D_U(i, j, lu_hat[(j & (UR - 1)) * DEV_W + l],
                          ld_u[(j & (UR - 1)) * DEV_W + l]);
            if (need_p1 && j >= 1 && j <= CFG_NYT - 2 && CELL(i, j) == CELL_FLUID)
                T_NEW_CC(T, P, i, j, t1);)
            if (need_p1 && jn <= CFG_NYT - 1 && jn >= 1 && i >= 1 && i <= CFG_NXT - 2) {
                PATHS(FAST(i, jn),
                if (V_FACE(i, jn) == F_SOLVED)
                    V_HAT_D_V(i, jn, lv_hat[(jn & (VR - 1)) * DEV_W + l],
                              ld_v[(jn & (VR - 1)) * DEV_W + l]);)
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        /* phase 2: the new pressure of this row; ghosts and solids keep iterate k's value
         * (fixed ghosts; no solved face reads any other). */
        real p1 = 0.0;
        if (need_p1 && j >= 0 && j < CFG_NYT) {
            PATHS(FAST(i, j),
                if (j >= 1 && j <= CFG_NYT - 2 && CELL(i, j) == CELL_FLUID) {
                    p1 = p_new_cc(P, i, j, t1);
                } else {
                    p1 = P(i, j);
#if DEV_SWEEPS == 2
                    t1 = T(i, j);
#endif
                })
#if DEV_SWEEPS == 2
            lp1[(j & 3) * DEV_W + l] = p1;
            lt1[(j & 3) * DEV_W + l] = t1;
#else
            lp[(j & 1) * DEV_W + l] = p1;
#endif
        }
        barrier(CLK_LOCAL_MEM_FENCE);

#if DEV_SWEEPS == 2
        /* phase 2b: the second sweep of row jc = j − 1 from the first sweep's rows
         * j − 2 .. j; its p goes to the ring the correction reads, and the residuals compare
         * it with the first sweep, as the reference's last sweep does. */
        const int jc = j - 1;
        real pl = 0.0, tl = 0.0, pf = 0.0, tf = 0.0;
        if (need_p && jc >= r0 - 1 && jc < CFG_NYT) {
            PATHS(FAST(i, jc),
                if (jc >= 1 && jc <= CFG_NYT - 2 && CELL(i, jc) == CELL_FLUID) {
                    pf = lp1[(jc & 3) * DEV_W + l];
                    tf = lt1[(jc & 3) * DEV_W + l];
                    T_NEW_CC(T1, P1, i, jc, tl);
                    pl = p_new_cc(P1, i, jc, tl);
                } else {
                    pl = P(i, jc);
                })
            lp[(jc & 1) * DEV_W + l] = pl;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
/* The residuals of the last sweep: against the first sweep's value, or iterate k's. */
#define PREV_P(k) (pf)
#define PREV_T(k) (tf)
#else
        const int jc = j;
        const real pl = p1, tl = t1;
#define PREV_P(k) (p[(k)])
#define PREV_T(k) (t[(k)])
#endif

        /* phase 3: corrections and the new cell state of row jc, owned columns and rows
         * only. */
        if (owned && jc >= r0 && jc < r1) {
            const int k = IDX(i, jc);
            if (jc <= CFG_NYT - 2 && U_FACE(i, jc) == F_SOLVED) {
                const real un = u_corr_fc(LP, i, jc);
                see(&best[0], &at[0], fabs(un - u[k]), k);
                u_w[k] = un;
            }
            if (V_FACE(i, jc) == F_SOLVED) {
                const real vn = v_corr_cf(LP, i, jc);
                see(&best[1], &at[1], fabs(vn - v[k]), k);
                v_w[k] = vn;
            }
            if (jc <= CFG_NYT - 2 && CELL(i, jc) == CELL_FLUID) {
                see(&best[2], &at[2], fabs(pl - PREV_P(k)), k);
                see(&best[3], &at[3], fabs(tl - PREV_T(k)), k);
                p_w[k] = pl;
                t_w[k] = tl;
#if !DEV_LEAN
                rho_w[k] = rho_eos(pl, tl);
                gam_w[k] = gam_eos(tl);
#endif
            }
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#undef PREV_P
#undef PREV_T

    /* Work-group maxima of the four residuals (value, index) → part[group·8 + 2m]
     * (cl/common/max_at.cl). */
    const int g = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
    for (int m = 0; m < 4; m++) {
        red_v[l] = best[m];
        red_i[l] = at[m];
        group_max_at(red_v, red_i, l, DEV_W);
        if (l == 0) {
            part[g * 8 + 2 * m] = red_v[0];
            part[g * 8 + 2 * m + 1] = (real)red_i[0];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}

/* The outer faces of the west and east ghost columns of iterate k (outer_face:
 * mass_balance; bc::Ghosts::apply_outer), run after every loop2 launch on the set it wrote,
 * so that set is the reference's iterate: the west outer face u(0,j) (a stored face no loop2
 * launch writes) and the east one beyond the ghost column with its flux (u_xe, fx_xe, read by
 * the next launch's boundary u-CV). The face densities are recomputed where read, as in
 * loop2; item m sets west row west_rows[m] and east row east_rows[m]. An item writes only its
 * own row's west outer face, which no other item reads. */
#ifndef CFG_EAST_BALANCE
#error "CFG_EAST_BALANCE not defined (1: the east outer face from the mass balance, 0: a copy)"
#endif
/* The face densities where read again (flux_inline.cl), not from loop2's local rings. */
#undef RHO_U
#undef RHO_V
#define RHO_U(i,j) (rho_fc((i), (j)))
#define RHO_V(i,j) (rho_cf((i), (j)))
__kernel void outer_faces(K_REALS_K, K_GEOMETRY, __global const real* p_n,
                          __global const real* t_n K_RHO_N, __global const int* west_rows,
                          __global const int* east_rows, __global real* u_xe,
                          __global real* fx_xe)
{
    const int m = (int)get_global_id(0);
    if (m < CFG_N_WEST_BALANCE) {
        const int j = west_rows[m];
        const real ru = RHO_U(0, j);
        u[IDX(0, j)] = ((RHO(0, j) - RHO_N(0, j)) * HX(0) * HY(j) / CFG_DT
                        + (RHO_V(0, j + 1) * V(0, j + 1) - RHO_V(0, j) * V(0, j)) * HX(0)
                        + RHO_U(1, j) * U(1, j) * HY(j))
                       / (ru * HY(j));
    }
    if (m < CFG_N_EAST_OUTER) {
        const int i = CFG_NXT - 1;
        const int j = east_rows[m];
        const real ru = RHO(i, j);
#if CFG_EAST_BALANCE
        const real ue = (-(RHO(i, j) - RHO_N(i, j)) * HX(i) * HY(j) / CFG_DT
                         - (RHO_V(i, j + 1) * V(i, j + 1) - RHO_V(i, j) * V(i, j)) * HX(i)
                         + RHO_U(i, j) * U(i, j) * HY(j))
                        / (ru * HY(j));
#else
        const real ue = U(i, j);
#endif
        u_xe[j] = ue;
        fx_xe[j] = HY(j) * ru * ue;
    }
}
