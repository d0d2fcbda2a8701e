//! The steps of a run: one time step with what it reads back and writes
//! ([`Run::step`]), stopping after a failure ([`Run::fail`]), finishing ([`Run::finish`]) and
//! the manifest. See the parent module for the rules.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{check_divergence, RunOptions, RunSummary, STEADY_TOL};
use crate::case::Common;
use crate::error::RunError;
use crate::output::checkpoint::write_checkpoint;
use crate::output::manifest::{
    code_version, write_manifest, Manifest, Timings, GIT_DESCRIBE, RUSTC_VERSION,
};
use crate::output::series::NcSeries;
use crate::output::side::SideFiles;
use crate::run::guard::{fields_finite, non_finite, residuals_ok};
use crate::run::status::Reporter;
use crate::solver::{Layout, Level, Snapshot, Solver, SolverInfo, StepReport};

/// Step, time and loop-2 iterations of a state that passed the guard.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Clock {
    pub(super) step: u64,
    pub(super) time: f64,
    pub(super) iters: u32,
}

/// What a stopping run can append as its last good state.
pub(super) enum Keep {
    /// Nothing known to be good (a device error).
    Nothing,
    /// The solver's iterate, e.g. after the backend rolled a diverged step back.
    Iterate(Clock),
    /// Level n of the current state, if finite (the step failed the driver's guard).
    LevelN(Clock),
}

/// Why a step stopped the run, and what can be kept.
pub(super) type Stop = Box<(RunError, Keep)>;

/// A run in progress: its writers and what it has done.
pub(super) struct Run<'a> {
    pub(super) nc: NcSeries<'a>,
    pub(super) side: SideFiles,
    pub(super) m: Meta<'a>,
}

/// Everything of a run but its writers: case, counters, timings, manifest data.
pub(super) struct Meta<'a> {
    pub(super) case: &'a Common,
    pub(super) opts: &'a RunOptions,
    pub(super) layout: &'a Layout,
    pub(super) stem: String,
    pub(super) first_path: PathBuf,
    pub(super) backend: String,
    pub(super) info: SolverInfo,
    pub(super) t: Timings,
    pub(super) start: Instant,
    pub(super) started_unix_s: u64,
    pub(super) steps: u64,
    pub(super) iterations: u64,
    pub(super) checkpoint: Option<PathBuf>,
    /// The newest state that passed the guard.
    pub(super) good: Clock,
}

/// How one step ended.
pub(super) struct Stepped {
    pub(super) rep: StepReport,
    pub(super) time: f64,
    pub(super) steady: bool,
    pub(super) interrupted: bool,
}

