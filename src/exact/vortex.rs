//! The isentropic vortex of the 2D Euler equations, in the form of Shu (1998, *Essentially
//! non-oscillatory and weighted essentially non-oscillatory schemes for hyperbolic conservation
//! laws*, Lecture Notes in Mathematics 1697, pp. 325–432, the vortex-evolution example; also Yee,
//! Sandham & Djomehri, JCP 150, 1999): on the free stream (ρ, u, v, p) = (1, u∞, v∞, 1),
//!
//! (δu, δv) = β/(2π) e^{(1−r²)/2} (−ȳ, x̄),  δT = −(γ−1)β²/(8γπ²) e^{1−r²},  δS = 0,
//!
//! with (x̄, ȳ) the displacement from the vortex centre, r² = x̄² + ȳ², T = p/ρ = 1 + δT,
//! ρ = T^{1/(γ−1)}, p = ρ^γ (entropy p/ρ^γ = 1 everywhere). Shu's case: β = 5, centre (5, 5),
//! (u∞, v∞) = (1, 1), γ = 1.4 on the periodic box [0, 10]².
//!
//! Nondimensional: lengths in units of the vortex core radius, velocities in units of the
//! free-stream √(p∞/ρ∞), time accordingly.
//!
//! **Periodic box.** The exact solution at time t is the vortex translated by (u∞, v∞)t, its centre
//! wrapped into the box, and evaluated with the minimum-image displacement: nothing is summed over
//! images. That is exact only up to the perturbation left at the box boundary, a distance
//! R = min(lx, ly)/2 from the centre: |δV|(R) = β/(2π)·R·e^{(1−R²)/2} (for R ≥ 1), which is
//! [`IsentropicVortex::truncation`]. Shu's [0, 10]² with β = 5 leaves 2.4e-5; choose the box with
//! [`min_half_width`] (β = 5: R ≥ 8.9 for 1e-16, R ≥ 7.2 for 1e-10) so that it is below the
//! errors to be measured.

use super::error::{check_gamma, finite, non_negative, ExactError, Result};
use super::euler2d::{Cons2, Prim2};
use super::periodic::PeriodicBox;
use super::quadrature::gl8_points;
use std::f64::consts::PI;

/// Shu's isentropic vortex advected by a uniform free stream.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IsentropicVortex {
    /// Vortex strength β (Shu's ε).
    pub beta: f64,
    /// Ratio of specific heats γ.
    pub gamma: f64,
    /// Centre (x, y) at t = 0.
    pub centre: (f64, f64),
    /// Free-stream velocity (u∞, v∞); ρ∞ = p∞ = 1.
    pub free_stream: (f64, f64),
    /// Periodic box, or `None` for the unbounded plane.
    pub domain: Option<PeriodicBox>,
}

/// Half-width R (≥ 1) of the box around the vortex beyond which the velocity perturbation
/// β/(2π)·R·e^{(1−R²)/2} is below `tol` (> 0); the box must have min(lx, ly) ≥ 2R.
/// Found by bisection on [1, 64] to 1e-12 (the perturbation decreases for R ≥ 1).
pub fn min_half_width(beta: f64, tol: f64) -> Result<f64> {
    non_negative("vortex strength beta", beta)?;
    super::error::positive("tolerance", tol)?;
    let f = |r: f64| beta / (2.0 * PI) * r * (0.5 * (1.0 - r * r)).exp();
    if f(1.0) <= tol {
        return Ok(1.0);
    }
    let (mut lo, mut hi) = (1.0_f64, 64.0_f64);
    while hi - lo > 1e-12 {
        let m = 0.5 * (lo + hi);
        if f(m) > tol {
            lo = m;
        } else {
            hi = m;
        }
    }
    Ok(hi)
}

