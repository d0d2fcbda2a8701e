//! The `bp_euler` case file (`deny_unknown_fields`).
//!
//! ```json
//! { "name": "bp_bump", "method": "bp_euler", "gas": { "gamma": 1.4, "r": 287.0 },
//!   "grid": { "kind": "bump", "ni": 97, "nj": 33, "thickness": 0.1 },
//!   "inlet": { "p0": 100000.0, "t0": 300.0, "angle": 0.0 }, "outlet": { "p": 84300.0 },
//!   "scheme": { "cfl": 0.4, "smooth": 0.5 },
//!   "time": { "steps": 20000, "tolerance": 1e-7 } }
//! ```
//!
//! Dimensional SI units (seed 001 §2). The run stops after `steps` steps or once the largest
//! |Δρ|/ρ0 of a step is below `tolerance`.

use serde::{Deserialize, Serialize};

use super::grid::NodeGrid;
use super::{Flow, Numerics};
use crate::case::rules::{finite, invalid, num, positive};
use crate::case::{GridSpec, Method, OutputSpec};
use crate::error::ConfigError;
use crate::methods::explicit::case::{check_name, parse_for};

/// The gas.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BpGas {
    /// γ (default 1.4).
    #[serde(default = "gamma_default")]
    pub gamma: f64,
    /// Gas constant, J/(kg K) (default 287).
    #[serde(default = "r_default")]
    pub r: f64,
}

fn gamma_default() -> f64 {
    1.4
}
fn r_default() -> f64 {
    287.0
}

/// The grid generator.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum BpGrid {
    /// The channel x ∈ [−1, 2], height 1, with a circular-arc bump of relative `thickness`
    /// on its lower wall over [0, 1] (0: a straight channel); ni × nj nodes.
    Bump {
        /// Nodes streamwise.
        ni: usize,
        /// Nodes across.
        nj: usize,
        /// Bump height / chord.
        thickness: f64,
    },
}

/// Inlet stagnation conditions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inlet {
    /// Stagnation pressure, Pa.
    pub p0: f64,
    /// Stagnation temperature, K.
    pub t0: f64,
    /// Flow angle, degrees (default 0).
    #[serde(default)]
    pub angle: f64,
}

/// Outlet static pressure.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outlet {
    /// Static pressure, Pa.
    pub p: f64,
}

/// Numerics.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BpScheme {
    /// CFL number of the local time steps (default 0.4; SCREE is stable to about 0.6).
    #[serde(default = "cfl_default")]
    pub cfl: f64,
    /// Smoothing factor input (default 0.5); SF = smooth · cfl per step.
    #[serde(default = "smooth_default")]
    pub smooth: f64,
}

fn cfl_default() -> f64 {
    0.4
}
fn smooth_default() -> f64 {
    0.5
}

impl Default for BpScheme {
    fn default() -> Self {
        BpScheme {
            cfl: cfl_default(),
            smooth: smooth_default(),
        }
    }
}

/// Run length.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BpTime {
    /// Steps at most.
    pub steps: u64,
    /// Stop once max |Δρ|/ρ0 of a step is below this (default 0: run all steps).
    #[serde(default)]
    pub tolerance: f64,
}

/// A `bp_euler` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"bp_euler"`.
    pub method: Method,
    /// Gas.
    #[serde(default = "gas_default")]
    pub gas: BpGas,
    /// The grid generator.
    pub grid: BpGrid,
    /// Inlet stagnation conditions.
    pub inlet: Inlet,
    /// Outlet static pressure.
    pub outlet: Outlet,
    /// Numerics.
    #[serde(default)]
    pub scheme: BpScheme,
    /// Run length.
    pub time: BpTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn gas_default() -> BpGas {
    BpGas {
        gamma: gamma_default(),
        r: r_default(),
    }
}

impl Case {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<Case, ConfigError> {
        let c: Case = parse_for(text, source, Method::BpEuler)?;
        c.validate()?;
        Ok(c)
    }

