//! A study's runs in the run cache ([`crate::validate::RunCache`]): the runs a study takes
//! from it, and the cold runs that must run again because a warm run starts from their final
//! state (a state is not cached). The hash that names a run there is the plan's
//! ([`super::plan::run_key`]).

use super::plan::Plan;
use super::run::{run_note, SquareRun};
use crate::error::ValidateError;
use crate::validate::Backend;

/// The runs of `plan` found in the cache among those `chosen`; `None` for the others.
pub(super) fn cached_runs(
    plan: &Plan,
    name: &str,
    bk: &Backend,
    chosen: &[bool],
) -> Vec<Option<SquareRun>> {
    (0..plan.len())
        .map(|k| {
            let run = chosen[k]
                .then(|| bk.cached::<SquareRun>(name, plan.keys[k]))
                .flatten()
                .filter(|r| {
                    // A supersonic run recorded before the stand-off history cannot show
                    // its stand-off's drift: it runs again.
                    let stale = r.standoff.is_some() && r.standoffs.is_empty();
                    if stale {
                        log::info!("{name}: {}: cached without a stand-off history", r.label);
                    }
                    !stale
                });
            if let Some(r) = &run {
                log::info!("{name}: {} (from the run cache)", run_note(r));
            }
            run
        })
        .collect()
}

/// `--cache-only`: the error naming the runs of `todo` that are not in the cache.
pub(super) fn not_cached(plan: &Plan, name: &str, bk: &Backend, todo: &[bool]) -> ValidateError {
    let missing: Vec<String> = (0..plan.len())
        .filter(|&k| todo[k])
        .map(|k| plan.label(k))
        .collect();
    ValidateError::NotCached {
        case: name.to_string(),
        dir: bk.run_cache().map_or("(none)".into(), |c| {
            format!("{} for backend kind {}", c.dir.display(), c.kind)
        }),
        missing: missing.len(),
        labels: missing.join(", "),
    }
}

/// Add to `todo` the cold runs whose final state a warm run in `todo` starts from; they
/// run again even when cached. Returns which runs keep their final state.
pub(super) fn warm_starts(
    plan: &Plan,
    name: &str,
    runs: &[Option<SquareRun>],
    todo: &mut [bool],
) -> Vec<bool> {
    let mut keep = vec![false; plan.len()];
    for k in 0..plan.len() {
        if let (true, Some(p)) = (todo[k], plan.from[k]) {
            assert!(plan.from[p].is_none(), "a warm run starts from a cold one");
            todo[p] = true;
            keep[p] = true;
            if runs[p].is_some() {
                log::info!(
                    "{name}: {} runs again for its final state (the start of {})",
                    plan.label(p),
                    plan.label(k)
                );
            }
        }
    }
    keep
}
