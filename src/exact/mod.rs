//! Exact and analytic solutions used as validation oracles.
pub mod convection;
pub mod density_wave;
pub mod error;
pub mod euler2d;
pub mod norms;
pub mod oblique_shock;
pub mod periodic;
pub mod quadrature;
pub mod riemann;
pub mod shallow_water;
pub mod shock_tube;
pub mod vortex;
