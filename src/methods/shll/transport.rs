//! Convection–diffusion of a scalar (docs/method/shll.md §6): advection through the SHLL split
//! with a numerical speed a ≥ |c|, central diffusion. Twins of `cl/shll/transport.cl` (`nu`
//! is `CFG_NU`).

/// (16) diffusive flux −ν(q_+ − q)/h at the face between q and its + neighbour qp.
pub fn cd_diff_flux(nu: f64, q: f64, qp: f64, h: f64) -> f64 {
    -nu * (qp - q) / h
}

/// (17) explicit stability rate of one axis: a/h + 2ν/h².
pub fn cd_rate(nu: f64, a: f64, h: f64) -> f64 {
    a / h + 2.0 * nu / (h * h)
}
