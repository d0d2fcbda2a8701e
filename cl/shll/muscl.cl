/* MUSCL reconstruction (docs/method/shll.md §5). Twins: src/methods/shll/muscl.rs. Needs
 * CFG_LIMITER (0: minmod, 1: van Leer). */

/* (14) minmod limiter of the one-sided differences a, b. */
#define minmod(a,b)             ((a) * (b) <= 0.0 ? 0.0 : (fabs(a) < fabs(b) ? (a) : (b)))
/* (14) van Leer limiter 2ab/(a + b) where a, b have the same sign. */
#define van_leer(a,b)           ((a) * (b) <= 0.0 ? 0.0 : 2.0 * (a) * (b) / ((a) + (b)))
/* (13) limited slope of a cell from its two neighbours qm, qp. */
#define muscl_slope(qm,q,qp)    (CFG_LIMITER == 1 ? van_leer((q) - (qm), (qp) - (q)) : minmod((q) - (qm), (qp) - (q)))
/* (13) face value at the + (east or north) face. */
#define muscl_plus(q,s)         ((q) + 0.5 * (s))
/* (13) face value at the − (west or south) face. */
#define muscl_minus(q,s)        ((q) - 0.5 * (s))
