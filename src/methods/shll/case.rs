//! The case files of the three SHLL methods (`shll_euler`, `shll_shallow_water`,
//! `shll_convection_diffusion`): each its own schema with `deny_unknown_fields`, built from the
//! shared grid and output sections and the explicit sections of
//! [`crate::methods::explicit::case`]; and the
//! [`Problem`](crate::methods::explicit::Problem) each one discretises to.
//!
//! Units are those of the case: SHLL is written for any consistent non-dimensional (or SI)
//! set; the configs use ρ, p of order 1 (Euler), metres and seconds (shallow water).
//!
//! The code, each file importing only the ones before it: `scheme.rs` (the shared `scheme`
//! section and CFL limit), `rules.rs` (the shared helpers and value rules), then one file per
//! method: `euler.rs`, `shallow_water.rs`, `transport.rs`. Everything is re-exported here,
//! so callers name `shll::case::EulerCase` and so on.

mod euler;
mod rules;
mod scheme;
mod shallow_water;
mod transport;

pub use euler::{EulerCase, EulerInitial, EulerState, Gas, Vortex};
pub use scheme::{Reconstruction, Scheme, MAX_CFL};
pub use shallow_water::{ShallowWaterCase, SwInitial, SwState, Water};
pub use transport::{Transport, TransportCase};
