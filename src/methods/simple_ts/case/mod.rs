//! The SIMPLE-TS case file: gas, grid, bodies, boundaries, initial state, scheme, time, loop
//! controls and output (README, "Writing a case"; the grid, time and output sections are the
//! shared ones of [`crate::case`]).
//!
//! Every quantity is non-dimensional (spec §1.2): lengths in units of the reference length L,
//! velocities in units of the most probable molecular speed V_th = √(2RT0), time in L/V_th,
//! pressure in p0, temperature in T0, density in ρ0 = p0/(R T0).
//!
//! Unknown fields are rejected (`deny_unknown_fields`); [`Case::validate`] checks every value
//! and names the JSON path of the first bad one.

mod cpp;
pub mod rules;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use crate::case::{GridSpec, Method, OutputSpec, Probe, TimeSpec};
use crate::error::ConfigError;
pub use cpp::{Compat, CompatSpec, Defect, ForcesReference, COMPAT_PRESET};

/// A complete simulation case, as read from a JSON file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Case name; the output file is `<name>.nc`. Letters, digits, `-`, `_` and `.` only.
    pub name: String,
    /// Free text describing the case.
    #[serde(default)]
    pub description: String,
    /// `"simple_ts"` or absent (the default method); any other method has its own case type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<Method>,
    /// Gas and rarefaction parameters.
    pub gas: Gas,
    /// Domain and grid.
    pub grid: GridSpec,
    /// Rectangular solid bodies inside the domain.
    #[serde(default)]
    pub bodies: Vec<Body>,
    /// Boundary condition on each side of the domain.
    pub boundaries: Boundaries,
    /// Initial condition (impulsive start, spec §3.5).
    #[serde(default)]
    pub initial: Initial,
    /// Convection scheme.
    #[serde(default)]
    pub scheme: Scheme,
    /// Time step and run length.
    pub time: TimeSpec,
    /// Loop-2 and loop-3 controls.
    #[serde(default)]
    pub solver: SolverSpec,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
    /// The state that normalises the force coefficients (default: the first inflow side).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forces_reference: Option<ForcesReference>,
    /// Reproduce named departures of the authors' C++ code (docs/decisions.md, "The authors'
    /// C++ code: compat switches"): `"simple_ts_cpp"` for all of them or a list of names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compat: Option<CompatSpec>,
}

/// Gas parameters (hard-sphere monatomic gas by default).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gas {
    /// Knudsen number Kn = ℓ0/L at the reference state (spec §1.2).
    pub kn: f64,
    /// Ratio of specific heats γ (5/3 for a monatomic gas).
    #[serde(default = "default_gamma")]
    pub gamma: f64,
    /// Prandtl number (2/3 for hard spheres, first Chapman–Enskog approximation).
    #[serde(default = "default_pr")]
    pub pr: f64,
    /// Velocity-slip coefficient σ_u of eq. (42).
    #[serde(default = "default_sigma_u")]
    pub sigma_u: f64,
    /// Temperature-jump coefficient σ_T of eq. (43).
    #[serde(default = "default_sigma_t")]
    pub sigma_t: f64,
}

/// Kind of wall boundary condition, the same word everywhere (`"wall": "slip"` ↔ `WallBc::Slip`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum WallBc {
    /// Velocity slip (42) and temperature jump (43) with local Knudsen number.
    #[default]
    Slip,
    /// No slip, gas temperature equal to the wall temperature.
    NoSlip,
    /// No slip, zero normal heat flux (the wall temperature is not used).
    Adiabatic,
}

/// Temperature condition of a wall, overriding the one that `wall` implies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Thermal {
    /// Temperature jump (43) with local Knudsen number.
    Jump,
    /// Gas temperature at the wall equal to the wall temperature.
    Fixed,
    /// Zero normal heat flux.
    Adiabatic,
}

impl WallBc {
    /// The velocity slip and temperature condition this word implies: slip ⇒ (slip, jump),
    /// no_slip ⇒ (no slip, fixed), adiabatic ⇒ (no slip, adiabatic).
    pub fn parts(self) -> (bool, Thermal) {
        match self {
            WallBc::Slip => (true, Thermal::Jump),
            WallBc::NoSlip => (false, Thermal::Fixed),
            WallBc::Adiabatic => (false, Thermal::Adiabatic),
        }
    }
}

/// A wall's resolved condition: `wall` with its `slip`, `thermal`, `sigma_u` and `sigma_t`
/// overrides applied, the σ falling back to the gas's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WallCondition {
    /// Velocity slip (42) on (else the gas takes the wall velocity).
    pub slip: bool,
    /// Temperature condition.
    pub thermal: Thermal,
    /// σ_u of this wall.
    pub sigma_u: f64,
    /// σ_T of this wall.
    pub sigma_t: f64,
}

