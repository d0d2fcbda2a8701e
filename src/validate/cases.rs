//! The validation cases (issue 6). Each function runs one case directory and appends its rows
//! and plots; the derivations and tolerance reasons are in `validation/<case>/README.md`.

use std::path::Path;

use super::{host_copy, load_variant, Backend, CaseReport, Check, Plot, Row, Series};
use crate::error::ValidateError;
use crate::methods::simple_ts::case::{Case, Interpolation, Side};
use crate::methods::simple_ts::reference::ops::jump;
use crate::methods::simple_ts::reference::Reference;

/// Couette metrics: profile within 0.2 % of U, slip, ΔT and jump within 1 % (README).
const COUETTE_U_TOL: f64 = 2e-3;
/// Slip velocity, centreline temperature rise and wall jump, relative.
const COUETTE_REL_TOL: f64 = 0.01;
/// Energy balance of the steady Couette flow: heat conducted into the walls over the
/// dissipated shear work, relative (√T varies by ~4e-4 across the gap).
const ENERGY_TOL: f64 = 2e-3;
/// Arkilic channel: centreline p and mass flow, relative (the 2 %).
const CHANNEL_TOL: f64 = 0.02;
/// Observed orders: first order ±0.15, second order ±0.3 (van Leer clips at the extrema).
const ORDER_TOL: [f64; 2] = [0.15, 0.3];
/// Grid convergence: amplitude ε of the shear wave v = ε sin(2πx/L) (viscous heating
/// ∝ ε² stays below 1e-6 of T).
const WAVE_EPS: f64 = 1e-3;
/// Grid levels nx of the shear wave: full and quick.
const LEVELS: [&[usize]; 2] = [&[32, 64, 128, 256], &[32, 64, 128]];
/// TVD must beat upwind by this factor on the finest grid, or convection does not matter.
const CONVECTION_RATIO: f64 = 0.5;
/// Mass: relative global imbalance at loop-2 convergence (tests/analytic.rs (c)).
const MASS_TOL: f64 = 1e-10;

fn walls(case: &Case) -> (f64, f64, f64) {
    match (&case.boundaries.south, &case.boundaries.north) {
        (Side::Wall { velocity: a, t, .. }, Side::Wall { velocity: b, .. }) => (*a, *b, *t),
        _ => (0.0, 0.0, 1.0),
    }
}

/// The steady slip Couette flow with viscous heating, and its first-order slip/jump solution
/// linearised in T − T_w: (u analytic at y, T analytic at y, G, jump, centreline rise).
struct CouetteExact {
    u_mid: f64,
    g: f64,
    h: f64,
    k: f64,
    jump: f64,
    tw: f64,
}

impl CouetteExact {
    fn new(case: &Case, r: &Reference) -> CouetteExact {
        let (us, un, tw) = walls(case);
        let c = &r.p.c;
        let h = case.grid.y[1] - case.grid.y[0];
        // u' = G = ΔU / (H + 2 σ_u Kn), ρ = √T = 1 to O(ΔT).
        let g = (un - us) / (h + 2.0 * c.sigma_u * c.kn);
        // C_T1 T'' = −C_T2 G²: T = T_w + jump + K/2 y (H − y), jump = σ_T Kn K H/2.
        let k = c.ct2 * g * g / c.ct1;
        CouetteExact {
            u_mid: 0.5 * (us + un),
            g,
            h,
            k,
            jump: c.sigma_t * c.kn * k * h / 2.0,
            tw,
        }
    }
    fn u(&self, y: f64) -> f64 {
        self.u_mid + self.g * (y - 0.5 * self.h)
    }
    fn t(&self, y: f64) -> f64 {
        self.tw + self.jump + 0.5 * self.k * y * (self.h - y)
    }
    fn rise(&self) -> f64 {
        self.jump + self.k * self.h * self.h / 8.0
    }
}

/// Gas values at the south and north walls of column 2: (u_s, T_s) from the discrete slip and
/// jump conditions (42), (43), as the solver applies them.
fn wall_gas(r: &Reference, j: usize) -> (f64, f64, f64) {
    let g = &r.p.grid;
    let (c, k) = (&r.p.c, &r.state.k);
    let p = g.idx(2, j);
    let half = 0.5 * g.hy[j];
    let (us, un, tw) = walls(&r.p.case);
    let uw = if j == 1 { us } else { un };
    let u_s = crate::methods::simple_ts::reference::ops::slip(
        k.u[p],
        uw,
        r.flux.rho_u[p],
        half,
        c.sigma_u,
        c.kn,
    );
    let t_s = jump(k.T[p], tw, k.rho[p], half, c.sigma_t, c.kn);
    (u_s, t_s, half)
}

