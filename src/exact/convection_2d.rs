//! 2D linear advection on a rectangle: u(x, y, t) = u₀(x − c_x t, y − c_y t), wrapped
//! (periodic) or replaced by the inflow value where the foot left the rectangle.

use super::super::error::{finite, interval, Result};
use super::super::periodic::PeriodicBox;
use super::super::quadrature;
use super::{foot_1d, moved_breaks, Boundary};

/// 2D linear advection with velocity (c_x, c_y) on the rectangle of `domain` (used as the
/// period when `boundary` is periodic, as the inflow frame otherwise).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Advection2d {
    /// Advection velocity (c_x, c_y).
    pub c: (f64, f64),
    /// The rectangle.
    pub domain: PeriodicBox,
    /// Periodic or inflow (the same on every side).
    pub boundary: Boundary,
}

impl Advection2d {
    /// Advection with velocity `c` on `domain`.
    pub fn new(c: (f64, f64), domain: PeriodicBox, boundary: Boundary) -> Result<Self> {
        finite("advection velocity c_x", c.0)?;
        finite("advection velocity c_y", c.1)?;
        if let Boundary::Inflow { value } = boundary {
            finite("inflow value", value)?;
        }
        Ok(Advection2d {
            c,
            domain,
            boundary,
        })
    }

    /// Foot (x − c_x t, y − c_y t), wrapped when periodic; `None` when it left the rectangle.
    pub fn foot(&self, x: f64, y: f64, t: f64) -> Option<(f64, f64)> {
        let d = self.domain;
        let fx = foot_1d(x, self.c.0, t, d.xmin, d.lx, self.boundary)?;
        let fy = foot_1d(y, self.c.1, t, d.ymin, d.ly, self.boundary)?;
        Some((fx, fy))
    }

    /// Exact value u(x, y, t) for the initial profile `u0` (defined on the rectangle).
    pub fn value(&self, u0: &impl Fn(f64, f64) -> f64, x: f64, y: f64, t: f64) -> f64 {
        match (self.foot(x, y, t), self.boundary) {
            (Some((fx, fy)), _) => u0(fx, fy),
            (None, Boundary::Inflow { value }) => value,
            (None, Boundary::Periodic) => unreachable!("a periodic foot always exists"),
        }
    }

    /// Exact average of u(·, ·, t) over [x0, x1] × [y0, y1] for a profile `u0` smooth except
    /// across the lines x = `breaks_x`, y = `breaks_y` (axis-aligned discontinuities only):
    /// 8 × 8 tensor Gauss–Legendre with adaptive quadrisection on each piece between the moved
    /// lines, rectangle edges and periodic images ([`quadrature::RTOL`]; exact to round-off for
    /// a [`TopHat2d`]).
    pub fn cell_average(
        &self,
        u0: &impl Fn(f64, f64) -> f64,
        (x0, x1): (f64, f64),
        (y0, y1): (f64, f64),
        t: f64,
        breaks_x: &[f64],
        breaks_y: &[f64],
    ) -> Result<f64> {
        interval("cell [x0, x1]", x0, x1)?;
        interval("cell [y0, y1]", y0, y1)?;
        finite("time", t)?;
        let d = self.domain;
        let bx = moved_breaks(breaks_x, self.c.0 * t, d.xmin, d.lx, self.boundary, x0, x1);
        let by = moved_breaks(breaks_y, self.c.1 * t, d.ymin, d.ly, self.boundary, y0, y1);
        let f = |x: f64, y: f64| self.value(u0, x, y, t);
        let i = quadrature::integrate_2d(&f, (x0, x1), (y0, y1), &bx, &by);
        Ok(i / ((x1 - x0) * (y1 - y0)))
    }

    /// Exact cell averages of a [`TopHat2d`] on the uniform nx × ny grid of the rectangle,
    /// row-major with x fastest (index i + nx·j).
    pub fn top_hat_averages(
        &self,
        hat: &TopHat2d,
        nx: usize,
        ny: usize,
        t: f64,
    ) -> Result<Vec<f64>> {
        let d = self.domain;
        let (hx, hy) = (d.lx / nx.max(1) as f64, d.ly / ny.max(1) as f64);
        let mut out = Vec::with_capacity(nx * ny);
        for j in 0..ny {
            for i in 0..nx {
                let (x0, y0) = (d.xmin + i as f64 * hx, d.ymin + j as f64 * hy);
                let u0 = |x: f64, y: f64| hat.value(x, y);
                let bx = [hat.x.0, hat.x.1];
                let by = [hat.y.0, hat.y.1];
                out.push(self.cell_average(&u0, (x0, x0 + hx), (y0, y0 + hy), t, &bx, &by)?);
            }
        }
        Ok(out)
    }
}

/// Square pulse: `inside` on [x.0, x.1] × [y.0, y.1] (closed), `outside` elsewhere.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TopHat2d {
    /// x extent.
    pub x: (f64, f64),
    /// y extent.
    pub y: (f64, f64),
    /// Value inside.
    pub inside: f64,
    /// Value outside.
    pub outside: f64,
}

impl TopHat2d {
    /// The profile at (x, y).
    pub fn value(&self, x: f64, y: f64) -> f64 {
        if x >= self.x.0 && x <= self.x.1 && y >= self.y.0 && y <= self.y.1 {
            self.inside
        } else {
            self.outside
        }
    }
}

/// Gaussian pulse base + A exp(−|r − centre|²/(2σ²)) (not periodised).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Gaussian2d {
    /// Centre (x, y).
    pub centre: (f64, f64),
    /// Standard deviation σ.
    pub sigma: f64,
    /// Amplitude A.
    pub amplitude: f64,
    /// Background value.
    pub base: f64,
}

impl Gaussian2d {
    /// The profile at (x, y).
    pub fn value(&self, x: f64, y: f64) -> f64 {
        let (dx, dy) = (
            (x - self.centre.0) / self.sigma,
            (y - self.centre.1) / self.sigma,
        );
        self.base + self.amplitude * (-0.5 * (dx * dx + dy * dy)).exp()
    }
}

/// Seed 003 §3.3 / §8.3: u = 2 on [0.5, 1]², 1 elsewhere, advected with (c, c) on the periodic
/// [0, 2]² (§8.3 asks for periodic BCs; the report's grid spacing, c and time are not given).
pub fn square_pulse_2d(c: f64) -> Result<(Advection2d, TopHat2d)> {
    let domain = PeriodicBox::new(0.0, 0.0, 2.0, 2.0)?;
    let adv = Advection2d::new((c, c), domain, Boundary::Periodic)?;
    Ok((
        adv,
        TopHat2d {
            x: (0.5, 1.0),
            y: (0.5, 1.0),
            inside: 2.0,
            outside: 1.0,
        },
    ))
}
