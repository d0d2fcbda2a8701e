//! (22)–(23) the SIMPLE-TS pressure equation, and (37)–(38) the velocity correction
//! (spec §2.5, §2.7).
//!
//! Continuity of cell (i,j) with u, v replaced by the pseudo-velocity relations and ρ by p/T,
//! multiplied by Δt. A face that is not solved (wall, inflow, outflow copy) has a^p = 0 and
//! carries its current mass flux ρ_f h u_f in b^p.

use super::rows::map_rows;
use super::{Ctx, Work};
use crate::grid::Grid;
use crate::methods::simple_ts::fields::Fields;
use crate::methods::simple_ts::geometry::{Geometry, FLUID, F_PERIODIC, F_SOLVED};

// The coefficients of (22) are split into scalar pieces, one per `cl/simple_ts/pressure.cl` macro of the
// same name; `pressure_coeffs` puts them together for the serial sweep. û, d_u, v̂, d_v come
// from `w` (the momentum step of the same iteration).

/// True if a face of class `kind` is solved with its pseudo-velocity relation (solved or
/// periodic seam).
#[inline(always)]
fn pseudo(kind: u8) -> bool {
    kind == F_SOLVED || kind == F_PERIODIC
}

/// (23) a^p of the u-face (i,j) (before ×Δt): ρu hy d_u where it is solved, else 0.
#[inline]
pub fn ap_fc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.u_face[ij]) {
        x.f.rho_u[ij] * x.g.hy[j] * w.d_u[ij]
    } else {
        0.0
    }
}

/// (23) pseudo mass flux through the u-face (i,j): ρu hy û where it is solved, else ρu hy u.
#[inline]
pub fn q_fc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.u_face[ij]) {
        x.f.rho_u[ij] * x.g.hy[j] * w.u_hat[ij]
    } else {
        x.f.rho_u[ij] * x.g.hy[j] * x.k.u[ij]
    }
}

/// (23) a^p of the v-face (i,j): ρv hx d_v where it is solved, else 0.
#[inline]
pub fn ap_cf(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.v_face[ij]) {
        x.f.rho_v[ij] * x.g.hx[i] * w.d_v[ij]
    } else {
        0.0
    }
}

/// (23) pseudo mass flux through the v-face (i,j): ρv hx v̂ where it is solved, else ρv hx v.
#[inline]
pub fn q_cf(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.v_face[ij]) {
        x.f.rho_v[ij] * x.g.hx[i] * w.v_hat[ij]
    } else {
        x.f.rho_v[ij] * x.g.hx[i] * x.k.v[ij]
    }
}

/// Δt a^p_W of cell (i,j).
#[inline]
pub fn pW_cc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    x.dt * ap_fc(x, w, i, j)
}

/// Δt a^p_E.
#[inline]
pub fn pE_cc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    x.dt * ap_fc(x, w, i + 1, j)
}

/// Δt a^p_S.
#[inline]
pub fn pS_cc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    x.dt * ap_cf(x, w, i, j)
}

/// Δt a^p_N.
#[inline]
pub fn pN_cc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    x.dt * ap_cf(x, w, i, j + 1)
}

/// Δt Σ a^p, summed W, E, S, N.
#[inline]
pub fn pD_cc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    let (aw, ae) = (ap_fc(x, w, i, j), ap_fc(x, w, i + 1, j));
    let (as_, an) = (ap_cf(x, w, i, j), ap_cf(x, w, i, j + 1));
    x.dt * (aw + ae + as_ + an)
}

/// Δt b^p + V pⁿ/Tⁿ: the net pseudo mass flux into cell (i,j) and the level-n mass.
#[inline]
pub fn pB_cc(x: &Ctx, w: &Work, i: usize, j: usize) -> f64 {
    let p = x.g.idx(i, j);
    let (qw, qe) = (q_fc(x, w, i, j), q_fc(x, w, i + 1, j));
    let (qs, qn) = (q_cf(x, w, i, j), q_cf(x, w, i, j + 1));
    x.dt * (qw - qe + qs - qn) + x.g.hx[i] * x.g.hy[j] * x.n.p[p] / x.n.T[p]
}

/// The loop-3 coefficients of (22) at fluid cell (i,j): [pW, pE, pS, pN, pD, pB].
#[inline(always)]
fn pressure_cell(x: &Ctx, w: &Work, i: usize, j: usize) -> [f64; 6] {
    [
        pW_cc(x, w, i, j),
        pE_cc(x, w, i, j),
        pS_cc(x, w, i, j),
        pN_cc(x, w, i, j),
        pD_cc(x, w, i, j),
        pB_cc(x, w, i, j),
    ]
}

