//! The Couette case (`couette_heat`): the steady slip Couette flow with viscous heating
//! against its first-order slip/jump solution, and the energy balance the budgets case
//! asserts (README: `validation/couette_heat/README.md`).

use std::path::Path;

use crate::error::ValidateError;
use crate::methods::simple_ts::case::{Case, Side};
use crate::methods::simple_ts::reference::ops::jump;
use crate::methods::simple_ts::reference::Reference;
use crate::validate::{load_variant, Backend, CaseReport, Check, Plot, Row, Series};

/// Couette metrics: profile within 0.2 % of U, slip, ΔT and jump within 1 % (README).
const COUETTE_U_TOL: f64 = 2e-3;
/// Slip velocity, centreline temperature rise and wall jump, relative.
const COUETTE_REL_TOL: f64 = 0.01;

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

/// `couette_heat`: the u profile, slip velocity, centreline temperature rise and wall jump
/// of the steady flow against the analytic ones.
pub(in crate::validate) fn couette_heat(
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
    rep.plots.extend(profile_plots(up, ua, tp, ta));
    Ok(())
}

/// The u and T profiles across the gap: ours (`u`, `t`, column 2) against the analytic ones
/// (`u_exact`, `t_exact`).
fn profile_plots(
    u: Vec<(f64, f64)>,
    u_exact: Vec<(f64, f64)>,
    t: Vec<(f64, f64)>,
    t_exact: Vec<(f64, f64)>,
) -> [Plot; 2] {
    [
        Plot {
            name: "u".into(),
            title: "Velocity profile across the gap".into(),
            x: "y / H".into(),
            y: "u / V_th".into(),
            series: vec![
                Series {
                    label: "first-order slip solution".into(),
                    points: u_exact,
                    line: true,
                },
                Series {
                    label: "simplets (u-faces, column 2)".into(),
                    points: u,
                    line: false,
                },
            ],
        },
        Plot {
            name: "T".into(),
            title: "Temperature rise T − T_w across the gap".into(),
            x: "y / H".into(),
            y: "(T − T_w) / T0".into(),
            series: vec![
                Series {
                    label: "linearised slip/jump solution".into(),
                    points: t_exact,
                    line: true,
                },
                Series {
                    label: "simplets (cell centres, column 2)".into(),
                    points: t,
                    line: false,
                },
            ],
        },
    ]
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
