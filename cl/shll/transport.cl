/* Convection–diffusion of a scalar (docs/method/shll.md §6): advection through the SHLL
 * split with a numerical speed a ≥ |c|, central diffusion. Twins:
 * src/methods/shll/transport.rs. Needs CFG_NU. */

/* (16) diffusive flux −ν(q_+ − q)/h at the face between q and its + neighbour qp. */
#define cd_diff_flux(q,qp,h)    (-CFG_NU * ((qp) - (q)) / (h))
/* (17) explicit stability rate of one axis: a/h + 2ν/h². */
#define cd_rate(a,h)            ((a) / (h) + 2.0 * CFG_NU / ((h) * (h)))
