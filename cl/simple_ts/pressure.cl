/* (22)–(23) the SIMPLE-TS pressure equation, and (37)–(38) the velocity correction
 * (spec §2.5, §2.7).  Twins of src/methods/simple_ts/reference/pressure.rs, same names and order. Uses
 * cl/simple_ts/fields.cl accessors (U_HAT, D_U, V_HAT, D_V from the momentum step; RHO_U, RHO_V,
 * U_FACE, V_FACE, P_N, T_N).
 *
 * Continuity of cell (i,j) with u, v replaced by the pseudo-velocity relations and ρ by p/T,
 * multiplied by Δt. A face that is not solved (wall, inflow, outflow copy) has a^p = 0 and
 * carries its current mass flux ρ_f h u_f in b^p.
 *
 * A kernel evaluates, per fluid cell, after the energy fragments (cl/simple_ts/energy.cl) gave T_new:
 *   pw = pW_cc(i,j); pe = pE_cc(i,j); ps = pS_cc(i,j); pn = pN_cc(i,j);
 *   pd = pD_cc(i,j); pb = pB_cc(i,j);
 *   p_new = p_cc(P_OLD,i,j,pw,pe,ps,pn,pd,pb,T_new);
 * and, per solved face with the new pressure accessor PN, u = u_corr_fc(PN,i,j),
 * v = v_corr_cf(PN,i,j). */

#ifndef CFG_DT
#error "CFG_DT not defined (time step Δt)"
#endif

/* A face of class k is solved with its pseudo-velocity relation (solved or periodic seam). */
#define PSEUDO_P(k) (((k) == F_SOLVED) || ((k) == F_PERIODIC))

/* (23) a^p of the u-face (i,j) (before ×Δt): ρu hy d_u where it is solved, else 0. */
#define ap_fc(i,j) \
    ((PSEUDO_P(U_FACE((i), (j)))) ? (RHO_U((i), (j)) * HY((j)) * D_U((i), (j))) : 0.0)

/* (23) pseudo mass flux through the u-face (i,j): ρu hy û where it is solved, else ρu hy u. */
#if CFG_COMPAT_SLOTS
/* Compat corner_slip_ghosts: no pseudo flux through a wall face, whose stored velocity may be
 * a C++ slot value (pressure::slot_face: the C++ pressure equation multiplies a face's flux by
 * both fluid flags). */
#define q_fc(i,j) \
    ((PSEUDO_P(U_FACE((i), (j)))) ? (RHO_U((i), (j)) * HY((j)) * U_HAT((i), (j))) \
     : (SOLID((i), (j)) || SOLID((i) - 1, (j))) ? 0.0 \
     : (RHO_U((i), (j)) * HY((j)) * U((i), (j))))
#else
#define q_fc(i,j) \
    ((PSEUDO_P(U_FACE((i), (j)))) ? (RHO_U((i), (j)) * HY((j)) * U_HAT((i), (j))) \
     : (RHO_U((i), (j)) * HY((j)) * U((i), (j))))
#endif

/* (23) a^p of the v-face (i,j): ρv hx d_v where it is solved, else 0. */
#define ap_cf(i,j) \
    ((PSEUDO_P(V_FACE((i), (j)))) ? (RHO_V((i), (j)) * HX((i)) * D_V((i), (j))) : 0.0)

/* (23) pseudo mass flux through the v-face (i,j): ρv hx v̂ where it is solved, else ρv hx v. */
#if CFG_COMPAT_SLOTS
#define q_cf(i,j) \
    ((PSEUDO_P(V_FACE((i), (j)))) ? (RHO_V((i), (j)) * HX((i)) * V_HAT((i), (j))) \
     : (SOLID((i), (j)) || SOLID((i), (j) - 1)) ? 0.0 \
     : (RHO_V((i), (j)) * HX((i)) * V((i), (j))))
#else
#define q_cf(i,j) \
    ((PSEUDO_P(V_FACE((i), (j)))) ? (RHO_V((i), (j)) * HX((i)) * V_HAT((i), (j))) \
     : (RHO_V((i), (j)) * HX((i)) * V((i), (j))))
#endif

/* Δt a^p_W, a^p_E, a^p_S, a^p_N of cell (i,j). */
#define pW_cc(i,j) (CFG_DT * ap_fc((i), (j)))
#define pE_cc(i,j) (CFG_DT * ap_fc((i) + 1, (j)))
#define pS_cc(i,j) (CFG_DT * ap_cf((i), (j)))
#define pN_cc(i,j) (CFG_DT * ap_cf((i), (j) + 1))

/* Δt Σ a^p, summed W, E, S, N. */
#define pD_cc(i,j) \
    (CFG_DT * (ap_fc((i), (j)) + ap_fc((i) + 1, (j)) + ap_cf((i), (j)) + ap_cf((i), (j) + 1)))

/* Δt b^p + V pⁿ/Tⁿ: the net pseudo mass flux into cell (i,j) and the level-n mass. */
#define pB_cc(i,j) \
    (CFG_DT * (q_fc((i), (j)) - q_fc((i) + 1, (j)) + q_cf((i), (j)) - q_cf((i), (j) + 1)) \
     + HX((i)) * HY((j)) * P_N((i), (j)) / T_N((i), (j)))

/* (22) one Jacobi evaluation of p at fluid cell (i,j) with the new T(i,j) t_new, from the
 * coefficients and the previous sweep's p, accessor PO written bare (P_OLD; P in the first
 * sweep). */
#define p_cc(PO,i,j,pw,pe,ps,pn,pd,pb,t_new) \
    (((pw) * PO((i) - 1, (j)) + (pe) * PO((i) + 1, (j)) + (ps) * PO((i), (j) - 1) \
      + (pn) * PO((i), (j) + 1) + (pb)) \
     / (HX((i)) * HY((j)) / (t_new) + (pd)))

/* (37) corrected u at the u-face (i,j) with the new pressure, accessor PN written bare:
 * û − d_u (p(i,j) − p(i−1,j)). */
#define u_corr_fc(PN,i,j) (U_HAT((i), (j)) - D_U((i), (j)) * (PN((i), (j)) - PN((i) - 1, (j))))

/* (38) corrected v at the v-face (i,j): v̂ − d_v (p(i,j) − p(i,j−1)). */
#define v_corr_cf(PN,i,j) (V_HAT((i), (j)) - D_V((i), (j)) * (PN((i), (j)) - PN((i), (j) - 1)))

/* One Jacobi p of fluid cell (i,j) with its new T t_new, the coefficients computed in place
 * (22)–(23); previous sweep's p through the accessor PO written bare. Twin:
 * pressure::p_new_cc. */
#define p_new_cc(PO,i,j,t_new) \
    (p_cc(PO, (i), (j), pW_cc((i), (j)), pE_cc((i), (j)), pS_cc((i), (j)), pN_cc((i), (j)), \
          pD_cc((i), (j)), pB_cc((i), (j)), (t_new)))

