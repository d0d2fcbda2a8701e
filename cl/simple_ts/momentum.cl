/* (13)–(21) momentum equations: pseudo-velocities û, v̂ and d-coefficients (spec §2.4).
 * Twins of src/methods/simple_ts/reference/momentum.rs, same names and order. Uses cl/simple_ts/fields.cl accessors,
 * cl/simple_ts/ops.cl (upwind, tvd_s, tvd_c) and cl/simple_ts/bc.cl (u_wall_gas, v_wall_gas).
 *
 *  u-CV (i,j) spans x_v[i−1]..x_v[i] × y_f[j]..y_f[j+1]:
 *        u(i,j+1)                         north half-faces carry Fy(i−1,j+1), Fy(i,j+1)
 *  u(i−1,j)  u(i,j)  u(i+1,j)             x-faces at the centres of cells i−1 and i
 *        u(i,j−1)                         south half-faces carry Fy(i−1,j), Fy(i,j)
 *
 * A kernel evaluates, per solved u-face (the v-face is the transpose):
 *   gcs = gam_c(i,j); gcn = gam_c(i,j+1);
 *   aw = aW_u_fc(i,j); ae = aE_u_fc(i,j); a_s = aS_u_fc(i,j,gcs); an = aN_u_fc(i,j,gcn);
 *   ap = aP_u_fc(i,j,aw,ae,a_s,an); b = b_u_fc(i,j,gcs,gcn);
 *   u_hat = u_hat_fc(i,j,aw,ae,a_s,an,ap,b); d_u = d_u_fc(j,ap);
 * as momentum::u_hat_d_u does. CFG_TVD and CFG_EXPLICIT are constants, so the compiler drops
 * the unused branches. `face` and `m` arguments are integer constants 0..3 and 0..5. */

#ifndef CFG_A
#error "CFG_A not defined (pressure-gradient coefficient A, physics::Constants::a)"
#endif
#ifndef CFG_B
#error "CFG_B not defined (viscous coefficient B, physics::Constants::b)"
#endif
#ifndef CFG_DT
#error "CFG_DT not defined (time step Δt)"
#endif
#ifndef CFG_EXPLICIT
#error "CFG_EXPLICIT not defined (1: explicit convection, 0: implicit; scheme.convection)"
#endif
#ifndef CFG_TVD
#error "CFG_TVD not defined (1: TVD corrections, 0: upwind; scheme.interpolation)"
#endif
#ifndef CFG_COMPAT_SWAPPED_U
#error "CFG_COMPAT_SWAPPED_U not defined (1: compat swapped_u_wall_flags, 0: the corrected sum)"
#endif
#ifndef CFG_EAST_OUTER
#error "CFG_EAST_OUTER not defined (1: the east outer face is stored, u_xe and fx_xe; 0: none)"
#endif

/* The constants of momentum.rs; constant-folded exactly as Rust's. */
#define FOUR_THIRDS (4.0 / 3.0)
#define TWO_THIRDS  (2.0 / 3.0)

/* East column / north row of the CV, held at the last stored one (Rust's `ie`, `jn`). */
#define I_E(i) ((((i) + 1) < CFG_NXT) ? ((i) + 1) : (i))
#define J_N(j) ((((j) + 1) < CFG_NYT) ? ((j) + 1) : (j))

/* Mass flux and velocity of the face east of u-face (i,j) (momentum::u_beyond): the next
 * face, or beyond the east boundary face the stored east outer face (kernel parameters fx_xe,
 * u_xe, one value per row) where the east side has one, else the boundary face itself. */
#if CFG_EAST_OUTER
#define FX_BEYOND(i,j) ((((i) + 1) < CFG_NXT) ? FX((i) + 1, (j)) : fx_xe[(j)])
#define U_BEYOND(i,j) ((((i) + 1) < CFG_NXT) ? U((i) + 1, (j)) : u_xe[(j)])
#else
#define FX_BEYOND(i,j) FX(I_E(i), (j))
#define U_BEYOND(i,j) U(I_E(i), (j))
#endif

/* The pair of cells beside a momentum CV across which the conductance runs half a cell, to a
 * wall (momentum::half_to_wall): both solid, or (compat corner_slip_ghosts) either. */
