/* Loop 2 as a sequence of Jacobi phase kernels (spec §2.8: one T/p evaluation per iteration
 * in the GPU order, `solver.inner_sweeps` in the C++ order). Entry points only: the physics
 * is in the fragments, and each phase is the twin of one step of src/methods/simple_ts/reference/iterate.rs, so
 * this backend reproduces the reference in either order to round-off. The fused one-kernel y-sweep (spec §5.3) is built
 * from the same fragments and checked against this one.
 *
 * One work-item per stored cell (k = i + j·CFG_NXT); each kernel guards its own range.
 * Parameters are named like the host's buffers: src/device/runtime.rs binds them by name.
 *
 * Host order per loop-2 iteration: pseudo → copy_hat → tp → ghost_pt [→ (tp_sweep →
 * ghost_pt) for every further sweep of the C++ order] → correct (with the EoS) → end_copies
 * → reduce_all → fluxes → check. Loop 3's sweeps alternate between two buffer sets (p_new,
 * t_new and p_old, t_old; the host binds each kernel once per direction) so that the last
 * sweep ends in p_new, t_new. Explicit: convective once per step. Every loop-2 kernel is
 * gated by the device-side loop control (gate.cl). */

/* The stored cell of a whole-grid work-item: k = get_global_id(0) in a 1-D launch over the
 * grid; in a 2-D launch, column get_global_id(0) of row get_global_id(1). A rank that overlaps
 * its halo exchange launches a phase as rectangles of its window with a global work offset
 * (the frame, then the interior: src/methods/simple_ts/opencl/phase/overlap.rs), each of the
 * exact size, so every cell is computed once and as in the whole launch. */
#define PHASE_CELL(k) \
    const size_t k = get_work_dim() == 2 \
        ? get_global_id(0) + get_global_id(1) * (size_t)CFG_NXT : get_global_id(0); \
    if (k >= (size_t)CFG_NXT * CFG_NYT) \
        return

/* (7)–(12): ρu, ρv, Fx, Fy at every stored face (density::face_densities). */
__kernel void fluxes(K_REALS_K, K_GEOMETRY, __global real* rho_u, __global real* rho_v,
                     __global real* fx, __global real* fy LOOP2_GATE_ARG)
{
    LOOP2_GATE
    PHASE_CELL(k);
    CELL_OF(k);
    PATHS(fast[k],
        const real ru = rho_fc(i, j);
        const real rv = rho_cf(i, j);
        rho_u[k] = ru;
        rho_v[k] = rv;
        fx[k] = Fx_fc(ru, i, j);
        fy[k] = Fy_cf(rv, i, j);)
}

/* (15)–(16): û, d_u and v̂, d_v at every solved face (momentum::u_hat_d_u, v_hat_d_v). */
__kernel void pseudo(K_REALS_K, K_GEOMETRY, __global const real* u_n,
                     __global const real* v_n, __global const real* rho_n,
                     __global const real* rho_u, __global const real* rho_v,
                     __global const real* fx, __global const real* fy,
                     __global const real* cu, __global const real* cv,
                     __global real* u_hat, __global real* d_u, __global real* v_hat,
                     __global real* d_v EAST_OUTER_ARGS LOOP2_GATE_ARG)
{
    LOOP2_GATE
    PHASE_CELL(k);
    CELL_OF(k);
    PATHS(fast[k],
        if (i >= 1 && j >= 1 && j <= CFG_NYT - 2 && U_FACE(i, j) == F_SOLVED)
            U_HAT_D_U(i, j, u_hat[k], d_u[k]);
        if (j >= 1 && i >= 1 && i <= CFG_NXT - 2 && V_FACE(i, j) == F_SOLVED)
            V_HAT_D_V(i, j, v_hat[k], d_v[k]);)
}

/* Periodic/copy faces take their partner's û, d (iterate::pseudo_velocities): one work-item
 * per entry of the u then the v list, each resolved into one level (kernels/boundary.cl). */
