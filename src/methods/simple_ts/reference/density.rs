//! (9)–(12) face densities, upwind and TVD, and (7)–(8) mass fluxes (spec §2.2–2.3).
//!
//! ```text
//!   ρ(i−2) | ρ(i−1) | ρ(i) | ρ(i+1)      ρu(i,j) sits on the face between i−1 and i
//!                   ^ u(i,j)
//! ```

use super::interior;
use super::ops::{tvd_s, upwind};
use super::rows::map_rows;
use super::{Ctx, Fluxes};
use crate::methods::simple_ts::geometry::{FLUID, SOLID};

/// TVD_s correction of a cell-centred field `phi` at the west face of cell (i,j) for face
/// velocity/flux `w`; zero unless cells i−2..i+1 are all computed fluid cells [CHOICE G8].
#[inline]
pub fn tvd_fc(x: &Ctx, phi: &[f64], i: usize, j: usize, w: f64) -> f64 {
    let (g, geo) = (x.g, x.geo);
    if i < 2 || i + 1 >= g.nxt {
        return 0.0;
    }
    let ij = g.idx(i, j);
    let (a, b, d) = (ij - 2, ij - 1, ij + 1);
    if ![a, b, ij, d].iter().all(|&c| geo.cell[c] == FLUID) {
        return 0.0;
    }
    let h = &g.hx;
    tvd_s(
        phi[a],
        phi[b],
        phi[ij],
        phi[d],
        h[i - 2],
        h[i - 1],
        h[i],
        h[i + 1],
        w,
    )
}

/// TVD_s correction of `phi` at the south face of cell (i,j), the transpose of [`tvd_fc`].
#[inline]
pub fn tvd_cf(x: &Ctx, phi: &[f64], i: usize, j: usize, w: f64) -> f64 {
    let (g, geo) = (x.g, x.geo);
    if j < 2 || j + 1 >= g.nyt {
        return 0.0;
    }
    let n = g.nxt;
    let ij = g.idx(i, j);
    let (a, b, d) = (ij - 2 * n, ij - n, ij + n);
    if ![a, b, ij, d].iter().all(|&c| geo.cell[c] == FLUID) {
        return 0.0;
    }
    let h = &g.hy;
    tvd_s(
        phi[a],
        phi[b],
        phi[ij],
        phi[d],
        h[j - 2],
        h[j - 1],
        h[j],
        h[j + 1],
        w,
    )
}

/// (9)/(11) density at the u-face (i,j): upwind between cells i−1 and i, the fluid cell's ρ
/// next to a solid, 0 between two solids; plus the TVD_s correction (spec §2.3).
#[inline]
pub fn rho_fc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo, k) = (x.g, x.geo, x.k);
    let ij = g.idx(i, j);
    let w = g.idx(i.saturating_sub(1), j);
    match (geo.solid(w), geo.solid(ij)) {
        (true, true) => 0.0,
        (true, false) => k.rho[ij],
        (false, true) => k.rho[w],
        (false, false) => {
            let up = upwind(k.rho[w], k.rho[ij], k.u[ij]);
            if x.tvd {
                up + tvd_fc(x, &k.rho, i, j, k.u[ij])
            } else {
                up
            }
        }
    }
}

/// (10)/(12) density at the v-face (i,j), the transpose of [`rho_fc`].
#[inline]
pub fn rho_cf(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo, k) = (x.g, x.geo, x.k);
    let ij = g.idx(i, j);
    let s = g.idx(i, j.saturating_sub(1));
    match (geo.solid(s), geo.solid(ij)) {
        (true, true) => 0.0,
        (true, false) => k.rho[ij],
        (false, true) => k.rho[s],
        (false, false) => {
            let up = upwind(k.rho[s], k.rho[ij], k.v[ij]);
            if x.tvd {
                up + tvd_cf(x, &k.rho, i, j, k.v[ij])
            } else {
                up
            }
        }
    }
}

/// (7) mass flux through the west face of cell (i,j) with the face density `ru`: hy ρu u.
#[inline(always)]
pub fn Fx_fc(x: &Ctx, ru: f64, i: usize, j: usize) -> f64 {
    x.g.hy[j] * ru * x.k.u[x.g.idx(i, j)]
}

/// (8) mass flux through the south face of cell (i,j) with the face density `rv`: hx ρv v.
#[inline(always)]
pub fn Fy_cf(x: &Ctx, rv: f64, i: usize, j: usize) -> f64 {
    x.g.hx[i] * rv * x.k.v[x.g.idx(i, j)]
}

