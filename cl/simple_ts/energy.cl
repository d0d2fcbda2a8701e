/* (24)–(30) energy equation in the temperature form, multiplied by Δt (spec §2.6).
 * Twins of src/methods/simple_ts/reference/energy.rs, same names and order. Uses cl/simple_ts/fields.cl accessors,
 * cl/simple_ts/ops.cl (upwind, hi), cl/simple_ts/density.cl (tvd_fc, tvd_cf) and cl/simple_ts/bc.cl (u_wall_gas,
 * v_wall_gas, T_wall_gas).
 *
 *              T(i,j+1)
 *   T(i−1,j) | T(i,j) | T(i+1,j)     faces: u(i,j) west, u(i+1,j) east,
 *              T(i,j−1)                     v(i,j) south, v(i,j+1) north
 *
 * A solid neighbour is a wall face: its T_nb is the jump temperature T_s (43), its conductance
 * uses √T_s at half a cell, and its convective flux is zero. Face m of the CV (i,j) is 0 west,
 * 1 east, 2 south, 3 north (an integer constant).
 *
 * A kernel evaluates, per fluid cell (as energy::energy_coeffs and tests/fragments.rs do):
 *   dw = dT_cc(i,j,0); de = dT_cc(i,j,1); ds = dT_cc(i,j,2); dn = dT_cc(i,j,3);
 *   tw = tW_cc(i,j,dw); te = tE_cc(i,j,de); ts = tS_cc(i,j,ds); tn = tN_cc(i,j,dn);
 *   tp = tP_cc(i,j,dw,de,ds,dn); tb = tB_cc(i,j,dw,de,ds,dn); tdiv = tDiv_cc(i,j);
 *   T_new = T_cc(T_OLD,P_OLD,i,j,tw,te,ts,tn,tp,tb,tdiv);
 * CFG_TVD and CFG_EXPLICIT are constants, so the compiler drops the unused branches. */

#ifndef CFG_CT1
#error "CFG_CT1 not defined (conduction coefficient C_T1, physics::Constants::ct1)"
#endif
#ifndef CFG_CT2
#error "CFG_CT2 not defined (dissipation coefficient C_T2, physics::Constants::ct2)"
#endif
#ifndef CFG_CT3
#error "CFG_CT3 not defined (compression-work coefficient C_T3, physics::Constants::ct3)"
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
#ifndef CFG_COMPAT_ADIABATIC_LAG
#error "CFG_COMPAT_ADIABATIC_LAG not defined (1: compat adiabatic_wall_as_lagged_value, 0: insulated)"
#endif

/* Shear strain rate at the corner (x_f[i], y_f[j]) (spec §2.6), with the wall gas velocity
 * at half a cell where a wall runs through the corner's row or column pair. */
#define corner_shear(i,j) \
    (((SOLID((i) - 1, (j) - 1) && SOLID((i), (j) - 1)) \
      ? ((U((i), (j)) - u_wall_gas((i), (j), (i), (j) - 1, 0.5 * HY((j)))) / (0.5 * HY((j)))) \
      : (SOLID((i) - 1, (j)) && SOLID((i), (j))) \
      ? ((u_wall_gas((i), (j) - 1, (i), (j), 0.5 * HY((j) - 1)) - U((i), (j) - 1)) \
         / (0.5 * HY((j) - 1))) \
      : ((U((i), (j)) - U((i), (j) - 1)) / (0.5 * (HY((j) - 1) + HY((j)))))) \
     + ((SOLID((i) - 1, (j) - 1) && SOLID((i) - 1, (j))) \
      ? ((V((i), (j)) - v_wall_gas((i), (j), (i) - 1, (j), 0.5 * HX((i)))) / (0.5 * HX((i)))) \
      : (SOLID((i), (j) - 1) && SOLID((i), (j))) \
      ? ((v_wall_gas((i) - 1, (j), (i), (j), 0.5 * HX((i) - 1)) - V((i) - 1, (j))) \
         / (0.5 * HX((i) - 1))) \
      : ((V((i), (j)) - V((i) - 1, (j))) / (0.5 * (HX((i) - 1) + HX((i)))))))

/* Centre normal strains du/dx, dv/dy of cell (i,j). */
#define DU_T(i,j) ((U((i) + 1, (j)) - U((i), (j))) / HX((i)))
#define DV_T(i,j) ((V((i), (j) + 1) - V((i), (j))) / HY((j)))
/* Square of the corner shear at (i,j). */
#define CS2_T(i,j) (corner_shear((i), (j)) * corner_shear((i), (j)))