#if CFG_COMPAT_SLOTS
#define HALF_TO_WALL(ai,aj,bi,bj) (SOLID((ai), (aj)) || SOLID((bi), (bj)))
#else
#define HALF_TO_WALL(ai,aj,bi,bj) (SOLID((ai), (aj)) && SOLID((bi), (bj)))
#endif

/* Four faces of class accessor FACE (U_FACE, V_FACE) from (i0,j0) in steps (di,dj) all
 * solved: momentum::solved [CHOICE G8]. FACE is written bare, as F in density.cl. */
#define SOLVED4(FACE,i0,j0,di,dj) \
    ((FACE((i0), (j0)) == F_SOLVED) && (FACE((i0) + (di), (j0) + (dj)) == F_SOLVED) \
     && (FACE((i0) + 2 * (di), (j0) + 2 * (dj)) == F_SOLVED) \
     && (FACE((i0) + 3 * (di), (j0) + 3 * (dj)) == F_SOLVED))

/* TVD correction of one u-CV face for the flux w: face 0 east, 1 west (TVD_c along x),
 * 2 north, 3 south (TVD_s along y); 0 unless every stencil face is solved. */
#define u_tvd(i,j,face,w) \
    (((face) == 0) \
     ? ((((i) + 2 < CFG_NXT) && SOLVED4(U_FACE, (i) - 1, (j), 1, 0)) \
        ? tvd_c(U((i) - 1, (j)), U((i), (j)), U((i) + 1, (j)), U((i) + 2, (j)), \
                HX((i) - 1), HX((i)), HX((i) + 1), (w)) : 0.0) \
     : ((face) == 1) \
     ? ((((i) >= 2) && SOLVED4(U_FACE, (i) - 2, (j), 1, 0)) \
        ? tvd_c(U((i) - 2, (j)), U((i) - 1, (j)), U((i), (j)), U((i) + 1, (j)), \
                HX((i) - 2), HX((i) - 1), HX((i)), (w)) : 0.0) \
     : ((face) == 2) \
     ? ((((j) + 2 < CFG_NYT) && SOLVED4(U_FACE, (i), (j) - 1, 0, 1)) \
        ? tvd_s(U((i), (j) - 1), U((i), (j)), U((i), (j) + 1), U((i), (j) + 2), \
                HY((j) - 1), HY((j)), HY((j) + 1), HY((j) + 2), (w)) : 0.0) \
     : ((face) == 3) \
     ? ((((j) >= 2) && SOLVED4(U_FACE, (i), (j) - 2, 0, 1)) \
        ? tvd_s(U((i), (j) - 2), U((i), (j) - 1), U((i), (j)), U((i), (j) + 1), \
                HY((j) - 2), HY((j) - 1), HY((j)), HY((j) + 1), (w)) : 0.0) \
     : 0.0)

/* Face flux m of the u-CV (i,j): [Fe, Fw, Fn1, Fn2, Fs1, Fs2][m]. */
#define u_flux(i,j,m) \
    (((m) == 0) ? (0.5 * (FX((i), (j)) + FX_BEYOND((i), (j)))) \
     : ((m) == 1) ? (0.5 * (FX((i) - 1, (j)) + FX((i), (j)))) \
     : ((m) == 2) ? FY((i) - 1, (j) + 1) \
     : ((m) == 3) ? FY((i), (j) + 1) \
     : ((m) == 4) ? FY((i) - 1, (j)) \
     : FY((i), (j)))

/* u below the u-CV: slip gas velocity (42) at half a cell over a wall, else u(i,j−1). */
#define uS_u_fc(i,j) \
    ((SOLID((i) - 1, (j) - 1) && SOLID((i), (j) - 1)) \
     ? u_wall_gas((i), (j), (i), (j) - 1, 0.5 * HY((j))) : U((i), (j) - 1))

/* u above the u-CV, the mirror of uS_u_fc. */
#define uN_u_fc(i,j) \
    ((SOLID((i) - 1, (j) + 1) && SOLID((i), (j) + 1)) \
     ? u_wall_gas((i), (j), (i), (j) + 1, 0.5 * HY((j))) : U((i), (j) + 1))

