//! The u-CV (13)(15)(17)–(21): twins of the u-CV macros of `cl/simple_ts/momentum.cl`, in
//! their order.

use super::half_to_wall;
use super::{solved, FOUR_THIRDS, TWO_THIRDS};
use crate::methods::simple_ts::case::Defect;
use crate::methods::simple_ts::reference::bc::{gam_c, gas_flag, u_wall_gas};
use crate::methods::simple_ts::reference::ops::{tvd_c, tvd_s, upwind};
use crate::methods::simple_ts::reference::Ctx;

/// TVD correction of one u-CV face for the flux `w` through it: `face` 0 east, 1 west
/// (TVD_c along x), 2 north, 3 south (TVD_s along y); zero unless every stencil face is solved
/// [CHOICE G8].
#[inline]
pub fn u_tvd(x: &Ctx, i: usize, j: usize, face: usize, w: f64) -> f64 {
    let (g, u, kind) = (x.g, &x.k.u, &x.geo.u_face);
    let (nx, ij) = (g.nxt, g.idx(i, j));
    let (hx, hy) = (&g.hx, &g.hy);
    match face {
        0 if i + 2 < nx && solved(kind, ij, 1, 1, 4) => tvd_c(
            u[ij - 1],
            u[ij],
            u[ij + 1],
            u[ij + 2],
            hx[i - 1],
            hx[i],
            hx[i + 1],
            w,
        ),
        1 if i >= 2 && solved(kind, ij, 1, 0, 3) => tvd_c(
            u[ij - 2],
            u[ij - 1],
            u[ij],
            u[ij + 1],
            hx[i - 2],
            hx[i - 1],
            hx[i],
            w,
        ),
        2 if j + 2 < g.nyt && solved(kind, ij, nx, 1, 4) => tvd_s(
            u[ij - nx],
            u[ij],
            u[ij + nx],
            u[ij + 2 * nx],
            hy[j - 1],
            hy[j],
            hy[j + 1],
            hy[j + 2],
            w,
        ),
        3 if j >= 2 && solved(kind, ij, nx, 0, 3) => tvd_s(
            u[ij - 2 * nx],
            u[ij - nx],
            u[ij],
            u[ij + nx],
            hy[j - 2],
            hy[j - 1],
            hy[j],
            hy[j + 1],
            w,
        ),
        _ => 0.0,
    }
}

/// Mass flux Fx and velocity u of the face east of u-face (i,j): the next face, or beyond
/// the east boundary face the stored outer face where the east side has one, else the
/// boundary face itself (zero gradient).
#[inline(always)]
pub fn u_beyond(x: &Ctx, i: usize, j: usize) -> (f64, f64) {
    let ij = x.g.idx(i, j);
    if i + 1 < x.g.nxt {
        (x.f.Fx[ij + 1], x.k.u[ij + 1])
    } else if !x.f.u_xe.is_empty() {
        (x.f.Fx_xe[j], x.f.u_xe[j])
    } else {
        (x.f.Fx[ij], x.k.u[ij])
    }
}

/// Face flux `m` of the u-CV (i,j), in the order [Fe, Fw, Fn1, Fn2, Fs1, Fs2] (spec §2.4, old
/// definition).
#[inline]
pub fn u_flux(x: &Ctx, i: usize, j: usize, m: usize) -> f64 {
    let (g, f) = (x.g, x.f);
    let ij = g.idx(i, j);
    let n = ij + g.nxt;
    match m {
        0 => 0.5 * (f.Fx[ij] + u_beyond(x, i, j).0),
        1 => 0.5 * (f.Fx[ij - 1] + f.Fx[ij]),
        2 => f.Fy[n - 1],
        3 => f.Fy[n],
        4 => f.Fy[ij - 1],
        _ => f.Fy[ij],
    }
}

/// The six face fluxes of the u-CV (i,j), see [`u_flux`].
#[inline]
fn u_fluxes(x: &Ctx, i: usize, j: usize) -> [f64; 6] {
    [0, 1, 2, 3, 4, 5].map(|m| u_flux(x, i, j, m))
}

/// u below the u-CV (i,j): the slip gas velocity (42) at half a cell where a wall runs under
/// it (both cells below solid), else u(i,j−1).
#[inline]
pub fn uS_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo) = (x.g, x.geo);
    let s = g.idx(i, j - 1);
    if geo.solid(s - 1) && geo.solid(s) {
        u_wall_gas(x, i, j, i, j - 1, 0.5 * g.hy[j])
    } else {
        x.k.u[s]
    }
}

/// u above the u-CV (i,j), the mirror of [`uS_u_fc`].
#[inline]
pub fn uN_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo) = (x.g, x.geo);
    let n = g.idx(i, j + 1);
    if geo.solid(n - 1) && geo.solid(n) {
        u_wall_gas(x, i, j, i, j + 1, 0.5 * g.hy[j])
    } else {
        x.k.u[n]
    }
}

