//! simplets: the pressure-based SIMPLE-TS algorithm for unsteady, viscous, compressible,
//! heat-conductive 2D gas flow (Navier–Stokes–Fourier), with a serial reference solver and an
//! OpenCL backend.
//!
//! The numerical method is described in `docs/method/` (section and equation numbers in
//! comments refer to it); `docs/ARCHITECTURE.md` gives the layers and what may import what.
#![warn(missing_docs)]

pub mod bench;
pub mod case;
pub mod decomp;
pub mod device;
pub mod error;
pub mod exact;
pub mod grid;
pub mod host;
pub mod methods;
pub mod output;
pub mod plot;
pub mod run;
pub mod solver;
pub mod text;
pub mod validate;
