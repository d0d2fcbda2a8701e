//! The run driver: output file, time-step loop, output schedule, stop rules and the
//! divergence guard. It calls a [`Solver`] and the writers, never kernels.
//!
//! Snapshots are the initial state, every `output.interval` steps (0: none in between) and
//! always the final state. On divergence (a non-finite p, T, u or v in a computed cell, or a
//! residual that is non-finite or above `solver.divergence_limit`) or a solver error, the run
//! stops: the last good state is appended if it was not written yet, the file is finished
//! under its final name, and the error names the step, the field and the cell. To have the last
//! good state at hand, the driver copies the current iterate after every step that writes no
//! snapshot (one extra set of host fields).
//!
//! Checkpoints (`io::checkpoint`): with `checkpoint_every = N` a checkpoint
//! `<name>.ckpt-<step>` is written after every step that is a multiple of N and at the end of
//! the run; only the last two are kept. Checkpoints are written only after the divergence guard
//! passed, so a diverged run keeps its last good checkpoint. With `restart`, the checkpoint is
//! loaded (refused if written for another grid or case), handed to [`Solver::restore`], and
//! the run continues from its step up to the case's total (`time.steps` or `steps_override`,
//! counted from step 0) into a new segment `<name>.s<step>.nc` (manifest
//! `<name>.s<step>.manifest.json`) that starts with the restart state; earlier segments are
//! not touched. Snapshot and checkpoint schedules use absolute step numbers. When
//! `interrupt` becomes true the run stops after the current step, writes a checkpoint and the
//! snapshot of that step, finishes the file and the manifest (status `interrupted`) and returns
//! [`RunError::Interrupted`].

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::config::Case;
use crate::error::OutputError;
use crate::error::RunError;
use crate::fields::{Fields, State};
use crate::forces::Forces;
use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::io::checkpoint::{load_checkpoint, write_checkpoint};
use crate::io::csv::CsvWriter;
use crate::io::manifest::{write_manifest, Manifest};
use crate::io::{output_stem, segment_output_path, NcWriter};
use crate::probes::Probes;
use crate::report::{Progress, Reporter};
use crate::solver::{Solver, StepReport};

/// Steady state: one loop-2 iteration and every update norm below this (spec §4).
pub const STEADY_TOL: f64 = 1e-12;

/// Options of [`run_case`] that do not belong to the case file.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Directory of the output file `<name>.nc` (created if missing).
    pub out_dir: PathBuf,
    /// Overwrite an existing output file.
    pub force: bool,
    /// Run this many steps instead of the case's.
    pub steps_override: Option<u64>,
    /// Progress display.
    pub progress: Progress,
    /// Status-line period in wall time.
    pub status_every: Duration,
    /// Also print a status line every this many steps (0: by time only).
    pub status_every_steps: u64,
    /// Write a checkpoint after every step whose number is a multiple of this, and at the end
    /// of the run (`None`: only when interrupted).
    pub checkpoint_every: Option<u64>,
    /// Continue from this checkpoint (output `<name>.s<step>.nc`).
    pub restart: Option<PathBuf>,
    /// Stop after the current step when this becomes true (see [`interrupt_on_signals`]).
    pub interrupt: Option<Arc<AtomicBool>>,
}

/// A flag that SIGTERM and SIGINT set, for [`RunOptions::interrupt`]. A second signal, once
/// the flag is set, ends the process at once with status 1 (for a run that hangs).
pub fn interrupt_on_signals() -> std::io::Result<Arc<AtomicBool>> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [SIGTERM, SIGINT] {
        // Registration order matters: the shutdown check sees the flag before this signal
        // sets it, so only a second signal exits.
        signal_hook::flag::register_conditional_shutdown(sig, 1, Arc::clone(&flag))?;
        signal_hook::flag::register(sig, Arc::clone(&flag))?;
    }
    Ok(flag)
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            out_dir: PathBuf::from("out"),
            force: false,
            steps_override: None,
            progress: Progress::Auto,
            status_every: Duration::from_secs(2),
            status_every_steps: 0,
            checkpoint_every: None,
            restart: None,
            interrupt: None,
        }
    }
}

