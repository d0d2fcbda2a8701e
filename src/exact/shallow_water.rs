//! Exact Riemann solver for the 1D shallow-water equations h_t + (hu)_x = 0,
//! (hu)_t + (hu² + ½gh²)_x = 0 over a flat, frictionless bed, after Toro, *Shock-Capturing Methods
//! for Free-Surface Shallow Flows* (2001), ch. 5: the depth function f(h) = f_L + f_R + Δu,
//! Newton's iteration for h* from the two-rarefaction / two-shock guess, and the sampling of
//! shocks, rarefactions and dry-bed fronts (wet/dry fronts at u_L + 2a_L and u_R − 2a_R). The named dam breaks are special cases:
//! **Ritter** (1892, dry bed downstream) and **Stoker** (1957, wet bed, h_L > h_R > 0:
//! rarefaction + hydraulic jump).
//!
//! Units: depth h in m, velocity u in m/s and g in m/s² (or any consistent set). Celerity
//! a = √(gh). The SHLL solver of seed 002 uses the geopotential φ = g h; multiply h by g.
//! In a dry region h = 0 and u is undefined; it is returned as 0.

use super::error::{finite, interval, non_negative, positive, ExactError, Result};
use super::quadrature;
use super::riemann::WaveKind;

/// Relative tolerance of Newton's iteration for h*: stop when |Δh| ≤ `H_TOL` · h.
pub const H_TOL: f64 = 1e-14;
/// Iteration bound of Newton's iteration for h*.
pub const H_MAX_ITER: usize = 200;

/// Shallow-water state: depth h ≥ 0 and velocity u (h = 0 is a dry bed).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SwState {
    /// Water depth h.
    pub h: f64,
    /// Depth-averaged velocity u.
    pub u: f64,
}

impl SwState {
    /// The state (h, u).
    pub const fn new(h: f64, u: f64) -> Self {
        SwState { h, u }
    }

    /// Dry bed.
    pub const DRY: SwState = SwState::new(0.0, 0.0);

    /// Conserved variables (h, hu).
    pub fn to_cons(&self) -> [f64; 2] {
        [self.h, self.h * self.u]
    }

    /// Physical flux (hu, hu² + ½gh²).
    pub fn flux(&self, g: f64) -> [f64; 2] {
        [
            self.h * self.u,
            self.h * self.u * self.u + 0.5 * g * self.h * self.h,
        ]
    }
}

/// Wave pattern of a shallow-water Riemann solution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SwPattern {
    /// Wet star region of depth `h` and velocity `u` between the left and right waves.
    Wet {
        /// Star depth h*.
        h: f64,
        /// Star velocity u*.
        u: f64,
        /// The left wave.
        left: WaveKind,
        /// The right wave.
        right: WaveKind,
    },
    /// Dry bed on the right: a left rarefaction with wet/dry front at u_L + 2a_L (Ritter).
    DryRight {
        /// Front speed.
        front: f64,
    },
    /// Dry bed on the left: a right rarefaction with front at u_R − 2a_R.
    DryLeft {
        /// Front speed.
        front: f64,
    },
    /// Dry bed generated between two rarefactions, when u_R − u_L ≥ 2(a_L + a_R).
    DryGenerated {
        /// u_L + 2a_L.
        left_front: f64,
        /// u_R − 2a_R.
        right_front: f64,
    },
    /// Dry everywhere.
    AllDry,
}

/// Exact self-similar solution of one shallow-water Riemann problem, from [`solve_sw`].
#[derive(Debug, Clone, PartialEq)]
pub struct SwSolution {
    left: SwState,
    right: SwState,
    g: f64,
    pattern: SwPattern,
}

/// Toro's depth function f_K(h) and its derivative (Toro 2001, ch. 5): shock branch
/// (h − h_K)√(½g(h + h_K)/(h h_K)) for h > h_K, rarefaction branch 2(√(gh) − √(gh_K)) otherwise.
pub fn depth_function(h: f64, k: SwState, g: f64) -> (f64, f64) {
    if h > k.h {
        let q = (0.5 * g * (h + k.h) / (h * k.h)).sqrt();
        let dq = -0.25 * g / (h * h * q);
        ((h - k.h) * q, q + (h - k.h) * dq)
    } else {
        let a = (g * h).sqrt();
        (2.0 * (a - (g * k.h).sqrt()), g / a)
    }
}

