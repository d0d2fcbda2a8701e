//! The OpenCL C pieces of `bp_euler`, in assembly order: the prelude, the formulas
//! (`cl/bp/formulas.cl`, twins of [`super::formulas`]) and the step kernels
//! (`cl/bp/step.cl`, with its `-D` contract), then the ranges form's (`cl/bp/ranges.cl`) and the ghost form's (`cl/bp/ghost.cl`).

use crate::device::source::Source;

/// `bp/formulas.cl`: the per-node, per-face and per-cell formulas.
pub const FORMULAS: (&str, &str) = (
    "cl/bp/formulas.cl",
    include_str!("../../../cl/bp/formulas.cl"),
);
/// `bp/step.cl`: the kernels of one step.
pub const STEP: (&str, &str) = ("cl/bp/step.cl", include_str!("../../../cl/bp/step.cl"));

/// `bp/ranges.cl`: the kernels of the ranges form (interior by arithmetic, boundary rows).
pub const RANGES: (&str, &str) = ("cl/bp/ranges.cl", include_str!("../../../cl/bp/ranges.cl"));

/// `bp/ghost.cl`: the kernels of the ghost form (a padded layer, interior stencils).
pub const GHOST: (&str, &str) = ("cl/bp/ghost.cl", include_str!("../../../cl/bp/ghost.cl"));

/// The program of the solver (the three forms' kernels).
pub fn program() -> Source {
    Source::new()
        .with(FORMULAS)
        .with(STEP)
        .with(RANGES)
        .with(GHOST)
}
