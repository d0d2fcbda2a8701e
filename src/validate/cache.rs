//! The run cache of the grid studies ([`RunCache`], `validate --cache DIR`) and the
//! [`Backend`] options that choose which runs come from it (`--only-runs`, `--cache-only`).

use std::path::PathBuf;

use super::backend::Backend;

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

impl<'a> Backend<'a> {
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
}
