//! The Arkilic channel (`channel_kn`): the centreline pressure and mass flow of a slip
//! channel flow at two outlet Knudsen numbers against the first-order slip solution.

use std::path::Path;

use crate::error::ValidateError;
use crate::methods::simple_ts::case::Side;
use crate::validate::{load_variant, Backend, CaseReport, Check, Plot, Row, Series};

/// Arkilic channel: centreline p and mass flow, relative (the 2 %).
const CHANNEL_TOL: f64 = 0.02;

/// `channel_kn`: the channel at the two outlet Knudsen numbers.
pub(in crate::validate) fn channel_kn(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    for stem in ["kn0.02", "kn0.1"] {
        channel(dir, stem, quick, rep, bk)?;
    }
    Ok(())
}

/// One channel, case file `<stem>`: its rows, note and pressure plot.
fn channel(
    dir: &Path,
    stem: &str,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let case = load_variant(dir, stem, quick)?;
    let (p_in, p_out) = match (&case.boundaries.west, &case.boundaries.east) {
        (Side::Pressure { p: a, .. }, Side::Pressure { p: b, .. }) => (*a, *b),
        _ => (1.0, 1.0),
    };
    let (len, h) = (
        case.grid.x[1] - case.grid.x[0],
        case.grid.y[1] - case.grid.y[0],
    );
    // Outlet Knudsen number on H: Kn_o = Kn / ρ_out / H (ρ_out = p_out at T = 1).
    let kn_o = case.gas.kn / p_out / h;
    let s = case.gas.sigma_u;
    let pr = p_in / p_out;
    // Arkilic, Schmidt & Breuer (1997), first-order slip, isothermal, inertia neglected.
    let p_exact = |xt: f64| {
        let a = 6.0 * s * kn_o;
        p_out
            * (-a
                + (a * a + (1.0 + 12.0 * s * kn_o) * xt + (pr + 12.0 * s * kn_o) * pr * (1.0 - xt))
                    .sqrt())
    };
    let r = bk.steady(&case)?;
    let c = r.p.c;
    let mdot = c.a * h.powi(3) * p_out * p_out / (24.0 * c.b * len)
        * ((pr * pr - 1.0) + 12.0 * s * kn_o * (pr - 1.0));
    let g = &r.p.grid;
    let jc = g.row_at(0.5 * (case.grid.y[0] + case.grid.y[1]));
    let lin = |xt: f64| p_in + (p_out - p_in) * xt;
    let (mut p_err, mut ours, mut exact) = (0.0f64, vec![], vec![]);
    let every = (g.nx / 50).max(1);
    for i in 1..=g.nx {
        let xt = (g.x_v[i] - case.grid.x[0]) / len;
        let p = 0.5 * (r.state.k.p[g.idx(i, jc)] + r.state.k.p[g.idx(i, jc + 1)]);
        p_err = p_err.max((p / p_exact(xt) - 1.0).abs());
        if i % every == 0 {
            ours.push((xt, p - lin(xt)));
        }
    }
    for s in 0..=200 {
        let xt = f64::from(s) / 200.0;
        exact.push((xt, p_exact(xt) - lin(xt)));
    }
    let (mut m_err, mut signed) = (0.0f64, vec![]);
    for i in [1, g.nx / 2, g.nx + 1] {
        let m: f64 = (1..=g.ny).map(|j| r.flux.Fx[g.idx(i, j)]).sum();
        m_err = m_err.max((m / mdot - 1.0).abs());
        signed.push(format!("{:+.3} %", 100.0 * (m / mdot - 1.0)));
    }
    let inertia = inertia_corrected_mdot(&c, h, len, p_in, p_out, mdot);
    let name = rep.case.clone();
    rep.rows.push(Row::new(
        &name,
        &format!("Kn_o={kn_o}: centreline p max rel err"),
        p_err,
        0.0,
        CHANNEL_TOL,
        Check::Absolute,
    ));
    rep.rows.push(Row::new(
        &name,
        &format!("Kn_o={kn_o}: mass flow max rel err"),
        m_err,
        0.0,
        CHANNEL_TOL,
        Check::Absolute,
    ));
    rep.notes.push(format!(
        "Kn_o = {kn_o}: {} × {} cells, L/H = {}, {} steps (t = {}); analytic ṁ = {mdot:.6e}, \
         Re_H = ṁ/μ = {:.2}; ours − analytic at the inlet, middle and outlet faces: {}; \
         quasi-1D estimate of the inertia (momentum-flux) effect the analytic ṁ neglects: \
         {:+.3} %.",
        g.nx,
        g.ny,
        len / h,
        r.state.step,
        r.state.time,
        mdot / c.b,
        signed.join(", "),
        100.0 * (inertia / mdot - 1.0)
    ));
    rep.plots.push(pressure_plot(kn_o, pr, exact, ours));
    Ok(())
}

/// The centreline pressure minus the linear drop, ours (`ours`, every few cells) against the
/// analytic one (`exact`).
fn pressure_plot(kn_o: f64, pr: f64, exact: Vec<(f64, f64)>, ours: Vec<(f64, f64)>) -> Plot {
    Plot {
        name: format!("p_kn{kn_o}"),
        title: format!(
            "Centreline pressure minus the linear drop, Kn_o = {kn_o}, p_in/p_out = {pr}"
        ),
        x: "x / L".into(),
        y: "(p − p_linear) / p_out".into(),
        series: vec![
            Series {
                label: "Arkilic first-order slip solution".into(),
                points: exact,
                line: true,
            },
            Series {
                label: "simplets (centreline, every few cells)".into(),
                points: ours,
                line: false,
            },
        ],
    }
}

/// The Arkilic channel's mass flow with the momentum flux kept (quasi-1D, isothermal, locally
/// fully developed slip-Poiseuille profile): d/dx(β ṁ²/(pH)) = −A H dp/dx − 12 B ṁ/(H(pH + 6σKn)),
/// β(p) = ∫u²/(ū² H) of the slip profile. With G = β/p this integrates over p to
/// 12 B L ṁ = 12 B L ṁ_A + ṁ² ∫ G'(p) (pH + 6σKn) dp, solved here for ṁ (README).
fn inertia_corrected_mdot(
    c: &crate::methods::simple_ts::physics::Constants,
    h: f64,
    len: f64,
    p_in: f64,
    p_out: f64,
    mdot_a: f64,
) -> f64 {
    let (s, kn) = (c.sigma_u, c.kn);
    let g = |p: f64| {
        let sl = s * kn / (p * h);
        (1.0 / 30.0 + sl / 3.0 + sl * sl) / (1.0 / 6.0 + sl).powi(2) / p
    };
    let n = 2000;
    let dp = (p_in - p_out) / f64::from(n);
    let c2: f64 = (0..n)
        .map(|k| {
            let p = p_out + (f64::from(k) + 0.5) * dp;
            let e = 1e-6 * p;
            (g(p + e) - g(p - e)) / (2.0 * e) * (p * h + 6.0 * s * kn) * dp
        })
        .sum();
    let a = 12.0 * c.b * len;
    // c2 < 0: the positive root of −c2 ṁ² + a ṁ − a ṁ_A = 0.
    (-a + (a * a + 4.0 * (-c2) * a * mdot_a).sqrt()) / (2.0 * (-c2))
}
