//! Interior loops of the implicit upwind scheme over the runs of [`super::plain`]: the
//! momentum, energy and pressure coefficients of faces and cells whose stencils hold no solid
//! cell, written out over row slices.
//!
//! Each loop evaluates exactly the floating-point operations of its fragment sequence
//! (`u_hat_d_u`, `v_hat_d_v`, `energy_coeffs`' and `pressure_coeffs`' fragments) in the same
//! order, with the wall and compat branches that a solid-free stencil never takes left out,
//! so the results are the same bits (`tests/parity.rs` and the unit test below check it).
//! Slicing the rows once per run lets the compiler drop the per-element bounds checks and
//! keeps the grid and constants in registers; the fragments stay the readable definition and
//! the twins of the OpenCL macros.

use std::ops::Range;

use super::ops::{hi, li};
use super::Ctx;

const FOUR_THIRDS: f64 = 4.0 / 3.0;
const TWO_THIRDS: f64 = 2.0 / 3.0;

/// Row `j` of a stored array with rows of `nx`.
#[inline(always)]
pub fn row(a: &[f64], j: usize, nx: usize) -> &[f64] {
    &a[j * nx..(j + 1) * nx]
}

/// û and d_u of the u-faces `r` of row `j` (the sequence of `momentum::u_hat_d_u`), into the
/// row slices `uh`, `du`.
pub fn u_run(x: &Ctx, j: usize, r: Range<usize>, uh: &mut [f64], du: &mut [f64]) {
    let (g, c, k, n, f) = (x.g, x.c, x.k, x.n, x.f);
    let nx = g.nxt;
    assert!(r.start >= 1 && r.end < nx && uh.len() == nx && du.len() == nx);
    let (gs, gp, gn) = (
        row(&k.Gam, j - 1, nx),
        row(&k.Gam, j, nx),
        row(&k.Gam, j + 1, nx),
    );
    let (fx, fys, fyp) = (row(&f.Fx, j, nx), row(&f.Fy, j, nx), row(&f.Fy, j + 1, nx));
    let (us, up, un) = (row(&k.u, j - 1, nx), row(&k.u, j, nx), row(&k.u, j + 1, nx));
    let (vp, vn) = (row(&k.v, j, nx), row(&k.v, j + 1, nx));
    let (rk, rn, unn) = (row(&k.rho, j, nx), row(&n.rho, j, nx), row(&n.u, j, nx));
    let hx = &g.hx[..nx];
    let (hys, hyp, hyn) = (g.hy[j - 1], g.hy[j], g.hy[j + 1]);
    let (b, a, dt) = (c.b, c.a, x.dt);
    for i in r {
        let (hxw, hxp) = (hx[i - 1], hx[i]);
        // Γc at the south and north corners (bc::gam_c: the mean of two column values).
        let gcs = 0.5 * (li(gs[i - 1], gp[i - 1], hys, hyp) + li(gs[i], gp[i], hys, hyp));
        let gcn = 0.5 * (li(gp[i - 1], gn[i - 1], hyp, hyn) + li(gp[i], gn[i], hyp, hyn));
        // Face fluxes [Fe, Fw, Fn1, Fn2, Fs1, Fs2] (u_flux).
        let fe = 0.5 * (fx[i] + fx[i + 1]);
        let fw = 0.5 * (fx[i - 1] + fx[i]);
        let (fn1, fn2, fs1, fs2) = (fyp[i - 1], fyp[i], fys[i - 1], fys[i]);
        let dw = b * gp[i - 1] * hyp / hxw;
        let aw = FOUR_THIRDS * dw + fw.max(0.0);
        let de = b * gp[i] * hyp / hxp;
        let ae = FOUR_THIRDS * de + (-fe).max(0.0);
        let ds = b * gcs * (hxw + hxp) / (hys + hyp);
        let as_ = ds + 0.5 * (fs1.max(0.0) + fs2.max(0.0));
        let dn = b * gcn * (hxw + hxp) / (hyp + hyn);
        let an = dn + 0.5 * ((-fn1).max(0.0) + (-fn2).max(0.0));
        let m_k = (rk[i - 1] * hxw + rk[i] * hxp) * hyp / (2.0 * dt);
        let ap = aw + ae + as_ + an + (m_k + ((fe - fw) + 0.5 * (fn1 + fn2 - fs1 - fs2)));
        let su = b
            * (gcn * (vn[i] - vn[i - 1])
                - gcs * (vp[i] - vp[i - 1])
                - TWO_THIRDS * gp[i] * (vn[i] - vp[i])
                + TWO_THIRDS * gp[i - 1] * (vn[i - 1] - vp[i - 1]));
        let m_n = (rn[i - 1] * hxw + rn[i] * hxp) * hyp / (2.0 * dt);
        let bb = m_n * unn[i] + su;
        let nb = aw * up[i - 1] + ae * up[i + 1] + as_ * us[i] + an * un[i];
        uh[i] = (nb + bb) / ap;
        du[i] = a * hyp / ap;
    }
}

