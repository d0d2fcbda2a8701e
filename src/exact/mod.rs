//! Exact and analytic solutions used as validation oracles.
pub mod error;
pub mod quadrature;
pub mod riemann;
pub mod shallow_water;
pub mod shock_tube;
