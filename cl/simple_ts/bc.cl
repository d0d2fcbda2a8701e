/* Wall gas values of slip (42) and jump (43), and Γ interpolated to CV corners next to walls
 * (spec §3.2).  Twins of the Ctx methods in src/methods/simple_ts/reference/bc.rs, same names and order.
 * Uses cl/simple_ts/fields.cl accessors (u, v, t, rho, gam, rho_u, rho_v, cell, hx, hy, wall_of,
 * wall_u, wall_v, wall_t, wall_bc) and cl/simple_ts/ops.cl (slip, jump, li).
 *
 * The Rust methods take flat indices (ij, s); these take the face or fluid cell (i,j), the
 * solid cell (si,sj) across the wall, and the half-cell distance hh. int i, j, si, sj.
 *
 *        (i,j+1)               gam_col(i,j): Γ on the corner row y_f[j] of column i,
 *   ---- y_f[j] ----           between cells (i,j−1) and (i,j);
 *        (i,j−1)               gam_row(i,j): the transpose, between (i−1,j) and (i,j).  */

#ifndef CFG_KN
#error "CFG_KN not defined (Knudsen number, physics::Constants::kn)"
#endif
#ifndef CFG_WALL_SIGMA_U
#error "CFG_WALL_SIGMA_U not defined (σ_u of (42) per wall record, each followed by a comma)"
#endif
#ifndef CFG_WALL_SIGMA_T
#error "CFG_WALL_SIGMA_T not defined (σ_T of (43) per wall record, each followed by a comma)"
#endif

/* σ_u and σ_T of each wall record (geometry::Wall::sigma_u, sigma_t), compiled in: a case has
 * few walls, and a constant table needs no kernel parameter. The trailing 0.0 keeps the
 * initialiser valid for a case without walls. */
__constant real wall_sigma_u[] = { CFG_WALL_SIGMA_U 0.0 };
__constant real wall_sigma_t[] = { CFG_WALL_SIGMA_T 0.0 };
#define WALL_SU(i,j) (wall_sigma_u[WALL_OF((i),(j))])
#define WALL_ST(i,j) (wall_sigma_t[WALL_OF((i),(j))])

/* (42) gas velocity at a horizontal wall next to u-face (i,j), solid (si,sj) across it: the
 * slip value for a slip wall (with its σ_u), the wall velocity otherwise. */
#define u_wall_gas(i,j,si,sj,hh) \
    (WALL_SLIPS((si),(sj)) \
     ? slip(U((i),(j)), WALL_U((si),(sj)), RHO_U((i),(j)), (hh), WALL_SU((si),(sj)), CFG_KN) \
     : WALL_U((si),(sj)))

/* (42) gas velocity at a vertical wall next to v-face (i,j). */
#define v_wall_gas(i,j,si,sj,hh) \
    (WALL_SLIPS((si),(sj)) \
     ? slip(V((i),(j)), WALL_V((si),(sj)), RHO_V((i),(j)), (hh), WALL_SU((si),(sj)), CFG_KN) \
     : WALL_V((si),(sj)))

/* (43) gas temperature T_s at the wall face between fluid cell (i,j) and solid (si,sj): the
 * jump value (with the wall's σ_T), the wall temperature (fixed), the fluid value (adiabatic).
 * Upper-case T is the spec symbol (the name-order test checks every name with a lower-case
 * letter). */
#define T_wall_gas(i,j,si,sj,hh) \
    ((WALL_THERMAL((si),(sj)) == THERMAL_JUMP) \
     ? jump(T((i),(j)), WALL_T((si),(sj)), RHO((i),(j)), (hh), WALL_ST((si),(sj)), CFG_KN) \
     : (WALL_THERMAL((si),(sj)) == THERMAL_FIXED) ? WALL_T((si),(sj)) \
     : T((i),(j)))

/* Γ along y to the corner of column i between rows j−1 and j: linear between two fluid cells,
 * √T_s where one is solid. Both solid is Rust's None: 0.0 here, and the caller's mean_of
 * gets the flag (both SOLID) instead. */
#define gam_col(i,j) \
    ((!SOLID((i),(j) - 1) && !SOLID((i),(j))) \
     ? li(GAM((i),(j) - 1), GAM((i),(j)), HY((j) - 1), HY((j))) \
     : !SOLID((i),(j)) ? sqrt(T_wall_gas((i),(j),(i),(j) - 1, 0.5 * HY((j)))) \
     : !SOLID((i),(j) - 1) ? sqrt(T_wall_gas((i),(j) - 1,(i),(j), 0.5 * HY((j) - 1))) \
     : 0.0)