/// (17)-(19) a_W of the u-CV (i,j): 4/3 of the conductance through the centre of cell i−1,
/// plus the upwind inflow when implicit.
#[inline]
pub fn aW_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, c) = (x.g, x.c);
    let dw = c.b * x.k.Gam[g.idx(i - 1, j)] * g.hy[j] / g.hx[i - 1];
    if x.explicit {
        FOUR_THIRDS * dw
    } else {
        FOUR_THIRDS * dw + u_flux(x, i, j, 1).max(0.0)
    }
}

/// (17)-(19) a_E of the u-CV (i,j), through the centre of cell i.
#[inline]
pub fn aE_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, c) = (x.g, x.c);
    let de = c.b * x.k.Gam[g.idx(i, j)] * g.hy[j] / g.hx[i];
    if x.explicit {
        FOUR_THIRDS * de
    } else {
        FOUR_THIRDS * de + (-u_flux(x, i, j, 0)).max(0.0)
    }
}

/// (17)-(19) a_S of the u-CV (i,j) with Γc(i,j) = `gcs`: half a cell to a wall below.
#[inline]
pub fn aS_u_fc(x: &Ctx, i: usize, j: usize, gcs: f64) -> f64 {
    let (g, c) = (x.g, x.c);
    let s = g.idx(i, j - 1);
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    let ds = if half_to_wall(x, s - 1, s) {
        c.b * gcs * (hxw + hxp) / hyp
    } else {
        c.b * gcs * (hxw + hxp) / (g.hy[j - 1] + hyp)
    };
    if x.explicit {
        ds
    } else {
        ds + 0.5 * (u_flux(x, i, j, 4).max(0.0) + u_flux(x, i, j, 5).max(0.0))
    }
}

/// (17)-(19) a_N of the u-CV (i,j) with Γc(i,j+1) = `gcn`.
#[inline]
pub fn aN_u_fc(x: &Ctx, i: usize, j: usize, gcn: f64) -> f64 {
    let (g, c) = (x.g, x.c);
    let n = g.idx(i, j + 1);
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    let dn = if half_to_wall(x, n - 1, n) {
        c.b * gcn * (hxw + hxp) / hyp
    } else {
        c.b * gcn * (hxw + hxp) / (hyp + g.hy[j + 1])
    };
    if x.explicit {
        dn
    } else {
        dn + 0.5 * ((-u_flux(x, i, j, 2)).max(0.0) + (-u_flux(x, i, j, 3)).max(0.0))
    }
}

/// (15) a_P of the u-CV (i,j) from its neighbour coefficients: Σ a_nb + ρ^k V/Δt, plus the
/// continuity imbalance when implicit.
#[inline]
pub fn aP_u_fc(x: &Ctx, i: usize, j: usize, aw: f64, ae: f64, as_: f64, an: f64) -> f64 {
    let (g, k) = (x.g, x.k);
    let ij = g.idx(i, j);
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    let m_k = (k.rho[ij - 1] * hxw + k.rho[ij] * hxp) * hyp / (2.0 * x.dt);
    let ap_extra = if x.explicit {
        m_k
    } else {
        let [fe, fw, fn1, fn2, fs1, fs2] = u_fluxes(x, i, j);
        m_k + ((fe - fw) + 0.5 * (fn1 + fn2 - fs1 - fs2))
    };
    aw + ae + as_ + an + ap_extra
}

/// (15) constant right side b of the u-CV (i,j): ρⁿ uⁿ V/Δt and the cross-derivative source
/// S_u (21) with Γc = `gcs`, `gcn`; minus C_u (`cu`) when explicit, minus the deferred TVD
/// correction [CHOICE G7] when implicit TVD.
#[inline]
pub fn b_u_fc(x: &Ctx, i: usize, j: usize, gcs: f64, gcn: f64) -> f64 {
    let (g, k, c) = (x.g, x.k, x.c);
    let nx = g.nxt;
    let ij = g.idx(i, j);
    let (w, n) = (ij - 1, ij + nx);
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    let v = &k.v;
    let su = if x.geo.compat.has(Defect::CornerSlipGhosts) {
        // The C++ near-wall branch multiplies each v by the fluid flag of the cell beyond it,
        // so a wall face's slot value is not read here.
        let (vn, vnw) = (
            v[n] * gas_flag(x, i, j + 1),
            v[n - 1] * gas_flag(x, i - 1, j + 1),
        );
        let (vs, vsw) = (
            v[ij] * gas_flag(x, i, j - 1),
            v[w] * gas_flag(x, i - 1, j - 1),
        );
        c.b * (gcn * (vn - vnw) - gcs * (vs - vsw) - TWO_THIRDS * k.Gam[ij] * (vn - vs)
            + TWO_THIRDS * k.Gam[w] * (vnw - vsw))
    } else {
        c.b * (gcn * (v[n] - v[n - 1])
            - gcs * (v[ij] - v[w])
            - TWO_THIRDS * k.Gam[ij] * (v[n] - v[ij])
            + TWO_THIRDS * k.Gam[w] * (v[n - 1] - v[w]))
    };
    let m_n = (x.n.rho[w] * hxw + x.n.rho[ij] * hxp) * hyp / (2.0 * x.dt);
    let b = m_n * x.n.u[ij] + su;
    if x.explicit {
        b - x.ex.cu[ij]
    } else if x.tvd {
        let [fe, fw, fn1, fn2, fs1, fs2] = u_fluxes(x, i, j);
        let t = |face, w| u_tvd(x, i, j, face, w);
        b - (fe * t(0, fe) - fw * t(1, fw) + 0.5 * (fn1 * t(2, fn1) + fn2 * t(2, fn2))
            - 0.5 * (fs1 * t(3, fs1) + fs2 * t(3, fs2)))
    } else {
        b
    }
}

