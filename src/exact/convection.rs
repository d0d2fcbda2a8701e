//! Linear advection u_t + c u_x = 0 (1D) and u_t + c_x u_x + c_y u_y = 0 (2D) with constant
//! speeds: the exact solution is the initial profile shifted along the characteristics,
//! u(x, t) = u₀(x − ct) (seed 003 §1), wrapped on a periodic domain, or replaced by the inflow
//! value where the characteristic foot has left the domain through the inflow boundary (the
//! Dirichlet u = 1 of seed 003 §3). Cell averages integrate the shifted profile piecewise between
//! its shifted discontinuities, so a top hat is averaged exactly (to round-off). The cases of seed
//! 003 §8 are in [`SEED_003_PYTHON`], [`SEED_003_CUDA_1D`] and [`square_pulse_2d`].
//!
//! Units: any consistent set; u is a passive scalar in its own units.

use super::error::{finite, interval, ExactError, Result};
use super::periodic::wrap;
use super::quadrature;

/// What lies beyond the domain's ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Boundary {
    /// Periodic: the profile re-enters at the other end.
    Periodic,
    /// Inflow of a constant `value` where characteristics enter (x < xmin + ct for c > 0).
    Inflow {
        /// The inflow value.
        value: f64,
    },
}

/// 1D linear advection with speed `c` on [xmin, xmin + length].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Advection1d {
    /// Wave speed c (either sign).
    pub c: f64,
    /// Left end of the domain.
    pub xmin: f64,
    /// Domain length (the period when periodic).
    pub length: f64,
    /// Periodic or inflow.
    pub boundary: Boundary,
}

/// Foot of a 1D characteristic: x − ct wrapped (periodic), or `None` if it lies outside
/// [xmin, xmin + length] (inflow).
fn foot_1d(x: f64, c: f64, t: f64, xmin: f64, length: f64, b: Boundary) -> Option<f64> {
    let xi = x - c * t;
    match b {
        Boundary::Periodic => Some(wrap(xi, xmin, length)),
        Boundary::Inflow { .. } if xi >= xmin && xi <= xmin + length => Some(xi),
        Boundary::Inflow { .. } => None,
    }
}

/// Positions at time t in [a, b] of the initial discontinuities `breaks` (and of the domain ends,
/// which are discontinuities of a periodic wrap or an inflow front).
fn moved_breaks(
    breaks: &[f64],
    shift: f64,
    xmin: f64,
    length: f64,
    b: Boundary,
    lo: f64,
    hi: f64,
) -> Vec<f64> {
    let mut out = vec![];
    let ends = [xmin, xmin + length];
    for &x in breaks.iter().chain(&ends) {
        let x = x + shift;
        match b {
            Boundary::Periodic => {
                let k0 = ((lo - x) / length).floor() as i64;
                let k1 = ((hi - x) / length).ceil() as i64;
                out.extend((k0..=k1).map(|k| x + k as f64 * length));
            }
            Boundary::Inflow { .. } => out.push(x),
        }
    }
    out
}

impl Advection1d {
    /// Advection with speed `c` on [xmin, xmax] (xmax > xmin, all finite).
    pub fn new(c: f64, xmin: f64, xmax: f64, boundary: Boundary) -> Result<Self> {
        finite("wave speed c", c)?;
        interval("domain [xmin, xmax]", xmin, xmax)?;
        if let Boundary::Inflow { value } = boundary {
            finite("inflow value", value)?;
        }
        Ok(Advection1d {
            c,
            xmin,
            length: xmax - xmin,
            boundary,
        })
    }

    /// Foot x − ct of the characteristic through (x, t), wrapped when periodic; `None` when it
    /// left the domain (inflow boundary).
    pub fn foot(&self, x: f64, t: f64) -> Option<f64> {
        foot_1d(x, self.c, t, self.xmin, self.length, self.boundary)
    }

    /// Exact value u(x, t) for the initial profile `u0` (defined on the domain).
    pub fn value(&self, u0: &impl Fn(f64) -> f64, x: f64, t: f64) -> f64 {
        match (self.foot(x, t), self.boundary) {
            (Some(f), _) => u0(f),
            (None, Boundary::Inflow { value }) => value,
            (None, Boundary::Periodic) => unreachable!("a periodic foot always exists"),
        }
    }

    /// Exact average of u(·, t) over the cell [a, b], for an initial profile `u0` that is smooth
    /// except at `breaks`: adaptive 8-point Gauss–Legendre between the moved breaks, domain
    /// ends and periodic images ([`quadrature::RTOL`] relative; exact to round-off where u is
    /// piecewise polynomial of degree ≤ 15, e.g. a top hat).
    pub fn cell_average(
        &self,
        u0: &impl Fn(f64) -> f64,
        a: f64,
        b: f64,
        t: f64,
        breaks: &[f64],
    ) -> Result<f64> {
        interval("cell [a, b]", a, b)?;
        finite("time", t)?;
        let cuts = moved_breaks(
            breaks,
            self.c * t,
            self.xmin,
            self.length,
            self.boundary,
            a,
            b,
        );
        let i = quadrature::integrate(&|x: f64| [self.value(u0, x, t)], a, b, &cuts);
        Ok(i[0] / (b - a))
    }

