/* Linear convection, first-order upwind (FTBS for c > 0; docs/method/convection.md). Twins:
 * src/methods/convection/ftbs.rs (same names, same operation order). */

/* (2) upwind difference along one axis, ν(q − q_upwind) with the signed Courant number
 * ν = cΔt/h: the backward difference for ν > 0, the forward one for ν ≤ 0. */
#define ftbs_diff(nu,qm,q,qp)   ((nu) > 0.0 ? (nu) * ((q) - (qm)) : (nu) * ((qp) - (q)))
/* (3) the update u − ν_x(…) − ν_y(…) (the seed's operation order). */
#define ftbs_update(q,ddx,ddy)  ((q) - (ddx) - (ddy))
