//! `simplets bench`: timed iterations of a case on a backend, and for the OpenCL backends a
//! per-kernel roofline.
//!
//! 1. Warm-up steps, then `steps` timed steps (every step does exactly `iters` iterations):
//!    the throughput in work-cell iterations per second, wall clock, no profiling.
//! 2. OpenCL: the same number of steps again with profiling events on
//!    ([`crate::device::Profiling`]): device time per kernel.
//! 3. Per kernel ([`roofline`]): the counted FP64 operations and compulsory bytes
//!    ([`counts`]) times the work of this run give GB/s, GFLOP/s, % of the datasheet peaks
//!    ([`datasheet`]) and of the triad bandwidth measured in the same run, and % of the
//!    kernel's roofline bound `min(FP64 peak / flops per cell, triad bandwidth / bytes per
//!    cell)`.
//! 4. `--json FILE`: everything as JSON ([`Report`]); `--trace DIR`: a kernel-count trace of
//!    one more step of a SIMPLE-TS OpenCL backend ([`trace`]).
//! 5. The backend's set-up time (where the caller timed it) and the process's peak resident
//!    host memory at the end ([`host::peak_resident_bytes`]), per stored and per fluid cell.

pub mod counts;
pub mod datasheet;
pub mod host;
pub mod ranks;
pub mod render;
pub mod roofline;
pub mod trace;

use serde::Serialize;

use crate::case::Common;
use crate::device::DeviceInfo;
use crate::error::{DeviceError, RunError};
use crate::solver::Solver;

pub use render::render;
pub use roofline::kernel_rows;

/// What to run and how to label it.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    /// Untimed steps first.
    pub warmup: u64,
    /// Timed steps.
    pub steps: u64,
    /// Also run the timed steps with profiling events (OpenCL backends).
    pub profile: bool,
    /// OpenCL form (`phase`, `fused`, `fused-lean`); `None` for the CPU backends.
    pub form: Option<&'static str>,
    /// The assembled source of the OpenCL form (to check that the counts are current).
    pub form_source: Option<String>,
    /// The method's variant (`implicit-upwind`, …), the key of the kernel counts.
    pub scheme: String,
    /// The sweep order or other variant detail worth a column (`cpp`, `gpu`).
    pub order: String,
    /// Iterations per step (every step does exactly this many).
    pub iters_per_step: u32,
    /// Host bytes per stored cell of a CPU backend (its memory estimate).
    pub host_bytes_per_cell: u64,
    /// The OpenCL device.
    pub device: Option<DeviceInfo>,
    /// Triad bandwidth measured in this run, B/s: the device's (OpenCL) or the host's on the
    /// backend's threads (CPU backends).
    pub triad: Option<f64>,
    /// CPU backends: compulsory bytes per stored cell of one loop-2 iteration
    /// ([`host::phase_traffic`]), for the host roofline line.
    pub host_traffic_per_stored_cell: Option<f64>,
    /// Threads of the parallel backend.
    pub threads: Option<usize>,
    /// The command line.
    pub command: String,
    /// `git describe` of the build.
    pub git: String,
    /// Wall seconds of the backend's set-up (geometry, kernel build, uploads), where the
    /// caller timed it.
    pub setup_seconds: Option<f64>,
    /// Kernel counts to use instead of `src/bench/counts.json` (a method whose kernels are
    /// modelled analytically: the explicit methods).
    pub counts: Option<counts::Counts>,
}

/// Grid numbers of a run.
#[derive(Debug, Clone, Serialize)]
pub struct GridInfo {
    /// Computed cells along x.
    pub nx: usize,
    /// Computed cells along y.
    pub ny: usize,
    /// Stored cells with ghosts.
    pub stored_cells: u64,
    /// Fluid cells (the unit of cell-iterations).
    pub fluid_cells: u64,
}

