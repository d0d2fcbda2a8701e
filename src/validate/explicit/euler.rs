//! Euler: the Riemann problems against the exact solver, Shu's isentropic vortex (orders 1 and 2)
//! and the seed 002 shock–bubble case (mass, positivity, pictures).

use std::path::Path;

use super::*;
use crate::error::ValidateError;
use crate::methods::explicit::Flux;
use crate::methods::shll::case::Reconstruction;
use crate::methods::AnyCase;
use crate::solver::Solver;
use crate::validate::{Backend, CaseReport, Check, Plot, Row, Series};

/// The Euler Riemann problems of `validation/riemann_euler/`: L1(ρ) against the exact
/// cell averages (Toro ch. 4) under refinement, first-order SHLL and HLL, MUSCL for Sod.
pub(super) fn riemann_euler(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    use crate::exact::shock_tube::{LAX, SOD, TORO_TESTS};
    let levels: &[usize] = if quick {
        &[100, 200]
    } else {
        &[100, 200, 400, 800]
    };
    // (file, problem, bound on L1(ρ) of SHLL at the finest level, expected order, tolerance)
    let problems = [
        ("sod.json", SOD, if quick { 0.016 } else { 0.0065 }),
        ("lax.json", LAX, if quick { 0.035 } else { 0.0165 }),
        (
            "toro123.json",
            TORO_TESTS[1],
            if quick { 0.024 } else { 0.0105 },
        ),
        (
            "strong_shock.json",
            TORO_TESTS[2],
            if quick { 0.19 } else { 0.09 },
        ),
    ];
    for (file, prob, bound) in problems {
        let base = load(dir, file)?;
        let sol = prob.solve().map_err(|e| ValidateError::Data {
            path: file.into(),
            reason: e.to_string(),
        })?;
        let mut hs = vec![];
        let mut errs = vec![];
        let mut profile = None;
        let mut rho_min = f64::INFINITY;
        for &n in levels {
            let c = with_grid(&base, n, None);
            let s = solve(bk, &c)?;
            let t = s.clock().1;
            let dx = s.problem().mesh.dx;
            let rho = &s.conserved_interior().map_err(run_err(prob.name))?[0];
            let mut l1 = 0.0;
            let mut exact = vec![];
            for (k, x) in centres(&s).into_iter().enumerate() {
                let e = sol
                    .cell_average(x - 0.5 * dx, x + 0.5 * dx, t, prob.x0)
                    .map_err(|e| ValidateError::Data {
                        path: file.into(),
                        reason: e.to_string(),
                    })?;
                l1 += (rho[k] - e.rho).abs() * dx;
                exact.push((x, e.rho));
                rho_min = rho_min.min(rho[k]);
            }
            hs.push(dx);
            errs.push(l1);
            profile = Some((
                exact,
                centres(&s)
                    .into_iter()
                    .zip(rho.iter().copied())
                    .collect::<Vec<_>>(),
            ));
        }
        let name = prob.name;
        let finest = *levels.last().unwrap();
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: L1(rho) SHLL N={finest}"),
            errs[errs.len() - 1],
            bound,
            bound,
            Check::AtMost,
        ));
        let o = order(&hs, &errs);
        // First order on a discontinuous solution: between ½ (contacts) and 1 (shocks); the
        // coarse quick levels are pre-asymptotic (the blast wave: 0.33 from 100 to 200 cells).
        let tol = if quick { 0.45 } else { 0.3 };
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: L1 order SHLL"),
            o,
            0.75,
            tol,
            Check::Absolute,
        ));
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: -min rho (positivity)"),
            -rho_min,
            0.0,
            0.0,
            Check::AtMost,
        ));
        // HLL and MUSCL at the finest level.
        let finest_err = |flux, rec| -> Result<f64, ValidateError> {
            let s = solve(bk, &with_scheme(&with_grid(&base, finest, None), flux, rec))?;
            let t = s.clock().1;
            let dx = s.problem().mesh.dx;
            let rho = &s.conserved_interior().map_err(run_err(name))?[0];
            let mut l1 = 0.0;
            for (k, x) in centres(&s).into_iter().enumerate() {
                let e = sol
                    .cell_average(x - 0.5 * dx, x + 0.5 * dx, t, prob.x0)
                    .map_err(|e| ValidateError::Data {
                        path: file.into(),
                        reason: e.to_string(),
                    })?;
                l1 += (rho[k] - e.rho).abs() * dx;
            }
            Ok(l1)
        };
        let hll = finest_err(Flux::Hll, Reconstruction::FirstOrder)?;
        rep.notes.push(format!("{name}, N = {finest}: L1(rho) SHLL {:.4e}, HLL {:.4e} (ratio {:.3}); SHLL L1 per level {:?}", errs[errs.len() - 1], hll, errs[errs.len() - 1] / hll, errs.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>()));
        if name == "sod" {
            let m = finest_err(Flux::Shll, Reconstruction::Muscl)?;
            rep.rows.push(Row::new(
                &rep.case,
                &format!("sod: L1(rho) MUSCL/SHLL first order N={finest}"),
                m / errs[errs.len() - 1],
                0.6,
                0.6,
                Check::AtMost,
            ));
            if let Some((exact, ours)) = profile.take() {
                rep.plots.push(Plot {
                    name: "sod".into(),
                    title: format!("Sod, t = 0.2: density, first-order SHLL on {finest} cells"),
                    x: "x".into(),
                    y: "rho".into(),
                    series: vec![
                        Series {
                            label: "exact (Toro ch. 4)".into(),
                            points: exact,
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
    }
    Ok(())
}

/// Shu's isentropic vortex on the periodic box: L1(ρ) against exact cell averages at t_end,
/// first-order SHLL (order ≈ 1) and MUSCL van Leer + SSP-RK2 (order ≈ 2).
pub(super) fn isentropic_vortex(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    use crate::exact::vortex::IsentropicVortex;
    let base = load(dir, "case.json")?;
    let levels: &[usize] = if quick {
        &[64, 128]
    } else {
        &[32, 64, 128, 256]
    };
    let v = IsentropicVortex::shu();
    for (label, rec, expect, tol) in [
        ("first order", Reconstruction::FirstOrder, 1.0, 0.3),
        ("MUSCL", Reconstruction::Muscl, 2.0, 0.45),
    ] {
        let mut hs = vec![];
        let mut errs = vec![];
        for &n in levels {
            let c = with_scheme(&with_grid(&base, n, Some(n)), Flux::Shll, rec);
            let s = solve(bk, &c)?;
            let t = s.clock().1;
            let m = s.problem().mesh;
            let rho = &s.conserved_interior().map_err(run_err("vortex"))?[0];
            let mut l1 = 0.0;
            for (jj, j) in m.rows().enumerate() {
                for (ii, i) in m.cols().enumerate() {
                    let (x, y) = m.centre(i, j);
                    let e = v
                        .cell_average(
                            x - 0.5 * m.dx,
                            x + 0.5 * m.dx,
                            y - 0.5 * m.dy,
                            y + 0.5 * m.dy,
                            t,
                        )
                        .map_err(|e| ValidateError::Data {
                            path: "vortex".into(),
                            reason: e.to_string(),
                        })?;
                    l1 += (rho[ii + jj * m.nx] - e.rho).abs() * m.dx * m.dy;
                }
            }
            hs.push(m.dx);
            errs.push(l1 / 100.0);
        }
        let o = order(&hs[hs.len() - 2..], &errs[errs.len() - 2..]);
        rep.rows.push(Row::new(
            &rep.case,
            &format!("order of L1(rho), {label} (finest pair)"),
            o,
            expect,
            tol,
            Check::Absolute,
        ));
        rep.notes.push(format!(
            "{label}: mean |rho - exact| per level {:?} (h = {:?})",
            errs.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>(),
            hs
        ));
    }
    Ok(())
}

/// The seed 002 shock–bubble case (the substitute of validation/shock_bubble/README.md): it
/// reaches t = 0.2 with positive density and pressure; SHLL against HLL; a schlieren picture.
pub(super) fn shock_bubble(
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
    let s = solve(bk, &c)?;
    let t = s.clock().1;
    rep.rows.push(Row::new(
        &rep.case,
        "end time reached",
        t,
        0.2,
        1e-12,
        Check::Absolute,
    ));
    let q = s.conserved_interior().map_err(run_err("shock_bubble"))?;
    let rmin = q[0].iter().cloned().fold(f64::INFINITY, f64::min);
    rep.rows.push(Row::new(
        &rep.case,
        "-min rho (positivity)",
        -rmin,
        0.0,
        0.0,
        Check::AtMost,
    ));
    let mut hll = c.clone();
    if let AnyCase::ShllEuler(e) = &mut hll {
        e.scheme.flux = Flux::Hll;
    }
    let s2 = solve(bk, &hll)?;
    let q2 = s2.conserved_interior().map_err(run_err("shock_bubble"))?;
    let diff: f64 = q[0]
        .iter()
        .zip(&q2[0])
        .map(|(a, b)| (a - b).abs())
        .sum::<f64>()
        / q[0].iter().map(|x| x.abs()).sum::<f64>();
    rep.notes.push(format!("relative L1 difference of rho, SHLL vs HLL at t = 0.2: {diff:.4e} (the paper's Fig. 4 shows them differ visibly)"));
    // Numerical schlieren: |grad rho| / rho at three levels.
    let m = s.problem().mesh;
    let r = &q[0];
    let at = |i: usize, j: usize| r[i.min(m.nx - 1) + j.min(m.ny - 1) * m.nx];
    let mut g = vec![0.0; m.nx * m.ny];
    for j in 0..m.ny {
        for i in 0..m.nx {
            let gx = (at(i + 1, j) - at(i.saturating_sub(1), j)) / (2.0 * m.dx);
            let gy = (at(i, j + 1) - at(i, j.saturating_sub(1))) / (2.0 * m.dy);
            g[i + j * m.nx] = (gx * gx + gy * gy).sqrt() / at(i, j);
        }
    }
    let gmax = g.iter().cloned().fold(0.0, f64::max);
    let stride = (m.nx / 160).max(1);
    let series = [0.02, 0.08, 0.3]
        .iter()
        .map(|&f| Series {
            label: format!("|grad rho|/rho > {f} max"),
            points: (0..m.ny)
                .step_by(stride)
                .flat_map(|j| (0..m.nx).step_by(stride).map(move |i| (i, j)))
                .filter(|&(i, j)| g[i + j * m.nx] > f * gmax)
                .map(|(i, j)| {
                    (
                        (i as f64 + 0.5) * m.dx + m.x0,
                        (j as f64 + 0.5) * m.dy + m.y0,
                    )
                })
                .collect(),
            line: false,
        })
        .collect();
    rep.plots.push(Plot {
        name: "schlieren".into(),
        title: format!(
            "shock-bubble, t = 0.2, first-order SHLL on {} x {}: numerical schlieren",
            m.nx, m.ny
        ),
        x: "x".into(),
        y: "y".into(),
        series,
    });
    Ok(())
}
