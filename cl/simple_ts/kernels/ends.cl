/* The end of a loop-2 iteration beyond the default copies (phase form only, after jacobi.cl):
 * the outer faces of the west and east ghost columns, and the authors' C++ order of the end
 * rules that the compat switches reproduce (docs/authors-cpp-defects.md). Entry points only;
 * each kernel is the twin of one step of src/methods/simple_ts/reference/iterate.rs or bc.rs,
 * named after it, and is gated like every loop-2 kernel (gate.cl).
 *
 * Host order (phase.rs): correct → ghosts (or lagged_ghosts) → [densities →
 * corner_slots] → faces (end_copies for ghosts and faces when neither lagged_ghosts nor
 * densities runs) → reduce_all [→ reduce_first] → fluxes (or mass_fluxes, or fluxes →
 * corner_slots → mass_fluxes) → apply_outer → check. */

/* Compat lagged_ghost_state (bc::Ghosts::apply_cells_lagged): ρ = p/T and Γ = √T of a copy
 * ghost from its p and T before this iteration's copy, then the copied p and T. A list entry
 * is (dst, p src, T src) as in boundary.cl, resolved into one level: no entry reads a value
 * another entry writes (a copy onto the source itself is skipped), so every entry reads its
 * own p and T before any copy, as the reference's order does. */
__kernel void lagged_ghosts(__global const int* ghost_copy, __global real* p, __global real* t,
                            __global real* rho, __global real* gam LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const int m = (int)get_global_id(0);
    if (m >= CFG_NGHOST_COPY)
        return;
    const int dst = ghost_copy[3 * m], ps = ghost_copy[3 * m + 1], ts = ghost_copy[3 * m + 2];
    rho[dst] = rho_eos(p[dst], t[dst]);
    gam[dst] = gam_eos(t[dst]);
    if (ps != dst)
        p[dst] = p[ps];
    if (ts != dst)
        t[dst] = t[ts];
}

/* (9)–(12) ρu, ρv at every stored face without the fluxes (density::densities_only; compat
 * face_density_before_end_rules). */
__kernel void densities(K_REALS_K, K_GEOMETRY, __global real* rho_u,
                        __global real* rho_v LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const size_t k = get_global_id(0);
    if (k >= (size_t)CFG_NXT * CFG_NYT)
        return;
    CELL_OF(k);
    PATHS(fast[k],
        rho_u[k] = rho_fc(i, j);
        rho_v[k] = rho_cf(i, j);)
}

/* (7)–(8) Fx, Fy from the stored ρu, ρv and the current velocities (density::mass_fluxes). */
__kernel void mass_fluxes(__global const real* u, __global const real* v,
                          __global const real* hx, __global const real* hy,
                          __global const real* rho_u, __global const real* rho_v,
                          __global real* fx, __global real* fy LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const size_t k = get_global_id(0);
    if (k >= (size_t)CFG_NXT * CFG_NYT)
        return;
    CELL_OF(k);
    fx[k] = Fx_fc(rho_u[k], i, j);
    fy[k] = Fy_cf(rho_v[k], i, j);
}

/* Compat corner_slip_ghosts (bc::corner_slots): the C++ code's slip values stored in the wall
 * faces at convex body corners, one work-item per stored cell. A body cell with gas directly
 * below (else above) writes the slip velocity of the gas face there into its west and east
 * u-faces, each only where the cell diagonally across that face is gas; v likewise with gas
 * left (else right). Every slot lies between a gas and a body cell and is written by that body
 * cell alone; the faces read lie between two gas cells, so no item reads another's write. */
