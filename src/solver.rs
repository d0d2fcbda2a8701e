//! The one seam between the run driver and the backends: the serial reference and OpenCL
//! both implement [`Solver`].
//!
//! Reading fields back is the expensive part on a device backend, so the driver asks only for
//! what is due: [`Solver::clock`] every step (host-side numbers), [`Solver::iterate_rows`]
//! for a snapshot (all rows), forces or probes (a few rows), and [`Solver::state`] (both time
//! levels) for a checkpoint or after a failure.

use std::ops::Range;

use serde::Serialize;

use crate::error::RunError;
use crate::grid::Grid;
use crate::methods::simple_ts::fields::State;
use crate::methods::simple_ts::geometry::Geometry;

/// Maximum absolute updates of one loop-2 iteration (∞-norms over solved faces / fluid cells).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Residuals {
    /// max |u^{k+1} − u^k|.
    pub du: f64,
    /// max |v^{k+1} − v^k|.
    pub dv: f64,
    /// max |p^{k+1} − p^k| over the last inner sweep.
    pub dp: f64,
    /// max |T^{k+1} − T^k| over the last inner sweep.
    pub dt: f64,
}

impl Residuals {
    /// Largest of the four.
    pub fn max(&self) -> f64 {
        self.du.max(self.dv).max(self.dp).max(self.dt)
    }
}

/// What one time step did.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StepReport {
    /// Loop-2 iterations taken.
    pub iters: u32,
    /// Residuals of the last iteration.
    pub res: Residuals,
    /// True if the loop-2 tolerances were met (false: stopped at max_iters).
    pub converged: bool,
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

/// The work-group decomposition of the fused kernel (run manifest).
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
    /// Loop-2 form: `phase` (Jacobi phase kernels) or `fused` (one y-sweep kernel).
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

/// What a backend runs on, for the run manifest; empty for the CPU backends.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct SolverInfo {
    /// The OpenCL device.
    pub device: Option<DeviceRecord>,
    /// The OpenCL program.
    pub kernels: Option<KernelRecord>,
}

/// A SIMPLE-TS backend.
pub trait Solver {
    /// Backend name for logs and output attributes (`reference`, `opencl:<device>`).
    fn name(&self) -> String;
    /// The grid.
    fn grid(&self) -> &Grid;
    /// Cell and face classes.
    fn geometry(&self) -> &Geometry;
    /// Advance one time step (loop 1 body: loop 2 until converged or max_iters). On
    /// [`RunError::Diverged`] the backend has rolled the iterate back to the state before the
    /// step (the last good state), so [`Solver::state`] returns it.
    fn step(&mut self) -> Result<StepReport, RunError>;
    /// Completed time steps and the time of the current state, without reading fields back.
    fn clock(&self) -> (u64, f64);
    /// The current state, both time levels; backends that keep fields elsewhere copy all of
    /// them here first.
    fn state(&mut self) -> &State;
    /// The current state with the stored rows `rows` (j ranges of the padded grid, ghosts
    /// included) of the iterate `k` up to date: all six fields of those rows. Other rows of
    /// `k`, and level `n`, may be stale; `step` and `time` are current. Device backends read
    /// back only those rows; the default returns [`Solver::state`].
    fn iterate_rows(&mut self, rows: &[Range<usize>]) -> &State {
        let _ = rows;
        self.state()
    }
    /// The device and kernel build of the backend, for the run manifest.
    fn info(&self) -> SolverInfo {
        SolverInfo::default()
    }
    /// Replace the whole state (both time levels, step and time), e.g. from a checkpoint; the
    /// backend rebuilds everything derived from it (face fluxes, device buffers), so that the
    /// next [`Solver::step`] gives the same bits as the run that wrote the state.
    fn restore(&mut self, state: State) -> Result<(), RunError>;
    /// The OpenCL runtime of a device backend (buffers, kernels, profiling; `simplets bench`);
    /// `None` for the CPU backends.
    fn runtime(&self) -> Option<&crate::device::Runtime> {
        None
    }
    /// Backend details worth reporting (the fused kernel's decomposition, …).
    fn details(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// Mutable [`Solver::runtime`].
    fn runtime_mut(&mut self) -> Option<&mut crate::device::Runtime> {
        None
    }
}