/* (17)-(19) a_W: 4/3 of the conductance through the centre of cell i−1, plus the upwind
 * inflow when implicit. */
#define aW_u_fc(i,j) \
    ((CFG_EXPLICIT) ? (FOUR_THIRDS * (CFG_B * GAM((i) - 1, (j)) * HY((j)) / HX((i) - 1))) \
     : (FOUR_THIRDS * (CFG_B * GAM((i) - 1, (j)) * HY((j)) / HX((i) - 1)) \
        + fmax(u_flux((i), (j), 1), 0.0)))

/* (17)-(19) a_E, through the centre of cell i. */
#define aE_u_fc(i,j) \
    ((CFG_EXPLICIT) ? (FOUR_THIRDS * (CFG_B * GAM((i), (j)) * HY((j)) / HX((i)))) \
     : (FOUR_THIRDS * (CFG_B * GAM((i), (j)) * HY((j)) / HX((i))) \
        + fmax(-u_flux((i), (j), 0), 0.0)))

/* Conductance D_s of the u-CV's south face with Γc = gcs: half a cell to a wall below. */
#define DS_U(i,j,gcs) \
    ((HALF_TO_WALL((i) - 1, (j) - 1, (i), (j) - 1)) \
     ? (CFG_B * (gcs) * (HX((i) - 1) + HX((i))) / HY((j))) \
     : (CFG_B * (gcs) * (HX((i) - 1) + HX((i))) / (HY((j) - 1) + HY((j)))))

/* Conductance D_n of the north face with Γc = gcn. */
#define DN_U(i,j,gcn) \
    ((HALF_TO_WALL((i) - 1, (j) + 1, (i), (j) + 1)) \
     ? (CFG_B * (gcn) * (HX((i) - 1) + HX((i))) / HY((j))) \
     : (CFG_B * (gcn) * (HX((i) - 1) + HX((i))) / (HY((j)) + HY((j) + 1))))

/* (17)-(19) a_S with Γc(i,j) = gcs. */
#define aS_u_fc(i,j,gcs) \
    ((CFG_EXPLICIT) ? DS_U((i), (j), (gcs)) \
     : (DS_U((i), (j), (gcs)) \
        + 0.5 * (fmax(u_flux((i), (j), 4), 0.0) + fmax(u_flux((i), (j), 5), 0.0))))

/* (17)-(19) a_N with Γc(i,j+1) = gcn. */
#define aN_u_fc(i,j,gcn) \
    ((CFG_EXPLICIT) ? DN_U((i), (j), (gcn)) \
     : (DN_U((i), (j), (gcn)) \
        + 0.5 * (fmax(-u_flux((i), (j), 2), 0.0) + fmax(-u_flux((i), (j), 3), 0.0))))

/* ρ V/Δt of the u-CV at iterate k (RHO) or level n (RHO_N), accessor R written bare. */
#define M_U(R,i,j) \
    ((R((i) - 1, (j)) * HX((i) - 1) + R((i), (j)) * HX((i))) * HY((j)) / (2.0 * CFG_DT))

/* (15) a_P: Σ a_nb + ρ^k V/Δt, plus the continuity imbalance when implicit. */
#define aP_u_fc(i,j,aw,ae,as,an) \
    ((aw) + (ae) + (as) + (an) \
     + ((CFG_EXPLICIT) ? M_U(RHO, (i), (j)) \
        : (M_U(RHO, (i), (j)) \
           + ((u_flux((i), (j), 0) - u_flux((i), (j), 1)) \
              + 0.5 * (u_flux((i), (j), 2) + u_flux((i), (j), 3) - u_flux((i), (j), 4) \
                       - u_flux((i), (j), 5))))))

/* (21) cross-derivative source S_u with Γc = gcs, gcn. With compat corner_slip_ghosts the
 * C++ near-wall branch: each v times the fluid flag of the cell beyond it (VF_U), so a wall
 * face's slot value is not read. */
