//! (24)–(30) energy equation in the temperature form, multiplied by Δt (spec §2.6).
//!
//! ```text
//!              T(i,j+1)
//!   T(i−1,j) | T(i,j) | T(i+1,j)     faces: u(i,j) west, u(i+1,j) east,
//!              T(i,j−1)                     v(i,j) south, v(i,j+1) north
//! ```
//! A solid neighbour is a wall face: its T_nb is the jump temperature T_s (43), its conductance
//! uses √T_s at half a cell, and its convective flux is zero.

use super::bc::{u_wall_gas, v_wall_gas, T_wall_gas};
use super::density::{tvd_cf, tvd_fc};
use super::interior;
use super::ops::{hi, upwind};
use super::plain::{row_runs, split};
use super::rows::map_rows;
use super::{Ctx, Work};
use crate::grid::Grid;
use crate::methods::simple_ts::case::{Defect, Thermal};
use crate::methods::simple_ts::geometry::FLUID;

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
        (k.u[ne] - u_wall_gas(x, i, j, i, j - 1, hh)) / hh
    } else if snw && sne {
        let hh = 0.5 * g.hy[j - 1];
        (u_wall_gas(x, i, j - 1, i, j, hh) - k.u[se]) / hh
    } else {
        (k.u[ne] - k.u[se]) / (0.5 * (g.hy[j - 1] + g.hy[j]))
    };
    let dv_dx = if ssw && snw {
        let hh = 0.5 * g.hx[i];
        (k.v[ne] - v_wall_gas(x, i, j, i - 1, j, hh)) / hh
    } else if sse && sne {
        let hh = 0.5 * g.hx[i - 1];
        (v_wall_gas(x, i - 1, j, i, j, hh) - k.v[nw]) / hh
    } else {
        (k.v[ne] - k.v[nw]) / (0.5 * (g.hx[i - 1] + g.hx[i]))
    };
    du_dy + dv_dx
}

/// (28)-(29) dissipation Φ_h of cell (i,j): centre normal strains and the mean of the four
/// corner shears squared.
#[inline]
pub fn phi_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    if x.geo.compat.has(Defect::CornerSlipGhosts) && near_solid(x, i, j) {
        return phi_cpp(x, i, j);
    }
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

/// True if one of the eight cells around cell (i,j) is solid.
#[inline(always)]
fn near_solid(x: &Ctx, i: usize, j: usize) -> bool {
    (j - 1..=j + 1).any(|b| (i - 1..=i + 1).any(|a| x.geo.solid(x.g.idx(a, b))))
}

/// u at face (i,j) as the authors' C++ code stores it: the velocity, or the slot value of a
/// convex corner's wall face; between two solid cells the slip gas velocity of the gas face
/// below (else above) where both cells there are gas, else the wall's velocity.
#[inline]
fn u_stored(x: &Ctx, i: usize, j: usize) -> f64 {
    let g = x.g;
    let s = |a: usize, b: usize| x.geo.solid(g.idx(a, b));
    if !(s(i - 1, j) && s(i, j)) {
        x.k.u[g.idx(i, j)]
    } else if j >= 1 && !s(i - 1, j - 1) && !s(i, j - 1) {
        u_wall_gas(x, i, j - 1, i, j, 0.5 * g.hy[j - 1])
    } else if j + 1 < g.nyt && !s(i - 1, j + 1) && !s(i, j + 1) {
        u_wall_gas(x, i, j + 1, i, j, 0.5 * g.hy[j + 1])
    } else {
        x.geo.wall(g.idx(i, j)).u
    }
}

/// v at face (i,j) as the C++ code stores it, the transpose of [`u_stored`].
#[inline]
fn v_stored(x: &Ctx, i: usize, j: usize) -> f64 {
    let g = x.g;
    let s = |a: usize, b: usize| x.geo.solid(g.idx(a, b));
    if !(s(i, j - 1) && s(i, j)) {
        x.k.v[g.idx(i, j)]
    } else if i >= 1 && !s(i - 1, j - 1) && !s(i - 1, j) {
        v_wall_gas(x, i - 1, j, i, j, 0.5 * g.hx[i - 1])
    } else if i + 1 < g.nxt && !s(i + 1, j - 1) && !s(i + 1, j) {
        v_wall_gas(x, i + 1, j, i, j, 0.5 * g.hx[i + 1])
    } else {
        x.geo.wall(g.idx(i, j)).v
    }
}

