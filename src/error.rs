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
    /// Built without NetCDF support.
    #[error("this simplets was built without the `netcdf` feature; rebuild with default features to write {path}")]
    NoNetCdf {
        /// Requested output.
        path: String,
    },
}