/// The OpenCL device of a run.
#[derive(Debug, Clone, Serialize)]
pub struct DeviceJson {
    /// Device name.
    pub name: String,
    /// `GPU`, `CPU`, …
    pub device_type: String,
    /// Platform name.
    pub platform: String,
    /// Driver version.
    pub driver: String,
    /// Compute units.
    pub compute_units: u32,
    /// Maximum clock, MHz.
    pub max_clock_mhz: u32,
    /// Global memory, bytes.
    pub global_mem_bytes: u64,
}

/// Device (or host) memory of a run.
#[derive(Debug, Clone, Serialize)]
pub struct Memory {
    /// Bytes held by the backend's buffers.
    pub bytes: u64,
    /// `device buffers` (measured from the allocations) or `host estimate`.
    pub source: &'static str,
    /// Bytes per stored cell.
    pub per_stored_cell: f64,
    /// Bytes per fluid cell (control volume).
    pub per_fluid_cell: f64,
}

/// One row of the per-kernel table.
#[derive(Debug, Clone, Default, Serialize)]
pub struct KernelRow {
    /// Kernel name, or `(copy buffer)` / `(read buffer)`.
    pub name: String,
    /// Launches per loop-2 iteration.
    pub launches_per_iter: f64,
    /// Device seconds per loop-2 iteration.
    pub seconds_per_iter: f64,
    /// Share of the summed device time, %.
    pub share_pct: f64,
    /// Fluid cells / seconds per iteration, 10⁶/s.
    pub mcell_its: f64,
    /// True if counts exist for this kernel.
    pub counted: bool,
    /// Compulsory bytes per fluid cell-iteration.
    pub bytes_per_cell: f64,
    /// FP64 operations per fluid cell-iteration.
    pub flops_per_cell: f64,
    /// flops / bytes.
    pub intensity: f64,
    /// Achieved GB/s (compulsory bytes / device time).
    pub gbs: f64,
    /// Achieved GFLOP/s.
    pub gflops: f64,
    /// % of the datasheet bandwidth.
    pub pct_bw_datasheet: Option<f64>,
    /// % of the triad bandwidth of this run.
    pub pct_bw_triad: Option<f64>,
    /// % of the FP64 peak.
    pub pct_fp64: Option<f64>,
    /// Roofline bound min(FP64 peak / flops, triad bandwidth / bytes), 10⁶ fluid cell-it/s.
    pub bound_mcell_its: Option<f64>,
    /// Which roof sets the bound: `bandwidth` or `fp64`.
    pub bound_by: Option<&'static str>,
    /// Achieved % of the bound.
    pub pct_of_bound: Option<f64>,
}

/// Everything one bench run measured (`--json FILE`).
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// simplets version.
    pub version: String,
    /// `git describe --always --dirty` of the build.
    pub git: String,
    /// UTC date and time of the run, ISO 8601.
    pub date: String,
    /// Command line.
    pub command: String,
    /// Host name (`/etc/hostname`, else `HOSTNAME`).
    pub host: String,
    /// Host CPU (`/proc/cpuinfo` model name).
    pub host_cpu: String,
    /// Case name.
    pub case: String,
    /// Scheme.
    pub scheme: String,
    /// `gpu` or `cpp` sweep order.
    pub order: String,
    /// Backend (`reference`, `parallel`, `opencl:<device>`, `opencl-fused:<device>`).
    pub backend: String,
    /// OpenCL form (`phase`, `fused`).
    pub form: Option<String>,
    /// Threads of the parallel backend.
    pub threads: Option<usize>,
    /// Backend details (fused decomposition, …).
    pub details: Vec<(String, String)>,
    /// Grid.
    pub grid: GridInfo,
    /// OpenCL device.
    pub device: Option<DeviceJson>,
    /// Warm-up steps.
    pub warmup_steps: u64,
    /// Timed steps.
    pub steps: u64,
    /// Loop-2 iterations per step.
    pub iters_per_step: u32,
    /// Timed loop-2 iterations.
    pub iterations: u64,
    /// Wall seconds of the backend's set-up (geometry, kernel build, uploads).
    pub setup_seconds: Option<f64>,
    /// Wall seconds of the timed steps.
    pub seconds: f64,
    /// Wall milliseconds per loop-2 iteration.
    pub ms_per_iteration: f64,
    /// Fluid cell-iterations per second / 10⁶.
    pub mcell_its: f64,
    /// Memory.
    pub memory: Memory,
    /// The process's peak resident host memory at the end of the run (`VmHWM`: the triad's
    /// arrays too where they are host memory); `None` where unreadable.
    pub host_peak: Option<host::HostPeak>,
    /// Datasheet (or estimated) peaks of the device.
    pub peak: Option<datasheet::Peak>,
    /// Triad bandwidth measured in this run, GB/s.
    pub triad_gbs: Option<f64>,
    /// Profiled pass: wall milliseconds per iteration (events on).
    pub profiled_ms_per_iteration: Option<f64>,
    /// Profiled pass: summed device milliseconds per iteration.
    pub device_ms_per_iteration: Option<f64>,
    /// Per kernel.
    pub kernels: Vec<KernelRow>,
    /// Sum over counted kernels: bound time / device time, %.
    pub pct_of_bound_total: Option<f64>,
    /// Counts used: `src/bench/counts.json`, and whether they match this kernel source.
    pub counts_current: Option<bool>,
    /// CPU backends: the run's rate against the host triad.
    pub host_traffic: Option<host::HostTraffic>,
}

