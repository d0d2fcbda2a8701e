//! The v-CV (14)(16)(17)–(21): twins of the v-CV macros of `cl/simple_ts/momentum.cl`, the
//! transposes of [`super::u`], in their order.

use super::half_to_wall;
use super::{solved, FOUR_THIRDS, TWO_THIRDS};
use crate::methods::simple_ts::case::Defect;
use crate::methods::simple_ts::reference::bc::{gam_c2, gas_flag, v_wall_gas};
use crate::methods::simple_ts::reference::ops::{tvd_c, tvd_s, upwind};
use crate::methods::simple_ts::reference::Ctx;

/// TVD correction of one v-CV face, the transpose of [`u_tvd`]: `face` 0 north, 1 south
/// (TVD_c along y), 2 east, 3 west (TVD_s along x).
#[inline]
pub fn v_tvd(x: &Ctx, i: usize, j: usize, face: usize, w: f64) -> f64 {
    let (g, v, kind) = (x.g, &x.k.v, &x.geo.v_face);
    let (nx, ij) = (g.nxt, g.idx(i, j));
    let (hx, hy) = (&g.hx, &g.hy);
    match face {
        0 if j + 2 < g.nyt && solved(kind, ij, nx, 1, 4) => tvd_c(
            v[ij - nx],
            v[ij],
            v[ij + nx],
            v[ij + 2 * nx],
            hy[j - 1],
            hy[j],
            hy[j + 1],
            w,
        ),
        1 if j >= 2 && solved(kind, ij, nx, 0, 3) => tvd_c(
            v[ij - 2 * nx],
            v[ij - nx],
            v[ij],
            v[ij + nx],
            hy[j - 2],
            hy[j - 1],
            hy[j],
            w,
        ),
        2 if i + 2 < nx && solved(kind, ij, 1, 1, 4) => tvd_s(
            v[ij - 1],
            v[ij],
            v[ij + 1],
            v[ij + 2],
            hx[i - 1],
            hx[i],
            hx[i + 1],
            hx[i + 2],
            w,
        ),
        3 if i >= 2 && solved(kind, ij, 1, 0, 3) => tvd_s(
            v[ij - 2],
            v[ij - 1],
            v[ij],
            v[ij + 1],
            hx[i - 2],
            hx[i - 1],
            hx[i],
            hx[i + 1],
            w,
        ),
        _ => 0.0,
    }
}

/// Face flux `m` of the v-CV (i,j), in the order [Fn, Fs, Fe1, Fe2, Fw1, Fw2].
#[inline]
pub fn v_flux(x: &Ctx, i: usize, j: usize, m: usize) -> f64 {
    let (g, f) = (x.g, x.f);
    let ij = g.idx(i, j);
    let s = ij - g.nxt;
    let jn = if j + 1 < g.nyt { ij + g.nxt } else { ij };
    match m {
        0 => 0.5 * (f.Fy[ij] + f.Fy[jn]),
        1 => 0.5 * (f.Fy[s] + f.Fy[ij]),
        2 => f.Fx[s + 1],
        3 => f.Fx[ij + 1],
        4 => f.Fx[s],
        _ => f.Fx[ij],
    }
}

/// The six face fluxes of the v-CV (i,j), see [`v_flux`].
#[inline]
fn v_fluxes(x: &Ctx, i: usize, j: usize) -> [f64; 6] {
    [0, 1, 2, 3, 4, 5].map(|m| v_flux(x, i, j, m))
}

/// v left of the v-CV (i,j): the slip gas velocity (42) at half a cell where a wall runs
/// along its west side (both cells to the west solid), else v(i−1,j).
#[inline]
pub fn vW_v_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo) = (x.g, x.geo);
    let (ij, s) = (g.idx(i, j), g.idx(i, j - 1));
    if geo.solid(s - 1) && geo.solid(ij - 1) {
        v_wall_gas(x, i, j, i - 1, j, 0.5 * g.hx[i])
    } else {
        x.k.v[ij - 1]
    }
}

/// v right of the v-CV (i,j), the mirror of [`vW_v_cf`].
#[inline]
pub fn vE_v_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo) = (x.g, x.geo);
    let (ij, s) = (g.idx(i, j), g.idx(i, j - 1));
    if geo.solid(s + 1) && geo.solid(ij + 1) {
        v_wall_gas(x, i, j, i + 1, j, 0.5 * g.hx[i])
    } else {
        x.k.v[ij + 1]
    }
}

