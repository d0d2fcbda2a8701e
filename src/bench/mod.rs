//! `simplets bench`: timed loop-2 iterations of a case on a backend, and for the OpenCL
//! backends a per-kernel roofline (issue 4).
//!
//! 1. Warm-up steps, then `steps` timed steps (every step does exactly `iters` loop-2
//!    iterations): the throughput in fluid cell-iterations per second, wall clock, no
//!    profiling.
//! 2. OpenCL: the same number of steps again with profiling events on
//!    ([`crate::device::Runtime::set_profiling`]): device time per kernel.
//! 3. Per kernel: the counted FP64 operations and compulsory bytes ([`counts`]) times the
//!    work of this run give GB/s, GFLOP/s, % of the datasheet peaks ([`datasheet`]) and of
//!    the triad bandwidth measured in the same run, and % of the kernel's roofline bound
//!    `min(FP64 peak / flops per cell, triad bandwidth / bytes per cell)`.
//! 4. `--json FILE`: everything as JSON ([`Report`]); `--trace DIR`: a kernel-count trace of
//!    one more step ([`trace`]).

pub mod counts;
pub mod datasheet;
pub mod trace;

use std::path::PathBuf;

use serde::Serialize;

use crate::device::{DeviceInfo, Profile};
use crate::error::{DeviceError, RunError};
use crate::methods::simple_ts::case::Case;
use crate::solver::Solver;

/// Resize `case` to `nx` × `ny` computed cells at its own (uniform) spacing by tiling its
/// domain: the domain grows or shrinks from its lower-left corner, and the bodies are repeated
/// with the period of the original domain, keeping the copies that lie wholly inside with a
/// fluid cell to spare. The
/// confined-square case (4032 × 200, one square) at 4032 × 4000 becomes 20 stacked channels'
/// worth of squares in one channel of height 200 (docs/PERFORMANCE.md).
pub fn tile_case(case: &Case, nx: usize, ny: usize) -> Result<Case, String> {
    let g = &case.grid;
    if g.x_faces.is_some() || g.y_faces.is_some() {
        return Err("--nx/--ny need a uniform grid (no x_faces/y_faces)".into());
    }
    let (lx, ly) = (g.x[1] - g.x[0], g.y[1] - g.y[0]);
    let (hx, hy) = (lx / g.nx as f64, ly / g.ny as f64);
    let mut c = case.clone();
    c.grid.nx = nx;
    c.grid.ny = ny;
    c.grid.x = [g.x[0], g.x[0] + hx * nx as f64];
    c.grid.y = [g.y[0], g.y[0] + hy * ny as f64];
    let (tx, ty) = (nx.div_ceil(g.nx), ny.div_ceil(g.ny));
    let eps = 1e-9 * (hx.min(hy));
    c.bodies.clear();
    for jy in 0..ty {
        for ix in 0..tx {
            for b in &case.bodies {
                let mut b = b.clone();
                b.x = [b.x[0] + ix as f64 * lx, b.x[1] + ix as f64 * lx];
                b.y = [b.y[0] + jy as f64 * ly, b.y[1] + jy as f64 * ly];
                // Wholly inside, with a fluid cell between the body and the domain side.
                if b.x[1] + hx <= c.grid.x[1] + eps && b.y[1] + hy <= c.grid.y[1] + eps {
                    if tx * ty > 1 && !b.name.is_empty() {
                        b.name = format!("{}_{ix}_{jy}", b.name);
                    }
                    c.bodies.push(b);
                }
            }
        }
    }
    c.validate().map_err(|e| format!("resized case: {e}"))?;
    Ok(c)
}