/// v̂ and d_v of the v-faces `r` of row `j` (the sequence of `momentum::v_hat_d_v`).
pub fn v_run(x: &Ctx, j: usize, r: Range<usize>, vh: &mut [f64], dv: &mut [f64]) {
    let (g, c, k, n, f) = (x.g, x.c, x.k, x.n, x.f);
    let nx = g.nxt;
    assert!(r.start >= 1 && r.end < nx && vh.len() == nx && dv.len() == nx);
    let (gs, gp) = (row(&k.Gam, j - 1, nx), row(&k.Gam, j, nx));
    let (fxs, fxp) = (row(&f.Fx, j - 1, nx), row(&f.Fx, j, nx));
    let (fys, fyp, fyn) = (
        row(&f.Fy, j - 1, nx),
        row(&f.Fy, j, nx),
        row(&f.Fy, j + 1, nx),
    );
    let (vs, vp, vn) = (row(&k.v, j - 1, nx), row(&k.v, j, nx), row(&k.v, j + 1, nx));
    let (us, up) = (row(&k.u, j - 1, nx), row(&k.u, j, nx));
    let (rks, rkp) = (row(&k.rho, j - 1, nx), row(&k.rho, j, nx));
    let (rns, rnp, vnn) = (row(&n.rho, j - 1, nx), row(&n.rho, j, nx), row(&n.v, j, nx));
    let hx = &g.hx[..nx];
    let (hys, hyp) = (g.hy[j - 1], g.hy[j]);
    let (b, a, dt) = (c.b, c.a, x.dt);
    for i in r {
        let (hxw, hxp, hxe) = (hx[i - 1], hx[i], hx[i + 1]);
        // Γc' at the west and east corners (bc::gam_c2: the mean of two row values).
        let gcw = 0.5 * (li(gs[i - 1], gs[i], hxw, hxp) + li(gp[i - 1], gp[i], hxw, hxp));
        let gce = 0.5 * (li(gs[i], gs[i + 1], hxp, hxe) + li(gp[i], gp[i + 1], hxp, hxe));
        // Face fluxes [Fn, Fs, Fe1, Fe2, Fw1, Fw2] (v_flux).
        let fn_ = 0.5 * (fyp[i] + fyn[i]);
        let fs = 0.5 * (fys[i] + fyp[i]);
        let (fe1, fe2, fw1, fw2) = (fxs[i + 1], fxp[i + 1], fxs[i], fxp[i]);
        let dn = b * gp[i] * hxp / hyp;
        let an = FOUR_THIRDS * dn + (-fn_).max(0.0);
        let ds = b * gs[i] * hxp / hys;
        let as_ = FOUR_THIRDS * ds + fs.max(0.0);
        let de = b * gce * (hys + hyp) / (hxp + hxe);
        let ae = de + 0.5 * ((-fe1).max(0.0) + (-fe2).max(0.0));
        let dw = b * gcw * (hys + hyp) / (hxw + hxp);
        let aw = dw + 0.5 * (fw1.max(0.0) + fw2.max(0.0));
        let m_k = (rks[i] * hys + rkp[i] * hyp) * hxp / (2.0 * dt);
        let ap = an + as_ + ae + aw + (m_k + ((fn_ - fs) + 0.5 * (fe1 + fe2 - fw1 - fw2)));
        let sv = b
            * (gce * (up[i + 1] - us[i + 1])
                - gcw * (up[i] - us[i])
                - TWO_THIRDS * gp[i] * (up[i + 1] - up[i])
                + TWO_THIRDS * gs[i] * (us[i + 1] - us[i]));
        let m_n = (rns[i] * hys + rnp[i] * hyp) * hxp / (2.0 * dt);
        let bb = m_n * vnn[i] + sv;
        let nb = as_ * vs[i] + an * vn[i] + aw * vp[i - 1] + ae * vp[i + 1];
        vh[i] = (nb + bb) / ap;
        dv[i] = a * hxp / ap;
    }
}

