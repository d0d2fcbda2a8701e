//! The rows, notes and plots of a study ([`report`]) from its runs sorted as reported
//! ([`StudyRuns`]): a note per run, grid convergence with Richardson extrapolation, the
//! warm-start check, the schemes on one grid, steadiness and the published bands.

use super::analysis::{spread, Richardson};
use super::plan::fmt_h;
use super::plots::{centreline_plots, convergence_plot, schemes_plot};
use super::run::{run_note, SquareRun};
use super::spec::{Study, Tolerances, SCHEMES};
use crate::methods::simple_ts::case::Case;
use crate::validate::{CaseReport, Check, Row, Series};

/// A band check as an absolute row around the band's middle.
pub(super) fn band_row(case: &str, metric: &str, value: f64, band: (f64, f64)) -> Row {
    let mid = 0.5 * (band.0 + band.1);
    Row::new(
        case,
        metric,
        value,
        mid,
        0.5 * (band.1 - band.0),
        Check::Absolute,
    )
}

/// A study's runs, as reported.
pub(super) struct StudyRuns {
    /// The grid levels, coarsest first, with the case file's scheme.
    pub(super) grid: Vec<SquareRun>,
    /// The four schemes on the scheme level, in [`SCHEMES`] order (the case file's scheme is
    /// the grid level's run).
    pub(super) schemes: Vec<SquareRun>,
    /// With grid sequencing: the level below the finest, warm-started, against its cold run.
    pub(super) check: Option<SquareRun>,
}

impl StudyRuns {
    /// The runs of a study in plan order (levels, other schemes, warm check) as [`StudyRuns`].
    pub(super) fn new(mut runs: Vec<SquareRun>, base: &Case, spec: &Study, q: usize) -> StudyRuns {
        let own = (base.scheme.convection, base.scheme.interpolation);
        let check = spec.warm[q]
            .is_some()
            .then(|| runs.pop().expect("the warm check run"));
        let mut extra = runs.split_off(spec.levels[q].len()).into_iter();
        let grid = runs;
        let schemes: Vec<SquareRun> = SCHEMES
            .iter()
            .map(|&s| {
                if s == own {
                    grid[spec.scheme_level[q]].clone()
                } else {
                    extra.next().expect("one run per other scheme")
                }
            })
            .collect();
        StudyRuns {
            grid,
            schemes,
            check,
        }
    }
}

/// The length metric of a study: the shock stand-off when every grid level has one
/// (supersonic inflow), else the recirculation length.
#[derive(Debug, Clone, Copy)]
struct Length {
    supersonic: bool,
}

impl Length {
    fn new(grid_runs: &[SquareRun]) -> Length {
        Length {
            supersonic: grid_runs.iter().all(|r| r.standoff.is_some()),
        }
    }

    /// Its name in rows and notes.
    fn name(self) -> &'static str {
        if self.supersonic {
            "stand-off"
        } else {
            "recirculation length"
        }
    }

    /// Its value in run `r` (NaN where the run has none).
    fn of(self, r: &SquareRun) -> f64 {
        if self.supersonic {
            r.standoff.unwrap_or(f64::NAN)
        } else {
            r.recirc.unwrap_or(f64::NAN)
        }
    }
}