fn check(side: &'static str, s: SwState) -> Result<()> {
    non_negative(
        if side == "left" {
            "left depth"
        } else {
            "right depth"
        },
        s.h,
    )?;
    finite(
        if side == "left" {
            "left velocity"
        } else {
            "right velocity"
        },
        s.u,
    )?;
    Ok(())
}

/// Solves the shallow-water Riemann problem `left` | `right` with gravity `g` > 0. Depths must be
/// ≥ 0 (0 is a dry bed). h* is found by Newton's iteration safeguarded by a bracket, to
/// |Δh| ≤ [`H_TOL`]·h within [`H_MAX_ITER`] iterations.
pub fn solve_sw(left: SwState, right: SwState, g: f64) -> Result<SwSolution> {
    positive("gravity g", g)?;
    check("left", left)?;
    check("right", right)?;
    let (al, ar) = ((g * left.h).sqrt(), (g * right.h).sqrt());
    let pattern = match (left.h == 0.0, right.h == 0.0) {
        (true, true) => SwPattern::AllDry,
        (false, true) => SwPattern::DryRight {
            front: left.u + 2.0 * al,
        },
        (true, false) => SwPattern::DryLeft {
            front: right.u - 2.0 * ar,
        },
        (false, false) if 2.0 * (al + ar) <= right.u - left.u => SwPattern::DryGenerated {
            left_front: left.u + 2.0 * al,
            right_front: right.u - 2.0 * ar,
        },
        (false, false) => {
            let h = star_depth(left, right, al, ar, g)?;
            let (fl, _) = depth_function(h, left, g);
            let (fr, _) = depth_function(h, right, g);
            let kind = |k: SwState| {
                if h > k.h {
                    WaveKind::Shock
                } else {
                    WaveKind::Rarefaction
                }
            };
            SwPattern::Wet {
                h,
                u: 0.5 * (left.u + right.u) + 0.5 * (fr - fl),
                left: kind(left),
                right: kind(right),
            }
        }
    };
    Ok(SwSolution {
        left,
        right,
        g,
        pattern,
    })
}

/// Newton's iteration for h* from Toro's guess (2001, ch. 5): the two-rarefaction depth
/// (½(a_L + a_R) − ¼Δu)²/g if it is below min(h_L, h_R), else the two-shock estimate.
fn star_depth(l: SwState, r: SwState, al: f64, ar: f64, g: f64) -> Result<f64> {
    let du = r.u - l.u;
    let h0 = (0.5 * (al + ar) - 0.25 * du).powi(2) / g;
    let mut h = if h0 <= l.h.min(r.h) {
        h0
    } else {
        let gk = |k: SwState| (0.5 * g * (h0 + k.h) / (h0 * k.h)).sqrt();
        let (gl, gr) = (gk(l), gk(r));
        (gl * l.h + gr * r.h - du) / (gl + gr)
    };
    if !(h > 0.0 && h.is_finite()) {
        h = h0.max(1e-8 * l.h.min(r.h));
    }
    let (mut lo, mut hi) = (0.0_f64, f64::INFINITY);
    let mut change = f64::INFINITY;
    for _ in 0..H_MAX_ITER {
        let (fl, dl) = depth_function(h, l, g);
        let (fr, dr) = depth_function(h, r, g);
        let f = fl + fr + du;
        if f == 0.0 {
            return Ok(h);
        }
        if f < 0.0 {
            lo = lo.max(h);
        } else {
            hi = hi.min(h);
        }
        let mut next = h - f / (dl + dr);
        if !(next > lo && next < hi) {
            next = if hi.is_finite() {
                0.5 * (lo + hi)
            } else {
                2.0 * h
            };
        }
        change = (next - h).abs() / next;
        h = next;
        if change <= H_TOL {
            return Ok(h);
        }
    }
    Err(ExactError::NoConvergence {
        what: "Newton iteration for the star depth h*",
        iterations: H_MAX_ITER,
        change,
    })
}