/// What a finished run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// Time steps taken.
    pub steps: u64,
    /// Loop-2 iterations over all steps.
    pub iterations: u64,
    /// Wall-clock seconds of the step loop.
    pub wall_s: f64,
    /// Fluid cells × loop-2 iterations per wall second.
    pub cell_iters_per_s: f64,
    /// Snapshots in the output file.
    pub snapshots: usize,
    /// True if the run stopped early at steady state.
    pub steady: bool,
    /// The output file.
    pub output: PathBuf,
}

/// The last state that passed the guard and is not in the file yet.
#[derive(Default)]
struct LastGood {
    state: Option<State>,
    iters: u32,
    unwritten: bool,
}

impl LastGood {
    /// Copy the iterate, step and time of `st` (reusing the buffers after the first step).
    fn keep(&mut self, st: &State, iters: u32) {
        match &mut self.state {
            Some(s) => {
                copy_fields(&mut s.k, &st.k);
                s.step = st.step;
                s.time = st.time;
            }
            None => self.state = Some(st.clone()),
        }
        self.iters = iters;
        self.unwritten = true;
    }
}

fn copy_fields(dst: &mut Fields, src: &Fields) {
    dst.u.clone_from(&src.u);
    dst.v.clone_from(&src.v);
    dst.p.clone_from(&src.p);
    dst.T.clone_from(&src.T);
    dst.rho.clone_from(&src.rho);
    dst.Gam.clone_from(&src.Gam);
}