/// What to run and how to label it.
#[derive(Debug, Clone, Default)]
pub struct Spec {
    /// Untimed steps first.
    pub warmup: u64,
    /// Timed steps.
    pub steps: u64,
    /// Also run the timed steps with profiling events (OpenCL backends).
    pub profile: bool,
    /// Write a kernel-count trace of one more step into this directory (OpenCL backends).
    pub trace: Option<PathBuf>,
    /// OpenCL form (`phase` or `fused`); `None` for the CPU backends.
    pub form: Option<&'static str>,
    /// The OpenCL device.
    pub device: Option<DeviceInfo>,
    /// Triad bandwidth measured on the device in this run, B/s.
    pub triad: Option<f64>,
    /// Threads of the parallel backend.
    pub threads: Option<usize>,
    /// The command line.
    pub command: String,
    /// `git describe` of the build.
    pub git: String,
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
    /// Wall seconds of the timed steps.
    pub seconds: f64,
    /// Wall milliseconds per loop-2 iteration.
    pub ms_per_iteration: f64,
    /// Fluid cell-iterations per second / 10⁶.
    pub mcell_its: f64,
    /// Memory.
    pub memory: Memory,
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

/// Steps `n` steps; the loop-2 iterations they took.
fn steps(solver: &mut dyn Solver, n: u64) -> Result<u64, RunError> {
    let mut iters = 0u64;
    for _ in 0..n {
        iters += u64::from(solver.step()?.iters);
    }
    Ok(iters)
}

/// Per-kernel rows from a profile of `iters` iterations.
#[allow(clippy::too_many_arguments)]
pub fn kernel_rows(
    profile: &Profile,
    iters: u64,
    grid: &GridInfo,
    form: &str,
    scheme: &str,
    counts: &counts::Counts,
    peak: Option<&datasheet::Peak>,
    triad: Option<f64>,
) -> Vec<KernelRow> {
    let it = iters.max(1) as f64;
    let fluid = grid.fluid_cells.max(1) as f64;
    let total_s: f64 = profile.values().map(|c| c.seconds).sum();
    let mut rows: Vec<KernelRow> = profile
        .iter()
        .map(|(name, c)| {
            let mut r = KernelRow {
                name: name.clone(),
                launches_per_iter: c.launches as f64 / it,
                seconds_per_iter: c.seconds / it,
                share_pct: 100.0 * c.seconds / total_s.max(1e-300),
                mcell_its: fluid / (c.seconds / it).max(1e-300) / 1e6,
                ..KernelRow::default()
            };
            // Compulsory (bytes, flops) of everything this kernel did in the profiled pass.
            let work = if name == crate::device::runtime::COPY {
                Some((16.0 * c.items as f64, 0.0))
            } else if name == crate::device::runtime::READ {
                None // host transfers: no device-memory roofline
            } else {
                counts.kernel(form, scheme, name).map(|k| {
                    let units = if k.unit == "item" {
                        c.items as f64
                    } else {
                        c.launches as f64 * grid.stored_cells as f64
                    };
                    (k.bytes() * units, k.flops * units)
                })
            };
            if let Some((bytes, flops)) = work {
                r.counted = true;
                r.bytes_per_cell = bytes / (fluid * it);
                r.flops_per_cell = flops / (fluid * it);
                r.intensity = flops / bytes.max(1e-300);
                r.gbs = bytes / c.seconds.max(1e-300) / 1e9;
                r.gflops = flops / c.seconds.max(1e-300) / 1e9;
                let bw_ds = peak.and_then(|p| p.bandwidth_gbs);
                let fp = peak.and_then(|p| p.fp64_gflops);
                r.pct_bw_datasheet = bw_ds.map(|b| 100.0 * r.gbs / b);
                r.pct_bw_triad = triad.map(|b| 100.0 * r.gbs * 1e9 / b);
                r.pct_fp64 = fp.map(|f| 100.0 * r.gflops / f);
                // Roofline: the least time the counted work can take on this device.
                let t_mem = triad.map(|b| bytes / b);
                let t_fp = fp.map(|f| flops / (f * 1e9));
                let (t_bound, by) = match (t_mem, t_fp) {
                    (Some(m), Some(f)) if f > m => (Some(f), Some("fp64")),
                    (Some(m), _) => (Some(m), Some("bandwidth")),
                    (None, Some(f)) => (Some(f), Some("fp64")),
                    (None, None) => (None, None),
                };
                if let Some(t) = t_bound.filter(|t| *t > 0.0) {
                    r.bound_mcell_its = Some(fluid * it / t / 1e6);
                    r.bound_by = by;
                    r.pct_of_bound = Some(100.0 * t / c.seconds.max(1e-300));
                }
            }
            r
        })
        .collect();
    rows.sort_by(|a, b| b.seconds_per_iter.total_cmp(&a.seconds_per_iter));
    rows
}

/// Run the bench on `solver` (already built for `case`).
pub fn run(solver: &mut dyn Solver, case: &Case, spec: &Spec) -> Result<Report, RunError> {
    let geo = solver.geometry();
    let grid = GridInfo {
        nx: case.grid.nx,
        ny: case.grid.ny,
        stored_cells: solver.grid().len() as u64,
        fluid_cells: geo.n_fluid as u64,
    };
    let fluid = grid.fluid_cells as f64;
    steps(solver, spec.warmup)?;
    let _ = solver.state();
    let start = std::time::Instant::now();
    let iters = steps(solver, spec.steps)?;
    // Each loop-2 iteration ends with a blocking read of the residual maxima, so the device
    // is idle here and no final synchronisation (or field download) is timed.
    let secs = start.elapsed().as_secs_f64();
    let scheme = case.scheme.to_string();
    let mut report = Report {
        version: env!("CARGO_PKG_VERSION").to_string(),
        git: spec.git.clone(),
        date: crate::run::status::utc_now(),
        command: spec.command.clone(),
        host: host_name(),
        host_cpu: host_cpu(),
        case: case.name.clone(),
        scheme: scheme.clone(),
        order: format!("{:?}", case.solver.order).to_lowercase(),
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
        iters_per_step: case.solver.max_iters,
        iterations: iters,
        seconds: secs,
        ms_per_iteration: 1e3 * secs / iters.max(1) as f64,
        mcell_its: fluid * iters as f64 / secs.max(1e-300) / 1e6,
        memory: memory(solver, case, &grid),
        peak: spec.device.as_ref().map(datasheet::peak_of),
        triad_gbs: spec.triad.map(|b| b / 1e9),
        profiled_ms_per_iteration: None,
        device_ms_per_iteration: None,
        kernels: Vec::new(),
        pct_of_bound_total: None,
        counts_current: None,
        grid,
    };
    if let (true, Some(form)) = (spec.profile, spec.form) {
        if let Some(rt) = solver.runtime_mut() {
            rt.set_profiling(true).map_err(device_err)?;
        }
        let start = std::time::Instant::now();
        let pit = steps(solver, spec.steps)?;
        let wall = start.elapsed().as_secs_f64();
        if let Some(rt) = solver.runtime_mut() {
            let profile = rt.profile().map_err(device_err)?;
            rt.set_profiling(false).map_err(device_err)?;
            let counts = counts::embedded();
            // None: this form was never counted (the lean storage); false: counted from
            // another source.
            report.counts_current = counts
                .forms
                .contains_key(form)
                .then(|| counts.is_current(form, &form_source(form)));
            report.kernels = kernel_rows(
                &profile,
                pit,
                &report.grid,
                form,
                &scheme,
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
    if let (Some(dir), Some(form)) = (&spec.trace, spec.form) {
        write_trace(solver, case, form, dir, &report.grid)?;
    }
    Ok(report)
}

/// The assembled kernel source of an OpenCL form.
pub fn form_source(form: &str) -> String {
    if form.starts_with("fused") {
        crate::methods::simple_ts::opencl::fused::source()
    } else {
        crate::methods::simple_ts::opencl::phase::source()
    }
}

fn write_trace(
    solver: &mut dyn Solver,
    case: &Case,
    form: &str,
    dir: &std::path::Path,
    grid: &GridInfo,
) -> Result<(), RunError> {
    std::fs::create_dir_all(dir).map_err(|e| {
        device_err(DeviceError::Api {
            device: solver.name(),
            call: "creating the trace directory",
            code: 0,
            name: format!("{}: {e}", dir.display()),
        })
    })?;
    {
        let rt = solver.runtime_mut().expect("OpenCL backend");
        rt.finish().map_err(device_err)?;
        trace::write_buffers(rt, dir, "buf").map_err(device_err)?;
        rt.set_recording(true);
    }
    solver.step()?;
    let rt = solver.runtime_mut().expect("OpenCL backend");
    let ops = rt.recorded();
    rt.set_recording(false);
    trace::write_buffers(rt, dir, "after").map_err(device_err)?;
    trace::write_trace(
        rt,
        dir,
        form,
        &case.scheme.to_string(),
        &case.name,
        (grid.stored_cells, grid.fluid_cells),
        &form_source(form),
        ops,
    )
    .map_err(device_err)?;
    Ok(())
}

/// Memory of the backend: the device buffers of an OpenCL backend, else the reference's
/// estimate (`simplets check`).
fn memory(solver: &dyn Solver, case: &Case, grid: &GridInfo) -> Memory {
    let (bytes, source) = match solver.runtime() {
        Some(rt) => (rt.bytes(), "device buffers"),
        None => {
            let per = crate::methods::simple_ts::numbers::REF_F64_ARRAYS * 8
                + crate::methods::simple_ts::numbers::GEOMETRY_BYTES;
            let _ = case;
            (per as u64 * grid.stored_cells, "host estimate")
        }
    };
    Memory {
        bytes,
        source,
        per_stored_cell: bytes as f64 / grid.stored_cells.max(1) as f64,
        per_fluid_cell: bytes as f64 / grid.fluid_cells.max(1) as f64,
    }
}

fn opt(v: Option<f64>, prec: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.prec$}"))
}

/// The human-readable report.
pub fn render(r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "bench {} {} {} fluid cells: {} steps, {} loop-2 iterations in {:.3} s: \
         {:.3} ms/iteration, {:.2} Mcell-it/s",
        r.backend,
        r.scheme,
        r.grid.fluid_cells,
        r.steps,
        r.iterations,
        r.seconds,
        r.ms_per_iteration,
        r.mcell_its
    );
    for (k, v) in &r.details {
        let _ = writeln!(s, "  {k}: {v}");
    }
    let m = &r.memory;
    let _ = writeln!(
        s,
        "memory ({}): {} = {:.1} B per stored cell, {:.1} B per fluid cell (CV)",
        m.source,
        crate::run::status::bytes(m.bytes as f64),
        m.per_stored_cell,
        m.per_fluid_cell
    );
    if let Some(p) = &r.peak {
        let _ = writeln!(
            s,
            "peak ({}): {}: FP64 {} GFLOP/s, bandwidth {} GB/s",
            p.source,
            p.board,
            opt(p.fp64_gflops, 0),
            opt(p.bandwidth_gbs, 0)
        );
    }
    if let Some(t) = r.triad_gbs {
        let ds = r
            .peak
            .as_ref()
            .and_then(|p| p.bandwidth_gbs)
            .map_or(String::new(), |b| {
                format!(" = {:.1} % of the datasheet", 100.0 * t / b)
            });
        let _ = writeln!(s, "triad bandwidth measured in this run: {t:.1} GB/s{ds}");
    }
    if r.kernels.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "per kernel: device time from profiling events ({} iterations; profiled wall {} ms/it, \
         device busy {} ms/it); bytes and flops counted per fluid cell-iteration \
         (src/bench/counts.json{}):",
        r.iterations,
        opt(r.profiled_ms_per_iteration, 3),
        opt(r.device_ms_per_iteration, 3),
        match r.counts_current {
            Some(false) => ", STALE: counted from another kernel source",
            _ => "",
        }
    );
    let _ = writeln!(
        s,
        "{:<16} {:>7} {:>9} {:>6} {:>10} {:>7} {:>8} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>10} {:>6} {:>9}",
        "kernel",
        "calls/it",
        "µs/it",
        "share%",
        "Mcell-it/s",
        "B/cell",
        "flop/cell",
        "flop/B",
        "GB/s",
        "GFLOP/s",
        "%bwDS",
        "%triad",
        "%fp64",
        "bound Mc/s",
        "%bound",
        "bound by"
    );
    for k in &r.kernels {
        let c = |v: f64, p: usize| {
            if k.counted {
                format!("{v:.p$}")
            } else {
                "-".into()
            }
        };
        let _ = writeln!(
            s,
            "{:<16} {:>7.2} {:>9.1} {:>6.1} {:>10.1} {:>7} {:>8} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>10} {:>6} {:>9}",
            k.name,
            k.launches_per_iter,
            1e6 * k.seconds_per_iter,
            k.share_pct,
            k.mcell_its,
            c(k.bytes_per_cell, 1),
            c(k.flops_per_cell, 1),
            c(k.intensity, 2),
            c(k.gbs, 1),
            c(k.gflops, 1),
            opt(k.pct_bw_datasheet, 1),
            opt(k.pct_bw_triad, 1),
            opt(k.pct_fp64, 2),
            opt(k.bound_mcell_its, 1),
            opt(k.pct_of_bound, 1),
            k.bound_by.unwrap_or("-")
        );
    }
    if let Some(t) = r.pct_of_bound_total {
        let _ = writeln!(
            s,
            "counted kernels together: {t:.1} % of their roofline bound (bound time / device time)"
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case() -> Case {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/confined_square.json"),
        )
        .unwrap();
        Case::from_json(&text, "confined_square").unwrap()
    }

    #[test]
    fn tiling_the_confined_square_gives_the_papers_large_grid() {
        let c = tile_case(&case(), 4032, 4000).unwrap();
        assert_eq!((c.grid.nx, c.grid.ny), (4032, 4000));
        assert_eq!(c.bodies.len(), 20);
        assert!((c.grid.y[1] - 200.0).abs() < 1e-9);
        assert!((c.bodies[19].y[0] - 194.5).abs() < 1e-9);
        // Smaller than the original along x: the square (x 10..11) needs 220 columns.
        let c = tile_case(&case(), 221, 200).unwrap();
        assert_eq!(c.bodies.len(), 1);
        let c = tile_case(&case(), 220, 200).unwrap();
        assert!(c.bodies.is_empty());
    }

    #[test]
    fn rows_turn_counts_into_rates_and_bounds() {
        use crate::device::CommandTime;
        let grid = GridInfo {
            nx: 8,
            ny: 8,
            stored_cells: 100,
            fluid_cells: 50,
        };
        let mut kernels = std::collections::BTreeMap::new();
        let k = |unit: &str, flops: f64, bytes: f64| counts::KernelCount {
            unit: unit.into(),
            launches: 1,
            flops,
            add: flops,
            sub: 0.0,
            mul: 0.0,
            div: 0.0,
            sqrt: 0.0,
            other: 0.0,
            bytes_read: bytes,
            bytes_written: 0.0,
            bytes_accessed: bytes,
            reads: Default::default(),
            writes: Default::default(),
        };
        kernels.insert("a".to_string(), k("item", 1.0, 40.0));
        kernels.insert("b".to_string(), k("cell", 1000.0, 8.0));
        let mut schemes = std::collections::BTreeMap::new();
        schemes.insert(
            "implicit-upwind".to_string(),
            counts::SchemeCounts {
                stored_cells: 100,
                fluid_cells: 50,
                kernels,
            },
        );
        let mut forms = std::collections::BTreeMap::new();
        forms.insert(
            "phase".to_string(),
            counts::FormCounts {
                source_hash: String::new(),
                schemes,
            },
        );
        let counts = counts::Counts {
            method: String::new(),
            case: String::new(),
            forms,
        };
        let mut p = Profile::new();
        // a: 2 iterations × 1 launch over 100 items, 1 µs each.
        p.insert(
            "a".into(),
            CommandTime {
                launches: 2,
                items: 200,
                grouped: false,
                seconds: 2e-6,
            },
        );
        p.insert(
            "b".into(),
            CommandTime {
                launches: 2,
                items: 2 * 64,
                grouped: true,
                seconds: 4e-6,
            },
        );
        let peak = datasheet::Peak {
            board: "x".into(),
            fp64_gflops: Some(1000.0),
            bandwidth_gbs: Some(10_000.0),
            source: "datasheet",
        };
        let rows = kernel_rows(
            &p,
            2,
            &grid,
            "phase",
            "implicit-upwind",
            &counts,
            Some(&peak),
            Some(5e12),
        );
        let a = rows.iter().find(|r| r.name == "a").unwrap();
        // 200 items × 40 B over 2 iterations of 50 fluid cells: 80 B per fluid cell-iteration.
        assert!((a.bytes_per_cell - 80.0).abs() < 1e-9);
        assert!((a.gbs - 200.0 * 40.0 / 2e-6 / 1e9).abs() < 1e-6);
        assert_eq!(a.bound_by, Some("bandwidth"));
        // Bound time 8000 B / 5e12 B/s = 1.6 ns of 2 µs.
        assert!((a.pct_of_bound.unwrap() - 100.0 * 1.6e-9 / 2e-6).abs() < 1e-9);
        let b = rows.iter().find(|r| r.name == "b").unwrap();
        // Per stored cell: 2 launches × 100 cells × 1000 flops / (2 × 50) = 2000 per fluid cell.
        assert!((b.flops_per_cell - 2000.0).abs() < 1e-9);
        assert_eq!(b.bound_by, Some("fp64"));
        assert_eq!(rows[0].name, "b");
    }
}