/// Ritter's dam break: depth `h0` > 0 at rest for x < x0, dry bed beyond. Closed form at
/// ξ = (x − x0)/t with c0 = √(g h0): (h0, 0) for ξ ≤ −c0; h = (2c0 − ξ)²/(9g),
/// u = ⅔(ξ + c0) for −c0 < ξ < 2c0; dry for ξ ≥ 2c0 (Ritter 1892; the dam break on a dry bed
/// of SWASHES, Delestre et al. 2013).
pub fn ritter(h0: f64, g: f64, xi: f64) -> Result<SwState> {
    positive("upstream depth h0", h0)?;
    positive("gravity g", g)?;
    let c0 = (g * h0).sqrt();
    Ok(if xi <= -c0 {
        SwState::new(h0, 0.0)
    } else if xi < 2.0 * c0 {
        SwState::new((2.0 * c0 - xi).powi(2) / (9.0 * g), 2.0 / 3.0 * (xi + c0))
    } else {
        SwState::DRY
    })
}

/// Stoker's wet dam break: depths `h_l` > `h_r` > 0 at rest. The solution is a left rarefaction
/// and a right hydraulic jump around the depth h_m that solves
/// 2(√(g h_l) − √(g h_m)) = (h_m − h_r)√(½g(h_m + h_r)/(h_m h_r)) (Stoker 1957; the dam break
/// on a wet bed of SWASHES, Delestre et al. 2013).
pub fn stoker(h_l: f64, h_r: f64, g: f64) -> Result<SwSolution> {
    positive("downstream depth h_r", h_r)?;
    positive("upstream depth h_l - h_r", h_l - h_r)?;
    solve_sw(SwState::new(h_l, 0.0), SwState::new(h_r, 0.0), g)
}

impl SwSolution {
    /// The wave pattern.
    pub fn pattern(&self) -> SwPattern {
        self.pattern
    }

    /// Star depth and velocity (h*, u*), or `None` if a dry region is present.
    pub fn star(&self) -> Option<SwState> {
        match self.pattern {
            SwPattern::Wet { h, u, .. } => Some(SwState::new(h, u)),
            _ => None,
        }
    }

    fn a(&self, s: SwState) -> f64 {
        (self.g * s.h).sqrt()
    }

    /// Speeds x/t of the waves, wave edges and dry fronts, ascending.
    pub fn breakpoints(&self) -> Vec<f64> {
        let (l, r) = (self.left, self.right);
        let (al, ar) = (self.a(l), self.a(r));
        let mut v = match self.pattern {
            SwPattern::Wet { h, u, left, right } => {
                let a = (self.g * h).sqrt();
                let mut v = vec![];
                match left {
                    WaveKind::Shock => v.push(self.left_shock_speed(h)),
                    WaveKind::Rarefaction => v.extend([l.u - al, u - a]),
                }
                match right {
                    WaveKind::Shock => v.push(self.right_shock_speed(h)),
                    WaveKind::Rarefaction => v.extend([r.u + ar, u + a]),
                }
                v
            }
            SwPattern::DryRight { front } => vec![l.u - al, front],
            SwPattern::DryLeft { front } => vec![front, r.u + ar],
            SwPattern::DryGenerated {
                left_front,
                right_front,
            } => {
                vec![l.u - al, left_front, right_front, r.u + ar]
            }
            SwPattern::AllDry => vec![],
        };
        v.sort_by(f64::total_cmp);
        v
    }

    /// S_L = u_L − a_L √((h* + h_L)h*/(2h_L²)) (mass and momentum jump conditions).
    fn left_shock_speed(&self, h: f64) -> f64 {
        let l = self.left;
        l.u - self.a(l) * ((h + l.h) * h / (2.0 * l.h * l.h)).sqrt()
    }

    /// S_R = u_R + a_R √((h* + h_R)h*/(2h_R²)).
    fn right_shock_speed(&self, h: f64) -> f64 {
        let r = self.right;
        r.u + self.a(r) * ((h + r.h) * h / (2.0 * r.h * r.h)).sqrt()
    }