/// ρu, ρv of row `j` into the row slices `ru`, `rv`: upwind faces between two cells that are
/// not solid over row slices (the plain branches of [`rho_fc`], [`rho_cf`]), the rest, the
/// west column, the south row and TVD runs through the fragments.
fn densities_row(x: &Ctx, j: usize, ru: &mut [f64], rv: &mut [f64]) {
    let nx = x.g.nxt;
    if x.tvd || j == 0 {
        for i in 0..nx {
            (ru[i], rv[i]) = (rho_fc(x, i, j), rho_cf(x, i, j));
        }
        return;
    }
    let row = |a, jj| interior::row(a, jj, nx);
    let cell = &x.geo.cell;
    let (cs, cp) = (&cell[(j - 1) * nx..j * nx], &cell[j * nx..(j + 1) * nx]);
    let (rs, rp) = (row(&x.k.rho, j - 1), row(&x.k.rho, j));
    let (up, vp) = (row(&x.k.u, j), row(&x.k.v, j));
    assert!(ru.len() == nx && rv.len() == nx);
    ru[0] = rho_fc(x, 0, j);
    for i in 1..nx {
        ru[i] = if cp[i - 1] != SOLID && cp[i] != SOLID {
            upwind(rp[i - 1], rp[i], up[i])
        } else {
            rho_fc(x, i, j)
        };
    }
    for i in 0..nx {
        rv[i] = if cs[i] != SOLID && cp[i] != SOLID {
            upwind(rs[i], rp[i], vp[i])
        } else {
            rho_cf(x, i, j)
        };
    }
}

/// Fx (7), Fy (8) of row `j` from the row's face densities `ru`, `rv` (the expressions of
/// [`Fx_fc`], [`Fy_cf`] over row slices).
fn fluxes_row(x: &Ctx, j: usize, ru: &[f64], rv: &[f64], fx: &mut [f64], fy: &mut [f64]) {
    let nx = x.g.nxt;
    let (up, vp) = (interior::row(&x.k.u, j, nx), interior::row(&x.k.v, j, nx));
    let (hx, hy) = (&x.g.hx[..nx], x.g.hy[j]);
    assert!(ru.len() == nx && rv.len() == nx && fx.len() == nx && fy.len() == nx);
    for i in 0..nx {
        fx[i] = hy * ru[i] * up[i];
        fy[i] = hx[i] * rv[i] * vp[i];
    }
}

/// Rebuild all face densities and the mass fluxes Fx (7), Fy (8) of iterate `x.k` into `out`
/// (rows on rayon's threads when `x.par`; `x.f` is not read).
pub fn face_densities(x: &Ctx, out: &mut Fluxes) {
    let g = x.g;
    let outs = [
        &mut out.rho_u[..],
        &mut out.rho_v[..],
        &mut out.Fx[..],
        &mut out.Fy[..],
    ];
    map_rows(x.par, g.nxt, outs, 0..g.nyt, |j, [ru, rv, fx, fy]| {
        densities_row(x, j, ru, rv);
        fluxes_row(x, j, ru, rv, fx, fy);
    });
}

/// The face densities ρu, ρv of iterate `x.k` into `out`, without the fluxes (see
/// [`face_densities`]).
pub fn densities_only(x: &Ctx, out: &mut Fluxes) {
    let g = x.g;
    let outs = [&mut out.rho_u[..], &mut out.rho_v[..]];
    map_rows(x.par, g.nxt, outs, 0..g.nyt, |j, [ru, rv]| {
        densities_row(x, j, ru, rv);
    });
}

/// The mass fluxes Fx (7), Fy (8) from the face densities stored in `out` and the
/// velocities of `x.k`.
pub fn mass_fluxes(x: &Ctx, out: &mut Fluxes) {
    let g = x.g;
    let Fluxes {
        rho_u,
        rho_v,
        Fx,
        Fy,
        ..
    } = out;
    let (rho_u, rho_v) = (&rho_u[..], &rho_v[..]);
    let nx = g.nxt;
    map_rows(
        x.par,
        nx,
        [&mut Fx[..], &mut Fy[..]],
        0..g.nyt,
        |j, [fx, fy]| {
            let (ru, rv) = (interior::row(rho_u, j, nx), interior::row(rho_v, j, nx));
            fluxes_row(x, j, ru, rv, fx, fy);
        },
    );
}
