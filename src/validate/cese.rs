//! Validation of CE/SE (`cese_euler`, seed 000): the thesis' four 1D cases (Sod and the
//! strong rarefaction against the exact Riemann solver, the blast waves and Shu–Osher against
//! a 16× finer run of the same scheme; L1(ρ) and observed order), the four-shock 2D Riemann
//! problem (symmetry about y = x to round-off, positivity) and the smooth periodic 2D density
//! wave (second order, conservation to round-off).
//!
//! Each case reads its files from `validation/<case>/` (README: reference, metric, tolerance
//! and why) and refines them here.

use std::path::Path;

use super::{Backend, CaseReport, Check, Plot, Row, Series};
use crate::error::ValidateError;
use crate::exact::quadrature::gauss_legendre_8;
use crate::exact::riemann::{solve as riemann, Prim, RiemannSolution};
use crate::methods::cese::case::Case;
use crate::methods::cese::solver::Cese;
use crate::methods::AnyCase;
use crate::solver::Solver;

/// The CE/SE validation cases, in the order `validate all` runs them.
pub const CASES: [&str; 3] = ["cese_riemann", "cese_riemann_2d", "cese_smooth"];

/// Run the CE/SE case `name` from `dir` into `rep`.
pub fn run(
    name: &str,
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    match name {
        "cese_riemann" => riemann_1d(dir, quick, rep, bk),
        "cese_riemann_2d" => riemann_2d(dir, quick, rep, bk),
        "cese_smooth" => smooth(dir, quick, rep, bk),
        _ => Err(ValidateError::UnknownCase {
            name: name.into(),
            known: CASES.join(", "),
        }),
    }
}

fn load(dir: &Path, file: &str) -> Result<Case, ValidateError> {
    match AnyCase::load(&dir.join(file))? {
        AnyCase::CeseEuler(c) => Ok(c),
        other => Err(ValidateError::Data {
            path: file.into(),
            reason: format!("method {} (expected cese_euler)", other.method()),
        }),
    }
}

fn with_grid(c: &Case, nx: usize, ny: usize) -> Case {
    let mut c = c.clone();
    c.grid.nx = nx;
    c.grid.ny = ny;
    c
}

/// Build `case` on the backend and march it to its end (end time or step count).
fn solve(bk: &Backend, case: &Case) -> Result<Cese, ValidateError> {
    let p = case.problem();
    let steps = p.total_steps;
    let mut s = Cese::new(p, &bk.choice).map_err(|e| ValidateError::Backend {
        case: case.name.clone(),
        reason: e.to_string(),
    })?;
    bk.record(s.name());
    for _ in 0..steps {
        if s.finished() {
            break;
        }
        s.step().map_err(|source| ValidateError::Run {
            case: case.name.clone(),
            source,
        })?;
    }
    Ok(s)
}

/// The conserved variables at the integer points (row-major, one array each).
fn conserved(s: &Cese, case: &str) -> Result<Vec<Vec<f64>>, ValidateError> {
    s.conserved().map_err(|source| ValidateError::Run {
        case: case.into(),
        source,
    })
}

/// Least-squares slope of log e against log h.
fn order(h: &[f64], e: &[f64]) -> f64 {
    super::cases::observed_order(h, e)
}

/// The exact average of ρ over [a, b] at time t: the 8-point Gauss rule on each piece between
/// the waves, exact to round-off (ρ is constant between waves and a polynomial of degree
/// 2/(γ−1) ≤ 7 in x inside a fan for γ = 1.4), with no adaptive refinement that a wave
/// position rounded differently from the sampler's could drive to its depth limit.
pub fn exact_rho_average(sol: &RiemannSolution, a: f64, b: f64, t: f64, x0: f64) -> f64 {
    let mut cuts = vec![a];
    for s in sol.breakpoints() {
        let x = x0 + s * t;
        if x > a && x < b {
            cuts.push(x);
        }
    }
    cuts.push(b);
    cuts.sort_by(f64::total_cmp);
    let f = |x: f64| [sol.at(x, t, x0).rho];
    let sum: f64 = cuts
        .windows(2)
        .map(|w| gauss_legendre_8(&f, w[0], w[1]).0[0])
        .sum();
    sum / (b - a)
}

