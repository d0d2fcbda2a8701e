//! The `bp_euler` case file (`deny_unknown_fields`).
//!
//! ```json
//! { "name": "bp_bump", "method": "bp_euler", "gas": { "gamma": 1.4, "r": 287.0 },
//!   "grid": { "kind": "bump", "ni": 97, "nj": 33, "thickness": 0.1 },
//!   "inlet": { "p0": 100000.0, "t0": 300.0, "angle": 0.0 }, "outlet": { "p": 84300.0 },
//!   "scheme": { "cfl": 0.4, "smooth": 0.5, "boundaries": "tables" },
//!   "time": { "steps": 20000, "tolerance": 1e-7 } }
//! ```
//!
//! The turbine cascade: `"grid": { "kind": "cascade", "ni": 60, "nj": 60, "pitch": 1.0,
//! "inlet_metal_angle": 0.0, "exit_metal_angle": -65.0, "thickness": 0.25 }`; a grid file:
//! `"grid": { "kind": "file", "path": "bump.grid" }` (relative to the case file; the format
//! is in [`super::gridfile`]).
//!
//! The supersonic wedge: `"grid": { "kind": "wedge", "ni": 91, "nj": 61, "angle": 10.0 }`,
//! `"inlet": { "mach": 1.6, "p": 100000.0, "t": 300.0 }` (every inflow variable fixed),
//! `"outlet": { "kind": "supersonic" }` (no pressure imposed).
//!
//! Dimensional SI units (seed 001 §2). The run stops after `steps` steps or once the largest
//! |Δρ|/ρ0 of a step is below `tolerance`.

use serde::{Deserialize, Serialize};

use super::grid::NodeGrid;
pub use super::gridspec::BpGrid;
use super::start::Start;
use super::tables::BoundaryForm;
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

/// Inlet conditions: subsonic (`p0`, `t0`: stagnation state and angle imposed) or
/// supersonic (`mach`, `p`, `t`: every inflow variable fixed), never both.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Inlet {
    /// Stagnation pressure, Pa (subsonic inlet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p0: Option<f64>,
    /// Stagnation temperature, K (subsonic inlet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t0: Option<f64>,
    /// Mach number, above 1 (supersonic inlet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mach: Option<f64>,
    /// Static pressure, Pa (supersonic inlet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
    /// Static temperature, K (supersonic inlet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub t: Option<f64>,
    /// Flow angle, degrees (default 0).
    #[serde(default)]
    pub angle: f64,
}

/// The kind of exit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutletKind {
    /// The static pressure `p` imposed.
    #[default]
    Pressure,
    /// Supersonic: nothing imposed.
    Supersonic,
}

fn is_pressure(k: &OutletKind) -> bool {
    *k == OutletKind::Pressure
}

/// Outlet: the static pressure, or a supersonic exit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Outlet {
    /// `"pressure"` (default) or `"supersonic"`.
    #[serde(default, skip_serializing_if = "is_pressure")]
    pub kind: OutletKind,
    /// Static pressure, Pa (the pressure exit only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p: Option<f64>,
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
    /// How the boundaries reach the step: `"tables"` (default, the report's branch-free
    /// index tables) or `"ranges"` (interior by arithmetic, boundary rows in their own
    /// launches), the same bits; or `"ghost"` (a padded ghost layer, interior stencils
    /// everywhere: another discretisation, ducts only).
    #[serde(default, skip_serializing_if = "is_tables")]
    pub boundaries: BoundaryForm,
}

