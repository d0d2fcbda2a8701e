//! (9)–(12) face densities, upwind and TVD, and (7)–(8) mass fluxes (spec §2.2–2.3).
//!
//! ```text
//!   ρ(i−2) | ρ(i−1) | ρ(i) | ρ(i+1)      ρu(i,j) sits on the face between i−1 and i
//!                   ^ u(i,j)
//! ```

use super::ops::{tvd_s, upwind};
use super::rows::map_rows;
use super::Fluxes;
use crate::grid::Grid;
use crate::methods::simple_ts::fields::Fields;
use crate::methods::simple_ts::geometry::{Geometry, FLUID};

/// TVD_s correction of a cell-centred field `phi` at the west face of cell (i,j) for face
/// velocity/flux `w`; zero unless cells i−2..i+1 are all computed fluid cells [CHOICE G8].
#[inline]
pub fn tvd_fc(g: &Grid, geo: &Geometry, phi: &[f64], i: usize, j: usize, w: f64) -> f64 {
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
pub fn tvd_cf(g: &Grid, geo: &Geometry, phi: &[f64], i: usize, j: usize, w: f64) -> f64 {
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
pub fn rho_fc(g: &Grid, geo: &Geometry, k: &Fields, tvd: bool, i: usize, j: usize) -> f64 {
    let ij = g.idx(i, j);
    let w = g.idx(i.saturating_sub(1), j);
    match (geo.solid(w), geo.solid(ij)) {
        (true, true) => 0.0,
        (true, false) => k.rho[ij],
        (false, true) => k.rho[w],
        (false, false) => {
            let up = upwind(k.rho[w], k.rho[ij], k.u[ij]);
            if tvd {
                up + tvd_fc(g, geo, &k.rho, i, j, k.u[ij])
            } else {
                up
            }
        }
    }
}

/// (10)/(12) density at the v-face (i,j), the transpose of [`rho_fc`].
#[inline]
pub fn rho_cf(g: &Grid, geo: &Geometry, k: &Fields, tvd: bool, i: usize, j: usize) -> f64 {
    let ij = g.idx(i, j);
    let s = g.idx(i, j.saturating_sub(1));
    match (geo.solid(s), geo.solid(ij)) {
        (true, true) => 0.0,
        (true, false) => k.rho[ij],
        (false, true) => k.rho[s],
        (false, false) => {
            let up = upwind(k.rho[s], k.rho[ij], k.v[ij]);
            if tvd {
                up + tvd_cf(g, geo, &k.rho, i, j, k.v[ij])
            } else {
                up
            }
        }
    }
}

/// Rebuild all face densities and the mass fluxes Fx = hy ρu u (7), Fy = hx ρv v (8); rows on
/// rayon's threads when `par` is set.
pub fn face_densities(
    g: &Grid,
    geo: &Geometry,
    k: &Fields,
    tvd: bool,
    par: bool,
    out: &mut Fluxes,
) {
    if par {
        let outs = [
            &mut out.rho_u[..],
            &mut out.rho_v[..],
            &mut out.Fx[..],
            &mut out.Fy[..],
        ];
        map_rows(par, g.nxt, outs, 0..g.nyt, |j, [ru, rv, fx, fy]| {
            for i in 0..g.nxt {
                (ru[i], rv[i], fx[i], fy[i]) = face_cell(g, geo, k, tvd, i, j);
            }
        });
        return;
    }
    for j in 0..g.nyt {
        for i in 0..g.nxt {
            let ij = g.idx(i, j);
            let ru = rho_fc(g, geo, k, tvd, i, j);
            let rv = rho_cf(g, geo, k, tvd, i, j);
            out.rho_u[ij] = ru;
            out.rho_v[ij] = rv;
            out.Fx[ij] = g.hy[j] * ru * k.u[ij];
            out.Fy[ij] = g.hx[i] * rv * k.v[ij];
        }
    }
}

/// ρu, ρv, Fx, Fy of the faces of cell (i,j).
#[inline(always)]
fn face_cell(
    g: &Grid,
    geo: &Geometry,
    k: &Fields,
    tvd: bool,
    i: usize,
    j: usize,
) -> (f64, f64, f64, f64) {
    let ij = g.idx(i, j);
    let ru = rho_fc(g, geo, k, tvd, i, j);
    let rv = rho_cf(g, geo, k, tvd, i, j);
    (ru, rv, g.hy[j] * ru * k.u[ij], g.hx[i] * rv * k.v[ij])
}