#if CFG_COMPAT_SLOTS
#define VF_U(i,j,ci,cj) (V((i), (j)) * gas_flag((ci), (cj)))
#define SU_U(i,j,gcs,gcn) \
    (CFG_B * ((gcn) * (VF_U((i), (j) + 1, (i), (j) + 1) - VF_U((i) - 1, (j) + 1, (i) - 1, (j) + 1)) \
              - (gcs) * (VF_U((i), (j), (i), (j) - 1) - VF_U((i) - 1, (j), (i) - 1, (j) - 1)) \
              - TWO_THIRDS * GAM((i), (j)) \
                * (VF_U((i), (j) + 1, (i), (j) + 1) - VF_U((i), (j), (i), (j) - 1)) \
              + TWO_THIRDS * GAM((i) - 1, (j)) \
                * (VF_U((i) - 1, (j) + 1, (i) - 1, (j) + 1) \
                   - VF_U((i) - 1, (j), (i) - 1, (j) - 1))))
#else
#define SU_U(i,j,gcs,gcn) \
    (CFG_B * ((gcn) * (V((i), (j) + 1) - V((i) - 1, (j) + 1)) \
              - (gcs) * (V((i), (j)) - V((i) - 1, (j))) \
              - TWO_THIRDS * GAM((i), (j)) * (V((i), (j) + 1) - V((i), (j))) \
              + TWO_THIRDS * GAM((i) - 1, (j)) * (V((i) - 1, (j) + 1) - V((i) - 1, (j)))))
#endif

/* Flux m times the TVD correction of face f of the u-CV. */
#define FT_U(i,j,m,f) (u_flux((i), (j), (m)) * u_tvd((i), (j), (f), u_flux((i), (j), (m))))

/* (15) right side b: ρⁿ uⁿ V/Δt + S_u; minus C_u when explicit, minus the deferred TVD
 * correction [CHOICE G7] when implicit TVD. */
#define b_u_fc(i,j,gcs,gcn) \
    ((CFG_EXPLICIT) \
     ? (M_U(RHO_N, (i), (j)) * U_N((i), (j)) + SU_U((i), (j), (gcs), (gcn)) - CU((i), (j))) \
     : (CFG_TVD) \
     ? (M_U(RHO_N, (i), (j)) * U_N((i), (j)) + SU_U((i), (j), (gcs), (gcn)) \
        - (FT_U((i), (j), 0, 0) - FT_U((i), (j), 1, 1) \
           + 0.5 * (FT_U((i), (j), 2, 2) + FT_U((i), (j), 3, 2)) \
           - 0.5 * (FT_U((i), (j), 4, 3) + FT_U((i), (j), 5, 3)))) \
     : (M_U(RHO_N, (i), (j)) * U_N((i), (j)) + SU_U((i), (j), (gcs), (gcn))))

/* (15) û = (Σ a_nb u_nb + b)/a_P. */
/* Cell (i−2,j) / (i+1,j) beyond the u-CV's west / east neighbour face is solid. */
#define WALL_W_U(i,j) (((i) >= 2) && SOLID((i) - 2, (j)))
#define WALL_E_U(i,j) ((((i) + 1) < CFG_NXT) && SOLID((i) + 1, (j)))
/* D/3 of the west / east conductance (a_W, a_E hold 4/3 of D). */
#define DW3_U(i,j) (CFG_B * GAM((i) - 1, (j)) * HY((j)) / HX((i) - 1) / 3.0)
#define DE3_U(i,j) (CFG_B * GAM((i), (j)) * HY((j)) / HX((i)) / 3.0)
#define FLAG_U(wall) ((wall) ? 0.0 : 1.0)

/* a_W u(i−1,j) + a_E u(i+1,j) of the u-CV; with compat swapped_u_wall_flags, next to a
 * vertical wall, the C++ code's form: a_W, a_E less their D/3 parts multiply u(i−1,j),
 * u(i+1,j) by each other's fluid flag, the D/3 parts by their own. */
#if CFG_COMPAT_SWAPPED_U
#define uWE_cpp_fc(i,j,aw,ae) \
    ((!WALL_W_U((i), (j)) && !WALL_E_U((i), (j))) \
     ? ((aw) * U((i) - 1, (j)) + (ae) * U_BEYOND((i), (j))) \
     : (((aw) - DW3_U((i), (j))) * FLAG_U(WALL_E_U((i), (j))) * U((i) - 1, (j)) \
        + ((ae) - DE3_U((i), (j))) * FLAG_U(WALL_W_U((i), (j))) * U_BEYOND((i), (j)) \
        + DW3_U((i), (j)) * FLAG_U(WALL_W_U((i), (j))) * U((i) - 1, (j)) \
        + DE3_U((i), (j)) * FLAG_U(WALL_E_U((i), (j))) * U_BEYOND((i), (j))))
