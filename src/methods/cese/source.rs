//! The OpenCL C pieces of CE/SE in assembly order: the prelude, the explicit methods' update
//! rules (`next_dt`, `advance_time`, `nan_max`), the CE/SE fragments, then the explicit
//! methods' reduction (`group_max2`, `group_partials`, the `reduce` and `finish` kernels) and
//! the kernels, or the fragment probes.

use crate::device::source::Source;

macro_rules! piece {
    ($path:literal) => {
        (
            concat!("cl/", $path),
            include_str!(concat!("../../../cl/", $path)),
        )
    };
}

/// `cese/fragments.cl`: the formulas (twins: `methods/cese/fragments.rs`).
pub const FRAGMENTS: (&str, &str) = piece!("cese/fragments.cl");
/// `cese/step.cl`: the half-step and fused kernels.
pub const STEP: (&str, &str) = piece!("cese/step.cl");
/// `cese/probe.cl`: probe kernels of the fragments (tests).
pub const PROBE: (&str, &str) = piece!("cese/probe.cl");

/// The fragments, after the prelude.
pub fn fragments() -> Source {
    Source::new()
        .with(crate::methods::explicit::source::UPDATE)
        .with(FRAGMENTS)
}

/// The program of the solver.
pub fn program() -> Source {
    fragments()
        .with(crate::methods::explicit::source::REDUCE)
        .with(STEP)
}

/// The fragment probe program (tests/cese_fragments.rs).
pub fn probe() -> Source {
    fragments().with(PROBE)
}