/// Resolve a wall's condition from its `wall` word and overrides, on `gas`.
pub fn wall_condition(
    wall: WallBc,
    slip: Option<bool>,
    thermal: Option<Thermal>,
    sigma_u: Option<f64>,
    sigma_t: Option<f64>,
    gas: &Gas,
) -> WallCondition {
    let (s, t) = wall.parts();
    WallCondition {
        slip: slip.unwrap_or(s),
        thermal: thermal.unwrap_or(t),
        sigma_u: sigma_u.unwrap_or(gas.sigma_u),
        sigma_t: sigma_t.unwrap_or(gas.sigma_t),
    }
}

/// A rectangular solid body. Cells whose centres lie inside `[x0,x1]×[y0,y1]` are solid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Body {
    /// Optional label used in output (the forces CSV): letters, digits, '_', '.' and '-',
    /// unique among the bodies; empty gives `body<k>` for the k-th body.
    #[serde(default)]
    pub name: String,
    /// x extent `[x0, x1]`.
    pub x: [f64; 2],
    /// y extent `[y0, y1]`.
    pub y: [f64; 2],
    /// Wall velocity along x (tangential on the body's top and bottom faces).
    #[serde(default)]
    pub u_wall: f64,
    /// Wall velocity along y (tangential on the body's left and right faces).
    #[serde(default)]
    pub v_wall: f64,
    /// Wall temperature.
    #[serde(default = "one", rename = "T_wall")]
    pub t_wall: f64,
    /// Wall boundary condition.
    #[serde(default)]
    pub wall: WallBc,
    /// Velocity slip on or off, overriding `wall`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slip: Option<bool>,
    /// Temperature condition, overriding `wall`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thermal: Option<Thermal>,
    /// σ_u of this body (default `gas.sigma_u`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_u: Option<f64>,
    /// σ_T of this body (default `gas.sigma_t`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sigma_t: Option<f64>,
}

impl Body {
    /// The body's resolved wall condition on `gas`.
    pub fn condition(&self, gas: &Gas) -> WallCondition {
        wall_condition(
            self.wall,
            self.slip,
            self.thermal,
            self.sigma_u,
            self.sigma_t,
            gas,
        )
    }

    /// The body's name in output: `name`, or `body<k>` for the `k`-th body when it is empty.
    pub fn label(&self, k: usize) -> String {
        if self.name.is_empty() {
            format!("body{k}")
        } else {
            self.name.clone()
        }
    }
}

/// Boundary condition of one side of the domain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Side {
    /// A solid wall along the side (a ghost layer of solid cells).
    Wall {
        /// Tangential wall velocity (u on south/north walls, v on west/east walls).
        #[serde(default)]
        velocity: f64,
        /// Wall temperature.
        #[serde(default = "one", rename = "T")]
        t: f64,
        /// Wall boundary condition.
        #[serde(default)]
        wall: WallBc,
        /// Velocity slip on or off, overriding `wall`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        slip: Option<bool>,
        /// Temperature condition, overriding `wall`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thermal: Option<Thermal>,
        /// σ_u of this wall (default `gas.sigma_u`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sigma_u: Option<f64>,
        /// σ_T of this wall (default `gas.sigma_t`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sigma_t: Option<f64>,
    },
    /// Prescribed inflow: velocity, pressure and temperature fixed in the ghost layer.
    Inflow {
        /// Normal-to-x velocity u (give `u` or `mach`, not both).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        u: Option<f64>,
        /// Flow Mach number of the inflow along the inward normal; u = M·√(γ/2) (spec §1.4).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mach: Option<f64>,
        /// Velocity component v.
        #[serde(default)]
        v: f64,
        /// Pressure.
        #[serde(default = "one")]
        p: f64,
        /// Temperature.
        #[serde(default = "one", rename = "T")]
        t: f64,
        /// Ghost pressure: fixed to `p`, or copied from the first computed column/row
        /// (`p` is then its value before the first copy).
        #[serde(default, skip_serializing_if = "EndValue::is_fixed")]
        pressure: EndValue,
    },
    /// Outflow: zero normal gradient of every quantity. (A struct variant, not a unit
    /// variant: serde ignores `deny_unknown_fields` on the unit variants of a tagged enum, so
    /// `{"kind": "outflow", "p": 2}` would pass silently.)
    Outflow {
        /// The boundary face: copied from its neighbour (default), or solved by the momentum
        /// equation (west/east only).
        #[serde(default, skip_serializing_if = "BoundaryFace::is_copied")]
        boundary_face: BoundaryFace,
        /// The face beyond the ghost cell (west/east only).
        #[serde(default, skip_serializing_if = "OuterFace::is_zero_gradient")]
        outer_face: OuterFace,
    },
    /// Fixed pressure (and temperature) in the ghost layer; the boundary velocity is solved.
    Pressure {
        /// Pressure.
        p: f64,
        /// Temperature (with `temperature: zero_gradient` its value before the first copy).
        #[serde(default = "one", rename = "T")]
        t: f64,
        /// Ghost temperature: fixed to `T`, or copied from the first computed column/row.
        #[serde(default, skip_serializing_if = "EndValue::is_fixed")]
        temperature: EndValue,
        /// The face beyond the ghost cell (west/east only).
        #[serde(default, skip_serializing_if = "OuterFace::is_zero_gradient")]
        outer_face: OuterFace,
    },
    /// Periodic: must be set on both opposite sides. (Empty struct variant, see `Outflow`.)
    Periodic {},
}

