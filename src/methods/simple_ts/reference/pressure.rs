//! (22)–(23) the SIMPLE-TS pressure equation, and (37)–(38) the velocity correction
//! (spec §2.5, §2.7).
//!
//! Continuity of cell (i,j) with u, v replaced by the pseudo-velocity relations and ρ by p/T,
//! multiplied by Δt. A face that is not solved (wall, inflow, outflow copy) has a^p = 0 and
//! carries its current mass flux ρ_f h u_f in b^p.

use super::interior;
use super::plain::{row_runs, split};
use super::rows::map_rows;
use super::{Ctx, Work};
use crate::methods::simple_ts::fields::Fields;
use crate::methods::simple_ts::geometry::{FLUID, F_PERIODIC, F_SOLVED};

// The coefficients of (22) are split into scalar pieces, one per `cl/simple_ts/pressure.cl`
// macro of the same name; `pressure_coeffs` puts them together for the sweeps. û, d_u, v̂, d_v
// come from `x.ps` (the momentum step of the same iteration).

/// True if a face of class `kind` is solved with its pseudo-velocity relation (solved or
/// periodic seam).
#[inline(always)]
fn pseudo(kind: u8) -> bool {
    kind == F_SOLVED || kind == F_PERIODIC
}

/// True if the face between stored cells `a` and `b` is a wall face whose stored velocity
/// the continuity equation ignores: the authors' C++ code (compat `corner_slip_ghosts`) keeps
/// slot values there, and its pressure equation multiplies a face's pseudo flux by both fluid
/// flags.
#[inline(always)]
fn slot_face(x: &Ctx, a: usize, b: usize) -> bool {
    x.geo
        .compat
        .has(crate::methods::simple_ts::case::Defect::CornerSlipGhosts)
        && (x.geo.solid(a) || x.geo.solid(b))
}

/// (23) a^p of the u-face (i,j) (before ×Δt): ρu hy d_u where it is solved, else 0.
#[inline]
pub fn ap_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.u_face[ij]) {
        x.f.rho_u[ij] * x.g.hy[j] * x.ps.d_u[ij]
    } else {
        0.0
    }
}

/// (23) pseudo mass flux through the u-face (i,j): ρu hy û where it is solved, else ρu hy u.
#[inline]
pub fn q_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.u_face[ij]) {
        x.f.rho_u[ij] * x.g.hy[j] * x.ps.u_hat[ij]
    } else if slot_face(x, ij, ij - 1) {
        0.0
    } else {
        x.f.rho_u[ij] * x.g.hy[j] * x.k.u[ij]
    }
}

/// (23) a^p of the v-face (i,j): ρv hx d_v where it is solved, else 0.
#[inline]
pub fn ap_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.v_face[ij]) {
        x.f.rho_v[ij] * x.g.hx[i] * x.ps.d_v[ij]
    } else {
        0.0
    }
}

/// (23) pseudo mass flux through the v-face (i,j): ρv hx v̂ where it is solved, else ρv hx v.
#[inline]
pub fn q_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    if pseudo(x.geo.v_face[ij]) {
        x.f.rho_v[ij] * x.g.hx[i] * x.ps.v_hat[ij]
    } else if slot_face(x, ij, ij - x.g.nxt) {
        0.0
    } else {
        x.f.rho_v[ij] * x.g.hx[i] * x.k.v[ij]
    }
}

/// Δt a^p_W of cell (i,j).
#[inline]
pub fn pW_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    x.dt * ap_fc(x, i, j)
}

/// Δt a^p_E.
#[inline]
pub fn pE_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    x.dt * ap_fc(x, i + 1, j)
}

/// Δt a^p_S.
#[inline]
pub fn pS_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    x.dt * ap_cf(x, i, j)
}

/// Δt a^p_N.
#[inline]
pub fn pN_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    x.dt * ap_cf(x, i, j + 1)
}

/// Δt Σ a^p, summed W, E, S, N.
#[inline]
pub fn pD_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (aw, ae) = (ap_fc(x, i, j), ap_fc(x, i + 1, j));
    let (as_, an) = (ap_cf(x, i, j), ap_cf(x, i, j + 1));
    x.dt * (aw + ae + as_ + an)
}

/// Δt b^p + V pⁿ/Tⁿ: the net pseudo mass flux into cell (i,j) and the level-n mass.
#[inline]
pub fn pB_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    let p = x.g.idx(i, j);
    let (qw, qe) = (q_fc(x, i, j), q_fc(x, i + 1, j));
    let (qs, qn) = (q_cf(x, i, j), q_cf(x, i, j + 1));
    x.dt * (qw - qe + qs - qn) + x.g.hx[i] * x.g.hy[j] * x.n.p[p] / x.n.T[p]
}

/// The loop-3 coefficients of (22) at fluid cell (i,j): [pW, pE, pS, pN, pD, pB].
#[inline(always)]
fn pressure_cell(x: &Ctx, i: usize, j: usize) -> [f64; 6] {
    [
        pW_cc(x, i, j),
        pE_cc(x, i, j),
        pS_cc(x, i, j),
        pN_cc(x, i, j),
        pD_cc(x, i, j),
        pB_cc(x, i, j),
    ]
}

