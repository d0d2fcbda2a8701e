//! The runs a study plans ([`Plan`]): the case refined to each grid level, the other schemes
//! on the scheme level, the warm-started runs of grid sequencing; the labels that name them
//! in logs, reports and `--only-runs`, and the hashes that name them in the run cache
//! ([`run_key`]).

use super::spec::{scheme_name, Averaging, Study, SCHEMES};
use crate::methods::simple_ts::case::Case;

/// Every run of a study, in report order: the grid levels with the case file's scheme, then
/// the other three schemes on the scheme level, then (with grid sequencing) the warm check
/// run. They are independent, so `--jobs` runs them side by side, except that a warm run
/// starts from the final state of the cold run it names in `from`.
pub(super) struct Plan {
    /// The case of each run.
    pub(super) cases: Vec<Case>,
    /// The run whose final state a warm run starts from; `None`: a cold run.
    pub(super) from: Vec<Option<usize>>,
    /// Each run's name in the run cache.
    pub(super) keys: Vec<u64>,
    /// The sampling of every run.
    pub(super) avg: Averaging,
}

impl Plan {
    /// The runs of `spec` (variant `q`: 0 full, 1 quick) on the case file `base`.
    pub(super) fn new(base: &Case, spec: &Study, q: usize) -> Plan {
        let levels = spec.levels[q];
        let dt_div = spec.dt_div[q];
        let own = (base.scheme.convection, base.scheme.interpolation);
        let r_s = levels[spec.scheme_level[q]];
        let mut cases: Vec<Case> = levels
            .iter()
            .zip(dt_div)
            .map(|(&r, &d)| refine_dt(base, r, d))
            .collect();
        for s in SCHEMES.into_iter().filter(|&s| s != own) {
            let mut c = refine_dt(base, r_s, dt_div[spec.scheme_level[q]]);
            (c.scheme.convection, c.scheme.interpolation) = s;
            cases.push(c);
        }
        // With grid sequencing the finest level starts warm from the level below it, and the
        // level below it is also run warm (from the one below that) as a check against its
        // cold run; that check run comes last.
        let nl = levels.len();
        let mut from: Vec<Option<usize>> = vec![None; cases.len()];
        if let Some(w) = spec.warm[q] {
            assert!(nl >= 3, "grid sequencing needs three levels (the check)");
            cases[nl - 1] = warm_case(base, levels[nl - 1], dt_div[nl - 1], w.duration);
            from[nl - 1] = Some(nl - 2);
            cases.push(warm_case(base, levels[nl - 2], dt_div[nl - 2], w.duration));
            from.push(Some(nl - 3));
        }
        let avg = spec.avg[q];
        let mut keys: Vec<u64> = cases.iter().map(|c| run_key(c, &avg)).collect();
        for k in 0..cases.len() {
            if let Some(p) = from[k] {
                keys[k] = warm_key(&cases[k], &avg, keys[p]);
            }
        }
        Plan {
            cases,
            from,
            keys,
            avg,
        }
    }

    /// How many runs.
    pub(super) fn len(&self) -> usize {
        self.cases.len()
    }

    /// The label of run `k` ([`study_label`]).
    pub(super) fn label(&self, k: usize) -> String {
        study_label(&self.cases[k], self.from[k].is_some())
    }
}

/// The hash naming a run of `case` sampled as `avg` in the run cache: the refined case as
/// JSON (scheme, grid, Δt, steps, sweep order, tolerances) and the sampling.
pub fn run_key(case: &Case, avg: &Averaging) -> u64 {
    key_of(case, avg, None)
}

/// The hash of a run warm-started from the final state of the run with hash `from`.
pub fn warm_key(case: &Case, avg: &Averaging, from: u64) -> u64 {
    key_of(case, avg, Some(format!("warm start from {from:016x}")))
}

/// fnv1a64 of the case as JSON, the sampling and, for a warm run, its start.
fn key_of(case: &Case, avg: &Averaging, start: Option<String>) -> u64 {
    let text = serde_json::to_string(case).expect("a case serialises");
    let avg = format!("{avg:?}");
    let mut parts = vec![text.as_bytes(), avg.as_bytes()];
    parts.extend(start.as_ref().map(String::as_bytes));
    crate::device::cache::fnv1a64(&parts)
}

/// The label of a run of `case`: scheme and cell width, `implicit-upwind h=1/10`.
pub fn run_label(case: &Case) -> String {
    let h = (case.grid.x[1] - case.grid.x[0]) / case.grid.nx as f64;
    format!(
        "{} h={}",
        scheme_name((case.scheme.convection, case.scheme.interpolation)),
        fmt_h(h)
    )
}

/// The label of a study run: [`run_label`], tagged ` warm` for a warm-started run.
pub(super) fn study_label(case: &Case, warm: bool) -> String {
    run_label(case) + if warm { " warm" } else { "" }
}

/// Whether the run labelled `label` (`implicit-tvd h=1/80`, `implicit-upwind h=1/80 warm`) is
/// one `filter` names: comma-separated terms, each the whole label, its scheme
/// (`implicit-tvd`), its tag (`warm`) or its grid
/// (`h=1/80`). Terms are exact, so `h=1/4` does not name `h=1/40`.
pub fn label_matches(label: &str, filter: &str) -> bool {
    let mut words = label.split(' ');
    let scheme = words.next().unwrap_or("");
    let grid = words.next().unwrap_or("");
    let tags: Vec<&str> = words.collect();
    filter
        .split(',')
        .map(str::trim)
        .any(|t| t == label || t == scheme || t == grid || tags.contains(&t))
}

/// h as a short decimal (1/h is an integer for every grid here).
pub(super) fn fmt_h(h: f64) -> String {
    format!("1/{}", (1.0 / h).round())
}

/// The case refined by `r` (a whole number): r² cells, Δt / r, r × the steps (same end time).
pub fn refine(case: &Case, r: u32) -> Case {
    refine_dt(case, r, r)
}

/// The case refined by `r` with Δt / `dt_div` and `dt_div` × the steps (same end time).
pub fn refine_dt(case: &Case, r: u32, dt_div: u32) -> Case {
    let mut c = case.clone();
    c.grid.nx *= r as usize;
    c.grid.ny *= r as usize;
    c.time.dt /= f64::from(dt_div);
    if let Some(s) = c.time.steps.as_mut() {
        *s *= u64::from(dt_div);
    }
    c
}

/// The case refined by `r` with Δt / `dt_div`, run for `duration` (a warm-started level).
pub fn warm_case(case: &Case, r: u32, dt_div: u32, duration: f64) -> Case {
    let mut c = refine_dt(case, r, dt_div);
    c.time.steps = Some((duration / c.time.dt).round() as u64);
    c.time.end_time = None;
    c
}
