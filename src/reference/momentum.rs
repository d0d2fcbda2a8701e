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
use super::Ctx;
use crate::geometry::F_SOLVED;

const FOUR_THIRDS: f64 = 4.0 / 3.0;
const TWO_THIRDS: f64 = 2.0 / 3.0;

/// TVD corrections of the u-CV faces: (east, west, north, south) values for the signs of
/// (Fe, Fw, Fn1, Fn2, Fs1, Fs2); zero unless every stencil face is solved [CHOICE G8].
#[inline]
fn u_tvd(x: &Ctx, i: usize, j: usize, fl: [f64; 6]) -> [f64; 6] {
    let (g, u, kind) = (x.g, &x.k.u, &x.geo.u_face);
    let (nx, ij) = (g.nxt, g.idx(i, j));
    let solved =
        |a: usize, b: usize, s: usize| (a..=b).all(|m| kind[ij + m * s - 2 * s] == F_SOLVED);
    let mut c = [0.0; 6];
    let h = &g.hx;
    if i + 2 < nx && solved(1, 4, 1) {
        c[0] = tvd_c(
            u[ij - 1],
            u[ij],
            u[ij + 1],
            u[ij + 2],
            h[i - 1],
            h[i],
            h[i + 1],
            fl[0],
        );
    }
    if i >= 2 && solved(0, 3, 1) {
        c[1] = tvd_c(
            u[ij - 2],
            u[ij - 1],
            u[ij],
            u[ij + 1],
            h[i - 2],
            h[i - 1],
            h[i],
            fl[1],
        );
    }
    let h = &g.hy;
    if j + 2 < g.nyt && solved(1, 4, nx) {
        let v = [u[ij - nx], u[ij], u[ij + nx], u[ij + 2 * nx]];
        for (m, &w) in [fl[2], fl[3]].iter().enumerate() {
            c[2 + m] = tvd_s(
                v[0],
                v[1],
                v[2],
                v[3],
                h[j - 1],
                h[j],
                h[j + 1],
                h[j + 2],
                w,
            );
        }
    }
    if j >= 2 && solved(0, 3, nx) {
        let v = [u[ij - 2 * nx], u[ij - nx], u[ij], u[ij + nx]];
        for (m, &w) in [fl[4], fl[5]].iter().enumerate() {
            c[4 + m] = tvd_s(
                v[0],
                v[1],
                v[2],
                v[3],
                h[j - 2],
                h[j - 1],
                h[j],
                h[j + 1],
                w,
            );
        }
    }
    c
}

/// Face fluxes of the u-CV (i,j): [Fe, Fw, Fn1, Fn2, Fs1, Fs2] (spec §2.4, old definition).
#[inline]
fn u_fluxes(x: &Ctx, i: usize, j: usize) -> [f64; 6] {
    let (g, f) = (x.g, x.f);
    let ij = g.idx(i, j);
    let ie = if i + 1 < g.nxt { ij + 1 } else { ij };
    let n = ij + g.nxt;
    [
        0.5 * (f.Fx[ij] + f.Fx[ie]),
        0.5 * (f.Fx[ij - 1] + f.Fx[ij]),
        f.Fy[n - 1],
        f.Fy[n],
        f.Fy[ij - 1],
        f.Fy[ij],
    ]
}

