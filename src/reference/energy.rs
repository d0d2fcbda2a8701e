//! (24)–(30) energy equation in the temperature form, multiplied by Δt (spec §2.6).
//!
//! ```text
//!              T(i,j+1)
//!   T(i−1,j) | T(i,j) | T(i+1,j)     faces: u(i,j) west, u(i+1,j) east,
//!              T(i,j−1)                     v(i,j) south, v(i,j+1) north
//! ```
//! A solid neighbour is a wall face: its T_nb is the jump temperature T_s (43), its conductance
//! uses √T_s at half a cell, and its convective flux is zero.

use super::density::{tvd_cf, tvd_fc};
use super::ops::{hi, upwind};
use super::{Ctx, Work};
use crate::config::WallBc;
use crate::geometry::FLUID;

/// Shear strain rate at the corner (x_f[i'], y_f[j']) (spec §2.6), with the wall gas velocity
/// at half a cell where a wall runs through the corner's row or column pair.
#[inline]
pub fn corner_shear(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, geo, k) = (x.g, x.geo, x.k);
    let nx = g.nxt;
    let ne = g.idx(i, j);
    let (nw, se, sw) = (ne - 1, ne - nx, ne - nx - 1);
    let (ssw, sse, snw, sne) = (geo.solid(sw), geo.solid(se), geo.solid(nw), geo.solid(ne));
    let du_dy = if ssw && sse {
        let hh = 0.5 * g.hy[j];
        (k.u[ne] - x.u_wall_gas(ne, se, hh)) / hh
    } else if snw && sne {
        let hh = 0.5 * g.hy[j - 1];
        (x.u_wall_gas(se, ne, hh) - k.u[se]) / hh
    } else {
        (k.u[ne] - k.u[se]) / (0.5 * (g.hy[j - 1] + g.hy[j]))
    };
    let dv_dx = if ssw && snw {
        let hh = 0.5 * g.hx[i];
        (k.v[ne] - x.v_wall_gas(ne, nw, hh)) / hh
    } else if sse && sne {
        let hh = 0.5 * g.hx[i - 1];
        (x.v_wall_gas(nw, ne, hh) - k.v[nw]) / hh
    } else {
        (k.v[ne] - k.v[nw]) / (0.5 * (g.hx[i - 1] + g.hx[i]))
    };
    du_dy + dv_dx
}

/// (28)-(29) dissipation Φ_h of cell (i,j): centre normal strains and the mean of the four
/// corner shears squared.
#[inline]
pub fn phi_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, k) = (x.g, x.k);
    let ij = g.idx(i, j);
    let du = (k.u[ij + 1] - k.u[ij]) / g.hx[i];
    let dv = (k.v[ij + g.nxt] - k.v[ij]) / g.hy[j];
    let s: f64 = [(i, j), (i + 1, j), (i, j + 1), (i + 1, j + 1)]
        .iter()
        .map(|&(a, b)| {
            let s = corner_shear(x, a, b);
            s * s
        })
        .sum();
    2.0 * (du * du + dv * dv) + 0.25 * s - 2.0 / 3.0 * (du + dv) * (du + dv)
}

/// One face of the energy CV: (conductance DT, neighbour T for a wall face or None).
#[inline]
fn face_dt(x: &Ctx, p: usize, nb: usize, len: f64, h_p: f64, h_nb: f64) -> (f64, Option<f64>) {
    let geo = x.geo;
    if geo.solid(nb) {
        if geo.wall(nb).bc == WallBc::Adiabatic {
            return (0.0, Some(0.0));
        }
        let hh = 0.5 * h_p;
        let ts = x.T_wall_gas(p, nb, hh);
        (x.c.ct1 * len * ts.sqrt() / hh, Some(ts))
    } else {
        // (26)-(27) harmonic mean of Γ_λ = √T between the two centres.
        let gl = hi(x.k.Gam[nb], x.k.Gam[p], h_nb, h_p);
        (x.c.ct1 * len * gl / (0.5 * (h_nb + h_p)), None)
    }
}