/// The west and east neighbour terms a_W u(i−1,j) + a_E u(i+1,j) of the u-CV (i,j) as the
/// authors' C++ code evaluates them next to a vertical wall (compat `swapped_u_wall_flags`,
/// docs/decisions.md): where cell (i−2,j) or (i+1,j) is solid, its a_W and a_E without their
/// D/3 parts multiply u(i−1,j) and u(i+1,j) by each other's fluid flag, while the D/3 parts
/// keep their own. Elsewhere, and without the switch, the plain sum.
#[inline]
pub fn uWE_cpp_fc(x: &Ctx, i: usize, j: usize, aw: f64, ae: f64) -> f64 {
    let (g, geo, c, k) = (x.g, x.geo, x.c, x.k);
    let ij = g.idx(i, j);
    let (uw, ue) = (k.u[ij - 1], u_beyond(x, i, j).1);
    let west_wall = i >= 2 && geo.solid(ij - 2);
    let east_wall = i + 1 < g.nxt && geo.solid(ij + 1);
    if !geo.compat.has(Defect::SwappedUWallFlags) || !(west_wall || east_wall) {
        return aw * uw + ae * ue;
    }
    let dw3 = c.b * k.Gam[ij - 1] * g.hy[j] / g.hx[i - 1] / 3.0;
    let de3 = c.b * k.Gam[ij] * g.hy[j] / g.hx[i] / 3.0;
    let (fw, fe) = (
        if west_wall { 0.0 } else { 1.0 },
        if east_wall { 0.0 } else { 1.0 },
    );
    (aw - dw3) * fe * uw + (ae - de3) * fw * ue + dw3 * fw * uw + de3 * fe * ue
}

/// (15) û(i,j) = (Σ a_nb u_nb + b)/a_P from the pieces above.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn u_hat_fc(
    x: &Ctx,
    i: usize,
    j: usize,
    aw: f64,
    ae: f64,
    as_: f64,
    an: f64,
    ap: f64,
    b: f64,
) -> f64 {
    let nb = uWE_cpp_fc(x, i, j, aw, ae) + as_ * uS_u_fc(x, i, j) + an * uN_u_fc(x, i, j);
    (nb + b) / ap
}

/// (15) d_u(i,j) = A hy / a_P.
#[inline]
pub fn d_u_fc(x: &Ctx, j: usize, ap: f64) -> f64 {
    x.c.a * x.g.hy[j] / ap
}

/// The kernel sequence of a solved u-face (the twin of `U_HAT_D_U`): Γ at the south and north
/// corners, the neighbour coefficients, a_P, b, then û(i,j) and d_u(i,j).
pub fn u_hat_d_u(x: &Ctx, i: usize, j: usize) -> (f64, f64) {
    let (gcs, gcn) = (gam_c(x, i, j), gam_c(x, i, j + 1));
    let aw = aW_u_fc(x, i, j);
    let ae = aE_u_fc(x, i, j);
    let as_ = aS_u_fc(x, i, j, gcs);
    let an = aN_u_fc(x, i, j, gcn);
    let ap = aP_u_fc(x, i, j, aw, ae, as_, an);
    let b = b_u_fc(x, i, j, gcs, gcn);
    (u_hat_fc(x, i, j, aw, ae, as_, an, ap, b), d_u_fc(x, j, ap))
}

/// Explicit scheme: C_uⁿ of the u-CV (i,j) from level n (this is called at the start of a step,
/// when iterate k equals level n).
pub fn c_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, u) = (x.g, &x.k.u);
    let ij = g.idx(i, j);
    let nx = g.nxt;
    let ue = u_beyond(x, i, j).1;
    let [fe, fw, fn1, fn2, fs1, fs2] = u_fluxes(x, i, j);
    let t = |face, w| if x.tvd { u_tvd(x, i, j, face, w) } else { 0.0 };
    let (un, us) = (u[ij + nx], u[ij - nx]);
    fe * (upwind(u[ij], ue, fe) + t(0, fe)) - fw * (upwind(u[ij - 1], u[ij], fw) + t(1, fw))
        + 0.5
            * (fn1 * (upwind(u[ij], un, fn1) + t(2, fn1))
                + fn2 * (upwind(u[ij], un, fn2) + t(2, fn2)))
        - 0.5
            * (fs1 * (upwind(us, u[ij], fs1) + t(3, fs1))
                + fs2 * (upwind(us, u[ij], fs2) + t(3, fs2)))
}
