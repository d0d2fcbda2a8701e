//! Library error types. Each message is one line that names the cause and, where it helps,
//! what to do about it. `anyhow` is used only in `main.rs` and `cli.rs`.

use thiserror::Error;

/// A bad case file or case value.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ConfigError {
    /// The case file could not be read.
    #[error("cannot read case file {path}: {message}")]
    Io {
        /// File path.
        path: String,
        /// OS error text.
        message: String,
    },
    /// The JSON is malformed, has an unknown field or a value of the wrong type.
    #[error("{source_name}:{line}:{column}: {message}")]
    Parse {
        /// File name (or `<string>`).
        source_name: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// serde_json's message, which names the field.
        message: String,
    },
    /// A value is out of its allowed range or inconsistent with another value.
    #[error("{path} = {value}: {allowed}")]
    Invalid {
        /// JSON path of the value, e.g. `grid.nx` or `bodies[0].x`.
        path: String,
        /// The value as given.
        value: String,
        /// What is allowed, e.g. `must be in [2, 100000]`.
        allowed: String,
    },
}

/// A failure while running a case.
#[derive(Debug, Error)]
pub enum RunError {
    /// NaN/Inf or a residual above the divergence limit.
    #[error("diverged at step {step}, loop-2 iteration {iter}: {field} = {value:e} at cell (i={i}, j={j}); last good state kept")]
    Diverged {
        /// Time step (1-based).
        step: u64,
        /// Loop-2 iteration (1-based).
        iter: u32,
        /// Field name (u, v, p, T).
        field: &'static str,
        /// Cell column (with ghost offset removed: 0-based computed cell).
        i: i64,
        /// Cell row.
        j: i64,
        /// Offending value or residual.
        value: f64,
    },
    /// Output could not be written.
    #[error(transparent)]
    Output(#[from] OutputError),
    /// The restart checkpoint could not be used (missing, corrupt, or for another case).
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// An OpenCL call failed during the run.
    #[error(transparent)]
    Device(#[from] DeviceError),
    /// A failure that every rank of a decomposed run stops for, found by rank 0 (the run
    /// driver's guard on the gathered fields); the text is rank 0's error.
    #[error("{0}")]
    Agreed(String),
    /// SIGTERM or SIGINT arrived: the run stopped after a complete step, wrote a checkpoint,
    /// finished its output and manifest.
    #[error("interrupted after step {step}; checkpoint written to {}: resume with --restart {}", .checkpoint.display(), .checkpoint.display())]
    Interrupted {
        /// Last completed time step.
        step: u64,
        /// The checkpoint holding that step.
        checkpoint: std::path::PathBuf,
    },
}

/// A checkpoint that cannot be used for a restart. Every message names the file.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum CheckpointError {
    /// The file could not be read.
    #[error("cannot read checkpoint {path}: {message}")]
    Io {
        /// File path.
        path: String,
        /// OS error text.
        message: String,
    },
    /// The file does not start with the checkpoint magic line.
    #[error("{path} is not a simplets checkpoint (no `SIMPLETS-CHECKPOINT` first line)")]
    NotACheckpoint {
        /// File path.
        path: String,
    },
    /// A checkpoint format this simplets cannot read.
    #[error(
        "checkpoint {path} has format version {found}, this simplets reads version {supported}"
    )]
    Version {
        /// File path.
        path: String,
        /// Version in the file.
        found: String,
        /// Version this build reads.
        supported: u32,
    },
    /// Truncated file, bad header, or checksum mismatch.
    #[error("checkpoint {path} is corrupt: {detail}")]
    Corrupt {
        /// File path.
        path: String,
        /// What is wrong, e.g. `truncated: 1200 of 614416 bytes`.
        detail: String,
    },
    /// Written for a different grid size.
    #[error("checkpoint {path} is for grid {ckpt_nx}x{ckpt_ny}, this case has {nx}x{ny}")]
    Grid {
        /// File path.
        path: String,
        /// Checkpoint nx.
        ckpt_nx: usize,
        /// Checkpoint ny.
        ckpt_ny: usize,
        /// Case nx.
        nx: usize,
        /// Case ny.
        ny: usize,
    },
    /// Written for a case with different physics (see `checkpoint::case_hash`).
    #[error("checkpoint {path} was written for a different case (hash {ckpt_hash}, this case {hash}): {differs} differ")]
    Case {
        /// File path.
        path: String,
        /// Hash stored in the checkpoint.
        ckpt_hash: String,
        /// Hash of this case.
        hash: String,
        /// Comma-separated JSON paths that differ, e.g. `gas.kn, scheme.interpolation`.
        differs: String,
    },
}