/// Run `case` on `solver`, writing `<out_dir>/<name>.nc` (or `<name>.s<step>.nc` when
/// restarting from a checkpoint of `step`). Fails before the first step if the output exists
/// and `force` is false, or if the restart checkpoint is unusable. See the module docs for
/// what is kept on divergence and for checkpoints, restarts and interruption.
pub fn run_case(
    case: &Case,
    solver: &mut dyn Solver,
    opts: &RunOptions,
) -> Result<RunSummary, RunError> {
    let restart_step = match &opts.restart {
        Some(ckpt) => {
            let st = load_checkpoint(ckpt, case)?;
            let step = st.step;
            log::info!(
                "restarting from {} at step {step}, t = {:?}",
                ckpt.display(),
                st.time
            );
            solver.restore(st)?;
            Some(step)
        }
        None => None,
    };
    let stem = output_stem(&case.name, restart_step);
    let path = segment_output_path(&opts.out_dir, &case.name, restart_step);
    let grid = solver.grid().clone();
    let n_fluid = solver.geometry().n_fluid;
    let backend = solver.name();
    let mut writer = NcWriter::create(&path, opts.force, case, &grid, solver.geometry(), &backend)?;
    let geo = solver.geometry().clone();
    let mut side = SideFiles::create(case, &grid, &geo, opts, &stem)?;
    let total = opts.steps_override.unwrap_or_else(|| case.time.n_steps());
    let step0 = solver.state().step;
    let n_steps = total.saturating_sub(step0);
    if restart_step.is_some() && n_steps == 0 {
        log::warn!("the checkpoint is at step {step0}, the run has {total} steps: nothing to do");
    }
    log::info!(
        "case {}: {}x{} cells ({n_fluid} fluid), {n_steps} steps of dt = {:?}, scheme {}, \
         backend {backend}, output {}",
        case.name,
        grid.nx,
        grid.ny,
        case.time.dt,
        case.scheme,
        path.display()
    );
    writer.append(solver.state(), 0)?;
    let interval = case.output.interval;
    let mut ui = Reporter::new(
        opts.progress,
        n_steps,
        n_fluid,
        opts.status_every,
        opts.status_every_steps,
    );
    let mut last = LastGood::default();
    let (mut iterations, mut steps, mut steady, mut interrupted) = (0u64, 0u64, false, false);
    let mut checkpoint: Option<PathBuf> = None;
    let start = Instant::now();
    let started_unix_s = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let manifest = |status: String, steps: u64, iterations: u64, ckpt: &Option<PathBuf>| {
        let wall_s = start.elapsed().as_secs_f64();
        let m = Manifest {
            simplets_version: env!("CARGO_PKG_VERSION"),
            status,
            backend: backend.clone(),
            scheme: case.scheme.to_string(),
            started_unix_s,
            wall_s,
            steps,
            iterations,
            cell_iters_per_s: n_fluid as f64 * iterations as f64 / wall_s.max(1e-9),
            output: path.clone(),
            restarted_from: opts.restart.clone(),
            checkpoint: ckpt.clone(),
            case,
        };
        if let Err(e) = write_manifest(&opts.out_dir, &stem, &m) {
            log::error!("could not write the run manifest: {e}");
        }
    };
    for s in 1..=n_steps {
        let rep = match solver.step() {
            Ok(rep) => rep,
            Err(e) => {
                manifest(e.to_string(), steps, iterations, &checkpoint);
                return Err(abort(writer, side, &last, e, &ui));
            }
        };
        iterations += u64::from(rep.iters);
        let st = solver.state();
        writer.append_step(st.step, st.time, &rep)?;
        let limit = case.solver.divergence_limit;
        if let Some(e) = check_divergence(step0 + s, &rep, st, &grid, limit) {
            manifest(e.to_string(), steps, iterations, &checkpoint);
            return Err(abort(writer, side, &last, e, &ui));
        }
        steps = s;
        if let Err(e) = side.record(&grid, &geo, st) {
            let e = RunError::from(e);
            manifest(e.to_string(), steps, iterations, &checkpoint);
            return Err(abort(writer, side, &last, e, &ui));
        }
        let abs = step0 + s;
        steady = case.time.stop_at_steady_state && rep.iters == 1 && rep.res.max() < STEADY_TOL;
        interrupted = opts
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst));
        let end = s == n_steps || steady;
        if end || interrupted || (interval > 0 && abs % interval == 0) {
            writer.append(st, rep.iters)?;
            last.unwritten = false;
        } else {
            last.keep(st, rep.iters);
        }
        let due = opts
            .checkpoint_every
            .is_some_and(|n| end || (n > 0 && abs % n == 0));
        if due || interrupted {
            match write_checkpoint(&opts.out_dir, case, &grid, st) {
                Ok(p) => {
                    log::debug!("checkpoint {}", p.display());
                    checkpoint = Some(p);
                }
                Err(e) => {
                    let e = RunError::from(e);
                    manifest(e.to_string(), steps, iterations, &checkpoint);
                    return Err(abort(writer, side, &last, e, &ui));
                }
            }
        }
        ui.update(s, st.time, rep.iters, &rep.res, iterations);
        if steady {
            log::info!("steady state at step {}", st.step);
            break;
        }
        if interrupted {
            log::warn!("interrupted: stopping after step {abs}");
            break;
        }
    }
    ui.finish();
    let wall_s = start.elapsed().as_secs_f64();
    let snapshots = writer.snapshots();
    let output = writer.finish()?;
    side.finish()?;
    let status = match (interrupted, steady) {
        (true, _) => "interrupted",
        (false, true) => "steady",
        (false, false) => "ok",
    };
    manifest(status.to_string(), steps, iterations, &checkpoint);
    let cell_iters_per_s = n_fluid as f64 * iterations as f64 / wall_s.max(1e-9);
    log::info!(
        "{steps} steps, {iterations} loop-2 iterations in {wall_s:.3} s ({:.3} Mcell-it/s); \
         wrote {} ({snapshots} snapshots)",
        cell_iters_per_s / 1e6,
        output.display()
    );
    if interrupted {
        if let Some(checkpoint) = checkpoint {
            return Err(RunError::Interrupted {
                step: step0 + steps,
                checkpoint,
            });
        }
    }
    Ok(RunSummary {
        steps,
        iterations,
        wall_s,
        cell_iters_per_s,
        snapshots,
        steady,
        output,
    })
}

