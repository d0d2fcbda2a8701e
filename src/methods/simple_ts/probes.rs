//! Point probes (`output.probes`): values of the current iterate at fixed points.
//!
//! A probe reads the computed cell that contains its point (the cell whose faces bracket x and
//! y; on a uniform grid the nearest cell centre): p, T and ρ are that cell's centre values
//! (no interpolation), u is the mean of the cell's west and east faces, v the mean of its south
//! and north faces. Validation ([`crate::case::rules`]) guarantees the cell is a fluid cell.

use crate::case::Probe;
use crate::grid::Grid;
use crate::methods::simple_ts::fields::Fields;

/// Index of the computed cell `1..=n` whose faces `f[i] ≤ x ≤ f[i + 1]` bracket `x`
/// (the lower one on a shared face); `None` outside `[f[1], f[n + 1]]`.
pub fn locate(faces: &[f64], n: usize, x: f64) -> Option<usize> {
    if !(x >= faces[1] && x <= faces[n + 1]) {
        return None;
    }
    (1..=n).find(|&i| x <= faces[i + 1])
}

/// One probe's values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbeValues {
    /// Pressure.
    pub p: f64,
    /// Temperature.
    pub t: f64,
    /// Density.
    pub rho: f64,
    /// u, mean of the cell's west and east faces.
    pub u: f64,
    /// v, mean of the cell's south and north faces.
    pub v: f64,
}

/// Probes located on a grid.
#[derive(Debug, Clone)]
pub struct Probes {
    /// The probes, in case order.
    pub probes: Vec<Probe>,
    cells: Vec<(usize, usize)>,
}

impl Probes {
    /// Locate `probes` on `grid`; probes outside the grid are dropped (validation refuses them).
    pub fn new(probes: &[Probe], grid: &Grid) -> Probes {
        let mut kept = Vec::new();
        let mut cells = Vec::new();
        for pr in probes {
            if let (Some(i), Some(j)) = (
                locate(&grid.x_f, grid.nx, pr.x),
                locate(&grid.y_f, grid.ny, pr.y),
            ) {
                kept.push(pr.clone());
                cells.push((i, j));
            }
        }
        Probes {
            probes: kept,
            cells,
        }
    }

    /// The stored (i, j) of each probe's cell, in probe order.
    pub fn cells(&self) -> &[(usize, usize)] {
        &self.cells
    }

    /// Values of every probe in the fields `k`.
    pub fn sample(&self, g: &Grid, k: &Fields) -> Vec<ProbeValues> {
        self.cells
            .iter()
            .map(|&(i, j)| {
                let ij = g.idx(i, j);
                ProbeValues {
                    p: k.p[ij],
                    t: k.T[ij],
                    rho: k.rho[ij],
                    u: 0.5 * (k.u[ij] + k.u[g.idx(i + 1, j)]),
                    v: 0.5 * (k.v[ij] + k.v[g.idx(i, j + 1)]),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::GridSpec;

    #[test]
    fn probe_reads_its_cell_and_averages_faces() {
        let spec = GridSpec {
            nx: 4,
            ny: 2,
            x: [0.0, 4.0],
            y: [0.0, 2.0],
            x_faces: None,
            y_faces: None,
        };
        let g = Grid::new(&spec, false, false);
        assert_eq!(locate(&g.x_f, 4, 0.0), Some(1));
        assert_eq!(locate(&g.x_f, 4, 2.5), Some(3));
        assert_eq!(locate(&g.x_f, 4, 4.0), Some(4));
        assert_eq!(locate(&g.x_f, 4, 4.1), None);
        let mut f = Fields::zeros(g.len());
        for ij in 0..g.len() {
            f.p[ij] = ij as f64;
            f.u[ij] = 10.0 * ij as f64;
            f.v[ij] = 100.0 * ij as f64;
        }
        let pr = Probe {
            name: "a".into(),
            x: 2.5,
            y: 1.5,
        };
        let probes = Probes::new(&[pr], &g);
        let v = probes.sample(&g, &f)[0];
        let ij = g.idx(3, 2) as f64;
        assert_eq!(v.p, ij);
        assert_eq!(v.u, 10.0 * (ij + 0.5));
        assert_eq!(v.v, 100.0 * (ij + g.nxt as f64 / 2.0));
    }
}