/* (28)-(29) dissipation Φ_h of cell (i,j): centre normal strains and the mean of the four
 * corner shears squared, summed (i,j), (i+1,j), (i,j+1), (i+1,j+1). */
#define PHI_PLAIN(i,j) \
    (2.0 * (DU_T((i), (j)) * DU_T((i), (j)) + DV_T((i), (j)) * DV_T((i), (j))) \
     + 0.25 * (CS2_T((i), (j)) + CS2_T((i) + 1, (j)) + CS2_T((i), (j) + 1) \
               + CS2_T((i) + 1, (j) + 1)) \
     - 2.0 / 3.0 * (DU_T((i), (j)) + DV_T((i), (j))) * (DU_T((i), (j)) + DV_T((i), (j))))
#if CFG_COMPAT_SLOTS
/* Compat corner_slip_ghosts: Φ_h of a cell next to a solid as the C++ code evaluates it
 * (energy::phi_cpp, a function for the size of the program: it reads the phase form's
 * parameters u, v, rho_u, rho_v, cell, wall_of, wall_u, wall_v, wall_bc, hx, hy). u (v) at a
 * face as the C++ code stores it (energy::u_stored, v_stored): the velocity, or between two
 * solid cells the slip gas velocity of the gas face below (above; left, right) where both
 * cells there are gas, else the wall's velocity. */
#define U_STORED(i,j) \
    ((!(SOLID((i) - 1, (j)) && SOLID((i), (j)))) ? U((i), (j)) \
     : ((j) >= 1 && !SOLID((i) - 1, (j) - 1) && !SOLID((i), (j) - 1)) \
     ? u_wall_gas((i), (j) - 1, (i), (j), 0.5 * HY((j) - 1)) \
     : (((j) + 1) < CFG_NYT && !SOLID((i) - 1, (j) + 1) && !SOLID((i), (j) + 1)) \
     ? u_wall_gas((i), (j) + 1, (i), (j), 0.5 * HY((j) + 1)) \
     : WALL_U((i), (j)))
#define V_STORED(i,j) \
    ((!(SOLID((i), (j) - 1) && SOLID((i), (j)))) ? V((i), (j)) \
     : ((i) >= 1 && !SOLID((i) - 1, (j) - 1) && !SOLID((i) - 1, (j))) \
     ? v_wall_gas((i) - 1, (j), (i), (j), 0.5 * HX((i) - 1)) \
     : (((i) + 1) < CFG_NXT && !SOLID((i) + 1, (j) - 1) && !SOLID((i) + 1, (j))) \
     ? v_wall_gas((i) + 1, (j), (i), (j), 0.5 * HX((i) + 1)) \
     : WALL_V((i), (j)))
