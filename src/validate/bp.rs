//! Validation of Brandvik–Pullan (`bp_euler`, seed 001): the Mach 1.6 wedge against the
//! oblique-shock relation (`validation/bp_wedge/`: README with the reference, metrics and
//! tolerances) and the turbine cascade with periodic sides to steady state
//! (`validation/bp_cascade/`). The run goes to steady state on the chosen backend; the shock angle and the
//! pressure behind it are measured by [`wedge_shock`].

use std::path::Path;

use super::{Backend, CaseReport, Check, Plot, Row, Series};
use crate::error::ValidateError;
use crate::exact::oblique_shock::{Branch, ObliqueShock};
use crate::methods::bp::case::{BpGrid, Case};
use crate::methods::bp::metrics::{flow_angle, mach as metrics_mach, mass_flow, periodic_mismatch};
use crate::methods::bp::shock::wedge_shock;
use crate::methods::bp::solver::BpSolver;
use crate::methods::AnyCase;
use crate::solver::Solver;

/// The Brandvik–Pullan validation cases, in the order `validate all` runs them.
pub const CASES: [&str; 2] = ["bp_wedge", "bp_cascade"];

/// Run the case `name` from `dir` into `rep`.
pub fn run(
    name: &str,
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    match name {
        "bp_wedge" => wedge(dir, quick, rep, bk),
        "bp_cascade" => cascade(dir, quick, rep, bk),
        _ => Err(ValidateError::UnknownCase {
            name: name.into(),
            known: CASES.join(", "),
        }),
    }
}

fn load(dir: &Path, file: &str) -> Result<Case, ValidateError> {
    match AnyCase::load(&dir.join(file))? {
        AnyCase::BpEuler(c) => Ok(c),
        other => Err(ValidateError::Data {
            path: file.into(),
            reason: format!("method {} (expected bp_euler)", other.method()),
        }),
    }
}

/// `c` on the validation's backend until steady or its step limit: the solver and the steps
/// taken.
fn run_to_end(c: &Case, bk: &Backend) -> Result<(BpSolver, u64), ValidateError> {
    let mut s = BpSolver::new(c, &bk.choice).map_err(|e| ValidateError::Backend {
        case: c.name.clone(),
        reason: e.to_string(),
    })?;
    bk.record(s.name());
    let mut steps = 0;
    while steps < c.time.steps && !s.finished() {
        s.step().map_err(|source| ValidateError::Run {
            case: c.name.clone(),
            source,
        })?;
        steps += 1;
    }
    Ok((s, steps))
}

/// The wedge of `wedge.json` (121 × 121 nodes; `--quick`: `wedge.quick.json`, 91 × 91) to
/// steady state.
fn wedge(dir: &Path, quick: bool, rep: &mut CaseReport, bk: &Backend) -> Result<(), ValidateError> {
    let c = load(
        dir,
        if quick {
            "wedge.quick.json"
        } else {
            "wedge.json"
        },
    )?;
    let BpGrid::Wedge { angle, .. } = c.grid else {
        return Err(ValidateError::Data {
            path: "wedge.json".into(),
            reason: "the grid must be a wedge".into(),
        });
    };
    let (mach, p1) = match (c.inlet.mach, c.inlet.p) {
        (Some(m), Some(p)) => (m, p),
        _ => {
            return Err(ValidateError::Data {
                path: "wedge.json".into(),
                reason: "the inlet must be supersonic (mach, p, t)".into(),
            })
        }
    };
    let run_err = |source| ValidateError::Run {
        case: c.name.clone(),
        source,
    };
    let (s, steps) = run_to_end(&c, bk)?;
    let exact =
        ObliqueShock::new(mach, angle.to_radians(), c.gas.gamma, Branch::Weak).map_err(|e| {
            ValidateError::Data {
                path: "wedge.json".into(),
                reason: e.to_string(),
            }
        })?;
    let w = s.state().map_err(run_err)?;
    let b = s.bp();
    let (ni, nj) = (b.g.ni, b.g.nj);
    let m = wedge_shock(&b.g, &b.flow, &w, p1, exact.pressure_ratio);
    let v = format!("{ni}x{nj}");
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: steady (steps below max {})", c.time.steps),
        steps as f64,
        (c.time.steps - 1) as f64,
        (c.time.steps - 1) as f64,
        Check::AtMost,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: shock angle beta, degrees"),
        m.beta.to_degrees(),
        exact.beta.to_degrees(),
        1.0,
        Check::Absolute,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: p2/p1 behind the shock"),
        m.p_ratio,
        exact.pressure_ratio,
        0.02,
        Check::Relative,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: max |p/p1 - mean| behind the shock"),
        m.p_spread,
        0.0,
        0.05,
        Check::Absolute,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: fitted shock line's y at the corner x = 0"),
        m.y0,
        0.0,
        0.05,
        Check::Absolute,
    ));
    rep.notes.push(format!(
        "Mach {mach}, theta {angle} deg, {v} nodes: {steps} steps to max |drho|/rho0 < {:e}",
        c.time.tolerance
    ));
    let tb = exact.beta.tan();
    let xs: Vec<f64> = m.points.iter().map(|p| p.0).collect();
    rep.plots.push(Plot {
        name: "bp_wedge_shock".into(),
        title: format!("Wedge, Mach {mach}, {angle} deg: shock locus (p = (p1 + p2)/2), {v}"),
        x: "x".into(),
        y: "y".into(),
        series: vec![
            Series {
                label: "bp_euler".into(),
                points: m.points.clone(),
                line: false,
            },
            Series {
                label: "exact (y = x tan beta)".into(),
                points: xs.iter().map(|&x| (x, x * tb)).collect(),
                line: true,
            },
        ],
    });
    Ok(())
}

