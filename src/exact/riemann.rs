//! Exact solution of the Riemann problem for the 1D Euler equations of an ideal (polytropic) gas,
//! after Toro, *Riemann Solvers and Numerical Methods for Fluid Dynamics*, 3rd ed. (2009), ch. 4:
//! the pressure function and star velocity of §4.2, Newton's iteration for p* from the adaptive
//! initial guess of §4.3 (routine GUESSP of the program in §4.9), the star densities, wave speeds
//! and fans of §4.4, the sampling of the self-similar solution W(x/t) of §4.5, and the vacuum
//! cases of §4.6 (left or right vacuum state, and vacuum generated when
//! u_R − u_L ≥ 2(a_L + a_R)/(γ − 1), the pressure-positivity condition).
//!
//! Units are those of the input (any consistent set, or nondimensional): ρ, u, p, and γ
//! dimensionless. In vacuum ρ = p = 0 and the velocity is undefined; [`RiemannSolution::sample`]
//! returns u = 0 there, so compare conserved variables or mask vacuum cells.

use super::error::{check_gamma, finite, non_negative, ExactError, Result};
pub use super::euler1d::{Cons, Prim};

/// Relative tolerance of Newton's iteration for p*: stop when |Δp| ≤ `P_TOL` · p.
pub const P_TOL: f64 = 1e-14;
/// Iteration bound of Newton's iteration for p* (it takes 2–6 on Toro's tests, and at most 65
/// on 20 000 random states with ρ, p in [1e-6, 1e6], |u| ≤ 10, γ in [1.01, 3.01]).
pub const P_MAX_ITER: usize = 200;

/// Kind of a nonlinear wave (the 1- or 3-wave) of a Riemann solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WaveKind {
    /// Shock (p* > p_K).
    Shock,
    /// Rarefaction fan (p* ≤ p_K).
    Rarefaction,
}

/// The star region between the 1- and 3-waves: p*, u* and the densities either side of the
/// contact.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StarState {
    /// Star pressure p*.
    pub p: f64,
    /// Star velocity u* (the contact speed).
    pub u: f64,
    /// Density ρ*L between the left wave and the contact.
    pub rho_left: f64,
    /// Density ρ*R between the contact and the right wave.
    pub rho_right: f64,
}

/// Wave pattern of a Riemann solution (Toro §4.1 and §4.6).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pattern {
    /// No vacuum: left wave, contact, right wave around a star region.
    Waves {
        /// The star region.
        star: StarState,
        /// The 1-wave.
        left: WaveKind,
        /// The 3-wave.
        right: WaveKind,
    },
    /// Right state is vacuum: a left rarefaction whose tail, the vacuum front, moves at
    /// S*L = u_L + 2a_L/(γ−1), Toro §4.6.
    VacuumRight {
        /// Speed of the vacuum front.
        front: f64,
    },
    /// Left state is vacuum: a right rarefaction with front S*R = u_R − 2a_R/(γ−1), Toro §4.6.
    VacuumLeft {
        /// Speed of the vacuum front.
        front: f64,
    },
    /// Vacuum generated between two rarefactions, Toro §4.6.3: vacuum for S*L < x/t < S*R.
    VacuumGenerated {
        /// S*L = u_L + 2a_L/(γ−1).
        left_front: f64,
        /// S*R = u_R − 2a_R/(γ−1).
        right_front: f64,
    },
    /// Both states are vacuum: vacuum everywhere.
    AllVacuum,
}

/// Exact self-similar solution W(x/t) of one Riemann problem, from [`solve`].
#[derive(Debug, Clone, PartialEq)]
pub struct RiemannSolution {
    left: Prim,
    right: Prim,
    gamma: f64,
    a_left: f64,
    a_right: f64,
    pattern: Pattern,
    iterations: usize,
}

/// Toro's pressure function f_K(p) of state K and its derivative (§4.2, §4.3):
/// shock branch for p > p_K, rarefaction branch for p ≤ p_K. `a` is the sound speed of K.
pub fn pressure_function(p: f64, k: Prim, a: f64, gamma: f64) -> (f64, f64) {
    if p > k.p {
        let ak = 2.0 / ((gamma + 1.0) * k.rho);
        let bk = (gamma - 1.0) / (gamma + 1.0) * k.p;
        let q = (ak / (p + bk)).sqrt();
        ((p - k.p) * q, q * (1.0 - 0.5 * (p - k.p) / (bk + p)))
    } else {
        let r = p / k.p;
        let e = (gamma - 1.0) / (2.0 * gamma);
        (
            2.0 * a / (gamma - 1.0) * (r.powf(e) - 1.0),
            r.powf(-(gamma + 1.0) / (2.0 * gamma)) / (k.rho * a),
        )
    }
}