/// A failure writing results.
#[derive(Debug, Error)]
pub enum OutputError {
    /// The output file exists and `--force` was not given.
    #[error("{path} exists; use --force to overwrite it")]
    Exists {
        /// Existing file.
        path: String,
    },
    /// The output path names something that is not a regular file (a directory, a device, a
    /// FIFO): never replaced, even with `--force`.
    #[error("{path} exists and is not a regular file: choose another output path")]
    NotAFile {
        /// The path.
        path: String,
    },
    /// I/O error.
    #[error("cannot write {path}: {message}")]
    Io {
        /// File path.
        path: String,
        /// Error text.
        message: String,
    },
    /// NetCDF library error.
    #[error("NetCDF error writing {path}: {message}")]
    NetCdf {
        /// File path.
        path: String,
        /// Error text.
        message: String,
    },
    /// No room for the next write (free space or the file-size limit): the run stops before
    /// it, with every file still complete.
    #[error("{path}: no room for the next write ({} needed with margin, {limit} leaves {}); stopped before it, the output so far is complete", size(*.needed_bytes), size(*.room_bytes))]
    NoSpace {
        /// The file that would be written.
        path: String,
        /// Bytes needed, margin included.
        needed_bytes: u64,
        /// Bytes the limit leaves.
        room_bytes: u64,
        /// `free space` or `the file-size limit (ulimit -f)`.
        limit: &'static str,
    },
    /// A file could not be finished (a write or the close failed); what was written is kept
    /// under another name.
    #[error("{message}; what was written is kept in {kept}")]
    Partial {
        /// The error that stopped the file.
        message: String,
        /// Where the unfinished file is.
        kept: String,
    },
    /// Built without NetCDF support.
    #[error("this simplets was built without the `netcdf` feature; rebuild with default features to write {path}")]
    NoNetCdf {
        /// Requested output.
        path: String,
    },
}

/// Bytes in KiB, MiB or GiB, for messages.
fn size(b: u64) -> String {
    match b {
        b if b >= 10 << 30 => format!("{:.1} GiB", b as f64 / (1u64 << 30) as f64),
        b if b >= 10 << 20 => format!("{:.1} MiB", b as f64 / (1u64 << 20) as f64),
        b => format!("{:.1} KiB", b as f64 / 1024.0),
    }
}

/// A failure finding, checking or using an OpenCL device, or building kernels for it.
/// Sizes are in bytes; messages print MiB/KiB where that reads better.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum DeviceError {
    /// libOpenCL.so.1 could not be loaded, or the ICD loader found no platform (-1001).
    #[error(
        "no OpenCL platform ({detail}); install an ICD such as pocl-opencl-icd or a GPU driver"
    )]
    NoRuntime {
        /// What failed, e.g. `clGetPlatformIDs returned -1001 (CL_PLATFORM_NOT_FOUND_KHR)`.
        detail: String,
    },
    /// The loader works but lists no platform, or the platforms have no device.
    #[error("the OpenCL loader lists no platform with a device; install an ICD such as pocl-opencl-icd or a GPU driver")]
    NoPlatform,
    /// No device matches the selector.
    #[error(
        "no OpenCL device matches '{selector}'; available: {available} (see `simplets devices`)"
    )]
    NoDevice {
        /// The selector as given (index or name substring).
        selector: String,
        /// `index: name (platform)` of every listed device, `; `-separated.
        available: String,
    },
    /// The device cannot do double precision.
    #[error("{device} has no FP64 (cl_khr_fp64) support; choose another device with --device (see `simplets devices`)")]
    NoFp64 {
        /// Device name.
        device: String,
    },
    /// The kernel's local-memory budget exceeds the device's.
    #[error("{device} has {available} B of local memory, the kernel needs {needed} B; use a narrower work-group or another device")]
    LocalMemTooSmall {
        /// Device name.
        device: String,
        /// Bytes needed per work-group.
        needed: u64,
        /// CL_DEVICE_LOCAL_MEM_SIZE.
        available: u64,
    },
    /// The work-group is wider than the device allows.
    #[error("{device} allows work-groups of at most {max} items, the kernel needs {needed}; use a narrower work-group or another device")]
    WorkGroupTooLarge {
        /// Device name.
        device: String,
        /// Work-items per group requested.
        needed: usize,
        /// CL_DEVICE_MAX_WORK_GROUP_SIZE.
        max: usize,
    },
    /// The buffers do not fit in global memory, or one buffer exceeds the allocation limit.
    #[error("{device}: {limit} is {:.1} MiB, the case needs {:.1} MiB; use a smaller grid or a device with more memory", *.available_bytes as f64 / 1048576.0, *.needed_bytes as f64 / 1048576.0)]
    OutOfMemory {
        /// Device name.
        device: String,
        /// Which limit: `global memory` or `the largest single buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)`.
        limit: &'static str,
        /// Bytes needed.
        needed_bytes: u64,
        /// Bytes the limit allows.
        available_bytes: u64,
    },
    /// The host cannot hold the run: its estimate exceeds what the host grants the process
    /// (`MemAvailable`, the cgroup limit, `ulimit -v`). Found before anything large is allocated.
    #[error("host memory: the case needs ~{:.2} GiB on the {backend} backend, but {limit} allows {:.2} GiB; use a smaller grid or a node with more memory", *.needed_bytes as f64 / 1073741824.0, *.available_bytes as f64 / 1073741824.0)]
    HostOutOfMemory {
        /// Backend name.
        backend: &'static str,
        /// What sets the budget (`MemAvailable`, a cgroup limit, `ulimit -v`).
        limit: String,
        /// Bytes needed (estimate).
        needed_bytes: u64,
        /// Bytes available.
        available_bytes: u64,
    },
    /// The backend has no implementation of this method yet.
    #[error("{0}")]
    Unsupported(String),
    /// The fused kernel cannot run this case (the phase kernels can).
    #[error("the fused kernel does not support {what}: use --kernel phase")]
    FusedUnsupported {
        /// What the case asks for.
        what: String,
    },
    /// A build option or tuning setting from the environment that is refused.
    #[error("{var}={value:?}: {reason}")]
    BadBuildOption {
        /// The environment variable.
        var: &'static str,
        /// Its value.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The OpenCL C compiler rejected the assembled kernel source.
    #[error("kernel build failed on {device}: {first_error} (build log: {log_path})")]
    Build {
        /// Device name.
        device: String,
        /// Where the full log was written, or why it was not.
        log_path: String,
        /// First log line containing `error`, with its `cl/<file>.cl:line:col`.
        first_error: String,
    },
    /// Any other OpenCL call failed.
    #[error("OpenCL {call} failed on {device}: {code} ({name}); check the driver with `clinfo`")]
    Api {
        /// Device name (or `-` before a device is chosen).
        device: String,
        /// What was being done, e.g. `clCreateContext`.
        call: &'static str,
        /// OpenCL error code.
        code: i32,
        /// Symbolic name of the code.
        name: String,
    },
    /// A kernel log, source or dump could not be written.
    #[error("cannot write {path}: {message}")]
    Io {
        /// File path.
        path: String,
        /// OS error text.
        message: String,
    },
}

