//! Oblique-shock relations of a calorically perfect gas: the θ–β–M relation
//! tan θ = 2 cot β (M₁² sin²β − 1)/(M₁²(γ + cos 2β) + 2) for the shock angle β produced by a flow
//! deflection (wedge half-angle) θ, its weak and strong solutions, the maximum deflection, and the
//! normal-shock ratios across the shock for the normal Mach number M₁ sin β (NACA Report 1135,
//! Ames Research Staff 1953, the normal- and oblique-shock sections and Charts 1–2; Anderson,
//! *Modern Compressible Flow*, ch. 3–4).
//! Used by the Brandvik–Pullan supersonic wedge (seed 001 §6: M₁ = 1.6).
//!
//! Angles in radians (convert with `f64::to_radians`); all ratios are downstream/upstream and
//! dimensionless.

use super::error::{check_gamma, finite, positive, ExactError, Result};

/// Which of the two attached-shock solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    /// The weak shock (smaller β; the one seen on wedges).
    Weak,
    /// The strong shock (larger β; subsonic behind).
    Strong,
}

/// Oblique shock for given upstream Mach number, deflection and γ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ObliqueShock {
    /// Upstream Mach number M₁.
    pub mach1: f64,
    /// Deflection θ, radians.
    pub theta: f64,
    /// Shock angle β to the upstream flow, radians.
    pub beta: f64,
    /// Upstream normal Mach number M₁ sin β.
    pub mach_n1: f64,
    /// p₂/p₁ = 1 + 2γ/(γ+1)(M_n1² − 1).
    pub pressure_ratio: f64,
    /// ρ₂/ρ₁ = (γ+1)M_n1²/((γ−1)M_n1² + 2).
    pub density_ratio: f64,
    /// T₂/T₁ = (p₂/p₁)/(ρ₂/ρ₁).
    pub temperature_ratio: f64,
    /// Total-pressure ratio p₀₂/p₀₁.
    pub total_pressure_ratio: f64,
    /// Downstream Mach number M₂ = M_n2 / sin(β − θ).
    pub mach2: f64,
}

fn check_mach_gamma(mach: f64, gamma: f64) -> Result<()> {
    check_gamma(gamma)?;
    positive("upstream Mach number M1 - 1", mach - 1.0)?;
    Ok(())
}

/// Deflection θ(β) of the θ–β–M relation for M₁ > 1 and μ ≤ β ≤ π/2 (0 at both ends).
pub fn deflection(mach: f64, beta: f64, gamma: f64) -> f64 {
    let m2 = mach * mach;
    let s = beta.sin();
    let num = 2.0 * (m2 * s * s - 1.0) * beta.cos() / s;
    let den = m2 * (gamma + (2.0 * beta).cos()) + 2.0;
    (num / den).atan().max(0.0)
}

/// Maximum deflection θ_max and the shock angle β at it, for M₁ > 1 (NACA 1135, where dθ/dβ = 0):
/// sin²β = [(γ+1)M²/4 − 1 + √((γ+1)(1 + (γ−1)M²/2 + (γ+1)M⁴/16))]/(γM²).
pub fn max_deflection(mach: f64, gamma: f64) -> Result<(f64, f64)> {
    check_mach_gamma(mach, gamma)?;
    let (m2, g) = (mach * mach, gamma);
    let root = ((g + 1.0) * (1.0 + 0.5 * (g - 1.0) * m2 + (g + 1.0) * m2 * m2 / 16.0)).sqrt();
    let s2 = ((g + 1.0) * m2 / 4.0 - 1.0 + root) / (g * m2);
    let beta = s2.sqrt().asin();
    Ok((deflection(mach, beta, gamma), beta))
}

/// Shock angle β for deflection `theta` (0 ≤ θ ≤ θ_max) on the given branch: bisection of the
/// monotone θ(β) on [μ, β_max] (weak) or [β_max, π/2] (strong) until the bracket no longer
/// shrinks (round-off in β). θ = 0 gives the Mach wave μ = asin(1/M₁) (weak) or the normal shock
/// β = π/2 (strong); θ > θ_max is [`ExactError::Detached`].
pub fn shock_angle(mach: f64, theta: f64, gamma: f64, branch: Branch) -> Result<f64> {
    let (theta_max, beta_max) = max_deflection(mach, gamma)?;
    finite("deflection theta", theta)?;
    if theta < 0.0 {
        return Err(ExactError::Invalid {
            what: "deflection theta",
            reason: "it must be >= 0 (mirror the geometry for negative deflections)",
        });
    }
    if theta > theta_max {
        return Err(ExactError::Detached {
            mach,
            theta_deg: theta.to_degrees(),
            theta_max_deg: theta_max.to_degrees(),
        });
    }
    let mu = (1.0 / mach).asin();
    // f(β) = θ(β) − θ, increasing on the weak bracket and decreasing on the strong one.
    let (mut lo, mut hi, rising) = match branch {
        Branch::Weak => (mu, beta_max, true),
        Branch::Strong => (beta_max, std::f64::consts::FRAC_PI_2, false),
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if (deflection(mach, mid, gamma) < theta) == rising {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Ok(0.5 * (lo + hi))
}

/// Normal-shock ratios for an upstream normal Mach number `mn1` ≥ 1:
/// (p₂/p₁, ρ₂/ρ₁, T₂/T₁, p₀₂/p₀₁, M_n2) (NACA 1135, normal shock waves).
pub fn normal_shock(mn1: f64, gamma: f64) -> Result<[f64; 5]> {
    check_gamma(gamma)?;
    if !(mn1.is_finite() && mn1 >= 1.0) {
        return Err(ExactError::Invalid {
            what: "normal Mach number",
            reason: "it must be finite and >= 1",
        });
    }
    let (g, m2) = (gamma, mn1 * mn1);
    let p = 1.0 + 2.0 * g / (g + 1.0) * (m2 - 1.0);
    let rho = (g + 1.0) * m2 / ((g - 1.0) * m2 + 2.0);
    let mn2 = ((1.0 + 0.5 * (g - 1.0) * m2) / (g * m2 - 0.5 * (g - 1.0))).sqrt();
    let p0 = rho.powf(g / (g - 1.0)) * p.powf(-1.0 / (g - 1.0));
    Ok([p, rho, p / rho, p0, mn2])
}

impl ObliqueShock {
    /// The oblique shock turning a flow of Mach `mach` > 1 by `theta` (radians, 0 ≤ θ ≤ θ_max),
    /// on the given branch, for γ > 1.
    pub fn new(mach: f64, theta: f64, gamma: f64, branch: Branch) -> Result<Self> {
        let beta = shock_angle(mach, theta, gamma, branch)?;
        let mn1 = (mach * beta.sin()).max(1.0);
        let [p, rho, t, p0, mn2] = normal_shock(mn1, gamma)?;
        Ok(ObliqueShock {
            mach1: mach,
            theta,
            beta,
            mach_n1: mn1,
            pressure_ratio: p,
            density_ratio: rho,
            temperature_ratio: t,
            total_pressure_ratio: p0,
            mach2: mn2 / (beta - theta).sin(),
        })
    }
}

#[cfg(test)]
#[path = "oblique_shock_tests.rs"]
mod tests;
