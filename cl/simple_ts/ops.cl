/* Scalar operators shared by every equation: upwind, TVD corrections with the Van Leer
 * limiter, linear and harmonic interpolation, wall slip and jump closed forms.  spec §2.3.
 * Twins of src/methods/simple_ts/reference/ops.rs: same names, same order, same operation order, so with
 * FP_CONTRACT OFF (cl/common/prelude.cl) each gives the Rust result bit for bit
 * (tests/fragments.rs, ops_match_reference). Pure expressions of their arguments; an
 * argument may be evaluated several times (no side effects anywhere, so the compiler merges
 * the repeats). */

/* ε_TVD of spec §2.3 [CHOICE G8], the value of ops::EPS_TVD (checked by tests/fragments.rs). */
#define EPS_TVD 1e-12

/* Van Leer limiter ψ(r) = (r + |r|)/(1 + |r|), spec §2.3. */
#define van_leer(r)  (((r) + fabs(r)) / (1.0 + fabs(r)))

/* First-order upwind value at a face between a (west/south) and b for face velocity/flux w;
 * the mean when w == 0 (also when w is NaN, as in Rust), spec §2.3. */
#define upwind(a,b,w)  (((w) > 0.0) ? (a) : (((w) < 0.0) ? (b) : (0.5 * ((a) + (b)))))

/* TVD_s (spec §2.3): correction to the upwind value at the face between centres 2 and 3 of
 * cell-centred values p1..p4 with widths h1..h4; 0 where |p3-p2| is flat or w == 0.
 *   | p1 | p2 | p3 | p4 |        face between p2 and p3
 *    h1   h2 ^ h3   h4                                                          */
#define tvd_s(p1,p2,p3,p4,h1,h2,h3,h4,w) \
    ((fabs((p3) - (p2)) / (0.5 * ((h2) + (h3))) <= EPS_TVD) ? 0.0 \
     : ((w) > 0.0) \
       ? (van_leer(((p2) - (p1)) / ((p3) - (p2)) * ((h2) + (h3)) / ((h1) + (h2))) \
          * ((p3) - (p2)) * (h2) / ((h2) + (h3))) \
     : ((w) < 0.0) \
       ? (van_leer(((p4) - (p3)) / ((p3) - (p2)) * ((h2) + (h3)) / ((h3) + (h4))) \
          * (-((p3) - (p2))) * (h3) / ((h2) + (h3))) \
     : 0.0)

/* TVD_c (spec §2.3 [CHOICE/D]): correction for face-centred values p1..p4 at the cell centre
 * midway between p2 and p3; d1..d3 are the node spacings. */
#define tvd_c(p1,p2,p3,p4,d1,d2,d3,w) \
    ((fabs((p3) - (p2)) / (d2) <= EPS_TVD) ? 0.0 \
     : ((w) > 0.0) \
       ? (0.5 * van_leer((((p2) - (p1)) / (d1)) / (((p3) - (p2)) / (d2))) * ((p3) - (p2))) \
     : ((w) < 0.0) \
       ? (0.5 * van_leer((((p4) - (p3)) / (d3)) / (((p3) - (p2)) / (d2))) \
          * (-((p3) - (p2)))) \
     : 0.0)

/* Li(f1, f2; h1, h2): linear interpolation to the face between widths h1 and h2, eq. (19). */
#define li(f1,f2,h1,h2)  (((f1) * (h2) + (f2) * (h1)) / ((h1) + (h2)))

/* Hi(f1, f2; h1, h2): distance-weighted harmonic mean (series resistance), eq. (27). */
#define hi(f1,f2,h1,h2)  (((h1) + (h2)) * (f1) * (f2) / ((h1) * (f2) + (h2) * (f1)))

/* Discrete velocity slip (42): wall gas velocity from fluid value u1, wall velocity uw, face
 * density rho, half-cell distance hh, σ_u and Kn; a = σ_u Kn/(ρ hh), (a u1 + uw)/(1 + a). */
#define slip(u1,uw,rho,hh,sig,kn) \
    (((sig) * (kn) / ((rho) * (hh)) * (u1) + (uw)) / (1.0 + (sig) * (kn) / ((rho) * (hh))))

/* Discrete temperature jump (43): as slip with σ_T; T_s − T_w = σ_T (Kn/ρ) (T1 − T_s)/hh. */
#define jump(t1,tw,rho,hh,sig,kn) \
    (((sig) * (kn) / ((rho) * (hh)) * (t1) + (tw)) / (1.0 + (sig) * (kn) / ((rho) * (hh))))

/* Equation of state ρ = p/T (non-dimensional, spec §1.2): the density every form stores or,
 * with lean storage, computes where it reads it. */
#define rho_eos(p,t)  ((p) / (t))
#if DEV_LEAN
/* ρ = p/T of stored cell c for the lean storage's RHO, RHO_N (fields.cl): one index
 * expression for both reads (see lean_alias); the same division as rho_eos. */
inline real lean_rho(__global const real* pp, __global const real* tt, const int c)
{
    return rho_eos(pp[c], tt[c]);
}
#endif

/* Γ = √T, the hard-sphere viscosity and conductivity factor (39)(40). */
#define gam_eos(t)  (sqrt((t)))

