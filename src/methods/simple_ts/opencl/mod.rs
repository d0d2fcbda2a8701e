//! SIMPLE-TS on an OpenCL device: the host side of the two loop-2 forms, the Jacobi phase
//! kernels ([`phase`]) and the fused y-sweep kernel ([`fused`]), with what both share
//! ([`loop2`]: the loop-2 driver, read-back; [`paths`]: the fluid fast path and the alias
//! tables; [`subdomains`]: the fused kernel's work-group subdomains, spec §5.2–5.4).

pub mod fused;
pub mod loop2;
pub mod paths;
pub mod phase;
pub mod source;
pub mod subdomains;