/// Stop after a failed step: append the last good state if needed, finish the file, return `err`.
fn abort(
    mut writer: NcWriter,
    side: SideFiles,
    last: &LastGood,
    err: RunError,
    ui: &Reporter,
) -> RunError {
    ui.finish();
    if let Err(e) = side.finish() {
        log::error!("could not keep the per-step CSV files: {e}");
    }
    if let (true, Some(st)) = (last.unwritten, &last.state) {
        if let Err(e) = writer.append(st, last.iters) {
            log::error!("could not append the last good state: {e}");
        }
    }
    match writer.finish() {
        Ok(p) => log::warn!(
            "kept the snapshots up to the last good state in {}",
            p.display()
        ),
        Err(e) => log::error!("could not keep the output: {e}"),
    }
    err
}

/// Per-step CSV files next to the NetCDF output: `<stem>.forces.csv` (cases with bodies) and
/// `<stem>.probes.csv` (cases with `output.probes`). One line per body or probe per step that
/// passed the divergence guard; floats in Rust's round-trip `{:e}` form.
struct SideFiles {
    forces: Option<(Forces, CsvWriter)>,
    probes: Option<(Probes, CsvWriter)>,
}

/// Header of `<stem>.forces.csv`; `scale` is the coefficient denominator ½ ρ_in u_in² L_b
/// (1 without an inflow side: Cd and Cl are then the raw total forces).
pub const FORCES_HEADER: &str = "step,time,body,Fx_p,Fx_v,Fy_p,Fy_v,Cd,Cl,scale";
/// Header of `<stem>.probes.csv`.
pub const PROBES_HEADER: &str = "step,time,probe,x,y,p,T,rho,u,v";

impl SideFiles {
    fn create(
        case: &Case,
        grid: &Grid,
        geo: &Geometry,
        opts: &RunOptions,
        stem: &str,
    ) -> Result<SideFiles, OutputError> {
        let path = |kind: &str| opts.out_dir.join(format!("{stem}.{kind}.csv"));
        let forces = if case.bodies.is_empty() {
            None
        } else {
            let f = Forces::new(case, grid, geo);
            if !f.normalised {
                log::warn!("no inflow side: Cd and Cl in the forces file are raw forces");
            }
            let w = CsvWriter::create(&path("forces"), opts.force, FORCES_HEADER)?;
            Some((f, w))
        };
        let probes = if case.output.probes.is_empty() {
            None
        } else {
            let p = Probes::new(&case.output.probes, grid);
            let w = CsvWriter::create(&path("probes"), opts.force, PROBES_HEADER)?;
            Some((p, w))
        };
        Ok(SideFiles { forces, probes })
    }

    fn record(&mut self, grid: &Grid, geo: &Geometry, st: &State) -> Result<(), OutputError> {
        let (step, t) = (st.step, st.time);
        if let Some((f, w)) = &mut self.forces {
            for (k, r) in f.compute(grid, geo, &st.k).iter().enumerate() {
                let q = f.scale[k];
                w.line(&format!(
                    "{step},{t:e},{},{:e},{:e},{:e},{:e},{:e},{:e},{q:e}",
                    f.names[k],
                    r.fx_p,
                    r.fx_v,
                    r.fy_p,
                    r.fy_v,
                    r.fx() / q,
                    r.fy() / q
                ))?;
            }
        }
        if let Some((p, w)) = &mut self.probes {
            for (pr, v) in p.probes.iter().zip(p.sample(grid, &st.k)) {
                w.line(&format!(
                    "{step},{t:e},{},{:e},{:e},{:e},{:e},{:e},{:e},{:e}",
                    pr.name, pr.x, pr.y, v.p, v.t, v.rho, v.u, v.v
                ))?;
            }
        }
        Ok(())
    }