    /// Exact cell averages of a [`TopHat`] on the uniform grid of n cells covering the domain.
    pub fn top_hat_averages(&self, hat: &TopHat, n: usize, t: f64) -> Result<Vec<f64>> {
        if n == 0 {
            return Err(ExactError::Invalid {
                what: "cell count",
                reason: "it must be > 0",
            });
        }
        let h = self.length / n as f64;
        (0..n)
            .map(|i| {
                let a = self.xmin + i as f64 * h;
                self.cell_average(&|x| hat.value(x), a, a + h, t, &[hat.lo, hat.hi])
            })
            .collect()
    }
}

/// Top hat: `inside` on [lo, hi] (both ends included, as the seed 003 initial conditions),
/// `outside` elsewhere.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TopHat {
    /// Left edge.
    pub lo: f64,
    /// Right edge.
    pub hi: f64,
    /// Value on [lo, hi].
    pub inside: f64,
    /// Value elsewhere.
    pub outside: f64,
}

impl TopHat {
    /// The profile at x.
    pub fn value(&self, x: f64) -> f64 {
        if x >= self.lo && x <= self.hi {
            self.inside
        } else {
            self.outside
        }
    }
}

/// Gaussian pulse base + A exp(−(x − centre)²/(2σ²)), the smooth profile of seed 003 §7
/// (it is not periodised: choose the domain so that it is negligible at the ends).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gaussian {
    /// Centre.
    pub centre: f64,
    /// Standard deviation σ.
    pub sigma: f64,
    /// Amplitude A.
    pub amplitude: f64,
    /// Background value.
    pub base: f64,
}

impl Gaussian {
    /// The profile at x.
    pub fn value(&self, x: f64) -> f64 {
        let d = (x - self.centre) / self.sigma;
        self.base + self.amplitude * (-0.5 * d * d).exp()
    }
}

/// A seed 003 1D case: FTBS on `nx` nodes of the domain, `steps` steps of `dt`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Case1d {
    /// Name.
    pub name: &'static str,
    /// The exact solution operator.
    pub advection: Advection1d,
    /// Initial condition.
    pub pulse: TopHat,
    /// Number of grid nodes (spacing length/(nx − 1), node i at xmin + i·dx).
    pub nx: usize,
    /// Time step.
    pub dt: f64,
    /// Number of steps.
    pub steps: usize,
}

/// Seed 003 §3.1 / §8.1 (Barba's step 1): [0, 2], 41 nodes, c = 1, inflow 1, u = 2 on
/// [0.5, 1], 25 steps of 0.025 (ν = 0.5, t = 0.625).
pub const SEED_003_PYTHON: Case1d = Case1d {
    name: "seed003_python",
    advection: Advection1d {
        c: 1.0,
        xmin: 0.0,
        length: 2.0,
        boundary: Boundary::Inflow { value: 1.0 },
    },
    pulse: TopHat {
        lo: 0.5,
        hi: 1.0,
        inside: 2.0,
        outside: 1.0,
    },
    nx: 41,
    dt: 0.025,
    steps: 25,
};

/// Seed 003 §3.2 / §8.2: as [`SEED_003_PYTHON`] on 2000 nodes, 250 steps of 0.001
/// (ν = 0.9995, t = 0.25).
pub const SEED_003_CUDA_1D: Case1d = Case1d {
    name: "seed003_cuda_1d",
    advection: Advection1d {
        c: 1.0,
        xmin: 0.0,
        length: 2.0,
        boundary: Boundary::Inflow { value: 1.0 },
    },
    pulse: TopHat {
        lo: 0.5,
        hi: 1.0,
        inside: 2.0,
        outside: 1.0,
    },
    nx: 2000,
    dt: 0.001,
    steps: 250,
};

impl Case1d {
    /// Node positions xmin + i·dx, dx = length/(nx − 1) (one node at xmin if nx = 1).
    pub fn nodes(&self) -> Vec<f64> {
        let dx = self.advection.length / self.nx.saturating_sub(1).max(1) as f64;
        (0..self.nx)
            .map(|i| self.advection.xmin + i as f64 * dx)
            .collect()
    }

    /// The exact nodal solution at t = steps·dt.
    pub fn exact_nodal(&self) -> Vec<f64> {
        let t = self.steps as f64 * self.dt;
        self.nodes()
            .iter()
            .map(|&x| self.advection.value(&|s| self.pulse.value(s), x, t))
            .collect()
    }
}

#[path = "convection_2d.rs"]
mod two_d;
pub use two_d::{square_pulse_2d, Advection2d, Gaussian2d, TopHat2d};

#[cfg(test)]
#[path = "convection_tests.rs"]
mod tests;
