//! The staggered grid (spec §2.1): cell widths, face and centre coordinates, indexing.
//!
//! Storage has one ghost layer on each side: `NX = nx + 2` columns and `NY = ny + 2` rows,
//! cell (i, j) at `i + j*NX`, computed cells at i = 1..=nx, j = 1..=ny. Ghost widths mirror
//! the adjacent computed cell (or the opposite one on a periodic axis).
//!
//! ```text
//!        x_f[i]        x_f[i+1]
//!          |   p,T,ρ,Γ   |        u(i,j) lives on x_f[i] (west face of cell i)
//!   u(i,j) ->   (i,j)    |        v(i,j) lives on y_f[j] (south face of cell j)
//!          |____v(i,j)___|
//! ```

use crate::case::GridSpec;

/// Cell widths and coordinates of a (ghost-padded) tensor grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    /// Computed cells along x.
    pub nx: usize,
    /// Computed cells along y.
    pub ny: usize,
    /// Stored columns, nx + 2.
    pub nxt: usize,
    /// Stored rows, ny + 2.
    pub nyt: usize,
    /// Cell widths along x, `nxt` values (index = stored column).
    pub hx: Vec<f64>,
    /// Cell widths along y, `nyt` values.
    pub hy: Vec<f64>,
    /// West-face x coordinates, `nxt + 1` values: x_f[1] = x_start, x_f[nx+1] = x_end.
    pub x_f: Vec<f64>,
    /// South-face y coordinates, `nyt + 1` values.
    pub y_f: Vec<f64>,
    /// Cell-centre x coordinates, `nxt` values.
    pub x_v: Vec<f64>,
    /// Cell-centre y coordinates, `nyt` values.
    pub y_v: Vec<f64>,
}

/// Widths of `n` cells from face coordinates or a uniform split of `[a, b]`.
fn widths(n: usize, ext: [f64; 2], faces: Option<&Vec<f64>>) -> Vec<f64> {
    match faces {
        Some(f) => f.windows(2).map(|w| w[1] - w[0]).collect(),
        None => vec![(ext[1] - ext[0]) / n as f64; n],
    }
}

/// Pad computed widths with one ghost each side; face coordinates from `start`.
fn padded(h: Vec<f64>, start: f64, periodic: bool) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let n = h.len();
    let (g0, g1) = if periodic {
        (h[n - 1], h[0])
    } else {
        (h[0], h[n - 1])
    };
    let mut hp = Vec::with_capacity(n + 2);
    hp.push(g0);
    hp.extend_from_slice(&h);
    hp.push(g1);
    let mut f = Vec::with_capacity(n + 3);
    f.push(start - g0);
    for (k, w) in hp.iter().enumerate() {
        f.push(f[k] + w);
    }
    // Pin the domain ends exactly (the running sum may drift by an ulp).
    f[1] = start;
    let v = (0..n + 2).map(|k| f[k] + 0.5 * hp[k]).collect();
    (hp, f, v)
}

impl Grid {
    /// Build the padded grid. `periodic_x`/`periodic_y` make ghost widths wrap around.
    pub fn new(spec: &GridSpec, periodic_x: bool, periodic_y: bool) -> Grid {
        let hx = widths(spec.nx, spec.x, spec.x_faces.as_ref());
        let hy = widths(spec.ny, spec.y, spec.y_faces.as_ref());
        let (hx, x_f, x_v) = padded(hx, spec.x[0], periodic_x);
        let (hy, y_f, y_v) = padded(hy, spec.y[0], periodic_y);
        Grid {
            nx: spec.nx,
            ny: spec.ny,
            nxt: spec.nx + 2,
            nyt: spec.ny + 2,
            hx,
            hy,
            x_f,
            y_f,
            x_v,
            y_v,
        }
    }

    /// Linear index of stored cell (i, j).
    #[inline(always)]
    pub fn idx(&self, i: usize, j: usize) -> usize {
        i + j * self.nxt
    }

    /// Number of stored cells.
    pub fn len(&self) -> usize {
        self.nxt * self.nyt
    }

    /// Always false: a grid has at least one computed cell.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// True for a computed (non-ghost) cell.
    #[inline(always)]
    pub fn interior(&self, i: usize, j: usize) -> bool {
        i >= 1 && i <= self.nx && j >= 1 && j <= self.ny
    }

    /// Volume (area) of cell (i, j).
    #[inline(always)]
    pub fn vol(&self, i: usize, j: usize) -> f64 {
        self.hx[i] * self.hy[j]
    }

    /// Smallest cell width.
    pub fn h_min(&self) -> f64 {
        self.hx[1..=self.nx]
            .iter()
            .chain(&self.hy[1..=self.ny])
            .cloned()
            .fold(f64::MAX, f64::min)
    }

    /// Stored column whose computed cell contains x (clamped to 1..=nx).
    pub fn column_at(&self, x: f64) -> usize {
        let k = self.x_f[1..=self.nx + 1].partition_point(|&f| f <= x);
        k.clamp(1, self.nx)
    }

    /// Stored row whose computed cell contains y (clamped to 1..=ny).
    pub fn row_at(&self, y: f64) -> usize {
        let k = self.y_f[1..=self.ny + 1].partition_point(|&f| f <= y);
        k.clamp(1, self.ny)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(x_faces: Option<Vec<f64>>) -> GridSpec {
        GridSpec {
            nx: 4,
            ny: 2,
            x: [0.0, 2.0],
            y: [1.0, 2.0],
            x_faces,
            y_faces: None,
        }
    }

    #[test]
    fn uniform_metrics_and_ghosts() {
        let g = Grid::new(&spec(None), false, false);
        assert_eq!((g.nxt, g.nyt, g.len()), (6, 4, 24));
        assert_eq!(g.hx, vec![0.5; 6]);
        assert_eq!(g.x_f[1], 0.0);
        assert!((g.x_f[5] - 2.0).abs() < 1e-15);
        assert_eq!(g.x_f[0], -0.5);
        assert!((g.x_v[1] - 0.25).abs() < 1e-15);
        assert!((g.y_v[2] - 1.75).abs() < 1e-15);
        assert_eq!(g.idx(2, 3), 20);
        assert!(g.interior(1, 1) && !g.interior(0, 1) && !g.interior(5, 1) && !g.interior(1, 3));
        assert_eq!(g.column_at(0.6), 2);
        assert_eq!(g.row_at(1.9), 2);
    }

    #[test]
    fn non_uniform_and_periodic_ghost_widths() {
        let f = vec![0.0, 0.1, 0.4, 1.0, 2.0];
        let g = Grid::new(&spec(Some(f.clone())), false, false);
        assert!((g.hx[1] - 0.1).abs() < 1e-15 && (g.hx[4] - 1.0).abs() < 1e-15);
        assert!((g.hx[0] - 0.1).abs() < 1e-15 && (g.hx[5] - 1.0).abs() < 1e-15);
        let p = Grid::new(&spec(Some(f)), true, false);
        assert!((p.hx[0] - 1.0).abs() < 1e-15 && (p.hx[5] - 0.1).abs() < 1e-15);
        for k in 1..=4 {
            assert!((p.x_v[k] - 0.5 * (p.x_f[k] + p.x_f[k + 1])).abs() < 1e-15);
        }
    }
}