/// (15) û(i,j) and d_u(i,j) of a solved u-face; `cu` holds the explicit convective terms.
pub fn u_hat_fc(x: &Ctx, cu: &[f64], i: usize, j: usize) -> (f64, f64) {
    let (g, geo, k, c) = (x.g, x.geo, x.k, x.c);
    let nx = g.nxt;
    let ij = g.idx(i, j);
    let (w, s, n) = (ij - 1, ij - nx, ij + nx);
    let ie = if i + 1 < nx { ij + 1 } else { ij };
    let (hxw, hxp, hyp) = (g.hx[i - 1], g.hx[i], g.hy[j]);
    // (19) diffusion conductances; x-faces at the cell centres need no interpolation.
    let dw = c.b * k.Gam[w] * hyp / hxw;
    let de = c.b * k.Gam[ij] * hyp / hxp;
    let (gcs, gcn) = (x.gam_c(i, j), x.gam_c(i, j + 1));
    let (us, ds) = if geo.solid(s - 1) && geo.solid(s) {
        (
            x.u_wall_gas(ij, s, 0.5 * hyp),
            c.b * gcs * (hxw + hxp) / hyp,
        )
    } else {
        (k.u[s], c.b * gcs * (hxw + hxp) / (g.hy[j - 1] + hyp))
    };
    let (un, dn) = if geo.solid(n - 1) && geo.solid(n) {
        (
            x.u_wall_gas(ij, n, 0.5 * hyp),
            c.b * gcn * (hxw + hxp) / hyp,
        )
    } else {
        (k.u[n], c.b * gcn * (hxw + hxp) / (hyp + g.hy[j + 1]))
    };
    // (21) cross-derivative source S_u.
    let v = &k.v;
    let su = c.b
        * (gcn * (v[n] - v[n - 1])
            - gcs * (v[ij] - v[w])
            - TWO_THIRDS * k.Gam[ij] * (v[n] - v[ij])
            + TWO_THIRDS * k.Gam[w] * (v[n - 1] - v[w]));
    let m_k = (k.rho[w] * hxw + k.rho[ij] * hxp) * hyp / (2.0 * x.dt);
    let m_n = (x.n.rho[w] * hxw + x.n.rho[ij] * hxp) * hyp / (2.0 * x.dt);
    let (mut aw, mut ae, mut as_, mut an) = (FOUR_THIRDS * dw, FOUR_THIRDS * de, ds, dn);
    let mut ap_extra = m_k;
    let mut b = m_n * x.n.u[ij] + su;
    if x.explicit {
        b -= cu[ij];
    } else {
        // (17)-(18) implicit upwind coefficients, plus the continuity imbalance in a_P.
        let fl = u_fluxes(x, i, j);
        let [fe, fw, fn1, fn2, fs1, fs2] = fl;
        aw += fw.max(0.0);
        ae += (-fe).max(0.0);
        as_ += 0.5 * (fs1.max(0.0) + fs2.max(0.0));
        an += 0.5 * ((-fn1).max(0.0) + (-fn2).max(0.0));
        ap_extra += (fe - fw) + 0.5 * (fn1 + fn2 - fs1 - fs2);
        if x.tvd {
            // [CHOICE G7] deferred correction with iterate-k values.
            let t = u_tvd(x, i, j, fl);
            b -= fe * t[0] - fw * t[1] + 0.5 * (fn1 * t[2] + fn2 * t[3])
                - 0.5 * (fs1 * t[4] + fs2 * t[5]);
        }
    }
    let ap = aw + ae + as_ + an + ap_extra;
    let nb = aw * k.u[w] + ae * k.u[ie] + as_ * us + an * un;
    ((nb + b) / ap, c.a * hyp / ap)
}

/// Explicit scheme: C_uⁿ of the u-CV (i,j) from level n (this is called at the start of a step,
/// when iterate k equals level n).
pub fn c_u_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, u) = (x.g, &x.k.u);
    let ij = g.idx(i, j);
    let nx = g.nxt;
    let ie = if i + 1 < nx { ij + 1 } else { ij };
    let fl = u_fluxes(x, i, j);
    let [fe, fw, fn1, fn2, fs1, fs2] = fl;
    let t = if x.tvd { u_tvd(x, i, j, fl) } else { [0.0; 6] };
    let (un, us) = (u[ij + nx], u[ij - nx]);
    fe * (upwind(u[ij], u[ie], fe) + t[0]) - fw * (upwind(u[ij - 1], u[ij], fw) + t[1])
        + 0.5 * (fn1 * (upwind(u[ij], un, fn1) + t[2]) + fn2 * (upwind(u[ij], un, fn2) + t[3]))
        - 0.5 * (fs1 * (upwind(us, u[ij], fs1) + t[4]) + fs2 * (upwind(us, u[ij], fs2) + t[5]))
}

