//! The confined-square cases of the GPU paper (issue 6, item 5): the supersonic square
//! (`confined_square`, M = 2.43, Kn = 0.05) and the low-speed square (`square_low_speed`,
//! M = 0.1, Kn = 0.00194, Re ≈ 85). Metrics are taken from the solution by code:
//!
//! * drag coefficient C_d (pressure and viscous parts, [`crate::methods::simple_ts::forces`]), time-averaged over
//!   the last part of the run, with the lift amplitude and the Strouhal number of the lift
//!   when the flow sheds vortices;
//! * shock stand-off distance: front face to where the centreline pressure crosses the mean
//!   of the free-stream and the Rankine–Hugoniot normal-shock pressure, linear interpolation;
//! * recirculation length: rear face to the first centreline u-face where the time-averaged u
//!   turns from negative to non-negative, linear interpolation;
//! * the four schemes on one grid, and a grid-refinement study (ratio 2) of one scheme with the
//!   observed order, the Richardson-extrapolated value and the change between the two finest
//!   grids.
//!
//! Every run is built by the [`Backend`] of `simplets validate --backend` (the reference by
//! default; the full variants are meant for OpenCL on a GPU). The metrics are computed on the
//! host from the sampled states, so they read the same arrays whatever marched them.
//! The case files, references and tolerance reasons are in `validation/<case>/README.md`.
//!
//! The code, each file importing only the ones before it: `spec.rs` (what each study runs
//! and asserts), `centreline.rs` and `analysis.rs` (what is measured), `plan.rs` (its runs,
//! their labels and run-cache hashes), `run.rs` (one run: march, sample, measure, its note),
//! `plots.rs` and `report.rs` (rows, notes and plots), `cache.rs` (the runs a study takes
//! from the run cache), `study.rs` (the driver).

mod analysis;
mod cache;
mod centreline;
mod plan;
mod plots;
mod report;
mod run;
mod spec;
mod study;

use std::path::Path;

pub use analysis::{
    billig_cylinder, normal_shock_pressure_ratio, recirculation_length, shock_position,
    standoff_bracket, strouhal, Richardson,
};
pub use centreline::Centreline;
pub use plan::{label_matches, refine, refine_dt, run_key, run_label, warm_case, warm_key};
pub use run::{run_square, SquareRun, Start};
pub use spec::{scheme_name, Averaging, Study, Tolerances, Warm, LOW_SPEED, SCHEMES, SUPERSONIC};
pub use study::study;

use super::{load_variant, Backend, CaseReport, Check, Row};
use crate::error::ValidateError;
use plan::fmt_h;
use run::inflow;

/// `confined_square`: the study plus the stand-off against Billig's bracket.
pub fn confined_square(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let (grid, _) = study(dir, quick, rep, bk, &SUPERSONIC)?;
    let case = load_variant(dir, SUPERSONIC.stem, quick)?;
    let (_, mach, _, _) = inflow(&case);
    let body = &case.bodies[0];
    let band = standoff_bracket(mach, case.gas.gamma, body.y[1] - body.y[0]);
    let fine = &grid[grid.len() - 1];
    let d = fine.standoff.unwrap_or(f64::NAN);
    let name = rep.case.clone();
    rep.rows.push(Row::new(
        &name,
        &format!("Billig inscribed / stand-off, h={}", fmt_h(fine.h)),
        band.0 / d,
        1.0,
        1.0,
        Check::AtMost,
    ));
    rep.notes.push(format!(
        "Billig (γ-scaled) stand-off of the inscribed cylinder {:.4}, of the circumscribed one \
         {:.4} (from the front face); measured {d:.4} on h = {} ({:.2} × the circumscribed \
         estimate); M = {mach:.4}, normal-shock p2/p1 = {:.4}.",
        band.0,
        band.1,
        fmt_h(fine.h),
        d / band.1,
        normal_shock_pressure_ratio(mach, case.gas.gamma)
    ));
    Ok(())
}

/// `square_low_speed`: the study (unsteady: time averages, Strouhal number).
pub fn square_low_speed(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    study(dir, quick, rep, bk, &LOW_SPEED)?;
    Ok(())
}

#[cfg(test)]
mod tests;
