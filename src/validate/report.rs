//! What a case returns ([`CaseReport`]: [`Row`]s, plots, notes) and how it is written: the
//! table on the terminal, `<case>.md` with its PNG plots, and `<case>.csv` in full precision.

use std::path::{Path, PathBuf};

use super::plot::{self, Plot};
use crate::error::ValidateError;

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
    /// The solvers that ran it ([`backend_text`](super::backend_text)).
    pub backend: String,
    /// Wall-clock seconds the case took.
    pub seconds: f64,
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

/// The rows as CSV with every value in full precision (shortest round-trip form), so that
/// runs on different backends can be compared beyond the report's 7 digits:
/// `metric,value,reference,tolerance,check,pass`, the metric quoted.
pub fn metrics_csv(rep: &CaseReport) -> String {
    let mut s = format!(
        "# {} ({}), backend: {}\nmetric,value,reference,tolerance,check,pass\n",
        rep.case,
        if rep.quick { "quick" } else { "full" },
        rep.backend
    );
    for r in &rep.rows {
        s += &format!(
            "\"{}\",{:e},{:e},{:e},{:?},{}\n",
            r.metric.replace('"', "'"),
            r.value,
            r.reference,
            r.tolerance,
            r.kind,
            r.pass
        );
    }
    s
}

/// Write `out_dir/<case>.md` (and `<case>.csv`, [`metrics_csv`]) and its PNG plots `out_dir/<case>-<plot>.png` (regenerated on
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
         Backend: {}; {:.1} s wall clock.\n\n\
         | metric | value | reference | tolerance | result |\n|---|---:|---:|---:|---|\n",
        rep.case, rep.case, rep.backend, rep.seconds
    );
    for r in &rep.rows {
        md += &format!(
            "| {} | {:.6e} | {:.6e} | {} | {} |\n",
            r.metric.replace('|', "\\|"),
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
    let csv_path = out_dir.join(format!("{}.csv", rep.case));
    std::fs::write(&csv_path, metrics_csv(rep)).map_err(|e| err(&csv_path, e.to_string()))?;
    Ok(path)
}