inline real phi_cpp(__global const real* u, __global const real* v,
                    __global const real* rho_u, __global const real* rho_v,
                    __global const int* cell, __global const int* wall_of,
                    __global const real* wall_u, __global const real* wall_v,
                    __global const int* wall_bc, __global const real* hx,
                    __global const real* hy, const int i, const int j)
{
#define F_(a,b) (!SOLID((a), (b)))
#define FL_(a,b) ((F_((a), (b))) ? 1.0 : 0.0)
#define DY_(ok,h) ((ok) ? (h) : 0.0)
    const real du = (FL_(i + 1, j) * U_STORED(i + 1, j) - FL_(i - 1, j) * U_STORED(i, j)) / HX(i);
    const real dv = (FL_(i, j + 1) * V_STORED(i, j + 1) - FL_(i, j - 1) * V_STORED(i, j)) / HY(j);
    /* Subvolumes 0 (SW), 1 (SE), 2 (NW), 3 (NE). */
    const real s0 = (U_STORED(i, j) - U_STORED(i, j - 1))
                        / (DY_(F_(i - 1, j - 1) && F_(i, j - 1), HY(j - 1)) + HY(j))
                    + (V_STORED(i, j) - V_STORED(i - 1, j))
                        / (DY_(F_(i - 1, j - 1) && F_(i - 1, j), HX(i - 1)) + HX(i));
    const real s1 = (U_STORED(i + 1, j) - U_STORED(i + 1, j - 1))
                        / (DY_(F_(i, j - 1) && F_(i + 1, j - 1), HY(j - 1)) + HY(j))
                    + (V_STORED(i + 1, j) - V_STORED(i, j))
                        / (HX(i) + DY_(F_(i + 1, j - 1) && F_(i + 1, j), HX(i + 1)));
    const real s2 = (U_STORED(i, j + 1) - U_STORED(i, j))
                        / (HY(j) + DY_(F_(i - 1, j + 1) && F_(i, j + 1), HY(j + 1)))
                    + (V_STORED(i, j + 1) - V_STORED(i - 1, j + 1))
                        / (DY_(F_(i - 1, j) && F_(i - 1, j + 1), HX(i - 1)) + HX(i));
    const real s3 = (U_STORED(i + 1, j + 1) - U_STORED(i + 1, j))
                        / (HY(j) + DY_(F_(i, j + 1) && F_(i + 1, j + 1), HY(j + 1)))
                    + (V_STORED(i + 1, j + 1) - V_STORED(i, j + 1))
                        / (HX(i) + DY_(F_(i + 1, j) && F_(i + 1, j + 1), HX(i + 1)));
#undef F_
#undef FL_
#undef DY_
    return 2.0 * (du * du + dv * dv) + s0 * s0 + s1 * s1 + s2 * s2 + s3 * s3
           - 2.0 / 3.0 * (du + dv) * (du + dv);
}
/* One of the eight cells around fluid cell (i,j) is solid (energy::near_solid). */
#define NEAR_SOLID(i,j) \
    (SOLID((i) - 1, (j) - 1) || SOLID((i), (j) - 1) || SOLID((i) + 1, (j) - 1) \
     || SOLID((i) - 1, (j)) || SOLID((i) + 1, (j)) || SOLID((i) - 1, (j) + 1) \
     || SOLID((i), (j) + 1) || SOLID((i) + 1, (j) + 1))
#define phi_cc(i,j) \
    ((NEAR_SOLID((i), (j))) \
     ? phi_cpp(u, v, rho_u, rho_v, cell, wall_of, wall_u, wall_v, wall_bc, hx, hy, (i), (j)) \
     : PHI_PLAIN((i), (j)))
#else
#define phi_cc(i,j) PHI_PLAIN((i), (j))
#endif

/* Face m of cell (i,j): neighbour column and row, face length, h of (i,j) and of the
 * neighbour along the face normal (energy::face_geom). */
#define NB_I(i,m)    (((m) == 0) ? ((i) - 1) : ((m) == 1) ? ((i) + 1) : (i))
#define NB_J(j,m)    (((m) == 2) ? ((j) - 1) : ((m) == 3) ? ((j) + 1) : (j))
#define LEN_T(i,j,m) (((m) < 2) ? HY((j)) : HX((i)))
#define HP_T(i,j,m)  (((m) < 2) ? HX((i)) : HY((j)))
#define HNB_T(i,j,m) (((m) < 2) ? HX(NB_I((i), (m))) : HY(NB_J((j), (m))))
/* Face m is a wall (solid neighbour), an adiabatic one. */
#define NBSOLID_T(i,j,m) SOLID(NB_I((i), (m)), NB_J((j), (m)))
#if CFG_COMPAT_ADIABATIC_LAG
/* Compat adiabatic_wall_as_lagged_value: an adiabatic wall conducts like a fixed one at the gas
 * cell's own temperature (T_wall_gas gives T(i,j)), as the C++ code has it (energy::insulated). */
#define ADIAB_T(i,j,m) 0
#else
#define ADIAB_T(i,j,m) (WALL_THERMAL(NB_I((i), (m)), NB_J((j), (m))) == THERMAL_ADIABATIC)
#endif
/* T_s at the wall face m at half a cell (43). */
#define TS_T(i,j,m) \
    T_wall_gas((i), (j), NB_I((i), (m)), NB_J((j), (m)), 0.5 * HP_T((i), (j), (m)))

/* (26)-(27) conductance D_T of face m: C_T1 len Hi(Γ)/distance between two fluid cells;
 * across a wall √T_s at half a cell, 0 for an adiabatic wall. */
#define dT_cc(i,j,m) \
    ((NBSOLID_T((i), (j), (m))) \
     ? ((ADIAB_T((i), (j), (m))) ? 0.0 \
        : (CFG_CT1 * LEN_T((i), (j), (m)) * sqrt(TS_T((i), (j), (m))) \
           / (0.5 * HP_T((i), (j), (m))))) \
     : (CFG_CT1 * LEN_T((i), (j), (m)) \
        * hi(GAM(NB_I((i), (m)), NB_J((j), (m))), GAM((i), (j)), HNB_T((i), (j), (m)), \
             HP_T((i), (j), (m))) \
        / (0.5 * (HNB_T((i), (j), (m)) + HP_T((i), (j), (m))))))

