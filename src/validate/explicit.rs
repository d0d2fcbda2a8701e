//! Validation of the explicit methods (issue 18) against exact solutions: Euler Riemann
//! problems (Toro ch. 4, `exact::riemann`), Shu's isentropic vortex (orders 1 and 2), the
//! Ritter and Stoker dam breaks (`exact::shallow_water`), linear convection (seed 003's two
//! cases, the exact shift at ν = 1, the order on a smooth profile), the 2D partial dam break
//! and the seed 002 shock–bubble case (mass, positivity, pictures), and conservation to
//! round-off on periodic domains for every method.
//!
//! Each case reads its files from `validation/<case>/` (README: reference, metric,
//! tolerance and why) and refines or varies them here (grid levels, scheme). The runs march
//! on the backend the [`Backend`] was given ([`Backend::choice`]); the analysis reads the
//! conserved fields on the host.

use std::path::Path;

use super::{Backend, CaseReport, Check, Plot, Row, Series};
use crate::error::ValidateError;
use crate::methods::explicit::solver::Explicit;
use crate::methods::explicit::Flux;
use crate::methods::shll::case::Reconstruction;
use crate::methods::AnyCase;
use crate::solver::Solver;

/// The explicit validation cases, in the order `validate all` runs them.
pub const CASES: [&str; 7] = [
    "riemann_euler",
    "isentropic_vortex",
    "dam_break_1d",
    "dam_break_2d",
    "convection",
    "shock_bubble",
    "conservation",
];

/// Run the explicit case `name` from `dir` into `rep`.
pub fn run(
    name: &str,
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    match name {
        "riemann_euler" => riemann_euler(dir, quick, rep, bk),
        "isentropic_vortex" => isentropic_vortex(dir, quick, rep, bk),
        "dam_break_1d" => dam_break_1d(dir, quick, rep, bk),
        "dam_break_2d" => dam_break_2d(dir, quick, rep, bk),
        "convection" => convection(dir, quick, rep, bk),
        "shock_bubble" => shock_bubble(dir, quick, rep, bk),
        "conservation" => conservation(dir, rep, bk),
        _ => Err(ValidateError::UnknownCase {
            name: name.into(),
            known: CASES.join(", "),
        }),
    }
}

fn load(dir: &Path, file: &str) -> Result<AnyCase, ValidateError> {
    Ok(AnyCase::load(&dir.join(file))?)
}

/// `case` with `nx` × `ny` cells (ny `None`: unchanged).
fn with_grid(case: &AnyCase, nx: usize, ny: Option<usize>) -> AnyCase {
    let mut c = case.clone();
    let g = match &mut c {
        AnyCase::Convection(c) => &mut c.grid,
        AnyCase::ShllEuler(c) => &mut c.grid,
        AnyCase::ShllShallowWater(c) => &mut c.grid,
        AnyCase::ShllConvectionDiffusion(c) => &mut c.grid,
        AnyCase::CeseEuler(c) => &mut c.grid,
        AnyCase::SimpleTs(c) => &mut c.grid,
        AnyCase::BpEuler(_) => unreachable!("no explicit validation case is bp_euler"),
    };
    g.nx = nx;
    if let Some(ny) = ny {
        g.ny = ny;
    }
    c
}

/// `case` (an SHLL Euler case) with another flux and reconstruction.
fn with_scheme(case: &AnyCase, flux: Flux, rec: Reconstruction) -> AnyCase {
    let mut c = case.clone();
    if let AnyCase::ShllEuler(e) = &mut c {
        e.scheme.flux = flux;
        e.scheme.reconstruction = rec;
        if rec == Reconstruction::Muscl {
            e.scheme.limiter = crate::methods::explicit::Limiter::VanLeer;
        }
    }
    c
}

