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
use super::quadrature;

/// Relative tolerance of Newton's iteration for p*: stop when |Δp| ≤ `P_TOL` · p.
pub const P_TOL: f64 = 1e-14;
/// Iteration bound of Newton's iteration for p* (it takes 2–6 on Toro's tests).
pub const P_MAX_ITER: usize = 100;

/// Primitive state (density ρ, velocity u, pressure p) of the 1D Euler equations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prim {
    /// Density ρ.
    pub rho: f64,
    /// Velocity u.
    pub u: f64,
    /// Pressure p.
    pub p: f64,
}

/// Conserved state (ρ, ρu, E) of the 1D Euler equations, E = p/(γ−1) + ½ρu² per unit volume.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cons {
    /// Density ρ.
    pub rho: f64,
    /// Momentum ρu.
    pub mom: f64,
    /// Total energy E per unit volume.
    pub energy: f64,
}

impl Prim {
    /// The state (ρ, u, p).
    pub const fn new(rho: f64, u: f64, p: f64) -> Self {
        Prim { rho, u, p }
    }

    /// The vacuum state ρ = u = p = 0.
    pub const VACUUM: Prim = Prim::new(0.0, 0.0, 0.0);

    /// True for vacuum (ρ = 0).
    pub fn is_vacuum(&self) -> bool {
        self.rho == 0.0
    }

    /// Sound speed a = √(γp/ρ) (0 in vacuum).
    pub fn sound_speed(&self, gamma: f64) -> f64 {
        if self.rho > 0.0 {
            (gamma * self.p / self.rho).sqrt()
        } else {
            0.0
        }
    }

    /// Conserved variables (ρ, ρu, p/(γ−1) + ½ρu²).
    pub fn to_cons(&self, gamma: f64) -> Cons {
        Cons {
            rho: self.rho,
            mom: self.rho * self.u,
            energy: self.p / (gamma - 1.0) + 0.5 * self.rho * self.u * self.u,
        }
    }

    /// Physical flux F(W) = (ρu, ρu² + p, u(E + p)).
    pub fn flux(&self, gamma: f64) -> Cons {
        let e = self.to_cons(gamma).energy;
        Cons {
            rho: self.rho * self.u,
            mom: self.rho * self.u * self.u + self.p,
            energy: self.u * (e + self.p),
        }
    }
}

impl Cons {
    /// Primitive variables; ρ = 0 gives [`Prim::VACUUM`].
    pub fn to_prim(&self, gamma: f64) -> Prim {
        if self.rho == 0.0 {
            return Prim::VACUUM;
        }
        let u = self.mom / self.rho;
        Prim::new(
            self.rho,
            u,
            (gamma - 1.0) * (self.energy - 0.5 * self.mom * u),
        )
    }

    fn to_array(self) -> [f64; 3] {
        [self.rho, self.mom, self.energy]
    }