/// Build the loop-3 coefficients of (22) for every fluid cell (after û, v̂ are known).
pub fn pressure_coeffs(x: &Ctx, w: &mut Work) {
    let (g, geo) = (x.g, x.geo);
    if x.par {
        // The outputs leave `w` while the rows read û, d_u, v̂, d_v from it.
        let mut outs = [
            std::mem::take(&mut w.pW),
            std::mem::take(&mut w.pE),
            std::mem::take(&mut w.pS),
            std::mem::take(&mut w.pN),
            std::mem::take(&mut w.pD),
            std::mem::take(&mut w.pB),
        ];
        {
            let r: &Work = w;
            map_rows(
                true,
                g.nxt,
                outs.each_mut().map(|v| &mut v[..]),
                1..g.ny + 1,
                |j, mut o| {
                    for i in 1..=g.nx {
                        if geo.cell[g.idx(i, j)] != FLUID {
                            continue;
                        }
                        let c = pressure_cell(x, r, i, j);
                        for (a, v) in o.iter_mut().zip(c) {
                            a[i] = v;
                        }
                    }
                },
            );
        }
        [w.pW, w.pE, w.pS, w.pN, w.pD, w.pB] = outs;
        return;
    }
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let p = g.idx(i, j);
            if geo.cell[p] != FLUID {
                continue;
            }
            w.pW[p] = pW_cc(x, w, i, j);
            w.pE[p] = pE_cc(x, w, i, j);
            w.pS[p] = pS_cc(x, w, i, j);
            w.pN[p] = pN_cc(x, w, i, j);
            w.pD[p] = pD_cc(x, w, i, j);
            w.pB[p] = pB_cc(x, w, i, j);
        }
    }
}

/// (22) one Jacobi evaluation of p at fluid cell `p` with the new T(i,j) `t_new`.
#[inline(always)]
pub fn p_cc(w: &Work, vol: f64, nx: usize, p: usize, t_new: f64) -> f64 {
    let q = &w.p_old;
    (w.pW[p] * q[p - 1] + w.pE[p] * q[p + 1] + w.pS[p] * q[p - nx] + w.pN[p] * q[p + nx] + w.pB[p])
        / (vol / t_new + w.pD[p])
}

/// Position and size of the largest update of one field.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct MaxAt {
    /// max |new − old|.
    pub value: f64,
    /// Stored index where it occurs.
    pub at: usize,
}

impl MaxAt {
    /// Record |d| at `at`; NaN always wins so that divergence is reported where it starts.
    #[inline(always)]
    pub fn see(&mut self, d: f64, at: usize) {
        let d = d.abs();
        if d > self.value || (d.is_nan() && !self.value.is_nan()) {
            self.value = d;
            self.at = at;
        }
    }

    /// Merge the maximum of a later part of the scan (a later row): the same value and index
    /// as one scan over both parts.
    #[inline]
    pub fn merge(&mut self, later: MaxAt) {
        self.see(later.value, later.at);
    }

    /// Merge per-row maxima in row order.
    pub fn merged(rows: impl IntoIterator<Item = MaxAt>) -> MaxAt {
        let mut m = MaxAt::default();
        for r in rows {
            m.merge(r);
        }
        m
    }
}

/// (37) corrected u at the u-face of stored index `ij` with the new pressure `p`:
/// û − d_u (p(i,j) − p(i−1,j)).
#[inline(always)]
pub fn u_corr_fc(w: &Work, p: &[f64], ij: usize) -> f64 {
    w.u_hat[ij] - w.d_u[ij] * (p[ij] - p[ij - 1])
}

/// (38) corrected v at the v-face `ij`: v̂ − d_v (p(i,j) − p(i,j−1)); `nx` is the row length.
#[inline(always)]
pub fn v_corr_cf(w: &Work, p: &[f64], nx: usize, ij: usize) -> f64 {
    w.v_hat[ij] - w.d_v[ij] * (p[ij] - p[ij - nx])
}

/// (37)-(38) correct the velocities of solved faces with the new pressure `p`; returns the
/// largest updates of u and v. Rows on rayon's threads when `par` is set.
pub fn correct(
    g: &Grid,
    geo: &Geometry,
    w: &Work,
    p: &[f64],
    k: &mut Fields,
    par: bool,
) -> (MaxAt, MaxAt) {
    let nx = g.nxt;
    if par {
        let du = map_rows(true, nx, [&mut k.u[..]], 1..g.nyt - 1, |j, [u]| {
            let mut m = MaxAt::default();
            for (i, u) in u.iter_mut().enumerate() {
                let ij = j * nx + i;
                if geo.u_face[ij] == F_SOLVED {
                    let new = u_corr_fc(w, p, ij);
                    m.see(new - *u, ij);
                    *u = new;
                }
            }
            m
        });
        let dv = map_rows(true, nx, [&mut k.v[..]], 1..g.nyt, |j, [v]| {
            let mut m = MaxAt::default();
            for (i, v) in v.iter_mut().enumerate() {
                let ij = j * nx + i;
                if geo.v_face[ij] == F_SOLVED {
                    let new = v_corr_cf(w, p, nx, ij);
                    m.see(new - *v, ij);
                    *v = new;
                }
            }
            m
        });
        return (MaxAt::merged(du), MaxAt::merged(dv));
    }
    let (mut du, mut dv) = (MaxAt::default(), MaxAt::default());
    for ij in nx..g.len() - nx {
        if geo.u_face[ij] == F_SOLVED {
            let u = u_corr_fc(w, p, ij);
            du.see(u - k.u[ij], ij);
            k.u[ij] = u;
        }
    }
    for ij in nx..g.len() {
        if geo.v_face[ij] == F_SOLVED {
            let v = v_corr_cf(w, p, nx, ij);
            dv.see(v - k.v[ij], ij);
            k.v[ij] = v;
        }
    }
    (du, dv)
}
