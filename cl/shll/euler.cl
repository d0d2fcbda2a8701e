/* Euler equations in a face frame (docs/method/shll.md §2): a state is (r, mn, mt, e) =
 * (ρ, normal momentum, tangential momentum, total energy per unit volume). Twins:
 * src/methods/shll/euler.rs (same names, same operation order). Needs CFG_GAMMA. */

/* (2) pressure of an ideal gas, p = (γ−1)(E − ½|m|²/ρ). */
#define euler_p(r,mn,mt,e)   ((CFG_GAMMA - 1.0) * ((e) - 0.5 * ((mn) * (mn) + (mt) * (mt)) / (r)))
/* (3) speed of sound a = √(γp/ρ). */
#define euler_a(r,p)         (sqrt(CFG_GAMMA * (p) / (r)))
/* (4) normal-momentum flux ρu_n² + p. */
#define euler_f_mn(r,mn,p)   ((mn) * (mn) / (r) + (p))
/* (4) tangential-momentum flux ρu_n u_t. */
#define euler_f_mt(r,mn,mt)  ((mn) * (mt) / (r))
/* (4) energy flux u_n(E + p). */
#define euler_f_e(r,mn,e,p)  (((e) + (p)) * (mn) / (r))
