//! The plots of a study: grid convergence, the schemes' C_d, the finest level's forces over
//! the window, and the centreline profiles of the finest levels (p ahead of the square, u
//! behind it).

use super::plan::fmt_h;
use super::run::{inflow, SquareRun};
use super::spec::scheme_name;
use crate::methods::simple_ts::case::{Case, Convection, Interpolation};
use crate::validate::{CaseReport, Plot, Series};

/// Grid convergence: the series `conv` (each metric over its extrapolated or finest value)
/// and the line at 1 from h = 0 to the coarsest cell width `h0`, of the scheme `own`.
pub(super) fn convergence_plot(
    mut conv: Vec<Series>,
    h0: f64,
    own: (Convection, Interpolation),
) -> Plot {
    conv.push(Series {
        label: "1 (the extrapolated or finest value)".into(),
        points: vec![(0.0, 1.0), (h0, 1.0)],
        line: true,
    });
    Plot {
        name: "convergence".into(),
        title: format!(
            "Grid convergence ({}): each metric over its Richardson-extrapolated value \
             (or its finest-grid value when not monotone)",
            scheme_name(own)
        ),
        x: "cell width h / L".into(),
        y: "metric / extrapolated".into(),
        series: conv,
    }
}

/// The time-averaged C_d of the four schemes on one grid.
pub(super) fn schemes_plot(scheme_runs: &[SquareRun]) -> Plot {
    let cds: Vec<f64> = scheme_runs.iter().map(|r| r.cd).collect();
    Plot {
        name: "schemes".into(),
        title: format!(
            "Time-averaged C_d of the four schemes on h = {} (1 implicit-upwind, 2 implicit-tvd, \
             3 explicit-upwind, 4 explicit-tvd)",
            fmt_h(scheme_runs[0].h)
        ),
        x: "scheme".into(),
        y: "C_d".into(),
        series: vec![Series {
            label: "C_d".into(),
            points: cds
                .iter()
                .enumerate()
                .map(|(i, &c)| ((i + 1) as f64, c))
                .collect(),
            line: false,
        }],
    }
}

/// The forces of the finest level over its window, and the centreline profiles of the
/// finest (up to three) levels with the finest level's shock position and reattachment.
pub(super) fn centreline_plots(rep: &mut CaseReport, grid_runs: &[SquareRun], base: &Case) {
    let own = (base.scheme.convection, base.scheme.interpolation);
    let n = grid_runs.len();
    let fine = &grid_runs[n - 1];
    let shown = &grid_runs[n.saturating_sub(3)..];
    // p ahead of the square (the shock), u behind it (the wake): no line crosses the body.
    let body = &base.bodies[0];
    let ahead = |x: &f64| *x >= (body.x[0] - 4.0).max(base.grid.x[0]) && *x <= body.x[0];
    let behind = |x: &f64| *x >= body.x[1] && *x <= (body.x[1] + 10.0).min(base.grid.x[1]);
    let mut ps: Vec<Series> = shown
        .iter()
        .map(|r| profile("p", r, &r.line.x_p, &r.line.p, &ahead))
        .collect();
    let mut us: Vec<Series> = shown
        .iter()
        .map(|r| profile("u", r, &r.line.x_u, &r.line.u, &behind))
        .collect();
    if let Some(d) = fine.standoff {
        let pmax = fine
            .line
            .p
            .iter()
            .cloned()
            .filter(|p| p.is_finite())
            .fold(0.0, f64::max);
        ps.push(Series {
            label: format!(
                "shock position on h = {} (stand-off {d:.4} from the front face x = {})",
                fmt_h(fine.h),
                body.x[0]
            ),
            points: vec![(body.x[0] - d, 0.0), (body.x[0] - d, pmax)],
            line: true,
        });
    }
    if let Some(l) = fine.recirc.filter(|l| *l > 0.0) {
        let u_in = inflow(base).0;
        us.push(Series {
            label: format!(
                "reattachment on h = {} (recirculation length {l:.4} from the rear face x = {})",
                fmt_h(fine.h),
                body.x[1]
            ),
            points: vec![(body.x[1] + l, -0.1 * u_in), (body.x[1] + l, u_in)],
            line: true,
        });
    }
    rep.plots.push(forces_plot(fine, own));
    let yc = 0.5 * (body.y[0] + body.y[1]);
    rep.plots.push(Plot {
        name: "p".into(),
        title: format!(
            "Centreline pressure y = {yc} ahead of the square ({}); the front face is the right end",
            scheme_name(own)
        ),
        x: "x / L".into(),
        y: "p / p_in".into(),
        series: ps,
    });
    rep.plots.push(Plot {
        name: "u".into(),
        title: format!(
            "Centreline u y = {yc} behind the square ({}); the rear face is the left end",
            scheme_name(own)
        ),
        x: "x / L".into(),
        y: "u / V_th".into(),
        series: us,
    });
}

/// One series of a shown level: the finite values of a centreline profile where `keep`.
fn profile(
    name: &str,
    r: &SquareRun,
    xs: &[f64],
    vs: &[f64],
    keep: &dyn Fn(&f64) -> bool,
) -> Series {
    Series {
        label: format!("time-averaged {name}, h = {}", fmt_h(r.h)),
        points: xs
            .iter()
            .zip(vs)
            .filter(|(x, v)| keep(x) && v.is_finite())
            .map(|(&x, &v)| (x, v))
            .collect(),
        line: true,
    }
}

/// C_d and C_l of the run `fine` over its averaging window.
fn forces_plot(fine: &SquareRun, own: (Convection, Interpolation)) -> Plot {
    Plot {
        name: "forces".into(),
        title: format!(
            "C_d and C_l over the averaging window, h = {} ({})",
            fmt_h(fine.h),
            scheme_name(own)
        ),
        x: "t / (L/V_th)".into(),
        y: "coefficient".into(),
        series: vec![
            Series {
                label: format!("C_d (mean {:.4})", fine.cd),
                points: fine.history.iter().map(|&(t, d, _)| (t, d)).collect(),
                line: true,
            },
            Series {
                label: format!("C_l (mean {:.2e})", fine.cl),
                points: fine.history.iter().map(|&(t, _, l)| (t, l)).collect(),
                line: true,
            },
        ],
    }
}
