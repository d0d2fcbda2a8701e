//! NetCDF-4 snapshot writer (CF-1.8), compiled with the `netcdf` feature. It writes what the
//! method's [`Layout`] declares, and knows no method.
//!
//! Layout (all values non-dimensional, `units = "1"`; `long_name` names the scale):
//!
//! ```text
//! dimensions: time (unlimited), x_c = nx, y_c = ny, x_f = nx + 1, y_f = ny + 1
//! time(time)  step(time)  iterations(time)          x_c(x_c) y_c(y_c) x_f(x_f) y_f(y_f)
//! each variable (time, y, x) on its place: cells (y_c, x_c), x-faces (y_c, x_f),
//! y-faces (y_f, x_c)                                  fluid_mask(y_c, x_c)
//! ```
//!
//! SIMPLE-TS writes p, T, rho on the cells, u on the x-faces and v on the y-faces: the stored
//! staggered values, not interpolated to centres.
//!
//! Per-step series on a second unlimited dimension (one entry per completed time step,
//! written right after the step, before the divergence guard, so a diverged step is recorded):
//!
//! ```text
//! dimensions: steps (unlimited)
//! series_step(steps)  series_time(steps)  series_iterations(steps)
//! one variable per residual of the layout (SIMPLE-TS: res_u, res_v, res_p, res_T)
//! ```
//!
//! The file is written as `<path>.tmp` and renamed by [`NcWriter::finish`]; dropping the
//! writer without finishing removes the temporary file.

use std::path::{Path, PathBuf};

use ::netcdf::{FileMut, NcTypeDescriptor, VariableMut};

use super::atomic::AtomicFile;
use super::{dims, shape, values};
use crate::case::Common;
use crate::error::OutputError;
use crate::grid::Grid;
use crate::solver::{Layout, Snapshot, StepReport};

/// Writes snapshots of a run into one NetCDF-4 file.
pub struct NcWriter {
    // Field order matters: the file is closed before `atomic` removes an unfinished tmp file.
    file: FileMut,
    atomic: AtomicFile,
    grid: Grid,
    layout: Vec<(&'static str, crate::solver::Place)>,
    residuals: Vec<&'static str>,
    written: usize,
    steps_written: usize,
}

impl std::fmt::Debug for NcWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NcWriter")
            .field("atomic", &self.atomic)
            .field("written", &self.written)
            .finish()
    }
}

fn nc_err(path: &Path) -> impl Fn(::netcdf::Error) -> OutputError + '_ {
    move |e| OutputError::NetCdf {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// Define a variable with `units = "1"` and its `long_name`.
fn define<'f, T: NcTypeDescriptor>(
    file: &'f mut FileMut,
    name: &str,
    dims: &[&str],
    long_name: &str,
) -> ::netcdf::Result<VariableMut<'f>> {
    let mut v = file.add_variable::<T>(name, dims)?;
    v.put_attribute("units", "1")?;
    v.put_attribute("long_name", long_name)?;
    Ok(v)
}

impl NcWriter {
    /// Create `<path>.tmp` with dimensions, coordinates, attributes, the variables of `layout`
    /// and its fluid mask. Fails with [`OutputError::Exists`] if `path` exists and `force` is
    /// false.
    pub fn create(
        path: &Path,
        force: bool,
        case: &Common,
        layout: &Layout,
        backend: &str,
    ) -> Result<Self, OutputError> {
        let atomic = AtomicFile::prepare(path, force)?;
        let err = nc_err(path);
        let mut file = ::netcdf::create(atomic.tmp_path()).map_err(&err)?;
        Self::define_all(&mut file, case, layout, backend).map_err(&err)?;
        Ok(NcWriter {
            file,
            atomic,
            grid: layout.grid.clone(),
            layout: layout.variables.iter().map(|v| (v.name, v.place)).collect(),
            residuals: layout.residuals.iter().map(|r| r.name).collect(),
            written: 0,
            steps_written: 0,
        })
    }