/// Build the loop-3 coefficients of the energy equation for every fluid cell.
pub fn energy_coeffs(x: &Ctx, w: &mut Work) {
    let (g, geo, k, f, dt) = (x.g, x.geo, x.k, x.f, x.dt);
    let nx = g.nxt;
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let p = g.idx(i, j);
            if geo.cell[p] != FLUID {
                continue;
            }
            let (hx, hy) = (g.hx[i], g.hy[j]);
            let vol = hx * hy;
            let nbs = [
                (p - 1, hy, hx, g.hx[i - 1]),
                (p + 1, hy, hx, g.hx[i + 1]),
                (p - nx, hx, hy, g.hy[j - 1]),
                (p + nx, hx, hy, g.hy[j + 1]),
            ];
            // Fluxes out of the CV are positive for the east/north faces.
            let (fw, fe, fs, fn_) = (f.Fx[p], f.Fx[p + 1], f.Fy[p], f.Fy[p + nx]);
            let conv = [fw.max(0.0), (-fe).max(0.0), fs.max(0.0), (-fn_).max(0.0)];
            let mut a = [0.0; 4];
            let mut diag = 0.0;
            let mut b = 0.0;
            for (m, &(nb, len, hp, hn)) in nbs.iter().enumerate() {
                let (d, wall) = face_dt(x, p, nb, len, hp, hn);
                match wall {
                    Some(ts) => {
                        diag += d;
                        b += d * ts;
                    }
                    None => {
                        a[m] = d + if x.explicit { 0.0 } else { conv[m] };
                        diag += a[m];
                    }
                }
            }
            if !x.explicit {
                diag += fe - fw + fn_ - fs;
            }
            let mut src = dt * x.c.ct2 * k.Gam[p] * vol * phi_cc(x, i, j) + x.n.p[p] * vol;
            if x.explicit {
                src -= dt * w.CT[p];
            } else if x.tvd {
                // [CHOICE G7] deferred TVD correction with iterate-k temperatures.
                let t = &k.T;
                let c = fe * tvd_fc(g, geo, t, i + 1, j, fe) - fw * tvd_fc(g, geo, t, i, j, fw)
                    + fn_ * tvd_cf(g, geo, t, i, j + 1, fn_)
                    - fs * tvd_cf(g, geo, t, i, j, fs);
                src -= dt * c;
            }
            w.tW[p] = dt * a[0];
            w.tE[p] = dt * a[1];
            w.tS[p] = dt * a[2];
            w.tN[p] = dt * a[3];
            w.tP[p] = k.rho[p] * vol + dt * diag;
            w.tB[p] = dt * b + src;
            let div = (k.u[p + 1] - k.u[p]) * hy + (k.v[p + nx] - k.v[p]) * hx;
            w.tDiv[p] = dt * x.c.ct3 * div;
        }
    }
}

/// One Jacobi evaluation of (24) at fluid cell `p` from loop-3 buffers.
#[inline(always)]
pub fn T_cc(w: &Work, nx: usize, p: usize) -> f64 {
    let t = &w.T_old;
    (w.tW[p] * t[p - 1]
        + w.tE[p] * t[p + 1]
        + w.tS[p] * t[p - nx]
        + w.tN[p] * t[p + nx]
        + w.tB[p]
        + w.tDiv[p] * w.p_old[p])
        / w.tP[p]
}

/// Explicit scheme (30): C_Tⁿ of every fluid cell from level n (called when k equals n).
pub fn convective_T(x: &Ctx, out: &mut [f64]) {
    let (g, geo, f, t) = (x.g, x.geo, x.f, &x.k.T);
    let nx = g.nxt;
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let p = g.idx(i, j);
            if geo.cell[p] != FLUID {
                out[p] = 0.0;
                continue;
            }
            let (fw, fe, fs, fn_) = (f.Fx[p], f.Fx[p + 1], f.Fy[p], f.Fy[p + nx]);
            let face = |a: f64, b: f64, fl: f64, corr: f64| fl * (upwind(a, b, fl) + corr);
            let (tvd_e, tvd_w, tvd_n, tvd_s) = if x.tvd {
                (
                    tvd_fc(g, geo, t, i + 1, j, fe),
                    tvd_fc(g, geo, t, i, j, fw),
                    tvd_cf(g, geo, t, i, j + 1, fn_),
                    tvd_cf(g, geo, t, i, j, fs),
                )
            } else {
                (0.0, 0.0, 0.0, 0.0)
            };
            out[p] = face(t[p], t[p + 1], fe, tvd_e) - face(t[p - 1], t[p], fw, tvd_w)
                + face(t[p], t[p + nx], fn_, tvd_n)
                - face(t[p - nx], t[p], fs, tvd_s);
        }
    }
}
