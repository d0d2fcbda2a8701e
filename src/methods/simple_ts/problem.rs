//! The discretised problem of a SIMPLE-TS case: everything every backend, the forces, the
//! probes and the validation share, built once: the case, the padded grid, the cell and face
//! classes, the constants of eq. (41), the ghost rules, and the initial state (impulsive
//! start, spec §3.5), which a device backend builds and uploads in row chunks so that the
//! host never holds a full-size reference state.

use std::collections::HashMap;
use std::ops::Range;

use super::case::{Case, Side};
use super::fields::Fields;
use super::geometry::{Geometry, F_FIXED, F_NONE, SOLID};
use super::physics::Constants;
use super::reference::bc::{CellRule, Ghosts, Src};
use super::reference::ops::{gam_eos, rho_eos};
use crate::grid::Grid;

/// A case on its grid, ready for any backend.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The case.
    pub case: Case,
    /// The padded staggered grid.
    pub grid: Grid,
    /// Cell and face classes, wall records.
    pub geo: Geometry,
    /// The constants of the equations.
    pub c: Constants,
    /// Ghost-layer and copy-face rules.
    pub ghosts: Ghosts,
    /// The ghost rules by cell, and the copy sources by face (boundary-sized), to give the
    /// initial state of any row without the whole grid.
    rules: (
        HashMap<usize, CellRule>,
        HashMap<usize, usize>,
        HashMap<usize, usize>,
    ),
}

impl Problem {
    /// Discretise `case` (which has been validated).
    pub fn new(case: &Case) -> Problem {
        let b = &case.boundaries;
        let px = matches!(b.west, Side::Periodic {});
        let py = matches!(b.south, Side::Periodic {});
        let grid = Grid::new(&case.grid, px, py);
        let geo = Geometry::new(case, &grid);
        let ghosts = Ghosts::new(&grid, &geo);
        Problem::from_parts(case, grid, geo, ghosts)
    }

    /// The problem of `case` on `grid` with the classes `geo` and the ghost rules `ghosts`
    /// (a rank's window of the whole problem: `methods::simple_ts::ranks`).
    pub fn from_parts(case: &Case, grid: Grid, geo: Geometry, ghosts: Ghosts) -> Problem {
        let rules = (
            ghosts.cells.iter().copied().collect(),
            ghosts.u_copies.iter().copied().collect(),
            ghosts.v_copies.iter().copied().collect(),
        );
        Problem {
            c: Constants::new(&case.gas),
            case: case.clone(),
            grid,
            geo,
            ghosts,
            rules,
        }
    }

    /// Initial p and T of stored cell `ij` before the ghost rules.
    fn raw_pt(&self, ij: usize) -> (f64, f64) {
        let (g, geo, init) = (&self.grid, &self.geo, &self.case.initial);
        if geo.cell[ij] == SOLID {
            return (0.0, geo.wall(ij).t);
        }
        let p = match init.p_east {
            Some(pe) => {
                let (x0, x1) = (self.case.grid.x[0], self.case.grid.x[1]);
                let s = ((g.x_v[ij % g.nxt] - x0) / (x1 - x0)).clamp(0.0, 1.0);
                init.p + (pe - init.p) * s
            }
            None => init.p,
        };
        (p, init.t)
    }

    /// Initial p, T, ρ, Γ of stored cell `ij`, ghost rules applied (a copied value is its
    /// source's, through a chain if need be).
    fn cell(&self, ij: usize) -> [f64; 4] {
        match self.rules.0.get(&ij) {
            Some(&CellRule { p, t }) => {
                let value = |s: Src, k: usize| match s {
                    Src::Fixed(v) => v,
                    Src::Copy(src) => self.cell(src)[k],
                };
                let (p, t) = (value(p, 0), value(t, 1));
                [p, t, rho_eos(p, t), gam_eos(t)]
            }
            None => {
                let (p, t) = self.raw_pt(ij);
                let rho = if self.geo.cell[ij] == SOLID {
                    0.0
                } else {
                    rho_eos(p, t)
                };
                [p, t, rho, gam_eos(t)]
            }
        }
    }

    /// Initial velocity of face `ij` of class `kind` with fixed values `fixed`, copies
    /// `copies` and the initial value `init` on solved faces.
    fn face(
        &self,
        ij: usize,
        kind: &[u8],
        fixed: &[f64],
        copies: &HashMap<usize, usize>,
        init: f64,
    ) -> f64 {
        match copies.get(&ij) {
            Some(&src) => self.face(src, kind, fixed, copies, init),
            None => match kind[ij] {
                F_FIXED => fixed[ij],
                F_NONE => 0.0,
                _ => init,
            },
        }
    }

