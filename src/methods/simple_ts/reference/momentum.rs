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

use super::ops::{tvd_c, tvd_s, upwind};
use super::rows::map_rows;
use super::Ctx;
use crate::methods::simple_ts::geometry::F_SOLVED;

const FOUR_THIRDS: f64 = 4.0 / 3.0;
const TWO_THIRDS: f64 = 2.0 / 3.0;

// The pseudo-velocity (15)-(16) is split into scalar pieces, one per `cl/simple_ts/momentum.cl` macro of
// the same name, so the kernel can keep Γc, a_nb, a_P and b in registers and give the same
// doubles; `u_hat_d_u` and `v_hat_d_v` put them together for the serial sweep.

/// True if the faces `ij + (m − 2)·step`, m in a..=b, are all solved [CHOICE G8].
#[inline]
fn solved(kind: &[u8], ij: usize, step: usize, a: usize, b: usize) -> bool {
    (a..=b).all(|m| kind[ij + m * step - 2 * step] == F_SOLVED)
}

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

/// Face flux `m` of the u-CV (i,j), in the order [Fe, Fw, Fn1, Fn2, Fs1, Fs2] (spec §2.4, old
/// definition).
#[inline]
pub fn u_flux(x: &Ctx, i: usize, j: usize, m: usize) -> f64 {
    let (g, f) = (x.g, x.f);
    let ij = g.idx(i, j);
    let ie = if i + 1 < g.nxt { ij + 1 } else { ij };
    let n = ij + g.nxt;
    match m {
        0 => 0.5 * (f.Fx[ij] + f.Fx[ie]),
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
    let (ij, s) = (g.idx(i, j), g.idx(i, j - 1));
    if geo.solid(s - 1) && geo.solid(s) {
        x.u_wall_gas(ij, s, 0.5 * g.hy[j])
    } else {
        x.k.u[s]
    }
}

/// u above the u-CV (i,j), the mirror of [`uS_u_fc`].
#[inline]
pub fn uN_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo) = (x.g, x.geo);
    let (ij, n) = (g.idx(i, j), g.idx(i, j + 1));
    if geo.solid(n - 1) && geo.solid(n) {
        x.u_wall_gas(ij, n, 0.5 * g.hy[j])
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
    let (g, geo, c) = (x.g, x.geo, x.c);
    let s = g.idx(i, j - 1);
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    let ds = if geo.solid(s - 1) && geo.solid(s) {
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
    let (g, geo, c) = (x.g, x.geo, x.c);
    let n = g.idx(i, j + 1);
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    let dn = if geo.solid(n - 1) && geo.solid(n) {
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
pub fn b_u_fc(x: &Ctx, cu: &[f64], i: usize, j: usize, gcs: f64, gcn: f64) -> f64 {
    let (g, k, c) = (x.g, x.k, x.c);
    let nx = g.nxt;
    let ij = g.idx(i, j);
    let (w, n) = (ij - 1, ij + nx);
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    let v = &k.v;
    let su = c.b
        * (gcn * (v[n] - v[n - 1])
            - gcs * (v[ij] - v[w])
            - TWO_THIRDS * k.Gam[ij] * (v[n] - v[ij])
            + TWO_THIRDS * k.Gam[w] * (v[n - 1] - v[w]));
    let m_n = (x.n.rho[w] * hxw + x.n.rho[ij] * hxp) * hyp / (2.0 * x.dt);
    let b = m_n * x.n.u[ij] + su;
    if x.explicit {
        b - cu[ij]
    } else if x.tvd {
        let [fe, fw, fn1, fn2, fs1, fs2] = u_fluxes(x, i, j);
        let t = |face, w| u_tvd(x, i, j, face, w);
        b - (fe * t(0, fe) - fw * t(1, fw) + 0.5 * (fn1 * t(2, fn1) + fn2 * t(2, fn2))
            - 0.5 * (fs1 * t(3, fs1) + fs2 * t(3, fs2)))
    } else {
        b
    }
}

/// (15) û(i,j) = (Σ a_nb u_nb + b)/a_P from the pieces above.
#[inline]
pub fn u_hat_fc(x: &Ctx, i: usize, j: usize, a: [f64; 4], ap: f64, b: f64) -> f64 {
    let (g, u) = (x.g, &x.k.u);
    let ij = g.idx(i, j);
    let ie = if i + 1 < g.nxt { ij + 1 } else { ij };
    let [aw, ae, as_, an] = a;
    let nb = aw * u[ij - 1] + ae * u[ie] + as_ * uS_u_fc(x, i, j) + an * uN_u_fc(x, i, j);
    (nb + b) / ap
}

/// (15) d_u(i,j) = A hy / a_P.
#[inline]
pub fn d_u_fc(x: &Ctx, j: usize, ap: f64) -> f64 {
    x.c.a * x.g.hy[j] / ap
}

/// (15) û(i,j) and d_u(i,j) of a solved u-face; `cu` holds the explicit convective terms.
pub fn u_hat_d_u(x: &Ctx, cu: &[f64], i: usize, j: usize) -> (f64, f64) {
    let (gcs, gcn) = (x.gam_c(i, j), x.gam_c(i, j + 1));
    let a = [
        aW_u_fc(x, i, j),
        aE_u_fc(x, i, j),
        aS_u_fc(x, i, j, gcs),
        aN_u_fc(x, i, j, gcn),
    ];
    let ap = aP_u_fc(x, i, j, a[0], a[1], a[2], a[3]);
    let b = b_u_fc(x, cu, i, j, gcs, gcn);
    (u_hat_fc(x, i, j, a, ap, b), d_u_fc(x, j, ap))
}

/// Explicit scheme: C_uⁿ of the u-CV (i,j) from level n (this is called at the start of a step,
/// when iterate k equals level n).
pub fn c_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, u) = (x.g, &x.k.u);
    let ij = g.idx(i, j);
    let nx = g.nxt;
    let ie = if i + 1 < nx { ij + 1 } else { ij };
    let [fe, fw, fn1, fn2, fs1, fs2] = u_fluxes(x, i, j);
    let t = |face, w| if x.tvd { u_tvd(x, i, j, face, w) } else { 0.0 };
    let (un, us) = (u[ij + nx], u[ij - nx]);
    fe * (upwind(u[ij], u[ie], fe) + t(0, fe)) - fw * (upwind(u[ij - 1], u[ij], fw) + t(1, fw))
        + 0.5
            * (fn1 * (upwind(u[ij], un, fn1) + t(2, fn1))
                + fn2 * (upwind(u[ij], un, fn2) + t(2, fn2)))
        - 0.5
            * (fs1 * (upwind(us, u[ij], fs1) + t(3, fs1))
                + fs2 * (upwind(us, u[ij], fs2) + t(3, fs2)))
}

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
        x.v_wall_gas(ij, ij - 1, 0.5 * g.hx[i])
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
        x.v_wall_gas(ij, ij + 1, 0.5 * g.hx[i])
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
    let (g, geo, c) = (x.g, x.geo, x.c);
    let (ij, s) = (g.idx(i, j), g.idx(i, j - 1));
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let de = if geo.solid(s + 1) && geo.solid(ij + 1) {
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
    let (g, geo, c) = (x.g, x.geo, x.c);
    let (ij, s) = (g.idx(i, j), g.idx(i, j - 1));
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let dw = if geo.solid(s - 1) && geo.solid(ij - 1) {
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
pub fn b_v_cf(x: &Ctx, cv: &[f64], i: usize, j: usize, gcw: f64, gce: f64) -> f64 {
    let (g, k, c) = (x.g, x.k, x.c);
    let ij = g.idx(i, j);
    let s = ij - g.nxt;
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let u = &k.u;
    let sv = c.b
        * (gce * (u[ij + 1] - u[s + 1])
            - gcw * (u[ij] - u[s])
            - TWO_THIRDS * k.Gam[ij] * (u[ij + 1] - u[ij])
            + TWO_THIRDS * k.Gam[s] * (u[s + 1] - u[s]));
    let m_n = (x.n.rho[s] * hys + x.n.rho[ij] * hyp) * hxp / (2.0 * x.dt);
    let b = m_n * x.n.v[ij] + sv;
    if x.explicit {
        b - cv[ij]
    } else if x.tvd {
        let [fn_, fs, fe1, fe2, fw1, fw2] = v_fluxes(x, i, j);
        let t = |face, w| v_tvd(x, i, j, face, w);
        b - (fn_ * t(0, fn_) - fs * t(1, fs) + 0.5 * (fe1 * t(2, fe1) + fe2 * t(2, fe2))
            - 0.5 * (fw1 * t(3, fw1) + fw2 * t(3, fw2)))
    } else {
        b
    }
}

/// (16) v̂(i,j) = (Σ a_nb v_nb + b)/a_P; `a` = [a_N, a_S, a_E, a_W].
#[inline]
pub fn v_hat_cf(x: &Ctx, i: usize, j: usize, a: [f64; 4], ap: f64, b: f64) -> f64 {
    let (g, v) = (x.g, &x.k.v);
    let ij = g.idx(i, j);
    let jn = if j + 1 < g.nyt { ij + g.nxt } else { ij };
    let [an, as_, ae, aw] = a;
    let nb = as_ * v[ij - g.nxt] + an * v[jn] + aw * vW_v_cf(x, i, j) + ae * vE_v_cf(x, i, j);
    (nb + b) / ap
}

/// (16) d_v(i,j) = A hx / a_P.
#[inline]
pub fn d_v_cf(x: &Ctx, i: usize, ap: f64) -> f64 {
    x.c.a * x.g.hx[i] / ap
}

/// (16) v̂(i,j) and d_v(i,j) of a solved v-face.
pub fn v_hat_d_v(x: &Ctx, cv: &[f64], i: usize, j: usize) -> (f64, f64) {
    let (gcw, gce) = (x.gam_c2(i, j), x.gam_c2(i + 1, j));
    let a = [
        aN_v_cf(x, i, j),
        aS_v_cf(x, i, j),
        aE_v_cf(x, i, j, gce),
        aW_v_cf(x, i, j, gcw),
    ];
    let ap = aP_v_cf(x, i, j, a[0], a[1], a[2], a[3]);
    let b = b_v_cf(x, cv, i, j, gcw, gce);
    (v_hat_cf(x, i, j, a, ap, b), d_v_cf(x, i, ap))
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

/// Explicit scheme: C_u on every solved u-face (once per time step).
pub fn convective_u(x: &Ctx, out: &mut [f64]) {
    let g = x.g;
    if x.par {
        map_rows(true, g.nxt, [out], 1..g.ny + 1, |j, [o]| {
            for (o, i) in o[1..g.nxt].iter_mut().zip(1..) {
                *o = c_u_face(x, i, j);
            }
        });
        return;
    }
    for j in 1..=g.ny {
        for i in 1..g.nxt {
            out[g.idx(i, j)] = c_u_face(x, i, j);
        }
    }
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
    if x.par {
        map_rows(true, g.nxt, [out], 1..g.nyt, |j, [o]| {
            for (o, i) in o[1..=g.nx].iter_mut().zip(1..) {
                *o = c_v_face(x, i, j);
            }
        });
        return;
    }
    for j in 1..g.nyt {
        for i in 1..=g.nx {
            out[g.idx(i, j)] = c_v_face(x, i, j);
        }
    }
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