/// (17)-(19) a_N of the v-CV (i,j), through the centre of cell j.
#[inline]
pub fn aN_v_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, c) = (x.g, x.c);
    let dn = c.b * x.k.Gam[g.idx(i, j)] * g.hx[i] / g.hy[j];
    if x.explicit {
        FOUR_THIRDS * dn
    } else {
        FOUR_THIRDS * dn + (-v_flux(x, i, j, 0)).max(0.0)
    }
}

/// (17)-(19) a_S of the v-CV (i,j), through the centre of cell j−1.
#[inline]
pub fn aS_v_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, c) = (x.g, x.c);
    let ds = c.b * x.k.Gam[g.idx(i, j - 1)] * g.hx[i] / g.hy[j - 1];
    if x.explicit {
        FOUR_THIRDS * ds
    } else {
        FOUR_THIRDS * ds + v_flux(x, i, j, 1).max(0.0)
    }
}

/// (17)-(19) a_E of the v-CV (i,j) with Γc'(i+1,j) = `gce`.
#[inline]
pub fn aE_v_cf(x: &Ctx, i: usize, j: usize, gce: f64) -> f64 {
    let (g, c) = (x.g, x.c);
    let (ij, s) = (g.idx(i, j), g.idx(i, j - 1));
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let de = if half_to_wall(x, s + 1, ij + 1) {
        c.b * gce * (hys + hyp) / hxp
    } else {
        c.b * gce * (hys + hyp) / (hxp + g.hx[i + 1])
    };
    if x.explicit {
        de
    } else {
        de + 0.5 * ((-v_flux(x, i, j, 2)).max(0.0) + (-v_flux(x, i, j, 3)).max(0.0))
    }
}

/// (17)-(19) a_W of the v-CV (i,j) with Γc'(i,j) = `gcw`.
#[inline]
pub fn aW_v_cf(x: &Ctx, i: usize, j: usize, gcw: f64) -> f64 {
    let (g, c) = (x.g, x.c);
    let (ij, s) = (g.idx(i, j), g.idx(i, j - 1));
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let dw = if half_to_wall(x, s - 1, ij - 1) {
        c.b * gcw * (hys + hyp) / hxp
    } else {
        c.b * gcw * (hys + hyp) / (g.hx[i - 1] + hxp)
    };
    if x.explicit {
        dw
    } else {
        dw + 0.5 * (v_flux(x, i, j, 4).max(0.0) + v_flux(x, i, j, 5).max(0.0))
    }
}

/// (16) a_P of the v-CV (i,j), the transpose of [`aP_u_fc`] (sum in the order N, S, E, W).
#[inline]
pub fn aP_v_cf(x: &Ctx, i: usize, j: usize, an: f64, as_: f64, ae: f64, aw: f64) -> f64 {
    let (g, k) = (x.g, x.k);
    let ij = g.idx(i, j);
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let m_k = (k.rho[ij - g.nxt] * hys + k.rho[ij] * hyp) * hxp / (2.0 * x.dt);
    let ap_extra = if x.explicit {
        m_k
    } else {
        let [fn_, fs, fe1, fe2, fw1, fw2] = v_fluxes(x, i, j);
        m_k + ((fn_ - fs) + 0.5 * (fe1 + fe2 - fw1 - fw2))
    };
    an + as_ + ae + aw + ap_extra
}

