//! The advected density (entropy) wave of the 2D Euler equations: uniform velocity (u, v) and
//! pressure p, density ρ(x, y, t) = ρ₀ + A sin(2π(k_x(x − ut) + k_y(y − vt))). It is an exact
//! solution for any γ (the contact wave of the Euler equations), periodic on the box
//! [0, 1/|k_x|) × [0, 1/|k_y|) for integer wavenumbers. Seed 000 §4.7 uses ρ₀ = 1, A = 0.2,
//! (k_x, k_y) = (1, 2), (u, v) = (1, 0.5), p = 1 on the unit square to t = 0.5, and reports L1(ρ)
//! = 3.70e-2, 1.30e-2, 3.61e-3, 8.58e-4 at N = 32 … 256 for CE/SE. Nondimensional.
//!
//! Cell averages are closed-form: the average of sin(a x + b y + c) over a cell of sides h_x, h_y
//! centred at (x_m, y_m) is sinc(a h_x/2)·sinc(b h_y/2)·sin(a x_m + b y_m + c), with no
//! cancellation, so they are exact to round-off.

use super::error::{check_gamma, finite, interval, positive, ExactError, Result};
use super::euler2d::{Cons2, Prim2};
use std::f64::consts::PI;

/// An advected sinusoidal density wave.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DensityWave {
    /// Mean density ρ₀.
    pub rho0: f64,
    /// Amplitude A (|A| < ρ₀).
    pub amplitude: f64,
    /// Wavenumbers (k_x, k_y) in cycles per unit length.
    pub k: (f64, f64),
    /// Uniform velocity (u, v).
    pub velocity: (f64, f64),
    /// Uniform pressure p.
    pub p: f64,
    /// Ratio of specific heats γ (enters only the energy).
    pub gamma: f64,
}

/// sin(s)/s, with its Taylor series for |s| < 1e-4 (error < 1e-18).
fn sinc(s: f64) -> f64 {
    if s.abs() < 1e-4 {
        1.0 - s * s / 6.0
    } else {
        s.sin() / s
    }
}

impl DensityWave {
    /// A wave; ρ₀ > |A|, p > 0, γ > 1 and everything finite.
    pub fn new(
        rho0: f64,
        amplitude: f64,
        k: (f64, f64),
        velocity: (f64, f64),
        p: f64,
        gamma: f64,
    ) -> Result<Self> {
        check_gamma(gamma)?;
        positive("pressure", p)?;
        finite("amplitude", amplitude)?;
        positive(
            "rho0 - |amplitude| (minimum density)",
            rho0 - amplitude.abs(),
        )?;
        for (what, x) in [
            ("k_x", k.0),
            ("k_y", k.1),
            ("u", velocity.0),
            ("v", velocity.1),
        ] {
            finite(what, x)?;
        }
        Ok(DensityWave {
            rho0,
            amplitude,
            k,
            velocity,
            p,
            gamma,
        })
    }

    /// The seed 000 §4.7 case: ρ = 1 + 0.2 sin(2π(x + 2y)), (u, v) = (1, 0.5), p = 1, γ = 1.4.
    pub fn cese_seed() -> Self {
        DensityWave {
            rho0: 1.0,
            amplitude: 0.2,
            k: (1.0, 2.0),
            velocity: (1.0, 0.5),
            p: 1.0,
            gamma: 1.4,
        }
    }

    /// Phase 2π(k_x(x − ut) + k_y(y − vt)).
    fn phase(&self, x: f64, y: f64, t: f64) -> f64 {
        let (u, v) = self.velocity;
        2.0 * PI * (self.k.0 * (x - u * t) + self.k.1 * (y - v * t))
    }

    fn with_rho(&self, rho: f64) -> Prim2 {
        Prim2 {
            rho,
            u: self.velocity.0,
            v: self.velocity.1,
            p: self.p,
        }
    }

    /// Exact state at (x, y) and time t.
    pub fn point(&self, x: f64, y: f64, t: f64) -> Prim2 {
        self.with_rho(self.rho0 + self.amplitude * self.phase(x, y, t).sin())
    }

    /// Exact average of the conserved variables over [x0, x1] × [y0, y1] at time t (closed form,
    /// module docs). All four are linear in ρ, so their averages are those of the averaged ρ.
    pub fn cell_average(&self, x0: f64, x1: f64, y0: f64, y1: f64, t: f64) -> Result<Cons2> {
        interval("cell [x0, x1]", x0, x1)?;
        interval("cell [y0, y1]", y0, y1)?;
        finite("time", t)?;
        let (a, b) = (2.0 * PI * self.k.0, 2.0 * PI * self.k.1);
        let (xm, ym) = (0.5 * (x0 + x1), 0.5 * (y0 + y1));
        let s = sinc(0.5 * a * (x1 - x0)) * sinc(0.5 * b * (y1 - y0));
        let rho = self.rho0 + self.amplitude * s * self.phase(xm, ym, t).sin();
        Ok(self.with_rho(rho).to_cons(self.gamma))
    }