__kernel void copy_hat(__global const int* u_copy, __global const int* v_copy,
                       __global real* u_hat, __global real* d_u, __global real* v_hat,
                       __global real* d_v LOOP2_GATE_ARG)
{
    LOOP2_GATE
    int m = (int)get_global_id(0);
    if (m < CFG_NU_COPY) {
        u_hat[u_copy[2 * m]] = u_hat[u_copy[2 * m + 1]];
        d_u[u_copy[2 * m]] = d_u[u_copy[2 * m + 1]];
    } else if (m < CFG_NU_COPY + CFG_NV_COPY) {
        m -= CFG_NU_COPY;
        v_hat[v_copy[2 * m]] = v_hat[v_copy[2 * m + 1]];
        d_v[v_copy[2 * m]] = d_v[v_copy[2 * m + 1]];
    }
}

/* (24) then (22) at fluid cell k: T from the previous sweep's neighbours and p (accessors TO,
 * PO), then p from the previous sweep's neighbours and that new T; the coefficients from
 * iterate k (energy::energy_coeffs, pressure::pressure_coeffs); |ΔT|, |Δp| against the
 * previous sweep for the residuals (loop 3 of iterate.rs). Every other stored cell keeps the
 * previous sweep's p and T (t_prev, p_prev at k), so a sweep writes the whole of p_new, t_new
 * and loop 3 needs no copy between sweeps. */
#define TP_EVAL(TO, PO, t_prev, p_prev) \
    do { \
        res_p[k] = 0.0; \
        res_t[k] = 0.0; \
        CELL_OF(k); \
        /* Loop 3 solves the computed cells only (iterate.rs): a fluid cell on the stored \
         * edge occurs only on a rank's halo edge, whose values the exchange replaces. */ \
        if (cell[k] != CELL_FLUID || i < 1 || j < 1 || i > CFG_NXT - 2 || j > CFG_NYT - 2) { \
            t_new[k] = t_prev[k]; \
            p_new[k] = p_prev[k]; \
            break; \
        } \
        PATHS(fast[k], \
            real t1; \
            T_NEW_CC(TO, PO, i, j, t1); \
            const real p1 = p_new_cc(PO, i, j, t1); \
            t_new[k] = t1; \
            p_new[k] = p1; \
            res_t[k] = fabs(t1 - TO(i, j)); \
            res_p[k] = fabs(p1 - PO(i, j));) \
    } while (0)

/* The first sweep of loop 3 (the only one in the GPU order): the previous sweep is iterate
 * k itself. With compat steady_test_first_sweep its |Δp|, |ΔT| are kept for the C++ steady
 * test (res_p1, res_t1; reduce_first, check). */
#ifndef CFG_COMPAT_STEADY_FIRST
#error "CFG_COMPAT_STEADY_FIRST not defined (1: compat steady_test_first_sweep, 0: the plain test)"
#endif
#if CFG_COMPAT_STEADY_FIRST
#define FIRST_SWEEP_ARGS , __global real* res_p1, __global real* res_t1
#define FIRST_PARTS_ARGS , __global const real* part_p1, __global const real* part_t1
#else
#define FIRST_SWEEP_ARGS
#define FIRST_PARTS_ARGS
#endif
__kernel void tp(K_REALS_K, K_GEOMETRY, __global const real* u_n, __global const real* v_n,
                 __global const real* p_n, __global const real* t_n,
                 __global const real* rho_n, __global const real* rho_u,
                 __global const real* rho_v, __global const real* fx, __global const real* fy,
                 __global const real* ct, __global const real* u_hat,
                 __global const real* d_u, __global const real* v_hat,
                 __global const real* d_v, __global real* p_new, __global real* t_new,
                 __global real* res_p, __global real* res_t FIRST_SWEEP_ARGS LOOP2_GATE_ARG)
{
    LOOP2_GATE
    PHASE_CELL(k);
    TP_EVAL(T, P, t, p);
#if CFG_COMPAT_STEADY_FIRST
    res_p1[k] = res_p[k];
    res_t1[k] = res_t[k];
#endif
}

/* The previous sweep's T and p with their ghosts (p_old, t_old here; the host binds a second
 * instance that reads p_new, t_new and writes p_old, t_old). */
#define T_PREV(i,j) (t_old[CI((i),(j))])
#define P_PREV(i,j) (p_old[CI((i),(j))])