    /// The initial iterate on the stored rows `rows` (`rows.len() · nxt` values per field),
    /// ghost rules and face copies applied: p (linear in x with `initial.p_east`), T, ρ = p/T,
    /// Γ = √T in fluid and open cells; the wall temperature (and ρ = 0) in solid cells; u, v
    /// from the initial state on solved faces, the fixed values on fixed faces, 0 inside
    /// solids. Equal, bit for bit, to the rows of [`Problem::initial`].
    pub fn initial_rows(&self, rows: Range<usize>) -> Fields {
        use rayon::prelude::*;
        let (g, geo, init) = (&self.grid, &self.geo, &self.case.initial);
        let base = rows.start * g.nxt;
        // Cells on rayon's threads (each value is its own rule's: no order to keep), then
        // scattered into the six arrays: the per-cell rule lookups were about a quarter of a
        // large grid's OpenCL set-up on one core (profile at 64 M cells).
        let cells: Vec<[f64; 6]> = (base..rows.end * g.nxt)
            .into_par_iter()
            .map(|ij| {
                let [p, t, rho, gam] = self.cell(ij);
                let u = self.face(ij, &geo.u_face, &geo.u_fixed, &self.rules.1, init.u);
                let v = self.face(ij, &geo.v_face, &geo.v_fixed, &self.rules.2, init.v);
                [u, v, p, t, rho, gam]
            })
            .collect();
        let mut k = Fields::zeros(cells.len());
        for (at, c) in cells.iter().enumerate() {
            [k.u[at], k.v[at], k.p[at], k.T[at], k.rho[at], k.Gam[at]] = *c;
        }
        k
    }

    /// The whole initial iterate.
    pub fn initial(&self) -> Fields {
        self.initial_rows(0..self.grid.nyt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The per-cell rule evaluation equals the original whole-grid construction (raw values,
    /// then the ordered ghost and face copies), and any row range equals those rows of it.
    #[test]
    fn initial_rows_equal_the_whole_grid_construction() {
        for (west, south) in [
            ("inflow", "wall"),
            ("periodic", "periodic"),
            ("pressure", "wall"),
        ] {
            let east = if west == "periodic" {
                "periodic"
            } else {
                "outflow"
            };
            let north = south;
            let side = |k: &str| match k {
                "inflow" => r#"{ "kind": "inflow", "mach": 0.5, "p": 1.3, "T": 1.1 }"#.to_string(),
                "pressure" => r#"{ "kind": "pressure", "p": 1.7, "T": 0.9 }"#.to_string(),
                "wall" => r#"{ "kind": "wall", "velocity": 0.2, "T": 1.2 }"#.to_string(),
                k => format!(r#"{{ "kind": "{k}" }}"#),
            };
            let json = format!(
                r#"{{ "name": "init", "gas": {{ "kn": 0.05 }},
                   "grid": {{ "nx": 12, "ny": 9, "x": [0.0, 1.2], "y": [0.0, 0.9] }},
                   "bodies": [ {{ "x": [0.4, 0.7], "y": [0.3, 0.6], "T_wall": 1.4 }} ],
                   "boundaries": {{ "west": {}, "east": {}, "south": {}, "north": {} }},
                   "initial": {{ "u": 0.3, "v": 0.05, "p": 1.0, "p_east": 0.6, "T": 1.05 }},
                   "time": {{ "dt": 0.01, "steps": 1 }} }}"#,
                side(west),
                side(east),
                side(south),
                side(north)
            );
            let case = Case::from_json(&json, "init").unwrap();
            let pb = Problem::new(&case);
            let (g, geo) = (&pb.grid, &pb.geo);
            // The original construction.
            let mut want = Fields::zeros(g.len());
            let init = &case.initial;
            for j in 0..g.nyt {
                for i in 0..g.nxt {
                    let ij = g.idx(i, j);
                    if geo.cell[ij] == SOLID {
                        let t = geo.wall(ij).t;
                        want.T[ij] = t;
                        want.Gam[ij] = t.sqrt();
                    } else {
                        let s = ((g.x_v[i] - 0.0) / 1.2f64).clamp(0.0, 1.0);
                        let p = init.p + (0.6 - init.p) * s;
                        want.p[ij] = p;
                        want.T[ij] = init.t;
                        want.rho[ij] = p / init.t;
                        want.Gam[ij] = init.t.sqrt();
                    }
                    want.u[ij] = match geo.u_face[ij] {
                        F_FIXED => geo.u_fixed[ij],
                        F_NONE => 0.0,
                        _ => init.u,
                    };
                    want.v[ij] = match geo.v_face[ij] {
                        F_FIXED => geo.v_fixed[ij],
                        F_NONE => 0.0,
                        _ => init.v,
                    };
                }
            }
            pb.ghosts.apply_cells(&mut want);
            pb.ghosts.apply_faces(&mut want);
            let bits = |f: &Fields| -> Vec<u64> {
                [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam]
                    .iter()
                    .flat_map(|a| a.iter().map(|x| x.to_bits()))
                    .collect()
            };
            assert_eq!(bits(&pb.initial()), bits(&want), "{west}/{south}");
            let rows = 3..7;
            let part = pb.initial_rows(rows.clone());
            let n = g.nxt;
            let slice = |f: &Fields| Fields {
                u: f.u[rows.start * n..rows.end * n].to_vec(),
                v: f.v[rows.start * n..rows.end * n].to_vec(),
                p: f.p[rows.start * n..rows.end * n].to_vec(),
                T: f.T[rows.start * n..rows.end * n].to_vec(),
                rho: f.rho[rows.start * n..rows.end * n].to_vec(),
                Gam: f.Gam[rows.start * n..rows.end * n].to_vec(),
            };
            assert_eq!(bits(&part), bits(&slice(&want)), "{west}/{south} rows");
        }
    }
}