/// How a ghost value of an open side is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum EndValue {
    /// The side's given value.
    #[default]
    Fixed,
    /// A copy of the first computed cell's value after every loop-2 iteration.
    ZeroGradient,
}

impl EndValue {
    /// True for the default.
    pub fn is_fixed(&self) -> bool {
        *self == EndValue::Fixed
    }
}

/// The boundary face of an outflow side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum BoundaryFace {
    /// A copy of the neighbouring computed face (zero gradient).
    #[default]
    Copied,
    /// Solved by the momentum equation, as the faces of a pressure side.
    Solved,
}

impl BoundaryFace {
    /// True for the default.
    pub fn is_copied(&self) -> bool {
        *self == BoundaryFace::Copied
    }
}

/// The face beyond the ghost cell of a west or east side (the C++ code's outer end face).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum OuterFace {
    /// Zero gradient: the west outer face copies the boundary face; the east boundary face's
    /// momentum CV reads the boundary face itself beyond the ghost.
    #[default]
    ZeroGradient,
    /// Set after every loop-2 iteration from the ghost cell's mass balance.
    MassBalance,
}

impl OuterFace {
    /// True for the default.
    pub fn is_zero_gradient(&self) -> bool {
        *self == OuterFace::ZeroGradient
    }
}

/// The four sides of the domain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Boundaries {
    /// x = x_start.
    pub west: Side,
    /// x = x_end.
    pub east: Side,
    /// y = y_start.
    pub south: Side,
    /// y = y_end.
    pub north: Side,
}

/// Initial condition in every fluid cell (spec §3.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Initial {
    /// Velocity u.
    #[serde(default)]
    pub u: f64,
    /// Velocity v.
    #[serde(default)]
    pub v: f64,
    /// Pressure (at x_start when `p_east` is given).
    #[serde(default = "one")]
    pub p: f64,
    /// If given, the initial pressure varies linearly in x from `p` to `p_east`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p_east: Option<f64>,
    /// Temperature.
    #[serde(default = "one", rename = "T")]
    pub t: f64,
}

/// Time treatment of convection (spec §2.4, [S] §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Convection {
    /// Backward Euler: convection inside the loop-2 coefficients.
    #[default]
    Implicit,
    /// Forward Euler: convective terms from level n, once per time step.
    Explicit,
}

/// Face-value approximation of convected quantities (spec §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Interpolation {
    /// First-order upwind.
    #[default]
    Upwind,
    /// Second-order TVD (upwind + Van Leer limited correction).
    Tvd,
}

/// One of the four SIMPLE-TS variants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Scheme {
    /// Implicit or explicit convection.
    #[serde(default)]
    pub convection: Convection,
    /// Upwind or TVD face values.
    #[serde(default)]
    pub interpolation: Interpolation,
}

/// Order in which the serial reference evaluates loop 3 (spec §2.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SweepOrder {
    /// The C++ order: `inner_sweeps` Jacobi T/p sweeps per loop-2 iteration (every backend;
    /// the OpenCL backend runs it with the phase kernels).
    #[default]
    Cpp,
    /// The GPU order: one T/p evaluation per loop-2 iteration (inner_sweeps is ignored).
    Gpu,
}

/// Loop-2 (outer iteration) and loop-3 (inner T/p sweeps) controls (spec §4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverSpec {
    /// Maximum loop-2 iterations per time step N_I.
    #[serde(default = "default_max_iters")]
    pub max_iters: u32,
    /// Velocity tolerance ε_V on max|u^{k+1}−u^k|, max|v^{k+1}−v^k|.
    #[serde(default = "default_eps_v")]
    pub eps_v: f64,
    /// Pressure tolerance ε_p on max|p^{k+1}−p^k|.
    #[serde(default = "default_eps_pt")]
    pub eps_p: f64,
    /// Temperature tolerance ε_T on max|T^{k+1}−T^k|.
    #[serde(default = "default_eps_pt", rename = "eps_T")]
    pub eps_t: f64,
    /// Loop-3 Jacobi sweeps of the T/p equations per loop-2 iteration (C++ order).
    #[serde(default = "default_inner_sweeps")]
    pub inner_sweeps: u32,
    /// C++ or GPU evaluation order of the serial reference.
    #[serde(default)]
    pub order: SweepOrder,
    /// Stop with an error when a residual exceeds this value or is not finite.
    #[serde(default = "default_divergence_limit")]
    pub divergence_limit: f64,
}

