//! Host side of the OpenCL backend: the work-group decomposition (spec §5.2–5.4) and, later,
//! the solver that sequences the kernels (spec §5.1).

pub mod decomposition;
pub mod fused;
pub mod loop2;
pub mod paths;
pub mod solver;
