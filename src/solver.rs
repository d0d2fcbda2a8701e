//! The one seam between the methods and what runs them: the run driver, the output writers,
//! `simplets bench` and the applications see every method and backend as a [`Solver`], and
//! know it through its [`Layout`] (grid, output variables, residuals, side series). Nothing
//! here knows a method.
//!
//! Reading fields back is the expensive part on a device backend, so the driver asks only for
//! what is due: [`Solver::clock`] every step (host-side numbers), [`Solver::snapshot`] for a
//! snapshot, [`Solver::side_lines`] for the per-step CSV series (a method reads back only the
//! rows they need), and [`Solver::save`] (both time levels) for a checkpoint.

use serde::Serialize;

use crate::case::Method;
use crate::error::RunError;
use crate::grid::Grid;

/// Residuals a step reports: at most this many (SIMPLE-TS: u, v, p, T).
pub const MAX_RESIDUALS: usize = 4;

/// Where the values of a stored array sit on the padded staggered grid (`grid.rs`): cell
/// centres, the west (x-) faces or the south (y-) faces. Arrays are stored on the padded grid
/// (`i + j·nxt`); output holds the computed part only (`output` module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Cell centres, `i = 1..=nx`, `j = 1..=ny`.
    Cell,
    /// West faces, `i = 1..=nx+1`, `j = 1..=ny`.
    XFace,
    /// South faces, `i = 1..=nx`, `j = 1..=ny+1`.
    YFace,
}

/// One output variable of a method (a NetCDF variable of every snapshot).
#[derive(Debug, Clone, PartialEq)]
pub struct Variable {
    /// Variable name, e.g. `p`.
    pub name: &'static str,
    /// CF `long_name`, naming the scale of the non-dimensional value.
    pub long_name: &'static str,
    /// Where its values sit.
    pub place: Place,
    /// Checked by the driver's divergence guard (a non-finite computed value stops the run).
    pub guarded: bool,
}

/// One residual of a step: the per-step series variable and the field it measures.
#[derive(Debug, Clone, PartialEq)]
pub struct ResidualSpec {
    /// Series variable, e.g. `res_u`.
    pub name: &'static str,
    /// Status-line column, e.g. `du`.
    pub short: &'static str,
    /// Index of the [`Variable`] whose change it measures (the guard names that field's cell).
    pub variable: usize,
    /// CF `long_name`.
    pub long_name: &'static str,
}

/// A per-step CSV file written beside the NetCDF output (`<stem>.<suffix>.csv`).
#[derive(Debug, Clone, PartialEq)]
pub struct SideSpec {
    /// File suffix, e.g. `forces`.
    pub suffix: &'static str,
    /// Header line (without newline).
    pub header: &'static str,
    /// Every this many steps (absolute step numbers; 0: no file).
    pub every: u64,
}

/// What the output and the driver need to know of a method's discretisation of a case.
#[derive(Debug, Clone)]
pub struct Layout {
    /// The method.
    pub method: Method,
    /// The padded grid with its coordinates.
    pub grid: Grid,
    /// The snapshot variables, in [`Snapshot::arrays`] order.
    pub variables: Vec<Variable>,
    /// The residuals of [`StepReport::res`], in order.
    pub residuals: Vec<ResidualSpec>,
    /// 1 for a computed (fluid) cell, 0 for a solid one, over the computed cells
    /// (`[j][i]`, `nx × ny`): the NetCDF `fluid_mask`.
    pub mask: Vec<i8>,
    /// Cells counted in the cell-iterations per second of the status line and the manifest
    /// (the fluid cells).
    pub work_cells: u64,
    /// The unit system in words (NetCDF global `comment`).
    pub units: &'static str,
    /// CF `long_name` of the time coordinate, naming its unit.
    pub time_unit: &'static str,
    /// The per-step CSV files, in [`Solver::side_lines`] order.
    pub side: Vec<SideSpec>,
    /// Names of the arrays of [`Solver::save`], in order (checkpoint header).
    pub saved: Vec<String>,
    /// Curvilinear grids: the true (x, y) of every cell-place point (`nx × ny`, row-major),
    /// written as CF 2D auxiliary coordinates `x(y_c, x_c)`, `y(y_c, x_c)`; `None` for a
    /// Cartesian grid.
    pub aux: Option<[Vec<f64>; 2]>,
}