    fn from_array(a: [f64; 3]) -> Self {
        Cons {
            rho: a[0],
            mom: a[1],
            energy: a[2],
        }
    }
}

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

    /// Speeds x/t at which the solution is not smooth (shocks, contact, fan heads and tails,
    /// vacuum fronts), ascending; the quadrature of [`Self::cell_average`] splits at them.
    pub fn breakpoints(&self) -> Vec<f64> {
        let (l, r, g) = (self.left, self.right, self.gamma);
        let (al, ar) = (self.a_left, self.a_right);
        let mut v = match self.pattern {
            Pattern::Waves { star, left, right } => {
                let mut v = vec![star.u];
                match left {
                    WaveKind::Shock => v.push(self.shock_speed_left(star.p)),
                    WaveKind::Rarefaction => {
                        v.push(l.u - al);
                        v.push(star.u - al * (star.p / l.p).powf((g - 1.0) / (2.0 * g)));
                    }
                }
                match right {
                    WaveKind::Shock => v.push(self.shock_speed_right(star.p)),
                    WaveKind::Rarefaction => {
                        v.push(r.u + ar);
                        v.push(star.u + ar * (star.p / r.p).powf((g - 1.0) / (2.0 * g)));
                    }
                }
                v
            }
            Pattern::VacuumRight { front } => vec![l.u - al, front],
            Pattern::VacuumLeft { front } => vec![front, r.u + ar],
            Pattern::VacuumGenerated {
                left_front,
                right_front,
            } => {
                vec![l.u - al, left_front, right_front, r.u + ar]
            }
            Pattern::AllVacuum => vec![],
        };
        v.sort_by(f64::total_cmp);
        v
    }

    /// Left shock speed S_L = u_L − a_L √((γ+1)/(2γ)·p*/p_L + (γ−1)/(2γ)), Toro §4.4.
    fn shock_speed_left(&self, p: f64) -> f64 {
        let g = self.gamma;
        let q = ((g + 1.0) / (2.0 * g) * p / self.left.p + (g - 1.0) / (2.0 * g)).sqrt();
        self.left.u - self.a_left * q
    }

    /// Right shock speed S_R = u_R + a_R √(…), Toro §4.4.
    fn shock_speed_right(&self, p: f64) -> f64 {
        let g = self.gamma;
        let q = ((g + 1.0) / (2.0 * g) * p / self.right.p + (g - 1.0) / (2.0 * g)).sqrt();
        self.right.u + self.a_right * q
    }

    /// State inside the left fan at x/t = ξ, Toro §4.4; the base is clamped at 0 so that
    /// round-off at a vacuum front cannot give NaN.
    fn left_fan(&self, xi: f64) -> Prim {
        let (l, a, g) = (self.left, self.a_left, self.gamma);
        let base = (2.0 / (g + 1.0) + (g - 1.0) / ((g + 1.0) * a) * (l.u - xi)).max(0.0);
        Prim::new(
            l.rho * base.powf(2.0 / (g - 1.0)),
            2.0 / (g + 1.0) * (a + 0.5 * (g - 1.0) * l.u + xi),
            l.p * base.powf(2.0 * g / (g - 1.0)),
        )
    }

    /// State inside the right fan at x/t = ξ, Toro §4.4.
    fn right_fan(&self, xi: f64) -> Prim {
        let (r, a, g) = (self.right, self.a_right, self.gamma);
        let base = (2.0 / (g + 1.0) - (g - 1.0) / ((g + 1.0) * a) * (r.u - xi)).max(0.0);
        Prim::new(
            r.rho * base.powf(2.0 / (g - 1.0)),
            2.0 / (g + 1.0) * (-a + 0.5 * (g - 1.0) * r.u + xi),
            r.p * base.powf(2.0 * g / (g - 1.0)),
        )
    }

    /// Left data, fan or star-left state at ξ ≤ u* (Toro §4.5).
    fn sample_left(&self, xi: f64, star: StarState, kind: WaveKind) -> Prim {
        let (l, g) = (self.left, self.gamma);
        let star_l = Prim::new(star.rho_left, star.u, star.p);
        match kind {
            WaveKind::Shock if xi <= self.shock_speed_left(star.p) => l,
            WaveKind::Shock => star_l,
            WaveKind::Rarefaction => {
                let tail = star.u - self.a_left * (star.p / l.p).powf((g - 1.0) / (2.0 * g));
                if xi <= l.u - self.a_left {
                    l
                } else if xi >= tail {
                    star_l
                } else {
                    self.left_fan(xi)
                }
            }
        }
    }

    /// Right data, fan or star-right state at ξ > u* (Toro §4.5).
    fn sample_right(&self, xi: f64, star: StarState, kind: WaveKind) -> Prim {
        let (r, g) = (self.right, self.gamma);
        let star_r = Prim::new(star.rho_right, star.u, star.p);
        match kind {
            WaveKind::Shock if xi >= self.shock_speed_right(star.p) => r,
            WaveKind::Shock => star_r,
            WaveKind::Rarefaction => {
                let tail = star.u + self.a_right * (star.p / r.p).powf((g - 1.0) / (2.0 * g));
                if xi >= r.u + self.a_right {
                    r
                } else if xi <= tail {
                    star_r
                } else {
                    self.right_fan(xi)
                }
            }
        }
    }

    /// The exact state W at ξ = x/t. At a discontinuity the left-side value is returned, except
    /// at a right-facing wave's exact speed where the right data are returned.
    pub fn sample(&self, xi: f64) -> Prim {
        let (l, r) = (self.left, self.right);
        match self.pattern {
            Pattern::Waves { star, left, right } => {
                if xi <= star.u {
                    self.sample_left(xi, star, left)
                } else {
                    self.sample_right(xi, star, right)
                }
            }
            Pattern::VacuumRight { front } => {
                if xi <= l.u - self.a_left {
                    l
                } else if xi < front {
                    self.left_fan(xi)
                } else {
                    Prim::VACUUM
                }
            }
            Pattern::VacuumLeft { front } => {
                if xi >= r.u + self.a_right {
                    r
                } else if xi > front {
                    self.right_fan(xi)
                } else {
                    Prim::VACUUM
                }
            }
            Pattern::VacuumGenerated {
                left_front,
                right_front,
            } => {
                if xi <= l.u - self.a_left {
                    l
                } else if xi < left_front {
                    self.left_fan(xi)
                } else if xi <= right_front {
                    Prim::VACUUM
                } else if xi < r.u + self.a_right {
                    self.right_fan(xi)
                } else {
                    r
                }
            }
            Pattern::AllVacuum => Prim::VACUUM,
        }
    }

    /// The state at position `x` and time `t` ≥ 0 for a discontinuity initially at `x0`
    /// (the initial data at t = 0, left for x ≤ x0).
    pub fn at(&self, x: f64, t: f64, x0: f64) -> Prim {
        if t > 0.0 {
            self.sample((x - x0) / t)
        } else if x <= x0 {
            self.left
        } else {
            self.right
        }
    }

    /// Average of the conserved variables over the cell [a, b] at time t ≥ 0 (discontinuity
    /// initially at x0): (1/(b−a))∫ₐᵇ U(x, t) dx by 8-point Gauss–Legendre on each smooth piece
    /// between the waves, adaptive to [`quadrature::RTOL`] relative (exact to round-off on
    /// constant states, and inside fans when 2/(γ−1) is an integer ≤ 5, e.g. γ = 1.4).
    pub fn cell_average(&self, a: f64, b: f64, t: f64, x0: f64) -> Result<Cons> {
        super::error::interval("cell [a, b]", a, b)?;
        non_negative("time", t)?;
        finite("x0", x0)?;
        let breaks: Vec<f64> = if t > 0.0 {
            self.breakpoints().iter().map(|s| x0 + s * t).collect()
        } else {
            vec![x0]
        };
        let f = |x: f64| self.at(x, t, x0).to_cons(self.gamma).to_array();
        let i = quadrature::integrate(&f, a, b, &breaks);
        let h = b - a;
        Ok(Cons::from_array([i[0] / h, i[1] / h, i[2] / h]))
    }
}

#[cfg(test)]
#[path = "riemann_tests.rs"]
mod tests;
