//! Shallow water: the Ritter and Stoker dam breaks against `exact::shallow_water`, and the 2D
//! partial dam break (depth contours).

use std::path::Path;

use super::*;
use crate::error::ValidateError;
use crate::methods::explicit::solver::Explicit;
use crate::methods::explicit::Flux;
use crate::methods::AnyCase;
use crate::solver::Solver;
use crate::validate::{Backend, CaseReport, Check, Plot, Row, Series};

/// Ritter (dry bed) and Stoker (wet bed) dam breaks: L1(h) against the exact cell averages
/// under refinement, mass conserved.
pub(super) fn dam_break_1d(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    use crate::exact::shallow_water::{solve_sw, SwState};
    let levels: &[usize] = if quick {
        &[100, 200]
    } else {
        &[100, 200, 400, 800]
    };
    for (file, name, hr, bound) in [
        (
            "ritter.json",
            "ritter",
            0.0,
            if quick { 0.09 } else { 0.036 },
        ),
        (
            "stoker.json",
            "stoker",
            0.1,
            if quick { 0.095 } else { 0.036 },
        ),
    ] {
        let base = load(dir, file)?;
        let g = 9.81;
        let sol = solve_sw(SwState::new(1.0, 0.0), SwState::new(hr, 0.0), g).map_err(|e| {
            ValidateError::Data {
                path: file.into(),
                reason: e.to_string(),
            }
        })?;
        let (mut hs, mut errs) = (vec![], vec![]);
        let mut plot = None;
        let mut drift: f64 = 0.0;
        for &n in levels {
            let c = with_grid(&base, n, None);
            let p0: f64 = c
                .explicit_problem()
                .unwrap()
                .initial
                .iter()
                .take(c.explicit_problem().unwrap().mesh.ns)
                .sum();
            let s = solve(bk, &c)?;
            let t = s.clock().1;
            let dx = s.problem().mesh.dx;
            let q = s.conserved_interior().map_err(run_err(name))?;
            let mut l1 = 0.0;
            let mut ex = vec![];
            let mut ours = vec![];
            for (k, x) in centres(&s).into_iter().enumerate() {
                let e = sol
                    .cell_average(x - 0.5 * dx, x + 0.5 * dx, t, 5.0)
                    .map_err(|e| ValidateError::Data {
                        path: file.into(),
                        reason: e.to_string(),
                    })?;
                let h = q[0][k] / g;
                l1 += (h - e[0]).abs() * dx;
                ex.push((x, e[0]));
                ours.push((x, h));
            }
            let p1: f64 = q[0].iter().sum();
            drift = drift.max((p1 - p0).abs() / p0);
            hs.push(dx);
            errs.push(l1);
            plot = Some((ex, ours));
        }
        let finest = *levels.last().unwrap();
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: L1(h) N={finest}"),
            errs[errs.len() - 1],
            bound,
            bound,
            Check::AtMost,
        ));
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: L1 order"),
            order(&hs, &errs),
            0.8,
            0.35,
            Check::Absolute,
        ));
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: relative mass change"),
            drift,
            1e-13,
            1e-13,
            Check::AtMost,
        ));
        if let Some((ex, ours)) = plot {
            rep.plots.push(Plot {
                name: name.into(),
                title: format!(
                    "{name} dam break, t = 0.4 s: depth, first-order SHLL on {finest} cells"
                ),
                x: "x [m]".into(),
                y: "h [m]".into(),
                series: vec![
                    Series {
                        label: "exact".into(),
                        points: ex,
                        line: true,
                    },
                    Series {
                        label: "SHLL".into(),
                        points: ours,
                        line: false,
                    },
                ],
            });
        }
    }
    Ok(())
}

/// Cells (x, y) of a 2D field whose value lies within `band` of each level: a contour
/// picture drawn with the report's markers (one series per level).
pub(super) fn contours(
    s: &Explicit,
    f: &[f64],
    levels: &[f64],
    band: f64,
    labels: &str,
) -> Vec<Series> {
    let m = s.problem().mesh;
    levels
        .iter()
        .map(|&l| Series {
            label: format!("{labels} {l}"),
            points: m
                .rows()
                .enumerate()
                .flat_map(|(jj, j)| m.cols().enumerate().map(move |(ii, i)| (ii, jj, i, j)))
                .filter(|&(ii, jj, _, _)| (f[ii + jj * m.nx] - l).abs() < band)
                .map(|(_, _, i, j)| m.centre(i, j))
                .collect(),
            line: false,
        })
        .collect()
}

/// The Fennema–Chaudhry partial dam break: mass conserved to round-off in the closed basin,
/// depth stays positive, HLL and SHLL nearly identical (the paper's Fig. 7); contour picture.
pub(super) fn dam_break_2d(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let c = load(
        dir,
        if quick {
            "case.quick.json"
        } else {
            "case.json"
        },
    )?;
    let p = c.explicit_problem().unwrap();
    let total0: f64 = interior_sums(&p, &p.initial)[0];
    let s = solve(bk, &c)?;
    let q = s.conserved_interior().map_err(run_err("dam_break_2d"))?;
    let total1: f64 = q[0].iter().sum();
    // Round-off: a few ulps per cell and step summed over 4e4 cells and ~600 steps.
    rep.rows.push(Row::new(
        &rep.case,
        "relative mass change (closed basin)",
        (total1 - total0).abs() / total0,
        1e-12,
        1e-12,
        Check::AtMost,
    ));
    let hmin = q[0].iter().cloned().fold(f64::INFINITY, f64::min) / 9.81;
    rep.rows.push(Row::new(
        &rep.case,
        "-min h (positivity)",
        -hmin,
        0.0,
        0.0,
        Check::AtMost,
    ));
    let t = s.clock().1;
    rep.rows.push(Row::new(
        &rep.case,
        "end time reached",
        t,
        7.2,
        1e-12,
        Check::Absolute,
    ));
    let mut hll_case = c.clone();
    if let AnyCase::ShllShallowWater(w) = &mut hll_case {
        w.scheme.flux = Flux::Hll;
    }
    let s2 = solve(bk, &hll_case)?;
    let q2 = s2.conserved_interior().map_err(run_err("dam_break_2d"))?;
    let diff: f64 = q[0]
        .iter()
        .zip(&q2[0])
        .map(|(a, b)| (a - b).abs())
        .sum::<f64>()
        / q[0].iter().sum::<f64>();
    rep.rows.push(Row::new(
        &rep.case,
        "relative L1 difference of h, SHLL vs HLL",
        diff,
        0.01,
        0.01,
        Check::AtMost,
    ));
    let h: Vec<f64> = q[0].iter().map(|x| x / 9.81).collect();
    let mut series = contours(&s, &h, &[5.5, 6.5, 7.5, 8.5], 0.04, "h =");
    let m = s.problem().mesh;
    let mask = s.layout().mask.clone();
    series.push(Series {
        label: "dam (solid cells)".into(),
        points: m
            .rows()
            .enumerate()
            .flat_map(|(jj, j)| m.cols().enumerate().map(move |(ii, i)| (ii, jj, i, j)))
            .filter(|&(ii, jj, _, _)| mask[ii + jj * m.nx] == 0)
            .map(|(_, _, i, j)| m.centre(i, j))
            .collect(),
        line: false,
    });
    rep.plots.push(Plot {
        name: "depth".into(),
        title: format!(
            "partial dam break, t = {t} s: cells near h = 5.5, 6.5, 7.5, 8.5 m (SHLL, {} x {})",
            m.nx, m.ny
        ),
        x: "x [m]".into(),
        y: "y [m]".into(),
        series,
    });
    Ok(())
}
