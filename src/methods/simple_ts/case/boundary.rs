//! The boundaries of a SIMPLE-TS case: the wall condition words and their resolution
//! ([`WallBc`], [`Thermal`], [`WallCondition`]), the solid bodies ([`Body`]), and the four
//! sides of the domain ([`Side`], [`Boundaries`]) with the ghost-value choices of the open
//! sides ([`EndValue`], [`BoundaryFace`], [`OuterFace`]).

use serde::{Deserialize, Serialize};

use super::gas::{one, Gas};

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
