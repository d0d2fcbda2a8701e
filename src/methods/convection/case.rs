//! The `convection` case file: velocity, initial field (top hats, a Gaussian), sides (inflow,
//! outflow, periodic), the time rule (a fixed Δt, or a CFL number that fixes it: the rate
//! |c_x|/Δx + |c_y|/Δy is constant) and output; and its [`Problem`].

use serde::{Deserialize, Serialize};

use crate::case::rules::{finite, invalid, num};
use crate::case::{GridSpec, Method, OutputSpec};
use crate::error::ConfigError;
use crate::grid::Grid;
use crate::methods::explicit::case::{
    check_boundaries, check_grid, check_name, check_time, common, parse_for, sides, time_rule,
    Boundaries, ExplicitTime, ScalarInitial, ScalarState,
};
use crate::methods::explicit::{fill, Mesh, Numerics, Problem, StepRule, System};

/// Largest CFL number |ν_x| + |ν_y| accepted (the monotone, stable limit of the 2D upwind
/// update, seed 003 spec §2).
pub const MAX_CFL: f64 = 1.0;

/// A `convection` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"convection"`.
    pub method: Method,
    /// Velocity (c_x, c_y); c_y must be 0 in 1D.
    pub velocity: [f64; 2],
    /// Uniform grid; ny = 1 is a 1D run.
    pub grid: GridSpec,
    /// Sides (inflow, outflow, periodic).
    pub boundaries: Boundaries<ScalarState>,
    /// Initial field.
    pub initial: ScalarInitial,
    /// Time rule.
    pub time: ExplicitTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

impl Case {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<Case, ConfigError> {
        let c: Case = parse_for(text, source, Method::Convection)?;
        c.validate()?;
        Ok(c)
    }

    /// The constant rate |c_x|/Δx + |c_y|/Δy (a CFL number fixes Δt = cfl / rate).
    pub fn rate(&self) -> f64 {
        let m = Mesh::new(&self.grid, 1);
        let ry = if m.dims == 2 {
            self.velocity[1].abs() / m.dy
        } else {
            0.0
        };
        self.velocity[0].abs() / m.dx + ry
    }

    /// Value rules (file order).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        if self.method != Method::Convection {
            return Err(invalid("method", self.method, "must be convection"));
        }
        finite("velocity[0]", self.velocity[0])?;
        finite("velocity[1]", self.velocity[1])?;
        check_grid(&self.grid)?;
        if self.grid.ny == 1 && self.velocity[1] != 0.0 {
            return Err(invalid(
                "velocity[1]",
                num(self.velocity[1]),
                "must be 0 in 1D (grid.ny = 1)",
            ));
        }
        if self.time.cfl.is_some() && self.rate() == 0.0 {
            return Err(invalid("time.cfl", "with velocity 0", "give time.dt"));
        }
        check_boundaries(
            &self.boundaries,
            if self.grid.ny == 1 { 1 } else { 2 },
            false,
        )?;
        self.initial.check()?;
        check_time(&self.time, MAX_CFL)?;
        if let Some(dt) = self.time.dt {
            let c = dt * self.rate();
            if c > MAX_CFL {
                return Err(invalid(
                    "time.dt",
                    num(dt),
                    format!(
                        "gives |nu_x| + |nu_y| = {} > {}: the upwind update is unstable (at most {})",
                        num(c),
                        num(MAX_CFL),
                        num(MAX_CFL / self.rate())
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The fixed Δt.
    pub fn dt(&self) -> f64 {
        match time_rule(&self.time, Some(self.rate())).0 {
            StepRule::Fixed(dt) | StepRule::Cfl(dt) => dt,
        }
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        use crate::methods::explicit::case::Side;
        let mesh = Mesh::new(&self.grid, 1);
        let (rule, t_end, steps) = time_rule(&self.time, Some(self.rate()));
        let dt = self.dt();
        let c = self.velocity;
        let nu = [
            c[0] * dt / mesh.dx,
            if mesh.dims == 2 {
                c[1] * dt / mesh.dy
            } else {
                0.0
            },
        ];
        let (dx, dy, d) = (mesh.dx, mesh.dy, mesh.dims);
        let initial = fill(&mesh, 1, |x, y| {
            [self.initial.at(x, y, dx, dy, d), 0.0, 0.0, 0.0]
        });
        let px = matches!(self.boundaries.west, Side::Periodic);
        let py = matches!(self.boundaries.south, Some(Side::Periodic));
        Problem {
            method: Method::Convection,
            system: System::Convection { nu },
            num: Numerics::first_order(),
            sides: sides(&self.boundaries, |s| vec![s.value]),
            solid: None,
            rule,
            t_end,
            total_steps: steps,
            initial,
            grid: Grid::new(&self.grid, px, py),
            common: self.common(),
            mesh,
        }
    }

    /// What the run driver and the output need.
    pub fn common(&self) -> crate::case::Common {
        let (rule, _, steps) = time_rule(&self.time, Some(self.rate()));
        common(
            &self.name,
            &self.description,
            Method::Convection,
            "upwind-ftbs".into(),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}
