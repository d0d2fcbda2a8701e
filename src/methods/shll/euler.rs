//! Euler equations in a face frame (docs/method/shll.md §2): a state is (r, mn, mt, e) = (ρ,
//! normal momentum, tangential momentum, total energy per unit volume), with its one
//! reciprocal ri = 1/ρ and the velocities un = mn·ri, ut = mt·ri computed once per state (one
//! division; the fluxes and the sound speed are then products). Twins of `cl/shll/euler.cl`
//! (same names, same operation order; `gamma` is `CFG_GAMMA`).

/// (2) pressure of an ideal gas, p = (γ−1)(E − ½(m_n u_n + m_t u_t)).
pub fn euler_p(gamma: f64, mn: f64, mt: f64, un: f64, ut: f64, e: f64) -> f64 {
    (gamma - 1.0) * (e - 0.5 * (mn * un + mt * ut))
}

/// (3) speed of sound a = √(γp/ρ) = √(γ·p·ri), from the state's reciprocal ri = 1/ρ.
pub fn euler_a(gamma: f64, ri: f64, p: f64) -> f64 {
    (gamma * p * ri).sqrt()
}

/// (4) normal-momentum flux m_n u_n + p.
pub fn euler_f_mn(mn: f64, un: f64, p: f64) -> f64 {
    mn * un + p
}

/// (4) tangential-momentum flux m_t u_n.
pub fn euler_f_mt(mt: f64, un: f64) -> f64 {
    mt * un
}

/// (4) energy flux (E + p) u_n.
pub fn euler_f_e(e: f64, p: f64, un: f64) -> f64 {
    (e + p) * un
}