pub(super) fn couette_heat(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let case = load_variant(dir, "case", quick)?;
    let r = bk.steady(&case)?;
    let ex = CouetteExact::new(&case, &r);
    let g = &r.p.grid;
    let k = &r.state.k;
    let (us, un, _) = walls(&case);
    let du = un - us;
    let mut worst: f64 = 0.0;
    let (mut up, mut ua, mut tp, mut ta) = (vec![], vec![], vec![], vec![]);
    for j in 1..=g.ny {
        let y = g.y_v[j];
        let u = k.u[g.idx(2, j)];
        worst = worst.max((u - ex.u(y)).abs() / du);
        up.push((y, u));
        tp.push((y, k.T[g.idx(2, j)] - ex.tw));
    }
    for s in 0..=100 {
        let y = ex.h * f64::from(s) / 100.0;
        ua.push((y, ex.u(y)));
        ta.push((y, ex.t(y) - ex.tw));
    }
    let (u_s, t_s, _) = wall_gas(&r, 1);
    let jc = g.ny / 2;
    let t_c = if g.ny % 2 == 0 {
        0.5 * (k.T[g.idx(2, jc)] + k.T[g.idx(2, jc + 1)])
    } else {
        k.T[g.idx(2, jc + 1)]
    };
    let name = &rep.case.clone();
    rep.rows.extend([
        Row::new(
            name,
            "u profile max error / U",
            worst,
            0.0,
            COUETTE_U_TOL,
            Check::Absolute,
        ),
        Row::new(
            name,
            "slip velocity u_gas - u_wall",
            u_s - us,
            ex.g * r.p.c.sigma_u * r.p.c.kn,
            COUETTE_REL_TOL,
            Check::Relative,
        ),
        Row::new(
            name,
            "centreline T rise T_c - T_w",
            t_c - ex.tw,
            ex.rise(),
            COUETTE_REL_TOL,
            Check::Relative,
        ),
        Row::new(
            name,
            "wall T jump T_s - T_w",
            t_s - ex.tw,
            ex.jump,
            COUETTE_REL_TOL,
            Check::Relative,
        ),
    ]);
    rep.notes.push(format!(
        "Steady state after {} steps (t = {:.1}); ny = {}; analytic ΔT_centre = {:.4e}, jump = {:.4e}.",
        r.state.step, r.state.time, g.ny, ex.rise(), ex.jump
    ));
    rep.plots.push(Plot {
        name: "u".into(),
        title: "Velocity profile across the gap".into(),
        x: "y / H".into(),
        y: "u / V_th".into(),
        series: vec![
            Series {
                label: "first-order slip solution".into(),
                points: ua,
                line: true,
            },
            Series {
                label: "simplets (u-faces, column 2)".into(),
                points: up,
                line: false,
            },
        ],
    });
    rep.plots.push(Plot {
        name: "T".into(),
        title: "Temperature rise T − T_w across the gap".into(),
        x: "y / H".into(),
        y: "(T − T_w) / T0".into(),
        series: vec![
            Series {
                label: "linearised slip/jump solution".into(),
                points: ta,
                line: true,
            },
            Series {
                label: "simplets (cell centres, column 2)".into(),
                points: tp,
                line: false,
            },
        ],
    });
    Ok(())
}

/// Steady energy balance of the Couette case: heat conducted into both walls
/// C_T1 √T_s (T_1 − T_s)/(h/2) over the dissipated work (C_T2/B) τ (u_gas,N − u_gas,S).
pub(super) fn couette_energy_ratio(case: &Case, bk: &Backend) -> Result<f64, ValidateError> {
    let r = bk.steady(case)?;
    let g = &r.p.grid;
    let k = &r.state.k;
    let c = &r.p.c;
    let (u_s, t_s, half) = wall_gas(&r, 1);
    let (u_n, t_n, half_n) = wall_gas(&r, g.ny);
    let (ps, pn) = (g.idx(2, 1), g.idx(2, g.ny));
    let q =
        c.ct1 * t_s.sqrt() * (k.T[ps] - t_s) / half + c.ct1 * t_n.sqrt() * (k.T[pn] - t_n) / half_n;
    let tau = c.b * t_s.sqrt() * (k.u[ps] - u_s) / half;
    Ok(q / (c.ct2 / c.b * tau * (u_n - u_s)))
}

