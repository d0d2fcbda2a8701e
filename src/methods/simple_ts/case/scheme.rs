//! The numerics of a SIMPLE-TS case: the convection scheme ([`Scheme`]: implicit or
//! explicit convection, upwind or TVD face values) and the loop-2 and loop-3 controls
//! ([`SolverSpec`], with the sweep order of the serial reference, [`SweepOrder`]).

use serde::{Deserialize, Serialize};

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