impl Run<'_> {
    /// Take step `abs` (absolute number; `last`: the run's last step) and write what is due.
    pub(super) fn step(
        &mut self,
        solver: &mut dyn Solver,
        abs: u64,
        last: bool,
    ) -> Result<Stepped, Stop> {
        let m = &mut self.m;
        let (case, opts) = (m.case, m.opts);
        let prev = m.good;
        let t0 = Instant::now();
        let rep = solver.step().map_err(|e| {
            // The backends roll a diverged step back: their state is the last good one.
            let keep = match e {
                RunError::Diverged { .. } => Keep::Iterate(prev),
                _ => Keep::Nothing,
            };
            Box::new((e, keep))
        })?;
        m.t.step_s += t0.elapsed().as_secs_f64();
        m.iterations += u64::from(rep.iters);
        let (step, time) = solver.clock();
        let t1 = Instant::now();
        self.nc
            .append_step(step, time, &rep)
            .map_err(|e| Box::new((e.into(), Keep::LevelN(prev))))?;
        let limit = case.divergence_limit;
        let bad = !residuals_ok(&rep.res, limit);
        let steady = case.time.stop_at_steady_state
            && rep
                .steady
                .unwrap_or(rep.iters == 1 && rep.res.max() < STEADY_TOL);
        let interrupted = opts
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst));
        let end = last || steady || solver.finished();
        let interval = case.output.interval;
        let snap = end || interrupted || (interval > 0 && abs % interval == 0);
        let every = opts.checkpoint_every;
        let ckpt = interrupted || every.is_some_and(|n| end || (n > 0 && abs % n == 0));
        let due = self.side.due(abs);
        m.t.output_s += t1.elapsed().as_secs_f64();
        let current = Clock {
            step,
            time,
            iters: rep.iters,
        };
        if !(bad || snap || ckpt || due.iter().any(|&d| d)) {
            m.good = current;
            m.steps += 1;
            return Ok(Stepped {
                rep,
                time,
                steady,
                interrupted,
            });
        }
        // Read back only what this step needs, each once; a read-back error keeps the state
        // before it. The whole state first for a checkpoint: the rest then reads nothing more.
        let read_err = |e: RunError| Box::new((e, Keep::LevelN(prev)));
        let diverged = |e: RunError| Box::new((e, Keep::LevelN(prev)));
        let t2 = Instant::now();
        m.t.readbacks += 1;
        let saved = if ckpt {
            Some(solver.save().map_err(read_err)?)
        } else {
            None
        };
        let lines = solver.side_lines(&due).map_err(read_err)?;
        if bad {
            if let Some(e) = check_divergence(abs, &rep, solver, limit).map_err(read_err)? {
                return Err(diverged(e));
            }
        }
        let layout = m.layout;
        let snapshot = if snap || ckpt {
            let s = solver.snapshot(Level::Current).map_err(read_err)?;
            if let Some(e) = non_finite(abs, &rep, layout, &s) {
                return Err(diverged(e));
            }
            Some(s)
        } else {
            None
        };
        m.t.readback_s += t2.elapsed().as_secs_f64();
        m.good = current;
        m.steps += 1;
        let t3 = Instant::now();
        let keep = |e: RunError| Box::new((e, Keep::Iterate(current)));
        self.side.record(&lines).map_err(|e| keep(e.into()))?;
        if let (true, Some(s)) = (snap, &snapshot) {
            self.nc.append(s, rep.iters).map_err(|e| keep(e.into()))?;
        }
        drop(snapshot);
        if let Some(saved) = saved {
            let part = self.nc.last_part();
            let grid = &layout.grid;
            let p = write_checkpoint(&opts.out_dir, case, grid, &saved, &layout.saved, part)
                .map_err(|e| keep(e.into()))?;
            log::debug!("checkpoint {}", p.display());
            m.checkpoint = Some(p);
        }
        m.t.output_s += t3.elapsed().as_secs_f64();
        Ok(Stepped {
            rep,
            time,
            steady,
            interrupted,
        })
    }

    /// Stop after a failure: finish the CSV files, append the last good state if it is not in
    /// the file yet, finish the NetCDF output and the manifest, return `err`.
    pub(super) fn fail(
        self,
        solver: &mut dyn Solver,
        err: RunError,
        keep: Keep,
        ui: Option<&Reporter>,
    ) -> RunError {
        let Run {
            mut nc,
            side,
            mut m,
        } = self;
        if let Some(ui) = ui {
            ui.finish();
        }
        if let Err(e) = side.finish() {
            log::error!("could not keep the per-step CSV files: {e}");
        }
        m.info = solver.info();
        let written = nc.last_step();
        let layout = m.layout;
        let mut append = |level: Level, c: Clock, check: bool| -> Option<Result<(), RunError>> {
            m.t.readbacks += 1;
            let s = match solver.snapshot(level) {
                Ok(s) => s,
                Err(e) => return Some(Err(e)),
            };
            if check && !fields_finite(layout, &s) {
                log::warn!(
                    "the state before the failed step is not finite either: the output ends \
                     with its last snapshot"
                );
                return None;
            }
            let s = Snapshot {
                step: c.step,
                time: c.time,
                ..s
            };
            Some(nc.append(&s, c.iters).map_err(RunError::from))
        };
        let appended = match keep {
            Keep::Iterate(c) if Some(c.step) != written => append(Level::Current, c, false),
            Keep::LevelN(c) if Some(c.step) != written => append(Level::Previous, c, true),
            _ => None,
        };
        if let Some(Err(e)) = appended {
            log::error!("could not append the last good state: {e}");
        }
        let outputs = match nc.finish() {
            Ok(paths) => {
                if let Some(p) = paths.last() {
                    log::warn!(
                        "kept the snapshots up to the last good state in {}",
                        p.display()
                    );
                }
                paths
            }
            Err(e) => {
                log::error!("could not keep the output: {e}");
                vec![]
            }
        };
        m.manifest(err.to_string(), outputs);
        err
    }

    /// Finish the files and the manifest of a run that completed (or was interrupted).
    pub(super) fn finish(self, steady: bool, interrupted: bool) -> Result<RunSummary, RunError> {
        let Run { nc, side, mut m } = self;
        let wall_s = m.start.elapsed().as_secs_f64();
        let snapshots = nc.snapshots();
        let outputs = nc.finish()?;
        side.finish()?;
        let status = match (interrupted, steady) {
            (true, _) => "interrupted",
            (false, true) => "steady",
            (false, false) => "ok",
        };
        m.manifest(status.to_string(), outputs.clone());
        let cell_iters_per_s = m.rate(wall_s);
        log::info!(
            "{} steps, {} loop-2 iterations in {wall_s:.3} s ({:.3} Mcell-it/s); wrote \
             {snapshots} snapshots to {} file(s) from {}; {} read-backs ({:.3} s)",
            m.steps,
            m.iterations,
            cell_iters_per_s / 1e6,
            outputs.len(),
            m.first_path.display(),
            m.t.readbacks,
            m.t.readback_s,
        );
        if interrupted {
            if let Some(checkpoint) = m.checkpoint {
                return Err(RunError::Interrupted {
                    step: m.good.step,
                    checkpoint,
                });
            }
        }
        Ok(RunSummary {
            steps: m.steps,
            iterations: m.iterations,
            wall_s,
            cell_iters_per_s,
            snapshots,
            steady,
            output: outputs.first().cloned().unwrap_or(m.first_path),
            outputs,
            timings: m.t,
        })
    }
}

