//! The Brandvik–Pullan structured-grid Euler solver (seed 001; spec
//! `/work/shared/spec/seed-001-brandvik-euler.md`): cell-vertex finite areas on a curvilinear
//! H-grid, Denton's SCREE time stepping (two steps forward, one back) with local time steps,
//! constant-coefficient smoothing, and the report's **branch-free** boundary handling: every
//! node's sum and smoothing stencils and every face's mass-flux multiplier are precomputed on
//! the host ([`tables`]), so the per-node update is one formula everywhere (§5).
//!
//! Status: `"method": "bp_euler"` on the bump channel and the supersonic wedge (a supersonic
//! inlet and exit; against the oblique-shock relation in `tests.rs`) (`run` writes the node positions as CF
//! 2D auxiliary coordinates): the serial reference ([`step`]) and the OpenCL backend
//! ([`opencl`], kernels in `cl/bp/`, bit-identical to the reference on PoCL: `tests/bp.rs`);
//! the per-node formulas are [`formulas`], twins of `cl/bp/formulas.cl`; `parallel` runs the
//! reference's loops on rayon's threads (bit-identical too). Grids: the analytic generators
//! ([`grid`]) or a grid file ([`gridfile`]) whose periodic node pairs become seams through
//! the tables ([`tables`], spec §4.7), among them the turbine cascade's H-grid with periodic
//! sides ([`cascade`]). Three boundary forms ([`tables::BoundaryForm`]): the report's tables,
//! or interior nodes by index arithmetic with the boundary rows in their own loops and
//! launches (`cl/bp/ranges.cl`, spec §10 items 2–3), the same bits; or a padded ghost layer
//! and the interior stencils everywhere ([`ghost`], `cl/bp/ghost.cl`), another discretisation
//! of the boundaries for comparison.

pub mod cascade;
pub mod case;
pub mod formulas;
pub mod ghost;
pub mod grid;
pub mod gridfile;
pub mod gridspec;
mod loops;
pub mod metrics;
pub mod numbers;
pub mod opencl;
pub mod shock;
pub mod solver;
pub mod source;
pub mod start;
pub mod step;
pub mod tables;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_ghost;
#[cfg(test)]
mod tests_grids;

/// The gas and the boundary data of a duct run (dimensional SI, as the report's code).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flow {
    /// γ.
    pub gamma: f64,
    /// Gas constant R, J/(kg K).
    pub r: f64,
    /// Inlet stagnation pressure, Pa.
    pub p0: f64,
    /// Inlet stagnation temperature, K.
    pub t0: f64,
    /// Inlet flow angle, radians.
    pub angle: f64,
    /// Exit static pressure, Pa (with `free_exit` only the initial state's pressure).
    pub p_exit: f64,
    /// Supersonic inlet: every inflow variable fixed to the isentropic state at this static
    /// pressure (p0, T0 and the angle are then the free stream's); `None`: the subsonic
    /// inlet of §4.7 (p0, T0 and the angle imposed, the density relaxed).
    pub p_inlet: Option<f64>,
    /// Supersonic exit: no pressure imposed, the exit nodes take the scheme's own one-sided
    /// update (extrapolation); `false`: the exit static pressure `p_exit`.
    pub free_exit: bool,
}

impl Flow {
    /// The stagnation (p0, T0) of a free stream of Mach `mach` at static `p`, `t` (γ from
    /// `gamma`): T0 = T(1 + (γ−1)/2 M²), p0 = p (T0/T)^(γ/(γ−1)).
    pub fn stagnation(gamma: f64, mach: f64, p: f64, t: f64) -> (f64, f64) {
        let t0 = t * (1.0 + 0.5 * (gamma - 1.0) * mach * mach);
        (p * (t0 / t).powf(gamma / (gamma - 1.0)), t0)
    }

    /// c_p.
    pub fn cp(&self) -> f64 {
        self.gamma * self.r / (self.gamma - 1.0)
    }

    /// c_v.
    pub fn cv(&self) -> f64 {
        self.r / (self.gamma - 1.0)
    }

    /// Stagnation density p0/(R T0).
    pub fn rho0(&self) -> f64 {
        self.p0 / (self.r * self.t0)
    }

    /// (u, v, p, H) of a node state (ρ, ρu, ρv, ρE).
    pub fn secondary(&self, w: &[f64; 4]) -> [f64; 4] {
        use formulas::{bp_h, bp_p, bp_vel};
        let u = bp_vel(w[0], w[1]);
        let v = bp_vel(w[0], w[2]);
        let p = bp_p(self.gamma, w[0], w[3], u, v);
        [u, v, p, bp_h(w[0], w[3], p)]
    }

    /// The isentropic state (ρ, ρu, ρv, ρE) at static pressure `p` and the inlet angle.
    pub fn isentropic(&self, p: f64) -> [f64; 4] {
        let rho = self.rho0() * (p / self.p0).powf(1.0 / self.gamma);
        let t = p / (self.r * rho);
        let v = (2.0 * self.cp() * (self.t0 - t)).max(0.0).sqrt();
        let (s, c) = self.angle.sin_cos();
        [
            rho,
            rho * v * c,
            rho * v * s,
            rho * (self.cv() * t + 0.5 * v * v),
        ]
    }
}

/// The numerics of a run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Numerics {
    /// CFL number of the local time steps (SCREE is stable to about 0.6 on a uniform mesh).
    pub cfl: f64,
    /// Smoothing factor input; the smoothing per step is SF = `smooth` · CFL.
    pub smooth: f64,
    /// Relaxation of the inlet density towards the interior update (0.25 in the teaching
    /// code).
    pub rfin: f64,
}

impl Default for Numerics {
    fn default() -> Self {
        Numerics {
            cfl: 0.4,
            smooth: 0.5,
            rfin: 0.25,
        }
    }
}
