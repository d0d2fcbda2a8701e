//! Named shock-tube (Riemann) problems for the 1D Euler equations, and the moving-shock
//! (Rankine–Hugoniot) relations used to build shock-driven cases (Mach-3 shock, Shu–Osher left
//! state, shock–bubble post-shock state). Nondimensional; γ = 1.4 for all named problems.

use super::error::{check_gamma, positive, ExactError, Result};
use super::riemann::{solve, Prim, RiemannSolution};

/// A Riemann problem with the output time and initial discontinuity of its source, on the
/// domain [0, 1] unless stated; validation cases may place and time it differently.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RiemannProblem {
    /// Short name.
    pub name: &'static str,
    /// State for x < x0.
    pub left: Prim,
    /// State for x > x0.
    pub right: Prim,
    /// Ratio of specific heats.
    pub gamma: f64,
    /// Initial discontinuity position in the source.
    pub x0: f64,
    /// Output time in the source.
    pub t_end: f64,
}

impl RiemannProblem {
    /// The exact solution of this problem.
    pub fn solve(&self) -> Result<RiemannSolution> {
        solve(self.left, self.right, self.gamma)
    }
}

/// Sod's shock tube, (1, 0, 1) | (0.125, 0, 0.1), γ = 1.4; t = 0.2 on [0, 1] (seed 002 §A;
/// seed 000 runs it on [0, 2] with x0 = 1 to t = 0.4).
pub const SOD: RiemannProblem = RiemannProblem {
    name: "sod",
    left: Prim::new(1.0, 0.0, 1.0),
    right: Prim::new(0.125, 0.0, 0.1),
    gamma: 1.4,
    x0: 0.5,
    t_end: 0.2,
};

/// Lax's shock tube, (0.445, 0.698, 3.528) | (0.5, 0, 0.571), γ = 1.4; t = 0.13 on [0, 1]
/// (seed 002 §A).
pub const LAX: RiemannProblem = RiemannProblem {
    name: "lax",
    left: Prim::new(0.445, 0.698, 3.528),
    right: Prim::new(0.5, 0.0, 0.571),
    gamma: 1.4,
    x0: 0.5,
    t_end: 0.13,
};

/// Toro (2009) Table 4.1, tests 1–5, with the output times of his Figs. 4.7–4.11 (x0 = 0.5
/// on [0, 1]). Test 1 is Sod; test 2 the "123" double rarefaction; test 3 the left half of the
/// Woodward–Colella blast wave; test 4 its right half; test 5 the collision of the shocks of 3
/// and 4.
pub const TORO_TESTS: [RiemannProblem; 5] = [
    RiemannProblem {
        name: "toro1",
        left: Prim::new(1.0, 0.0, 1.0),
        right: Prim::new(0.125, 0.0, 0.1),
        gamma: 1.4,
        x0: 0.5,
        t_end: 0.25,
    },
    RiemannProblem {
        name: "toro2_123",
        left: Prim::new(1.0, -2.0, 0.4),
        right: Prim::new(1.0, 2.0, 0.4),
        gamma: 1.4,
        x0: 0.5,
        t_end: 0.15,
    },
    RiemannProblem {
        name: "toro3_strong_left",
        left: Prim::new(1.0, 0.0, 1000.0),
        right: Prim::new(1.0, 0.0, 0.01),
        gamma: 1.4,
        x0: 0.5,
        t_end: 0.012,
    },
    RiemannProblem {
        name: "toro4_strong_right",
        left: Prim::new(1.0, 0.0, 0.01),
        right: Prim::new(1.0, 0.0, 100.0),
        gamma: 1.4,
        x0: 0.5,
        t_end: 0.035,
    },
    RiemannProblem {
        name: "toro5_shock_collision",
        left: Prim::new(5.99924, 19.5975, 460.894),
        right: Prim::new(5.99242, -6.19633, 46.0950),
        gamma: 1.4,
        x0: 0.5,
        t_end: 0.035,
    },
];

