/* Shallow water in geopotential form (docs/method/shll.md §3): a state is (phi, mn, mt) =
 * (φ = g h, φu_n, φu_t). Twins: src/methods/shll/shallow_water.rs. Needs CFG_PHI_DRY. */

/* (6) a cell is wet when φ exceeds the dry threshold g·h_dry. */
#define sw_wet(phi)          ((phi) > CFG_PHI_DRY)
/* (6) velocity of a wet cell, m·(1/φ), 0 in a dry one (a cell's two velocities share one
 * division). */
#define sw_vel(phi,m)        sw_vel_of((phi), 1.0 / (phi), (m))
/* (6) sw_vel with the reciprocal ri = 1/φ given (the same operations: a state's velocities share
 * the one division). */
#define sw_vel_of(phi,ri,m)  (sw_wet(phi) ? (m) * (ri) : 0.0)
/* (7) gravity-wave speed a = √φ (0 when φ ≤ 0 or NaN). φ's maximum with 0 by a
 * comparison (fmax costs a NaN-aware selection on NVIDIA and may keep −0). */
#define sw_a(phi)            (sqrt((phi) > 0.0 ? (phi) : 0.0))
/* (5) mass flux φu_n. */
#define sw_f_phi(phi,un)     ((phi) * (un))
/* (5) normal-momentum flux φu_n² + φ²/2 = m_n u_n + φ²/2. */
#define sw_f_mn(phi,mn,un)   ((mn) * (un) + 0.5 * (phi) * (phi))
/* (5) tangential-momentum flux m_t u_n. */
#define sw_f_mt(mt,un)       ((mt) * (un))
