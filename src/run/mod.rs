//! The run driver: output files, time-step loop, output schedule, stop rules and the
//! divergence guard. It calls a [`Solver`] and the writers, never kernels.
//!
//! Snapshots are the initial state, every `output.interval` steps (0: none in between) and
//! always the final state; forces and probes follow `output.forces_every` and
//! `output.probes_every` (default: every step). The series entry of each step (iterations,
//! residuals) is written right after it, before the guard.
//!
//! **Reading back.** Fields are read from the solver only when a step needs them: the output
//! variables for a snapshot ([`Solver::snapshot`]), the rows the side series need for their
//! lines ([`Solver::side_lines`]: SIMPLE-TS reads the rows of the bodies and probes), the
//! whole state for a checkpoint ([`Solver::save`]) and the state before the step for a failed
//! guard. Step numbers and times come from [`Solver::clock`]. On the OpenCL backends a step
//! with no output therefore transfers only the residual maxima.
//!
//! **Divergence.** The backends check every loop-2 iteration (NaN/Inf or a residual above
//! `solver.divergence_limit`), roll back to the state before the step and return
//! [`RunError::Diverged`]; the driver checks the reported residuals after every step, and the
//! fields (a non-finite guarded variable in a computed cell) whenever it has read them back. On
//! divergence or another error the run stops: the last good state is appended if it was not
//! written yet and can be had (the rolled-back state, or level n of the step that failed the
//! driver's guard when it is finite), the files are finished under their final names, and the
//! error names the step, the field and the cell.
//!
//! **Checkpoints** (`io::checkpoint`): with `checkpoint_every = N` a checkpoint
//! `<name>.ckpt-<step>` is written after every step that is a multiple of N and at the end of
//! the run; only the last two are kept. Checkpoints are written only after the divergence guard
//! passed, so a diverged run keeps its last good checkpoint. With `restart`, the checkpoint is
//! loaded (refused if written for another grid or case), handed to [`Solver::restore`], and
//! the run continues from its step up to the case's total (`time.steps` or `steps_override`,
//! counted from step 0) into a new segment `<name>.s<step>.nc` (manifest
//! `<name>.s<step>.manifest.json`) that starts with the restart state, or, with split output,
//! into the next part ([`crate::output::series`]); earlier files are not touched. Snapshot,
//! checkpoint, forces and probes schedules use absolute step numbers. When `interrupt` becomes
//! true the run stops after the current step, writes a checkpoint and the snapshot of that
//! step, finishes the files and the manifest (status `interrupted`) and returns
//! [`RunError::Interrupted`].

pub mod guard;
pub mod status;

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::case::Common;
use crate::error::RunError;
use crate::output::checkpoint::{load_checkpoint, read_header};
use crate::output::manifest::Timings;
use crate::output::output_stem;
use crate::output::series::{NcLayout, NcSeries};
use crate::output::side::SideFiles;
pub use crate::run::guard::check_divergence;
use crate::run::status::{Progress, Reporter};
use crate::solver::{Level, Solver};

/// Steady state: one iteration and every update norm below this (SIMPLE-TS: spec §4).
pub const STEADY_TOL: f64 = 1e-12;

/// Options of [`run_case`] that do not belong to the case file.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Directory of the output file `<name>.nc` (created if missing).
    pub out_dir: PathBuf,
    /// Overwrite existing output files.
    pub force: bool,
    /// Run this many steps instead of the case's.
    pub steps_override: Option<u64>,
    /// Snapshots per NetCDF file instead of the case's `output.snapshots_per_file`
    /// (0: one file).
    pub snapshots_per_file: Option<u64>,
    /// Progress display.
    pub progress: Progress,
    /// Status-line period in wall time.
    pub status_every: Duration,
    /// Also print a status line every this many steps (0: by time only).
    pub status_every_steps: u64,
    /// Write a checkpoint after every step whose number is a multiple of this, and at the end
    /// of the run (`None`: only when interrupted).
    pub checkpoint_every: Option<u64>,
    /// Continue from this checkpoint (output `<name>.s<step>.nc`, or the next part).
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
            snapshots_per_file: None,
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
    /// Work (fluid) cells × iterations per wall second.
    pub cell_iters_per_s: f64,
    /// Snapshots written (all files).
    pub snapshots: usize,
    /// True if the run stopped early at steady state.
    pub steady: bool,
    /// The (first) NetCDF output file.
    pub output: PathBuf,
    /// Every NetCDF file written, in order (one unless the output is split).
    pub outputs: Vec<PathBuf>,
    /// Where the time went, and how often fields were read back.
    pub timings: Timings,
}

