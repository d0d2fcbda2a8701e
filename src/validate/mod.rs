//! `simplets validate` (issue 6): named validation cases, each run on a solver backend (the
//! reference unless `--backend` picks another, see [`Backend`]) and compared with an analytic
//! or published reference. A case returns [`Row`]s (metric, value, reference,
//! tolerance, pass) and [`Plot`]s; [`write_report`] turns them into
//! `validation/report/<case>.md` with PNG plots.
//!
//! Case files live in `validation/<case>/` (`<stem>.json`, and `<stem>.quick.json` for the
//! coarse CI variant); each directory's README states the source, metrics and tolerances.
//! Everything is non-dimensional (spec §1.2 scales).

mod cases;
mod cavity;
pub mod explicit;
pub mod plot;
pub mod square;

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::error::ValidateError;
use crate::methods::simple_ts::backend::Backend as Solver;
use crate::methods::simple_ts::case::Case;
use crate::methods::simple_ts::reference::Reference;
use crate::run::STEADY_TOL;

pub use plot::{Plot, Series};

/// The validation cases, in the order `validate all` runs them.
pub const CASES: [&str; 14] = [
    "couette_heat",
    "channel_kn",
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
];

thread_local! {
    /// The index of the [`Backend::run_all`] worker this thread is (0 outside one).
    static WORKER: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The index of the [`Backend::run_all`] worker running on this thread, 0 … jobs − 1 (0
/// outside one). A solver factory may use it to put each worker on its own device.
pub fn worker() -> usize {
    WORKER.with(std::cell::Cell::get)
}

/// One run of a study for [`Backend::run_all`]: given the backend, it returns its result.
pub type Task<'t, T> = Box<dyn FnOnce(&Backend) -> T + Send + 't>;

/// Builds the solver of one run of a case.
type MakeSolver<'a> = dyn Fn(&Case) -> Result<Box<dyn Solver>, String> + Send + Sync + 'a;

/// The backend the validation runs march on: the serial reference by default, or any solver
/// factory (the CLI passes the one `simplets run` uses for `--backend`). Every run is
/// analysed on the host: its final state is restored into a [`Reference`] of the same case
/// (see [`Backend::steady`]), so the metrics read the same arrays whatever marched them.
pub struct Backend<'a> {
    make: Box<MakeSolver<'a>>,
    used: Mutex<Used>,
    jobs: usize,
    cache: Option<RunCache>,
    only: Option<String>,
    cache_only: bool,
    /// The backend choice the explicit methods' cases build their solvers with
    /// (`methods::explicit::solver::Explicit`); the serial reference by default.
    pub choice: crate::methods::BackendChoice,
}

/// The solvers a [`Backend`] used, each named once, in order of first use.
#[derive(Default)]
struct Used {
    /// By every case so far ([`Backend::names`]).
    all: Vec<String>,
    /// By the current case ([`Backend::begin_case`], [`Backend::case_names`]).
    case: Vec<String>,
}

/// Finished runs of the long grid studies kept on disk (`validate --cache DIR`), so that a
/// study too long for one job (a batch slot, a device lease) is finished over several: each
/// run is stored when it ends, and a later `validate` takes it from there instead of running
/// it again. A run's file is named by a hash of everything that defines it (the refined case
/// with its scheme, grid, Δt, steps and sweep order, and the sampling) and by the backend kind
/// (`opencl`, `reference`, `parallel`); it is used only for a backend of that kind.
/// The report lists every run taken from the cache with its solver and date.
#[derive(Debug, Clone, PartialEq)]
pub struct RunCache {
    /// Directory; runs go to `<dir>/<case>/<hash>-<kind>.json`.
    pub dir: PathBuf,
    /// Backend kind a stored run must have been computed on (`opencl`, `reference`, …).
    pub kind: String,
}

/// One stored run.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct CacheEntry<T> {
    /// `git describe` of the simplets that computed it.
    simplets: String,
    /// UTC time it was stored.
    written: String,
    /// The solver that computed it (`opencl:NVIDIA H200`).
    solver: String,
    /// The measured run.
    run: T,
}

