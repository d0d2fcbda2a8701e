//! The `shll_shallow_water` case file ([`ShallowWaterCase`]): its water (gravity, dry depth),
//! states, initial state, value rules, and the [`Problem`] it discretises to.

use serde::{Deserialize, Serialize};

use super::rules::{check_method, check_walls, dims, periodic};
use super::scheme::{Scheme, MAX_CFL};
use crate::case::rules::{finite, non_negative, positive};
use crate::case::{GridSpec, Method, OutputSpec};
use crate::error::ConfigError;
use crate::grid::Grid;
use crate::methods::explicit::case::{
    check_boundaries, check_grid, check_name, check_time, common, parse_for, sides, time_rule,
    Boundaries, ExplicitTime, Rect, Region,
};
use crate::methods::explicit::{fill, solid_mask, Mesh, Problem, System};

/// Water of the shallow-water method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Water {
    /// Gravity g (default 9.81).
    #[serde(default = "gravity")]
    pub gravity: f64,
    /// Depth below which a cell is dry: no velocity (default 1e-6).
    #[serde(default = "dry_depth")]
    pub dry_depth: f64,
}

fn gravity() -> f64 {
    9.81
}

fn dry_depth() -> f64 {
    1e-6
}

/// A shallow-water state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwState {
    /// Depth h ≥ 0.
    pub h: f64,
    /// Velocity x-component.
    #[serde(default)]
    pub u: f64,
    /// Velocity y-component.
    #[serde(default)]
    pub v: f64,
}

impl SwState {
    /// Conserved (φ, φu, φv), φ = g h.
    pub fn conserved(&self, g: f64) -> [f64; 4] {
        let phi = g * self.h;
        [phi, phi * self.u, phi * self.v, 0.0]
    }

    fn check(&self, path: &str) -> Result<(), ConfigError> {
        non_negative(&format!("{path}.h"), self.h)?;
        finite(&format!("{path}.u"), self.u)?;
        finite(&format!("{path}.v"), self.v)
    }
}

/// Initial state of the shallow-water method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwInitial {
    /// Background state.
    pub state: SwState,
    /// Regions of other states (the reservoir of a dam break).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<Region<SwState>>,
}

/// A `shll_shallow_water` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShallowWaterCase {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"shll_shallow_water"`.
    pub method: Method,
    /// Gravity and dry threshold.
    #[serde(default = "default_water")]
    pub water: Water,
    /// Uniform grid; ny = 1 is a 1D run.
    pub grid: GridSpec,
    /// Numerics.
    #[serde(default)]
    pub scheme: Scheme,
    /// Sides.
    pub boundaries: Boundaries<SwState>,
    /// Internal walls (the dam).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<Rect>,
    /// Initial state.
    pub initial: SwInitial,
    /// Time rule.
    pub time: ExplicitTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn default_water() -> Water {
    Water {
        gravity: gravity(),
        dry_depth: dry_depth(),
    }
}

impl ShallowWaterCase {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<ShallowWaterCase, ConfigError> {
        let c: ShallowWaterCase = parse_for(text, source, Method::ShllShallowWater)?;
        c.validate()?;
        Ok(c)
    }

    /// Value rules (file order).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        check_method(self.method, Method::ShllShallowWater)?;
        positive("water.gravity", self.water.gravity)?;
        non_negative("water.dry_depth", self.water.dry_depth)?;
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
        check_time(&self.time, MAX_CFL)
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        let g = self.water.gravity;
        let mesh = Mesh::new(&self.grid, self.scheme.ghosts());
        let (px, py) = periodic(&self.boundaries);
        let (dx, dy) = (mesh.dx, mesh.dy);
        let initial = fill(&mesh, 3, |x, y| {
            let mut s = self.initial.state;
            for r in &self.initial.regions {
                if r.contains(x, y, dx, dy) {
                    s = r.state;
                }
            }
            s.conserved(g)
        });
        let (rule, t_end, steps) = time_rule(&self.time, None);
        Problem {
            method: Method::ShllShallowWater,
            system: System::ShallowWater {
                g,
                phi_dry: g * self.water.dry_depth,
            },
            num: self.scheme.numerics(),
            sides: sides(&self.boundaries, |s| s.conserved(g)[..3].to_vec()),
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
            Method::ShllShallowWater,
            self.scheme.numerics().label(),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}
