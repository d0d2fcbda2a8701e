/* Euler equations in a face frame (docs/method/shll.md §2): a state is (r, mn, mt, e) =
 * (ρ, normal momentum, tangential momentum, total energy per unit volume), with its one
 * reciprocal ri = 1/ρ and the velocities un = mn·ri, ut = mt·ri computed once per state (one
 * division; the fluxes and the sound speed are then products). Twins:
 * src/methods/shll/euler.rs (same names, same operation order). Needs CFG_GAMMA. */

/* (2) pressure of an ideal gas, p = (γ−1)(E − ½(m_n u_n + m_t u_t)). */
#define euler_p(mn,mt,un,ut,e)  ((CFG_GAMMA - 1.0) * ((e) - 0.5 * ((mn) * (un) + (mt) * (ut))))
/* (3) speed of sound a = √(γp/ρ) = √(γ·p·ri), from the state's reciprocal ri = 1/ρ. */
#define euler_a(ri,p)           (sqrt(CFG_GAMMA * (p) * (ri)))
/* (4) normal-momentum flux m_n u_n + p. */
#define euler_f_mn(mn,un,p)     ((mn) * (un) + (p))
/* (4) tangential-momentum flux m_t u_n. */
#define euler_f_mt(mt,un)       ((mt) * (un))
/* (4) energy flux (E + p) u_n. */
#define euler_f_e(e,p,un)       (((e) + (p)) * (un))