/* Every later sweep of loop 3 in the C++ order (solver.inner_sweeps > 1). */
__kernel void tp_sweep(K_REALS_K, K_GEOMETRY, __global const real* u_n,
                       __global const real* v_n, __global const real* p_n,
                       __global const real* t_n, __global const real* rho_n,
                       __global const real* rho_u, __global const real* rho_v,
                       __global const real* fx, __global const real* fy,
                       __global const real* ct, __global const real* u_hat,
                       __global const real* d_u, __global const real* v_hat,
                       __global const real* d_v, __global const real* p_old,
                       __global const real* t_old, __global real* p_new, __global real* t_new,
                       __global real* res_p, __global real* res_t LOOP2_GATE_ARG)
{
    LOOP2_GATE
    PHASE_CELL(k);
    TP_EVAL(T_PREV, P_PREV, t_old, p_old);
}

/* Copy ghosts of the new p and T between the T/p evaluation and the correction
 * (bc::Ghosts::apply_pt); a list entry is (dst, p src, T src), see kernels/boundary.cl. */
__kernel void ghost_pt(__global const int* ghost_copy, __global real* p_new,
                       __global real* t_new LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const int m = (int)get_global_id(0);
    if (m >= CFG_NGHOST_COPY)
        return;
    const int dst = ghost_copy[3 * m], ps = ghost_copy[3 * m + 1], ts = ghost_copy[3 * m + 2];
    if (ps != dst)
        p_new[dst] = p_new[ps];
    if (ts != dst)
        t_new[dst] = t_new[ts];
}

/* (37)–(38) velocity correction at solved faces with the new pressure, and |Δu|, |Δv|
 * (pressure::correct); then the EoS step at the same cell: the new p, T into iterate k with
 * ρ = p/T and Γ = √T on fluid cells (iterate.rs). The correction reads only p_new and the EoS
 * writes only p, t, ρ, Γ at its own cell, so one launch does both. */
#define P_NEW(i,j) (p_new[IDX((i), (j))])
__kernel void correct(__global real* u, __global real* v, __global const int* u_face,
                      __global const int* v_face, __global const real* u_hat,
                      __global const real* d_u, __global const real* v_hat,
                      __global const real* d_v, __global const real* p_new,
                      __global real* res_u, __global real* res_v, __global const int* cell,
                      __global const real* t_new, __global real* p, __global real* t,
                      __global real* rho, __global real* gam LOOP2_GATE_ARG)
{
    LOOP2_GATE
    PHASE_CELL(k);
    CELL_OF(k);
    res_u[k] = 0.0;
    res_v[k] = 0.0;
    if (j >= 1 && j <= CFG_NYT - 2 && u_face[k] == F_SOLVED) {
        const real un = u_corr_fc(P_NEW, i, j);
        res_u[k] = fabs(un - u[k]);
        u[k] = un;
    }
    if (j >= 1 && v_face[k] == F_SOLVED) {
        const real vn = v_corr_cf(P_NEW, i, j);
        res_v[k] = fabs(vn - v[k]);
        v[k] = vn;
    }
    if (cell[k] == CELL_FLUID) {
        const real q = p_new[k];
        const real tt = t_new[k];
        p[k] = q;
        t[k] = tt;
        rho[k] = rho_eos(q, tt);
        gam[k] = gam_eos(tt);
    }
}

/* Largest residual and its index per work-group (cl/common/max_at.cl). part gets (value,
 * index) per group; the host reduces the groups. */
inline void group_max(__global const real* r, __global real* part, __local real* lv,
                      __local int* li)
{
    const int l = (int)get_local_id(0);
    real best = 0.0;
    int at = 0;
    for (size_t k = get_global_id(0); k < (size_t)CFG_NXT * CFG_NYT; k += get_global_size(0))
        see(&best, &at, r[k], (int)k);
    lv[l] = best;
    li[l] = at;
    group_max_at(lv, li, l, (int)get_local_size(0));
    if (l == 0) {
        part[2 * get_group_id(0)] = lv[0];
        part[2 * get_group_id(0) + 1] = (real)li[0];
    }
}

/* The four residual maxima in one launch: each work-group reduces u, v, p, T in turn
 * (part_* get (value, index) per group; the host or `check` merges the groups). */
__kernel void reduce_all(__global const real* res_u, __global const real* res_v,
                         __global const real* res_p, __global const real* res_t,
                         __global real* part_u, __global real* part_v, __global real* part_p,
                         __global real* part_t LOOP2_GATE_ARG)
{
    LOOP2_GATE
    __local real lv[DEV_RED_WG];
    __local int li[DEV_RED_WG];
    group_max(res_u, part_u, lv, li);
    barrier(CLK_LOCAL_MEM_FENCE);
    group_max(res_v, part_v, lv, li);
    barrier(CLK_LOCAL_MEM_FENCE);
    group_max(res_p, part_p, lv, li);
    barrier(CLK_LOCAL_MEM_FENCE);
    group_max(res_t, part_t, lv, li);
}

