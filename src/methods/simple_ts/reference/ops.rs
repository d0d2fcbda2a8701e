//! Pure scalar fragments shared by every equation: upwind, TVD corrections with the Van Leer
//! limiter, linear and harmonic interpolation, wall slip and jump closed forms. Each has a twin
//! macro in `cl/` with the same name.

/// ε_TVD of spec §2.3 [CHOICE G8]: gradients below this are flat and get no correction.
pub const EPS_TVD: f64 = 1e-12;

/// Van Leer limiter ψ(r) = (r + |r|)/(1 + |r|), spec §2.3.
#[inline(always)]
pub fn van_leer(r: f64) -> f64 {
    (r + r.abs()) / (1.0 + r.abs())
}

/// First-order upwind value at a face between `a` (west/south) and `b`, for a face velocity
/// or mass flux `w`; the mean when `w == 0` (the C++ macro `upwind_rho`), spec §2.3.
#[inline(always)]
pub fn upwind(a: f64, b: f64, w: f64) -> f64 {
    if w > 0.0 {
        a
    } else if w < 0.0 {
        b
    } else {
        0.5 * (a + b)
    }
}

/// TVD_s (spec §2.3): correction to the upwind value at the face between cell centres 2 and 3
/// of cell-centred values φ1..φ4 with cell widths h1..h4, for face velocity/flux `w`.
///
/// ```text
///   | φ1 | φ2 | φ3 | φ4 |        face between φ2 and φ3
///    h1   h2 ^ h3   h4
/// ```
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn tvd_s(
    p1: f64,
    p2: f64,
    p3: f64,
    p4: f64,
    h1: f64,
    h2: f64,
    h3: f64,
    h4: f64,
    w: f64,
) -> f64 {
    let d = p3 - p2;
    if d.abs() / (0.5 * (h2 + h3)) <= EPS_TVD {
        return 0.0;
    }
    if w > 0.0 {
        let r = (p2 - p1) / d * (h2 + h3) / (h1 + h2);
        van_leer(r) * d * h2 / (h2 + h3)
    } else if w < 0.0 {
        let r = (p4 - p3) / d * (h2 + h3) / (h3 + h4);
        van_leer(r) * (-d) * h3 / (h2 + h3)
    } else {
        0.0
    }
}

/// TVD_c (spec §2.3 [CHOICE/D]): correction for face-centred values φ1..φ4 (u along x or v
/// along y) at the cell centre midway between φ2 and φ3; d1..d3 are the node spacings.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub fn tvd_c(p1: f64, p2: f64, p3: f64, p4: f64, d1: f64, d2: f64, d3: f64, w: f64) -> f64 {
    let d = p3 - p2;
    if d.abs() / d2 <= EPS_TVD {
        return 0.0;
    }
    if w > 0.0 {
        let r = ((p2 - p1) / d1) / (d / d2);
        0.5 * van_leer(r) * d
    } else if w < 0.0 {
        let r = ((p4 - p3) / d3) / (d / d2);
        0.5 * van_leer(r) * (-d)
    } else {
        0.0
    }
}

/// Li(f1, f2; h1, h2): linear interpolation to the face between cells of widths h1 and h2
/// (spec §2.4, eq. (19)).
#[inline(always)]
pub fn li(f1: f64, f2: f64, h1: f64, h2: f64) -> f64 {
    (f1 * h2 + f2 * h1) / (h1 + h2)
}

/// Hi(f1, f2; h1, h2): distance-weighted harmonic mean (series resistance), eq. (27).
#[inline(always)]
pub fn hi(f1: f64, f2: f64, h1: f64, h2: f64) -> f64 {
    (h1 + h2) * f1 * f2 / (h1 * f2 + h2 * f1)
}

/// Discrete velocity slip (42) at half-cell distance `half_h` from the wall: the wall gas
/// velocity from the adjacent fluid value `u1`, wall velocity `uw`, face density `rho_f`,
/// σ_u and Kn (local Kn = Kn/ρ):  u_s − u_w = σ_u (Kn/ρ) (u1 − u_s)/half_h.
#[inline(always)]
pub fn slip(u1: f64, uw: f64, rho_f: f64, half_h: f64, sigma_u: f64, kn: f64) -> f64 {
    let a = sigma_u * kn / (rho_f * half_h);
    (a * u1 + uw) / (1.0 + a)
}

/// Discrete temperature jump (43): T_s − T_w = σ_T (Kn/ρ) (T1 − T_s)/half_h.
#[inline(always)]
pub fn jump(t1: f64, tw: f64, rho: f64, half_h: f64, sigma_t: f64, kn: f64) -> f64 {
    let a = sigma_t * kn / (rho * half_h);
    (a * t1 + tw) / (1.0 + a)
}

/// Equation of state ρ = p/T (non-dimensional, spec §1.2).
#[inline(always)]
pub fn rho_eos(p: f64, t: f64) -> f64 {
    p / t
}

