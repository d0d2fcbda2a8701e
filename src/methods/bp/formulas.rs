//! The per-node, per-face and per-cell formulas of one Brandvik–Pullan step (seed 001 §4),
//! the twins of `cl/bp/formulas.cl` (same names, same operations in the same order; `gamma`
//! is `CFG_GAMMA`, `cfl` is `CFG_CFL`, `sf` is `CFG_SF`, `rho0` is `CFG_RHO0`). With FP
//! contraction off on the device, both sides round every operation alike, so the OpenCL
//! backend is bit-identical to the reference.

/// §4.1 velocity component m/ρ (u = ρu/ρ, v = ρv/ρ).
pub fn bp_vel(r: f64, m: f64) -> f64 {
    m / r
}

/// §4.1 pressure of a calorically perfect gas, p = (γ − 1)(ρE − ½ρ(u² + v²)).
pub fn bp_p(gamma: f64, r: f64, e: f64, u: f64, v: f64) -> f64 {
    (gamma - 1.0) * (e - 0.5 * r * (u * u + v * v))
}

/// §4.1 stagnation enthalpy H = (ρE + p)/ρ.
pub fn bp_h(r: f64, e: f64, p: f64) -> f64 {
    (e + p) / r
}

/// §4.2 mass flux through a face of nodes a, b: mul·((ρu_a + ρu_b)dl_x + (ρv_a + ρv_b)dl_y).
pub fn bp_mass(mul: f64, rua: f64, rub: f64, rva: f64, rvb: f64, dlx: f64, dly: f64) -> f64 {
    mul * ((rua + rub) * dlx + (rva + rvb) * dly)
}

/// §4.2 momentum flux of one component: ½(ṁ(u_a + u_b) + (p_a + p_b)dl), `pp` = p_a + p_b.
pub fn bp_fmom(m: f64, ua: f64, ub: f64, pp: f64, dl: f64) -> f64 {
    0.5 * (m * (ua + ub) + pp * dl)
}

/// §4.2 energy flux ½ṁ(H_a + H_b).
pub fn bp_fe(m: f64, ha: f64, hb: f64) -> f64 {
    0.5 * m * (ha + hb)
}

/// §4.3 the signal speed of a node, |v| + a = √(u² + v²) + √(γp/ρ) (written with `sqrt`,
/// which OpenCL rounds correctly, where `hypot` may differ by an ulp between libraries).
pub fn bp_speed(gamma: f64, r: f64, u: f64, v: f64, p: f64) -> f64 {
    (u * u + v * v).sqrt() + (gamma * p / r).sqrt()
}

/// §4.3 the local time step over the area, CFL·d_min/s/A.
pub fn bp_rate(cfl: f64, dmin: f64, s: f64, area: f64) -> f64 {
    cfl * dmin / s / area
}

/// §4.3 the change of one component of a cell from its four face fluxes: i-faces `a` (left),
/// `b` (right), j-faces `d` (bottom), `u` (top).
pub fn bp_change(r: f64, a: f64, b: f64, d: f64, u: f64) -> f64 {
    r * ((a - b) + (d - u))
}

/// §4.4 SCREE: the change applied, 2Δⁿ − Δⁿ⁻¹.
pub fn bp_scree(dn: f64, old: f64) -> f64 {
    2.0 * dn - old
}

/// §4.5 a node plus ¼ of the changes of its four table cells.
pub fn bp_sum(w: f64, c0: f64, c1: f64, c2: f64, c3: f64) -> f64 {
    w + 0.25 * ((c0 + c1) + (c2 + c3))
}

/// §4.6 the smoothing average of a node's four table nodes with their weights.
#[allow(clippy::too_many_arguments)]
pub fn bp_avg(w0: f64, w1: f64, w2: f64, w3: f64, u0: f64, u1: f64, u2: f64, u3: f64) -> f64 {
    w0 * u0 + w1 * u1 + w2 * u2 + w3 * u3
}

/// §4.6 the smoothed value (1 − SF)U + SF·Ū.
pub fn bp_blend(sf: f64, u: f64, avg: f64) -> f64 {
    (1.0 - sf) * u + sf * avg
}

/// §4.8 a node's contribution to the residual, |ρⁿ⁺¹ − ρⁿ|/ρ0.
pub fn bp_res(rho0: f64, new: f64, before: f64) -> f64 {
    (new - before).abs() / rho0
}

/// A state the scheme can go on from: ρ > 0 and p > 0 (false for NaN).
pub fn bp_admissible(r: f64, p: f64) -> bool {
    r > 0.0 && p > 0.0
}