/// Φ_h of a cell next to a solid as the C++ code evaluates it (compat `corner_slip_ghosts`,
/// its L3720–3745): the normal strains read 0 for a wall face, and each of the four corner
/// shears takes the stored velocities (slot values at convex corners) over the distance
/// `[both cells across are gas]·h_far + h_near`, as seen from this cell.
#[inline]
fn phi_cpp(x: &Ctx, i: usize, j: usize) -> f64 {
    let g = x.g;
    let f = |a: usize, b: usize| !x.geo.solid(g.idx(a, b));
    let fl = |a: usize, b: usize| if f(a, b) { 1.0 } else { 0.0 };
    let (hx, hy) = (&g.hx, &g.hy);
    let du = (fl(i + 1, j) * u_stored(x, i + 1, j) - fl(i - 1, j) * u_stored(x, i, j)) / hx[i];
    let dv = (fl(i, j + 1) * v_stored(x, i, j + 1) - fl(i, j - 1) * v_stored(x, i, j)) / hy[j];
    let dy = |ok: bool, h: f64| if ok { h } else { 0.0 };
    // Subvolumes 0 (SW), 1 (SE), 2 (NW), 3 (NE).
    let s0 = (u_stored(x, i, j) - u_stored(x, i, j - 1))
        / (dy(f(i - 1, j - 1) && f(i, j - 1), hy[j - 1]) + hy[j])
        + (v_stored(x, i, j) - v_stored(x, i - 1, j))
            / (dy(f(i - 1, j - 1) && f(i - 1, j), hx[i - 1]) + hx[i]);
    let s1 = (u_stored(x, i + 1, j) - u_stored(x, i + 1, j - 1))
        / (dy(f(i, j - 1) && f(i + 1, j - 1), hy[j - 1]) + hy[j])
        + (v_stored(x, i + 1, j) - v_stored(x, i, j))
            / (hx[i] + dy(f(i + 1, j - 1) && f(i + 1, j), hx[i + 1]));
    let s2 = (u_stored(x, i, j + 1) - u_stored(x, i, j))
        / (hy[j] + dy(f(i - 1, j + 1) && f(i, j + 1), hy[j + 1]))
        + (v_stored(x, i, j + 1) - v_stored(x, i - 1, j + 1))
            / (dy(f(i - 1, j) && f(i - 1, j + 1), hx[i - 1]) + hx[i]);
    let s3 = (u_stored(x, i + 1, j + 1) - u_stored(x, i + 1, j))
        / (hy[j] + dy(f(i, j + 1) && f(i + 1, j + 1), hy[j + 1]))
        + (v_stored(x, i + 1, j + 1) - v_stored(x, i, j + 1))
            / (hx[i] + dy(f(i + 1, j) && f(i + 1, j + 1), hx[i + 1]));
    2.0 * (du * du + dv * dv) + s0 * s0 + s1 * s1 + s2 * s2 + s3 * s3
        - 2.0 / 3.0 * (du + dv) * (du + dv)
}

// The coefficients of (24) are split into scalar pieces, one per `cl/simple_ts/energy.cl` macro of the
// same name, so a kernel can keep the four conductances in registers and give the same doubles;
// `energy_coeffs` puts them together for the serial sweep. Face `m` of the CV (i,j) is
// 0 west, 1 east, 2 south, 3 north.

/// Face `m` of cell (i,j): (neighbour's stored index, face length, h of (i,j), h of the
/// neighbour) along the face normal.
#[inline(always)]
fn face_geom(g: &Grid, i: usize, j: usize, m: usize) -> (usize, f64, f64, f64) {
    let (p, nx) = (g.idx(i, j), g.nxt);
    match m {
        0 => (p - 1, g.hy[j], g.hx[i], g.hx[i - 1]),
        1 => (p + 1, g.hy[j], g.hx[i], g.hx[i + 1]),
        2 => (p - nx, g.hx[i], g.hy[j], g.hy[j - 1]),
        _ => (p + nx, g.hx[i], g.hy[j], g.hy[j + 1]),
    }
}

/// The cell (i, j) across face `m` of cell (i,j).
#[inline(always)]
fn face_cell(i: usize, j: usize, m: usize) -> (usize, usize) {
    match m {
        0 => (i - 1, j),
        1 => (i + 1, j),
        2 => (i, j - 1),
        _ => (i, j + 1),
    }
}

