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
pub mod space;

#[cfg(feature = "netcdf")]
pub use self::netcdf::{library_damaged, NcWriter};

/// Whether a NetCDF call failed in this process (never without the `netcdf` feature).
#[cfg(not(feature = "netcdf"))]
pub fn library_damaged() -> bool {
    false
}

use crate::grid::Grid;
use crate::solver::Place;

/// The computed values of an array stored on the padded grid at `place`, row by row, x
/// fastest: cells `ny × nx`, x-faces `ny × (nx + 1)`, y-faces `(ny + 1) × nx`.
pub fn values(grid: &Grid, place: Place, f: &[f64]) -> Vec<f64> {
    let (ni, nj) = shape(grid, place);
    let mut out = Vec::with_capacity(ni * nj);
    for j in 1..=nj {
        let row = grid.idx(1, j);
        out.extend_from_slice(&f[row..row + ni]);
    }
    out
}

/// Columns and rows of the computed part of an array at `place`.
pub fn shape(grid: &Grid, place: Place) -> (usize, usize) {
    match place {
        Place::Cell => (grid.nx, grid.ny),
        Place::XFace => (grid.nx + 1, grid.ny),
        Place::YFace => (grid.nx, grid.ny + 1),
    }
}

/// The NetCDF dimensions `(y, x)` of an array at `place`.
pub fn dims(place: Place) -> [&'static str; 2] {
    match place {
        Place::Cell => ["y_c", "x_c"],
        Place::XFace => ["y_c", "x_f"],
        Place::YFace => ["y_f", "x_c"],
    }
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

    use crate::case::Common;
    use crate::error::OutputError;
    use crate::solver::{Layout, Snapshot, StepReport};

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
            _case: &Common,
            _layout: &Layout,
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
        pub fn append(&mut self, _s: &Snapshot, _iterations: u32) -> Result<(), OutputError> {
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
            _rep: &StepReport,
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
        assert_eq!(
            values(&g, Place::Cell, &f),
            vec![6.0, 7.0, 8.0, 11.0, 12.0, 13.0]
        );
        assert_eq!(
            values(&g, Place::XFace, &f),
            vec![6.0, 7.0, 8.0, 9.0, 11.0, 12.0, 13.0, 14.0]
        );
        assert_eq!(
            values(&g, Place::YFace, &f),
            vec![6.0, 7.0, 8.0, 11.0, 12.0, 13.0, 16.0, 17.0, 18.0]
        );
    }
}
