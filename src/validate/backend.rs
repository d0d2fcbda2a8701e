//! The backend the validation runs march on ([`Backend`]): a solver factory, the solvers it
//! used (for the report), the runs of a study dispatched `--jobs` at a time, and the options
//! that choose which grid-study runs come from the run cache ([`RunCache`]: `--cache`,
//! `--only-runs`, `--cache-only`).

use std::sync::Mutex;

use super::cache::RunCache;
use super::march_solver;
use crate::error::ValidateError;
use crate::methods::simple_ts::backend::Backend as Solver;
use crate::methods::simple_ts::case::Case;
use crate::methods::simple_ts::reference::Reference;

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
        let (run, name) = self.cache.as_ref()?.load(case, key)?;
        self.record(name);
        Some(run)
    }

    /// Store a finished run of case `case` with hash `key` computed by `solver` (no-op
    /// without a cache; a failure to write is a warning, the run itself stands).
    pub fn store<T: serde::Serialize>(&self, case: &str, key: u64, solver: &str, run: &T) {
        if let Some(c) = self.cache.as_ref() {
            c.store(case, key, solver, run);
        }
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
    pub(super) fn record(&self, name: String) {
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