/// (26)-(27) conductance D_T of face `m` of the energy CV (i,j): C_T1 len Hi(Γ)/distance
/// True if the solid `nb` is an adiabatic wall without conductance: the corrected method. The
/// authors' C++ code (compat `adiabatic_wall_as_lagged_value`) gives it the conductance of a
/// fixed wall at the gas cell's own temperature of the previous iteration, a zero flux only
/// once loop 2 has converged.
#[inline(always)]
fn insulated(x: &Ctx, nb: usize) -> bool {
    x.geo.wall(nb).thermal == Thermal::Adiabatic
        && !x.geo.compat.has(Defect::AdiabaticWallAsLaggedValue)
}

/// between two fluid cells; across a wall √T_s at half a cell, 0 for an adiabatic wall.
#[inline]
pub fn dT_cc(x: &Ctx, i: usize, j: usize, m: usize) -> f64 {
    let (geo, ct1) = (x.geo, x.c.ct1);
    let p = x.g.idx(i, j);
    let (nb, len, h_p, h_nb) = face_geom(x.g, i, j, m);
    if geo.solid(nb) {
        if insulated(x, nb) {
            return 0.0;
        }
        let hh = 0.5 * h_p;
        let (si, sj) = face_cell(i, j, m);
        let ts = T_wall_gas(x, i, j, si, sj, hh);
        ct1 * len * ts.sqrt() / hh
    } else {
        // (26)-(27) harmonic mean of Γ_λ = √T between the two centres.
        let gl = hi(x.k.Gam[nb], x.k.Gam[p], h_nb, h_p);
        ct1 * len * gl / (0.5 * (h_nb + h_p))
    }
}

/// (43) T_nb of face `m` where the neighbour is solid: the wall gas temperature T_s at half a
/// cell, 0 for an adiabatic wall (whose conductance is 0).
#[inline(always)]
pub fn Ts_cc(x: &Ctx, i: usize, j: usize, m: usize) -> f64 {
    let (nb, _, h_p, _) = face_geom(x.g, i, j, m);
    if insulated(x, nb) {
        0.0
    } else {
        let (si, sj) = face_cell(i, j, m);
        T_wall_gas(x, i, j, si, sj, 0.5 * h_p)
    }
}

/// (25) a_nb of face `m` (before ×Δt) with conductance `d`: 0 across a wall, else `d` plus the
/// upwind inflow when implicit.
#[inline(always)]
pub fn aT_cc(x: &Ctx, i: usize, j: usize, m: usize, d: f64) -> f64 {
    let g = x.g;
    let p = g.idx(i, j);
    let nb = face_geom(g, i, j, m).0;
    if x.geo.solid(nb) {
        return 0.0;
    }
    d + if x.explicit { 0.0 } else { inflow(x, p, m) }
}

/// The upwind inflow max(0, ±F) through face `m` of the CV at stored index `p`.
#[inline(always)]
fn inflow(x: &Ctx, p: usize, m: usize) -> f64 {
    let f = x.f;
    // Fluxes out of the CV are positive for the east/north faces.
    match m {
        0 => f.Fx[p].max(0.0),
        1 => (-f.Fx[p + 1]).max(0.0),
        2 => f.Fy[p].max(0.0),
        _ => (-f.Fy[p + x.g.nxt]).max(0.0),
    }
}

/// The coefficient of the wall gas temperature T_s on the wall face `m` with conductance `d`:
/// `d`, as a wall face carries no flux. The authors' C++ code (compat `corner_slip_ghosts`)
/// adds the upwind inflow of the flux its slot velocity carries through a convex body corner's
/// wall face (0 on every other wall face).
#[inline(always)]
fn wall_coeff(x: &Ctx, i: usize, j: usize, m: usize, d: f64) -> f64 {
    if x.explicit || !x.geo.compat.has(Defect::CornerSlipGhosts) {
        d
    } else {
        d + inflow(x, x.g.idx(i, j), m)
    }
}

/// Δt a_W of the energy CV (i,j) with west conductance `dw`.
#[inline]
pub fn tW_cc(x: &Ctx, i: usize, j: usize, dw: f64) -> f64 {
    x.dt * aT_cc(x, i, j, 0, dw)
}

/// Δt a_E with east conductance `de`.
#[inline]
pub fn tE_cc(x: &Ctx, i: usize, j: usize, de: f64) -> f64 {
    x.dt * aT_cc(x, i, j, 1, de)
}

/// Δt a_S with south conductance `ds`.
#[inline]
pub fn tS_cc(x: &Ctx, i: usize, j: usize, ds: f64) -> f64 {
    x.dt * aT_cc(x, i, j, 2, ds)
}

/// Δt a_N with north conductance `dn`.
#[inline]
pub fn tN_cc(x: &Ctx, i: usize, j: usize, dn: f64) -> f64 {
    x.dt * aT_cc(x, i, j, 3, dn)
}

