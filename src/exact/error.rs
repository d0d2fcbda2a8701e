//! The one error type of the exact-solution library, and the input checks shared by its modules.

use thiserror::Error;

/// Why an exact solution could not be evaluated. Every variant names the offending input.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ExactError {
    /// A quantity that must be finite and strictly positive (a sound speed, a cell width, γ − 1,
    /// a Mach number above 1 …) is not.
    #[error("{what} = {value} is invalid: it must be finite and > 0")]
    NotPositive {
        /// The quantity, e.g. `"left density"`.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A quantity that must be finite and non-negative (a density, pressure or depth) is not.
    #[error("{what} = {value} is invalid: it must be finite and >= 0")]
    Negative {
        /// The quantity, e.g. `"right pressure"`.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// A quantity that must be finite is NaN or infinite.
    #[error("{what} = {value} is not finite")]
    NotFinite {
        /// The quantity, e.g. `"time"`.
        what: &'static str,
        /// The value given.
        value: f64,
    },
    /// The ratio of specific heats is not a finite number above 1.
    #[error("ratio of specific heats gamma = {gamma} is invalid: it must be finite and > 1")]
    Gamma {
        /// The value given.
        gamma: f64,
    },
    /// A state is inconsistent: zero density with non-zero pressure, or positive density with
    /// zero pressure (vacuum has ρ = p = 0; a gas has ρ > 0 and p > 0).
    #[error("{side} state (rho = {rho}, p = {p}) is neither a gas (rho > 0, p > 0) nor vacuum (rho = p = 0)")]
    InconsistentState {
        /// `"left"` or `"right"`.
        side: &'static str,
        /// Density given.
        rho: f64,
        /// Pressure given.
        p: f64,
    },
    /// An iteration did not reach its stated tolerance within its iteration bound.
    #[error(
        "{what} did not converge in {iterations} iterations (last relative change {change:e})"
    )]
    NoConvergence {
        /// The iteration, e.g. `"Newton iteration for p*"`.
        what: &'static str,
        /// Iterations done.
        iterations: usize,
        /// The last relative change of the iterate.
        change: f64,
    },
    /// The wedge deflection exceeds the maximum for an attached oblique shock.
    #[error(
        "deflection {theta_deg} deg exceeds the maximum {theta_max_deg} deg for M1 = {mach}: \
         the shock detaches"
    )]
    Detached {
        /// Upstream Mach number.
        mach: f64,
        /// Deflection asked for, degrees.
        theta_deg: f64,
        /// Maximum deflection at this Mach number, degrees.
        theta_max_deg: f64,
    },
    /// Two arrays that must have the same length do not.
    #[error("{what}: expected {expected} values, found {found}")]
    LengthMismatch {
        /// The arrays, e.g. `"exact values vs numerical values"`.
        what: &'static str,
        /// Required length.
        expected: usize,
        /// Length given.
        found: usize,
    },
    /// An input outside its documented range (an empty array, an interval with b < a …).
    #[error("{what}: {reason}")]
    Invalid {
        /// The input.
        what: &'static str,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// Result alias of this library.
pub type Result<T> = std::result::Result<T, ExactError>;

/// `value` if it is finite, else [`ExactError::NotFinite`].
pub(crate) fn finite(what: &'static str, value: f64) -> Result<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ExactError::NotFinite { what, value })
    }
}

/// `value` if it is finite and > 0, else [`ExactError::NotPositive`].
pub(crate) fn positive(what: &'static str, value: f64) -> Result<f64> {
    if value.is_finite() && value > 0.0 {
        Ok(value)
    } else {
        Err(ExactError::NotPositive { what, value })
    }
}

/// `value` if it is finite and >= 0, else [`ExactError::Negative`].
pub(crate) fn non_negative(what: &'static str, value: f64) -> Result<f64> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(ExactError::Negative { what, value })
    }
}

/// `gamma` if it is finite and > 1, else [`ExactError::Gamma`].
pub(crate) fn check_gamma(gamma: f64) -> Result<f64> {
    if gamma.is_finite() && gamma > 1.0 {
        Ok(gamma)
    } else {
        Err(ExactError::Gamma { gamma })
    }
}

/// `Ok` if `a < b`, both finite.
pub(crate) fn interval(what: &'static str, a: f64, b: f64) -> Result<()> {
    finite(what, a)?;
    finite(what, b)?;
    if b > a {
        Ok(())
    } else {
        Err(ExactError::Invalid {
            what,
            reason: "the interval must have b > a",
        })
    }
}
