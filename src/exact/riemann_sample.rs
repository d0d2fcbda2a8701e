//! Sampling of the exact Euler Riemann solution (Toro §4.4–4.6): wave speeds, fans, the state at
//! x/t, and cell averages.

use super::super::error::{finite, interval, non_negative, Result};
use super::super::quadrature;
use super::{Cons, Pattern, Prim, RiemannSolution, StarState, WaveKind};

impl RiemannSolution {
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
    /// constant states, and inside fans when n = 2/(γ−1) is an integer ≤ 13, the fan then being
    /// polynomial of degree ≤ n + 2 in x; γ = 1.4 gives n = 5).
    pub fn cell_average(&self, a: f64, b: f64, t: f64, x0: f64) -> Result<Cons> {
        interval("cell [a, b]", a, b)?;
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