impl Backend<'static> {
    /// The serial reference solver.
    pub fn reference() -> Backend<'static> {
        Backend::new(|case: &Case| Ok(Box::new(Reference::new(case)) as Box<dyn Solver>))
    }
}

impl<'a> Backend<'a> {
    /// A backend from a solver factory; its error text is reported with the case name.
    pub fn new(
        make: impl Fn(&Case) -> Result<Box<dyn Solver>, String> + Send + Sync + 'a,
    ) -> Backend<'a> {
        Backend {
            make: Box::new(make),
            used: Mutex::new(Used::default()),
            jobs: 1,
            cache: None,
            only: None,
            cache_only: false,
            choice: crate::methods::BackendChoice::default(),
        }
    }

    /// Build the explicit methods' solvers with `choice` (`validate --backend`).
    pub fn with_choice(mut self, choice: crate::methods::BackendChoice) -> Backend<'a> {
        self.choice = choice;
        self
    }

    /// Keep finished study runs in `cache` and take them from there ([`RunCache`]).
    pub fn with_cache(mut self, cache: Option<RunCache>) -> Backend<'a> {
        self.cache = cache;
        self
    }

    /// Run only the study runs whose label (`implicit-tvd h=1/80`) contains `filter`, store
    /// them in the cache, and write no report (`validate --only-runs`).
    pub fn with_only(mut self, filter: Option<String>) -> Backend<'a> {
        self.only = filter;
        self
    }

    /// The `--only-runs` filter, if any.
    pub fn only(&self) -> Option<&str> {
        self.only.as_deref()
    }

    /// Take every grid-study run from the cache and run none (`validate --cache-only`): a run
    /// missing from the cache is an error that names it, so assembling the committed reports
    /// can never start a study that takes hours. The other cases are not cached and run.
    pub fn with_cache_only(mut self, on: bool) -> Backend<'a> {
        self.cache_only = on;
        self
    }

    /// Whether grid-study runs must all come from the cache ([`Backend::with_cache_only`]).
    pub fn cache_only(&self) -> bool {
        self.cache_only
    }

    /// The run cache, if there is one.
    pub fn run_cache(&self) -> Option<&RunCache> {
        self.cache.as_ref()
    }

    /// The cached run of case `case` with hash `key`, if one was stored by a solver of the
    /// cache's backend kind; its solver joins [`Backend::names`] as `<solver> (cached <date>)`.
    pub fn cached<T: serde::de::DeserializeOwned>(&self, case: &str, key: u64) -> Option<T> {
        let c = self.cache.as_ref()?;
        let path = c.dir.join(case).join(format!("{key:016x}-{}.json", c.kind));
        let text = std::fs::read_to_string(&path).ok()?;
        let entry: CacheEntry<T> = match serde_json::from_str(&text) {
            Ok(e) => e,
            Err(e) => {
                log::warn!("run cache: ignoring {}: {e}", path.display());
                return None;
            }
        };
        if entry.solver.split(':').next() != Some(c.kind.as_str()) {
            log::info!(
                "run cache: {} was computed on {}, not {}; running it again",
                path.display(),
                entry.solver,
                c.kind
            );
            return None;
        }
        log::info!(
            "run cache: {} ({}, simplets {}, {})",
            path.display(),
            entry.solver,
            entry.simplets,
            entry.written
        );
        let name = format!(
            "{} (cached {})",
            entry.solver,
            &entry.written[..10.min(entry.written.len())]
        );
        self.record(name);
        Some(entry.run)
    }

    /// Store a finished run of case `case` with hash `key` computed by `solver` (no-op
    /// without a cache; a failure to write is a warning, the run itself stands).
    pub fn store<T: serde::Serialize>(&self, case: &str, key: u64, solver: &str, run: &T) {
        let Some(c) = self.cache.as_ref() else {
            return;
        };
        let path = c.dir.join(case).join(format!("{key:016x}-{}.json", c.kind));
        let entry = CacheEntry {
            simplets: crate::output::manifest::GIT_DESCRIBE.to_string(),
            written: crate::text::utc_now(),
            solver: solver.to_string(),
            run,
        };
        let text = serde_json::to_string(&entry).expect("a run serialises");
        match crate::output::atomic::write_atomic(&path, text.as_bytes(), true) {
            Ok(p) => log::info!("run cache: stored {}", p.display()),
            Err(e) => log::warn!("run cache: cannot store {}: {e}", path.display()),
        }
    }

    /// Let the independent runs of a grid study (its levels and schemes) run `jobs` at a time,
    /// each on its own thread and solver (`validate --jobs`). On a GPU the small runs are
    /// launch-bound, so several of them share the device well; the results do not depend on
    /// `jobs` (each run is the same deterministic computation).
    pub fn with_jobs(mut self, jobs: usize) -> Backend<'a> {
        self.jobs = jobs.max(1);
        self
    }

    /// How many runs of a study may run at once.
    pub fn jobs(&self) -> usize {
        self.jobs
    }

    /// Run `tasks` on this backend, at most [`Backend::jobs`] at a time, and return their
    /// results in the order of `tasks`. `cost` orders the dispatch, largest first, so that the
    /// longest run starts at once and the short ones fill in beside it.
    pub fn run_all<T: Send>(&self, tasks: Vec<Task<'_, T>>, cost: &[f64]) -> Vec<T> {
        let n = tasks.len();
        let mut queue: Vec<(usize, Task<'_, T>)> = tasks.into_iter().enumerate().collect();
        queue.sort_by(|a, b| cost[b.0].total_cmp(&cost[a.0]).then(a.0.cmp(&b.0)));
        let queue = Mutex::new(queue.into_iter());
        let results: Mutex<Vec<Option<T>>> = Mutex::new((0..n).map(|_| None).collect());
        let work = || loop {
            let next = queue.lock().expect("queue lock").next();
            let Some((i, task)) = next else { break };
            let out = task(self);
            results.lock().expect("results lock")[i] = Some(out);
        };
        if self.jobs <= 1 || n <= 1 {
            work();
        } else {
            std::thread::scope(|s| {
                for w in 0..self.jobs.min(n) {
                    let work = &work;
                    s.spawn(move || {
                        WORKER.with(|c| c.set(w));
                        work();
                    });
                }
            });
        }
        results
            .into_inner()
            .expect("results lock")
            .into_iter()
            .map(|r| r.expect("every task ran"))
            .collect()
    }

    /// A fresh solver for `case`; its [`Solver::name`] is recorded for the report.
    pub fn solver(&self, case: &Case) -> Result<Box<dyn Solver>, ValidateError> {
        let s = (self.make)(case).map_err(|reason| ValidateError::Backend {
            case: case.name.clone(),
            reason,
        })?;
        let name = s.name();
        self.record(name);
        Ok(s)
    }

    /// The names of the solvers built so far (`reference`, `parallel:2`, `opencl:<device>`).
    pub fn names(&self) -> Vec<String> {
        self.used.lock().expect("backend names lock").all.clone()
    }

    /// Start a case: [`Backend::case_names`] lists the solvers used from here on.
    pub fn begin_case(&self) {
        self.used.lock().expect("backend names lock").case.clear();
    }

    /// The solvers used since [`Backend::begin_case`]: a run taken from the cache counts as
    /// `<solver> (cached <date>)`.
    pub fn case_names(&self) -> Vec<String> {
        self.used.lock().expect("backend names lock").case.clone()
    }

    /// Note that solver `name` was used (once per name, in order of first use).
    fn record(&self, name: String) {
        let mut guard = self.used.lock().expect("backend names lock");
        let used = &mut *guard;
        for names in [&mut used.case, &mut used.all] {
            if !names.contains(&name) {
                names.push(name.clone());
            }
        }
    }

    /// Run `case` on this backend to its end or steady state ([`march_solver`]) and return a
    /// reference solver holding the final state, for the analysis.
    pub fn steady(&self, case: &Case) -> Result<Reference, ValidateError> {
        let mut s = self.solver(case)?;
        march_solver(s.as_mut(), case)?;
        host_copy(case, s.as_mut())
    }
}

