//! SHLL (Kuo et al. 2010, seed 002): the HLL flux rewritten as a flux-vector splitting whose
//! two halves each depend on one cell only, for the 2D Euler equations (`shll_euler`), the
//! shallow-water equations (`shll_shallow_water`) and a convection–diffusion equation
//! (`shll_convection_diffusion`). HLL and Rusanov are in the same kernels (`scheme.flux`), so
//! the paper's SHLL-vs-HLL comparison is one field; MUSCL with SSP-RK2 is an option
//! (`scheme.reconstruction`). docs/method/shll.md has the equations the code cites.
//!
//! The fragments (`euler`, `shallow_water`, `split`, `muscl`, `transport`) are the Rust twins
//! of `cl/shll/*.cl`; the solver is the shared explicit one (`methods::explicit`).

pub mod case;
pub mod euler;
pub mod muscl;
pub mod shallow_water;
pub mod split;
pub mod transport;