#define GAS_S(i,j) (!SOLID((i), (j)))
__kernel void corner_slots(K_REALS_K, K_GEOMETRY, __global const real* rho_u,
                           __global const real* rho_v LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const size_t k = get_global_id(0);
    if (k >= (size_t)CFG_NXT * CFG_NYT)
        return;
    CELL_OF(k);
    if (i < 1 || j < 1 || i > CFG_NXT - 2 || j > CFG_NYT - 2 || !SOLID(i, j))
        return;
    const int jg = GAS_S(i, j - 1) ? j - 1 : GAS_S(i, j + 1) ? j + 1 : -1;
    const int ig = GAS_S(i - 1, j) ? i - 1 : GAS_S(i + 1, j) ? i + 1 : -1;
    /* Values first, then the writes: a body cell may write a u-slot and a v-slot. */
    const bool uw = jg >= 0 && GAS_S(i - 1, j) && GAS_S(i - 1, jg);
    const bool ue = jg >= 0 && GAS_S(i + 1, j) && GAS_S(i + 1, jg);
    const bool vs = ig >= 0 && GAS_S(i, j - 1) && GAS_S(ig, j - 1);
    const bool vn = ig >= 0 && GAS_S(i, j + 1) && GAS_S(ig, j + 1);
    const real uw_val = uw ? u_wall_gas(i, jg, i, j, 0.5 * HY(jg)) : 0.0;
    const real ue_val = ue ? u_wall_gas(i + 1, jg, i, j, 0.5 * HY(jg)) : 0.0;
    const real vs_val = vs ? v_wall_gas(ig, j, i, j, 0.5 * HX(ig)) : 0.0;
    const real vn_val = vn ? v_wall_gas(ig, j + 1, i, j, 0.5 * HX(ig)) : 0.0;
    if (uw)
        u[IDX(i, j)] = uw_val;
    if (ue)
        u[IDX(i + 1, j)] = ue_val;
    if (vs)
        v[IDX(i, j)] = vs_val;
    if (vn)
        v[IDX(i, j + 1)] = vn_val;
}

/* The outer faces of the west and east ghost columns and their fluxes
 * (bc::Ghosts::apply_outer): the mass balance of the ghost cell, (ρ − ρⁿ)V/Δt + Σ out F = 0,
 * solved for the outer face's velocity in the C++ code's order of operations, from the stored
 * face densities; or (compat east_outer_face_copy) a copy of the boundary face. Item m sets
 * west row west_rows[m] and east row east_rows[m]; the two columns are disjoint. */
#ifndef CFG_EAST_BALANCE
#error "CFG_EAST_BALANCE not defined (1: the east outer face from the mass balance, 0: a copy)"
#endif
__kernel void apply_outer(__global real* u, __global const real* v,
                          __global const real* rho, __global const real* rho_n,
                          __global const real* hx, __global const real* hy,
                          __global const real* rho_u, __global const real* rho_v,
                          __global real* fx, __global const int* west_rows,
                          __global const int* east_rows, __global real* u_xe,
                          __global real* rho_u_xe, __global real* fx_xe LOOP2_GATE_ARG)
{
    LOOP2_GATE
    const int m = (int)get_global_id(0);
    if (m < CFG_N_WEST_BALANCE) {
        const int j = west_rows[m];
        const int ij = IDX(0, j);
        const int up = ij + CFG_NXT;
        const real h_x = hx[0], h_y = hy[j];
        u[ij] = ((rho[ij] - rho_n[ij]) * h_x * h_y / CFG_DT
                 + (rho_v[up] * v[up] - rho_v[ij] * v[ij]) * h_x
                 + rho_u[ij + 1] * u[ij + 1] * h_y)
                / (rho_u[ij] * h_y);
        fx[ij] = h_y * rho_u[ij] * u[ij];
    }
    if (m < CFG_N_EAST_OUTER) {
        const int i = CFG_NXT - 1;
        const int j = east_rows[m];
        const int ij = IDX(i, j);
        const int up = ij + CFG_NXT;
        const real h_x = hx[i], h_y = hy[j];
        rho_u_xe[j] = rho[ij];
#if CFG_EAST_BALANCE
        u_xe[j] = (-(rho[ij] - rho_n[ij]) * h_x * h_y / CFG_DT
                   - (rho_v[up] * v[up] - rho_v[ij] * v[ij]) * h_x
                   + rho_u[ij] * u[ij] * h_y)
                  / (rho_u_xe[j] * h_y);
#else
        u_xe[j] = u[ij];
#endif
        fx_xe[j] = h_y * rho_u_xe[j] * u_xe[j];
    }
}

/* Compat steady_test_first_sweep: the first sweep's |Δp|, |ΔT| maxima per work-group, as
 * reduce_all does for the last sweep (part_p1, part_t1; merged by check). */
__kernel void reduce_first(__global const real* res_p1, __global const real* res_t1,
                           __global real* part_p1, __global real* part_t1 LOOP2_GATE_ARG)
{
    LOOP2_GATE
    __local real lv[DEV_RED_WG];
    __local int li[DEV_RED_WG];
    group_max(res_p1, part_p1, lv, li);
    barrier(CLK_LOCAL_MEM_FENCE);
    group_max(res_t1, part_t1, lv, li);
}
