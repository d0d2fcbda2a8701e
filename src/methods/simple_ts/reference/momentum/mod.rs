//! (13)–(21) momentum equations: pseudo-velocities û, v̂ and d-coefficients (spec §2.4).
//!
//! ```text
//!  u-CV (i,j) spans x_v[i−1]..x_v[i] × y_f[j]..y_f[j+1]:
//!        u(i,j+1)                         north half-faces carry Fy(i−1,j+1), Fy(i,j+1)
//!  u(i−1,j)  u(i,j)  u(i+1,j)             x-faces at the centres of cells i−1 and i
//!        u(i,j−1)                         south half-faces carry Fy(i−1,j), Fy(i,j)
//! ```
//! A horizontal wall under (over) the u-CV replaces u(i,j∓1) by the slip gas velocity at half
//! a cell (42); the v-CV is the transpose.

//!
//! The pseudo-velocity is split into scalar pieces, one per `cl/simple_ts/momentum.cl` macro
//! of the same name, so a kernel can keep Γc, a_nb, a_P and b in registers and give the same
//! doubles: [`u`] holds the u-CV's, [`v`] the v-CV's (in the order of the `.cl` file);
//! `u_hat_d_u` and `v_hat_d_v` are the sequences every loop-2 form evaluates.

mod u;
mod v;

pub use u::*;
pub use v::*;

use super::rows::map_rows;
use super::Ctx;
use crate::methods::simple_ts::geometry::F_SOLVED;

const FOUR_THIRDS: f64 = 4.0 / 3.0;
const TWO_THIRDS: f64 = 2.0 / 3.0;

/// True if the faces `ij + (m − 2)·step`, m in a..=b, are all solved [CHOICE G8].
#[inline]
fn solved(kind: &[u8], ij: usize, step: usize, a: usize, b: usize) -> bool {
    (a..=b).all(|m| kind[ij + m * step - 2 * step] == F_SOLVED)
}

/// Explicit scheme: C_u on every solved u-face (once per time step).
pub fn convective_u(x: &Ctx, out: &mut [f64]) {
    let g = x.g;
    map_rows(x.par, g.nxt, [out], 1..g.ny + 1, |j, [o]| {
        for (o, i) in o[1..g.nxt].iter_mut().zip(1..) {
            *o = c_u_face(x, i, j);
        }
    });
}

/// C_u of the u-face (i,j), 0 unless it is solved.
#[inline(always)]
fn c_u_face(x: &Ctx, i: usize, j: usize) -> f64 {
    if x.geo.u_face[x.g.idx(i, j)] == F_SOLVED {
        c_u_fc(x, i, j)
    } else {
        0.0
    }
}

/// Explicit scheme: C_v on every solved v-face.
pub fn convective_v(x: &Ctx, out: &mut [f64]) {
    let g = x.g;
    map_rows(x.par, g.nxt, [out], 1..g.nyt, |j, [o]| {
        for (o, i) in o[1..=g.nx].iter_mut().zip(1..) {
            *o = c_v_face(x, i, j);
        }
    });
}

/// C_v of the v-face (i,j), 0 unless it is solved.
#[inline(always)]
fn c_v_face(x: &Ctx, i: usize, j: usize) -> f64 {
    if x.geo.v_face[x.g.idx(i, j)] == F_SOLVED {
        c_v_cf(x, i, j)
    } else {
        0.0
    }
}

/// True if the conductance across the cell pair `a`, `b` beside a momentum CV runs half a cell,
/// to a wall: where both are solid, or (compat `corner_slip_ghosts`, the C++ code's test "both
/// cells gas") where either is, so that a convex body corner is a wall half a cell away whose
/// velocity is the slot stored there.
#[inline(always)]
pub(crate) fn half_to_wall(
    x: &crate::methods::simple_ts::reference::Ctx,
    a: usize,
    b: usize,
) -> bool {
    let (sa, sb) = (x.geo.solid(a), x.geo.solid(b));
    if x.geo
        .compat
        .has(crate::methods::simple_ts::case::Defect::CornerSlipGhosts)
    {
        sa || sb
    } else {
        sa && sb
    }
}
