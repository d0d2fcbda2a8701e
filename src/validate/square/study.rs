//! The study driver ([`study`]): plan the runs, take what the run cache has, run the rest
//! (`--jobs` at a time: the cold runs, then the warm ones from their final states), and
//! report them.

use std::path::Path;

use super::cache::{cached_runs, not_cached, warm_starts};
use super::plan::{label_matches, Plan};
use super::report::{report, StudyRuns};
use super::run::{run_note, run_square, SquareRun, Start};
use super::spec::{Averaging, Study};
use crate::error::ValidateError;
use crate::methods::simple_ts::case::Case;
use crate::validate::{load_variant, Backend, CaseReport, Task};

/// Run a study: the grid levels with the case file's scheme, the other three schemes on the
/// scheme level; rows, notes and plots into `rep`. Returns the runs (levels, then schemes).
pub fn study(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
    spec: &Study,
) -> Result<(Vec<SquareRun>, Vec<SquareRun>), ValidateError> {
    let q = usize::from(quick);
    let base = load_variant(dir, spec.stem, quick)?;
    let levels = spec.levels[q];
    assert!(levels.len() >= 2, "a grid study needs at least two levels");
    let name = rep.case.clone();
    assert_eq!(
        spec.dt_div[q].len(),
        levels.len(),
        "one Δt divisor per level"
    );
    let plan = Plan::new(&base, spec, q);
    let runs = all_runs(&plan, &name, bk)?;
    let runs = StudyRuns::new(runs, &base, spec, q);
    report(rep, &runs, &base, spec.tol[q], levels);
    Ok((runs.grid, runs.schemes))
}

/// Every run of `plan`, from the run cache or run on `bk`. With `--only-runs`, only the runs
/// it names run and the study ends there ([`ValidateError::Partial`]).
fn all_runs(plan: &Plan, name: &str, bk: &Backend) -> Result<Vec<SquareRun>, ValidateError> {
    let only = bk.only();
    let chosen: Vec<bool> = (0..plan.len())
        .map(|k| only.map_or(true, |f| label_matches(&plan.label(k), f)))
        .collect();
    if let (Some(filter), false) = (only, chosen.contains(&true)) {
        return Err(ValidateError::NoRunMatches {
            case: name.to_string(),
            filter: filter.into(),
            labels: (0..plan.len())
                .map(|k| plan.label(k))
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    // Runs found in the cache; the others run, and so do the cold runs whose final state a
    // warm run that has to run starts from (a state is not cached: they run again).
    let mut runs = cached_runs(plan, name, bk, &chosen);
    let mut todo: Vec<bool> = (0..plan.len())
        .map(|k| chosen[k] && runs[k].is_none())
        .collect();
    if bk.cache_only() && todo.contains(&true) {
        return Err(not_cached(plan, name, bk, &todo));
    }
    let keep = warm_starts(plan, name, &runs, &mut todo);
    run_missing(plan, name, bk, &todo, &keep, &mut runs)?;
    if only.is_some() {
        return Err(ValidateError::Partial {
            case: name.to_string(),
            ran: chosen.iter().filter(|&&c| c).count(),
            total: plan.len(),
        });
    }
    Ok(runs
        .into_iter()
        .map(|r| r.expect("every run of the study ran or came from the cache"))
        .collect())
}

/// Run the runs of `plan` marked in `todo` into `runs`, `--jobs` at a time, largest first:
/// phase 1 the cold runs (keeping the final states `keep` marks), phase 2 the warm ones, from
/// the final states of phase 1.
fn run_missing(
    plan: &Plan,
    name: &str,
    bk: &Backend,
    todo: &[bool],
    keep: &[bool],
    runs: &mut [Option<SquareRun>],
) -> Result<(), ValidateError> {
    let cases = &plan.cases;
    // Cost estimate for the dispatch order: cells × steps.
    let cost = |ks: &[usize]| -> Vec<f64> {
        ks.iter()
            .map(|&k| (cases[k].grid.nx * cases[k].grid.ny) as f64 * cases[k].time.n_steps() as f64)
            .collect()
    };
    let task = |k: usize, start| {
        square_task(
            name.to_string(),
            &cases[k],
            plan.keys[k],
            keep[k],
            plan.avg,
            start,
        )
    };
    let cold: Vec<usize> = (0..plan.len())
        .filter(|&k| todo[k] && plan.from[k].is_none())
        .collect();
    let mut starts: Vec<Option<Start>> = (0..plan.len()).map(|_| None).collect();
    let out = bk.run_all(cold.iter().map(|&k| task(k, None)).collect(), &cost(&cold));
    for (&k, r) in cold.iter().zip(out) {
        let (run, end) = r?;
        runs[k] = Some(run);
        starts[k] = end;
    }
    let hot: Vec<usize> = (0..plan.len())
        .filter(|&k| todo[k] && plan.from[k].is_some())
        .collect();
    let hot_tasks = hot
        .iter()
        .map(|&k| {
            let p = plan.from[k].expect("a warm run has a start");
            task(k, Some(starts[p].as_ref().expect("phase 1 kept the start")))
        })
        .collect();
    let out = bk.run_all(hot_tasks, &cost(&hot));
    for (&k, r) in hot.iter().zip(out) {
        runs[k] = Some(r?.0);
    }
    Ok(())
}

/// The task of one study run: run it (from `start`, keeping its final state with `keep`),
/// note it, store it in the run cache.
fn square_task<'t>(
    name: String,
    c: &'t Case,
    key: u64,
    keep: bool,
    avg: Averaging,
    start: Option<&'t Start>,
) -> Task<'t, Result<(SquareRun, Option<Start>), ValidateError>> {
    Box::new(move |bk: &Backend| {
        let (run, end) = run_square(c, bk, avg, start, keep)?;
        log::info!("{name}: {}", run_note(&run));
        bk.store(&name, key, &run.solver, &run);
        Ok((run, end))
    })
}
