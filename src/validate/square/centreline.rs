//! The body's centreline ([`Centreline`]): pressure at the cell centres and u at the u-faces
//! along y = (y0 + y1)/2, sampled from a state and averaged over a run's window.

use crate::grid::Grid;
use crate::methods::simple_ts::geometry::Geometry;

/// Values along the body's centreline y = (y0 + y1)/2 (the mean of the two rows beside it
/// when it is a face line). Solid cells and faces are NaN (`null` in a cached run's JSON).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Centreline {
    /// Cell-centre x of the computed columns.
    pub x_p: Vec<f64>,
    /// Pressure at `x_p`.
    #[serde(with = "nan_as_null")]
    pub p: Vec<f64>,
    /// u-face x (west faces of columns 1..=nx+1).
    pub x_u: Vec<f64>,
    /// u at `x_u`.
    #[serde(with = "nan_as_null")]
    pub u: Vec<f64>,
}

/// Serde for a `Vec<f64>` with NaN entries: NaN is written as `null` and read back as NaN
/// (JSON has no NaN). Every other value round-trips exactly (`float_roundtrip`).
mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|x| (!x.is_nan()).then_some(*x)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        let v: Vec<Option<f64>> = Vec::deserialize(d)?;
        Ok(v.into_iter().map(|x| x.unwrap_or(f64::NAN)).collect())
    }
}

impl Centreline {
    /// The centreline of `k` at y = `yc`.
    pub fn of(
        g: &Grid,
        geo: &Geometry,
        k: &crate::methods::simple_ts::fields::Fields,
        yc: f64,
    ) -> Centreline {
        let j = g.row_at(yc);
        let on_face = (g.y_f[j] - yc).abs() <= 1e-9 * g.hy[j];
        let rows = if on_face && j > 1 { [j - 1, j] } else { [j, j] };
        let mut c = Centreline::default();
        for i in 1..=g.nx {
            let (a, b) = (g.idx(i, rows[0]), g.idx(i, rows[1]));
            c.x_p.push(g.x_v[i]);
            c.p.push(if geo.fluid(a) && geo.fluid(b) {
                0.5 * (k.p[a] + k.p[b])
            } else {
                f64::NAN
            });
        }
        for i in 1..=g.nx + 1 {
            let ok = rows
                .iter()
                .all(|&r| !geo.solid(g.idx(i - 1, r)) && !geo.solid(g.idx(i, r)));
            let (a, b) = (g.idx(i, rows[0]), g.idx(i, rows[1]));
            c.x_u.push(g.x_f[i]);
            c.u.push(if ok {
                0.5 * (k.u[a] + k.u[b])
            } else {
                f64::NAN
            });
        }
        c
    }

    /// Add `o` (same grid) into `self`; an empty `self` takes `o`.
    pub(super) fn accumulate(&mut self, o: &Centreline) {
        if self.x_p.is_empty() {
            *self = o.clone();
            return;
        }
        self.p.iter_mut().zip(&o.p).for_each(|(a, b)| *a += b);
        self.u.iter_mut().zip(&o.u).for_each(|(a, b)| *a += b);
    }

    /// Multiply every sampled value by `s` (the sum of a window into its mean).
    pub(super) fn scale(&mut self, s: f64) {
        self.p.iter_mut().for_each(|a| *a *= s);
        self.u.iter_mut().for_each(|a| *a *= s);
    }
}