/// Build `case` on the backend and march it to its end (end time or step count).
fn solve(bk: &Backend, case: &AnyCase) -> Result<Explicit, ValidateError> {
    let name = case.common().name;
    let p = case.explicit_problem().expect("an explicit case");
    let steps = p.total_steps;
    let mut s = Explicit::new(p, &bk.choice).map_err(|e| ValidateError::Backend {
        case: name.clone(),
        reason: e.to_string(),
    })?;
    bk.record(s.name());
    for _ in 0..steps {
        if s.finished() {
            break;
        }
        s.step().map_err(|source| ValidateError::Run {
            case: name.clone(),
            source,
        })?;
    }
    Ok(s)
}

fn run_err(case: &str) -> impl Fn(crate::error::RunError) -> ValidateError + '_ {
    move |source| ValidateError::Run {
        case: case.into(),
        source,
    }
}

/// Least-squares slope of log e against log h.
fn order(h: &[f64], e: &[f64]) -> f64 {
    super::cases::observed_order(h, e)
}

/// Cell centres of a 1D solver's computed cells.
fn centres(s: &Explicit) -> Vec<f64> {
    let m = &s.problem().mesh;
    m.cols().map(|i| m.centre(i, m.j0()).0).collect()
}

/// The Euler Riemann problems of `validation/riemann_euler/`: L1(ρ) against the exact
/// cell averages (Toro ch. 4) under refinement, first-order SHLL and HLL, MUSCL for Sod.
fn riemann_euler(
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
fn isentropic_vortex(
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

/// Ritter (dry bed) and Stoker (wet bed) dam breaks: L1(h) against the exact cell averages
/// under refinement, mass conserved.
fn dam_break_1d(
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
fn contours(s: &Explicit, f: &[f64], levels: &[f64], band: f64, labels: &str) -> Vec<Series> {
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
fn dam_break_2d(
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

/// Sums over the computed cells of each variable of a stored-layout state.
fn interior_sums(p: &crate::methods::explicit::Problem, q: &[f64]) -> Vec<f64> {
    let m = &p.mesh;
    (0..p.nv())
        .map(|v| {
            m.rows()
                .flat_map(|j| m.cols().map(move |i| (i, j)))
                .map(|(i, j)| q[v * m.ns + m.idx(i, j)])
                .sum()
        })
        .collect()
}

/// Seed 003: the Python and CUDA-1D cases against the exact nodal profile, the exact shift at
/// ν = 1, the order on a smooth periodic profile.
fn convection(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    use crate::exact::convection::{SEED_003_CUDA_1D, SEED_003_PYTHON};
    for (file, ex, l1_ref, max_ref) in [
        ("python.json", SEED_003_PYTHON, 0.2014, 1.971),
        ("cuda_1d.json", SEED_003_CUDA_1D, 1.25e-3, 2.0),
    ] {
        let c = load(dir, file)?;
        let p = c.explicit_problem().unwrap();
        let u0 = interior_sums(&p, &p.initial)[0];
        let s = solve(bk, &c)?;
        let u = &s.conserved_interior().map_err(run_err(ex.name))?[0];
        let exact = ex.exact_nodal();
        let dx = ex.advection.length / (ex.nx - 1) as f64;
        let l1: f64 = u.iter().zip(&exact).map(|(a, b)| (a - b).abs() * dx).sum();
        let max = u.iter().cloned().fold(f64::MIN, f64::max);
        let min = u.iter().cloned().fold(f64::MAX, f64::min);
        // The seed's own serial loop (spec §3.1), the reference our field must match to
        // round-off (ν is computed once here, per step there).
        let seed = seed_loop(ex.nx, ex.steps, ex.dt, dx);
        let diff = u
            .iter()
            .zip(&seed)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{}: max |u - seed loop|", ex.name),
            diff,
            1e-13,
            1e-13,
            Check::AtMost,
        ));
        let l1_seed: f64 = seed
            .iter()
            .zip(&exact)
            .map(|(a, b)| (a - b).abs() * dx)
            .sum();
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{}: L1 error vs the seed loop's", ex.name),
            l1,
            l1_seed,
            1e-9,
            Check::Relative,
        ));
        // The spec's L1 has 4 significant digits; the CUDA-1D one (1.25e-3) weights the
        // error with dx = 2/nx and is not comparable (exact::convection tests): note only.
        if ex.name == "seed003_python" {
            rep.rows.push(Row::new(
                &rep.case,
                &format!("{}: L1 error (spec)", ex.name),
                l1,
                l1_ref,
                5e-3,
                Check::Relative,
            ));
        } else {
            rep.notes.push(format!("{}: L1 {l1:.4e} with dx = 2/1999; the spec's {l1_ref:e} uses dx = 2/nx and another exact profile (exact::convection tests)", ex.name));
        }
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{}: max u", ex.name),
            max,
            max_ref,
            5e-4,
            Check::Absolute,
        ));
        rep.rows.push(Row::new(
            &rep.case,
            &format!("{}: 1 - min u (max principle)", ex.name),
            1.0 - min,
            0.0,
            0.0,
            Check::AtMost,
        ));
        if ex.name == "seed003_python" {
            // Excess mass Σ(u − 1)·dx before and after (nothing has reached the outflow).
            let m0 = (u0 - p.mesh.nx as f64) * dx;
            let m1 = (u.iter().sum::<f64>() - p.mesh.nx as f64) * dx;
            // The spec gives 0.55 (2 digits); the smeared tail leaves through the east side
            // (2.7e-5 by t = 0.625), as in the seed's loop.
            rep.rows.push(Row::new(
                &rep.case,
                "seed003_python: excess mass",
                m1,
                0.55,
                5e-5,
                Check::Absolute,
            ));
            rep.notes
                .push(format!("seed003_python: excess mass {m0} at t = 0"));
        }
    }
    // ν = 1: a pure shift; after nx steps on the periodic domain the profile is back.
    let c = load(dir, "exact_shift.json")?;
    let p = c.explicit_problem().unwrap();
    let m = p.mesh;
    let init: Vec<f64> = m.cols().map(|i| p.initial[m.idx(i, 0)]).collect();
    let s = solve(bk, &c)?;
    let u = &s.conserved_interior().map_err(run_err("exact_shift"))?[0];
    let shift = (s.clock().0 as usize) % m.nx;
    let err = (0..m.nx)
        .map(|k| (u[k] - init[(k + m.nx - shift) % m.nx]).abs())
        .fold(0.0, f64::max);
    rep.rows.push(Row::new(
        &rep.case,
        "nu = 1: max |u - shifted initial|",
        err,
        0.0,
        0.0,
        Check::AtMost,
    ));
    // Order on a smooth periodic Gaussian.
    let c = load(dir, "gaussian.json")?;
    let levels: &[usize] = if quick {
        &[200, 400, 800]
    } else {
        &[400, 800, 1600, 3200]
    };
    let (mut hs, mut errs) = (vec![], vec![]);
    for &n in levels {
        let s = solve(bk, &with_grid(&c, n, None))?;
        let t = s.clock().1;
        let dx = s.problem().mesh.dx;
        let u = &s.conserved_interior().map_err(run_err("gaussian"))?[0];
        let mut l1 = 0.0;
        for (k, x) in centres(&s).into_iter().enumerate() {
            // Periodic on [0, 1], c = 1: the profile shifted by t.
            let xs = (x - t).rem_euclid(1.0);
            let e = (-(xs - 0.5f64).powi(2) / (2.0 * 0.1f64 * 0.1)).exp();
            l1 += (u[k] - e).abs() * dx;
        }
        hs.push(dx);
        errs.push(l1);
    }
    rep.rows.push(Row::new(
        &rep.case,
        "Gaussian: L1 order (first-order upwind)",
        order(&hs, &errs),
        1.0,
        0.15,
        Check::Absolute,
    ));
    rep.notes.push(format!(
        "Gaussian L1 per level {:?}",
        errs.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>()
    ));
    // Convection–diffusion (SHLL advection, central diffusion) of a Gaussian against the
    // exact spreading Gaussian: first order (the upwind numerical diffusion dominates).
    let c = load(dir, "diffusion.json")?;
    let (nu, s0) = (0.01f64, 0.1f64);
    let (mut hs, mut errs) = (vec![], vec![]);
    for &n in levels {
        let s = solve(bk, &with_grid(&c, n, None))?;
        let t = s.clock().1;
        let dx = s.problem().mesh.dx;
        let u = &s.conserved_interior().map_err(run_err("diffusion"))?[0];
        let sig2 = s0 * s0 + 2.0 * nu * t;
        let mut l1 = 0.0;
        for (k, x) in centres(&s).into_iter().enumerate() {
            let xs = (x - t).rem_euclid(1.0);
            let e = (s0 * s0 / sig2).sqrt() * (-(xs - 0.5f64).powi(2) / (2.0 * sig2)).exp();
            l1 += (u[k] - e).abs() * dx;
        }
        hs.push(dx);
        errs.push(l1);
    }
    rep.rows.push(Row::new(
        &rep.case,
        "convection-diffusion Gaussian: L1 order (SHLL, central diffusion)",
        order(&hs, &errs),
        1.0,
        0.2,
        Check::Absolute,
    ));
    rep.notes.push(format!(
        "convection-diffusion Gaussian L1 per level {:?}",
        errs.iter().map(|e| format!("{e:.3e}")).collect::<Vec<_>>()
    ));
    Ok(())
}