/// Left side of (24): ρ^k V + Δt diag, diag accumulated W, E, S, N (the conductance of a wall
/// face, a_nb of a fluid one), plus the net outflow when implicit.
#[inline]
pub fn tP_cc(x: &Ctx, i: usize, j: usize, dw: f64, de: f64, ds: f64, dn: f64) -> f64 {
    let (g, f) = (x.g, x.f);
    let (p, nx) = (g.idx(i, j), g.nxt);
    let mut diag = 0.0;
    for (m, d) in [dw, de, ds, dn].into_iter().enumerate() {
        diag += if x.geo.solid(face_geom(g, i, j, m).0) {
            wall_coeff(x, i, j, m, d)
        } else {
            aT_cc(x, i, j, m, d)
        };
    }
    if !x.explicit {
        let (fw, fe, fs, fn_) = (f.Fx[p], f.Fx[p + 1], f.Fy[p], f.Fy[p + nx]);
        diag += fe - fw + fn_ - fs;
    }
    x.k.rho[p] * (g.hx[i] * g.hy[j]) + x.dt * diag
}

/// Right side of (24) with the conductances: Δt Σ_walls D_T T_s (W, E, S, N) + Δt C_T2 Γ V Φ
/// + pⁿ V, minus Δt C_T (explicit, from `ct`) or the deferred TVD correction (implicit TVD).
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn tB_cc(x: &Ctx, i: usize, j: usize, dw: f64, de: f64, ds: f64, dn: f64) -> f64 {
    let (g, geo, k, f, dt) = (x.g, x.geo, x.k, x.f, x.dt);
    let (p, nx) = (g.idx(i, j), g.nxt);
    let vol = g.hx[i] * g.hy[j];
    let mut b = 0.0;
    for (m, d) in [dw, de, ds, dn].into_iter().enumerate() {
        b += if geo.solid(face_geom(g, i, j, m).0) {
            wall_coeff(x, i, j, m, d) * Ts_cc(x, i, j, m)
        } else {
            0.0
        };
    }
    let mut src = dt * x.c.ct2 * k.Gam[p] * vol * phi_cc(x, i, j) + x.n.p[p] * vol;
    if x.explicit {
        src -= dt * x.ex.ct[p];
    } else if x.tvd {
        // [CHOICE G7] deferred TVD correction with iterate-k temperatures.
        let (fw, fe, fs, fn_) = (f.Fx[p], f.Fx[p + 1], f.Fy[p], f.Fy[p + nx]);
        let t = &k.T;
        let c = fe * tvd_fc(x, t, i + 1, j, fe) - fw * tvd_fc(x, t, i, j, fw)
            + fn_ * tvd_cf(x, t, i, j + 1, fn_)
            - fs * tvd_cf(x, t, i, j, fs);
        src -= dt * c;
    }
    dt * b + src
}

/// Δt C_T3 × the discrete divergence of cell (i,j): multiplies p(i,j) in the compression work.
#[inline]
pub fn tDiv_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, k) = (x.g, x.k);
    let p = g.idx(i, j);
    let div = (k.u[p + 1] - k.u[p]) * g.hy[j] + (k.v[p + g.nxt] - k.v[p]) * g.hx[i];
    x.dt * x.c.ct3 * div
}

/// The loop-3 coefficients of the energy equation at fluid cell (i,j):
/// [tW, tE, tS, tN, tP, tB, tDiv].
#[inline(always)]
fn energy_cell(x: &Ctx, i: usize, j: usize) -> [f64; 7] {
    let [dw, de, ds, dn] = [0, 1, 2, 3].map(|m| dT_cc(x, i, j, m));
    [
        tW_cc(x, i, j, dw),
        tE_cc(x, i, j, de),
        tS_cc(x, i, j, ds),
        tN_cc(x, i, j, dn),
        tP_cc(x, i, j, dw, de, ds, dn),
        tB_cc(x, i, j, dw, de, ds, dn),
        tDiv_cc(x, i, j),
    ]
}

