//! Linear convection (seed 003's two cases, the exact shift at ν = 1, the order on a smooth
//! profile) and conservation to round-off on periodic domains for every method.

use std::path::Path;

use super::*;
use crate::error::ValidateError;
use crate::solver::Solver;
use crate::validate::{Backend, CaseReport, Check, Row};

/// Seed 003: the Python and CUDA-1D cases against the exact nodal profile, the exact shift at
/// ν = 1, the order on a smooth periodic profile.
pub(super) fn convection(
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

/// Every method on a periodic domain: the sum of each conserved variable after the run
/// against the initial sum, relative to Σ|q⁰| (round-off only).
pub(super) fn conservation(
    dir: &Path,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
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
pub(super) fn seed_loop(nx: usize, steps: usize, dt: f64, dx: f64) -> Vec<f64> {
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
