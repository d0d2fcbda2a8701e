//! `simplets validate` (issue 6): named validation cases, each run on the reference solver and
//! compared with an analytic reference. A case returns [`Row`]s (metric, value, reference,
//! tolerance, pass) and [`Plot`]s; [`write_report`] turns them into
//! `validation/report/<case>.md` with PNG plots.
//!
//! Case files live in `validation/<case>/` (`<stem>.json`, and `<stem>.quick.json` for the
//! coarse CI variant); each directory's README states the source, metrics and tolerances.
//! Everything is non-dimensional (spec §1.2 scales).

mod cases;
pub mod plot;
pub mod square;

use std::path::{Path, PathBuf};

use crate::config::Case;
use crate::error::ValidateError;
use crate::reference::Reference;
use crate::run::STEADY_TOL;
use crate::solver::Solver;

pub use plot::{Plot, Series};

/// The validation cases, in the order `validate all` runs them.
pub const CASES: [&str; 6] = [
    "couette_heat",
    "channel_kn",
    "grid_convergence",
    "budgets",
    "confined_square",
    "square_low_speed",
];

/// One compared metric.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Case name.
    pub case: String,
    /// Metric name (with the variant, e.g. `Kn_o=0.1: mass flow`).
    pub metric: String,
    /// Our value.
    pub value: f64,
    /// The reference value (analytic, or the bound for a budget).
    pub reference: f64,
    /// Allowed deviation, in the unit [`Row::kind`] names.
    pub tolerance: f64,
    /// How `value` is judged against `reference` and `tolerance`.
    pub kind: Check,
    /// True if the metric is within tolerance.
    pub pass: bool,
}

/// How a row is judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// |value − reference| ≤ tolerance × |reference|.
    Relative,
    /// |value − reference| ≤ tolerance.
    Absolute,
    /// value ≤ reference (a bound; `tolerance` repeats the bound).
    AtMost,
}

impl Row {
    /// A row judged by `kind`.
    pub fn new(case: &str, metric: &str, value: f64, reference: f64, tol: f64, kind: Check) -> Row {
        let pass = match kind {
            Check::Relative => (value - reference).abs() <= tol * reference.abs(),
            Check::Absolute => (value - reference).abs() <= tol,
            Check::AtMost => value <= reference,
        } && value.is_finite();
        Row {
            case: case.into(),
            metric: metric.into(),
            value,
            reference,
            tolerance: tol,
            kind,
            pass,
        }
    }

    /// The tolerance as text: `1.0 %` (relative), `±1e-3` (absolute), `≤ 1e-10` (bound).
    pub fn tolerance_text(&self) -> String {
        match self.kind {
            Check::Relative => format!("{:.3} %", 100.0 * self.tolerance),
            Check::Absolute => format!("±{:.3e}", self.tolerance),
            Check::AtMost => format!("≤ {:.3e}", self.tolerance),
        }
    }
}

/// The result of one case.
#[derive(Debug, Clone)]
pub struct CaseReport {
    /// Case name.
    pub case: String,
    /// True for the coarse `--quick` variant.
    pub quick: bool,
    /// Compared metrics.
    pub rows: Vec<Row>,
    /// Profiles of ours against the reference.
    pub plots: Vec<Plot>,
    /// Extra lines for the report (measured numbers that are not pass/fail).
    pub notes: Vec<String>,
}

/// Where `validation/` is: the current directory if it has one, else the source tree.
pub fn default_root() -> PathBuf {
    let here = Path::new("validation");
    if here.is_dir() {
        PathBuf::from(".")
    } else {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
    }
}