/* Γ along x in row j between columns i−1 and i (see gam_col). */
#define gam_row(i,j) \
    ((!SOLID((i) - 1,(j)) && !SOLID((i),(j))) \
     ? li(GAM((i) - 1,(j)), GAM((i),(j)), HX((i) - 1), HX((i))) \
     : !SOLID((i),(j)) ? sqrt(T_wall_gas((i),(j),(i) - 1,(j), 0.5 * HX((i)))) \
     : !SOLID((i) - 1,(j)) ? sqrt(T_wall_gas((i) - 1,(j),(i),(j), 0.5 * HX((i) - 1))) \
     : 0.0)

#ifndef CFG_COMPAT_GAMMA3
#error "CFG_COMPAT_GAMMA3 not defined (1: compat corner_gamma_three_terms, 0: the corrected Γc)"
#endif
#ifndef CFG_COMPAT_SLOTS
#error "CFG_COMPAT_SLOTS not defined (1: compat corner_slip_ghosts, 0: no slot values)"
#endif

#if CFG_COMPAT_GAMMA3
/* Some but not all of the four cells around the corner (x_f[i], y_f[j]) are solid (bc::mixed,
 * where the C++ code sums its five terms). */
#define MIXED4(i,j) \
    ((SOLID((i) - 1,(j) - 1) + SOLID((i),(j) - 1) + SOLID((i) - 1,(j)) + SOLID((i),(j)) > 0) \
     && (SOLID((i) - 1,(j) - 1) + SOLID((i),(j) - 1) + SOLID((i) - 1,(j)) + SOLID((i),(j)) < 4))
/* √T_s of the vertical wall face at u-face (i,j) if exactly one of its cells is solid, else 0
 * (bc::wall_sqrt_row); the horizontal one at v-face (i,j) (bc::wall_sqrt_col). */
#define WALL_SQRT_ROW(i,j) ((SOLID((i) - 1,(j)) != SOLID((i),(j))) ? gam_row((i),(j)) : 0.0)
#define WALL_SQRT_COL(i,j) ((SOLID((i),(j) - 1) != SOLID((i),(j))) ? gam_col((i),(j)) : 0.0)
#endif

/* Γc(i,j): Γ at the corner (x_f[i], y_f[j]) for the u-CV cross faces, column interpolations
 * first (spec §2.4). */
#if CFG_COMPAT_GAMMA3
/* Compat corner_gamma_three_terms: where some but not all of the four cells around the corner
 * are solid, the C++ code's sum of both column values and the vertical wall faces' √T_s,
 * halved (bc::gam_c). */
#define gam_c(i,j) \
    ((MIXED4((i),(j))) \
     ? (0.5 * ((gam_col((i) - 1,(j)) + gam_col((i),(j))) \
               + li(WALL_SQRT_ROW((i),(j) - 1), WALL_SQRT_ROW((i),(j)), HY((j) - 1), HY((j))))) \
     : (mean_of(gam_col((i) - 1,(j)), SOLID((i) - 1,(j) - 1) && SOLID((i) - 1,(j)), \
                gam_col((i),(j)), SOLID((i),(j) - 1) && SOLID((i),(j)))))
#else
#define gam_c(i,j) \
    (mean_of(gam_col((i) - 1,(j)), SOLID((i) - 1,(j) - 1) && SOLID((i) - 1,(j)), \
             gam_col((i),(j)), SOLID((i),(j) - 1) && SOLID((i),(j))))
#endif

/* Γc'(i,j): Γ at the corner (x_f[i], y_f[j]) for the v-CV cross faces, row interpolations
 * first. */
#if CFG_COMPAT_GAMMA3
#define gam_c2(i,j) \
    ((MIXED4((i),(j))) \
     ? (0.5 * ((gam_row((i),(j) - 1) + gam_row((i),(j))) \
               + li(WALL_SQRT_COL((i) - 1,(j)), WALL_SQRT_COL((i),(j)), HX((i) - 1), HX((i))))) \
     : (mean_of(gam_row((i),(j) - 1), SOLID((i) - 1,(j) - 1) && SOLID((i),(j) - 1), \
                gam_row((i),(j)), SOLID((i) - 1,(j)) && SOLID((i),(j)))))
#else
#define gam_c2(i,j) \
    (mean_of(gam_row((i),(j) - 1), SOLID((i) - 1,(j) - 1) && SOLID((i),(j) - 1), \
             gam_row((i),(j)), SOLID((i) - 1,(j)) && SOLID((i),(j))))
#endif

/* Mean of the available values, 0 if none. Rust's Option is (value, is-None flag) here:
 * a is used unless a_none, b unless b_none. */
#define mean_of(a,a_none,b,b_none) \
    ((a_none) ? ((b_none) ? 0.0 : (b)) : (b_none) ? (a) : (0.5 * ((a) + (b))))

/* 1 where cell (i,j) is not solid, 0 where it is: the C++ code's fluid flags, which multiply
 * the stored velocities of the faces beyond in its near-wall branches (compat
 * corner_slip_ghosts, where those faces hold slot values). */
#define gas_flag(i,j) ((SOLID((i),(j))) ? 0.0 : 1.0)
