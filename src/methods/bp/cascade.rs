//! The turbine cascade H-grid with periodic sides (seed 001 §6: a 60 × 60 H-grid, clustered
//! near the leading edge, periodic boundaries). The report's blade (Denton 1982) is not
//! available; the stand-in (docs/decisions.md) is a blade of axial chord 1 from x = 0
//! (leading edge) to x = 1 (trailing edge):
//!
//! - **camber line**: a circular arc from the inlet metal angle χ1 to the exit metal angle χ2
//!   (angles from the x axis): sin χ varies linearly with x, sin χ(x) = sin χ1 + (sin χ2 −
//!   sin χ1)x, so y_c(x) = (cos χ1 − cos χ(x))/(sin χ2 − sin χ1) (y_c = x tan χ1 when the
//!   two angles are equal);
//! - **thickness**: pitchwise (along y), t(x) = t_max · 4x(1 − x), zero at both edges (sharp
//!   edges, which an H-grid line can pass through);
//! - **passage**: the j = 0 line is the upper surface of one blade, y_c + t/2; the j = nj − 1
//!   line the lower surface of the next, y_c − t/2 + pitch. Upstream of the leading edge the
//!   two lines continue straight along χ1 and downstream of the trailing edge along χ2, one
//!   pitch apart: those nodes are periodic pairs ([`NodeGrid::periodic`]), the leading and
//!   trailing edge nodes included.
//! - **nodes along i**: half the cells on the blade, x = ½ξ + ¼(1 − cos πξ) for ξ uniform in
//!   [0, 1] (clustered towards both edges), a quarter upstream over [−`UPSTREAM`, 0] and the
//!   rest downstream over [1, 1 + `DOWNSTREAM`], each growing geometrically away from the
//!   blade from the blade's edge spacing; nodes uniform along each i-line (x = const).

use super::grid::NodeGrid;

/// Axial length of the grid upstream of the leading edge, in axial chords.
pub const UPSTREAM: f64 = 0.6;
/// Axial length of the grid downstream of the trailing edge, in axial chords.
pub const DOWNSTREAM: f64 = 0.6;

/// The cascade's geometry (angles in radians, lengths in axial chords).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cascade {
    /// Nodes along i.
    pub ni: usize,
    /// Nodes along j (across the passage).
    pub nj: usize,
    /// Blade pitch.
    pub pitch: f64,
    /// Inlet metal angle χ1.
    pub chi1: f64,
    /// Exit metal angle χ2.
    pub chi2: f64,
    /// Largest pitchwise thickness (at mid-chord).
    pub thickness: f64,
}

impl Cascade {
    /// The cells along i upstream of the blade, on it and downstream.
    pub fn cells(&self) -> (usize, usize, usize) {
        let n = self.ni - 1;
        let blade = n / 2;
        let up = (n - blade) / 2;
        (up, blade, n - blade - up)
    }

    /// i of the leading and trailing edge nodes (0-based).
    pub fn edges(&self) -> (usize, usize) {
        let (up, blade, _) = self.cells();
        (up, up + blade)
    }

    /// The camber line y_c(x) on [0, 1].
    pub fn camber(&self, x: f64) -> f64 {
        let (s1, s2) = (self.chi1.sin(), self.chi2.sin());
        let b = s2 - s1;
        if b.abs() < 1e-12 {
            return x * self.chi1.tan();
        }
        let s = s1 + b * x;
        (self.chi1.cos() - (1.0 - s * s).sqrt()) / b
    }

    /// The pitchwise thickness t(x) on [0, 1].
    pub fn thick(&self, x: f64) -> f64 {
        self.thickness * 4.0 * x * (1.0 - x)
    }

    /// The lower line (j = 0) at x: the blade's upper surface on [0, 1], straight along the
    /// metal angles outside.
    pub fn lower(&self, x: f64) -> f64 {
        if x <= 0.0 {
            x * self.chi1.tan()
        } else if x >= 1.0 {
            self.camber(1.0) + (x - 1.0) * self.chi2.tan()
        } else {
            self.camber(x) + 0.5 * self.thick(x)
        }
    }

    /// The upper line (j = nj − 1) at x: one pitch above the lower line outside the blade,
    /// the next blade's lower surface on it.
    pub fn upper(&self, x: f64) -> f64 {
        if x <= 0.0 || x >= 1.0 {
            self.lower(x) + self.pitch
        } else {
            self.camber(x) - 0.5 * self.thick(x) + self.pitch
        }
    }

    /// The throat o: the shortest distance from the next blade's trailing edge (1,
    /// y_c(1) + pitch) to this blade's upper surface (sampled at 10 001 points along x).
    /// cos⁻¹(o/pitch) is the classical estimate of the exit flow angle's magnitude (exact
    /// for a choked passage, a few degrees high at subsonic exit Mach numbers).
    pub fn throat(&self) -> f64 {
        let (xt, yt) = (1.0, self.upper(1.0));
        (0..=10_000)
            .map(|k| {
                let x = k as f64 / 10_000.0;
                (x - xt).hypot(self.lower(x) - yt)
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// The x of the node columns.
    pub fn xs(&self) -> Vec<f64> {
        let (up, blade, down) = self.cells();
        let pi = std::f64::consts::PI;
        let bl: Vec<f64> = (0..=blade)
            .map(|k| {
                let xi = k as f64 / blade as f64;
                0.5 * xi + 0.25 * (1.0 - (pi * xi).cos())
            })
            .collect();
        let d_le = bl[1] - bl[0];
        let d_te = bl[blade] - bl[blade - 1];
        let mut xs: Vec<f64> = stretched(up, d_le, UPSTREAM)
            .iter()
            .rev()
            .map(|d| -d)
            .collect();
        xs.extend_from_slice(&bl);
        xs.extend(stretched(down, d_te, DOWNSTREAM).iter().map(|d| 1.0 + d));
        xs
    }

    /// The node grid.
    pub fn grid(&self) -> NodeGrid {
        let (ni, nj) = (self.ni, self.nj);
        let xs = self.xs();
        let mut x = vec![0.0; ni * nj];
        let mut y = vec![0.0; ni * nj];
        for (i, &xi) in xs.iter().enumerate() {
            let (lo, hi) = (self.lower(xi), self.upper(xi));
            for j in 0..nj {
                let f = j as f64 / (nj - 1) as f64;
                x[i + j * ni] = xi;
                y[i + j * ni] = lo + f * (hi - lo);
            }
        }
        let (le, te) = self.edges();
        let periodic = (0..ni).map(|i| i <= le || i >= te).collect();
        NodeGrid::new(ni, nj, x, y).with_periodic(periodic)
    }
}

/// The distances from the blade edge of `n` nodes (beyond the edge) whose spacing grows by a
/// constant ratio from `d0`, the last at `len`: d0(1 + r + … + r^(k−1)) for k = 1..n, with r
/// found by bisection (r < 1 if n·d0 exceeds `len`).
fn stretched(n: usize, d0: f64, len: f64) -> Vec<f64> {
    let total = |r: f64| (0..n).map(|k| d0 * r.powi(k as i32)).sum::<f64>();
    let (mut lo, mut hi) = (0.2, 3.0);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if total(mid) < len {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let r = 0.5 * (lo + hi);
    let mut out = Vec::with_capacity(n);
    let mut s = 0.0;
    for k in 0..n {
        s += d0 * r.powi(k as i32);
        out.push(s);
    }
    // The last node exactly at the end of the domain.
    if let Some(l) = out.last_mut() {
        *l = len;
    }
    out
}