/// Toro's adaptive initial guess for p* (§4.3, routine GUESSP of §4.9 with Q_user = 2): the
/// PVRS value if p_max/p_min ≤ 2 and it lies in [p_min, p_max]; else the two-rarefaction value
/// if it is below p_min; else the two-shock value with the PVRS estimate.
fn initial_guess(l: Prim, r: Prim, al: f64, ar: f64, g: f64) -> f64 {
    let cup = 0.25 * (l.rho + r.rho) * (al + ar);
    let ppv = (0.5 * (l.p + r.p) + 0.5 * (l.u - r.u) * cup).max(0.0);
    let (pmin, pmax) = (l.p.min(r.p), l.p.max(r.p));
    if pmax / pmin <= 2.0 && (pmin..=pmax).contains(&ppv) {
        ppv
    } else if ppv < pmin {
        let z = (g - 1.0) / (2.0 * g);
        let pq = (l.p / r.p).powf(z);
        let um = (pq * l.u / al + r.u / ar + 2.0 / (g - 1.0) * (pq - 1.0)) / (pq / al + 1.0 / ar);
        let ptl = 1.0 + 0.5 * (g - 1.0) * (l.u - um) / al;
        let ptr = 1.0 + 0.5 * (g - 1.0) * (um - r.u) / ar;
        0.5 * (l.p * ptl.powf(1.0 / z) + r.p * ptr.powf(1.0 / z))
    } else {
        let gk = |k: Prim| (2.0 / ((g + 1.0) * k.rho) / ((g - 1.0) / (g + 1.0) * k.p + ppv)).sqrt();
        let (gl, gr) = (gk(l), gk(r));
        (gl * l.p + gr * r.p - (r.u - l.u)) / (gl + gr)
    }
}

fn check_state(side: &'static str, s: Prim) -> Result<()> {
    non_negative(
        if side == "left" {
            "left density"
        } else {
            "right density"
        },
        s.rho,
    )?;
    non_negative(
        if side == "left" {
            "left pressure"
        } else {
            "right pressure"
        },
        s.p,
    )?;
    finite(
        if side == "left" {
            "left velocity"
        } else {
            "right velocity"
        },
        s.u,
    )?;
    if (s.rho == 0.0) != (s.p == 0.0) {
        return Err(ExactError::InconsistentState {
            side,
            rho: s.rho,
            p: s.p,
        });
    }
    Ok(())
}

/// Solves the Riemann problem with data `left` (x < x0) and `right` (x > x0) for ratio of specific
/// heats `gamma`. A gas state needs ρ > 0, p > 0; vacuum is ρ = p = 0. p* is found by
/// safeguarded Newton iteration (Toro §4.3, kept inside a bracket of the monotone pressure
/// function) to |Δp| ≤ [`P_TOL`]·p within [`P_MAX_ITER`] iterations.
pub fn solve(left: Prim, right: Prim, gamma: f64) -> Result<RiemannSolution> {
    check_gamma(gamma)?;
    check_state("left", left)?;
    check_state("right", right)?;
    let (al, ar) = (left.sound_speed(gamma), right.sound_speed(gamma));
    let g4 = 2.0 / (gamma - 1.0);
    let mut sol = RiemannSolution {
        left,
        right,
        gamma,
        a_left: al,
        a_right: ar,
        pattern: Pattern::AllVacuum,
        iterations: 0,
    };
    sol.pattern = match (left.is_vacuum(), right.is_vacuum()) {
        (true, true) => Pattern::AllVacuum,
        (false, true) => Pattern::VacuumRight {
            front: left.u + g4 * al,
        },
        (true, false) => Pattern::VacuumLeft {
            front: right.u - g4 * ar,
        },
        (false, false) if g4 * (al + ar) <= right.u - left.u => Pattern::VacuumGenerated {
            left_front: left.u + g4 * al,
            right_front: right.u - g4 * ar,
        },
        (false, false) => {
            let (p, iterations) = star_pressure(left, right, al, ar, gamma)?;
            sol.iterations = iterations;
            let (fl, _) = pressure_function(p, left, al, gamma);
            let (fr, _) = pressure_function(p, right, ar, gamma);
            let u = 0.5 * (left.u + right.u) + 0.5 * (fr - fl);
            let star_rho = |k: Prim| {
                let r = p / k.p;
                if p > k.p {
                    let g6 = (gamma - 1.0) / (gamma + 1.0);
                    k.rho * (r + g6) / (g6 * r + 1.0)
                } else {
                    k.rho * r.powf(1.0 / gamma)
                }
            };
            let kind = |k: Prim| {
                if p > k.p {
                    WaveKind::Shock
                } else {
                    WaveKind::Rarefaction
                }
            };
            Pattern::Waves {
                star: StarState {
                    p,
                    u,
                    rho_left: star_rho(left),
                    rho_right: star_rho(right),
                },
                left: kind(left),
                right: kind(right),
            }
        }
    };
    Ok(sol)
}