/// A metric of the grid study: its name, its value on each level and the bound of its change
/// between the two finest grids.
type Metric = (&'static str, Vec<f64>, f64);

/// Rows, notes and plots of a study from its runs; `base` is the case file, `levels` the
/// refinement factors of the grid levels.
pub(super) fn report(
    rep: &mut CaseReport,
    runs: &StudyRuns,
    base: &Case,
    tol: Tolerances,
    levels: &[u32],
) {
    let (grid_runs, scheme_runs, check) = (&runs.grid, &runs.schemes, &runs.check);
    for r in grid_runs
        .iter()
        .chain(
            scheme_runs
                .iter()
                .filter(|r| !grid_runs.iter().any(|g| g.label == r.label)),
        )
        .chain(check)
    {
        rep.notes.push(run_note(r));
    }
    let n = grid_runs.len();
    let ratio = f64::from(levels[n - 1]) / f64::from(levels[n - 2]);
    let length = Length::new(grid_runs);
    let metrics = grid_metrics(rep, grid_runs, length, &tol);
    if let Some(w) = check {
        warm_check_rows(rep, w, &grid_runs[n - 2], grid_runs, length, &tol);
    }
    let hs: Vec<f64> = grid_runs.iter().map(|r| r.h).collect();
    let mut conv = vec![];
    let parts: Vec<Metric> = vec![
        (
            "C_d pressure part",
            grid_runs.iter().map(|r| r.cd_p).collect(),
            f64::NAN,
        ),
        (
            "C_d viscous part",
            grid_runs.iter().map(|r| r.cd_v).collect(),
            f64::NAN,
        ),
    ];
    for (m, f, t) in metrics.iter().chain(&parts) {
        conv.extend(convergence(rep, m, f, *t, &hs, ratio));
    }
    let own = (base.scheme.convection, base.scheme.interpolation);
    rep.plots.push(convergence_plot(conv, hs[0], own));
    scheme_rows(rep, scheme_runs, &tol);
    rep.plots.push(schemes_plot(scheme_runs));
    steadiness_rows(rep, runs, length.supersonic, &tol);
    band_rows(rep, &grid_runs[n - 1], &tol);
    centreline_plots(rep, grid_runs, base);
}

/// The metrics whose grid convergence is asserted: C_d, the length metric where every level
/// has one (else a note), and the Strouhal number where every level sheds; and the row of
/// the finest level's length against its plausible band.
fn grid_metrics(
    rep: &mut CaseReport,
    grid_runs: &[SquareRun],
    length: Length,
    tol: &Tolerances,
) -> Vec<Metric> {
    let name = rep.case.clone();
    let n = grid_runs.len();
    let lname = length.name();
    let lengths: Vec<f64> = grid_runs.iter().map(|r| length.of(r)).collect();
    let mut metrics: Vec<Metric> = vec![(
        "C_d",
        grid_runs.iter().map(|r| r.cd).collect(),
        tol.cd_change,
    )];
    if lengths.iter().all(|l| *l > 0.0) {
        metrics.push((lname, lengths.clone(), tol.length_change));
    } else {
        rep.notes.push(format!(
            "{lname} on h = {}: {} (a level without one: grid convergence not assessed).",
            grid_runs
                .iter()
                .map(|r| fmt_h(r.h))
                .collect::<Vec<_>>()
                .join(", "),
            lengths
                .iter()
                .map(|v| format!("{v:.4}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if tol.length_band.0.is_finite() {
        rep.rows.push(band_row(
            &name,
            &format!("{lname}, h={}, plausible band", fmt_h(grid_runs[n - 1].h)),
            lengths[n - 1],
            tol.length_band,
        ));
    }
    if grid_runs.iter().all(|r| r.st.is_some()) {
        metrics.push((
            "St",
            grid_runs.iter().map(|r| r.st.unwrap_or(f64::NAN)).collect(),
            tol.st_change,
        ));
    }
    metrics
}

/// Grid sequencing: the warm start must not move the metrics of the check level (`w`, warm,
/// against `cold`, its cold run).
fn warm_check_rows(
    rep: &mut CaseReport,
    w: &SquareRun,
    cold: &SquareRun,
    grid_runs: &[SquareRun],
    length: Length,
    tol: &Tolerances,
) {
    let name = rep.case.clone();
    let h = fmt_h(w.h);
    let mut rows = vec![("C_d", w.cd, cold.cd, tol.warm.0)];
    if grid_runs.iter().all(|r| length.of(r) > 0.0) && length.of(w) > 0.0 {
        rows.push((length.name(), length.of(w), length.of(cold), tol.warm.1));
    }
    for (m, a, b, t) in rows {
        rep.rows.push(Row::new(
            &name,
            &format!("warm vs cold start, h={h}: {m}"),
            (a - b).abs() / b.abs(),
            t,
            t,
            Check::AtMost,
        ));
    }
}

/// Grid convergence of metric `m` with values `f` on the cell widths `hs` (refined by
/// `ratio`): its change between the two finest grids (a row where `t` is finite), and on
/// three grids or more its observed order and Richardson-extrapolated value (a note). Returns
/// the series of the metric over its extrapolated (or finest) value where it is asserted.
fn convergence(
    rep: &mut CaseReport,
    m: &str,
    f: &[f64],
    t: f64,
    hs: &[f64],
    ratio: f64,
) -> Option<Series> {
    let name = rep.case.clone();
    let n = f.len();
    let asserted = t.is_finite();
    let last = f[n - 1];
    let change = (last - f[n - 2]).abs() / last.abs();
    if asserted {
        rep.rows.push(Row::new(
            &name,
            &format!("{m}: change, two finest grids"),
            change,
            t,
            t,
            Check::AtMost,
        ));
    }
    let mut norm = last;
    let mut note = format!(
        "{m} on h = {}: {}",
        hs.iter().map(|&h| fmt_h(h)).collect::<Vec<_>>().join(", "),
        f.iter()
            .map(|v| format!("{v:.4}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if n >= 3 {
        let rich = Richardson::new([f[n - 3], f[n - 2], last], ratio);
        // Monotone convergence is asserted where the coarser change is itself above the
        // tolerance; where both changes are below it the metric has converged to within
        // the tolerance either way (and a ratio of two tiny changes means little).
        if asserted && rich.change_coarse > t {
            rep.rows.push(Row::new(
                &name,
                &format!("{m}: finest/coarser change ratio"),
                rich.change_fine / rich.change_coarse,
                1.0,
                1.0,
                Check::AtMost,
            ));
        }
        note += &format!(
            "; observed order {:.2}, Richardson-extrapolated {:.4}, changes {:.2} % and \
             {:.2} %{}",
            rich.order,
            rich.extrapolated,
            100.0 * rich.change_coarse,
            100.0 * rich.change_fine,
            if rich.monotone {
                ""
            } else {
                " (not monotone: no extrapolation)"
            }
        );
        if rich.extrapolated.is_finite() {
            norm = rich.extrapolated;
        }
    } else {
        note += &format!("; change {:.2} %", 100.0 * change);
    }
    rep.notes.push(note + ".");
    asserted.then(|| Series {
        label: format!("{m} / {norm:.4}"),
        points: hs.iter().zip(f).map(|(&h, &v)| (h, v / norm)).collect(),
        line: false,
    })
}

/// The schemes on one grid ([`super::SCHEMES`] order: implicit-upwind, implicit-tvd,
/// explicit-upwind, explicit-tvd): implicit against explicit convection with the same
/// interpolation, and the spread of the four (a row, or a note where not asserted).
fn scheme_rows(rep: &mut CaseReport, scheme_runs: &[SquareRun], tol: &Tolerances) {
    let name = rep.case.clone();
    let cds: Vec<f64> = scheme_runs.iter().map(|r| r.cd).collect();
    let hs_name = fmt_h(scheme_runs[0].h);
    for (k, interp) in ["upwind", "tvd"].iter().enumerate() {
        rep.rows.push(Row::new(
            &name,
            &format!("C_d implicit vs explicit {interp}, h={hs_name}"),
            (cds[k + 2] - cds[k]).abs() / cds[k].abs(),
            tol.pair,
            tol.pair,
            Check::AtMost,
        ));
    }
    if tol.cd_spread.is_finite() {
        rep.rows.push(Row::new(
            &name,
            &format!("C_d spread of 4 schemes, h={hs_name}"),
            spread(&cds),
            tol.cd_spread,
            tol.cd_spread,
            Check::AtMost,
        ));
    } else {
        rep.notes.push(format!(
            "C_d spread of the four schemes on h = {hs_name}: {:.2} % (not asserted, README).",
            100.0 * spread(&cds)
        ));
    }
}

/// Steadiness over every run of the study (the scheme level's own run twice): the largest
/// C_d drift in the window and, supersonic, the largest stand-off drift.
fn steadiness_rows(rep: &mut CaseReport, runs: &StudyRuns, supersonic: bool, tol: &Tolerances) {
    let name = rep.case.clone();
    let every_run = || runs.grid.iter().chain(&runs.schemes).chain(&runs.check);
    if tol.drift.is_finite() {
        let worst = every_run().map(|r| r.drift).fold(0.0, f64::max);
        rep.rows.push(Row::new(
            &name,
            "steady: largest C_d drift in window",
            worst,
            tol.drift,
            tol.drift,
            Check::AtMost,
        ));
    }
    if supersonic && tol.standoff_drift.is_finite() {
        // A run without a stand-off drift (no shock found) makes the row fail (NaN).
        let drifts: Vec<f64> = every_run()
            .map(|r| r.standoff_drift.unwrap_or(f64::NAN))
            .collect();
        let worst = if drifts.iter().any(|d| d.is_nan()) {
            f64::NAN
        } else {
            drifts.into_iter().fold(0.0, f64::max)
        };
        rep.rows.push(Row::new(
            &name,
            "steady: largest stand-off drift in window",
            worst,
            tol.standoff_drift,
            tol.standoff_drift,
            Check::AtMost,
        ));
    }
}

/// The finest level's C_d and Strouhal number against their published bands, where given.
fn band_rows(rep: &mut CaseReport, fine: &SquareRun, tol: &Tolerances) {
    let name = rep.case.clone();
    if tol.cd_band.0.is_finite() {
        rep.rows.push(band_row(
            &name,
            &format!("C_d, h={}, published band", fmt_h(fine.h)),
            fine.cd,
            tol.cd_band,
        ));
    }
    if tol.st_band.0.is_finite() {
        rep.rows.push(band_row(
            &name,
            &format!("St, h={}, published band", fmt_h(fine.h)),
            fine.st.unwrap_or(f64::NAN),
            tol.st_band,
        ));
    }
}
