//! What the authors' C++ cases need beyond the method itself (issue 16): the state that
//! normalises the force coefficients, and the `compat` switches that reproduce the C++ code's
//! departures from the corrected method (docs/authors-cpp-defects.md).

use serde::{Deserialize, Serialize};

/// The state that normalises the force coefficients C = F / (½ ρ_ref u_ref² L).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum ForcesReference {
    /// The first inflow side's density and speed (the default).
    Inflow {
        /// Reference length L (default: each body's height).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        length: Option<f64>,
    },
    /// Fixed numbers.
    State {
        /// Density.
        rho: f64,
        /// Speed.
        u: f64,
        /// Reference length L (default: each body's height).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        length: Option<f64>,
    },
    /// ρ = p/T of the fluid cell containing (x, y) at each sample, with the given T and speed
    /// (the C++ code's drag normalisation).
    Cell {
        /// x of the point.
        x: f64,
        /// y of the point.
        y: f64,
        /// Temperature that turns the cell's pressure into the reference density.
        #[serde(rename = "T")]
        t: f64,
        /// Speed.
        u: f64,
        /// Reference length L (default: each body's height).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        length: Option<f64>,
    },
}

impl ForcesReference {
    /// The reference length, if one is given.
    pub fn length(&self) -> Option<f64> {
        match self {
            ForcesReference::Inflow { length }
            | ForcesReference::State { length, .. }
            | ForcesReference::Cell { length, .. } => *length,
        }
    }
}

/// The `compat` field as written: a preset name or a list of switch names (checked by
/// [`Case::validate`], resolved by [`CompatSpec::switches`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum CompatSpec {
    /// `"simple_ts_cpp"`: every switch.
    Preset(String),
    /// Named switches.
    List(Vec<String>),
}

/// One departure of the authors' C++ code that `compat` can reproduce (docs/decisions.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Defect {
    /// The u-momentum wall branch multiplies u(i−1,j) and u(i+1,j) by each other's fluid flag.
    SwappedUWallFlags,
    /// Slip ghost values are written into the wall faces at convex body corners and read there.
    CornerSlipGhosts,
    /// Γ at a convex body corner sums three halved terms.
    CornerGammaThreeTerms,
    /// ρ and √T of a copied ghost cell lag its p and T by one loop-2 iteration.
    LaggedGhostState,
    /// Ghost p and T are not refreshed between loop-3 sweeps.
    StaleGhostsInLoop3,
    /// Face densities are computed before the end rules change the ghost velocities.
    FaceDensityBeforeEndRules,
    /// The steady-state test reads the first loop-3 sweep's p and T changes.
    SteadyTestFirstSweep,
    /// An adiabatic wall is a fixed-temperature wall at the gas cell's previous temperature.
    AdiabaticWallAsLaggedValue,
    /// The east outer face is stored: a copy of the boundary face with the ghost's density.
    EastOuterFaceCopy,
}

impl Defect {
    /// The switches the solvers reproduce today; `compat` refuses the others.
    pub const IMPLEMENTED: [Defect; 9] = [
        Defect::SwappedUWallFlags,
        Defect::CornerSlipGhosts,
        Defect::CornerGammaThreeTerms,
        Defect::LaggedGhostState,
        Defect::StaleGhostsInLoop3,
        Defect::FaceDensityBeforeEndRules,
        Defect::SteadyTestFirstSweep,
        Defect::AdiabaticWallAsLaggedValue,
        Defect::EastOuterFaceCopy,
    ];

    /// The switches decomposed runs reproduce too (the others run on one process only,
    /// [`super::Case::single_process_only`]; every single-process backend runs all of them).
    pub const ON_RANKS: [Defect; 2] = [Defect::SwappedUWallFlags, Defect::StaleGhostsInLoop3];

    /// Every switch, in documentation order.
    pub const ALL: [Defect; 9] = [
        Defect::SwappedUWallFlags,
        Defect::CornerSlipGhosts,
        Defect::CornerGammaThreeTerms,
        Defect::LaggedGhostState,
        Defect::StaleGhostsInLoop3,
        Defect::FaceDensityBeforeEndRules,
        Defect::SteadyTestFirstSweep,
        Defect::AdiabaticWallAsLaggedValue,
        Defect::EastOuterFaceCopy,
    ];

    /// The name in case files.
    pub fn name(self) -> &'static str {
        match self {
            Defect::SwappedUWallFlags => "swapped_u_wall_flags",
            Defect::CornerSlipGhosts => "corner_slip_ghosts",
            Defect::CornerGammaThreeTerms => "corner_gamma_three_terms",
            Defect::LaggedGhostState => "lagged_ghost_state",
            Defect::StaleGhostsInLoop3 => "stale_ghosts_in_loop3",
            Defect::FaceDensityBeforeEndRules => "face_density_before_end_rules",
            Defect::SteadyTestFirstSweep => "steady_test_first_sweep",
            Defect::AdiabaticWallAsLaggedValue => "adiabatic_wall_as_lagged_value",
            Defect::EastOuterFaceCopy => "east_outer_face_copy",
        }
    }

    /// The switch of a name.
    pub fn of(name: &str) -> Option<Defect> {
        Defect::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// The preset that turns on every compat switch.
pub const COMPAT_PRESET: &str = "simple_ts_cpp";

/// A set of compat switches (empty: the corrected method).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Compat(u32);

impl Compat {
    /// True if switch `d` is on.
    pub fn has(self, d: Defect) -> bool {
        self.0 & (1 << d as u32) != 0
    }

    /// True if no switch is on.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `d` added.
    pub fn with(self, d: Defect) -> Compat {
        Compat(self.0 | (1 << d as u32))
    }

    /// The names of the switches that are on, in documentation order.
    pub fn names(self) -> Vec<&'static str> {
        Defect::ALL
            .into_iter()
            .filter(|&d| self.has(d))
            .map(Defect::name)
            .collect()
    }
}

impl CompatSpec {
    /// The switches, or the first name that is not one.
    pub fn switches(&self) -> Result<Compat, String> {
        match self {
            CompatSpec::Preset(p) if p == COMPAT_PRESET => Ok(Defect::ALL
                .into_iter()
                .fold(Compat::default(), Compat::with)),
            CompatSpec::Preset(p) => Err(p.clone()),
            CompatSpec::List(l) => l.iter().try_fold(Compat::default(), |c, n| {
                Defect::of(n).map(|d| c.with(d)).ok_or_else(|| n.clone())
            }),
        }
    }
}
