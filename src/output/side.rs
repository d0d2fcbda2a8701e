//! Per-step CSV files next to the NetCDF output: `<stem>.forces.csv` (cases with bodies) and
//! `<stem>.probes.csv` (cases with `output.probes`), every `output.forces_every` and
//! `output.probes_every` steps (absolute step numbers; 0 turns a file off). One line per body
//! or probe per due step that passed the divergence guard; floats in Rust's round-trip `{:e}`
//! form.
//!
//! Both read only a few rows of the iterate ([`SideFiles::rows`]), so a device backend reads
//! back only those: the forces the rows of the bodies' solid cells ± [`FORCE_HALO`], the probes
//! the row of each probe cell and the one above it.

use std::ops::Range;
use std::path::Path;

use super::csv::CsvWriter;
use crate::error::OutputError;
use crate::grid::Grid;
use crate::methods::simple_ts::case::Case;
use crate::methods::simple_ts::fields::State;
use crate::methods::simple_ts::forces::Forces;
use crate::methods::simple_ts::geometry::Geometry;
use crate::methods::simple_ts::probes::Probes;

/// Header of `<stem>.forces.csv`; `scale` is the coefficient denominator ½ ρ_in u_in² L_b
/// (1 without an inflow side: Cd and Cl are then the raw total forces).
pub const FORCES_HEADER: &str = "step,time,body,Fx_p,Fx_v,Fy_p,Fy_v,Cd,Cl,scale";
/// Header of `<stem>.probes.csv`.
pub const PROBES_HEADER: &str = "step,time,probe,x,y,p,T,rho,u,v";

/// Rows around the bodies that the force integration reads: the fluid cells next to a body
/// (1), their north v-faces (2), and the face densities ρv there, whose TVD stencil reaches
/// two rows from the face (2).
pub const FORCE_HALO: usize = 2;

/// The CSV writers of one run segment and what they need.
pub struct SideFiles {
    forces: Option<(Forces, CsvWriter, u64)>,
    probes: Option<(Probes, CsvWriter, u64)>,
    force_rows: Range<usize>,
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

impl SideFiles {
    /// Create the CSV files of stem `stem` in `out_dir` (refused if present unless `force`).
    pub fn create(
        case: &Case,
        grid: &Grid,
        geo: &Geometry,
        out_dir: &Path,
        force: bool,
        stem: &str,
    ) -> Result<SideFiles, OutputError> {
        let path = |kind: &str| out_dir.join(format!("{stem}.{kind}.csv"));
        let o = &case.output;
        let forces = if case.bodies.is_empty() || o.forces_every == 0 {
            None
        } else {
            let f = Forces::new(case, grid, geo);
            if !f.normalised {
                log::warn!("no inflow side: Cd and Cl in the forces file are raw forces");
            }
            let w = CsvWriter::create(&path("forces"), force, FORCES_HEADER)?;
            Some((f, w, o.forces_every))
        };
        let probes = if o.probes.is_empty() || o.probes_every == 0 {
            None
        } else {
            let p = Probes::new(&o.probes, grid);
            let w = CsvWriter::create(&path("probes"), force, PROBES_HEADER)?;
            Some((p, w, o.probes_every))
        };
        let probe_rows = probes.as_ref().map_or(vec![], |(p, _, _)| {
            merge_ranges(p.cells().iter().map(|&(_, j)| j..j + 2).collect())
        });
        Ok(SideFiles {
            force_rows: body_rows(grid, geo, case.bodies.len()),
            forces,
            probes,
            probe_rows,
        })
    }

    /// Which files are due at absolute step `step`: (forces, probes).
    pub fn due(&self, step: u64) -> (bool, bool) {
        let due = |every: u64| step % every == 0;
        (
            self.forces.as_ref().is_some_and(|f| due(f.2)),
            self.probes.as_ref().is_some_and(|p| due(p.2)),
        )
    }

    /// The stored rows of the iterate that [`SideFiles::record`] reads for `due`.
    pub fn rows(&self, due: (bool, bool)) -> Vec<Range<usize>> {
        let mut rows = self.probe_rows.clone();
        if !due.1 {
            rows.clear();
        }
        if due.0 {
            rows.push(self.force_rows.clone());
        }
        merge_ranges(rows)
    }

    /// Write the lines of the files in `due` for the iterate of `st` (only the rows of
    /// [`SideFiles::rows`] are read).
    pub fn record(
        &mut self,
        grid: &Grid,
        geo: &Geometry,
        st: &State,
        due: (bool, bool),
    ) -> Result<(), OutputError> {
        let (step, t) = (st.step, st.time);
        if let (Some((f, w, _)), true) = (&mut self.forces, due.0) {
            for (k, r) in f.compute(grid, geo, &st.k).iter().enumerate() {
                let q = f.scale[k];
                w.line(&format!(
                    "{step},{t:e},{},{:e},{:e},{:e},{:e},{:e},{:e},{q:e}",
                    f.names[k],
                    r.fx_p,
                    r.fx_v,
                    r.fy_p,
                    r.fy_v,
                    r.fx() / q,
                    r.fy() / q
                ))?;
            }
        }
        if let (Some((p, w, _)), true) = (&mut self.probes, due.1) {
            for (pr, v) in p.probes.iter().zip(p.sample(grid, &st.k)) {
                w.line(&format!(
                    "{step},{t:e},{},{:e},{:e},{:e},{:e},{:e},{:e},{:e}",
                    pr.name, pr.x, pr.y, v.p, v.t, v.rho, v.u, v.v
                ))?;
            }
        }
        Ok(())
    }

    /// Flush and rename the files.
    pub fn finish(self) -> Result<(), OutputError> {
        let writers = [self.forces.map(|x| x.1), self.probes.map(|x| x.1)];
        for w in writers.into_iter().flatten() {
            let p = w.finish()?;
            log::info!("wrote {}", p.display());
        }
        Ok(())
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
        use crate::methods::simple_ts::reference::Reference;
        use crate::solver::Solver;
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
        let full = r.state().clone();
        let dir = tempfile::tempdir().unwrap();
        let mut side = SideFiles::create(&case, &g, &geo, dir.path(), false, "x").unwrap();
        let rows = side.rows((true, true));
        // Bodies cover stored rows 9..=12 and 11..=13; the probes' cells are in rows 3 and 24.
        assert_eq!(rows, vec![3..5, 7..16, 24..26]);
        assert_eq!(side.rows((false, true)), vec![3..5, 24..26]);
        assert_eq!(side.rows((true, false)), vec![7..16]);
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
        side.record(&g, &geo, &poisoned, (true, true)).unwrap();
        side.finish().unwrap();
        let text = std::fs::read_to_string(dir.path().join("x.forces.csv")).unwrap();
        assert!(!text.contains("NaN"), "{text}");
    }
}