/// (16) constant right side b of the v-CV (i,j), the transpose of [`b_u_fc`] (no gravity).
#[inline]
pub fn b_v_cf(x: &Ctx, i: usize, j: usize, gcw: f64, gce: f64) -> f64 {
    let (g, k, c) = (x.g, x.k, x.c);
    let ij = g.idx(i, j);
    let s = ij - g.nxt;
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let u = &k.u;
    let sv = if x.geo.compat.has(Defect::CornerSlipGhosts) {
        // The C++ near-wall branch multiplies each u by the fluid flag of the cell beyond it.
        let (ue, use_) = (
            u[ij + 1] * gas_flag(x, i + 1, j),
            u[s + 1] * gas_flag(x, i + 1, j - 1),
        );
        let (uw, usw) = (
            u[ij] * gas_flag(x, i - 1, j),
            u[s] * gas_flag(x, i - 1, j - 1),
        );
        c.b * (gce * (ue - use_) - gcw * (uw - usw) - TWO_THIRDS * k.Gam[ij] * (ue - uw)
            + TWO_THIRDS * k.Gam[s] * (use_ - usw))
    } else {
        c.b * (gce * (u[ij + 1] - u[s + 1])
            - gcw * (u[ij] - u[s])
            - TWO_THIRDS * k.Gam[ij] * (u[ij + 1] - u[ij])
            + TWO_THIRDS * k.Gam[s] * (u[s + 1] - u[s]))
    };
    let m_n = (x.n.rho[s] * hys + x.n.rho[ij] * hyp) * hxp / (2.0 * x.dt);
    let b = m_n * x.n.v[ij] + sv;
    if x.explicit {
        b - x.ex.cv[ij]
    } else if x.tvd {
        let [fn_, fs, fe1, fe2, fw1, fw2] = v_fluxes(x, i, j);
        let t = |face, w| v_tvd(x, i, j, face, w);
        b - (fn_ * t(0, fn_) - fs * t(1, fs) + 0.5 * (fe1 * t(2, fe1) + fe2 * t(2, fe2))
            - 0.5 * (fw1 * t(3, fw1) + fw2 * t(3, fw2)))
    } else {
        b
    }
}

/// (16) v̂(i,j) = (Σ a_nb v_nb + b)/a_P.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn v_hat_cf(
    x: &Ctx,
    i: usize,
    j: usize,
    an: f64,
    as_: f64,
    ae: f64,
    aw: f64,
    ap: f64,
    b: f64,
) -> f64 {
    let (g, v) = (x.g, &x.k.v);
    let ij = g.idx(i, j);
    let jn = if j + 1 < g.nyt { ij + g.nxt } else { ij };
    let (vs, vn) = if x.geo.compat.has(Defect::CornerSlipGhosts) && j >= 2 && j + 1 < g.nyt {
        // The C++ near-wall branch: v below and above times the fluid flag of the cell
        // beyond, so a wall face's slot value is not read.
        (
            v[ij - g.nxt] * gas_flag(x, i, j - 2),
            v[jn] * gas_flag(x, i, j + 1),
        )
    } else {
        (v[ij - g.nxt], v[jn])
    };
    let nb = as_ * vs + an * vn + aw * vW_v_cf(x, i, j) + ae * vE_v_cf(x, i, j);
    (nb + b) / ap
}

/// (16) d_v(i,j) = A hx / a_P.
#[inline]
pub fn d_v_cf(x: &Ctx, i: usize, ap: f64) -> f64 {
    x.c.a * x.g.hx[i] / ap
}

/// The kernel sequence of a solved v-face (the twin of `V_HAT_D_V`): v̂(i,j) and d_v(i,j).
pub fn v_hat_d_v(x: &Ctx, i: usize, j: usize) -> (f64, f64) {
    let (gcw, gce) = (gam_c2(x, i, j), gam_c2(x, i + 1, j));
    let an = aN_v_cf(x, i, j);
    let as_ = aS_v_cf(x, i, j);
    let ae = aE_v_cf(x, i, j, gce);
    let aw = aW_v_cf(x, i, j, gcw);
    let ap = aP_v_cf(x, i, j, an, as_, ae, aw);
    let b = b_v_cf(x, i, j, gcw, gce);
    (v_hat_cf(x, i, j, an, as_, ae, aw, ap, b), d_v_cf(x, i, ap))
}

/// Explicit scheme: C_vⁿ of the v-CV (i,j).
pub fn c_v_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, v) = (x.g, &x.k.v);
    let ij = g.idx(i, j);
    let nx = g.nxt;
    let jn = if j + 1 < g.nyt { ij + nx } else { ij };
    let [fn_, fs, fe1, fe2, fw1, fw2] = v_fluxes(x, i, j);
    let t = |face, w| if x.tvd { v_tvd(x, i, j, face, w) } else { 0.0 };
    let (ve, vw) = (v[ij + 1], v[ij - 1]);
    fn_ * (upwind(v[ij], v[jn], fn_) + t(0, fn_)) - fs * (upwind(v[ij - nx], v[ij], fs) + t(1, fs))
        + 0.5
            * (fe1 * (upwind(v[ij], ve, fe1) + t(2, fe1))
                + fe2 * (upwind(v[ij], ve, fe2) + t(2, fe2)))
        - 0.5
            * (fw1 * (upwind(vw, v[ij], fw1) + t(3, fw1))
                + fw2 * (upwind(vw, v[ij], fw2) + t(3, fw2)))
}