fn host_name() -> String {
    std::fs::read_to_string("/etc/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_default()
}

fn host_cpu() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_string())
        })
        .unwrap_or_default()
}

fn device_err(e: DeviceError) -> RunError {
    RunError::from(e)
}

/// Steps `n` steps; the iterations they took.
fn steps(solver: &mut dyn Solver, n: u64) -> Result<u64, RunError> {
    let mut iters = 0u64;
    for _ in 0..n {
        iters += u64::from(solver.step()?.iters);
    }
    Ok(iters)
}

/// Run the bench on `solver` (already built for `case`).
pub fn run(solver: &mut dyn Solver, case: &Common, spec: &Spec) -> Result<Report, RunError> {
    let layout = solver.layout();
    let grid = GridInfo {
        nx: layout.grid.nx,
        ny: layout.grid.ny,
        stored_cells: layout.grid.len() as u64,
        fluid_cells: layout.work_cells,
    };
    let fluid = grid.fluid_cells as f64;
    steps(solver, spec.warmup)?;
    // No sync (and no field download) before the clock starts: every step ends with a
    // blocking read (SIMPLE-TS: the residual maxima; the explicit methods: their clock).
    let start = std::time::Instant::now();
    let iters = steps(solver, spec.steps)?;
    // Each iteration ends with a blocking read of the residual maxima, so the device is idle
    // here and no final synchronisation (or field download) is timed.
    let secs = start.elapsed().as_secs_f64();
    let memory = memory(solver, spec, &grid);
    let mut report = Report {
        version: env!("CARGO_PKG_VERSION").to_string(),
        git: spec.git.clone(),
        date: crate::text::utc_now(),
        command: spec.command.clone(),
        host: host_name(),
        host_cpu: host_cpu(),
        case: case.name.clone(),
        scheme: spec.scheme.clone(),
        order: spec.order.clone(),
        backend: solver.name(),
        form: spec.form.map(str::to_string),
        threads: spec.threads,
        details: solver.details(),
        device: spec.device.as_ref().map(|d| DeviceJson {
            name: d.name.clone(),
            device_type: d.device_type.clone(),
            platform: d.platform_name.clone(),
            driver: d.driver_version.clone(),
            compute_units: d.compute_units,
            max_clock_mhz: d.max_clock_mhz,
            global_mem_bytes: d.global_mem_bytes,
        }),
        warmup_steps: spec.warmup,
        steps: spec.steps,
        iters_per_step: spec.iters_per_step,
        iterations: iters,
        setup_seconds: spec.setup_seconds,
        seconds: secs,
        ms_per_iteration: 1e3 * secs / iters.max(1) as f64,
        mcell_its: fluid * iters as f64 / secs.max(1e-300) / 1e6,
        memory,
        host_peak: None,
        peak: spec.device.as_ref().map(datasheet::peak_of),
        triad_gbs: spec.triad.map(|b| b / 1e9),
        profiled_ms_per_iteration: None,
        device_ms_per_iteration: None,
        kernels: Vec::new(),
        pct_of_bound_total: None,
        counts_current: None,
        host_traffic: None,
        grid,
    };
    if let (Some(b), Some(t)) = (spec.host_traffic_per_stored_cell, spec.triad) {
        let per_fluid = b * report.grid.stored_cells as f64 / fluid.max(1.0);
        report.host_traffic = Some(host::HostTraffic::new(per_fluid, report.mcell_its, t));
    }
    if let (true, Some(form)) = (spec.profile, spec.form) {
        if let Some(p) = solver.profiling() {
            p.set_profiling(true).map_err(device_err)?;
        }
        let start = std::time::Instant::now();
        let pit = steps(solver, spec.steps)?;
        let wall = start.elapsed().as_secs_f64();
        if let Some(p) = solver.profiling() {
            let profile = p.profile().map_err(device_err)?;
            p.set_profiling(false).map_err(device_err)?;
            let counts = spec.counts.as_ref().unwrap_or_else(|| counts::embedded());
            // None: this form was never counted (the lean storage) or is modelled; false:
            // counted from another source.
            report.counts_current = match (&spec.form_source, counts.forms.contains_key(form)) {
                (Some(src), true) if spec.counts.is_none() => Some(counts.is_current(form, src)),
                _ => None,
            };
            report.kernels = kernel_rows(
                &profile,
                pit,
                &report.grid,
                form,
                &spec.scheme,
                counts,
                report.peak.as_ref(),
                spec.triad,
            );
            let dev_s: f64 = profile.values().map(|c| c.seconds).sum();
            report.profiled_ms_per_iteration = Some(1e3 * wall / pit.max(1) as f64);
            report.device_ms_per_iteration = Some(1e3 * dev_s / pit.max(1) as f64);
            let counted: Vec<&KernelRow> = report
                .kernels
                .iter()
                .filter(|r| r.pct_of_bound.is_some())
                .collect();
            if !counted.is_empty() {
                let t: f64 = counted.iter().map(|r| r.seconds_per_iter).sum();
                let tb: f64 = counted
                    .iter()
                    .map(|r| r.seconds_per_iter * r.pct_of_bound.unwrap_or(0.0) / 100.0)
                    .sum();
                report.pct_of_bound_total = Some(100.0 * tb / t.max(1e-300));
            }
        }
    }
    // On a CPU OpenCL device the buffers are host memory: the peak also without them.
    let cpu_buffers = spec
        .device
        .as_ref()
        .filter(|d| d.device_type == "CPU" && report.memory.source == "device buffers")
        .map(|_| report.memory.bytes);
    report.host_peak = host::peak_resident_bytes().map(|b| {
        host::HostPeak::new(
            b,
            report.grid.stored_cells,
            report.grid.fluid_cells,
            cpu_buffers,
        )
    });
    Ok(report)
}

/// Memory of the backend: the device buffers of an OpenCL backend, else the method's host
/// estimate.
fn memory(solver: &mut dyn Solver, spec: &Spec, grid: &GridInfo) -> Memory {
    let (bytes, source) = match solver.profiling() {
        Some(p) => (p.device_bytes(), "device buffers"),
        None => (
            spec.host_bytes_per_cell * grid.stored_cells,
            "host estimate",
        ),
    };
    Memory {
        bytes,
        source,
        per_stored_cell: bytes as f64 / grid.stored_cells.max(1) as f64,
        per_fluid_cell: bytes as f64 / grid.fluid_cells.max(1) as f64,
    }
}