/// Newton's iteration for p* with bracket [lo, hi]: f(0) < 0 when no vacuum forms, and f is
/// increasing and concave, so the bracket only guards against overshoot to p ≤ 0.
fn star_pressure(l: Prim, r: Prim, al: f64, ar: f64, g: f64) -> Result<(f64, usize)> {
    let f = |p: f64| {
        let (fl, dl) = pressure_function(p, l, al, g);
        let (fr, dr) = pressure_function(p, r, ar, g);
        (fl + fr + r.u - l.u, dl + dr)
    };
    let (mut lo, mut hi) = (0.0_f64, f64::INFINITY);
    let mut p = initial_guess(l, r, al, ar, g);
    if !(p > 0.0 && p.is_finite()) {
        p = 1e-8 * l.p.min(r.p);
    }
    let mut change = f64::INFINITY;
    for it in 1..=P_MAX_ITER {
        let (fp, dfp) = f(p);
        if fp == 0.0 {
            return Ok((p, it));
        }
        if fp < 0.0 {
            lo = lo.max(p);
        } else {
            hi = hi.min(p);
        }
        let mut next = p - fp / dfp;
        if !(next > lo && next < hi) {
            next = if hi.is_finite() {
                0.5 * (lo + hi)
            } else {
                2.0 * p
            };
        }
        change = (next - p).abs() / next;
        p = next;
        if change <= P_TOL {
            return Ok((p, it));
        }
    }
    Err(ExactError::NoConvergence {
        what: "Newton iteration for the star pressure p*",
        iterations: P_MAX_ITER,
        change,
    })
}

/// `solve(left, right, gamma)` sampled at the points `xs` at time `t` ≥ 0 for a discontinuity
/// initially at `x0`: W((x − x0)/t). At t = 0 it returns the initial data (left for x ≤ x0).
pub fn profile(
    left: Prim,
    right: Prim,
    gamma: f64,
    x0: f64,
    t: f64,
    xs: &[f64],
) -> Result<Vec<Prim>> {
    let sol = solve(left, right, gamma)?;
    non_negative("time", t)?;
    finite("x0", x0)?;
    Ok(xs.iter().map(|&x| sol.at(x, t, x0)).collect())
}

#[path = "riemann_sample.rs"]
mod sample;

impl RiemannSolution {
    /// The left data.
    pub fn left(&self) -> Prim {
        self.left
    }

    /// The right data.
    pub fn right(&self) -> Prim {
        self.right
    }

    /// Ratio of specific heats γ.
    pub fn gamma(&self) -> f64 {
        self.gamma
    }

    /// The wave pattern.
    pub fn pattern(&self) -> Pattern {
        self.pattern
    }

    /// The star region, or `None` if vacuum is present.
    pub fn star(&self) -> Option<StarState> {
        match self.pattern {
            Pattern::Waves { star, .. } => Some(star),
            _ => None,
        }
    }

    /// Newton iterations used for p* (0 when vacuum is present).
    pub fn iterations(&self) -> usize {
        self.iterations
    }
}

#[cfg(test)]
#[path = "riemann_tests.rs"]
mod tests;
