//! The `shll_euler` case file ([`EulerCase`]): its gas, primitive states, initial state (regions
//! or Shu's isentropic vortex), value rules, and the [`Problem`] it discretises to.

use serde::{Deserialize, Serialize};

use super::rules::{check_method, check_walls, dims, periodic};
use super::scheme::{Scheme, MAX_CFL};
use crate::case::rules::{finite, invalid, non_negative, num, positive};
use crate::case::{GridSpec, Method, OutputSpec};
use crate::error::ConfigError;
use crate::grid::Grid;
use crate::methods::explicit::case::{
    check_boundaries, check_grid, check_name, check_time, common, parse_for, sides, time_rule,
    Boundaries, ExplicitTime, Rect, Region,
};
use crate::methods::explicit::{fill, solid_mask, Mesh, Problem, System};

/// Gas of the Euler method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gas {
    /// Ratio of specific heats γ (default 1.4).
    #[serde(default = "gamma_air")]
    pub gamma: f64,
}

fn gamma_air() -> f64 {
    1.4
}

/// A primitive Euler state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EulerState {
    /// Density.
    pub rho: f64,
    /// Velocity x-component.
    #[serde(default)]
    pub u: f64,
    /// Velocity y-component.
    #[serde(default)]
    pub v: f64,
    /// Pressure.
    pub p: f64,
}

impl EulerState {
    /// Conserved (ρ, ρu, ρv, E).
    pub fn conserved(&self, gamma: f64) -> [f64; 4] {
        let (r, u, v) = (self.rho, self.u, self.v);
        [
            r,
            r * u,
            r * v,
            self.p / (gamma - 1.0) + 0.5 * r * (u * u + v * v),
        ]
    }

    fn check(&self, path: &str) -> Result<(), ConfigError> {
        positive(&format!("{path}.rho"), self.rho)?;
        positive(&format!("{path}.p"), self.p)?;
        finite(&format!("{path}.u"), self.u)?;
        finite(&format!("{path}.v"), self.v)
    }
}

/// Shu's isentropic vortex on the background state (which must have ρ = p = 1; its velocity
/// is the free stream): exact cell averages (`exact::vortex`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vortex {
    /// Strength β.
    pub beta: f64,
    /// Centre at t = 0.
    pub centre: [f64; 2],
}

/// Initial state of the Euler method: the background, then `regions` in order (or a vortex).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EulerInitial {
    /// Background state.
    pub state: EulerState,
    /// Regions of other states (shock tubes, bubbles, post-shock gas).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<Region<EulerState>>,
    /// An isentropic vortex instead of regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vortex: Option<Vortex>,
}

/// A `shll_euler` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EulerCase {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"shll_euler"`.
    pub method: Method,
    /// Gas.
    #[serde(default = "default_gas")]
    pub gas: Gas,
    /// Uniform grid; ny = 1 is a 1D run.
    pub grid: GridSpec,
    /// Numerics.
    #[serde(default)]
    pub scheme: Scheme,
    /// Sides.
    pub boundaries: Boundaries<EulerState>,
    /// Internal walls: cells whose centres lie strictly inside are solid (reflective faces).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<Rect>,
    /// Initial state.
    pub initial: EulerInitial,
    /// Time rule.
    pub time: ExplicitTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn default_gas() -> Gas {
    Gas { gamma: 1.4 }
}

impl EulerCase {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<EulerCase, ConfigError> {
        let c: EulerCase = parse_for(text, source, Method::ShllEuler)?;
        c.validate()?;
        Ok(c)
    }

    /// Value rules (file order); the first failure names its JSON path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        check_method(self.method, Method::ShllEuler)?;
        let g = self.gas.gamma;
        if !(g > 1.0 && g < 3.0) {
            return Err(invalid("gas.gamma", num(g), "must be in (1, 3)"));
        }
        check_grid(&self.grid)?;
        self.scheme.check()?;
        check_boundaries(&self.boundaries, dims(&self.grid), true)?;
        for (name, s) in [
            ("west", Some(&self.boundaries.west)),
            ("east", Some(&self.boundaries.east)),
            ("south", self.boundaries.south.as_ref()),
            ("north", self.boundaries.north.as_ref()),
        ] {
            if let Some(crate::methods::explicit::case::Side::Inflow { state }) = s {
                state.check(&format!("boundaries.{name}.state"))?;
            }
        }
        check_walls(&self.walls)?;
        self.initial.state.check("initial.state")?;
        for (k, r) in self.initial.regions.iter().enumerate() {
            r.check(&format!("initial.regions[{k}]"))?;
            r.state.check(&format!("initial.regions[{k}].state"))?;
        }
        if let Some(v) = &self.initial.vortex {
            non_negative("initial.vortex.beta", v.beta)?;
            let s = &self.initial.state;
            if s.rho != 1.0 || s.p != 1.0 {
                return Err(invalid(
                    "initial.state",
                    format!("rho = {}, p = {}", num(s.rho), num(s.p)),
                    "the vortex is defined on rho = p = 1",
                ));
            }
            if !self.initial.regions.is_empty() {
                return Err(invalid(
                    "initial.vortex",
                    "with regions",
                    "give a vortex or regions",
                ));
            }
        }
        check_time(&self.time, MAX_CFL)
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        let gamma = self.gas.gamma;
        let mesh = Mesh::new(&self.grid, self.scheme.ghosts());
        let (px, py) = periodic(&self.boundaries);
        let init = &self.initial;
        let vortex = init.vortex.map(|v| {
            let b = crate::exact::periodic::PeriodicBox {
                xmin: self.grid.x[0],
                ymin: self.grid.y[0],
                lx: self.grid.x[1] - self.grid.x[0],
                ly: self.grid.y[1] - self.grid.y[0],
            };
            crate::exact::vortex::IsentropicVortex::new(
                v.beta,
                gamma,
                (v.centre[0], v.centre[1]),
                (init.state.u, init.state.v),
                (px && py).then_some(b),
            )
            .expect("validated vortex")
        });
        let (dx, dy) = (mesh.dx, mesh.dy);
        let initial = fill(&mesh, 4, |x, y| {
            if let Some(v) = &vortex {
                let c = v
                    .cell_average(x - 0.5 * dx, x + 0.5 * dx, y - 0.5 * dy, y + 0.5 * dy, 0.0)
                    .expect("vortex cell average");
                return [c.rho, c.mom_x, c.mom_y, c.energy];
            }
            let mut s = init.state;
            for r in &init.regions {
                if r.contains(x, y, dx, dy) {
                    s = r.state;
                }
            }
            s.conserved(gamma)
        });
        let (rule, t_end, steps) = time_rule(&self.time, None);
        let num = self.scheme.numerics();
        Problem {
            method: Method::ShllEuler,
            system: System::Euler { gamma },
            num,
            sides: sides(&self.boundaries, |s| s.conserved(gamma).to_vec()),
            solid: solid_mask(&mesh, &self.walls),
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
            Method::ShllEuler,
            self.scheme.numerics().label(),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}