/* The per-step entries of ctl back to zero (gate.cl); one work-item. */
__kernel void ctl_reset(__global real* ctl)
{
    if (get_global_id(0) != 0)
        return;
    for (int m = 0; m < CTL_RESET; m++)
        ctl[m] = 0.0;
}

/* Merge (d, k) into (*best, *at) with the host's rule (loop2.rs `merge`): NaN wins, then the
 * larger value, ties keep the smaller index. */
inline void merge_at(real* best, real* at, const real d, const real k)
{
    const bool take = (isnan(d) || isnan(*best)) ? (isnan(d) && (!isnan(*best) || k < *at))
                                                 : (d > *best || (d == *best && k < *at));
    if (take) {
        *best = d;
        *at = k;
    }
}

/* The end of a loop-2 iteration (gate.cl): merge the groups' maxima, count the iteration,
 * then the divergence guard in field order (u, v, p, T: not finite or above the limit) and
 * the tolerances of spec §4. One work-group of DEV_RED_WG items, queued after `fluxes`, so a
 * stopping iteration is complete. The merge rule orders (value, index) pairs totally (NaN
 * first, by smaller index; then the larger value; ties to the smaller index), so the strided
 * and tree merge here picks the same pair as the host's merge in group order from (0, 0). */
__kernel void check(__global const real* part_u, __global const real* part_v,
                    __global const real* part_p, __global const real* part_t,
                    __global real* ctl FIRST_PARTS_ARGS)
{
    __local real lv[DEV_RED_WG];
    __local int li[DEV_RED_WG];
    const int l = (int)get_local_id(0);
    if (ctl[CTL_STOP] != 0.0)
        return;
    __global const real* part[4] = {part_u, part_v, part_p, part_t};
    const int groups = (int)ctl[CTL_GROUPS];
    real best[4];
    for (int f = 0; f < 4; f++) {
        real b = 0.0, at = 0.0;
        for (int g = l; g < groups; g += DEV_RED_WG)
            merge_at(&b, &at, part[f][2 * g], part[f][2 * g + 1]);
        lv[l] = b;
        li[l] = (int)at;
        group_max_at(lv, li, l, DEV_RED_WG);
        best[f] = lv[0];
        if (l == 0) {
            ctl[CTL_MAX + f] = lv[0];
            ctl[CTL_AT + f] = (real)li[0];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
#if CFG_COMPAT_STEADY_FIRST
    /* The C++ steady test (iterate::cpp_steady): the step's first iteration, and max|Δu|,
     * max|Δv| and the first sweep's max|Δp|, max|ΔT| at most 1e-12 (the host adds the bound
     * on the sweeps). The maxima are merged as above. */
    __global const real* first[2] = {part_p1, part_t1};
    real best1[2];
    for (int f = 0; f < 2; f++) {
        real b = 0.0, at = 0.0;
        for (int g = l; g < groups; g += DEV_RED_WG)
            merge_at(&b, &at, first[f][2 * g], first[f][2 * g + 1]);
        lv[l] = b;
        li[l] = (int)at;
        group_max_at(lv, li, l, DEV_RED_WG);
        best1[f] = lv[0];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        ctl[CTL_STEADY] = (ctl[CTL_ITERS] == 0.0 && best[0] <= 1e-12 && best[1] <= 1e-12
                           && best1[0] <= 1e-12 && best1[1] <= 1e-12) ? 1.0 : 0.0;
#endif
    if (l != 0)
        return;
    ctl[CTL_ITERS] += 1.0;
    for (int f = 0; f < 4; f++) {
        if (!isfinite(best[f]) || best[f] > ctl[CTL_LIMIT]) {
            ctl[CTL_FIELD] = (real)f;
            ctl[CTL_STOP] = 2.0;
            return;
        }
    }
    if (best[0] <= ctl[CTL_EPS_V] && best[1] <= ctl[CTL_EPS_V] && best[2] <= ctl[CTL_EPS_P] &&
        best[3] <= ctl[CTL_EPS_T])
        ctl[CTL_STOP] = 1.0;
}
