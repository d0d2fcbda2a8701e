//! Exact and analytic solutions used as **validation oracles** for the explicit schemes (linear
//! convection, SHLL/HLL/Rusanov, CE/SE, Brandvik–Pullan): the `simplets validate` cases compare
//! their fields against these point values and cell averages with the norms of [`norms`].
//!
//! Pure Rust (std and `thiserror`), independent of the rest of the crate. Closed-form solutions
//! are exact to round-off; iterative ones state their tolerance (Newton for p* and h* to 1e-14
//! relative, bisection to round-off for the shock angle); cell averages use Gauss–Legendre
//! quadrature split at every discontinuity ([`quadrature`]). Invalid input (negative density,
//! pressure or depth, γ ≤ 1, non-finite values, detached shocks) is an [`error::ExactError`],
//! never a panic.
//!
//! - [`riemann`]: exact Riemann solver of the 1D Euler equations, with vacuum (Toro ch. 4).
//! - [`shock_tube`]: Sod, Lax, Toro's tests 1–5, and moving-shock (Rankine–Hugoniot) states.
//! - [`shallow_water`]: exact shallow-water Riemann solver with dry beds; Ritter and Stoker dam
//!   breaks.
//! - [`vortex`]: Shu's isentropic vortex on a periodic box, with the box-size rule.
//! - [`density_wave`]: the advected sinusoidal density wave of the CE/SE convergence test.
//! - [`convection`]: shifted profiles of 1D/2D linear advection and the seed 003 cases.
//! - [`oblique_shock`]: θ–β–M relation, weak/strong shocks, maximum deflection, normal shocks.
//! - [`norms`]: L1/L2/L∞ error norms, observed orders, Richardson extrapolation.
//! - [`euler1d`], [`euler2d`]: Euler state types and fluxes (1D ones re-exported by [`riemann`]).
//! - [`periodic`]: periodic wrapping and minimum-image displacements.
//! - [`quadrature`]: 1D/2D Gauss–Legendre quadrature, adaptive and piecewise.
//! - [`error`]: the error type and input checks.
pub mod convection;
pub mod density_wave;
pub mod error;
pub mod euler1d;
pub mod euler2d;
pub mod norms;
pub mod oblique_shock;
pub mod periodic;
pub mod quadrature;
pub mod riemann;
pub mod shallow_water;
pub mod shock_tube;
pub mod vortex;
