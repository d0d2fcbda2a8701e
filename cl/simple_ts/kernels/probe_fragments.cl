/* Probe entry points for the equation fragments (tests/fragments.rs): no physics, each line
 * evaluates one fragment at given inputs and stores it.  cl/README.md, STYLE §5.
 * Run with BuiltProgram::run_kernel: real inputs, then int inputs, then the output. */

/* cl/simple_ts/ops.cl on rows of OPS_IN inputs (p1 p2 p3 p4 h1 h2 h3 h4 w kn), OPS_OUT outputs per row;
 * one work-item per row. The argument mapping is mirrored in tests/fragments.rs. */
#define OPS_IN  10
#define OPS_OUT 10

__kernel void probe_ops(__global const real* a, __global real* out)
{
    const size_t r = get_global_id(0);
    __global const real* x = a + r * OPS_IN;
    __global real* y = out + r * OPS_OUT;
    y[0] = upwind(x[0], x[1], x[8]);
    y[1] = van_leer(x[0]);
    y[2] = tvd_s(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]);
    y[3] = tvd_c(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[8]);
    y[4] = li(x[0], x[1], x[4], x[5]);
    y[5] = hi(x[0], x[1], x[4], x[5]);
    y[6] = slip(x[0], x[1], x[6], x[7], x[4], x[9]);
    y[7] = jump(x[0], x[1], x[6], x[7], x[5], x[9]);
    y[8] = rho_eos(x[6], x[7]);
    y[9] = gam_eos(x[7]);
}

/* cl/simple_ts/density.cl at every stored cell, 4 outputs at 4k, k = IDX(i,j): rho_fc, rho_cf,
 * and the mass fluxes Fx_fc, Fy_cf with them; one work-item per stored cell. */
__kernel void probe_density(__global const real* rho, __global const real* u,
                            __global const real* v, __global const real* hx,
                            __global const real* hy, __global const int* cell,
                            __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    const real ru = rho_fc(i, j);
    const real rv = rho_cf(i, j);
    out[4 * k] = ru;
    out[4 * k + 1] = rv;
    out[4 * k + 2] = Fx_fc(ru, i, j);
    out[4 * k + 3] = Fy_cf(rv, i, j);
}

/* The case arrays every probe below receives (reals, then ints, as run_kernel passes them;
 * the order is mirrored in tests/fragments.rs, CaseArrays). A probe that needs more reals
 * lists them between the two. Kernel parameters unused by a probe are harmless. */
#define PROBE_CASE_REALS \
    __global const real* u, __global const real* v, __global const real* p, \
    __global const real* t, __global const real* rho, __global const real* gam, \
    __global const real* u_n, __global const real* v_n, __global const real* p_n, \
    __global const real* t_n, __global const real* rho_n, __global const real* rho_u, \
    __global const real* rho_v, __global const real* fx, __global const real* fy, \
    __global const real* hx, __global const real* hy, __global const real* wall_u, \
    __global const real* wall_v, __global const real* wall_t, __global const real* cu, \
    __global const real* cv, __global const real* ct
#define PROBE_CASE_INTS \
    __global const int* cell, __global const int* wall_of, __global const int* wall_bc, \
    __global const int* u_face, __global const int* v_face

/* cl/simple_ts/bc.cl at every stored cell (i,j) with i, j >= 1 (others stay 0), BC_OUT outputs each:
 * u_wall_gas and T_wall_gas across the south face (solid (i,j−1), hh = hy/2), v_wall_gas
 * across the west face (solid (i−1,j), hh = hx/2), gam_col, gam_row, gam_c, gam_c2. */
#define BC_OUT 7

__kernel void probe_bc(PROBE_CASE_REALS, PROBE_CASE_INTS, __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    if (i < 1 || j < 1)
        return;
    __global real* y = out + k * BC_OUT;
    y[0] = u_wall_gas(i, j, i, j - 1, 0.5 * HY(j));
    y[1] = v_wall_gas(i, j, i - 1, j, 0.5 * HX(i));
    y[2] = T_wall_gas(i, j, i, j - 1, 0.5 * HY(j));
    y[3] = gam_col(i, j);
    y[4] = gam_row(i, j);
    y[5] = gam_c(i, j);
    y[6] = gam_c2(i, j);
}