/// State behind a shock of Mach number `mach` = (S − u₁)/a₁ > 1 moving to the right into the
/// state `ahead` (for a left-moving shock, mirror u). Normal-shock relations (Toro (3.51)–(3.54),
/// Anderson *Modern Compressible Flow* (3.57), (3.59)):
/// p₂/p₁ = 1 + 2γ/(γ+1)(M² − 1), ρ₂/ρ₁ = (γ+1)M²/((γ−1)M² + 2),
/// u₂ = u₁ + 2a₁/(γ+1)·(M − 1/M). The shock speed is u₁ + M a₁.
pub fn shock_post_state(ahead: Prim, mach: f64, gamma: f64) -> Result<Prim> {
    check_gamma(gamma)?;
    positive("density ahead of the shock", ahead.rho)?;
    positive("pressure ahead of the shock", ahead.p)?;
    positive("shock Mach number - 1", mach - 1.0)?;
    let m2 = mach * mach;
    let a = ahead.sound_speed(gamma);
    Ok(Prim::new(
        ahead.rho * (gamma + 1.0) * m2 / ((gamma - 1.0) * m2 + 2.0),
        ahead.u + 2.0 * a / (gamma + 1.0) * (mach - 1.0 / mach),
        ahead.p * (1.0 + 2.0 * gamma / (gamma + 1.0) * (m2 - 1.0)),
    ))
}

/// Shock Mach number for a pressure ratio p₂/p₁ > 1: M = √(1 + (γ+1)/(2γ)·(p₂/p₁ − 1)),
/// the inverse of the pressure relation of [`shock_post_state`].
pub fn shock_mach_for_pressure_ratio(ratio: f64, gamma: f64) -> Result<f64> {
    check_gamma(gamma)?;
    if !(ratio.is_finite() && ratio > 1.0) {
        return Err(ExactError::Invalid {
            what: "shock pressure ratio",
            reason: "it must be finite and > 1",
        });
    }
    Ok((1.0 + (gamma + 1.0) / (2.0 * gamma) * (ratio - 1.0)).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mach_3_shock_gives_the_shu_osher_left_state() {
        // Shu & Osher (1989): (3.857143, 2.629369, 10.33333) behind a Mach-3 shock into (1, 0, 1).
        let s = shock_post_state(Prim::new(1.0, 0.0, 1.0), 3.0, 1.4).unwrap();
        assert!((s.rho - 3.857143).abs() < 5e-7, "{s:?}");
        assert!((s.u - 2.629369).abs() < 5e-7, "{s:?}");
        assert!((s.p - 10.33333).abs() < 5e-6, "{s:?}");
    }

    #[test]
    fn pressure_ratio_5_gives_the_shock_bubble_state() {
        // Clawpack shock–bubble: p = 5 behind the shock, rho ≈ 2.818, M ≈ 2.10 (seed 002 §5.1).
        let m = shock_mach_for_pressure_ratio(5.0, 1.4).unwrap();
        let s = shock_post_state(Prim::new(1.0, 0.0, 1.0), m, 1.4).unwrap();
        assert!((s.p - 5.0).abs() < 1e-13);
        assert!((s.rho - 2.818).abs() < 5e-4, "{s:?}");
        assert!((m - 2.10).abs() < 5e-3);
        assert!((s.u - 1.6064).abs() < 5e-5, "{s:?}");
    }

    #[test]
    fn post_shock_state_is_a_riemann_solution_with_one_shock() {
        // The Riemann problem (post | ahead) is a single right shock of the given Mach number.
        let ahead = Prim::new(1.0, 0.3, 1.0);
        let post = shock_post_state(ahead, 2.5, 1.4).unwrap();
        let star = solve(post, ahead, 1.4).unwrap().star().unwrap();
        assert!((star.p - post.p).abs() < 1e-13 * post.p);
        assert!((star.u - post.u).abs() < 1e-13);
        assert!((star.rho_left - post.rho).abs() < 1e-12);
        assert!((star.rho_right - post.rho).abs() < 1e-12);
    }

    #[test]
    fn invalid_shock_input_is_refused() {
        assert!(shock_post_state(Prim::new(1.0, 0.0, 1.0), 0.9, 1.4).is_err());
        assert!(shock_post_state(Prim::new(-1.0, 0.0, 1.0), 2.0, 1.4).is_err());
        assert!(shock_mach_for_pressure_ratio(0.5, 1.4).is_err());
        assert!(shock_mach_for_pressure_ratio(2.0, 1.0).is_err());
    }
}