impl Layout {
    /// Index of the variable `name`.
    pub fn variable(&self, name: &str) -> Option<usize> {
        self.variables.iter().position(|v| v.name == name)
    }
}

/// Maximum absolute updates of the last iteration of a step, in [`Layout::residuals`] order
/// (unused entries 0).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Residuals(pub [f64; MAX_RESIDUALS]);

impl Residuals {
    /// Largest entry (NaN if any is NaN).
    pub fn max(&self) -> f64 {
        self.0.iter().fold(0.0f64, |m, &r| {
            if r.is_nan() || m.is_nan() {
                f64::NAN
            } else {
                m.max(r)
            }
        })
    }
}

/// What one time step did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepReport {
    /// Iterations of the step's inner loop (SIMPLE-TS: loop 2; 1 for an explicit method).
    pub iters: u32,
    /// Residuals of the last iteration.
    pub res: Residuals,
    /// True if the tolerances were met (false: stopped at the iteration limit).
    pub converged: bool,
    /// The method's own steady-state verdict for this step, replacing the run driver's test
    /// (one iteration, every residual below `run::STEADY_TOL`) when given.
    pub steady: Option<bool>,
}

/// The current values of a method's output variables.
#[derive(Debug, Clone)]
pub struct Snapshot<'a> {
    /// Completed time steps.
    pub step: u64,
    /// Simulated time.
    pub time: f64,
    /// One padded array per [`Layout::variables`] entry.
    pub arrays: Vec<&'a [f64]>,
}

/// Which time level a [`Solver::snapshot`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// The current state (the newest iterate).
    Current,
    /// The state at the start of the current step (the last good state when the driver's
    /// guard rejects a step).
    Previous,
}

/// The whole state of a run, for a checkpoint: the arrays of [`Layout::saved`].
#[derive(Debug, Clone, PartialEq)]
pub struct Saved {
    /// Completed time steps.
    pub step: u64,
    /// Simulated time.
    pub time: f64,
    /// One array per name of [`Layout::saved`], in that order.
    pub arrays: Vec<Vec<f64>>,
}

/// The OpenCL device a backend runs on, as its driver reports it (run manifest).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DeviceRecord {
    /// CL_DEVICE_NAME.
    pub name: String,
    /// CL_DEVICE_VENDOR.
    pub vendor: String,
    /// `GPU`, `CPU`, `ACCELERATOR` or `other`.
    pub device_type: String,
    /// CL_PLATFORM_NAME.
    pub platform: String,
    /// CL_PLATFORM_VERSION: the platform's OpenCL version, e.g. `OpenCL 3.0 PoCL 5.0 ...`.
    pub opencl_version: String,
    /// CL_DEVICE_OPENCL_C_VERSION.
    pub opencl_c_version: String,
    /// CL_DRIVER_VERSION.
    pub driver_version: String,
}

/// The work-group decomposition of a fused kernel (run manifest).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DecompositionRecord {
    /// Work-items per group along x, halo included (W).
    pub width: usize,
    /// Owned columns per group.
    pub cols: usize,
    /// Rows swept per group (Ny_sub).
    pub rows: usize,
    /// Work-groups in all.
    pub groups: usize,
}

/// How the OpenCL program of a run was built (run manifest).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KernelRecord {
    /// Kernel form, e.g. `phase` (Jacobi phase kernels) or `fused` (one y-sweep kernel).
    pub form: String,
    /// The fused kernel's decomposition (`None` for the phase kernels).
    pub decomposition: Option<DecompositionRecord>,
    /// The exact options given to `clBuildProgram` (the `-D` defines and base options).
    pub build_options: String,
    /// Kernel cache key (16 hex digits: device, driver, options and source).
    pub cache_key: String,
    /// `hit` (binary loaded from the cache), `miss` (built and stored) or `disabled`.
    pub cache: String,
    /// Seconds to build the program, or to load and link the cached binary.
    pub build_seconds: f64,
}