/// A [`Reference`] of `case` holding the state of `s` (face fluxes rebuilt from iterate k,
/// exactly as the reference has them after a loop-2 iteration).
pub fn host_copy(case: &Case, s: &mut dyn Solver) -> Result<Reference, ValidateError> {
    let mut r = Reference::new(case);
    let st = s.state().map_err(|source| ValidateError::Run {
        case: case.name.clone(),
        source,
    })?;
    r.restore(st.clone()).map_err(|source| ValidateError::Run {
        case: case.name.clone(),
        source,
    })?;
    Ok(r)
}

/// One line naming the solvers of a validation run (every backend runs each case's sweep
/// order, so they differ from the reference by round-off only).
pub fn backend_text(names: &[String]) -> String {
    if names.is_empty() {
        return "none".into();
    }
    names.join(", ")
}

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
    /// The solvers that ran it ([`backend_text`]).
    pub backend: String,
    /// Wall-clock seconds the case took.
    pub seconds: f64,
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
        "grid_convergence" => cases::grid_convergence(&dir, quick, &mut rep, bk)?,
        "budgets" => cases::budgets(root, quick, &mut rep, bk)?,
        "cavity" => cavity::cavity(&dir, quick, &mut rep, bk)?,
        "confined_square" => square::confined_square(&dir, quick, &mut rep, bk)?,
        "square_low_speed" => square::square_low_speed(&dir, quick, &mut rep, bk)?,
        n if explicit::CASES.contains(&n) => explicit::run(n, &dir, quick, &mut rep, bk)?,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each case's report names the solvers that case used, and only those, even when an
    /// earlier case of the same `validate all` used the same one (session 7: the low-speed
    /// square, assembled from the cache after the supersonic one, was credited with the live
    /// GPU runs of the cases before it).
    #[test]
    fn each_case_names_only_its_own_solvers() {
        let bk = Backend::reference();
        let (live, cached) = (
            "opencl:GPU".to_string(),
            "opencl:GPU (cached 2026-11-21)".to_string(),
        );
        bk.begin_case();
        bk.record(live.clone());
        assert_eq!(bk.case_names(), vec![live.clone()]);
        bk.begin_case();
        bk.record(cached.clone());
        assert_eq!(bk.case_names(), vec![cached.clone()]);
        bk.begin_case();
        bk.record(cached.clone());
        assert_eq!(bk.case_names(), vec![cached.clone()]);
        bk.begin_case();
        assert!(bk.case_names().is_empty());
        assert_eq!(bk.names(), [live, cached]);
    }

    /// `run_all` returns the results in task order whatever the dispatch order (by cost) and
    /// the number of workers, and each worker sees its own index.
    #[test]
    fn run_all_keeps_task_order_and_numbers_workers() {
        for jobs in [1, 2, 5] {
            let bk = Backend::reference().with_jobs(jobs);
            let tasks: Vec<Task<(usize, usize)>> = (0..7usize)
                .map(|i| Box::new(move |_: &Backend| (i * i, worker())) as Task<(usize, usize)>)
                .collect();
            let cost = [1.0, 7.0, 3.0, 3.0, 0.5, 9.0, 2.0];
            let out = bk.run_all(tasks, &cost);
            let squares: Vec<usize> = out.iter().map(|r| r.0).collect();
            assert_eq!(squares, vec![0, 1, 4, 9, 16, 25, 36], "jobs {jobs}");
            assert!(out.iter().all(|r| r.1 < jobs), "jobs {jobs}: {out:?}");
        }
        assert_eq!(worker(), 0, "outside run_all");
    }

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