/// Conductance D_T between two fluid cells (energy::dT_cc): C_T1 len Hi(Γ)/distance.
#[inline(always)]
fn d_t(ct1: f64, len: f64, g_nb: f64, g_p: f64, h_nb: f64, h_p: f64) -> f64 {
    ct1 * len * hi(g_nb, g_p, h_nb, h_p) / (0.5 * (h_nb + h_p))
}

/// The energy coefficients [tW, tE, tS, tN, tP, tB, tDiv] of the cells `r` of row `j` (the
/// fragments of `energy::energy_coeffs`), into the row slices `o`.
pub fn t_run(x: &Ctx, j: usize, r: Range<usize>, o: [&mut [f64]; 7]) {
    let (g, c, k, n, f) = (x.g, x.c, x.k, x.n, x.f);
    let nx = g.nxt;
    let [tw, te, ts, tn, tp, tb, tdiv] = o;
    assert!(r.start >= 1 && r.end < nx);
    assert!([&*tw, &*te, &*ts, &*tn, &*tp, &*tb, &*tdiv]
        .iter()
        .all(|s| s.len() == nx));
    let (gs, gp, gn) = (
        row(&k.Gam, j - 1, nx),
        row(&k.Gam, j, nx),
        row(&k.Gam, j + 1, nx),
    );
    let (fx, fys, fyn) = (row(&f.Fx, j, nx), row(&f.Fy, j, nx), row(&f.Fy, j + 1, nx));
    let (us, up, un) = (row(&k.u, j - 1, nx), row(&k.u, j, nx), row(&k.u, j + 1, nx));
    let (vp, vn) = (row(&k.v, j, nx), row(&k.v, j + 1, nx));
    let (rk, pn) = (row(&k.rho, j, nx), row(&n.p, j, nx));
    let hx = &g.hx[..nx];
    let (hys, hyp, hyn) = (g.hy[j - 1], g.hy[j], g.hy[j + 1]);
    let (ct1, ct2, ct3, dt) = (c.ct1, c.ct2, c.ct3, x.dt);
    // The corner shear's y and x distances (energy::corner_shear, no wall).
    let (dys, dyn_) = (0.5 * (hys + hyp), 0.5 * (hyp + hyn));
    for i in r {
        let (hxw, hxp, hxe) = (hx[i - 1], hx[i], hx[i + 1]);
        let dw = d_t(ct1, hyp, gp[i - 1], gp[i], hxw, hxp);
        let de = d_t(ct1, hyp, gp[i + 1], gp[i], hxe, hxp);
        let ds = d_t(ct1, hxp, gs[i], gp[i], hys, hyp);
        let dn = d_t(ct1, hxp, gn[i], gp[i], hyn, hyp);
        let (fw, fe, fs, fn_) = (fx[i], fx[i + 1], fys[i], fyn[i]);
        let aw = dw + fw.max(0.0);
        let ae = de + (-fe).max(0.0);
        let as_ = ds + fs.max(0.0);
        let an = dn + (-fn_).max(0.0);
        tw[i] = dt * aw;
        te[i] = dt * ae;
        ts[i] = dt * as_;
        tn[i] = dt * an;
        let mut diag = 0.0;
        diag += aw;
        diag += ae;
        diag += as_;
        diag += an;
        diag += fe - fw + fn_ - fs;
        tp[i] = rk[i] * (hxp * hyp) + dt * diag;
        // Φ_h (energy::phi_cc) with the four corner shears (i,j), (i+1,j), (i,j+1), (i+1,j+1).
        let vol = hxp * hyp;
        let du = (up[i + 1] - up[i]) / hxp;
        let dv = (vn[i] - vp[i]) / hyp;
        let (dxw, dxe) = (0.5 * (hxw + hxp), 0.5 * (hxp + hxe));
        let s: f64 = [
            (up[i] - us[i]) / dys + (vp[i] - vp[i - 1]) / dxw,
            (up[i + 1] - us[i + 1]) / dys + (vp[i + 1] - vp[i]) / dxe,
            (un[i] - up[i]) / dyn_ + (vn[i] - vn[i - 1]) / dxw,
            (un[i + 1] - up[i + 1]) / dyn_ + (vn[i + 1] - vn[i]) / dxe,
        ]
        .iter()
        .map(|&s| s * s)
        .sum();
        let phi = 2.0 * (du * du + dv * dv) + 0.25 * s - 2.0 / 3.0 * (du + dv) * (du + dv);
        // No wall face: the wall sum is +0.0 (tB_cc's b after four `+= 0.0`).
        let src = dt * ct2 * gp[i] * vol * phi + pn[i] * vol;
        tb[i] = dt * 0.0 + src;
        let div = (up[i + 1] - up[i]) * hyp + (vn[i] - vp[i]) * hxp;
        tdiv[i] = dt * ct3 * div;
    }
}

