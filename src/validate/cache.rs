//! The run cache of the grid studies ([`RunCache`], `validate --cache DIR`): where a run's
//! file lies, and reading and writing one. The validation backend holds it and chooses which
//! runs come from it (`--only-runs`, `--cache-only`); the cache knows nothing of the backend,
//! so the two files import one way only.

use std::path::PathBuf;

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

impl RunCache {
    /// The file of the run of case `case` with hash `key`.
    fn path(&self, case: &str, key: u64) -> PathBuf {
        self.dir
            .join(case)
            .join(format!("{key:016x}-{}.json", self.kind))
    }

    /// The stored run of case `case` with hash `key`, if one was stored by a solver of the
    /// cache's backend kind, with the name its solver is listed under in the report
    /// (`<solver> (cached <date>)`).
    pub(super) fn load<T: serde::de::DeserializeOwned>(
        &self,
        case: &str,
        key: u64,
    ) -> Option<(T, String)> {
        let path = self.path(case, key);
        let text = std::fs::read_to_string(&path).ok()?;
        let entry: CacheEntry<T> = match serde_json::from_str(&text) {
            Ok(e) => e,
            Err(e) => {
                log::warn!("run cache: ignoring {}: {e}", path.display());
                return None;
            }
        };
        if entry.solver.split(':').next() != Some(self.kind.as_str()) {
            log::info!(
                "run cache: {} was computed on {}, not {}; running it again",
                path.display(),
                entry.solver,
                self.kind
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
        Some((entry.run, name))
    }

    /// Store a finished run of case `case` with hash `key` computed by `solver` (a failure to
    /// write is a warning, the run itself stands).
    pub(super) fn store<T: serde::Serialize>(&self, case: &str, key: u64, solver: &str, run: &T) {
        let path = self.path(case, key);
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
