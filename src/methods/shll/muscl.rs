//! MUSCL reconstruction (docs/method/shll.md §5). Twins of `cl/shll/muscl.cl` (`van_leer_on`
//! is `CFG_LIMITER == 1`).

/// (14) minmod limiter of the one-sided differences a, b.
pub fn minmod(a: f64, b: f64) -> f64 {
    if a * b <= 0.0 {
        0.0
    } else if a.abs() < b.abs() {
        a
    } else {
        b
    }
}

/// (14) van Leer limiter 2ab/(a + b) where a, b have the same sign.
pub fn van_leer(a: f64, b: f64) -> f64 {
    if a * b <= 0.0 {
        0.0
    } else {
        2.0 * a * b / (a + b)
    }
}

/// (13) limited slope of a cell from its two neighbours qm, qp.
pub fn muscl_slope(van_leer_on: bool, qm: f64, q: f64, qp: f64) -> f64 {
    if van_leer_on {
        van_leer(q - qm, qp - q)
    } else {
        minmod(q - qm, qp - q)
    }
}

/// (13) face value at the + (east or north) face.
pub fn muscl_plus(q: f64, s: f64) -> f64 {
    q + 0.5 * s
}

/// (13) face value at the − (west or south) face.
pub fn muscl_minus(q: f64, s: f64) -> f64 {
    q - 0.5 * s
}
