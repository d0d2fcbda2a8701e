//! The OpenCL C pieces of SIMPLE-TS (`cl/simple_ts/`), in assembly order
//! (`cl/simple_ts/README.md`): accessors, operators, the equation fragments (each the twin of
//! a Rust function of the same name in `reference/`), then the kernels of each form.

use crate::device::source::{Source, MAX_AT};

/// A piece of `cl/simple_ts/`: its path (what `#line` names) and its text.
macro_rules! piece {
    ($path:literal) => {
        (
            concat!("cl/simple_ts/", $path),
            include_str!(concat!("../../../../cl/simple_ts/", $path)),
        )
    };
}

/// `fields.cl`: accessors of the stored fields and geometry (`RHO(i,j)`, `CELL(i,j)`,
/// `HX(i)`).
pub const FIELDS: (&str, &str) = piece!("fields.cl");
/// `ops.cl`: scalar operators (upwind, TVD, interpolation, slip, jump), twins of
/// `reference::ops`.
pub const OPS: (&str, &str) = piece!("ops.cl");
/// `density.cl`: face densities (9)–(12), twins of `reference::density`; needs `CFG_TVD`.
pub const DENSITY: (&str, &str) = piece!("density.cl");
/// `bc.cl`: wall gas values (42)(43) and Γ at CV corners, twins of `reference::bc`; needs
/// `CFG_KN`, `CFG_WALL_SIGMA_U`, `CFG_WALL_SIGMA_T`.
pub const BC: (&str, &str) = piece!("bc.cl");
/// `momentum.cl`: pseudo-velocity pieces (13)–(21), twins of `reference::momentum`; needs
/// `CFG_A`, `CFG_B`, `CFG_DT`, `CFG_EXPLICIT`, `CFG_TVD`.
pub const MOMENTUM: (&str, &str) = piece!("momentum.cl");
/// `energy.cl`: energy-equation pieces (24)–(30), twins of `reference::energy`; needs
/// `CFG_CT1`, `CFG_CT2`, `CFG_CT3`, `CFG_DT`, `CFG_EXPLICIT`, `CFG_TVD`.
pub const ENERGY: (&str, &str) = piece!("energy.cl");
/// `pressure.cl`: pressure-equation pieces (22)–(23) and the velocity correction (37)–(38),
/// twins of `reference::pressure`; needs `CFG_DT`.
pub const PRESSURE: (&str, &str) = piece!("pressure.cl");
/// `kernels/probe_fragments.cl`: probe kernels of the fragments (`probe_ops`,
/// `probe_density`, the case probes).
pub const PROBE_FRAGMENTS: (&str, &str) = piece!("kernels/probe_fragments.cl");
/// `kernels/flux_stored.cl`: stored ρu, ρv, Fx, Fy (phase kernels).
pub const FLUX_STORED: (&str, &str) = piece!("kernels/flux_stored.cl");
/// `kernels/flux_inline.cl`: ρu, ρv, Fx, Fy computed where read (fused kernel).
pub const FLUX_INLINE: (&str, &str) = piece!("kernels/flux_inline.cl");
/// `kernels/convective_explicit.cl`: shared kernel parameter lists and the explicit scheme's
/// convective kernel.
pub const CONVECTIVE: (&str, &str) = piece!("kernels/convective_explicit.cl");
/// `kernels/gate.cl`: the phase form's loop-2 control on the device (the `ctl` buffer and
/// the gate every loop-2 kernel starts with).
pub const GATE: (&str, &str) = piece!("kernels/gate.cl");
/// `kernels/boundary.cl`: boundary copies of iterate k (both forms; gated in the phase form).
pub const BOUNDARY: (&str, &str) = piece!("kernels/boundary.cl");
/// `kernels/iterate_fused.cl`: the fused loop-2 kernel (spec §5.3), one work-group per
/// subdomain, marching along y.
pub const ITERATE: (&str, &str) = piece!("kernels/iterate_fused.cl");
/// `kernels/jacobi.cl`: the Jacobi phase kernels.
pub const JACOBI: (&str, &str) = piece!("kernels/jacobi.cl");
/// `kernels/ends.cl`: the phase form's outer faces and the compat order of the end rules.
pub const ENDS: (&str, &str) = piece!("kernels/ends.cl");

/// The equation pieces every program of the method starts with: prelude, accessors,
/// operators and the fragments, in `cl/simple_ts/README.md` order.
pub fn equations() -> Source {
    Source::new()
        .with(FIELDS)
        .with(OPS)
        .with(DENSITY)
        .with(BC)
        .with(MOMENTUM)
        .with(ENERGY)
        .with(PRESSURE)
}

/// The fragment probe program: [`equations`], then `kernels/probe_fragments.cl`. Needs
/// `CFG_NXT`, `CFG_NYT`, `CFG_TVD` and the constants each piece guards.
pub fn fragments() -> Source {
    equations().with(PROBE_FRAGMENTS)
}

/// The phase-kernel program (`kernels/jacobi.cl` and what it includes).
pub fn phase() -> Source {
    equations()
        .with(FLUX_STORED)
        .with(CONVECTIVE)
        .with(GATE)
        .with(BOUNDARY)
        .with(MAX_AT)
        .with(JACOBI)
        .with(ENDS)
}
