//! The one seam between the run driver and the backends: the serial reference and OpenCL
//! both implement [`Solver`].

use crate::error::RunError;
use crate::fields::State;
use crate::geometry::Geometry;
use crate::grid::Grid;

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

/// A SIMPLE-TS backend.
pub trait Solver {
    /// Backend name for logs and output attributes (`reference`, `opencl:<device>`).
    fn name(&self) -> String;
    /// The grid.
    fn grid(&self) -> &Grid;
    /// Cell and face classes.
    fn geometry(&self) -> &Geometry;
    /// Advance one time step (loop 1 body: loop 2 until converged or max_iters).
    fn step(&mut self) -> Result<StepReport, RunError>;
    /// The current state; backends that keep fields elsewhere copy them here first.
    fn state(&mut self) -> &State;
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
