//! The OpenCL C pieces of the explicit methods, in assembly order: the prelude, the
//! fragments of each system (`cl/shll/`, `cl/convection/`), the shared update rules and the
//! kernels (`cl/explicit/`). One program serves every explicit method; `CFG_SYS` selects the
//! system at build time.

use crate::device::source::Source;

/// A piece of `cl/`: its path (what `#line` names) and its text.
macro_rules! piece {
    ($path:literal) => {
        (
            concat!("cl/", $path),
            include_str!(concat!("../../../cl/", $path)),
        )
    };
}

/// `shll/euler.cl`: Euler pressure, sound speed, fluxes (twins: `methods/shll/euler.rs`).
pub const EULER: (&str, &str) = piece!("shll/euler.cl");
/// `shll/shallow_water.cl`: wet/dry, velocity, wave speed, fluxes.
pub const SHALLOW_WATER: (&str, &str) = piece!("shll/shallow_water.cl");
/// `shll/split.cl`: SHLL split, HLL, Rusanov.
pub const SPLIT: (&str, &str) = piece!("shll/split.cl");
/// `shll/muscl.cl`: limiters and face values.
pub const MUSCL: (&str, &str) = piece!("shll/muscl.cl");
/// `shll/transport.cl`: diffusion flux and the convection–diffusion stability rate.
pub const TRANSPORT: (&str, &str) = piece!("shll/transport.cl");
/// `convection/ftbs.cl`: first-order upwind of linear convection.
pub const FTBS: (&str, &str) = piece!("convection/ftbs.cl");
/// `explicit/update.cl`: finite-volume updates, RK2 average, CFL rate, Δt rule.
pub const UPDATE: (&str, &str) = piece!("explicit/update.cl");
/// `explicit/reduce.cl`: the per-group maxima and the `reduce` and `finish` kernels (also
/// CE/SE's).
pub const REDUCE: (&str, &str) = piece!("explicit/reduce.cl");
/// `explicit/step.cl`: the stage's functions (plain, tile, strip), the -D contract.
pub const STEP: (&str, &str) = piece!("explicit/step.cl");
/// `explicit/muscl_strip.cl`: the MUSCL strip stage's functions.
pub const MUSCL_STRIP: (&str, &str) = piece!("explicit/muscl_strip.cl");
/// `explicit/kernels.cl`: the stage and ghost kernels.
pub const KERNELS: (&str, &str) = piece!("explicit/kernels.cl");
/// `explicit/probe.cl`: probe kernels of the fragments (tests).
pub const PROBE: (&str, &str) = piece!("explicit/probe.cl");

/// The fragments of every explicit system, after the prelude.
pub fn fragments() -> Source {
    Source::new()
        .with(EULER)
        .with(SHALLOW_WATER)
        .with(SPLIT)
        .with(MUSCL)
        .with(TRANSPORT)
        .with(FTBS)
        .with(UPDATE)
}

/// The program of the solver: fragments, the reduction, the stage's functions and the
/// kernels.
pub fn program() -> Source {
    fragments()
        .with(REDUCE)
        .with(STEP)
        .with(MUSCL_STRIP)
        .with(KERNELS)
}

/// The fragment probe program (tests/explicit_fragments.rs).
pub fn probe() -> Source {
    fragments().with(PROBE)
}
