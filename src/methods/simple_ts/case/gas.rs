//! The gas of a SIMPLE-TS case ([`Gas`]: Kn, γ, Pr, the slip and jump coefficients) and
//! the initial state of the gas in every fluid cell ([`Initial`]), with their defaults.
//! The other sections build on it (a wall's σ falls back to the gas's).

use serde::{Deserialize, Serialize};

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

/// 1, the default of every temperature and pressure field.
pub(super) fn one() -> f64 {
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