    /// Inside the left fan: u = (u_L + 2a_L + 2ξ)/3, a = (u_L + 2a_L − ξ)/3, h = a²/g.
    fn left_fan(&self, xi: f64) -> SwState {
        let l = self.left;
        let a = ((l.u + 2.0 * self.a(l) - xi) / 3.0).max(0.0);
        SwState::new(a * a / self.g, (l.u + 2.0 * self.a(l) + 2.0 * xi) / 3.0)
    }

    /// Inside the right fan: u = (u_R − 2a_R + 2ξ)/3, a = (−u_R + 2a_R + ξ)/3, h = a²/g.
    fn right_fan(&self, xi: f64) -> SwState {
        let r = self.right;
        let a = ((-r.u + 2.0 * self.a(r) + xi) / 3.0).max(0.0);
        SwState::new(a * a / self.g, (r.u - 2.0 * self.a(r) + 2.0 * xi) / 3.0)
    }

    /// The exact state at ξ = x/t (left-side value at a discontinuity).
    pub fn sample(&self, xi: f64) -> SwState {
        let (l, r) = (self.left, self.right);
        let (al, ar) = (self.a(l), self.a(r));
        match self.pattern {
            SwPattern::Wet { h, u, left, right } => {
                let a = (self.g * h).sqrt();
                let star = SwState::new(h, u);
                if xi <= u {
                    match left {
                        WaveKind::Shock if xi <= self.left_shock_speed(h) => l,
                        WaveKind::Shock => star,
                        WaveKind::Rarefaction if xi <= l.u - al => l,
                        WaveKind::Rarefaction if xi >= u - a => star,
                        WaveKind::Rarefaction => self.left_fan(xi),
                    }
                } else {
                    match right {
                        WaveKind::Shock if xi >= self.right_shock_speed(h) => r,
                        WaveKind::Shock => star,
                        WaveKind::Rarefaction if xi >= r.u + ar => r,
                        WaveKind::Rarefaction if xi <= u + a => star,
                        WaveKind::Rarefaction => self.right_fan(xi),
                    }
                }
            }
            SwPattern::DryRight { .. } if xi <= l.u - al => l,
            SwPattern::DryRight { front } if xi < front => self.left_fan(xi),
            SwPattern::DryLeft { .. } if xi >= r.u + ar => r,
            SwPattern::DryLeft { front } if xi > front => self.right_fan(xi),
            SwPattern::DryGenerated {
                left_front,
                right_front,
            } => {
                if xi <= l.u - al {
                    l
                } else if xi < left_front {
                    self.left_fan(xi)
                } else if xi <= right_front {
                    SwState::DRY
                } else if xi < r.u + ar {
                    self.right_fan(xi)
                } else {
                    r
                }
            }
            _ => SwState::DRY,
        }
    }

    /// The state at (x, t) for the discontinuity initially at `x0` (initial data at t = 0).
    pub fn at(&self, x: f64, t: f64, x0: f64) -> SwState {
        if t > 0.0 {
            self.sample((x - x0) / t)
        } else if x <= x0 {
            self.left
        } else {
            self.right
        }
    }

    /// Cell average of (h, hu) over [a, b] at time t ≥ 0: 8-point Gauss–Legendre on each piece
    /// between waves, adaptive to [`quadrature::RTOL`]; exact to round-off (h is quadratic and
    /// hu cubic in x inside a fan).
    pub fn cell_average(&self, a: f64, b: f64, t: f64, x0: f64) -> Result<[f64; 2]> {
        interval("cell [a, b]", a, b)?;
        non_negative("time", t)?;
        finite("x0", x0)?;
        let breaks: Vec<f64> = if t > 0.0 {
            self.breakpoints().iter().map(|s| x0 + s * t).collect()
        } else {
            vec![x0]
        };
        let i = quadrature::integrate(&|x: f64| self.at(x, t, x0).to_cons(), a, b, &breaks);
        Ok([i[0] / (b - a), i[1] / (b - a)])
    }
}

#[cfg(test)]
#[path = "shallow_water_tests.rs"]
mod tests;