#else
#define uWE_cpp_fc(i,j,aw,ae) ((aw) * U((i) - 1, (j)) + (ae) * U_BEYOND((i), (j)))
#endif

#define u_hat_fc(i,j,aw,ae,as,an,ap,b) \
    ((uWE_cpp_fc((i), (j), (aw), (ae)) + (as) * uS_u_fc((i), (j)) \
      + (an) * uN_u_fc((i), (j)) + (b)) / (ap))

/* (15) d_u = A hy / a_P. */
#define d_u_fc(j,ap)  (CFG_A * HY((j)) / (ap))

/* Upwind value plus TVD correction (0.0 added when upwind, as in Rust) of face f. */
#define UT_U(a,b,i,j,m,f) \
    (upwind((a), (b), u_flux((i), (j), (m))) \
     + ((CFG_TVD) ? u_tvd((i), (j), (f), u_flux((i), (j), (m))) : 0.0))

/* Explicit scheme: C_u of the u-CV (i,j) from iterate k (= level n at the step start). */
#define c_u_fc(i,j) \
    (u_flux((i), (j), 0) * UT_U(U((i), (j)), U_BEYOND((i), (j)), (i), (j), 0, 0) \
     - u_flux((i), (j), 1) * UT_U(U((i) - 1, (j)), U((i), (j)), (i), (j), 1, 1) \
     + 0.5 * (u_flux((i), (j), 2) * UT_U(U((i), (j)), U((i), (j) + 1), (i), (j), 2, 2) \
              + u_flux((i), (j), 3) * UT_U(U((i), (j)), U((i), (j) + 1), (i), (j), 3, 2)) \
     - 0.5 * (u_flux((i), (j), 4) * UT_U(U((i), (j) - 1), U((i), (j)), (i), (j), 4, 3) \
              + u_flux((i), (j), 5) * UT_U(U((i), (j) - 1), U((i), (j)), (i), (j), 5, 3)))

/* TVD correction of one v-CV face, the transpose of u_tvd: face 0 north, 1 south (TVD_c
 * along y), 2 east, 3 west (TVD_s along x). */
#define v_tvd(i,j,face,w) \
    (((face) == 0) \
     ? ((((j) + 2 < CFG_NYT) && SOLVED4(V_FACE, (i), (j) - 1, 0, 1)) \
        ? tvd_c(V((i), (j) - 1), V((i), (j)), V((i), (j) + 1), V((i), (j) + 2), \
                HY((j) - 1), HY((j)), HY((j) + 1), (w)) : 0.0) \
     : ((face) == 1) \
     ? ((((j) >= 2) && SOLVED4(V_FACE, (i), (j) - 2, 0, 1)) \
        ? tvd_c(V((i), (j) - 2), V((i), (j) - 1), V((i), (j)), V((i), (j) + 1), \
                HY((j) - 2), HY((j) - 1), HY((j)), (w)) : 0.0) \
     : ((face) == 2) \
     ? ((((i) + 2 < CFG_NXT) && SOLVED4(V_FACE, (i) - 1, (j), 1, 0)) \
        ? tvd_s(V((i) - 1, (j)), V((i), (j)), V((i) + 1, (j)), V((i) + 2, (j)), \
                HX((i) - 1), HX((i)), HX((i) + 1), HX((i) + 2), (w)) : 0.0) \
     : ((face) == 3) \
     ? ((((i) >= 2) && SOLVED4(V_FACE, (i) - 2, (j), 1, 0)) \
        ? tvd_s(V((i) - 2, (j)), V((i) - 1, (j)), V((i), (j)), V((i) + 1, (j)), \
                HX((i) - 2), HX((i) - 1), HX((i)), HX((i) + 1), (w)) : 0.0) \
     : 0.0)

