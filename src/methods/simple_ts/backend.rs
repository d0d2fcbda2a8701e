//! The [`Backend`] trait every SIMPLE-TS solver implements: the reference, its row-parallel
//! form and the two OpenCL forms. [`super::solver::SimpleTs`] turns any backend into a
//! [`crate::solver::Solver`] for the run driver.

use std::ops::Range;
use std::sync::Arc;

use super::fields::State;
use super::geometry::Geometry;
use super::problem::Problem;
use crate::error::RunError;
use crate::grid::Grid;
use crate::solver::{SolverInfo, StepReport};

/// A SIMPLE-TS solver on one backend. Residuals of a [`StepReport`] are, in order, the maxima
/// of |Δu|, |Δv|, |Δp|, |ΔT| of the step's last loop-2 iteration.
pub trait Backend {
    /// Backend name for logs and output attributes (`reference`, `opencl:<device>`).
    fn name(&self) -> String;
    /// The discretised problem it solves (case, grid, geometry, constants, ghost rules).
    fn problem(&self) -> &Arc<Problem>;
    /// The grid.
    fn grid(&self) -> &Grid {
        &self.problem().grid
    }
    /// Cell and face classes.
    fn geometry(&self) -> &Geometry {
        &self.problem().geo
    }
    /// Advance one time step (loop 1 body: loop 2 until converged or max_iters). On
    /// [`RunError::Diverged`] the backend has rolled the iterate back to the state before the
    /// step (the last good state), so [`Backend::state`] returns it.
    fn step(&mut self) -> Result<StepReport, RunError>;
    /// Completed time steps and the time of the current state, without reading fields back.
    fn clock(&self) -> (u64, f64);
    /// The current state, both time levels; backends that keep fields elsewhere copy all of
    /// them here first. A failed read-back is an error, never stale fields.
    fn state(&mut self) -> Result<&State, RunError>;
    /// The current state with the stored rows `rows` (j ranges of the padded grid, ghosts
    /// included) of the iterate `k` up to date: all six fields of those rows. Other rows of
    /// `k`, and level `n`, may be stale; `step` and `time` are current. Device backends read
    /// back only those rows; the default returns [`Backend::state`].
    fn iterate_rows(&mut self, rows: &[Range<usize>]) -> Result<&State, RunError> {
        let _ = rows;
        self.state()
    }
    /// The device and kernel build of the backend, for the run manifest.
    fn info(&self) -> SolverInfo {
        SolverInfo::default()
    }
    /// Replace the whole state (both time levels, step and time), e.g. from a checkpoint; the
    /// backend rebuilds everything derived from it (face fluxes, device buffers), so that the
    /// next [`Backend::step`] gives the same bits as the run that wrote the state.
    fn restore(&mut self, state: State) -> Result<(), RunError>;
    /// Backend details worth reporting (the fused kernel's decomposition, …).
    fn details(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The OpenCL runtime of a device backend (buffers, profiling and kernel-count traces of
    /// `simplets bench`); `None` for the CPU backends.
    fn runtime(&self) -> Option<&crate::device::Runtime> {
        None
    }
    /// Mutable [`Backend::runtime`].
    fn runtime_mut(&mut self) -> Option<&mut crate::device::Runtime> {
        None
    }
    /// A rank's device backend: overlap each halo exchange with the interior of its phase
    /// (`true`, where the window allows it) or exchange after the whole phase; the same bits
    /// either way. Nothing on other backends.
    fn set_overlap(&mut self, on: bool) {
        let _ = on;
    }
    /// A rank's device backend: how it exchanges its halos now (`None` elsewhere).
    fn halo_exchange(&self) -> Option<&'static str> {
        None
    }
}

/// A backend borrowed mutably is a backend (a caller keeps its solver while a [`SimpleTs`]
/// runs it).
impl<B: Backend + ?Sized> Backend for &mut B {
    fn name(&self) -> String {
        (**self).name()
    }
    fn problem(&self) -> &Arc<Problem> {
        (**self).problem()
    }
    fn step(&mut self) -> Result<StepReport, RunError> {
        (**self).step()
    }
    fn clock(&self) -> (u64, f64) {
        (**self).clock()
    }
    fn state(&mut self) -> Result<&State, RunError> {
        (**self).state()
    }
    fn iterate_rows(&mut self, rows: &[Range<usize>]) -> Result<&State, RunError> {
        (**self).iterate_rows(rows)
    }
    fn info(&self) -> SolverInfo {
        (**self).info()
    }
    fn restore(&mut self, state: State) -> Result<(), RunError> {
        (**self).restore(state)
    }
    fn details(&self) -> Vec<(String, String)> {
        (**self).details()
    }
    fn runtime(&self) -> Option<&crate::device::Runtime> {
        (**self).runtime()
    }
    fn runtime_mut(&mut self) -> Option<&mut crate::device::Runtime> {
        (**self).runtime_mut()
    }
    fn set_overlap(&mut self, on: bool) {
        (**self).set_overlap(on)
    }
    fn halo_exchange(&self) -> Option<&'static str> {
        (**self).halo_exchange()
    }
}
