//! The conservation budgets (`budgets`): the global mass imbalance per time step, and the
//! energy balance of the steady Couette flow.

use std::path::Path;

use super::couette::couette_energy_ratio;
use crate::error::ValidateError;
use crate::validate::{host_copy, load_variant, Backend, CaseReport, Check, Plot, Row, Series};

/// Energy balance of the steady Couette flow: heat conducted into the walls over the
/// dissipated shear work, relative (√T varies by ~4e-4 across the gap).
const ENERGY_TOL: f64 = 2e-3;
/// Mass: relative global imbalance at loop-2 convergence (tests/analytic.rs (c)).
const MASS_TOL: f64 = 1e-10;

/// `budgets`: the global mass imbalance of every step, loop-2 convergence, and the energy
/// balance of the Couette case.
pub(in crate::validate) fn budgets(
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