fn one() -> f64 {
    1.0
}

fn default_gamma() -> f64 {
    5.0 / 3.0
}

fn default_pr() -> f64 {
    2.0 / 3.0
}

fn default_sigma_u() -> f64 {
    1.1466
}

fn default_sigma_t() -> f64 {
    2.1904
}

fn default_max_iters() -> u32 {
    50
}

fn default_eps_v() -> f64 {
    1e-8
}

fn default_eps_pt() -> f64 {
    1e-9
}

fn default_inner_sweeps() -> u32 {
    2
}

fn default_divergence_limit() -> f64 {
    1e6
}

impl Default for Initial {
    fn default() -> Self {
        Initial {
            u: 0.0,
            v: 0.0,
            p: 1.0,
            p_east: None,
            t: 1.0,
        }
    }
}

impl SolverSpec {
    /// Loop-3 T/p sweeps per loop-2 iteration that every backend runs: `inner_sweeps` (at
    /// least one) in the C++ order, one in the GPU order.
    pub fn sweeps(&self) -> u32 {
        match self.order {
            SweepOrder::Cpp => self.inner_sweeps.max(1),
            SweepOrder::Gpu => 1,
        }
    }
}

impl Default for SolverSpec {
    fn default() -> Self {
        SolverSpec {
            max_iters: default_max_iters(),
            eps_v: default_eps_v(),
            eps_p: default_eps_pt(),
            eps_t: default_eps_pt(),
            inner_sweeps: default_inner_sweeps(),
            order: SweepOrder::Cpp,
            divergence_limit: default_divergence_limit(),
        }
    }
}

impl std::fmt::Display for Scheme {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = match self.convection {
            Convection::Implicit => "implicit",
            Convection::Explicit => "explicit",
        };
        let i = match self.interpolation {
            Interpolation::Upwind => "upwind",
            Interpolation::Tvd => "tvd",
        };
        write!(f, "{c}-{i}")
    }
}

impl Side {
    /// A wall side's tangential velocity, temperature and resolved condition on `gas`.
    pub fn wall_condition(&self, gas: &Gas) -> Option<(f64, f64, WallCondition)> {
        match self {
            Side::Wall {
                velocity,
                t,
                wall,
                slip,
                thermal,
                sigma_u,
                sigma_t,
            } => Some((
                *velocity,
                *t,
                wall_condition(*wall, *slip, *thermal, *sigma_u, *sigma_t, gas),
            )),
            _ => None,
        }
    }

    /// The inflow normal velocity u of an `Inflow` side (from `u` or `mach`), `None` otherwise.
    pub fn inflow_u(&self, gamma: f64) -> Option<f64> {
        match self {
            Side::Inflow { u: Some(u), .. } => Some(*u),
            Side::Inflow { mach: Some(m), .. } => Some(m * (gamma / 2.0).sqrt()),
            _ => None,
        }
    }
}

impl Case {
    /// The compat switches that are on (none for a case without `compat`; a validated case
    /// names only known switches).
    pub fn compat(&self) -> Compat {
        self.compat
            .as_ref()
            .and_then(|c| c.switches().ok())
            .unwrap_or_default()
    }

    /// Parse a case from JSON text; `source` names the file in error messages.
    pub fn from_json(text: &str, source: &str) -> Result<Case, ConfigError> {
        let case: Case = crate::case::parse_json(text, source)?;
        case.validate()?;
        Ok(case)
    }

    /// Read and parse a case file (a regular file of at most
    /// [`crate::case::MAX_CASE_BYTES`]).
    pub fn from_file(path: &std::path::Path) -> Result<Case, ConfigError> {
        let text = crate::case::read_case_text(path)?;
        Case::from_json(&text, &path.display().to_string())
    }

    /// Check every value; the error names the JSON path, the value and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        rules::validate(self)
    }

    /// What the run driver and the output need of this case.
    pub fn common(&self) -> crate::case::Common {
        crate::case::Common {
            name: self.name.clone(),
            description: self.description.clone(),
            method: Method::SimpleTs,
            scheme: self.scheme.to_string(),
            grid: self.grid.clone(),
            time: self.time.clone(),
            output: self.output.clone(),
            divergence_limit: self.solver.divergence_limit,
            json: serde_json::to_value(self).expect("a case serialises"),
        }
    }
}
