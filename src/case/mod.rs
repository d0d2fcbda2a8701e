//! The case file: what every method's case has (name, grid, time, output), reading a case file
//! safely, the `method` selector, and the shared value rules ([`rules`]). A method's own
//! sections (gas, bodies, boundaries, scheme, solver) live in `methods/<method>/case/`.
//!
//! Every quantity is non-dimensional, in the units of the method's case documentation.
//! Unknown fields are rejected (`deny_unknown_fields`), and every error names the JSON path of
//! the first bad value.

pub mod rules;

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::ConfigError;

/// Largest case file read, in bytes: a case is a few kB; anything larger is not a case (and a
/// device file such as /dev/zero would otherwise be read until memory runs out).
pub const MAX_CASE_BYTES: u64 = 16 << 20;

/// Largest number of output files of a split series: part names keep four digits
/// (`<name>.0001.nc` … `<name>.9999.nc`), so they sort in time order.
pub const MAX_PARTS: u64 = 9999;

/// The numerical method of a case (`"method"` in the case file; SIMPLE-TS when absent).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// SIMPLE-TS, the pressure-based solver of the compressible Navier–Stokes–Fourier
    /// equations (`methods::simple_ts`).
    #[default]
    SimpleTs,
    /// Linear convection by first-order upwind (seed 003, `methods::convection`).
    Convection,
    /// SHLL for the 2D Euler equations (seed 002, `methods::shll`).
    ShllEuler,
    /// SHLL for the shallow-water equations (seed 002, `methods::shll`).
    ShllShallowWater,
    /// SHLL advection with central diffusion of a scalar (seed 002, `methods::shll`).
    ShllConvectionDiffusion,
    /// Chang's space-time CE/SE scheme (α-scheme) for the 1D and 2D Euler equations (seed
    /// 000, `methods::cese`).
    CeseEuler,
    /// The Brandvik–Pullan structured-grid Euler solver (seed 001, `methods::bp`).
    BpEuler,
}

impl Method {
    /// Every method, in the order the documentation lists them.
    pub const ALL: [Method; 7] = [
        Method::SimpleTs,
        Method::Convection,
        Method::ShllEuler,
        Method::ShllShallowWater,
        Method::ShllConvectionDiffusion,
        Method::CeseEuler,
        Method::BpEuler,
    ];

    /// The name used in case files and output (`simple_ts`).
    pub fn name(self) -> &'static str {
        match self {
            Method::SimpleTs => "simple_ts",
            Method::Convection => "convection",
            Method::ShllEuler => "shll_euler",
            Method::ShllShallowWater => "shll_shallow_water",
            Method::ShllConvectionDiffusion => "shll_convection_diffusion",
            Method::CeseEuler => "cese_euler",
            Method::BpEuler => "bp_euler",
        }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the run driver and the output need of any case, whatever its method.
#[derive(Debug, Clone, PartialEq)]
pub struct Common {
    /// Case name (output file stem).
    pub name: String,
    /// Free text.
    pub description: String,
    /// The method.
    pub method: Method,
    /// The variant of the method, e.g. `implicit-upwind` (manifest, NetCDF attribute).
    pub scheme: String,
    /// Domain and grid.
    pub grid: GridSpec,
    /// Time step and run length.
    pub time: TimeSpec,
    /// Output controls.
    pub output: OutputSpec,
    /// A step whose residual exceeds this (or is not finite) has diverged.
    pub divergence_limit: f64,
    /// The whole case as JSON (manifest, NetCDF attribute, checkpoint hash).
    pub json: serde_json::Value,
}

/// The text of the case file at `path`: refused unless it is a regular file of at most
/// [`MAX_CASE_BYTES`] (a FIFO or a device would hang or exhaust memory).
pub fn read_case_text(path: &Path) -> Result<String, ConfigError> {
    let io = |message: String| ConfigError::Io {
        path: path.display().to_string(),
        message,
    };
    let meta = std::fs::metadata(path).map_err(|e| io(e.to_string()))?;
    if !meta.is_file() {
        return Err(io("not a regular file".into()));
    }
    if meta.len() > MAX_CASE_BYTES {
        return Err(io(format!(
            "{} bytes, more than a case file may have ({MAX_CASE_BYTES})",
            meta.len()
        )));
    }
    use std::io::Read;
    let mut text = String::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_CASE_BYTES + 1).read_to_string(&mut text))
        .map_err(|e| io(e.to_string()))?;
    if text.len() as u64 > MAX_CASE_BYTES {
        return Err(io(format!("more than {MAX_CASE_BYTES} bytes")));
    }
    Ok(text)
}