    fn define_all(
        file: &mut FileMut,
        case: &Common,
        layout: &Layout,
        backend: &str,
    ) -> ::netcdf::Result<()> {
        let grid = &layout.grid;
        let (nx, ny) = (grid.nx, grid.ny);
        let version = env!("CARGO_PKG_VERSION");
        let case_json = serde_json::to_string_pretty(&case.json).unwrap_or_default();
        file.add_attribute("Conventions", "CF-1.8")?;
        file.add_attribute("title", format!("simplets case {}", case.name))?;
        file.add_attribute("description", case.description.as_str())?;
        file.add_attribute("case_json", case_json)?;
        file.add_attribute("method", case.method.name())?;
        file.add_attribute("scheme", case.scheme.as_str())?;
        file.add_attribute("backend", backend)?;
        file.add_attribute("simplets_version", version)?;
        let code = super::manifest::code_version();
        file.add_attribute("code_version", code.as_str())?;
        file.add_attribute(
            "history",
            format!("{}: created by simplets {code}", crate::text::utc_now()),
        )?;
        file.add_attribute("comment", layout.units)?;
        file.add_unlimited_dimension("time")?;
        file.add_unlimited_dimension("steps")?;
        file.add_dimension("x_c", nx)?;
        file.add_dimension("y_c", ny)?;
        file.add_dimension("x_f", nx + 1)?;
        file.add_dimension("y_f", ny + 1)?;

        // axis = "T": readers that do not know the unit "1" (ParaView's CF reader) would
        // otherwise take time for a third space dimension.
        define::<f64>(file, "time", &["time"], layout.time_unit)?.put_attribute("axis", "T")?;
        define::<i64>(file, "step", &["time"], "completed time steps")?;
        let ln_it = "iterations of the last time step (0 for the initial state)";
        define::<i32>(file, "iterations", &["time"], ln_it)?;
        define::<i64>(
            file,
            "series_step",
            &["steps"],
            "time step number of the series entry",
        )?;
        define::<f64>(file, "series_time", &["steps"], layout.time_unit)?;
        let ln_sit = "iterations of this time step";
        define::<i32>(file, "series_iterations", &["steps"], ln_sit)?;
        for r in &layout.residuals {
            define::<f64>(file, r.name, &["steps"], r.long_name)?;
        }
        let coords = [
            ("x_c", "x of cell centres / L", &grid.x_v[1..=nx]),
            ("y_c", "y of cell centres / L", &grid.y_v[1..=ny]),
            (
                "x_f",
                "x of cell faces (x-face locations) / L",
                &grid.x_f[1..=nx + 1],
            ),
            (
                "y_f",
                "y of cell faces (y-face locations) / L",
                &grid.y_f[1..=ny + 1],
            ),
        ];
        for (name, long_name, values) in coords {
            let mut v = define::<f64>(file, name, &[name], long_name)?;
            v.put_values(values, ..)?;
        }
        if let Some([ax, ay]) = &layout.aux {
            // CF 2D auxiliary coordinates: the true positions of a curvilinear grid's points
            // (ParaView and xarray draw the fields on them through `coordinates`).
            for (name, std, values) in [
                ("x", "projection_x_coordinate", ax),
                ("y", "projection_y_coordinate", ay),
            ] {
                let mut v = define::<f64>(
                    file,
                    name,
                    &["y_c", "x_c"],
                    &format!("{name} of the grid points"),
                )?;
                v.put_attribute("standard_name", std)?;
                v.put_values(values, ..)?;
            }
        }
        for var in &layout.variables {
            let [y, x] = dims(var.place);
            let mut v = define::<f64>(file, var.name, &["time", y, x], var.long_name)?;
            if layout.aux.is_some() && var.place == crate::solver::Place::Cell {
                v.put_attribute("coordinates", "y x")?;
            }
        }
        let mut m = define::<i8>(
            file,
            "fluid_mask",
            &["y_c", "x_c"],
            "1 = fluid cell, 0 = solid",
        )?;
        m.put_attribute("flag_values", vec![0i8, 1])?;
        m.put_attribute("flag_meanings", "solid fluid")?;
        m.put_values(&layout.mask, ..)?;
        Ok(())
    }

    /// Mark the file as part `part` of a split series (global attribute `part`).
    pub fn set_part(&mut self, part: u32) -> Result<(), OutputError> {
        let path = self.atomic.path().to_path_buf();
        let part = i32::try_from(part).unwrap_or(i32::MAX);
        self.file
            .add_attribute("part", part)
            .map(|_| ())
            .map_err(nc_err(&path))
    }

    /// Append one snapshot: its time, step, `iterations` and every variable.
    pub fn append(&mut self, s: &Snapshot, iterations: u32) -> Result<(), OutputError> {
        let path = self.atomic.path().to_path_buf();
        // Stop before a snapshot the disk cannot take, while the file can still be closed.
        let tmp = self.atomic.tmp_path();
        let size = std::fs::metadata(tmp).map_or(0, |m| m.len());
        let bytes: u64 = s.arrays.iter().map(|a| 8 * a.len() as u64).sum();
        super::space::ensure(tmp, &path, size, bytes)?;
        self.put(s, iterations)
            .map_err(nc_err(&path))
            .map_err(damaged)?;
        self.written += 1;
        // On disk at every snapshot: should a later write fail (a full disk), the file holds
        // every snapshot up to here.
        self.file.sync().map_err(nc_err(&path)).map_err(damaged)
    }

