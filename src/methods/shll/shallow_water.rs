//! Shallow water in geopotential form (docs/method/shll.md §3): a state is (phi, mn, mt) =
//! (φ = g h, φu_n, φu_t). Twins of `cl/shll/shallow_water.cl` (`phi_dry` is `CFG_PHI_DRY`).

/// (6) a cell is wet when φ exceeds the dry threshold g·h_dry.
pub fn sw_wet(phi_dry: f64, phi: f64) -> bool {
    phi > phi_dry
}

/// (6) velocity of a wet cell, m·(1/φ), 0 in a dry one (as a product with the reciprocal so
/// that a cell's two velocities share one division).
pub fn sw_vel(phi_dry: f64, phi: f64, m: f64) -> f64 {
    sw_vel_of(phi_dry, phi, 1.0 / phi, m)
}

/// (6) [`sw_vel`] with the reciprocal `ri` = 1/φ given (the same operations: a state's two
/// velocities share the one division).
pub fn sw_vel_of(phi_dry: f64, phi: f64, ri: f64, m: f64) -> f64 {
    if sw_wet(phi_dry, phi) {
        m * ri
    } else {
        0.0
    }
}

/// (7) gravity-wave speed a = √φ (0 when φ ≤ 0 or NaN; +0 for φ = −0, where `f64::max`
/// may keep −0): the twin's maximum by a comparison.
pub fn sw_a(phi: f64) -> f64 {
    (if phi > 0.0 { phi } else { 0.0 }).sqrt()
}

/// (5) mass flux φu_n.
pub fn sw_f_phi(phi: f64, un: f64) -> f64 {
    phi * un
}

/// (5) normal-momentum flux m_n u_n + φ²/2.
pub fn sw_f_mn(phi: f64, mn: f64, un: f64) -> f64 {
    mn * un + 0.5 * phi * phi
}

/// (5) tangential-momentum flux m_t u_n.
pub fn sw_f_mt(mt: f64, un: f64) -> f64 {
    mt * un
}
