//! The residual maxima of a rank's window (issue 20): over the cells and faces the rank owns
//! (the halo's are another rank's), and merged over every rank into the values and whole-grid
//! indices of a single-process run (`iterate::merged`). Called by loop 2 when a halo is set.

use super::pressure::MaxAt;
use super::Work;
use crate::decomp::Halo;
use crate::methods::simple_ts::fields::Fields;
use crate::methods::simple_ts::geometry::{Geometry, FLUID, F_SOLVED};

pub(super) fn max_at((value, at): (f64, usize)) -> MaxAt {
    MaxAt { value, at }
}

/// The largest |ΔT| and |Δp| of the last loop-3 sweep over the owned fluid cells (the sweep's
/// own maxima include the halo), window indices.
pub fn tp_residuals(h: &Halo, geo: &Geometry, w: &Work) -> (MaxAt, MaxAt) {
    let fluid = |k: usize| geo.cell[k] == FLUID;
    let dt = h.owned_max(|k| fluid(k).then(|| w.T_new[k] - w.T_old[k]));
    let dp = h.owned_max(|k| fluid(k).then(|| w.p_new[k] - w.p_old[k]));
    (max_at(dt), max_at(dp))
}

/// The largest |Δu| and |Δv| of the velocity correction over the owned solved faces, from the
/// velocities `before` it and `k` after it, window indices.
pub fn uv_residuals(
    h: &Halo,
    geo: &Geometry,
    before: &(Vec<f64>, Vec<f64>),
    k: &Fields,
) -> (MaxAt, MaxAt) {
    let du = h.owned_max(|q| (geo.u_face[q] == F_SOLVED).then(|| k.u[q] - before.0[q]));
    let dv = h.owned_max(|q| (geo.v_face[q] == F_SOLVED).then(|| k.v[q] - before.1[q]));
    (max_at(du), max_at(dv))
}
