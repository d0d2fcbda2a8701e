//! SIMPLE-TS (Shterev, arXiv 1802.04243): the pressure-based method for unsteady, viscous,
//! compressible, heat-conductive 2D gas flow with velocity slip and temperature jump.
//!
//! - [`physics`], [`geometry`], [`fields`]: the constants of eq. (41), the cell and face
//!   classes of a case, the flow fields on the padded staggered grid.
//! - [`reference`]: the serial solver, the oracle of every backend (and, row-parallel, the
//!   `parallel` backend).
//! - [`opencl`]: the same method on an OpenCL device, kernels from `cl/simple_ts/`.
//! - [`ranks`]: a run split among MPI ranks, one window of the grid and one backend each,
//!   bit-identical to one process.
//! - [`forces`], [`probes`]: what a run writes besides the fields; [`prolong`]: a state
//!   carried to a grid refined by two; [`numbers`]: what `simplets check` prints.

pub mod backend;
pub mod case;
pub mod fields;
pub mod forces;
pub mod geometry;
pub mod numbers;
pub mod opencl;
pub mod physics;
pub mod probes;
pub mod problem;
pub mod prolong;
pub mod ranks;
pub mod reference;
pub mod side;
pub mod solver;
pub mod tile;
