//! (22)–(23) the SIMPLE-TS pressure equation, and (37)–(38) the velocity correction
//! (spec §2.5, §2.7).
//!
//! Continuity of cell (i,j) with u, v replaced by the pseudo-velocity relations and ρ by p/T,
//! multiplied by Δt. A face that is not solved (wall, inflow, outflow copy) has a^p = 0 and
//! carries its current mass flux ρ_f h u_f in b^p.

use super::{Ctx, Work};
use crate::fields::Fields;
use crate::geometry::{Geometry, FLUID, F_PERIODIC, F_SOLVED};
use crate::grid::Grid;

/// (23) a^p and the pseudo mass flux of one face: solved faces use d and û, others their
/// current velocity.
#[inline(always)]
fn face(kind: u8, rho_f: f64, h: f64, hat: f64, d: f64, vel: f64) -> (f64, f64) {
    if kind == F_SOLVED || kind == F_PERIODIC {
        (rho_f * h * d, rho_f * h * hat)
    } else {
        (0.0, rho_f * h * vel)
    }
}

/// Build the loop-3 coefficients of (22) for every fluid cell (after û, v̂ are known).
pub fn pressure_coeffs(x: &Ctx, w: &mut Work) {
    let (g, geo, k, f, dt) = (x.g, x.geo, x.k, x.f, x.dt);
    let nx = g.nxt;
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let p = g.idx(i, j);
            if geo.cell[p] != FLUID {
                continue;
            }
            let (hx, hy) = (g.hx[i], g.hy[j]);
            let (e, n) = (p + 1, p + nx);
            let (aw, qw) = face(geo.u_face[p], f.rho_u[p], hy, w.u_hat[p], w.d_u[p], k.u[p]);
            let (ae, qe) = face(geo.u_face[e], f.rho_u[e], hy, w.u_hat[e], w.d_u[e], k.u[e]);
            let (as_, qs) = face(geo.v_face[p], f.rho_v[p], hx, w.v_hat[p], w.d_v[p], k.v[p]);
            let (an, qn) = face(geo.v_face[n], f.rho_v[n], hx, w.v_hat[n], w.d_v[n], k.v[n]);
            w.pW[p] = dt * aw;
            w.pE[p] = dt * ae;
            w.pS[p] = dt * as_;
            w.pN[p] = dt * an;
            w.pD[p] = dt * (aw + ae + as_ + an);
            w.pB[p] = dt * (qw - qe + qs - qn) + hx * hy * x.n.p[p] / x.n.T[p];
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
}

/// (37)-(38) correct the velocities of solved faces with the new pressure `p`; returns the
/// largest updates of u and v.
pub fn correct(g: &Grid, geo: &Geometry, w: &Work, p: &[f64], k: &mut Fields) -> (MaxAt, MaxAt) {
    let nx = g.nxt;
    let (mut du, mut dv) = (MaxAt::default(), MaxAt::default());
    for ij in nx..g.len() - nx {
        if geo.u_face[ij] == F_SOLVED {
            let u = w.u_hat[ij] - w.d_u[ij] * (p[ij] - p[ij - 1]);
            du.see(u - k.u[ij], ij);
            k.u[ij] = u;
        }
    }
    for ij in nx..g.len() {
        if geo.v_face[ij] == F_SOLVED {
            let v = w.v_hat[ij] - w.d_v[ij] * (p[ij] - p[ij - nx]);
            dv.see(v - k.v[ij], ij);
            k.v[ij] = v;
        }
    }
    (du, dv)
}