/* cl/simple_ts/momentum.cl at every stored cell, MOM_OUT outputs each (0 where the face is not a
 * solved interior face): u_hat, d_u (the kernels' sequence U_HAT_D_U), c_u at a solved u-face
 * (i,j), then v_hat, d_v (V_HAT_D_V), c_v at a solved v-face. */
#define MOM_OUT 6

__kernel void probe_momentum(PROBE_CASE_REALS, PROBE_CASE_INTS, __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    __global real* y = out + k * MOM_OUT;
    if (i >= 1 && j >= 1 && j <= CFG_NYT - 2 && U_FACE(i, j) == F_SOLVED) {
        U_HAT_D_U(i, j, y[0], y[1]);
        y[2] = c_u_fc(i, j);
    }
    if (j >= 1 && i >= 1 && i <= CFG_NXT - 2 && V_FACE(i, j) == F_SOLVED) {
        V_HAT_D_V(i, j, y[3], y[4]);
        y[5] = c_v_cf(i, j);
    }
}

/* cl/simple_ts/energy.cl at every fluid cell (i,j), 1 <= i <= CFG_NXT-2, 1 <= j <= CFG_NYT-2 (others
 * stay 0), EN_OUT outputs each: tW tE tS tN tP tB tDiv, T_cc of the first loop-3 sweep (old
 * T, p = iterate k), c_T_cc, and the kernels' whole sequence T_NEW_CC. */
#define EN_OUT 10

__kernel void probe_energy(PROBE_CASE_REALS, PROBE_CASE_INTS, __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    if (i < 1 || j < 1 || i > CFG_NXT - 2 || j > CFG_NYT - 2 || CELL(i, j) != CELL_FLUID)
        return;
    __global real* y = out + k * EN_OUT;
    const real dw = dT_cc(i, j, 0);
    const real de = dT_cc(i, j, 1);
    const real ds = dT_cc(i, j, 2);
    const real dn = dT_cc(i, j, 3);
    const real tw = tW_cc(i, j, dw);
    const real te = tE_cc(i, j, de);
    const real t_s = tS_cc(i, j, ds);
    const real tn = tN_cc(i, j, dn);
    const real tp = tP_cc(i, j, dw, de, ds, dn);
    const real tb = tB_cc(i, j, dw, de, ds, dn);
    const real tdiv = tDiv_cc(i, j);
    y[0] = tw;
    y[1] = te;
    y[2] = t_s;
    y[3] = tn;
    y[4] = tp;
    y[5] = tb;
    y[6] = tdiv;
    y[7] = T_cc(T, P, i, j, tw, te, t_s, tn, tp, tb, tdiv);
    y[8] = c_T_cc(i, j);
    T_NEW_CC(T, P, i, j, y[9]);
}

/* cl/simple_ts/pressure.cl, PR_OUT outputs per stored cell: at a fluid cell (as probe_energy) pW pE pS
 * pN pD pB and p_cc of the first sweep (old p = iterate k) with the new T t_new (an extra
 * input, Rust's T_cc); at every u-face with i >= 1 u_corr_fc, at every v-face with j >= 1
 * v_corr_cf, with the new pressure p (iterate k); then p_new_cc (the coefficients computed in
 * place) at the fluid cell. Extra reals: u_hat, d_u, v_hat, d_v, t_new. */
#define PR_OUT 10

__kernel void probe_pressure(PROBE_CASE_REALS, __global const real* u_hat,
                             __global const real* d_u, __global const real* v_hat,
                             __global const real* d_v, __global const real* t_new,
                             PROBE_CASE_INTS, __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    __global real* y = out + k * PR_OUT;
    if (i >= 1 && j >= 1 && i <= CFG_NXT - 2 && j <= CFG_NYT - 2 && CELL(i, j) == CELL_FLUID) {
        const real pw = pW_cc(i, j);
        const real pe = pE_cc(i, j);
        const real ps = pS_cc(i, j);
        const real pn = pN_cc(i, j);
        const real pd = pD_cc(i, j);
        const real pb = pB_cc(i, j);
        y[0] = pw;
        y[1] = pe;
        y[2] = ps;
        y[3] = pn;
        y[4] = pd;
        y[5] = pb;
        y[6] = p_cc(P, i, j, pw, pe, ps, pn, pd, pb, t_new[k]);
        y[9] = p_new_cc(P, i, j, t_new[k]);
    }
    if (i >= 1)
        y[7] = u_corr_fc(P, i, j);
    if (j >= 1)
        y[8] = v_corr_cf(P, i, j);
}