/// The ranks of a decomposed run (run manifest).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct RanksRecord {
    /// The transport: `mpi`, or `threads` (the tests' in-process ranks).
    pub transport: String,
    /// Ranks in all.
    pub ranks: usize,
    /// Ranks along x.
    pub ranks_x: usize,
    /// Ranks along y.
    pub ranks_y: usize,
    /// Halo width in cells.
    pub halo: usize,
    /// Every rank: its number, node-local rank, host, owned stored columns and rows, backend
    /// and device.
    pub each: Vec<serde_json::Value>,
    /// Rank 0's halo exchanges so far (one per phase that reads neighbours).
    pub exchanges: u64,
    /// Bytes rank 0 sent in them.
    pub halo_bytes: u64,
    /// Wall seconds rank 0 spent in them (packing, transfers, waiting for its neighbours).
    pub halo_seconds: f64,
    /// Residual reductions over all ranks (one per loop-2 iteration).
    pub reductions: u64,
    /// Wall seconds rank 0 spent in them.
    pub reduce_seconds: f64,
}

/// What a backend runs on, for the run manifest; empty for the CPU backends.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SolverInfo {
    /// The OpenCL device (rank 0's in a decomposed run).
    pub device: Option<DeviceRecord>,
    /// The OpenCL program (rank 0's in a decomposed run).
    pub kernels: Option<KernelRecord>,
    /// The ranks of a decomposed run (absent in a single-process run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ranks: Option<RanksRecord>,
}

impl SolverInfo {
    /// The record of an OpenCL backend: the device and build of `built`, its loop form and,
    /// for a work-group decomposed kernel, the decomposition.
    pub fn opencl(
        built: &crate::device::BuiltProgram,
        form: &str,
        decomposition: Option<DecompositionRecord>,
    ) -> SolverInfo {
        let d = built.device();
        SolverInfo {
            device: Some(DeviceRecord {
                name: d.name.clone(),
                vendor: d.vendor.clone(),
                device_type: d.device_type.clone(),
                platform: d.platform_name.clone(),
                opencl_version: d.platform_version.clone(),
                opencl_c_version: d.opencl_c_version.trim().to_string(),
                driver_version: d.driver_version.clone(),
            }),
            kernels: Some(KernelRecord {
                form: form.to_string(),
                decomposition,
                build_options: built.options().to_string(),
                cache_key: built.cache_key().to_string(),
                cache: built.cache_status().to_string(),
                build_seconds: built.build_seconds(),
            }),
            ranks: None,
        }
    }
}

/// A method on a backend, as the run driver and the applications see it.
pub trait Solver {
    /// Backend name for logs and output attributes (`reference`, `parallel:4`,
    /// `opencl:<device>`).
    fn name(&self) -> String;
    /// The grid, variables, residuals and side series of the run.
    fn layout(&self) -> &Layout;
    /// Advance one time step. On [`RunError::Diverged`] the backend has rolled the state back
    /// to the one before the step (the last good state), so [`Solver::snapshot`] returns it.
    fn step(&mut self) -> Result<StepReport, RunError>;
    /// Completed time steps and the time of the current state, without reading fields back.
    fn clock(&self) -> (u64, f64);
    /// The output variables at `level`, read back from the device if need be (step and time
    /// are the current clock's). A failed read-back is an error, never stale values.
    fn snapshot(&mut self, level: Level) -> Result<Snapshot<'_>, RunError>;
    /// The lines of the side series `due[k]` asks for (one `Vec` per [`Layout::side`] entry,
    /// empty where not due), from the current state; a device backend reads back only the
    /// rows they need.
    fn side_lines(&mut self, due: &[bool]) -> Result<Vec<Vec<String>>, RunError>;
    /// The whole state, for a checkpoint.
    fn save(&mut self) -> Result<Saved, RunError>;
    /// Replace the whole state (both time levels, step and time), e.g. from a checkpoint; the
    /// backend rebuilds everything derived from it, so that the next [`Solver::step`] gives
    /// the same bits as the run that wrote it.
    fn restore(&mut self, saved: Saved) -> Result<(), RunError>;
    /// The device and kernel build of the backend, for the run manifest.
    fn info(&self) -> SolverInfo {
        SolverInfo::default()
    }
    /// Backend details worth reporting (the fused kernel's decomposition, …).
    fn details(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Per-kernel profiling of a device backend (`simplets bench`); `None` on the CPU.
    fn profiling(&mut self) -> Option<&mut dyn crate::device::Profiling> {
        None
    }
    /// True once the solver has reached the end of its run by its own clock: an explicit
    /// method whose Δt comes from the state (a CFL number) and whose case gives an end time
    /// cannot know its step count in advance. The driver treats the step after which this
    /// becomes true as the last one (final snapshot, checkpoint). Default: never; the step
    /// count of the case decides.
    fn finished(&self) -> bool {
        false
    }
}