/// Errors of `simplets validate` (issue 6): a case that cannot be found or read, a run that
/// fails, a report that cannot be written. A failed metric is not an error: it is a row with
/// `pass = false`.
#[derive(Debug, Error)]
pub enum ValidateError {
    /// The case name is not one of the validation cases.
    #[error("unknown validation case {name:?}: expected one of {known} or all")]
    UnknownCase {
        /// The name given.
        name: String,
        /// The known names, comma separated.
        known: String,
    },
    /// The case file is missing or invalid.
    #[error("validation case file: {0}")]
    Config(#[from] ConfigError),
    /// A solver run failed.
    #[error("validation case {case}: {source}")]
    Run {
        /// Case (and variant) name.
        case: String,
        /// The run error.
        source: RunError,
    },
    /// The backend could not build a solver for a case (device, kernel build).
    #[error("validation case {case}: cannot start the solver: {reason}")]
    Backend {
        /// Case (and variant) name.
        case: String,
        /// What went wrong.
        reason: String,
    },
    /// A reference data file is missing or malformed.
    #[error("reference data {path}: {reason}")]
    Data {
        /// The file.
        path: String,
        /// What went wrong (line and field where known).
        reason: String,
    },
    /// `--only-runs` ran part of a study (into the run cache) and wrote no report. Not a
    /// failure: the CLI notes it and goes on.
    #[error("{case}: ran {ran} of the study's {total} runs (--only-runs), into the run cache; no report")]
    Partial {
        /// Case name.
        case: String,
        /// Runs that matched the filter (run, or found in the cache).
        ran: usize,
        /// Runs of the whole study.
        total: usize,
    },
    /// `--cache-only`: runs of a study are not in the run cache (bad input).
    #[error(
        "{case}: {missing} of the study's runs not in the run cache {dir} (--cache-only): {labels}"
    )]
    NotCached {
        /// Case name.
        case: String,
        /// The cache directory.
        dir: String,
        /// How many runs are missing.
        missing: usize,
        /// Their labels, comma separated.
        labels: String,
    },
    /// `--only-runs` names none of a study's runs (bad input).
    #[error("--only-runs {filter:?} names none of the {case} runs: {labels}")]
    NoRunMatches {
        /// Case name.
        case: String,
        /// The filter given.
        filter: String,
        /// The study's run labels, comma separated.
        labels: String,
    },
    /// A report file or plot could not be written.
    #[error("cannot write {path}: {reason}")]
    Report {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
}
