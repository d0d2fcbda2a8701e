//! The serial SIMPLE-TS reference solver (spec §2): plain, readable Rust in the C++ order, and
//! the oracle every other backend must reproduce.

use crate::config::Case;
use crate::error::RunError;
use crate::fields::State;
use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::solver::{Solver, StepReport};

/// The serial reference solver.
pub struct Reference {
    grid: Grid,
    geom: Geometry,
    state: State,
}

impl Reference {
    /// Set up the grid, geometry and initial state of `case`.
    pub fn new(case: &Case) -> Reference {
        let _ = case;
        todo!("reference solver")
    }
}

impl Solver for Reference {
    fn name(&self) -> String {
        "reference".into()
    }
    fn grid(&self) -> &Grid {
        &self.grid
    }
    fn geometry(&self) -> &Geometry {
        &self.geom
    }
    fn step(&mut self) -> Result<StepReport, RunError> {
        todo!()
    }
    fn state(&mut self) -> &State {
        &self.state
    }
}