/// The Riemann problem of a two-state shock-tube case: left = the first region, right = the
/// background, the discontinuity at the region's east end.
fn tube_problem(c: &Case, file: &str) -> Result<(Prim, Prim, f64), ValidateError> {
    let r = c
        .initial
        .regions
        .first()
        .ok_or_else(|| ValidateError::Data {
            path: file.into(),
            reason: "a shock tube needs one region (the left state)".into(),
        })?;
    let x0 = r.x.map_or(f64::NAN, |x| x[1]);
    let p = |s: &crate::methods::shll::case::EulerState| Prim::new(s.rho, s.u, s.p);
    Ok((p(&r.state), p(&c.initial.state), x0))
}

/// ρ of a 1D run averaged onto a grid `k` times coarser (nested cells).
fn coarsen(rho: &[f64], k: usize) -> Vec<f64> {
    rho.chunks(k)
        .map(|c| c.iter().sum::<f64>() / k as f64)
        .collect()
}

/// The 1D cases of `validation/cese_riemann/`.
fn riemann_1d(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let levels: &[usize] = if quick {
        &[200, 400]
    } else {
        &[400, 800, 1600, 4000]
    };
    // (file, exact reference, bound on L1(ρ) at the finest level: 10 % above the value
    // measured when the case was written, a regression bound)
    let cases = [
        ("sod.json", true, if quick { 2.4e-3 } else { 3.9e-4 }),
        (
            "strong_rarefaction.json",
            true,
            if quick { 5.1e-3 } else { 6.4e-4 },
        ),
        ("blast.json", false, if quick { 0.26 } else { 0.036 }),
        ("shu_osher.json", false, if quick { 0.086 } else { 3.8e-3 }),
    ];
    for (file, exact, bound) in cases {
        let base = load(dir, file)?;
        let name = file.trim_end_matches(".json");
        let sol = if exact {
            let (l, r, x0) = tube_problem(&base, file)?;
            let s = riemann(l, r, base.gas.gamma).map_err(|e| ValidateError::Data {
                path: file.into(),
                reason: e.to_string(),
            })?;
            Some((s, x0))
        } else {
            None
        };
        let len = base.grid.x[1] - base.grid.x[0];
        let finest = *levels.last().unwrap();
        // The fine reference of a case without an exact solution: 16 × the finest level
        // of the quick variant, 8 × the full one's (the cost grows with the square).
        let fine = if exact {
            None
        } else {
            let n = if quick { 16 * finest } else { 8 * finest };
            let s = solve(bk, &with_grid(&base, n, 1))?;
            Some((n, conserved(&s, name)?.swap_remove(0)))
        };
        let (mut hs, mut errs, mut rho_min, mut plot) = (vec![], vec![], f64::INFINITY, None);
        for &n in levels {
            let s = solve(bk, &with_grid(&base, n, 1))?;
            let t = s.clock().1;
            let dx = len / n as f64;
            let rho = conserved(&s, name)?.swap_remove(0);
            let reference: Vec<f64> = match (&sol, &fine) {
                (Some((sol, x0)), _) => (0..n)
                    .map(|i| {
                        let a = base.grid.x[0] + i as f64 * dx;
                        exact_rho_average(sol, a, a + dx, t, *x0)
                    })
                    .collect(),
                (None, Some((nf, rf))) => coarsen(rf, nf / n),
                _ => unreachable!(),
            };
            let l1: f64 = rho
                .iter()
                .zip(&reference)
                .map(|(a, b)| (a - b).abs() * dx)
                .sum();
            rho_min = rho.iter().copied().fold(rho_min, f64::min);
            hs.push(dx);
            errs.push(l1);
            let x = |i: usize| base.grid.x[0] + (i as f64 + 0.5) * dx;
            plot = Some((
                reference
                    .iter()
                    .enumerate()
                    .map(|(i, r)| (x(i), *r))
                    .collect(),
                rho.iter().enumerate().map(|(i, r)| (x(i), *r)).collect(),
            ));
        }
        let against = if exact { "exact" } else { "fine run" };
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: L1(rho) vs {against} N={finest}"),
            errs[errs.len() - 1],
            bound,
            bound,
            Check::AtMost,
        ));
        // Discontinuous solutions: between ½ (contacts) and 1 (shocks). Against a fine run
        // the reference's own error is not negligible at the finest level, which inflates the
        // observed order (Shu–Osher, full: 1.35; its smooth entropy waves converge faster):
        // 1 ± 0.5 there.
        let (expect, tol) = if exact { (0.85, 0.3) } else { (1.0, 0.5) };
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{name}: L1 order"),
            order(&hs, &errs),
            expect,
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
        rep.notes.push(format!(
            "{name}: L1(rho) per level {:?} at N = {levels:?}{}",
            errs.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>(),
            fine.as_ref()
                .map_or(String::new(), |(n, _)| format!(", reference run N = {n}"))
        ));
        if let Some((reference, ours)) = plot {
            rep.plots.push(Plot {
                name: format!("cese_{name}"),
                title: format!("{name}: density, CE/SE alpha-scheme on {finest} points"),
                x: "x".into(),
                y: "rho".into(),
                series: vec![
                    Series {
                        label: if exact {
                            "exact (Toro ch. 4)".into()
                        } else {
                            "fine run".into()
                        },
                        points: reference,
                        line: true,
                    },
                    Series {
                        label: "CE/SE".into(),
                        points: ours,
                        line: false,
                    },
                ],
            });
        }
    }
    Ok(())
}

