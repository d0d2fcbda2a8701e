/* Probe entry points for the equation fragments (tests/fragments.rs): no physics, each line
 * evaluates one fragment at given inputs and stores it.  cl/README.md, STYLE §5.
 * Run with BuiltProgram::run_kernel: real inputs, then int inputs, then the output. */

/* cl/ops.cl on rows of OPS_IN inputs (p1 p2 p3 p4 h1 h2 h3 h4 w kn), OPS_OUT outputs per row;
 * one work-item per row. The argument mapping is mirrored in tests/fragments.rs. */
#define OPS_IN  10
#define OPS_OUT 8

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
}

/* cl/density.cl at every stored cell: out[2k] = rho_fc, out[2k+1] = rho_cf, k = IDX(i,j);
 * one work-item per stored cell. */
__kernel void probe_density(__global const real* rho, __global const real* u,
                            __global const real* v, __global const real* hx,
                            __global const real* hy, __global const int* cell,
                            __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    out[2 * k] = rho_fc(i, j);
    out[2 * k + 1] = rho_cf(i, j);
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

/* cl/bc.cl at every stored cell (i,j) with i, j >= 1 (others stay 0), BC_OUT outputs each:
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

/* cl/momentum.cl at every stored cell, MOM_OUT outputs each (0 where the face is not a
 * solved interior face): u_hat, d_u, c_u at a solved u-face (i,j), then v_hat, d_v, c_v at a
 * solved v-face, sequenced as a kernel would (momentum::u_hat_d_u, v_hat_d_v). */
#define MOM_OUT 6

__kernel void probe_momentum(PROBE_CASE_REALS, PROBE_CASE_INTS, __global real* out)
{
    const size_t k = get_global_id(0);
    const int i = (int)(k % CFG_NXT);
    const int j = (int)(k / CFG_NXT);
    __global real* y = out + k * MOM_OUT;
    if (i >= 1 && j >= 1 && j <= CFG_NYT - 2 && U_FACE(i, j) == F_SOLVED) {
        const real gcs = gam_c(i, j);
        const real gcn = gam_c(i, j + 1);
        const real aw = aW_u_fc(i, j);
        const real ae = aE_u_fc(i, j);
        const real a_s = aS_u_fc(i, j, gcs);
        const real an = aN_u_fc(i, j, gcn);
        const real ap = aP_u_fc(i, j, aw, ae, a_s, an);
        const real b = b_u_fc(i, j, gcs, gcn);
        y[0] = u_hat_fc(i, j, aw, ae, a_s, an, ap, b);
        y[1] = d_u_fc(j, ap);
        y[2] = c_u_fc(i, j);
    }
    if (j >= 1 && i >= 1 && i <= CFG_NXT - 2 && V_FACE(i, j) == F_SOLVED) {
        const real gcw = gam_c2(i, j);
        const real gce = gam_c2(i + 1, j);
        const real an = aN_v_cf(i, j);
        const real a_s = aS_v_cf(i, j);
        const real ae = aE_v_cf(i, j, gce);
        const real aw = aW_v_cf(i, j, gcw);
        const real ap = aP_v_cf(i, j, an, a_s, ae, aw);
        const real b = b_v_cf(i, j, gcw, gce);
        y[3] = v_hat_cf(i, j, an, a_s, ae, aw, ap, b);
        y[4] = d_v_cf(i, ap);
        y[5] = c_v_cf(i, j);
    }
}