/// Build the loop-3 coefficients of the energy equation for every fluid cell (rows on
/// rayon's threads when `x.par`).
pub fn energy_coeffs(x: &Ctx, w: &mut Work) {
    let (g, geo) = (x.g, x.geo);
    let outs = [
        &mut w.tW[..],
        &mut w.tE[..],
        &mut w.tS[..],
        &mut w.tN[..],
        &mut w.tP[..],
        &mut w.tB[..],
        &mut w.tDiv[..],
    ];
    map_rows(
        x.par,
        g.nxt,
        outs,
        1..g.ny + 1,
        |j, [tw, te, ts, tn, tp, tb, tdiv]| {
            // Interior runs (implicit upwind only) in one loop, the other cells one by one.
            let runs = row_runs(&x.pl.t, j, !x.explicit && !x.tvd);
            split(1, g.nx + 1, runs, |r, inner| {
                if inner {
                    return interior::t_run(x, j, r, [tw, te, ts, tn, tp, tb, tdiv]);
                }
                for i in r {
                    if geo.cell[g.idx(i, j)] != FLUID {
                        continue;
                    }
                    // Direct stores: measured faster than through `energy_cell`'s array.
                    let [dw, de, ds, dn] = [0, 1, 2, 3].map(|m| dT_cc(x, i, j, m));
                    tw[i] = tW_cc(x, i, j, dw);
                    te[i] = tE_cc(x, i, j, de);
                    ts[i] = tS_cc(x, i, j, ds);
                    tn[i] = tN_cc(x, i, j, dn);
                    tp[i] = tP_cc(x, i, j, dw, de, ds, dn);
                    tb[i] = tB_cc(x, i, j, dw, de, ds, dn);
                    tdiv[i] = tDiv_cc(x, i, j);
                }
            });
        },
    );
}

/// (24) one Jacobi evaluation of T at fluid cell (i,j) from the coefficients, the previous
/// sweep's T `to` and p `po` (stored arrays, as the kernel's accessors TO and PO).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn T_cc(
    x: &Ctx,
    to: &[f64],
    po: &[f64],
    i: usize,
    j: usize,
    tw: f64,
    te: f64,
    ts: f64,
    tn: f64,
    tp: f64,
    tb: f64,
    tdiv: f64,
) -> f64 {
    let (p, nx) = (x.g.idx(i, j), x.g.nxt);
    (tw * to[p - 1] + te * to[p + 1] + ts * to[p - nx] + tn * to[p + nx] + tb + tdiv * po[p]) / tp
}

/// Explicit scheme (30): C_T of fluid cell (i,j) from iterate k (level n at the step start).
#[inline]
pub fn c_T_cc(x: &Ctx, i: usize, j: usize) -> f64 {
    let (g, f, t) = (x.g, x.f, &x.k.T);
    let (p, nx) = (g.idx(i, j), g.nxt);
    let (fw, fe, fs, fn_) = (f.Fx[p], f.Fx[p + 1], f.Fy[p], f.Fy[p + nx]);
    let face = |a: f64, b: f64, fl: f64, corr: f64| fl * (upwind(a, b, fl) + corr);
    let (tvd_e, tvd_w, tvd_n, tvd_s) = if x.tvd {
        (
            tvd_fc(x, t, i + 1, j, fe),
            tvd_fc(x, t, i, j, fw),
            tvd_cf(x, t, i, j + 1, fn_),
            tvd_cf(x, t, i, j, fs),
        )
    } else {
        (0.0, 0.0, 0.0, 0.0)
    };
    face(t[p], t[p + 1], fe, tvd_e) - face(t[p - 1], t[p], fw, tvd_w)
        + face(t[p], t[p + nx], fn_, tvd_n)
        - face(t[p - nx], t[p], fs, tvd_s)
}

/// Explicit scheme (30): C_Tⁿ of every fluid cell from level n (called when k equals n).
pub fn convective_T(x: &Ctx, out: &mut [f64]) {
    let g = x.g;
    map_rows(x.par, g.nxt, [out], 1..g.ny + 1, |j, [o]| {
        for (o, i) in o[1..=g.nx].iter_mut().zip(1..) {
            *o = c_T_cell(x, i, j);
        }
    });
}

/// C_T of cell (i,j), 0 unless it is a fluid cell.
#[inline(always)]
fn c_T_cell(x: &Ctx, i: usize, j: usize) -> f64 {
    if x.geo.cell[x.g.idx(i, j)] != FLUID {
        0.0
    } else {
        c_T_cc(x, i, j)
    }
}

/// The kernel sequence of the energy CV of fluid cell (i,j) (the twin of `T_NEW_CC`): the
/// four conductances, the coefficients, then one Jacobi T from the previous sweep's T `to`
/// and p `po`.
pub fn T_new_cc(x: &Ctx, to: &[f64], po: &[f64], i: usize, j: usize) -> f64 {
    let [tw, te, ts, tn, tp, tb, tdiv] = energy_cell(x, i, j);
    T_cc(x, to, po, i, j, tw, te, ts, tn, tp, tb, tdiv)
}