    fn finish(self) -> Result<(), OutputError> {
        let writers = [self.forces.map(|x| x.1), self.probes.map(|x| x.1)];
        for w in writers.into_iter().flatten() {
            let p = w.finish()?;
            log::info!("wrote {}", p.display());
        }
        Ok(())
    }
}

/// The first non-finite value among `(i, j)` in `1..=ni × 1..=nj` of `f`, as computed-cell
/// coordinates (ghost offset removed).
fn first_non_finite(grid: &Grid, f: &[f64], ni: usize, nj: usize) -> Option<(i64, i64, f64)> {
    for j in 1..=nj {
        for i in 1..=ni {
            let x = f[grid.idx(i, j)];
            if !x.is_finite() {
                return Some((i as i64 - 1, j as i64 - 1, x));
            }
        }
    }
    None
}

/// Where `|a - b|` is largest in `1..=ni × 1..=nj` (computed-cell coordinates); where `|a|` is
/// largest if `a` and `b` agree everywhere (a solver that already copied level n).
fn largest_change(grid: &Grid, a: &[f64], b: &[f64], ni: usize, nj: usize) -> (i64, i64) {
    let argmax = |d: &dyn Fn(usize) -> f64| {
        let mut best = (0, 0, -1.0);
        for j in 1..=nj {
            for i in 1..=ni {
                let x = d(grid.idx(i, j));
                let x = if x.is_nan() { f64::INFINITY } else { x };
                if x > best.2 {
                    best = (i as i64 - 1, j as i64 - 1, x);
                }
            }
        }
        best
    };
    let (i, j, d) = argmax(&|ij| (a[ij] - b[ij]).abs());
    if d > 0.0 {
        (i, j)
    } else {
        let (i, j, _) = argmax(&|ij| a[ij].abs());
        (i, j)
    }
}

/// The divergence guard after step `step`: a non-finite p, T, u or v of the current iterate
/// names its cell; a residual above `limit` (or non-finite) is named `du`, `dv`, `dp` or `dT`
/// with the cell where that field changed most during the step.
pub fn check_divergence(
    step: u64,
    rep: &StepReport,
    state: &State,
    grid: &Grid,
    limit: f64,
) -> Option<RunError> {
    let (nx, ny) = (grid.nx, grid.ny);
    let (k, n) = (&state.k, &state.n);
    // (field, residual name, level k, level n, residual, columns, rows)
    type Guarded<'a> = (
        &'static str,
        &'static str,
        &'a [f64],
        &'a [f64],
        f64,
        usize,
        usize,
    );
    let fields: [Guarded; 4] = [
        ("p", "dp", &k.p, &n.p, rep.res.dp, nx, ny),
        ("T", "dT", &k.T, &n.T, rep.res.dt, nx, ny),
        ("u", "du", &k.u, &n.u, rep.res.du, nx + 1, ny),
        ("v", "dv", &k.v, &n.v, rep.res.dv, nx, ny + 1),
    ];
    let diverged = |field, i, j, value| RunError::Diverged {
        step,
        iter: rep.iters,
        field,
        i,
        j,
        value,
    };
    for &(name, _, f, _, _, ni, nj) in &fields {
        if let Some((i, j, x)) = first_non_finite(grid, f, ni, nj) {
            return Some(diverged(name, i, j, x));
        }
    }
    for &(_, res_name, f, f_n, r, ni, nj) in &fields {
        if !r.is_finite() || r > limit {
            let (i, j) = largest_change(grid, f, f_n, ni, nj);
            return Some(diverged(res_name, i, j, r));
        }
    }
    None
}

#[cfg(all(test, feature = "netcdf"))]
#[path = "run_tests.rs"]
mod tests;