fn is_tables(f: &BoundaryForm) -> bool {
    *f == BoundaryForm::Tables
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
            boundaries: BoundaryForm::Tables,
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
    /// Inlet conditions.
    pub inlet: Inlet,
    /// Outlet conditions.
    pub outlet: Outlet,
    /// Numerics.
    #[serde(default)]
    pub scheme: BpScheme,
    /// How the run starts (default `"uniform"`; `"along_grid"` for a cascade).
    #[serde(default, skip_serializing_if = "is_uniform")]
    pub start: Start,
    /// Run length.
    pub time: BpTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn is_uniform(s: &Start) -> bool {
    *s == Start::Uniform
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
        let mut c: Case = parse_for(text, source, Method::BpEuler)?;
        c.grid.load(source)?;
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
        self.grid.validate()?;
        self.validate_inlet()?;
        self.validate_outlet()?;
        let c = self.scheme.cfl;
        if self.inlet.angle.abs() >= 80.0 {
            return Err(invalid(
                "inlet.angle",
                num(self.inlet.angle),
                "must be in (-80, 80) degrees",
            ));
        }

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

    /// The inlet rules: either `p0` and `t0` or `mach`, `p` and `t`.
    fn validate_inlet(&self) -> Result<(), ConfigError> {
        let i = &self.inlet;
        if i.mach.is_some() || i.p.is_some() || i.t.is_some() {
            for (name, v) in [("inlet.p0", i.p0), ("inlet.t0", i.t0)] {
                if let Some(v) = v {
                    return Err(invalid(
                        name,
                        num(v),
                        "not with a supersonic inlet (inlet.mach, p, t)",
                    ));
                }
            }
            let need = |name: &str, v: Option<f64>| {
                v.ok_or_else(|| invalid(name, "missing", "a supersonic inlet needs mach, p and t"))
            };
            let m = need("inlet.mach", i.mach)?;
            if !(m > 1.0 && m < 20.0) {
                return Err(invalid(
                    "inlet.mach",
                    num(m),
                    "must be in (1, 20) (a subsonic inlet takes p0 and t0)",
                ));
            }
            positive("inlet.p", need("inlet.p", i.p)?)?;
            positive("inlet.t", need("inlet.t", i.t)?)?;
        } else {
            let need = |name: &str, v: Option<f64>| {
                v.ok_or_else(|| {
                    invalid(
                        name,
                        "missing",
                        "the inlet needs p0 and t0 (subsonic) or mach, p and t (supersonic)",
                    )
                })
            };
            positive("inlet.p0", need("inlet.p0", i.p0)?)?;
            positive("inlet.t0", need("inlet.t0", i.t0)?)?;
        }
        finite("inlet.angle", i.angle)?;
        if i.angle.abs() >= 80.0 {
            return Err(invalid(
                "inlet.angle",
                num(i.angle),
                "must be in (-80, 80) degrees",
            ));
        }
        Ok(())
    }

    /// The outlet rules: a pressure below the inlet's stagnation pressure, or a supersonic
    /// exit (after a supersonic inlet, whose state starts the run).
    fn validate_outlet(&self) -> Result<(), ConfigError> {
        match self.outlet.kind {
            OutletKind::Pressure => {
                let p = self.outlet.p.ok_or_else(|| {
                    invalid(
                        "outlet.p",
                        "missing",
                        "a pressure exit needs p (or \"kind\": \"supersonic\")",
                    )
                })?;
                positive("outlet.p", p)?;
                let p0 = self.flow_stagnation().0;
                if p >= p0 {
                    return Err(invalid(
                        "outlet.p",
                        num(p),
                        format!(
                            "must be below the inlet stagnation pressure ({}) for the flow to go",
                            num(p0)
                        ),
                    ));
                }
            }
            OutletKind::Supersonic => {
                if let Some(p) = self.outlet.p {
                    return Err(invalid(
                        "outlet.p",
                        num(p),
                        "not with a supersonic exit (nothing is imposed there)",
                    ));
                }
                if self.inlet.mach.is_none() {
                    return Err(invalid(
                        "outlet.kind",
                        "supersonic",
                        "needs a supersonic inlet (inlet.mach, p, t)",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The inlet's stagnation (p0, T0): given, or from the supersonic free stream.
    fn flow_stagnation(&self) -> (f64, f64) {
        let i = &self.inlet;
        match (i.mach, i.p, i.t) {
            (Some(m), Some(p), Some(t)) => Flow::stagnation(self.gas.gamma, m, p, t),
            _ => (i.p0.unwrap_or(f64::NAN), i.t0.unwrap_or(f64::NAN)),
        }
    }

    /// The node grid.
    pub fn node_grid(&self) -> NodeGrid {
        self.grid.node_grid()
    }

    /// Gas and boundary data. A supersonic inlet sets p0, T0 from its free stream and
    /// starts the run from it (p_exit = its static pressure, imposed only by a pressure
    /// exit).
    pub fn flow(&self) -> Flow {
        let (p0, t0) = self.flow_stagnation();
        let p_inlet = self.inlet.mach.and(self.inlet.p);
        Flow {
            gamma: self.gas.gamma,
            r: self.gas.r,
            p0,
            t0,
            angle: self.inlet.angle.to_radians(),
            p_exit: self.outlet.p.or(p_inlet).unwrap_or(f64::NAN),
            p_inlet,
            free_exit: self.outlet.kind == OutletKind::Supersonic,
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
        let (ni, nj) = self.grid.nodes();
        let (x, y) = self.grid.bbox();
        GridSpec {
            nx: ni,
            ny: nj,
            x,
            y,
            x_faces: None,
            y_faces: None,
        }
    }

    /// Resize the grid (command-line `--nx`, `--ny`; not a grid file's).
    pub fn resize(&mut self, n_i: Option<usize>, n_j: Option<usize>) -> Result<(), ConfigError> {
        self.grid.resize(n_i, n_j)
    }

    /// What the run driver and the output need.
    pub fn common(&self) -> crate::case::Common {
        let mut c = crate::methods::explicit::case::common(
            &self.name,
            &self.description,
            Method::BpEuler,
            match self.scheme.boundaries {
                BoundaryForm::Tables => "scree-branch-free".into(),
                BoundaryForm::Ranges => "scree-ranges".into(),
                BoundaryForm::Ghost => "scree-ghost".into(),
            },
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
