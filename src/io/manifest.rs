//! The run manifest: `<out>/<name>.manifest.json`, written atomically at the end of every run
//! (also a failed one), so a batch user can tell what produced an output file.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::atomic::write_atomic;
use crate::config::Case;
use crate::error::OutputError;

/// What the manifest records.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest<'a> {
    /// `simplets` version.
    pub simplets_version: &'static str,
    /// `ok`, `steady`, `interrupted`, or the one-line error that stopped the run.
    pub status: String,
    /// Backend name (`reference`, `opencl:<device>`).
    pub backend: String,
    /// Scheme, e.g. `implicit-upwind`.
    pub scheme: String,
    /// Unix time the run started, seconds.
    pub started_unix_s: u64,
    /// Wall-clock seconds of the step loop.
    pub wall_s: f64,
    /// Time steps completed.
    pub steps: u64,
    /// Loop-2 iterations over all steps.
    pub iterations: u64,
    /// Fluid cells × loop-2 iterations per second.
    pub cell_iters_per_s: f64,
    /// Output file.
    pub output: PathBuf,
    /// The checkpoint this run restarted from, if any.
    pub restarted_from: Option<PathBuf>,
    /// The last checkpoint this run wrote, if any.
    pub checkpoint: Option<PathBuf>,
    /// The complete case.
    pub case: &'a Case,
}

/// Path of the manifest next to the output of stem `stem` (`<name>`, or `<name>.s<step>` for a
/// restarted segment, see [`super::output_stem`]) in `out_dir`.
pub fn manifest_path(out_dir: &Path, stem: &str) -> PathBuf {
    out_dir.join(format!("{stem}.manifest.json"))
}

/// Write the manifest of output stem `stem` (tmp + rename; it belongs to the output just
/// written, so it replaces an older one).
pub fn write_manifest(out_dir: &Path, stem: &str, m: &Manifest) -> Result<PathBuf, OutputError> {
    let path = manifest_path(out_dir, stem);
    let text = serde_json::to_string_pretty(m).map_err(|e| OutputError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    write_atomic(&path, text.as_bytes(), true)
}
