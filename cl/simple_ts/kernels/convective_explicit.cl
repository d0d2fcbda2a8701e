/* Shared by both OpenCL loop-2 forms (after flux_stored.cl or flux_inline.cl, which define
 * FLUX_ARGS): the kernel-parameter lists and, for the explicit scheme,
 * the convective kernel that runs once per time step (spec §5.1: the explicit scheme is two
 * kernels, this one and the loop-2 kernel). Entry points only: the physics is in the
 * fragments. One work-item per stored cell (k = i + j·CFG_NXT). */

#define CELL_OF(k) const int i = (int)((k) % CFG_NXT); const int j = (int)((k) / CFG_NXT)

/* Iterate k and the geometry; DEV_LEAN drops ρ, Γ and packs the geometry (cl/simple_ts/fields.cl). */
#if DEV_LEAN
#define K_REALS_K __global real* u, __global real* v, __global real* p, __global real* t
#define K_GEOMETRY \
    __global const real* hx, __global const real* hy, __global const int* geo, \
    __global const real* wall_u, __global const real* wall_v, __global const real* wall_t, \
    __global const int* wall_bc
#else
#define K_REALS_K \
    __global real* u, __global real* v, __global real* p, __global real* t, \
    __global real* rho, __global real* gam
#define K_GEOMETRY \
    __global const real* hx, __global const real* hy, __global const int* cell, \
    __global const int* wall_of, __global const real* wall_u, __global const real* wall_v, \
    __global const real* wall_t, __global const int* wall_bc, __global const int* u_face, \
    __global const int* v_face, __global const int* fast K_ALIAS
#endif
/* The alias tables of the fused form (cl/simple_ts/fields.cl, DEV_ALIAS). */
#if DEV_ALIAS
#define K_ALIAS \
    , __global const int* c_alias, __global const int* u_alias, __global const int* v_alias
#else
#define K_ALIAS
#endif
/* The stored east outer face (cl/simple_ts/momentum.cl, FX_BEYOND and U_BEYOND) where the case
 * has one. */
#if CFG_EAST_OUTER
#define EAST_OUTER_ARGS , __global const real* u_xe, __global const real* fx_xe
#else
#define EAST_OUTER_ARGS
#endif

/* Explicit scheme: C_u, C_v at solved faces and C_T at fluid cells, from level n
 * (momentum::convective_u/v, energy::convective_T). */
__kernel void convective(K_REALS_K, K_GEOMETRY FLUX_ARGS, __global real* cu,
                         __global real* cv, __global real* ct EAST_OUTER_ARGS)
{
    const size_t k = get_global_id(0);
    if (k >= (size_t)CFG_NXT * CFG_NYT)
        return;
    CELL_OF(k);
    PATHS(FAST(i, j),
        if (j >= 1 && j <= CFG_NYT - 2 && i >= 1)
            cu[k] = (U_FACE(i, j) == F_SOLVED) ? c_u_fc(i, j) : 0.0;
        if (j >= 1 && i >= 1 && i <= CFG_NXT - 2)
            cv[k] = (V_FACE(i, j) == F_SOLVED) ? c_v_cf(i, j) : 0.0;
        if (i >= 1 && i <= CFG_NXT - 2 && j >= 1 && j <= CFG_NYT - 2)
            ct[k] = (CELL(i, j) == CELL_FLUID) ? c_T_cc(i, j) : 0.0;)
}