/// The pressure coefficients [pW, pE, pS, pN, pD, pB] of the cells `r` of row `j` (the
/// fragments of `pressure::pressure_coeffs` where all four faces are pseudo faces).
pub fn p_run(x: &Ctx, j: usize, r: Range<usize>, o: [&mut [f64]; 6]) {
    let (g, n, f, ps) = (x.g, x.n, x.f, x.ps);
    let nx = g.nxt;
    let [pw, pe, pso, pno, pd, pb] = o;
    assert!(r.start >= 1 && r.end < nx);
    assert!([&*pw, &*pe, &*pso, &*pno, &*pd, &*pb]
        .iter()
        .all(|s| s.len() == nx));
    let (ru, rvp, rvn) = (
        row(&f.rho_u, j, nx),
        row(&f.rho_v, j, nx),
        row(&f.rho_v, j + 1, nx),
    );
    let (uh, du) = (row(&ps.u_hat, j, nx), row(&ps.d_u, j, nx));
    let (vhp, vhn) = (row(&ps.v_hat, j, nx), row(&ps.v_hat, j + 1, nx));
    let (dvp, dvn) = (row(&ps.d_v, j, nx), row(&ps.d_v, j + 1, nx));
    let (pn, tn) = (row(&n.p, j, nx), row(&n.T, j, nx));
    let hx = &g.hx[..nx];
    let (hy, dt) = (g.hy[j], x.dt);
    for i in r {
        let hxp = hx[i];
        let aw = ru[i] * hy * du[i];
        let ae = ru[i + 1] * hy * du[i + 1];
        let as_ = rvp[i] * hxp * dvp[i];
        let an = rvn[i] * hxp * dvn[i];
        pw[i] = dt * aw;
        pe[i] = dt * ae;
        pso[i] = dt * as_;
        pno[i] = dt * an;
        pd[i] = dt * (aw + ae + as_ + an);
        let (qw, qe) = (ru[i] * hy * uh[i], ru[i + 1] * hy * uh[i + 1]);
        let (qs, qn) = (rvp[i] * hxp * vhp[i], rvn[i] * hxp * vhn[i]);
        pb[i] = dt * (qw - qe + qs - qn) + hxp * hy * pn[i] / tn[i];
    }
}