pub(super) fn channel_kn(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    for stem in ["kn0.02", "kn0.1"] {
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
                    + (a * a
                        + (1.0 + 12.0 * s * kn_o) * xt
                        + (pr + 12.0 * s * kn_o) * pr * (1.0 - xt))
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
        rep.plots.push(Plot {
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
        });
    }
    Ok(())
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

/// Complex helpers for the shear-wave amplitude: (re, im).
fn cdiv(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let d = b.0 * b.0 + b.1 * b.1;
    ((a.0 * b.0 + a.1 * b.1) / d, (a.1 * b.0 - a.0 * b.1) / d)
}

/// Least-squares slope of log e against log h.
pub fn observed_order(h: &[f64], e: &[f64]) -> f64 {
    let n = h.len() as f64;
    let (lx, ly): (Vec<f64>, Vec<f64>) = h.iter().zip(e).map(|(h, e)| (h.ln(), e.ln())).unzip();
    let (mx, my) = (lx.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
    let sxy: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = lx.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

/// Error of the shear wave v = ε sin(kx) advected by u = U and decaying: the first Fourier
/// amplitude of v against backward Euler applied to the exact spatial operator, over ε.
fn wave_error(
    base: &Case,
    nx: usize,
    scheme: Interpolation,
    bk: &Backend,
) -> Result<(f64, f64), ValidateError> {
    let mut case = base.clone();
    case.grid.nx = nx;
    case.scheme.interpolation = scheme;
    let mut r = Reference::new(&case);
    let len = case.grid.x[1] - case.grid.x[0];
    let kw = 2.0 * std::f64::consts::PI / len;
    {
        let g = &r.p.grid;
        for j in 0..g.nyt {
            for i in 0..g.nxt {
                r.state.k.v[g.idx(i, j)] = WAVE_EPS * (kw * (g.x_v[i] - case.grid.x[0])).sin();
            }
        }
    }
    r.p.ghosts.apply_faces(&mut r.state.k);
    r.state.n.clone_from(&r.state.k);
    let run_err = |source| ValidateError::Run {
        case: case.name.clone(),
        source,
    };
    let mut s = bk.solver(&case)?;
    s.restore(r.state.clone()).map_err(run_err)?;
    let n = case.time.n_steps();
    for _ in 0..n {
        s.step().map_err(run_err)?;
    }
    let r = host_copy(&case, s.as_mut())?;
    let g = &r.p.grid;
    let (mut re, mut im) = (0.0, 0.0);
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let ph = kw * (g.x_v[i] - case.grid.x[0]);
            let v = r.state.k.v[g.idx(i, j)];
            re += v * ph.cos();
            im -= v * ph.sin();
        }
    }
    let norm = 2.0 / (g.nx * g.ny) as f64;
    let a = (re * norm, im * norm);
    // da/dt = −(i k U + ν k²) a, a₀ = −i ε; backward Euler: a_n = a₀ / (1 + (ν k² + i k U) Δt)ⁿ.
    let nu = r.p.c.b * case.initial.t.sqrt() / (case.initial.p / case.initial.t);
    let z = (
        1.0 + nu * kw * kw * case.time.dt,
        kw * case.initial.u * case.time.dt,
    );
    let mut a_ref = (0.0, -WAVE_EPS);
    for _ in 0..n {
        a_ref = cdiv(a_ref, z);
    }
    let err = ((a.0 - a_ref.0).powi(2) + (a.1 - a_ref.1).powi(2)).sqrt() / WAVE_EPS;
    Ok((len / nx as f64, err))
}

pub(super) fn grid_convergence(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let base = load_variant(dir, "case", quick)?;
    let levels = LEVELS[usize::from(quick)];
    let name = rep.case.clone();
    let mut series = vec![];
    let mut finest = [0.0; 2];
    for (s, (scheme, order)) in [(Interpolation::Upwind, 1.0), (Interpolation::Tvd, 2.0)]
        .into_iter()
        .enumerate()
    {
        let (mut hs, mut es) = (vec![], vec![]);
        for &nx in levels {
            let (h, e) = wave_error(&base, nx, scheme, bk)?;
            hs.push(h);
            es.push(e);
        }
        let p = observed_order(&hs, &es);
        finest[s] = *es.last().unwrap_or(&f64::NAN);
        rep.rows.push(Row::new(
            &name,
            &format!("{scheme:?} observed order"),
            p,
            order,
            ORDER_TOL[s],
            Check::Absolute,
        ));
        rep.notes.push(format!(
            "{scheme:?}: nx = {levels:?}, errors |a − a_ref|/ε = {}",
            es.iter()
                .map(|e| format!("{e:.3e}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        series.push(Series {
            label: format!("{scheme:?} error (log10)"),
            points: hs
                .iter()
                .zip(&es)
                .map(|(h, e)| (h.log10(), e.log10()))
                .collect(),
            line: false,
        });
        // The fitted line through the centroid with the observed slope.
        let n = hs.len() as f64;
        let mx = hs.iter().map(|h| h.log10()).sum::<f64>() / n;
        let my = es.iter().map(|e| e.log10()).sum::<f64>() / n;
        let ends = [hs[0].log10(), hs[hs.len() - 1].log10()];
        series.push(Series {
            label: format!("{scheme:?} least-squares fit, slope {p:.3}"),
            points: ends.iter().map(|&x| (x, my + p * (x - mx))).collect(),
            line: true,
        });
    }
    rep.rows.push(Row::new(
        &name,
        "TVD/upwind error, finest grid",
        finest[1] / finest[0],
        CONVECTION_RATIO,
        CONVECTION_RATIO,
        Check::AtMost,
    ));
    let c = crate::methods::simple_ts::physics::Constants::new(&base.gas);
    rep.notes.push(format!(
        "Cell Péclet number U h / ν on the levels: {}",
        levels
            .iter()
            .map(|&nx| format!(
                "{:.2}",
                base.initial.u * (base.grid.x[1] - base.grid.x[0]) / nx as f64 / c.b
            ))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    rep.plots.push(Plot {
        name: "order".into(),
        title: "Shear-wave amplitude error against cell width (log10–log10)".into(),
        x: "log10 h".into(),
        y: "log10 |a − a_ref| / ε".into(),
        series,
    });
    Ok(())
}

pub(super) fn budgets(
    root: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let dir = root.join("validation").join("budgets");
    let case = load_variant(&dir, "case", quick)?;
    let mut solver = bk.solver(&case)?;
    let (mut worst, mut worst_cell, mut unconverged, mut pts) = (0.0f64, 0.0f64, 0u64, vec![]);
    for s in 1..=case.time.n_steps() {
        let st = solver.step().map_err(|source| ValidateError::Run {
            case: case.name.clone(),
            source,
        })?;
        unconverged += u64::from(!st.converged);
        // The budget of iterate k against level n, with the fluxes rebuilt from iterate k.
        let b = host_copy(&case, solver.as_mut())?.mass_budget();
        let rel = (b.imbalance / b.mass).abs();
        worst = worst.max(rel);
        worst_cell = worst_cell.max(b.max_cell_rel);
        pts.push((s as f64, rel.max(1e-20).log10()));
    }
    let name = rep.case.clone();
    rep.rows.push(Row::new(
        &name,
        "mass: max |Σ imbalance| / mass",
        worst,
        MASS_TOL,
        MASS_TOL,
        Check::AtMost,
    ));
    rep.rows.push(Row::new(
        &name,
        "steps without loop-2 convergence",
        unconverged as f64,
        0.0,
        0.0,
        Check::AtMost,
    ));
    let couette = load_variant(&root.join("validation").join("couette_heat"), "case", quick)?;
    let ratio = couette_energy_ratio(&couette, bk)?;
    rep.rows.push(Row::new(
        &name,
        "energy: Couette heat out / work",
        ratio,
        1.0,
        ENERGY_TOL,
        Check::Relative,
    ));
    rep.notes.push(format!(
        "{}: {} steps; largest per-cell continuity residual / (ρV) = {worst_cell:.3e}.",
        case.name,
        case.time.n_steps()
    ));
    let n = pts.len() as f64;
    rep.plots.push(Plot {
        name: "mass".into(),
        title: "Global mass imbalance per time step (log10 of |Σ imbalance| / mass)".into(),
        x: "time step".into(),
        y: "log10 relative imbalance".into(),
        series: vec![
            Series {
                label: "bound 1e-10".into(),
                points: vec![(1.0, -10.0), (n, -10.0)],
                line: true,
            },
            Series {
                label: "simplets".into(),
                points: pts,
                line: false,
            },
        ],
    });
    Ok(())
}