    /// Density averages on the uniform nx × ny grid of [x_lo, x_hi] × [y_lo, y_hi], row-major
    /// with x fastest (index i + nx·j), at time t.
    pub fn density_averages(
        &self,
        (x_lo, x_hi): (f64, f64),
        (y_lo, y_hi): (f64, f64),
        nx: usize,
        ny: usize,
        t: f64,
    ) -> Result<Vec<f64>> {
        if nx == 0 || ny == 0 {
            return Err(ExactError::Invalid {
                what: "grid size",
                reason: "nx and ny must be > 0",
            });
        }
        interval("domain x", x_lo, x_hi)?;
        interval("domain y", y_lo, y_hi)?;
        let (hx, hy) = ((x_hi - x_lo) / nx as f64, (y_hi - y_lo) / ny as f64);
        let mut out = Vec::with_capacity(nx * ny);
        for j in 0..ny {
            for i in 0..nx {
                let (x0, y0) = (x_lo + i as f64 * hx, y_lo + j as f64 * hy);
                out.push(self.cell_average(x0, x0 + hx, y0, y0 + hy, t)?.rho);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::quadrature::gl8_points;
    use super::*;

    #[test]
    fn closed_form_average_matches_quadrature() {
        let w = DensityWave::cese_seed();
        for (x0, y0, h) in [
            (0.1, 0.2, 1.0 / 32.0),
            (0.7, 0.9, 1.0 / 256.0),
            (0.0, 0.0, 0.125),
        ] {
            let avg = w.cell_average(x0, x0 + h, y0, y0 + h, 0.37).unwrap();
            let mut q = 0.0;
            for (x, wx) in gl8_points(x0, x0 + h) {
                for (y, wy) in gl8_points(y0, y0 + h) {
                    q += wx * wy * w.point(x, y, 0.37).rho;
                }
            }
            assert!(
                (avg.rho - q / (h * h)).abs() < 2e-15,
                "{} vs {}",
                avg.rho,
                q / (h * h)
            );
            assert!((avg.mom_y - 0.5 * avg.rho).abs() < 1e-16);
        }
    }

    #[test]
    fn it_is_periodic_and_an_euler_solution() {
        let w = DensityWave::cese_seed();
        // Period 1 in x and 1/2 in y; the wave returns after t = 2 (u·2 = 2, v·2 = 1).
        let (a, b) = (w.point(0.3, 0.4, 0.0).rho, w.point(0.3, 0.4, 2.0).rho);
        assert!((a - b).abs() < 1e-14);
        assert!((w.point(1.3, 0.9, 0.0).rho - a).abs() < 1e-14);
        // ρ_t + uρ_x + vρ_y = 0 with u, v, p uniform: every Euler flux balance reduces to it.
        let h = 1e-5; // central differences: truncation ~7e-9, round-off ~1e-11
        let d = |f: &dyn Fn(f64) -> f64, s: f64| (f(s + h) - f(s - h)) / (2.0 * h);
        let rt = d(&|t| w.point(0.3, 0.4, t).rho, 0.2);
        let rx = d(&|x| w.point(x, 0.4, 0.2).rho, 0.3);
        let ry = d(&|y| w.point(0.3, y, 0.2).rho, 0.4);
        assert!((rt + rx + 0.5 * ry).abs() < 1e-7);
    }

    #[test]
    fn seed_000_errors_give_its_observed_orders() {
        // seed 000 §4.7: L1(ρ) = 3.70e-2, 1.30e-2, 3.61e-3, 8.58e-4 → orders 1.5, 1.85, 2.07.
        let e = [3.70e-2, 1.30e-2, 3.61e-3, 8.58e-4];
        let h = [1.0 / 32.0, 1.0 / 64.0, 1.0 / 128.0, 1.0 / 256.0];
        let p = super::super::norms::observed_orders(&h, &e).unwrap();
        for (got, want) in p.iter().zip([1.5, 1.85, 2.07]) {
            assert!((got - want).abs() < 0.01, "{p:?}");
        }
    }

    #[test]
    fn averages_on_a_grid_and_invalid_input() {
        let w = DensityWave::cese_seed();
        let g = w
            .density_averages((0.0, 1.0), (0.0, 1.0), 8, 4, 0.0)
            .unwrap();
        assert_eq!(g.len(), 32);
        let mean: f64 = g.iter().sum::<f64>() / 32.0;
        assert!((mean - 1.0).abs() < 1e-15);
        assert!(DensityWave::new(0.1, 0.2, (1.0, 1.0), (0.0, 0.0), 1.0, 1.4).is_err());
        assert!(w
            .density_averages((0.0, 1.0), (0.0, 1.0), 0, 4, 0.0)
            .is_err());
    }
}