#[cfg(test)]
mod tests {
    use super::super::{energy, momentum, pressure, Reference, Work};
    use super::{u_run, v_run};
    use crate::methods::simple_ts::backend::Backend;
    use crate::methods::simple_ts::case::Case;

    /// The C++ confined square (every compat switch) or its corrected form, coarsened, after
    /// a few steps of an impulsive start.
    fn stepped(compat: bool) -> Reference {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("configs/cpp/square_m243_kn0p05.json");
        let mut text = std::fs::read_to_string(path).unwrap();
        text = text.replace("\"nx\": 600, \"ny\": 200", "\"nx\": 120, \"ny\": 40");
        if !compat {
            text = text.replace("\"compat\": \"simple_ts_cpp\",", "");
        }
        let case = Case::from_json(&text, "square").unwrap();
        let mut r = Reference::new(&case);
        for _ in 0..3 {
            r.step().unwrap();
        }
        r
    }

    /// Every interior loop gives the bits of its fragment sequence, face by face.
    #[test]
    fn interior_runs_give_the_fragments_bits() {
        for compat in [true, false] {
            let r = stepped(compat);
            let (x, g) = (r.ctx(), &r.p.grid);
            let nx = g.nxt;
            let same = |a: f64, b: f64| a.to_bits() == b.to_bits();
            let mut counted = [0usize; 4];
            let mut o: Vec<Vec<f64>> = vec![vec![0.0; nx]; 7];
            for j in 0..g.nyt {
                for rg in x.pl.u[j].clone() {
                    let [a, b, ..] = &mut o[..] else {
                        unreachable!()
                    };
                    u_run(&x, j, rg.clone(), a, b);
                    for i in rg {
                        let (uh, du) = momentum::u_hat_d_u(&x, i, j);
                        assert!(same(o[0][i], uh) && same(o[1][i], du), "u ({i}, {j})");
                        counted[0] += 1;
                    }
                }
                for rg in x.pl.v[j].clone() {
                    let [a, b, ..] = &mut o[..] else {
                        unreachable!()
                    };
                    v_run(&x, j, rg.clone(), a, b);
                    for i in rg {
                        let (vh, dv) = momentum::v_hat_d_v(&x, i, j);
                        assert!(same(o[0][i], vh) && same(o[1][i], dv), "v ({i}, {j})");
                        counted[1] += 1;
                    }
                }
            }
            // The loops' tables against the fragments' (whole-grid) tables.
            let (mut w, mut f) = (Work::new(g.len()), Work::new(g.len()));
            energy::energy_coeffs(&x, &mut w);
            pressure::pressure_coeffs(&x, &mut w);
            let y = super::super::Ctx {
                pl: &Default::default(),
                ..r.ctx()
            };
            energy::energy_coeffs(&y, &mut f);
            pressure::pressure_coeffs(&y, &mut f);
            let pairs = [
                (&w.tW, &f.tW),
                (&w.tE, &f.tE),
                (&w.tS, &f.tS),
                (&w.tN, &f.tN),
                (&w.tP, &f.tP),
                (&w.tB, &f.tB),
                (&w.tDiv, &f.tDiv),
                (&w.pW, &f.pW),
                (&w.pE, &f.pE),
                (&w.pS, &f.pS),
                (&w.pN, &f.pN),
                (&w.pD, &f.pD),
                (&w.pB, &f.pB),
            ];
            for (a, b) in pairs {
                assert!(a.iter().zip(b.iter()).all(|(a, b)| same(*a, *b)));
            }
            counted[2] = x.pl.t.iter().flatten().map(|r| r.len()).sum();
            counted[3] = x.pl.p.iter().flatten().map(|r| r.len()).sum();
            // Most of the grid is interior; the square's ring and the walls' rows are not.
            let cells = g.nx * g.ny;
            assert!(counted.iter().all(|&c| c > cells * 3 / 4), "{counted:?}");
            assert!(counted[2] < cells - 2 * g.nx, "{counted:?}");
        }
    }
}