/// The four-shock Riemann problem of `validation/cese_riemann_2d/`: symmetry about y = x to
/// round-off (ρ(i, j) = ρ(j, i), ρu(i, j) = ρv(j, i), E(i, j) = E(j, i)) and positivity.
fn riemann_2d(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let base = load(dir, "config3.json")?;
    let n = if quick { 64 } else { 200 };
    let s = solve(bk, &with_grid(&base, n, n))?;
    let q = conserved(&s, "config3")?;
    let at = |v: usize, i: usize, j: usize| q[v][i + j * n];
    let (mut asym, mut scale) = (0.0f64, 0.0f64);
    let (mut rho_min, mut p_min, mut rho_max) = (f64::INFINITY, f64::INFINITY, 0.0f64);
    let g = base.gas.gamma;
    for j in 0..n {
        for i in 0..n {
            for (a, b) in [(0, 0), (1, 2), (2, 1), (3, 3)] {
                asym = asym.max((at(a, i, j) - at(b, j, i)).abs());
                scale = scale.max(at(a, i, j).abs());
            }
            let (r, mx, my, e) = (at(0, i, j), at(1, i, j), at(2, i, j), at(3, i, j));
            let p = (g - 1.0) * (e - 0.5 * (mx * mx + my * my) / r);
            rho_min = rho_min.min(r);
            rho_max = rho_max.max(r);
            p_min = p_min.min(p);
        }
    }
    // The kernels evaluate the x and y formulas with the momenta swapped and every sum of an
    // x and a y term grouped symmetrically, so the mirror image is the same bits in exact
    // symmetry; 1e-12 relative leaves room for a future reordering (seed 000 §12 asks ~1e-12).
    rep.rows.push(Row::new(
        &rep.case,
        &format!("config 3 {n}x{n}: max |q(i,j) - mirror q(j,i)| / max |q|"),
        asym / scale,
        1e-12,
        1e-12,
        Check::AtMost,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        "config 3: -min rho (positivity)",
        -rho_min,
        0.0,
        0.0,
        Check::AtMost,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        "config 3: -min p (positivity)",
        -p_min,
        0.0,
        0.0,
        Check::AtMost,
    ));
    rep.notes.push(format!(
        "config 3 at {n}x{n}, t = {}: rho in [{rho_min:.4}, {rho_max:.4}], min p {p_min:.4} \
         (seed 000 §4.7 prototype at 200²: rho >= 0.138, p >= 0.029, peak 2.36)",
        s.clock().1
    ));
    let diag: Vec<(f64, f64)> = (0..n)
        .map(|i| (-0.5 + (i as f64 + 0.5) / n as f64, at(0, i, i)))
        .collect();
    rep.plots.push(Plot {
        name: "cese_config3_diagonal".into(),
        title: format!("Config 3, t = 0.3: density along y = x, CE/SE on {n}x{n}"),
        x: "x = y".into(),
        y: "rho".into(),
        series: vec![Series {
            label: "CE/SE".into(),
            points: diag,
            line: true,
        }],
    });
    Ok(())
}