/* Face flux m of the v-CV (i,j): [Fn, Fs, Fe1, Fe2, Fw1, Fw2][m]. */
#define v_flux(i,j,m) \
    (((m) == 0) ? (0.5 * (FY((i), (j)) + FY((i), J_N(j)))) \
     : ((m) == 1) ? (0.5 * (FY((i), (j) - 1) + FY((i), (j)))) \
     : ((m) == 2) ? FX((i) + 1, (j) - 1) \
     : ((m) == 3) ? FX((i) + 1, (j)) \
     : ((m) == 4) ? FX((i), (j) - 1) \
     : FX((i), (j)))

/* v left of the v-CV: slip gas velocity (42) at half a cell next to a wall, else v(i−1,j). */
#define vW_v_cf(i,j) \
    ((SOLID((i) - 1, (j) - 1) && SOLID((i) - 1, (j))) \
     ? v_wall_gas((i), (j), (i) - 1, (j), 0.5 * HX((i))) : V((i) - 1, (j)))

/* v right of the v-CV, the mirror of vW_v_cf. */
#define vE_v_cf(i,j) \
    ((SOLID((i) + 1, (j) - 1) && SOLID((i) + 1, (j))) \
     ? v_wall_gas((i), (j), (i) + 1, (j), 0.5 * HX((i))) : V((i) + 1, (j)))

/* (17)-(19) a_N of the v-CV, through the centre of cell j. */
#define aN_v_cf(i,j) \
    ((CFG_EXPLICIT) ? (FOUR_THIRDS * (CFG_B * GAM((i), (j)) * HX((i)) / HY((j)))) \
     : (FOUR_THIRDS * (CFG_B * GAM((i), (j)) * HX((i)) / HY((j))) \
        + fmax(-v_flux((i), (j), 0), 0.0)))

/* (17)-(19) a_S of the v-CV, through the centre of cell j−1. */
#define aS_v_cf(i,j) \
    ((CFG_EXPLICIT) ? (FOUR_THIRDS * (CFG_B * GAM((i), (j) - 1) * HX((i)) / HY((j) - 1))) \
     : (FOUR_THIRDS * (CFG_B * GAM((i), (j) - 1) * HX((i)) / HY((j) - 1)) \
        + fmax(v_flux((i), (j), 1), 0.0)))

/* Conductance D_e of the v-CV's east face with Γc' = gce. */
#define DE_V(i,j,gce) \
    ((HALF_TO_WALL((i) + 1, (j) - 1, (i) + 1, (j))) \
     ? (CFG_B * (gce) * (HY((j) - 1) + HY((j))) / HX((i))) \
     : (CFG_B * (gce) * (HY((j) - 1) + HY((j))) / (HX((i)) + HX((i) + 1))))

/* Conductance D_w of the west face with Γc' = gcw. */
#define DW_V(i,j,gcw) \
    ((HALF_TO_WALL((i) - 1, (j) - 1, (i) - 1, (j))) \
     ? (CFG_B * (gcw) * (HY((j) - 1) + HY((j))) / HX((i))) \
     : (CFG_B * (gcw) * (HY((j) - 1) + HY((j))) / (HX((i) - 1) + HX((i)))))

/* (17)-(19) a_E of the v-CV with Γc'(i+1,j) = gce. */
#define aE_v_cf(i,j,gce) \
    ((CFG_EXPLICIT) ? DE_V((i), (j), (gce)) \
     : (DE_V((i), (j), (gce)) \
        + 0.5 * (fmax(-v_flux((i), (j), 2), 0.0) + fmax(-v_flux((i), (j), 3), 0.0))))

/* (17)-(19) a_W of the v-CV with Γc'(i,j) = gcw. */
#define aW_v_cf(i,j,gcw) \
    ((CFG_EXPLICIT) ? DW_V((i), (j), (gcw)) \
     : (DW_V((i), (j), (gcw)) \
        + 0.5 * (fmax(v_flux((i), (j), 4), 0.0) + fmax(v_flux((i), (j), 5), 0.0))))

/* ρ V/Δt of the v-CV, accessor R written bare. */
#define M_V(R,i,j) \
    ((R((i), (j) - 1) * HY((j) - 1) + R((i), (j)) * HY((j))) * HX((i)) / (2.0 * CFG_DT))