    fn put(&mut self, s: &Snapshot, iterations: u32) -> ::netcdf::Result<()> {
        let (t, g) = (self.written, &self.grid);
        let f = &mut self.file;
        let missing = |name: &str| ::netcdf::Error::Str(format!("variable {name} not defined"));
        f.variable_mut("time")
            .ok_or_else(|| missing("time"))?
            .put_values(&[s.time], ([t], [1]))?;
        let step = i64::try_from(s.step).unwrap_or(i64::MAX);
        f.variable_mut("step")
            .ok_or_else(|| missing("step"))?
            .put_values(&[step], ([t], [1]))?;
        let it = i32::try_from(iterations).unwrap_or(i32::MAX);
        f.variable_mut("iterations")
            .ok_or_else(|| missing("iterations"))?
            .put_values(&[it], ([t], [1]))?;
        for (&(name, place), array) in self.layout.iter().zip(&s.arrays) {
            let (ni, nj) = shape(g, place);
            f.variable_mut(name)
                .ok_or_else(|| missing(name))?
                .put_values(&values(g, place, array), ([t, 0, 0], [1, nj, ni]))?;
        }
        Ok(())
    }

    /// Append one entry of the per-step series: step, time, loop-2 iterations and the four
    /// residuals of `rep`.
    pub fn append_step(
        &mut self,
        step: u64,
        time: f64,
        rep: &StepReport,
    ) -> Result<(), OutputError> {
        let path = self.atomic.path().to_path_buf();
        self.put_step(step, time, rep)
            .map_err(nc_err(&path))
            .map_err(damaged)?;
        self.steps_written += 1;
        Ok(())
    }

    fn put_step(&mut self, step: u64, time: f64, rep: &StepReport) -> ::netcdf::Result<()> {
        let t = self.steps_written;
        let f = &mut self.file;
        let missing = |name: &str| ::netcdf::Error::Str(format!("variable {name} not defined"));
        let step = i64::try_from(step).unwrap_or(i64::MAX);
        f.variable_mut("series_step")
            .ok_or_else(|| missing("series_step"))?
            .put_values(&[step], ([t], [1]))?;
        let it = i32::try_from(rep.iters).unwrap_or(i32::MAX);
        f.variable_mut("series_iterations")
            .ok_or_else(|| missing("series_iterations"))?
            .put_values(&[it], ([t], [1]))?;
        f.variable_mut("series_time")
            .ok_or_else(|| missing("series_time"))?
            .put_values(&[time], ([t], [1]))?;
        for (name, x) in self.residuals.iter().zip(rep.res.0) {
            f.variable_mut(name)
                .ok_or_else(|| missing(name))?
                .put_values(&[x], ([t], [1]))?;
        }
        Ok(())
    }

    /// Number of snapshots written so far.
    pub fn snapshots(&self) -> usize {
        self.written
    }

    /// The final name of the file.
    pub fn path(&self) -> &Path {
        self.atomic.path()
    }

    /// Close the file and rename it to its final name; returns that name. A file that does not
    /// close cleanly is kept as `<stem>.partial.nc` ([`AtomicFile::keep_partial`]): a failed
    /// write (a full disk) can leave it unreadable, so it never takes the final name, and it
    /// holds every snapshot up to the last one written if it is readable.
    pub fn finish(self) -> Result<PathBuf, OutputError> {
        let NcWriter { file, atomic, .. } = self;
        if let Err(e) = file.close() {
            let err = damaged(nc_err(atomic.path())(e));
            return Err(match atomic.keep_partial() {
                Some(kept) => OutputError::Partial {
                    message: err.to_string(),
                    kept: format!(
                        "{} (possibly unreadable: a failed write can leave HDF5's metadata \
                         inconsistent)",
                        kept.display()
                    ),
                },
                None => err,
            });
        }
        atomic.commit()
    }
}

/// Set once a NetCDF call has failed: HDF5 may then hold a file that netCDF no longer knows,
/// and HDF5's exit handler crashes closing it (a segmentation fault after a full disk, exit
/// 139 instead of the run's own status). See [`library_damaged`].
static DAMAGED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Record a failed NetCDF call (see [`DAMAGED`]) and pass its error on.
fn damaged(e: OutputError) -> OutputError {
    DAMAGED.store(true, std::sync::atomic::Ordering::SeqCst);
    e
}

/// Whether a NetCDF call failed in this process: the process should then end without running
/// the C libraries' exit handlers (the binary does so, after flushing its own output).
pub fn library_damaged() -> bool {
    DAMAGED.load(std::sync::atomic::Ordering::SeqCst)
}

#[cfg(test)]
mod tests;