/// Parse JSON text into `T`, turning serde's error into a one-line [`ConfigError::Parse`]
/// that names the file, line, column and the offending field.
pub fn parse_json<T: serde::de::DeserializeOwned>(
    text: &str,
    source: &str,
) -> Result<T, ConfigError> {
    serde_json::from_str(text).map_err(|e| ConfigError::Parse {
        source_name: source.to_string(),
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })
}

/// The method a case file asks for (`"method"`; SIMPLE-TS when absent).
pub fn method_of(text: &str, source: &str) -> Result<Method, ConfigError> {
    #[derive(Deserialize)]
    struct Selector {
        #[serde(default)]
        method: Method,
    }
    Ok(parse_json::<Selector>(text, source)?.method)
}

/// Domain and grid. Cells are uniform unless face coordinates are given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridSpec {
    /// Number of computed cells along x (ghost layers are added by the solver).
    pub nx: usize,
    /// Number of computed cells along y.
    pub ny: usize,
    /// Domain extent along x: `[x_start, x_end]`.
    pub x: [f64; 2],
    /// Domain extent along y: `[y_start, y_end]`.
    pub y: [f64; 2],
    /// Optional non-uniform x face coordinates (nx + 1 strictly increasing values from x_start
    /// to x_end). Overrides the uniform spacing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x_faces: Option<Vec<f64>>,
    /// Optional non-uniform y face coordinates (ny + 1 values), as `x_faces`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y_faces: Option<Vec<f64>>,
}

/// Time step and run length: give exactly one of `steps` and `end_time`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeSpec {
    /// Time step Δt.
    pub dt: f64,
    /// Number of time steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// End time (steps = ceil(end_time/dt)).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_time: Option<f64>,
    /// Stop early at steady state (one loop-2 iteration and all updates below 1e-12).
    #[serde(default)]
    pub stop_at_steady_state: bool,
}

/// Output controls.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputSpec {
    /// Write a snapshot every `interval` steps (0: only the initial and final states).
    #[serde(default = "default_interval")]
    pub interval: u64,
    /// Point probes, sampled every `probes_every` steps into `<out>/<stem>.probes.csv`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub probes: Vec<Probe>,
    /// Body forces every this many steps (absolute step numbers; 0: no forces file).
    #[serde(default = "every_step")]
    pub forces_every: u64,
    /// Probe samples every this many steps (absolute step numbers; 0: no probes file).
    #[serde(default = "every_step")]
    pub probes_every: u64,
    /// At most this many snapshots per NetCDF file: the series is split into
    /// `<name>.0001.nc`, `<name>.0002.nc`, … (0: one file `<name>.nc`).
    #[serde(default)]
    pub snapshots_per_file: u64,
}

/// A point probe: the values of the fluid cell containing (x, y) every step.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Probe {
    /// Label in the CSV (letters, digits, `-`, `_`, `.`; unique).
    pub name: String,
    /// x of the point.
    pub x: f64,
    /// y of the point.
    pub y: f64,
}

fn default_interval() -> u64 {
    100
}

fn every_step() -> u64 {
    1
}

impl Default for OutputSpec {
    fn default() -> Self {
        OutputSpec {
            interval: default_interval(),
            probes: Vec::new(),
            forces_every: every_step(),
            probes_every: every_step(),
            snapshots_per_file: 0,
        }
    }
}

impl TimeSpec {
    /// Number of time steps the case asks for.
    pub fn n_steps(&self) -> u64 {
        match (self.steps, self.end_time) {
            (Some(n), _) => n,
            (None, Some(t)) => (t / self.dt - 1e-9).ceil().max(0.0) as u64,
            (None, None) => 0,
        }
    }
}