/// TVD corrections of the v-CV faces, the transpose of `u_tvd`: (north, south, east1, east2,
/// west1, west2).
#[inline]
fn v_tvd(x: &Ctx, i: usize, j: usize, fl: [f64; 6]) -> [f64; 6] {
    let (g, v, kind) = (x.g, &x.k.v, &x.geo.v_face);
    let (nx, ij) = (g.nxt, g.idx(i, j));
    let solved =
        |a: usize, b: usize, s: usize| (a..=b).all(|m| kind[ij + m * s - 2 * s] == F_SOLVED);
    let mut c = [0.0; 6];
    let h = &g.hy;
    if j + 2 < g.nyt && solved(1, 4, nx) {
        let p = [v[ij - nx], v[ij], v[ij + nx], v[ij + 2 * nx]];
        c[0] = tvd_c(p[0], p[1], p[2], p[3], h[j - 1], h[j], h[j + 1], fl[0]);
    }
    if j >= 2 && solved(0, 3, nx) {
        let p = [v[ij - 2 * nx], v[ij - nx], v[ij], v[ij + nx]];
        c[1] = tvd_c(p[0], p[1], p[2], p[3], h[j - 2], h[j - 1], h[j], fl[1]);
    }
    let h = &g.hx;
    if i + 2 < nx && solved(1, 4, 1) {
        for (m, &w) in [fl[2], fl[3]].iter().enumerate() {
            c[2 + m] = tvd_s(
                v[ij - 1],
                v[ij],
                v[ij + 1],
                v[ij + 2],
                h[i - 1],
                h[i],
                h[i + 1],
                h[i + 2],
                w,
            );
        }
    }
    if i >= 2 && solved(0, 3, 1) {
        for (m, &w) in [fl[4], fl[5]].iter().enumerate() {
            c[4 + m] = tvd_s(
                v[ij - 2],
                v[ij - 1],
                v[ij],
                v[ij + 1],
                h[i - 2],
                h[i - 1],
                h[i],
                h[i + 1],
                w,
            );
        }
    }
    c
}

/// Face fluxes of the v-CV (i,j): [Fn, Fs, Fe1, Fe2, Fw1, Fw2].
#[inline]
fn v_fluxes(x: &Ctx, i: usize, j: usize) -> [f64; 6] {
    let (g, f) = (x.g, x.f);
    let ij = g.idx(i, j);
    let s = ij - g.nxt;
    let jn = if j + 1 < g.nyt { ij + g.nxt } else { ij };
    [
        0.5 * (f.Fy[ij] + f.Fy[jn]),
        0.5 * (f.Fy[s] + f.Fy[ij]),
        f.Fx[s + 1],
        f.Fx[ij + 1],
        f.Fx[s],
        f.Fx[ij],
    ]
}