/// Run the case `name` (one of [`CASES`]) from `root/validation/`.
pub fn run_case(root: &Path, name: &str, quick: bool) -> Result<CaseReport, ValidateError> {
    let dir = root.join("validation").join(name);
    let mut rep = CaseReport {
        case: name.into(),
        quick,
        rows: vec![],
        plots: vec![],
        notes: vec![],
    };
    match name {
        "couette_heat" => cases::couette_heat(&dir, quick, &mut rep)?,
        "channel_kn" => cases::channel_kn(&dir, quick, &mut rep)?,
        "grid_convergence" => cases::grid_convergence(&dir, quick, &mut rep)?,
        "budgets" => cases::budgets(root, quick, &mut rep)?,
        "confined_square" => {
            square::confined_square(&dir, quick, &mut rep, &square::reference_solver)?
        }
        "square_low_speed" => {
            square::square_low_speed(&dir, quick, &mut rep, &square::reference_solver)?
        }
        _ => {
            return Err(ValidateError::UnknownCase {
                name: name.into(),
                known: CASES.join(", "),
            })
        }
    }
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
    let n = r.case.time.n_steps();
    let steady = r.case.time.stop_at_steady_state;
    for s in 1..=n {
        let rep = r.step().map_err(|source| ValidateError::Run {
            case: r.case.name.clone(),
            source,
        })?;
        if steady && rep.iters == 1 && rep.res.max() < STEADY_TOL {
            return Ok(s);
        }
    }
    Ok(n)
}

/// The table of rows, one line each, fixed columns.
pub fn table(rows: &[Row]) -> String {
    let mut s = format!(
        "{:<17} {:<34} {:>13} {:>13} {:>11}  {}\n",
        "case", "metric", "value", "reference", "tolerance", "result"
    );
    for r in rows {
        s += &format!(
            "{:<17} {:<34} {:>13.6e} {:>13.6e} {:>11}  {}\n",
            r.case,
            r.metric,
            r.value,
            r.reference,
            r.tolerance_text(),
            if r.pass { "pass" } else { "FAIL" }
        );
    }
    s
}

/// Write `out_dir/<case>.md` and its PNG plots `out_dir/<case>-<plot>.png` (regenerated on
/// every run: they are the record of the last validation, committed from a `--quick` run).
pub fn write_report(rep: &CaseReport, out_dir: &Path) -> Result<PathBuf, ValidateError> {
    let err = |p: &Path, e: String| ValidateError::Report {
        path: p.display().to_string(),
        reason: e,
    };
    std::fs::create_dir_all(out_dir).map_err(|e| err(out_dir, e.to_string()))?;
    let variant = if rep.quick {
        "quick variant (coarse grids, `simplets validate --quick`)"
    } else {
        "full variant"
    };
    let mut md = format!(
        "# Validation: {}\n\nThis report is the **{variant}**, written by `simplets validate`.\n\
         Case files, reference and tolerances: `validation/{}/README.md`.\n\n\
         | metric | value | reference | tolerance | result |\n|---|---:|---:|---:|---|\n",
        rep.case, rep.case
    );
    for r in &rep.rows {
        md += &format!(
            "| {} | {:.6e} | {:.6e} | {} | {} |\n",
            r.metric,
            r.value,
            r.reference,
            r.tolerance_text(),
            if r.pass { "pass" } else { "**FAIL**" }
        );
    }
    if !rep.notes.is_empty() {
        md += "\n";
        for n in &rep.notes {
            md += &format!("- {n}\n");
        }
    }
    for p in &rep.plots {
        let file = format!("{}-{}.png", rep.case, p.name);
        let path = out_dir.join(&file);
        plot::draw(p, &path).map_err(|e| err(&path, e))?;
        md += &format!("\n![{}]({file})\n\n{}\n", p.name, p.caption());
    }
    let path = out_dir.join(format!("{}.md", rep.case));
    std::fs::write(&path, md).map_err(|e| err(&path, e.to_string()))?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observed_order_of_a_power_law() {
        let h = [0.1, 0.05, 0.025];
        let e: Vec<f64> = h.iter().map(|h: &f64| 3.0 * h.powf(1.7)).collect();
        assert!((cases::observed_order(&h, &e) - 1.7).abs() < 1e-12);
    }

    #[test]
    fn rows_are_judged_by_their_kind() {
        assert!(Row::new("c", "m", 1.009, 1.0, 0.01, Check::Relative).pass);
        assert!(!Row::new("c", "m", 1.011, 1.0, 0.01, Check::Relative).pass);
        assert!(Row::new("c", "m", -0.5, 0.0, 0.5, Check::Absolute).pass);
        assert!(!Row::new("c", "m", 2e-10, 1e-10, 1e-10, Check::AtMost).pass);
        assert!(!Row::new("c", "m", f64::NAN, 0.0, 1.0, Check::Absolute).pass);
    }
}
