//! The run manifest: `<out>/<name>.manifest.json`, written atomically at the end of every run
//! (also a failed one), so a batch user can tell what produced an output file: the case, the
//! code (version, `git describe` and rustc of the build), the backend with its device, driver
//! and kernel build ([`SolverInfo`]), and where the time went ([`Timings`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::atomic::write_atomic;
use crate::error::OutputError;
use crate::solver::SolverInfo;

/// `git describe --tags --always --dirty` of the source tree at build time (set by
/// `build.rs`; empty when the build had no git repository).
pub const GIT_DESCRIBE: &str = env!("SIMPLETS_GIT_DESCRIBE");
/// `rustc --version` of the compiler that built this binary (empty if unknown).
pub const RUSTC_VERSION: &str = env!("SIMPLETS_RUSTC_VERSION");

/// The code version: `<crate version> (<git describe>)`, or the crate version alone when the
/// build had no git repository.
pub fn code_version() -> String {
    let v = env!("CARGO_PKG_VERSION");
    if GIT_DESCRIBE.is_empty() {
        v.to_string()
    } else {
        format!("{v} ({GIT_DESCRIBE})")
    }
}

/// Where the wall time of a run went, in seconds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Timings {
    /// The whole step loop (also in [`Manifest::wall_s`]).
    pub wall_s: f64,
    /// Inside `Solver::step` (loop 2 on the backend).
    pub step_s: f64,
    /// Reading fields back for output (a device→host copy on the OpenCL backends).
    pub readback_s: f64,
    /// How many times fields were read back (whole state or some rows).
    pub readbacks: u64,
    /// Writing snapshots, series, CSV lines and checkpoints.
    pub output_s: f64,
}

/// What the manifest records.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest<'a> {
    /// `simplets` version.
    pub simplets_version: &'static str,
    /// [`code_version`]: the crate version with `git describe` of the build.
    pub code_version: String,
    /// [`GIT_DESCRIBE`], `null` when unknown.
    pub git_describe: Option<&'static str>,
    /// [`RUSTC_VERSION`], `null` when unknown.
    pub rustc: Option<&'static str>,
    /// `ok`, `steady`, `interrupted`, or the one-line error that stopped the run.
    pub status: String,
    /// Backend name (`reference`, `parallel:<threads>`, `opencl:<device>`,
    /// `opencl-fused:<device>`).
    pub backend: String,
    /// Device, driver and kernel build of an OpenCL backend (`null` fields otherwise).
    #[serde(flatten)]
    pub solver: SolverInfo,
    /// The method, e.g. `simple_ts`.
    pub method: &'static str,
    /// Scheme (the method's variant), e.g. `implicit-upwind`.
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
    /// Breakdown of the wall time.
    pub timings: Timings,
    /// The (first) NetCDF output file.
    pub output: PathBuf,
    /// Every NetCDF file this run wrote, in order (the parts of split output).
    pub outputs: Vec<PathBuf>,
    /// The checkpoint this run restarted from, if any.
    pub restarted_from: Option<PathBuf>,
    /// The last checkpoint this run wrote, if any.
    pub checkpoint: Option<PathBuf>,
    /// The complete case.
    pub case: &'a serde_json::Value,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_version_names_the_crate_and_the_commit() {
        let v = code_version();
        assert!(v.starts_with(env!("CARGO_PKG_VERSION")), "{v}");
        if !GIT_DESCRIBE.is_empty() {
            assert!(v.ends_with(&format!("({GIT_DESCRIBE})")), "{v}");
        }
        // The test suite is built by cargo, which always gives build scripts RUSTC.
        assert!(RUSTC_VERSION.starts_with("rustc "), "{RUSTC_VERSION}");
    }
}
