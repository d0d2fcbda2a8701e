//! What SIMPLE-TS writes beside the fields, every step or every few: the forces on each body
//! (`<stem>.forces.csv`) and the point probes (`<stem>.probes.csv`); the run driver streams
//! the lines into the files (`output::side`). One line per body or probe per due
//! step that passed the divergence guard; floats in Rust's round-trip `{:e}` form.
//!
//! Both read only a few rows of the iterate ([`SideOutputs::rows`]), so a device backend reads
//! back only those: the forces the rows of the bodies' solid cells ± [`FORCE_HALO`], the probes
//! the row of each probe cell and the one above it.

use std::ops::Range;

use super::case::Case;
use super::fields::State;
use super::forces::Forces;
use super::geometry::Geometry;
use super::probes::Probes;
use crate::grid::Grid;
use crate::solver::SideSpec;

/// Header of `<stem>.forces.csv`; `scale` is the coefficient denominator ½ ρ_in u_in² L_b
/// (1 without an inflow side: Cd and Cl are then the raw total forces).
pub const FORCES_HEADER: &str = "step,time,body,Fx_p,Fx_v,Fy_p,Fy_v,Cd,Cl,scale";
/// Header of `<stem>.probes.csv`.
pub const PROBES_HEADER: &str = "step,time,probe,x,y,p,T,rho,u,v";

/// Rows around the bodies that the force integration reads: the fluid cells next to a body
/// (1), their north v-faces (2), and the face densities ρv there, whose TVD stencil reaches
/// two rows from the face (2).
pub const FORCE_HALO: usize = 2;

/// The forces and probes of a case, and the rows they read.
pub struct SideOutputs {
    forces: Option<Forces>,
    probes: Option<Probes>,
    force_rows: Vec<Range<usize>>,
    probe_rows: Vec<Range<usize>>,
}

/// Sort `ranges` and merge those that overlap or touch.
pub fn merge_ranges(mut ranges: Vec<Range<usize>>) -> Vec<Range<usize>> {
    ranges.retain(|r| r.start < r.end);
    ranges.sort_by_key(|r| r.start);
    let mut out: Vec<Range<usize>> = Vec::with_capacity(ranges.len());
    for r in ranges {
        match out.last_mut() {
            Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
            _ => out.push(r),
        }
    }
    out
}

/// Stored rows holding a solid cell of one of the `n_bodies` bodies, ± [`FORCE_HALO`], clamped
/// to the grid (empty without bodies).
pub fn body_rows(grid: &Grid, geo: &Geometry, n_bodies: usize) -> Range<usize> {
    let mut rows = (usize::MAX, 0);
    for j in 0..grid.nyt {
        for i in 0..grid.nxt {
            let s = grid.idx(i, j);
            if geo.solid(s) && (geo.wall_of[s] as usize) < n_bodies {
                rows = (rows.0.min(j), rows.1.max(j));
            }
        }
    }
    if rows.0 > rows.1 {
        return 0..0;
    }
    rows.0.saturating_sub(FORCE_HALO)..(rows.1 + FORCE_HALO + 1).min(grid.nyt)
}

/// The side series of `case`: forces (cases with bodies), then probes (cases with
/// `output.probes`), with their cadence (0: no file).
pub fn specs(case: &Case) -> Vec<SideSpec> {
    let o = &case.output;
    vec![
        SideSpec {
            suffix: "forces",
            header: FORCES_HEADER,
            every: if case.bodies.is_empty() {
                0
            } else {
                o.forces_every
            },
        },
        SideSpec {
            suffix: "probes",
            header: PROBES_HEADER,
            every: if o.probes.is_empty() {
                0
            } else {
                o.probes_every
            },
        },
    ]
}