    /// Value rules; the first failure names its JSON path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        let g = self.gas.gamma;
        if !(g > 1.0 && g < 3.0) {
            return Err(invalid("gas.gamma", num(g), "must be in (1, 3)"));
        }
        positive("gas.r", self.gas.r)?;
        let BpGrid::Bump { ni, nj, thickness } = self.grid;
        if !(3..=100_000).contains(&ni) {
            return Err(invalid("grid.ni", ni, "must be in [3, 100000]"));
        }
        if !(4..=100_000).contains(&nj) {
            return Err(invalid(
                "grid.nj",
                nj,
                "must be in [4, 100000] (the wall smoothing reaches two nodes in)",
            ));
        }
        if !(0.0..=0.3).contains(&thickness) {
            return Err(invalid(
                "grid.thickness",
                num(thickness),
                "must be in [0, 0.3]",
            ));
        }
        positive("inlet.p0", self.inlet.p0)?;
        positive("inlet.t0", self.inlet.t0)?;
        finite("inlet.angle", self.inlet.angle)?;
        if self.inlet.angle.abs() >= 80.0 {
            return Err(invalid(
                "inlet.angle",
                num(self.inlet.angle),
                "must be in (-80, 80) degrees",
            ));
        }
        positive("outlet.p", self.outlet.p)?;
        if self.outlet.p >= self.inlet.p0 {
            return Err(invalid(
                "outlet.p",
                num(self.outlet.p),
                format!(
                    "must be below inlet.p0 ({}) for the flow to go",
                    num(self.inlet.p0)
                ),
            ));
        }
        let c = self.scheme.cfl;
        if !(c > 0.0 && c <= 1.0) {
            return Err(invalid("scheme.cfl", num(c), "must be in (0, 1]"));
        }
        let s = self.scheme.smooth;
        if !(s >= 0.0 && s * c <= 1.0) {
            return Err(invalid(
                "scheme.smooth",
                num(s),
                "must be >= 0 with smooth·cfl <= 1",
            ));
        }
        if self.time.steps == 0 {
            return Err(invalid("time.steps", 0, "must be at least 1"));
        }
        if !(self.time.tolerance >= 0.0 && self.time.tolerance.is_finite()) {
            return Err(invalid(
                "time.tolerance",
                num(self.time.tolerance),
                "must be >= 0",
            ));
        }
        Ok(())
    }

    /// The node grid.
    pub fn node_grid(&self) -> NodeGrid {
        let BpGrid::Bump { ni, nj, thickness } = self.grid;
        NodeGrid::bump(ni, nj, thickness)
    }

    /// Gas and boundary data.
    pub fn flow(&self) -> Flow {
        Flow {
            gamma: self.gas.gamma,
            r: self.gas.r,
            p0: self.inlet.p0,
            t0: self.inlet.t0,
            angle: self.inlet.angle.to_radians(),
            p_exit: self.outlet.p,
        }
    }

    /// Numerics.
    pub fn numerics(&self) -> Numerics {
        Numerics {
            cfl: self.scheme.cfl,
            smooth: self.scheme.smooth,
            ..Numerics::default()
        }
    }

    /// The output grid: one "cell" per node, over the grid's bounding box (the true node
    /// positions are written as 2D auxiliary coordinates).
    pub fn grid_spec(&self) -> GridSpec {
        let BpGrid::Bump { ni, nj, .. } = self.grid;
        GridSpec {
            nx: ni,
            ny: nj,
            x: [-1.0, 2.0],
            y: [0.0, 1.0],
            x_faces: None,
            y_faces: None,
        }
    }

    /// Resize the grid (command-line `--nx`, `--ny`).
    pub fn resize(&mut self, n_i: Option<usize>, n_j: Option<usize>) {
        let BpGrid::Bump { ni, nj, .. } = &mut self.grid;
        if let Some(n) = n_i {
            *ni = n;
        }
        if let Some(n) = n_j {
            *nj = n;
        }
    }

    /// What the run driver and the output need.
    pub fn common(&self) -> crate::case::Common {
        let mut c = crate::methods::explicit::case::common(
            &self.name,
            &self.description,
            Method::BpEuler,
            "scree-branch-free".into(),
            &self.grid_spec(),
            crate::methods::explicit::StepRule::Fixed(1.0),
            self.time.steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        );
        c.time.dt = f64::NAN;
        c
    }
}