/// (16) v̂(i,j) and d_v(i,j) of a solved v-face.
pub fn v_hat_cf(x: &Ctx, cv: &[f64], i: usize, j: usize) -> (f64, f64) {
    let (g, geo, k, c) = (x.g, x.geo, x.k, x.c);
    let nx = g.nxt;
    let ij = g.idx(i, j);
    let s = ij - nx;
    let jn = if j + 1 < g.nyt { ij + nx } else { ij };
    let (hys, hyp, hxp) = (g.hy[j - 1], g.hy[j], g.hx[i]);
    let ds = c.b * k.Gam[s] * hxp / hys;
    let dn = c.b * k.Gam[ij] * hxp / hyp;
    let (gcw, gce) = (x.gam_c2(i, j), x.gam_c2(i + 1, j));
    let (vw, dw) = if geo.solid(s - 1) && geo.solid(ij - 1) {
        (
            x.v_wall_gas(ij, ij - 1, 0.5 * hxp),
            c.b * gcw * (hys + hyp) / hxp,
        )
    } else {
        (k.v[ij - 1], c.b * gcw * (hys + hyp) / (g.hx[i - 1] + hxp))
    };
    let (ve, de) = if geo.solid(s + 1) && geo.solid(ij + 1) {
        (
            x.v_wall_gas(ij, ij + 1, 0.5 * hxp),
            c.b * gce * (hys + hyp) / hxp,
        )
    } else {
        (k.v[ij + 1], c.b * gce * (hys + hyp) / (hxp + g.hx[i + 1]))
    };
    // (21) cross-derivative source S_v (no gravity).
    let u = &k.u;
    let sv = c.b
        * (gce * (u[ij + 1] - u[s + 1])
            - gcw * (u[ij] - u[s])
            - TWO_THIRDS * k.Gam[ij] * (u[ij + 1] - u[ij])
            + TWO_THIRDS * k.Gam[s] * (u[s + 1] - u[s]));
    let m_k = (k.rho[s] * hys + k.rho[ij] * hyp) * hxp / (2.0 * x.dt);
    let m_n = (x.n.rho[s] * hys + x.n.rho[ij] * hyp) * hxp / (2.0 * x.dt);
    let (mut an, mut as_, mut ae, mut aw) = (FOUR_THIRDS * dn, FOUR_THIRDS * ds, de, dw);
    let mut ap_extra = m_k;
    let mut b = m_n * x.n.v[ij] + sv;
    if x.explicit {
        b -= cv[ij];
    } else {
        let fl = v_fluxes(x, i, j);
        let [fn_, fs, fe1, fe2, fw1, fw2] = fl;
        as_ += fs.max(0.0);
        an += (-fn_).max(0.0);
        aw += 0.5 * (fw1.max(0.0) + fw2.max(0.0));
        ae += 0.5 * ((-fe1).max(0.0) + (-fe2).max(0.0));
        ap_extra += (fn_ - fs) + 0.5 * (fe1 + fe2 - fw1 - fw2);
        if x.tvd {
            let t = v_tvd(x, i, j, fl);
            b -= fn_ * t[0] - fs * t[1] + 0.5 * (fe1 * t[2] + fe2 * t[3])
                - 0.5 * (fw1 * t[4] + fw2 * t[5]);
        }
    }
    let ap = an + as_ + ae + aw + ap_extra;
    let nb = as_ * k.v[s] + an * k.v[jn] + aw * vw + ae * ve;
    ((nb + b) / ap, c.a * hxp / ap)
}

/// Explicit scheme: C_vⁿ of the v-CV (i,j).
pub fn c_v_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, v) = (x.g, &x.k.v);
    let ij = g.idx(i, j);
    let nx = g.nxt;
    let jn = if j + 1 < g.nyt { ij + nx } else { ij };
    let fl = v_fluxes(x, i, j);
    let [fn_, fs, fe1, fe2, fw1, fw2] = fl;
    let t = if x.tvd { v_tvd(x, i, j, fl) } else { [0.0; 6] };
    let (ve, vw) = (v[ij + 1], v[ij - 1]);
    fn_ * (upwind(v[ij], v[jn], fn_) + t[0]) - fs * (upwind(v[ij - nx], v[ij], fs) + t[1])
        + 0.5 * (fe1 * (upwind(v[ij], ve, fe1) + t[2]) + fe2 * (upwind(v[ij], ve, fe2) + t[3]))
        - 0.5 * (fw1 * (upwind(vw, v[ij], fw1) + t[4]) + fw2 * (upwind(vw, v[ij], fw2) + t[5]))
}

/// Explicit scheme: C_u on every solved u-face (once per time step).
pub fn convective_u(x: &Ctx, out: &mut [f64]) {
    let g = x.g;
    for j in 1..=g.ny {
        for i in 1..g.nxt {
            let ij = g.idx(i, j);
            out[ij] = if x.geo.u_face[ij] == F_SOLVED {
                c_u_fc(x, i, j)
            } else {
                0.0
            };
        }
    }
}

/// Explicit scheme: C_v on every solved v-face.
pub fn convective_v(x: &Ctx, out: &mut [f64]) {
    let g = x.g;
    for j in 1..g.nyt {
        for i in 1..=g.nx {
            let ij = g.idx(i, j);
            out[ij] = if x.geo.v_face[ij] == F_SOLVED {
                c_v_cf(x, i, j)
            } else {
                0.0
            };
        }
    }
}