/// Build the loop-3 coefficients of (22) for every fluid cell (after û, v̂ are known; rows
/// on rayon's threads when `x.par`).
pub fn pressure_coeffs(x: &Ctx, w: &mut Work) {
    let (g, geo) = (x.g, x.geo);
    let outs = [
        &mut w.pW[..],
        &mut w.pE[..],
        &mut w.pS[..],
        &mut w.pN[..],
        &mut w.pD[..],
        &mut w.pB[..],
    ];
    map_rows(
        x.par,
        g.nxt,
        outs,
        1..g.ny + 1,
        |j, [pw, pe, ps, pn, pd, pb]| {
            // Interior runs (every scheme: the pressure coefficients read no convection) in
            // one loop, the other cells one by one.
            let runs = row_runs(&x.pl.p, j, true);
            split(1, g.nx + 1, runs, |r, inner| {
                if inner {
                    return interior::p_run(x, j, r, [pw, pe, ps, pn, pd, pb]);
                }
                for i in r {
                    if geo.cell[g.idx(i, j)] != FLUID {
                        continue;
                    }
                    pw[i] = pW_cc(x, i, j);
                    pe[i] = pE_cc(x, i, j);
                    ps[i] = pS_cc(x, i, j);
                    pn[i] = pN_cc(x, i, j);
                    pd[i] = pD_cc(x, i, j);
                    pb[i] = pB_cc(x, i, j);
                }
            });
        },
    );
}

/// (22) one Jacobi evaluation of p at fluid cell (i,j) with its new T `t_new`, from the
/// coefficients and the previous sweep's p `po` (the kernel's accessor PO).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn p_cc(
    x: &Ctx,
    po: &[f64],
    i: usize,
    j: usize,
    pw: f64,
    pe: f64,
    ps: f64,
    pn: f64,
    pd: f64,
    pb: f64,
    t_new: f64,
) -> f64 {
    let (g, p) = (x.g, x.g.idx(i, j));
    let nx = g.nxt;
    (pw * po[p - 1] + pe * po[p + 1] + ps * po[p - nx] + pn * po[p + nx] + pb)
        / (g.hx[i] * g.hy[j] / t_new + pd)
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

/// (37) corrected u at the u-face (i,j) with the new pressure `pn` (the kernel's accessor PN):
/// û − d_u (p(i,j) − p(i−1,j)).
#[inline(always)]
pub fn u_corr_fc(x: &Ctx, pn: &[f64], i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    x.ps.u_hat[ij] - x.ps.d_u[ij] * (pn[ij] - pn[ij - 1])
}

/// (38) corrected v at the v-face (i,j): v̂ − d_v (p(i,j) − p(i,j−1)).
#[inline(always)]
pub fn v_corr_cf(x: &Ctx, pn: &[f64], i: usize, j: usize) -> f64 {
    let ij = x.g.idx(i, j);
    x.ps.v_hat[ij] - x.ps.d_v[ij] * (pn[ij] - pn[ij - x.g.nxt])
}

/// One Jacobi p of fluid cell (i,j) with its new T `t_new`, the coefficients computed in
/// place (the twin of `p_new_cc`); previous sweep's p `po`.
pub fn p_new_cc(x: &Ctx, po: &[f64], i: usize, j: usize, t_new: f64) -> f64 {
    let [pw, pe, ps, pn, pd, pb] = pressure_cell(x, i, j);
    p_cc(x, po, i, j, pw, pe, ps, pn, pd, pb, t_new)
}

/// (37)-(38) correct the velocities of solved faces of `k` with the new pressure `p`; returns
/// the largest updates of u and v (rows on rayon's threads when `x.par`; `x` reads û, d, the
/// geometry and the grid).
pub fn correct(x: &Ctx, p: &[f64], k: &mut Fields) -> (MaxAt, MaxAt) {
    let (g, geo) = (x.g, x.geo);
    let nx = g.nxt;
    // The expressions of u_corr_fc and v_corr_cf over row slices.
    let row = |a, jj| super::interior::row(a, jj, nx);
    let du = map_rows(x.par, nx, [&mut k.u[..]], 1..g.nyt - 1, |j, [u]| {
        let mut m = MaxAt::default();
        let (kind, uh, du, pp) = (
            &geo.u_face[j * nx..(j + 1) * nx],
            row(&x.ps.u_hat, j),
            row(&x.ps.d_u, j),
            row(p, j),
        );
        if kind[0] == F_SOLVED {
            let new = u_corr_fc(x, p, 0, j);
            m.see(new - u[0], j * nx);
            u[0] = new;
        }
        for i in 1..nx {
            if kind[i] == F_SOLVED {
                let new = uh[i] - du[i] * (pp[i] - pp[i - 1]);
                m.see(new - u[i], j * nx + i);
                u[i] = new;
            }
        }
        m
    });
    let dv = map_rows(x.par, nx, [&mut k.v[..]], 1..g.nyt, |j, [v]| {
        let mut m = MaxAt::default();
        let (kind, vh, dv) = (
            &geo.v_face[j * nx..(j + 1) * nx],
            row(&x.ps.v_hat, j),
            row(&x.ps.d_v, j),
        );
        let (ps, pp) = (row(p, j - 1), row(p, j));
        for i in 0..nx {
            if kind[i] == F_SOLVED {
                let new = vh[i] - dv[i] * (pp[i] - ps[i]);
                m.see(new - v[i], j * nx + i);
                v[i] = new;
            }
        }
        m
    });
    (MaxAt::merged(du), MaxAt::merged(dv))
}
