//! simplets: the pressure-based SIMPLE-TS algorithm for unsteady, viscous, compressible,
//! heat-conductive 2D gas flow (Navier–Stokes–Fourier), with a serial reference solver and an
//! OpenCL backend.
//!
//! The numerical method is specified in `spec/simple-ts.md` (equation numbers in comments refer
//! to it); `docs/DESIGN.md` describes the modules and the data flow of one time step.
#![warn(missing_docs)]

pub mod bench;
pub mod check;
pub mod config;
pub mod config_check;
pub mod device;
pub mod error;
pub mod fields;
pub mod forces;
pub mod geometry;
pub mod gpu;
pub mod grid;
pub mod guard;
pub mod io;
pub mod physics;
pub mod plot;
pub mod probes;
pub mod prolong;
pub mod reference;
pub mod report;
pub mod run;
pub mod solver;
pub mod validate;