/// The seed 002 shock–bubble case (the substitute of validation/shock_bubble/README.md): it
/// reaches t = 0.2 with positive density and pressure; SHLL against HLL; a schlieren picture.
fn shock_bubble(
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

/// Every method on a periodic domain: the sum of each conserved variable after the run
/// against the initial sum, relative to Σ|q⁰| (round-off only).
fn conservation(dir: &Path, rep: &mut CaseReport, bk: &Backend) -> Result<(), ValidateError> {
    for file in [
        "euler.json",
        "euler_muscl.json",
        "shallow_water.json",
        "convection_diffusion.json",
        "convection_2d.json",
        "convection_1d.json",
    ] {
        let c = load(dir, file)?;
        let p = c.explicit_problem().unwrap();
        let s0 = interior_sums(&p, &p.initial);
        let a0: Vec<f64> = {
            let m = &p.mesh;
            (0..p.nv())
                .map(|v| {
                    m.rows()
                        .flat_map(|j| m.cols().map(move |i| (i, j)))
                        .map(|(i, j)| p.initial[v * m.ns + m.idx(i, j)].abs())
                        .sum()
                })
                .collect()
        };
        let s = solve(bk, &c)?;
        let q = s.conserved_interior().map_err(run_err(file))?;
        let names = p.system.conserved_names();
        let mut worst: f64 = 0.0;
        for v in 0..p.nv() {
            let s1: f64 = q[v].iter().sum();
            // Relative to Σ|q_v|, or to Σ|q_0| for a momentum that starts at zero.
            worst = worst.max((s1 - s0[v]).abs() / a0[v].max(a0[0]));
        }
        let steps = s.clock().0;
        // Each step adds at most a few ulps per cell to the sum: 1e-12 relative after
        // hundreds of steps on thousands of cells is round-off.
        rep.rows.push(Row::new(
            &rep.case,
            &format!(
                "{}: max relative drift of {}",
                c.common().name,
                names.join(", ")
            ),
            worst,
            1e-12,
            1e-12,
            Check::AtMost,
        ));
        rep.notes.push(format!(
            "{}: {steps} steps, drift {worst:.3e}",
            c.common().name
        ));
    }
    Ok(())
}

/// The seed 003 serial loop (spec §3.1, §4.1 without the race): nodes i·dx, u = 2 where
/// 0.5 ≤ i·dx ≤ 1, u[0] never updated, u[i] ← u[i] − c·dt/dx·(u[i] − u[i−1]) with c = 1.
fn seed_loop(nx: usize, steps: usize, dt: f64, dx: f64) -> Vec<f64> {
    let mut u: Vec<f64> = (0..nx)
        .map(|i| {
            let x = i as f64 * dx;
            if (0.5..=1.0).contains(&x) {
                2.0
            } else {
                1.0
            }
        })
        .collect();
    for _ in 0..steps {
        let un = u.clone();
        for i in 1..nx {
            u[i] = un[i] - 1.0 * dt / dx * (un[i] - un[i - 1]);
        }
    }
    u
}