/* (43) T_nb of wall face m: T_s at half a cell, 0 for an adiabatic wall. Upper-case T is the
 * spec symbol. */
#define Ts_cc(i,j,m) ((ADIAB_T((i), (j), (m))) ? 0.0 : TS_T((i), (j), (m)))

/* Upwind inflow through face m (fluxes out of the CV are positive east and north). */
#define CONV_T(i,j,m) \
    (((m) == 0) ? fmax(FX((i), (j)), 0.0) \
     : ((m) == 1) ? fmax(-FX((i) + 1, (j)), 0.0) \
     : ((m) == 2) ? fmax(FY((i), (j)), 0.0) \
     : fmax(-FY((i), (j) + 1), 0.0))

/* (25) a_nb of face m (before ×Δt) with conductance d: 0 across a wall, else d plus the
 * upwind inflow when implicit (d + 0.0 when explicit, as in Rust). */
#define aT_cc(i,j,m,d) \
    ((NBSOLID_T((i), (j), (m))) ? 0.0 \
     : ((d) + ((CFG_EXPLICIT) ? 0.0 : CONV_T((i), (j), (m)))))

/* Δt a_W, a_E, a_S, a_N with the face's conductance. */
#define tW_cc(i,j,dw) (CFG_DT * aT_cc((i), (j), 0, (dw)))
#define tE_cc(i,j,de) (CFG_DT * aT_cc((i), (j), 1, (de)))
#define tS_cc(i,j,ds) (CFG_DT * aT_cc((i), (j), 2, (ds)))
#define tN_cc(i,j,dn) (CFG_DT * aT_cc((i), (j), 3, (dn)))

/* The coefficient of T_s on the wall face m with conductance d (energy::wall_coeff): d, as a
 * wall face carries no flux; with compat corner_slip_ghosts (implicit) d plus the upwind inflow
 * of the flux a convex corner's slot velocity carries (0 on every other wall face). */
#if CFG_COMPAT_SLOTS && !CFG_EXPLICIT
#define WALL_COEFF_T(i,j,m,d) ((d) + CONV_T((i), (j), (m)))
#else
#define WALL_COEFF_T(i,j,m,d) (d)
#endif
/* Term of face m in diag: the conductance of a wall face, a_nb of a fluid one. */
#define DG_T(i,j,m,d) ((NBSOLID_T((i), (j), (m))) ? WALL_COEFF_T((i), (j), (m), (d)) : aT_cc((i), (j), (m), (d)))
/* diag accumulated from 0.0 in the order W, E, S, N, plus the net outflow when implicit. */
#define DIAG_T(i,j,dw,de,ds,dn) \
    ((CFG_EXPLICIT) \
     ? (0.0 + DG_T((i), (j), 0, (dw)) + DG_T((i), (j), 1, (de)) + DG_T((i), (j), 2, (ds)) \
        + DG_T((i), (j), 3, (dn))) \
     : (0.0 + DG_T((i), (j), 0, (dw)) + DG_T((i), (j), 1, (de)) + DG_T((i), (j), 2, (ds)) \
        + DG_T((i), (j), 3, (dn)) \
        + (FX((i) + 1, (j)) - FX((i), (j)) + FY((i), (j) + 1) - FY((i), (j)))))

/* Left side of (24): ρ^k V + Δt diag. */
#define tP_cc(i,j,dw,de,ds,dn) \
    (RHO((i), (j)) * (HX((i)) * HY((j))) + CFG_DT * DIAG_T((i), (j), (dw), (de), (ds), (dn)))

/* Wall term of face m in b: D_T T_s across a wall, 0.0 (a no-op on a sum that started at
 * +0.0) across a fluid face. */
#define BW_T(i,j,m,d) \
    ((NBSOLID_T((i), (j), (m))) ? (WALL_COEFF_T((i), (j), (m), (d)) * Ts_cc((i), (j), (m))) : 0.0)

/* Source without the convective part: Δt C_T2 Γ V Φ + pⁿ V. */
#define SRC_T(i,j) \
    (CFG_DT * CFG_CT2 * GAM((i), (j)) * (HX((i)) * HY((j))) * phi_cc((i), (j)) \
     + P_N((i), (j)) * (HX((i)) * HY((j))))