/* (16) a_P of the v-CV, summed in the order N, S, E, W as in Rust. */
#define aP_v_cf(i,j,an,as,ae,aw) \
    ((an) + (as) + (ae) + (aw) \
     + ((CFG_EXPLICIT) ? M_V(RHO, (i), (j)) \
        : (M_V(RHO, (i), (j)) \
           + ((v_flux((i), (j), 0) - v_flux((i), (j), 1)) \
              + 0.5 * (v_flux((i), (j), 2) + v_flux((i), (j), 3) - v_flux((i), (j), 4) \
                       - v_flux((i), (j), 5))))))

/* (21) cross-derivative source S_v (no gravity) with Γc' = gcw, gce; with compat
 * corner_slip_ghosts each u times the fluid flag of the cell beyond it (UF_V). */
#if CFG_COMPAT_SLOTS
#define UF_V(i,j,ci,cj) (U((i), (j)) * gas_flag((ci), (cj)))
#define SV_V(i,j,gcw,gce) \
    (CFG_B * ((gce) * (UF_V((i) + 1, (j), (i) + 1, (j)) - UF_V((i) + 1, (j) - 1, (i) + 1, (j) - 1)) \
              - (gcw) * (UF_V((i), (j), (i) - 1, (j)) - UF_V((i), (j) - 1, (i) - 1, (j) - 1)) \
              - TWO_THIRDS * GAM((i), (j)) \
                * (UF_V((i) + 1, (j), (i) + 1, (j)) - UF_V((i), (j), (i) - 1, (j))) \
              + TWO_THIRDS * GAM((i), (j) - 1) \
                * (UF_V((i) + 1, (j) - 1, (i) + 1, (j) - 1) \
                   - UF_V((i), (j) - 1, (i) - 1, (j) - 1))))
#else
#define SV_V(i,j,gcw,gce) \
    (CFG_B * ((gce) * (U((i) + 1, (j)) - U((i) + 1, (j) - 1)) \
              - (gcw) * (U((i), (j)) - U((i), (j) - 1)) \
              - TWO_THIRDS * GAM((i), (j)) * (U((i) + 1, (j)) - U((i), (j))) \
              + TWO_THIRDS * GAM((i), (j) - 1) * (U((i) + 1, (j) - 1) - U((i), (j) - 1))))
#endif

/* Flux m times the TVD correction of face f of the v-CV. */
#define FT_V(i,j,m,f) (v_flux((i), (j), (m)) * v_tvd((i), (j), (f), v_flux((i), (j), (m))))

/* (16) right side b of the v-CV, the transpose of b_u_fc. */
#define b_v_cf(i,j,gcw,gce) \
    ((CFG_EXPLICIT) \
     ? (M_V(RHO_N, (i), (j)) * V_N((i), (j)) + SV_V((i), (j), (gcw), (gce)) - CV((i), (j))) \
     : (CFG_TVD) \
     ? (M_V(RHO_N, (i), (j)) * V_N((i), (j)) + SV_V((i), (j), (gcw), (gce)) \
        - (FT_V((i), (j), 0, 0) - FT_V((i), (j), 1, 1) \
           + 0.5 * (FT_V((i), (j), 2, 2) + FT_V((i), (j), 3, 2)) \
           - 0.5 * (FT_V((i), (j), 4, 3) + FT_V((i), (j), 5, 3)))) \
     : (M_V(RHO_N, (i), (j)) * V_N((i), (j)) + SV_V((i), (j), (gcw), (gce))))

/* (16) v̂ = (Σ a_nb v_nb + b)/a_P, neighbours summed S, N, W, E as in Rust. */
#if CFG_COMPAT_SLOTS
/* Compat corner_slip_ghosts: the C++ near-wall branch reads v below and above times the fluid
 * flag of the cell beyond, so a wall face's slot value is not read. */