impl Meta<'_> {
    /// Write the manifest with `status` for the NetCDF files `outputs`.
    fn manifest(&mut self, status: String, outputs: Vec<PathBuf>) {
        let wall_s = self.start.elapsed().as_secs_f64();
        self.t.wall_s = wall_s;
        let m = Manifest {
            simplets_version: env!("CARGO_PKG_VERSION"),
            code_version: code_version(),
            git_describe: Some(GIT_DESCRIBE).filter(|s| !s.is_empty()),
            rustc: Some(RUSTC_VERSION).filter(|s| !s.is_empty()),
            status,
            backend: self.backend.clone(),
            solver: self.info.clone(),
            method: self.case.method.name(),
            scheme: self.case.scheme.clone(),
            started_unix_s: self.started_unix_s,
            wall_s,
            steps: self.steps,
            iterations: self.iterations,
            cell_iters_per_s: self.rate(wall_s),
            timings: self.t,
            output: self.first_path.clone(),
            outputs,
            restarted_from: self.opts.restart.clone(),
            checkpoint: self.checkpoint.clone(),
            case: &self.case.json,
        };
        if let Err(e) = write_manifest(&self.opts.out_dir, &self.stem, &m) {
            log::error!("could not write the run manifest: {e}");
        }
    }

    /// Work (fluid) cells × iterations per second over `wall_s`.
    fn rate(&self, wall_s: f64) -> f64 {
        self.layout.work_cells as f64 * self.iterations as f64 / wall_s.max(1e-9)
    }
}