/* [CHOICE G7] deferred TVD correction with iterate-k temperatures. */
#define TVDC_T(i,j) \
    (FX((i) + 1, (j)) * tvd_fc(T, (i) + 1, (j), FX((i) + 1, (j))) \
     - FX((i), (j)) * tvd_fc(T, (i), (j), FX((i), (j))) \
     + FY((i), (j) + 1) * tvd_cf(T, (i), (j) + 1, FY((i), (j) + 1)) \
     - FY((i), (j)) * tvd_cf(T, (i), (j), FY((i), (j))))

/* Right side of (24): Δt Σ_walls D_T T_s (W, E, S, N) + source, minus Δt C_T (explicit,
 * accessor CT) or the deferred TVD correction (implicit TVD). */
#define tB_cc(i,j,dw,de,ds,dn) \
    (CFG_DT * (0.0 + BW_T((i), (j), 0, (dw)) + BW_T((i), (j), 1, (de)) \
               + BW_T((i), (j), 2, (ds)) + BW_T((i), (j), 3, (dn))) \
     + ((CFG_EXPLICIT) ? (SRC_T((i), (j)) - CFG_DT * CT((i), (j))) \
        : (CFG_TVD) ? (SRC_T((i), (j)) - CFG_DT * TVDC_T((i), (j))) \
        : SRC_T((i), (j))))

/* Δt C_T3 × the discrete divergence of cell (i,j): multiplies p(i,j) in the compression
 * work. */
#define tDiv_cc(i,j) \
    (CFG_DT * CFG_CT3 \
     * ((U((i) + 1, (j)) - U((i), (j))) * HY((j)) + (V((i), (j) + 1) - V((i), (j))) * HX((i))))

/* One Jacobi evaluation of (24) at fluid cell (i,j) from the coefficients and the previous
 * sweep's T and p, accessors TO and PO written bare (the kernel's previous-sweep accessors;
 * T, P in the first sweep, where they are iterate k). */
#define T_cc(TO,PO,i,j,tw,te,ts,tn,tp,tb,tdiv) \
    (((tw) * TO((i) - 1, (j)) + (te) * TO((i) + 1, (j)) + (ts) * TO((i), (j) - 1) \
      + (tn) * TO((i), (j) + 1) + (tb) + (tdiv) * PO((i), (j))) / (tp))

/* Upwind value plus TVD correction (0.0 added when upwind, as in Rust) times the flux, of
 * the face between cells a and b with flux w; corr is the TVD correction. */
#define FACE_T(a,b,w,corr) ((w) * (upwind((a), (b), (w)) + ((CFG_TVD) ? (corr) : 0.0)))

/* Explicit scheme (30): C_T of fluid cell (i,j) from iterate k (level n at the step start). */
#define c_T_cc(i,j) \
    (FACE_T(T((i), (j)), T((i) + 1, (j)), FX((i) + 1, (j)), \
            tvd_fc(T, (i) + 1, (j), FX((i) + 1, (j)))) \
     - FACE_T(T((i) - 1, (j)), T((i), (j)), FX((i), (j)), tvd_fc(T, (i), (j), FX((i), (j)))) \
     + FACE_T(T((i), (j)), T((i), (j) + 1), FY((i), (j) + 1), \
              tvd_cf(T, (i), (j) + 1, FY((i), (j) + 1))) \
     - FACE_T(T((i), (j) - 1), T((i), (j)), FY((i), (j)), tvd_cf(T, (i), (j), FY((i), (j)))))

/* The kernel sequence of the energy CV of fluid cell (i,j), (24)–(30): the four conductances,
 * the coefficients, then one Jacobi T from the previous sweep's T and p (accessors TO, PO,
 * written bare) into `out` (an lvalue). Twin: energy::T_new_cc. */
#define T_NEW_CC(TO,PO,i,j,out) \
    do { \
        const real dw_ = dT_cc((i), (j), 0); \
        const real de_ = dT_cc((i), (j), 1); \
        const real ds_ = dT_cc((i), (j), 2); \
        const real dn_ = dT_cc((i), (j), 3); \
        (out) = T_cc(TO, PO, (i), (j), tW_cc((i), (j), dw_), tE_cc((i), (j), de_), \
                     tS_cc((i), (j), ds_), tN_cc((i), (j), dn_), \
                     tP_cc((i), (j), dw_, de_, ds_, dn_), tB_cc((i), (j), dw_, de_, ds_, dn_), \
                     tDiv_cc((i), (j))); \
    } while (0)