/// Γ = √T, the hard-sphere viscosity and conductivity factor (39)(40).
#[inline(always)]
pub fn gam_eos(t: f64) -> f64 {
    t.sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn van_leer_limiter() {
        assert_eq!(van_leer(-3.0), 0.0); // r < 0: first order
        assert_eq!(van_leer(0.0), 0.0);
        assert_eq!(van_leer(1.0), 1.0); // smooth: the linear value
        assert!((van_leer(3.0) - 1.5).abs() < 1e-15);
        assert!(van_leer(1e12) < 2.0 && van_leer(1e12) > 1.99); // bounded by 2
                                                                // symmetry ψ(r)/r = ψ(1/r)
        for r in [0.3, 2.0, 7.5] {
            assert!((van_leer(r) / r - van_leer(1.0 / r)).abs() < 1e-15);
        }
    }

    #[test]
    fn upwind_picks_upstream_and_averages_at_rest() {
        assert_eq!(upwind(1.0, 2.0, 0.5), 1.0);
        assert_eq!(upwind(1.0, 2.0, -0.5), 2.0);
        assert_eq!(upwind(1.0, 2.0, 0.0), 1.5);
    }

    #[test]
    fn tvd_s_uniform_linear_data_gives_the_face_value() {
        // On a uniform grid, linear data: r = 1, ψ = 1 → face value is the exact midpoint.
        let (p1, p2, p3, p4) = (1.0, 2.0, 3.0, 4.0);
        let c = tvd_s(p1, p2, p3, p4, 1.0, 1.0, 1.0, 1.0, 1.0);
        assert!((upwind(p2, p3, 1.0) + c - 2.5).abs() < 1e-15);
        let c = tvd_s(p1, p2, p3, p4, 1.0, 1.0, 1.0, 1.0, -1.0);
        assert!((upwind(p2, p3, -1.0) + c - 2.5).abs() < 1e-15);
    }

    #[test]
    fn tvd_s_non_uniform_linear_data_is_exact() {
        // φ = x at cell centres of widths 1, 2, 0.5, 1: centres 0.5, 2, 3.25, 4; face at 3.
        let h = [1.0, 2.0, 0.5, 1.0];
        let (p1, p2, p3, p4) = (0.5, 2.0, 3.25, 4.0);
        let cp = tvd_s(p1, p2, p3, p4, h[0], h[1], h[2], h[3], 1.0);
        assert!((p2 + cp - 3.0).abs() < 1e-14, "{}", p2 + cp);
        let cm = tvd_s(p1, p2, p3, p4, h[0], h[1], h[2], h[3], -1.0);
        assert!((p3 + cm - 3.0).abs() < 1e-14, "{}", p3 + cm);
    }

    #[test]
    fn tvd_s_extremum_and_flat_regions_fall_back_to_upwind() {
        // Local maximum at φ2 (r < 0): no correction.
        assert_eq!(tvd_s(1.0, 3.0, 2.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0), 0.0);
        // Flat between φ2 and φ3: no correction (and no division by zero).
        assert_eq!(tvd_s(1.0, 2.0, 2.0, 5.0, 1.0, 1.0, 1.0, 1.0, 1.0), 0.0);
        assert_eq!(
            tvd_s(1.0, 2.0, 2.0 + 1e-14, 5.0, 1.0, 1.0, 1.0, 1.0, -1.0),
            0.0
        );
        // Zero velocity: no correction.
        assert_eq!(tvd_s(1.0, 2.0, 3.0, 4.0, 1.0, 1.0, 1.0, 1.0, 0.0), 0.0);
    }

    #[test]
    fn tvd_c_matches_tvd_s_on_uniform_grids() {
        let v = [0.3, 1.1, 1.7, 4.0];
        for w in [1.0, -1.0] {
            let a = tvd_c(v[0], v[1], v[2], v[3], 0.2, 0.2, 0.2, w);
            let b = tvd_s(v[0], v[1], v[2], v[3], 0.2, 0.2, 0.2, 0.2, w);
            assert!((a - b).abs() < 1e-15);
        }
        assert_eq!(tvd_c(0.0, 1.0, 0.5, 0.0, 1.0, 1.0, 1.0, 1.0), 0.0); // r < 0
    }

    #[test]
    fn interpolations() {
        assert!((li(1.0, 3.0, 1.0, 1.0) - 2.0).abs() < 1e-15);
        // face at distance h1/2 from centre 1 and h2/2 from centre 2
        assert!((li(0.0, 1.0, 1.0, 3.0) - 0.25).abs() < 1e-15);
        assert!((hi(2.0, 2.0, 1.0, 5.0) - 2.0).abs() < 1e-15);
        // series resistance: (h1+h2)/(h1/f1 + h2/f2)
        assert!((hi(1.0, 4.0, 1.0, 3.0) - 4.0 / (1.0 + 0.75)).abs() < 1e-15);
    }

    #[test]
    fn slip_and_jump_closed_forms() {
        // Kn = 0: no slip.
        assert_eq!(slip(0.7, 0.2, 1.0, 0.05, 1.1466, 0.0), 0.2);
        // The closed form satisfies the discrete (42) exactly.
        let (u1, uw, rho, hh, s, kn) = (0.7, 0.2, 0.8, 0.05, 1.1466, 0.05);
        let us = slip(u1, uw, rho, hh, s, kn);
        assert!(((us - uw) - s * kn / rho * (u1 - us) / hh).abs() < 1e-15);
        let ts = jump(1.3, 1.0, rho, hh, 2.1904, kn);
        assert!(((ts - 1.0) - 2.1904 * kn / rho * (1.3 - ts) / hh).abs() < 1e-15);
        // Large Kn: the gas value tends to the fluid value (free molecular limit of the model).
        assert!((slip(0.7, 0.2, 1.0, 0.05, 1.1466, 1e9) - 0.7).abs() < 1e-9);
    }
}