impl IsentropicVortex {
    /// A vortex of strength `beta` ≥ 0 centred at `centre` at t = 0, on the free stream
    /// (1, u∞, v∞, 1). The centre temperature 1 − (γ−1)β²e/(8γπ²) must be > 0.
    pub fn new(
        beta: f64,
        gamma: f64,
        centre: (f64, f64),
        free_stream: (f64, f64),
        domain: Option<PeriodicBox>,
    ) -> Result<Self> {
        non_negative("vortex strength beta", beta)?;
        check_gamma(gamma)?;
        finite("vortex centre x", centre.0)?;
        finite("vortex centre y", centre.1)?;
        finite("free-stream u", free_stream.0)?;
        finite("free-stream v", free_stream.1)?;
        let v = IsentropicVortex {
            beta,
            gamma,
            centre,
            free_stream,
            domain,
        };
        if v.temperature(0.0) <= 0.0 {
            return Err(ExactError::Invalid {
                what: "vortex strength beta",
                reason: "the temperature at the vortex centre would be <= 0",
            });
        }
        Ok(v)
    }

    /// Shu's case: β = 5, γ = 1.4, centre (5, 5), free stream (1, 1), box [0, 10]².
    pub fn shu() -> Self {
        IsentropicVortex {
            beta: 5.0,
            gamma: 1.4,
            centre: (5.0, 5.0),
            free_stream: (1.0, 1.0),
            domain: Some(PeriodicBox {
                xmin: 0.0,
                ymin: 0.0,
                lx: 10.0,
                ly: 10.0,
            }),
        }
    }

    /// T = 1 + δT at squared radius r2.
    fn temperature(&self, r2: f64) -> f64 {
        let g = self.gamma;
        1.0 - (g - 1.0) * self.beta * self.beta / (8.0 * g * PI * PI) * (1.0 - r2).exp()
    }

    /// Velocity perturbation at the box boundary (0 for the unbounded plane): the size of the
    /// mismatch left by the minimum-image evaluation (module docs).
    pub fn truncation(&self) -> f64 {
        match self.domain {
            None => 0.0,
            Some(b) => {
                let r = (0.5 * b.lx.min(b.ly)).max(1.0);
                self.beta / (2.0 * PI) * r * (0.5 * (1.0 - r * r)).exp()
            }
        }
    }

    /// Centre at time t (wrapped into the box, if any).
    pub fn centre_at(&self, t: f64) -> (f64, f64) {
        let x = self.centre.0 + self.free_stream.0 * t;
        let y = self.centre.1 + self.free_stream.1 * t;
        match self.domain {
            Some(b) => b.wrap(x, y),
            None => (x, y),
        }
    }

    /// Exact primitive state at (x, y) and time t.
    pub fn point(&self, x: f64, y: f64, t: f64) -> Prim2 {
        let (xc, yc) = self.centre_at(t);
        let (dx, dy) = match self.domain {
            Some(b) => b.min_image(x - xc, y - yc),
            None => (x - xc, y - yc),
        };
        let r2 = dx * dx + dy * dy;
        let s = self.beta / (2.0 * PI) * (0.5 * (1.0 - r2)).exp();
        let temp = self.temperature(r2);
        let rho = temp.powf(1.0 / (self.gamma - 1.0));
        Prim2 {
            rho,
            u: self.free_stream.0 - s * dy,
            v: self.free_stream.1 + s * dx,
            p: rho * temp,
        }
    }

    /// Average of the conserved variables over the cell [x0, x1] × [y0, y1] at time t, by the
    /// 8 × 8-point tensor Gauss–Legendre rule (exact for polynomials of degree ≤ 15 in each
    /// variable; error O(h¹⁶) for this entire function, i.e. round-off for h ≤ 0.5).
    pub fn cell_average(&self, x0: f64, x1: f64, y0: f64, y1: f64, t: f64) -> Result<Cons2> {
        super::error::interval("cell [x0, x1]", x0, x1)?;
        super::error::interval("cell [y0, y1]", y0, y1)?;
        finite("time", t)?;
        let mut sum = [0.0; 4];
        for (x, wx) in gl8_points(x0, x1) {
            for (y, wy) in gl8_points(y0, y1) {
                let c = self.point(x, y, t).to_cons(self.gamma).to_array();
                for k in 0..4 {
                    sum[k] += wx * wy * c[k];
                }
            }
        }
        let area = (x1 - x0) * (y1 - y0);
        Ok(Cons2::from_array(sum.map(|s| s / area)))
    }
}

#[cfg(test)]
#[path = "vortex_tests.rs"]
mod tests;