/// The cascade of `cascade.json` (`--quick`: `cascade.quick.json`, `configs/bp_cascade.json`)
/// to steady state: mass flow out = in, the periodic pairs equal, the exit flow angle near
/// the blade's exit metal angle; the blade-surface Mach numbers as the plot.
fn cascade(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let file = if quick {
        "cascade.quick.json"
    } else {
        "cascade.json"
    };
    let c = load(dir, file)?;
    let Some(geom) = c.grid.cascade() else {
        return Err(ValidateError::Data {
            path: file.into(),
            reason: "the grid must be a cascade".into(),
        });
    };
    let run_err = |source| ValidateError::Run {
        case: c.name.clone(),
        source,
    };
    let (s, steps) = run_to_end(&c, bk)?;
    let w = s.state().map_err(run_err)?;
    let b = s.bp();
    let (g, ni, nj) = (&b.g, b.g.ni, b.g.nj);
    let v = format!("{ni}x{nj}");
    let (m_in, m_out) = (mass_flow(g, &w, 0), mass_flow(g, &w, ni - 1));
    let angle = flow_angle(g, &w, ni - 1).to_degrees();
    let BpGrid::Cascade {
        exit_metal_angle: chi2,
        pitch,
        ..
    } = c.grid
    else {
        unreachable!("a cascade")
    };
    let o = geom.throat();
    // The exit flow leaves along the throat's normal, turned towards the exit metal angle.
    let rule = (o / pitch).acos().to_degrees().copysign(chi2);
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: steady (steps below max {})", c.time.steps),
        steps as f64,
        (c.time.steps - 1) as f64,
        (c.time.steps - 1) as f64,
        Check::AtMost,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: mass flow out / in"),
        m_out / m_in,
        1.0,
        5e-3,
        Check::Absolute,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: periodic pairs, max |w(i,nj) - w(i,1)| / max |w|"),
        periodic_mismatch(g, &w),
        0.0,
        0.0,
        Check::Absolute,
    ));
    rep.rows.push(Row::new(
        &rep.case,
        &format!("{v}: exit flow angle, degrees, against acos(throat/pitch)"),
        angle,
        rule,
        5.0,
        Check::Absolute,
    ));
    let p_exit = c.outlet.p.unwrap_or(f64::NAN);
    let m_is = ((2.0 / (c.gas.gamma - 1.0))
        * ((b.flow.p0 / p_exit).powf((c.gas.gamma - 1.0) / c.gas.gamma) - 1.0))
        .sqrt();
    rep.notes.push(format!(
        "{v} nodes: {steps} steps to max |drho|/rho0 < {:e}; mass flow {m_in:.6} in, \
         {m_out:.6} out (kg/s per m of span); exit flow angle {angle:.2} deg (metal \
         {chi2}, -acos(o/s) {rule:.2} with throat o = {o:.4}, pitch s = {pitch}); isentropic \
         exit Mach {m_is:.3}",
        c.time.tolerance
    ));
    let (le, te) = geom.edges();
    let top = (nj - 1) * ni;
    let side = |base: usize| -> Vec<(f64, f64)> {
        (le..=te)
            .map(|i| (g.x[base + i], metrics_mach(&b.flow, &w[base + i])))
            .collect()
    };
    rep.plots.push(Plot {
        name: "bp_cascade_surface_mach".into(),
        title: format!("Cascade, blade-surface Mach number, {v}"),
        x: "x / axial chord".into(),
        y: "Mach".into(),
        series: vec![
            Series {
                label: "upper surface (j = 1)".into(),
                points: side(0),
                line: true,
            },
            Series {
                label: "lower surface of the next blade (j = nj)".into(),
                points: side(top),
                line: true,
            },
        ],
    });
    Ok(())
}
