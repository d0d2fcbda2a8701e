//! Result output: atomic files and the NetCDF-4 (CF-1.8) writer.
//!
//! Output arrays hold computed cells only, row-major with x fastest (`[j][i]`, NetCDF order
//! `(y, x)`). Cell-centred fields use `i = 1..=nx, j = 1..=ny` of the padded storage; the
//! staggered velocities keep their own faces (no interpolation): `u` on the nx + 1 west/east
//! faces `i = 1..=nx+1` of rows `1..=ny`, `v` on the ny + 1 south/north faces `j = 1..=ny+1`.

pub mod atomic;
pub mod checkpoint;
pub mod csv;
pub mod manifest;
#[cfg(feature = "netcdf")]
mod netcdf;
pub mod series;
pub mod side;

#[cfg(feature = "netcdf")]
pub use self::netcdf::NcWriter;

use crate::grid::Grid;

/// Cell-centred values of the computed cells, `ny × nx`, x fastest.
pub fn cell_values(grid: &Grid, f: &[f64]) -> Vec<f64> {
    block(grid, f, grid.nx, grid.ny)
}

/// u on the x-faces of the computed rows, `ny × (nx + 1)`, x fastest.
pub fn u_face_values(grid: &Grid, u: &[f64]) -> Vec<f64> {
    block(grid, u, grid.nx + 1, grid.ny)
}

/// v on the y-faces of the computed columns, `(ny + 1) × nx`, x fastest.
pub fn v_face_values(grid: &Grid, v: &[f64]) -> Vec<f64> {
    block(grid, v, grid.nx, grid.ny + 1)
}

/// Stored entries `i = 1..=ni`, `j = 1..=nj`, row by row.
fn block(grid: &Grid, f: &[f64], ni: usize, nj: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(ni * nj);
    for j in 1..=nj {
        let row = grid.idx(1, j);
        out.extend_from_slice(&f[row..row + ni]);
    }
    out
}

/// The output file of a case: `<out_dir>/<name>.nc`.
pub fn output_path(out_dir: &std::path::Path, case_name: &str) -> std::path::PathBuf {
    out_dir.join(format!("{}.nc", output_stem(case_name, None)))
}

/// Stem of the output files of one run segment: `<name>` for a run from the initial state,
/// `<name>.s<step>` for a run restarted from a checkpoint of `step`.
pub fn output_stem(case_name: &str, restart_step: Option<u64>) -> String {
    match restart_step {
        None => case_name.to_string(),
        Some(s) => format!("{case_name}.s{s}"),
    }
}

/// The NetCDF file of a run segment: `<out_dir>/<name>.nc`, or `<out_dir>/<name>.s<step>.nc`
/// for a run restarted at `step` (the earlier segments stay untouched).
pub fn segment_output_path(
    out_dir: &std::path::Path,
    case_name: &str,
    restart_step: Option<u64>,
) -> std::path::PathBuf {
    out_dir.join(format!("{}.nc", output_stem(case_name, restart_step)))
}

#[cfg(not(feature = "netcdf"))]
mod stub {
    use std::path::{Path, PathBuf};

    use crate::error::OutputError;
    use crate::grid::Grid;
    use crate::methods::simple_ts::case::Case;
    use crate::methods::simple_ts::fields::State;
    use crate::methods::simple_ts::geometry::Geometry;

    /// Stand-in for the NetCDF writer in builds without the `netcdf` feature.
    #[derive(Debug)]
    pub struct NcWriter {
        _private: (),
    }

    impl NcWriter {
        /// Always fails with [`OutputError::NoNetCdf`] (after the exists check).
        pub fn create(
            path: &Path,
            force: bool,
            _case: &Case,
            _grid: &Grid,
            _geom: &Geometry,
            _backend: &str,
        ) -> Result<Self, OutputError> {
            super::atomic::check_writable(path, force)?;
            Err(OutputError::NoNetCdf {
                path: path.display().to_string(),
            })
        }

        /// Never called: [`NcWriter::create`] always fails.
        pub fn set_part(&mut self, _part: u32) -> Result<(), OutputError> {
            Ok(())
        }

        /// Never called: [`NcWriter::create`] always fails.
        pub fn append(&mut self, _state: &State, _iterations: u32) -> Result<(), OutputError> {
            Ok(())
        }

        /// Never called: [`NcWriter::create`] always fails.
        pub fn append_fields(
            &mut self,
            _k: &crate::methods::simple_ts::fields::Fields,
            _step: u64,
            _time: f64,
            _iterations: u32,
        ) -> Result<(), OutputError> {
            Ok(())
        }

        /// Never called: [`NcWriter::create`] always fails.
        pub fn path(&self) -> &Path {
            Path::new("")
        }

        /// Never called: [`NcWriter::create`] always fails.
        pub fn append_step(
            &mut self,
            _step: u64,
            _time: f64,
            _rep: &crate::solver::StepReport,
        ) -> Result<(), OutputError> {
            Ok(())
        }

        /// Never called: [`NcWriter::create`] always fails.
        pub fn finish(self) -> Result<PathBuf, OutputError> {
            Ok(PathBuf::new())
        }

        /// Number of snapshots written.
        pub fn snapshots(&self) -> usize {
            0
        }
    }
}

#[cfg(not(feature = "netcdf"))]
pub use stub::NcWriter;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::GridSpec;

    #[test]
    fn staggered_blocks_take_their_own_faces() {
        let spec = GridSpec {
            nx: 3,
            ny: 2,
            x: [0.0, 3.0],
            y: [0.0, 2.0],
            x_faces: None,
            y_faces: None,
        };
        let g = Grid::new(&spec, false, false);
        let f: Vec<f64> = (0..g.len()).map(|k| k as f64).collect();
        // nxt = 5: stored (i, j) holds i + 5 j.
        assert_eq!(cell_values(&g, &f), vec![6.0, 7.0, 8.0, 11.0, 12.0, 13.0]);
        assert_eq!(
            u_face_values(&g, &f),
            vec![6.0, 7.0, 8.0, 9.0, 11.0, 12.0, 13.0, 14.0]
        );
        assert_eq!(
            v_face_values(&g, &f),
            vec![6.0, 7.0, 8.0, 11.0, 12.0, 13.0, 16.0, 17.0, 18.0]
        );
    }
}
