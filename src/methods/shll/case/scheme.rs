//! The `scheme` section the three SHLL case files share ([`Scheme`]: flux, reconstruction,
//! limiter, χ clamp, dissipation) and the CFL limit they accept ([`MAX_CFL`]). Apart from
//! the case types so that each of them builds on it without naming the others.

use serde::{Deserialize, Serialize};

use crate::case::rules::{invalid, num};
use crate::error::ConfigError;
use crate::methods::explicit::{Flux, Limiter, Numerics};

/// Face reconstruction (and with it the time integration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Reconstruction {
    /// Cell values, forward Euler: the paper's first order in space and time.
    #[default]
    FirstOrder,
    /// MUSCL with a limiter, SSP-RK2 (second order).
    Muscl,
}

/// The numerics of an SHLL case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scheme {
    /// `shll` (default), `hll` or `rusanov`.
    #[serde(default)]
    pub flux: Flux,
    /// `first_order` (default) or `muscl`.
    #[serde(default)]
    pub reconstruction: Reconstruction,
    /// `minmod` (default) or `van_leer` (MUSCL only).
    #[serde(default)]
    pub limiter: Limiter,
    /// Clamp χ to [−1, 1] (default true, spec §3.3; false reproduces the paper's formula).
    #[serde(default = "yes")]
    pub clamp_chi: bool,
    /// SHLL dissipation coefficient D (default 1; D < 1 is not monotone, spec §3.3).
    #[serde(default = "one")]
    pub dissipation: f64,
}

fn yes() -> bool {
    true
}

fn one() -> f64 {
    1.0
}

impl Default for Scheme {
    fn default() -> Self {
        Scheme {
            flux: Flux::Shll,
            reconstruction: Reconstruction::FirstOrder,
            limiter: Limiter::Minmod,
            clamp_chi: true,
            dissipation: 1.0,
        }
    }
}

impl Scheme {
    /// The numerics it selects.
    pub fn numerics(&self) -> Numerics {
        Numerics {
            flux: self.flux,
            muscl: self.reconstruction == Reconstruction::Muscl,
            limiter: self.limiter,
            clamp_chi: self.clamp_chi,
            d: self.dissipation,
        }
    }

    /// Value rules of the `scheme` section.
    pub(super) fn check(&self) -> Result<(), ConfigError> {
        let d = self.dissipation;
        if !(d > 0.0 && d <= 1.0) {
            return Err(invalid("scheme.dissipation", num(d), "must be in (0, 1]"));
        }
        if d < 1.0 {
            log::warn!(
                "scheme.dissipation = {d} < 1: the scheme is not monotone (seed 002 spec §3.3)"
            );
        }
        Ok(())
    }

    /// Ghost layers: 2 for MUSCL.
    pub fn ghosts(&self) -> usize {
        if self.reconstruction == Reconstruction::Muscl {
            2
        } else {
            1
        }
    }
}

/// Largest CFL number accepted by the SHLL methods.
pub const MAX_CFL: f64 = 1.0;