impl SideOutputs {
    /// The forces and probes of `case` on its grid and geometry.
    pub fn new(case: &Case, grid: &Grid, geo: &Geometry) -> SideOutputs {
        let o = &case.output;
        let forces = (!case.bodies.is_empty() && o.forces_every > 0).then(|| {
            let f = Forces::new(case, grid, geo);
            if !f.normalised {
                log::warn!("no inflow side: Cd and Cl in the forces file are raw forces");
            }
            f
        });
        let probes =
            (!o.probes.is_empty() && o.probes_every > 0).then(|| Probes::new(&o.probes, grid));
        let probe_rows = probes.as_ref().map_or(vec![], |p| {
            merge_ranges(p.cells().iter().map(|&(_, j)| j..j + 2).collect())
        });
        // The coefficients may read one more cell: the reference state's.
        let mut force_rows = vec![body_rows(grid, geo, case.bodies.len())];
        if let Some(j) = forces.as_ref().and_then(|f| f.reference_row(grid)) {
            force_rows.push(j..j + 1);
        }
        SideOutputs {
            force_rows: merge_ranges(force_rows),
            forces,
            probes,
            probe_rows,
        }
    }

    /// The stored rows of the iterate that [`SideOutputs::lines`] reads for `due` (forces,
    /// probes).
    pub fn rows(&self, due: &[bool]) -> Vec<Range<usize>> {
        let (forces, probes) = (due.first() == Some(&true), due.get(1) == Some(&true));
        let mut rows = if probes {
            self.probe_rows.clone()
        } else {
            vec![]
        };
        if forces {
            rows.extend(self.force_rows.iter().cloned());
        }
        merge_ranges(rows)
    }

