//! Periodic intervals and rectangles: wrapping a coordinate into the period and the minimum-image
//! displacement, shared by the advected exact solutions.

use super::error::{finite, positive, Result};

/// x wrapped into [xmin, xmin + length): xmin + ((x − xmin) mod length).
pub fn wrap(x: f64, xmin: f64, length: f64) -> f64 {
    let w = xmin + (x - xmin).rem_euclid(length);
    // rem_euclid can round up to `length` itself for tiny negative arguments.
    if w >= xmin + length {
        xmin
    } else {
        w
    }
}

/// Minimum-image displacement: d − length·round(d/length), in [−length/2, length/2].
pub fn min_image(d: f64, length: f64) -> f64 {
    d - length * (d / length).round()
}

/// The periodic rectangle [xmin, xmin + lx) × [ymin, ymin + ly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PeriodicBox {
    /// Lower x bound.
    pub xmin: f64,
    /// Lower y bound.
    pub ymin: f64,
    /// Period in x.
    pub lx: f64,
    /// Period in y.
    pub ly: f64,
}

impl PeriodicBox {
    /// The box [xmin, xmin + lx) × [ymin, ymin + ly); lx, ly must be > 0.
    pub fn new(xmin: f64, ymin: f64, lx: f64, ly: f64) -> Result<Self> {
        finite("box xmin", xmin)?;
        finite("box ymin", ymin)?;
        positive("box length lx", lx)?;
        positive("box length ly", ly)?;
        Ok(PeriodicBox { xmin, ymin, lx, ly })
    }

    /// (x, y) wrapped into the box.
    pub fn wrap(&self, x: f64, y: f64) -> (f64, f64) {
        (wrap(x, self.xmin, self.lx), wrap(y, self.ymin, self.ly))
    }

    /// Minimum-image displacement of (dx, dy).
    pub fn min_image(&self, dx: f64, dy: f64) -> (f64, f64) {
        (min_image(dx, self.lx), min_image(dy, self.ly))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_and_min_image() {
        assert_eq!(wrap(2.5, 0.0, 2.0), 0.5);
        assert_eq!(wrap(-0.5, 0.0, 2.0), 1.5);
        assert_eq!(wrap(-1e-300, 0.0, 2.0), 0.0);
        assert_eq!(wrap(7.0, 1.0, 2.0), 1.0);
        assert_eq!(min_image(1.5, 2.0), -0.5);
        assert_eq!(min_image(-1.2, 2.0), 0.8);
        assert!(PeriodicBox::new(0.0, 0.0, 0.0, 1.0).is_err());
    }
}