/// The smooth periodic density wave of `validation/cese_smooth/` (seed 000 §4.7): L1(ρ)
/// against the exact point values under refinement (second order), and the totals of every
/// conserved variable constant to round-off.
fn smooth(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    use crate::exact::density_wave::DensityWave;
    let base = load(dir, "wave.json")?;
    let levels: &[usize] = if quick {
        &[32, 64]
    } else {
        &[32, 64, 128, 256]
    };
    let w = DensityWave::cese_seed();
    let (mut hs, mut errs, mut drift) = (vec![], vec![], 0.0f64);
    for &n in levels {
        let c = with_grid(&base, n, n);
        let init = c.problem();
        let s = solve(bk, &c)?;
        let t = s.clock().1;
        let q = conserved(&s, "wave")?;
        let m = &init.mesh;
        let mut l1 = 0.0;
        for j in 0..n {
            for i in 0..n {
                let (x, y) = m.centre(i, j);
                l1 += (q[0][i + j * n] - w.point(x, y, t).rho).abs() * m.dx * m.dy;
            }
        }
        for (v, qv) in q.iter().enumerate() {
            let before: f64 = (0..n * n)
                .map(|k| init.initial[v * m.ns + m.idx(k % n, k / n)])
                .sum();
            let after: f64 = qv.iter().sum();
            drift = drift.max((after - before).abs() / before.abs().max(1.0));
        }
        hs.push(1.0 / n as f64);
        errs.push(l1);
    }
    let k = errs.len();
    // The prototype of seed 000 §4.7: 3.70e-2, 1.30e-2, 3.61e-3, 8.58e-4 (orders 1.5, 1.85,
    // 2.07); the last pair is the asymptotic one.
    let last = order(&hs[k - 2..], &errs[k - 2..]);
    let (expect, tol) = if quick { (1.5, 0.3) } else { (2.0, 0.25) };
    rep.rows.push(Row::new(
        &rep.case,
        &format!(
            "density wave: L1 order N={}..{}",
            levels[k - 2],
            levels[k - 1]
        ),
        last,
        expect,
        tol,
        Check::Absolute,
    ));
    // Each total is a sum of n² values each rounded once per half step: 1e-12 relative is
    // far above that round-off and far below any real leak (a boundary flux error).
    rep.rows.push(Row::new(
        &rep.case,
        "density wave: max relative drift of the totals",
        drift,
        1e-12,
        1e-12,
        Check::AtMost,
    ));
    rep.notes.push(format!(
        "density wave: L1(rho) per level {:?} at N = {levels:?} (prototype: 3.70e-2, 1.30e-2, \
         3.61e-3, 8.58e-4 at 32..256)",
        errs.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>()
    ));
    Ok(())
}