    /// The lines of the files in `due` (forces, probes) for the iterate of `st` (only the rows
    /// of [`SideOutputs::rows`] are read).
    pub fn lines(
        &mut self,
        grid: &Grid,
        geo: &Geometry,
        st: &State,
        due: &[bool],
    ) -> Vec<Vec<String>> {
        let (step, t) = (st.step, st.time);
        let mut out = vec![vec![], vec![]];
        if let (Some(f), Some(true)) = (&mut self.forces, due.first()) {
            for (k, r) in f.compute(grid, geo, &st.k).iter().enumerate() {
                let q = f.scale[k];
                out[0].push(format!(
                    "{step},{t:e},{},{:e},{:e},{:e},{:e},{:e},{:e},{q:e}",
                    f.names[k],
                    r.fx_p,
                    r.fx_v,
                    r.fy_p,
                    r.fy_v,
                    r.fx() / q,
                    r.fy() / q
                ));
            }
        }
        if let (Some(p), Some(true)) = (&self.probes, due.get(1)) {
            for (pr, v) in p.probes.iter().zip(p.sample(grid, &st.k)) {
                out[1].push(format!(
                    "{step},{t:e},{},{:e},{:e},{:e},{:e},{:e},{:e},{:e}",
                    pr.name, pr.x, pr.y, v.p, v.t, v.rho, v.u, v.v
                ));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_merge_when_they_overlap_or_touch() {
        let m = merge_ranges(vec![7..9, 0..2, 2..3, 8..12, 5..5, 20..21]);
        assert_eq!(m, vec![0..3, 7..12, 20..21]);
        assert!(merge_ranges(vec![]).is_empty());
    }

    /// Forces and probes computed from the rows of [`SideFiles::rows`] alone (every other row
    /// NaN) equal those from the whole state, bit for bit, for TVD (the widest stencil).
    #[test]
    fn forces_and_probes_read_only_their_rows() {
        use crate::methods::simple_ts::backend::Backend;
        use crate::methods::simple_ts::reference::Reference;
        let json = r#"{
            "name": "rows",
            "gas": { "kn": 0.05 },
            "grid": { "nx": 30, "ny": 24, "x": [0.0, 3.0], "y": [0.0, 2.4] },
            "bodies": [ { "name": "a", "x": [0.8, 1.2], "y": [0.8, 1.2] },
                        { "name": "b", "x": [1.8, 2.2], "y": [1.0, 1.3], "wall": "no_slip" } ],
            "boundaries": {
                "west": { "kind": "inflow", "mach": 2.43 }, "east": { "kind": "outflow" },
                "south": { "kind": "wall" }, "north": { "kind": "wall" }
            },
            "scheme": { "interpolation": "tvd" },
            "time": { "dt": 0.01, "steps": 3 },
            "output": { "probes": [ { "name": "p", "x": 2.5, "y": 0.25 },
                                    { "name": "q", "x": 0.25, "y": 2.33 } ] }
        }"#;
        let case = Case::from_json(json, "test").unwrap();
        let mut r = Reference::new(&case);
        for _ in 0..3 {
            r.step().unwrap();
        }
        let (g, geo) = (r.grid().clone(), r.geometry().clone());
        let full = r.state().unwrap().clone();
        let mut side = SideOutputs::new(&case, &g, &geo);
        let rows = side.rows(&[true, true]);
        // Bodies cover stored rows 9..=12 and 11..=13; the probes' cells are in rows 3 and 24.
        assert_eq!(rows, vec![3..5, 7..16, 24..26]);
        assert_eq!(side.rows(&[false, true]), vec![3..5, 24..26]);
        assert_eq!(side.rows(&[true, false]), vec![7..16]);
        let mut poisoned = full.clone();
        for j in (0..g.nyt).filter(|j| !rows.iter().any(|r| r.contains(j))) {
            for f in [
                &mut poisoned.k.u,
                &mut poisoned.k.v,
                &mut poisoned.k.p,
                &mut poisoned.k.T,
                &mut poisoned.k.rho,
                &mut poisoned.k.Gam,
            ] {
                f[j * g.nxt..(j + 1) * g.nxt].fill(f64::NAN);
            }
        }
        let mut fa = Forces::new(&case, &g, &geo);
        let mut fb = fa.clone();
        assert_eq!(
            fa.compute(&g, &geo, &full.k),
            fb.compute(&g, &geo, &poisoned.k)
        );
        let p = Probes::new(&case.output.probes, &g);
        assert_eq!(p.sample(&g, &full.k), p.sample(&g, &poisoned.k));
        let lines = side.lines(&g, &geo, &poisoned, &[true, true]);
        assert_eq!(lines, side.lines(&g, &geo, &full, &[true, true]));
        assert_eq!((lines[0].len(), lines[1].len()), (2, 2));
        assert!(!lines.concat().concat().contains("NaN"), "{lines:?}");
    }

    /// A `forces_reference` cell far from the bodies adds its row to the forces' rows, and
    /// the coefficients computed from those rows alone (every other row NaN) equal those from
    /// the whole state.
    #[test]
    fn a_reference_cell_adds_its_row() {
        use crate::methods::simple_ts::backend::Backend;
        use crate::methods::simple_ts::reference::Reference;
        let json = r#"{
            "name": "rows",
            "gas": { "kn": 0.05 },
            "grid": { "nx": 30, "ny": 24, "x": [0.0, 3.0], "y": [0.0, 2.4] },
            "bodies": [ { "name": "a", "x": [0.8, 1.2], "y": [0.8, 1.2] } ],
            "boundaries": {
                "west": { "kind": "inflow", "mach": 2.43 }, "east": { "kind": "outflow" },
                "south": { "kind": "wall" }, "north": { "kind": "wall" }
            },
            "forces_reference": { "kind": "cell", "x": 0.05, "y": 2.35, "T": 1.0, "u": 2.0 },
            "time": { "dt": 0.01, "steps": 3 }
        }"#;
        let case = Case::from_json(json, "test").unwrap();
        let mut r = Reference::new(&case);
        for _ in 0..3 {
            r.step().unwrap();
        }
        let (g, geo) = (r.grid().clone(), r.geometry().clone());
        let full = r.state().unwrap().clone();
        let mut side = SideOutputs::new(&case, &g, &geo);
        let rows = side.rows(&[true, false]);
        // The body covers stored rows 9..=12 (± the halo); the reference cell is in row 24.
        assert_eq!(rows, vec![7..15, 24..25]);
        let mut poisoned = full.clone();
        for j in (0..g.nyt).filter(|j| !rows.iter().any(|r| r.contains(j))) {
            for f in [
                &mut poisoned.k.u,
                &mut poisoned.k.v,
                &mut poisoned.k.p,
                &mut poisoned.k.T,
                &mut poisoned.k.rho,
                &mut poisoned.k.Gam,
            ] {
                f[j * g.nxt..(j + 1) * g.nxt].fill(f64::NAN);
            }
        }
        let lines = side.lines(&g, &geo, &poisoned, &[true, false]);
        assert_eq!(lines, side.lines(&g, &geo, &full, &[true, false]));
        let q = 0.5 * full.k.p[g.idx(1, 24)] * 4.0 * (1.2 - 0.8);
        assert!(lines[0][0].ends_with(&format!(",{q:e}")), "{lines:?}");
    }
}
