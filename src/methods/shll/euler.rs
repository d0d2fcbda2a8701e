//! Euler equations in a face frame (docs/method/shll.md §2): a state is (r, mn, mt, e) = (ρ,
//! normal momentum, tangential momentum, total energy per unit volume). Twins of
//! `cl/shll/euler.cl` (same names, same operation order; `gamma` is `CFG_GAMMA`).

/// (2) pressure of an ideal gas, p = (γ−1)(E − ½|m|²/ρ).
pub fn euler_p(gamma: f64, r: f64, mn: f64, mt: f64, e: f64) -> f64 {
    (gamma - 1.0) * (e - 0.5 * (mn * mn + mt * mt) / r)
}

/// (3) speed of sound a = √(γp/ρ).
pub fn euler_a(gamma: f64, r: f64, p: f64) -> f64 {
    (gamma * p / r).sqrt()
}

/// (4) normal-momentum flux ρu_n² + p.
pub fn euler_f_mn(r: f64, mn: f64, p: f64) -> f64 {
    mn * mn / r + p
}

/// (4) tangential-momentum flux ρu_n u_t.
pub fn euler_f_mt(r: f64, mn: f64, mt: f64) -> f64 {
    mn * mt / r
}

/// (4) energy flux u_n(E + p).
pub fn euler_f_e(r: f64, mn: f64, e: f64, p: f64) -> f64 {
    (e + p) * mn / r
}