/// Run `case` on `solver`, writing `<out_dir>/<name>.nc` (or `<name>.s<step>.nc` when
/// restarting from a checkpoint of `step`, or numbered parts with split output). Fails before
/// the first step if an output exists and `force` is false, or if the restart checkpoint is
/// unusable. See the module docs for what is read back, what is kept on divergence, and for
/// checkpoints, restarts and interruption.
pub fn run_case(
    case: &Common,
    solver: &mut dyn Solver,
    opts: &RunOptions,
) -> Result<RunSummary, RunError> {
    let layout = solver.layout().clone();
    let restart = match &opts.restart {
        Some(ckpt) => {
            let part = read_header(ckpt)?.nc_part;
            let saved = load_checkpoint(ckpt, case, &layout.grid, &layout.saved)?;
            let step = saved.step;
            log::info!(
                "restarting from {} at step {step}, t = {:?}",
                ckpt.display(),
                saved.time
            );
            solver.restore(saved)?;
            Some((step, part))
        }
        None => None,
    };
    let stem = output_stem(&case.name, restart.map(|r| r.0));
    let per_file = opts
        .snapshots_per_file
        .unwrap_or(case.output.snapshots_per_file);
    let files = NcLayout::new(&opts.out_dir, &case.name, restart, per_file);
    let first_path = files.first_path();
    let backend = solver.name();
    let nc = NcSeries::create(files, opts.force, case, &layout, &backend)?;
    let side = SideFiles::create(&layout.side, &opts.out_dir, opts.force, &stem)?;
    let total = opts.steps_override.unwrap_or_else(|| case.time.n_steps());
    let (step0, time0) = solver.clock();
    let n_steps = total.saturating_sub(step0);
    if restart.is_some() && n_steps == 0 {
        log::warn!("the checkpoint is at step {step0}, the run has {total} steps: nothing to do");
    }
    let grid = &layout.grid;
    // A method whose Δt follows the state (a CFL number) has no dt here and may end sooner.
    let dt = if case.time.dt.is_finite() {
        format!("{n_steps} steps of dt = {:?}", case.time.dt)
    } else {
        format!("at most {n_steps} steps, dt from the CFL number")
    };
    log::info!(
        "case {} ({}): {}x{} cells ({} computed), {dt}, scheme {}, backend {backend}, \
         output {}{}",
        case.name,
        case.method,
        grid.nx,
        grid.ny,
        layout.work_cells,
        case.scheme,
        first_path.display(),
        if per_file > 0 { " (split)" } else { "" }
    );
    let m = Meta {
        case,
        opts,
        layout: &layout,
        stem,
        first_path,
        info: solver.info(),
        backend,
        t: Timings::default(),
        start: Instant::now(),
        started_unix_s: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
        steps: 0,
        iterations: 0,
        checkpoint: None,
        good: Clock {
            step: step0,
            time: time0,
            iters: 0,
        },
    };
    let mut run = Run { nc, side, m };
    let initial = Instant::now();
    run.m.t.readbacks += 1;
    let first = solver
        .snapshot(Level::Current)
        .and_then(|s| run.nc.append(&s, 0).map_err(RunError::from));
    if let Err(e) = first {
        return Err(run.fail(solver, e, Keep::Nothing, None));
    }
    run.m.t.output_s += initial.elapsed().as_secs_f64();
    let names: Vec<&str> = layout.residuals.iter().map(|r| r.name).collect();
    let mut ui = Reporter::new(
        opts.progress,
        n_steps,
        layout.work_cells,
        &names,
        opts.status_every,
        opts.status_every_steps,
    );
    let (mut steady, mut interrupted) = (false, false);
    for s in 1..=n_steps {
        let done = match run.step(solver, step0 + s, s == n_steps) {
            Ok(done) => done,
            Err(stop) => return Err(run.fail(solver, stop.0, stop.1, Some(&ui))),
        };
        (steady, interrupted) = (done.steady, done.interrupted);
        ui.update(
            s,
            done.time,
            done.rep.iters,
            &done.rep.res,
            run.m.iterations,
        );
        if steady {
            log::info!("steady state at step {}", step0 + s);
            break;
        }
        if interrupted {
            log::warn!("interrupted: stopping after step {}", step0 + s);
            break;
        }
        if solver.finished() {
            log::info!("end time reached at step {}", step0 + s);
            break;
        }
    }
    ui.finish();
    // The backend's record as it stands at the end (a decomposed run adds its halo traffic).
    run.m.info = solver.info();
    run.finish(steady, interrupted)
}

mod steps;
use steps::{Clock, Keep, Meta, Run};
