//! Linear convection, first-order upwind (FTBS for c > 0; docs/method/convection.md). Twins of
//! `cl/convection/ftbs.cl` (same names, same operation order).

/// (2) upwind difference along one axis, ν(q − q_upwind) with the signed Courant number
/// ν = cΔt/h: the backward difference for ν > 0, the forward one for ν ≤ 0.
pub fn ftbs_diff(nu: f64, qm: f64, q: f64, qp: f64) -> f64 {
    if nu > 0.0 {
        nu * (q - qm)
    } else {
        nu * (qp - q)
    }
}

/// (3) the update u − ν_x(…) − ν_y(…) (the seed's operation order).
pub fn ftbs_update(q: f64, ddx: f64, ddy: f64) -> f64 {
    q - ddx - ddy
}
