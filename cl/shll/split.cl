/* Interface fluxes (docs/method/shll.md §4): the SHLL split (eq. 9), HLL and Rusanov with
 * Davis wave speeds, per component. Twins: src/methods/shll/split.rs. Needs CFG_D (the
 * dissipation coefficient) and CFG_CLAMP_CHI (1: χ clamped to [−1, 1], spec §3.3). */

/* (8) x clamped to [−1, 1]: ±1 with x's sign where |x| > 1, else x (a NaN stays NaN, −0
 * stays −0). One comparison and a sign copy: fmin and fmax cost a NaN-aware selection each
 * on NVIDIA, two comparisons two branches and their constants. */
#define shll_clamp1(x)          (fabs(x) > 1.0 ? copysign(1.0, (x)) : (x))
/* (8) critical number χ = u_n/a = u_n·(1/a), clamped to [−1, 1] by default; 0 where a = 0
 * (dry). A product with the reciprocal, so a cell's χ_x and χ_y share one division. */
#define shll_chi(un,a)          ((a) > 0.0 ? (CFG_CLAMP_CHI ? shll_clamp1((un) * (1.0 / (a))) : (un) * (1.0 / (a))) : 0.0)
/* (9) D·x; exactly x when D = 1 (x·1 = x in IEEE arithmetic), which compilers keep as a product. */
#define shll_d(x)               (CFG_D == 1.0 ? (x) : CFG_D * (x))
/* (9) SHLL split flux toward the + side: ½[(1 + Dχ)F + D a (1 − χ²) U]. */
#define shll_plus(q,f,a,chi)    (0.5 * ((1.0 + shll_d(chi)) * (f) + shll_d(a) * (1.0 - (chi) * (chi)) * (q)))
/* (9) SHLL split flux toward the − side: ½[(1 − Dχ)F − D a (1 − χ²) U]. */
#define shll_minus(q,f,a,chi)   (0.5 * ((1.0 - shll_d(chi)) * (f) - shll_d(a) * (1.0 - (chi) * (chi)) * (q)))
/* (10) Davis estimate of the left wave speed. */
#define hll_sl(ul,al,ur,ar)     (fmin((ul) - (al), (ur) - (ar)))
/* (10) Davis estimate of the right wave speed. */
#define hll_sr(ul,al,ur,ar)     (fmax((ul) + (al), (ur) + (ar)))
/* (11) HLL flux, all three branches. */
#define hll_flux(ql,qr,fl,fr,sl,sr) ((sl) >= 0.0 ? (fl) : ((sr) <= 0.0 ? (fr) : ((sr) * (fl) - (sl) * (fr) + (sl) * (sr) * ((qr) - (ql))) / ((sr) - (sl))))
/* (12) Rusanov speed max(|u_L| + a_L, |u_R| + a_R). */
#define rusanov_s(ul,al,ur,ar)  (fmax(fabs(ul) + (al), fabs(ur) + (ar)))
/* (12) Rusanov (local Lax–Friedrichs) flux. */
#define rusanov_flux(ql,qr,fl,fr,s) (0.5 * ((fl) + (fr)) - 0.5 * (s) * ((qr) - (ql)))