#define INNER_V(j) (((j) >= 2) && (((j) + 1) < CFG_NYT))
#define v_hat_cf(i,j,an,as,ae,aw,ap,b) \
    (((as) * ((INNER_V(j)) ? (V((i), (j) - 1) * gas_flag((i), (j) - 2)) : V((i), (j) - 1)) \
      + (an) * ((INNER_V(j)) ? (V((i), J_N(j)) * gas_flag((i), (j) + 1)) : V((i), J_N(j))) \
      + (aw) * vW_v_cf((i), (j)) + (ae) * vE_v_cf((i), (j)) + (b)) / (ap))
#else
#define v_hat_cf(i,j,an,as,ae,aw,ap,b) \
    (((as) * V((i), (j) - 1) + (an) * V((i), J_N(j)) + (aw) * vW_v_cf((i), (j)) \
      + (ae) * vE_v_cf((i), (j)) + (b)) / (ap))
#endif

/* (16) d_v = A hx / a_P. */
#define d_v_cf(i,ap)  (CFG_A * HX((i)) / (ap))

/* Upwind value plus TVD correction of face f of the v-CV (see UT_U). */
#define UT_V(a,b,i,j,m,f) \
    (upwind((a), (b), v_flux((i), (j), (m))) \
     + ((CFG_TVD) ? v_tvd((i), (j), (f), v_flux((i), (j), (m))) : 0.0))

/* Explicit scheme: C_v of the v-CV (i,j). */
#define c_v_cf(i,j) \
    (v_flux((i), (j), 0) * UT_V(V((i), (j)), V((i), J_N(j)), (i), (j), 0, 0) \
     - v_flux((i), (j), 1) * UT_V(V((i), (j) - 1), V((i), (j)), (i), (j), 1, 1) \
     + 0.5 * (v_flux((i), (j), 2) * UT_V(V((i), (j)), V((i) + 1, (j)), (i), (j), 2, 2) \
              + v_flux((i), (j), 3) * UT_V(V((i), (j)), V((i) + 1, (j)), (i), (j), 3, 2)) \
     - 0.5 * (v_flux((i), (j), 4) * UT_V(V((i) - 1, (j)), V((i), (j)), (i), (j), 4, 3) \
              + v_flux((i), (j), 5) * UT_V(V((i) - 1, (j)), V((i), (j)), (i), (j), 5, 3)))

/* The kernel sequence of the u-CV at the solved u-face (i,j), (13)–(21): Γ at the south and
 * north corners, the neighbour coefficients, a_P, b, then û into `uh` and d_u into `du`
 * (lvalues). A statement; every loop-2 form uses it. Twin: momentum::u_hat_d_u. */
#define U_HAT_D_U(i,j,uh,du) \
    do { \
        const real gcs_ = gam_c((i), (j)); \
        const real gcn_ = gam_c((i), (j) + 1); \
        const real aw_ = aW_u_fc((i), (j)); \
        const real ae_ = aE_u_fc((i), (j)); \
        const real as_ = aS_u_fc((i), (j), gcs_); \
        const real an_ = aN_u_fc((i), (j), gcn_); \
        const real ap_ = aP_u_fc((i), (j), aw_, ae_, as_, an_); \
        const real b_ = b_u_fc((i), (j), gcs_, gcn_); \
        (uh) = u_hat_fc((i), (j), aw_, ae_, as_, an_, ap_, b_); \
        (du) = d_u_fc((j), ap_); \
    } while (0)

/* The kernel sequence of the v-CV at the solved v-face (i,j): v̂ into `vh`, d_v into `dv`.
 * Twin: momentum::v_hat_d_v. */
#define V_HAT_D_V(i,j,vh,dv) \
    do { \
        const real gcw_ = gam_c2((i), (j)); \
        const real gce_ = gam_c2((i) + 1, (j)); \
        const real an_ = aN_v_cf((i), (j)); \
        const real as_ = aS_v_cf((i), (j)); \
        const real ae_ = aE_v_cf((i), (j), gce_); \
        const real aw_ = aW_v_cf((i), (j), gcw_); \
        const real ap_ = aP_v_cf((i), (j), an_, as_, ae_, aw_); \
        const real b_ = b_v_cf((i), (j), gcw_, gce_); \
        (vh) = v_hat_cf((i), (j), an_, as_, ae_, aw_, ap_, b_); \
        (dv) = d_v_cf((i), ap_); \
    } while (0)

