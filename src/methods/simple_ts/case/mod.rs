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
//!
//! The code, each file importing only the ones before it: `gas.rs` (the gas and the initial
//! state), `boundary.rs` (walls, bodies and sides), `scheme.rs` (scheme and loop controls),
//! `cpp.rs` (what the authors' C++ cases need), this file ([`Case`], re-exporting the others)
//! and `rules.rs` (the value rules, [`Case::validate`]).

mod boundary;
mod cpp;
mod gas;
pub mod rules;
mod scheme;
#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

pub use crate::case::{GridSpec, Method, OutputSpec, Probe, TimeSpec};
use crate::error::ConfigError;
pub use boundary::{
    wall_condition, Body, Boundaries, BoundaryFace, EndValue, OuterFace, Side, Thermal, WallBc,
    WallCondition,
};
pub use cpp::{Compat, CompatSpec, Defect, ForcesReference, COMPAT_PRESET};
pub use gas::{Gas, Initial};
pub use scheme::{Convection, Interpolation, Scheme, SolverSpec, SweepOrder};

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

impl Case {
    /// The compat switches that are on (none for a case without `compat`; a validated case
    /// names only known switches).
    pub fn compat(&self) -> Compat {
        self.compat
            .as_ref()
            .and_then(|c| c.switches().ok())
            .unwrap_or_default()
    }

    /// What of this case only runs on one process (decomposed runs refuse it), in words;
    /// `None` if a decomposed run runs it too.
    pub fn single_process_only(&self) -> Option<String> {
        if let Some(name) = self.mass_balance_side() {
            return Some(format!("boundaries.{name}.outer_face = mass_balance"));
        }
        let compat = self.compat();
        Defect::ALL
            .into_iter()
            .find(|&d| compat.has(d) && !Defect::ON_RANKS.contains(&d))
            .map(|d| format!("compat {}", d.name()))
    }

    /// The first side (west, east) whose outer face comes from the ghost cell's mass balance.
    pub fn mass_balance_side(&self) -> Option<&'static str> {
        let b = &self.boundaries;
        [("west", &b.west), ("east", &b.east)]
            .into_iter()
            .find(|(_, side)| {
                matches!(side, Side::Pressure { outer_face, .. } | Side::Outflow { outer_face, .. }
                    if !outer_face.is_zero_gradient())
            })
            .map(|(name, _)| name)
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
