//! The `shll_convection_diffusion` case file ([`TransportCase`]): its transport coefficients
//! (velocity, diffusivity, the split's numerical speeds), value rules, and the [`Problem`] it
//! discretises to.

use serde::{Deserialize, Serialize};

use super::rules::{check_method, dims, periodic};
use super::scheme::{Scheme, MAX_CFL};
use crate::case::rules::{finite, invalid, non_negative, num};
use crate::case::{GridSpec, Method, OutputSpec};
use crate::error::ConfigError;
use crate::grid::Grid;
use crate::methods::explicit::case::{
    check_boundaries, check_grid, check_name, check_time, common, parse_for, sides, time_rule,
    Boundaries, ExplicitTime, ScalarInitial, ScalarState,
};
use crate::methods::explicit::{fill, Mesh, Problem, System};

/// Transport coefficients of the convection–diffusion method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transport {
    /// Velocity (c_x, c_y).
    pub velocity: [f64; 2],
    /// Diffusion coefficient ν ≥ 0.
    pub diffusivity: f64,
    /// Numerical speed a per axis of the SHLL split (default |c|: exact upwinding; must be
    /// ≥ |c|).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<[f64; 2]>,
}

/// A `shll_convection_diffusion` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransportCase {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"shll_convection_diffusion"`.
    pub method: Method,
    /// Velocity, diffusivity, numerical speed.
    pub transport: Transport,
    /// Uniform grid; ny = 1 is a 1D run.
    pub grid: GridSpec,
    /// Numerics.
    #[serde(default)]
    pub scheme: Scheme,
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

impl TransportCase {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<TransportCase, ConfigError> {
        let c: TransportCase = parse_for(text, source, Method::ShllConvectionDiffusion)?;
        c.validate()?;
        Ok(c)
    }

    /// The numerical speeds (a_x, a_y): given, or |c|.
    pub fn speeds(&self) -> [f64; 2] {
        let c = self.transport.velocity;
        self.transport.speed.unwrap_or([c[0].abs(), c[1].abs()])
    }

    /// Value rules (file order).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        check_method(self.method, Method::ShllConvectionDiffusion)?;
        let t = &self.transport;
        finite("transport.velocity[0]", t.velocity[0])?;
        finite("transport.velocity[1]", t.velocity[1])?;
        non_negative("transport.diffusivity", t.diffusivity)?;
        let a = self.speeds();
        for (ax, &aa) in a.iter().enumerate() {
            if !(aa.is_finite() && aa >= t.velocity[ax].abs()) {
                return Err(invalid(
                    format!("transport.speed[{ax}]"),
                    num(aa),
                    format!(
                        "must be finite and >= |velocity[{ax}]| = {}",
                        num(t.velocity[ax].abs())
                    ),
                ));
            }
        }
        check_grid(&self.grid)?;
        if self.grid.ny == 1 && t.velocity[1] != 0.0 {
            return Err(invalid(
                "transport.velocity[1]",
                num(t.velocity[1]),
                "must be 0 in 1D (grid.ny = 1)",
            ));
        }
        self.scheme.check()?;
        check_boundaries(&self.boundaries, dims(&self.grid), false)?;
        self.initial.check()?;
        check_time(&self.time, MAX_CFL)
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        let mesh = Mesh::new(&self.grid, self.scheme.ghosts());
        let (px, py) = periodic(&self.boundaries);
        let (dx, dy, d) = (mesh.dx, mesh.dy, mesh.dims);
        let initial = fill(&mesh, 1, |x, y| {
            [self.initial.at(x, y, dx, dy, d), 0.0, 0.0, 0.0]
        });
        let (rule, t_end, steps) = time_rule(&self.time, None);
        Problem {
            method: Method::ShllConvectionDiffusion,
            system: System::Transport {
                c: self.transport.velocity,
                a: self.speeds(),
                nu: self.transport.diffusivity,
            },
            num: self.scheme.numerics(),
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
        let (rule, _, steps) = time_rule(&self.time, None);
        common(
            &self.name,
            &self.description,
            Method::ShllConvectionDiffusion,
            self.scheme.numerics().label(),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}
