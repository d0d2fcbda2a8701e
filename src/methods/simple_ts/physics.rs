//! Non-dimensional constants of the hard-sphere Navier–Stokes–Fourier system, eq. (41), spec §1.4.
//!
//! Reference scales (spec §1.2): velocity V_th = √(2RT0), length L, time L/V_th, pressure p0,
//! temperature T0, density ρ0 = p0/(RT0). μ and κ follow the hard-sphere law ∝ √T, so the
//! diffusion coefficients Γ = Γ_λ = √T and only the constants below carry Kn, γ and Pr.

use crate::methods::simple_ts::case::Gas;

/// Constants of the discrete equations (code names of [CPP] in brackets).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Constants {
    /// A = 1/(γ Ma²), pressure-gradient coefficient [`cPch`].
    pub a: f64,
    /// B = C_μ Kn / Ma, viscous coefficient [`cT`].
    pub b: f64,
    /// C_T1 = γ C_μ Kn /(Ma Pr), heat-conduction coefficient [`cT1`].
    pub ct1: f64,
    /// C_T2 = γ(γ−1) C_μ Kn Ma, dissipation coefficient [`cT2`].
    pub ct2: f64,
    /// C_T3 = 1 − γ, compression-work coefficient.
    pub ct3: f64,
    /// Knudsen number at the reference state.
    pub kn: f64,
    /// Velocity-slip coefficient σ_u of (42).
    pub sigma_u: f64,
    /// Temperature-jump coefficient σ_T of (43).
    pub sigma_t: f64,
    /// Ratio of specific heats.
    pub gamma: f64,
}

/// Ma = V_th/√(γRT0) = √(2/γ): the reference Mach number of the thermal speed (not the flow Mach).
pub fn ma_ref(gamma: f64) -> f64 {
    (2.0 / gamma).sqrt()
}

/// C_μ = (5/16)√(2π/γ): the hard-sphere viscosity constant in these units.
pub fn c_mu(gamma: f64) -> f64 {
    5.0 / 16.0 * (2.0 * std::f64::consts::PI / gamma).sqrt()
}

impl Constants {
    /// Constants for a gas record.
    pub fn new(gas: &Gas) -> Constants {
        let g = gas.gamma;
        let ma = ma_ref(g);
        let cmu = c_mu(g);
        Constants {
            a: 1.0 / (g * ma * ma),
            b: cmu * gas.kn / ma,
            ct1: g * cmu * gas.kn / (ma * gas.pr),
            ct2: g * (g - 1.0) * cmu * gas.kn * ma,
            ct3: 1.0 - g,
            kn: gas.kn,
            sigma_u: gas.sigma_u,
            sigma_t: gas.sigma_t,
            gamma: g,
        }
    }
}

/// Non-dimensional speed of a flow Mach number M: u = M √(γ/2) (spec §1.4).
pub fn speed_of_mach(mach: f64, gamma: f64) -> f64 {
    mach * (gamma / 2.0).sqrt()
}

/// Flow Mach number of a non-dimensional speed at temperature T: M = u /√(γT/2).
pub fn mach_of_speed(u: f64, t: f64, gamma: f64) -> f64 {
    u / (gamma * t / 2.0).sqrt()
}

/// Reynolds number ρ u L / μ at density ρ, speed u and temperature T: Re = ρ u /(B √T).
pub fn reynolds(rho: f64, u: f64, t: f64, c: &Constants) -> f64 {
    rho * u / (c.b * t.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hard_sphere(kn: f64) -> Gas {
        Gas {
            kn,
            gamma: 5.0 / 3.0,
            pr: 2.0 / 3.0,
            sigma_u: 1.1466,
            sigma_t: 2.1904,
        }
    }

    /// Spec §1.4 table, to 1e-15 relative (the values were computed in exact arithmetic there).
    #[test]
    fn constants_match_spec_table() {
        let c = Constants::new(&hard_sphere(1.0));
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-15 * b.abs().max(1.0);
        assert!(close(ma_ref(5.0 / 3.0), 1.0954451150103321));
        assert!(close(c_mu(5.0 / 3.0), 0.606758097673656));
        assert!(close(c.a, 0.5));
        assert!(close(c.b, 0.5538918284079737));
        assert!(close(c.ct1, 1.3847295710199343));
        assert!(close(c.ct2, 0.7385224378772982));
        assert!(close(c.ct3, -2.0 / 3.0));
        let pi = std::f64::consts::PI;
        assert!(close(c.b, 5.0 * pi.sqrt() / 16.0));
        assert!(close(c.ct1, 25.0 * pi.sqrt() / 32.0));
        assert!(close(c.ct2, 5.0 * pi.sqrt() / 12.0));
    }

    /// Spec §1.4: Kn = 0.05 gives Re ≈ 80 and Kn = 0.00283 gives Re ≈ 1415 at M = 2.43.
    #[test]
    fn reynolds_of_author_cases() {
        let u = speed_of_mach(2.43, 5.0 / 3.0);
        assert!((u - 2.2183).abs() < 1e-4);
        let re1 = reynolds(1.0, u, 1.0, &Constants::new(&hard_sphere(0.05)));
        let re2 = reynolds(1.0, u, 1.0, &Constants::new(&hard_sphere(0.00283)));
        assert!((re1 - 80.1).abs() < 0.1, "{re1}");
        assert!((re2 - 1415.0).abs() < 1.0, "{re2}");
        assert!((mach_of_speed(u, 1.0, 5.0 / 3.0) - 2.43).abs() < 1e-12);
    }
}
