//! `simplets validate` (issue 6): named validation cases, each run on a solver backend (the
//! reference unless `--backend` picks another, see [`Backend`]) and compared with an analytic
//! or published reference. A case returns [`Row`]s (metric, value, reference,
//! tolerance, pass) and [`Plot`]s; [`write_report`] turns them into
//! `validation/report/<case>.md` with PNG plots.
//!
//! Case files live in `validation/<case>/` (`<stem>.json`, and `<stem>.quick.json` for the
//! coarse CI variant); each directory's README states the source, metrics and tolerances.
//! Everything is non-dimensional (spec §1.2 scales).

mod backend;
pub mod bp;
mod cache;
mod cases;
mod cavity;
pub mod cese;
pub mod explicit;
pub mod plot;
mod report;
pub mod square;

use std::path::{Path, PathBuf};

use crate::error::ValidateError;
use crate::methods::simple_ts::backend::Backend as Solver;
use crate::methods::simple_ts::case::Case;
use crate::methods::simple_ts::reference::Reference;
use crate::run::STEADY_TOL;

pub use backend::{backend_text, host_copy, worker, Backend, Task};
pub use cache::RunCache;
pub use plot::{Plot, Series};
pub use report::{metrics_csv, table, write_report, CaseReport, Check, Row};

/// The validation cases, in the order `validate all` runs them.
pub const CASES: [&str; 20] = [
    "couette_heat",
    "channel_kn",
    "authors_cpp",
    "grid_convergence",
    "budgets",
    "cavity",
    "confined_square",
    "square_low_speed",
    "riemann_euler",
    "isentropic_vortex",
    "dam_break_1d",
    "dam_break_2d",
    "convection",
    "shock_bubble",
    "conservation",
    "cese_riemann",
    "cese_riemann_2d",
    "cese_smooth",
    "bp_wedge",
    "bp_cascade",
];

/// Where `validation/` is: the current directory if it has one, else the source tree.
pub fn default_root() -> PathBuf {
    let here = Path::new("validation");
    if here.is_dir() {
        PathBuf::from(".")
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}

/// Run the case `name` (one of [`CASES`]) from `root/validation/` on the reference solver.
pub fn run_case(root: &Path, name: &str, quick: bool) -> Result<CaseReport, ValidateError> {
    run_case_on(root, name, quick, &Backend::reference())
}

/// Run the case `name` (one of [`CASES`]) from `root/validation/` on `bk`.
pub fn run_case_on(
    root: &Path,
    name: &str,
    quick: bool,
    bk: &Backend,
) -> Result<CaseReport, ValidateError> {
    let dir = root.join("validation").join(name);
    let start = std::time::Instant::now();
    let mut rep = CaseReport {
        case: name.into(),
        quick,
        rows: vec![],
        plots: vec![],
        notes: vec![],
        backend: String::new(),
        seconds: 0.0,
    };
    bk.begin_case();
    let square = matches!(name, "confined_square" | "square_low_speed");
    if bk.only().is_some() && !square {
        return Err(ValidateError::Partial {
            case: name.into(),
            ran: 0,
            total: 0,
        });
    }
    match name {
        "couette_heat" => cases::couette_heat(&dir, quick, &mut rep, bk)?,
        "channel_kn" => cases::channel_kn(&dir, quick, &mut rep, bk)?,
        "authors_cpp" => cases::authors_cpp(&dir, quick, &mut rep, bk)?,
        "grid_convergence" => cases::grid_convergence(&dir, quick, &mut rep, bk)?,
        "budgets" => cases::budgets(root, quick, &mut rep, bk)?,
        "cavity" => cavity::cavity(&dir, quick, &mut rep, bk)?,
        "confined_square" => square::confined_square(&dir, quick, &mut rep, bk)?,
        "square_low_speed" => square::square_low_speed(&dir, quick, &mut rep, bk)?,
        n if explicit::CASES.contains(&n) => explicit::run(n, &dir, quick, &mut rep, bk)?,
        n if cese::CASES.contains(&n) => cese::run(n, &dir, quick, &mut rep, bk)?,
        n if bp::CASES.contains(&n) => bp::run(n, &dir, quick, &mut rep, bk)?,
        _ => {
            return Err(ValidateError::UnknownCase {
                name: name.into(),
                known: CASES.join(", "),
            })
        }
    }
    rep.backend = backend_text(&bk.case_names());
    rep.seconds = start.elapsed().as_secs_f64();
    Ok(rep)
}

/// Load `dir/<stem>.json`, or `dir/<stem>.quick.json` for the quick variant.
pub fn load_variant(dir: &Path, stem: &str, quick: bool) -> Result<Case, ValidateError> {
    let file = if quick {
        format!("{stem}.quick.json")
    } else {
        format!("{stem}.json")
    };
    Ok(Case::from_file(&dir.join(file))?)
}

/// Step `r` to the case's end, or to steady state (one loop-2 iteration, updates below
/// [`STEADY_TOL`]) where the case asks for it; returns the steps taken.
pub fn march(r: &mut Reference) -> Result<u64, ValidateError> {
    let case = r.p.case.clone();
    march_solver(r, &case)
}

/// [`march`] for any backend running `case`.
pub fn march_solver(r: &mut dyn Solver, case: &Case) -> Result<u64, ValidateError> {
    let n = case.time.n_steps();
    let steady = case.time.stop_at_steady_state;
    for s in 1..=n {
        let rep = r.step().map_err(|source| ValidateError::Run {
            case: case.name.clone(),
            source,
        })?;
        let own = rep.iters == 1 && rep.res.max() < STEADY_TOL;
        if steady && rep.steady.unwrap_or(own) {
            return Ok(s);
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests;
