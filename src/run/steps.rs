//! The steps of a run: one time step with what it reads back and writes
//! ([`Run::step`]), stopping after a failure ([`Run::fail`]), finishing ([`Run::finish`]) and
//! the manifest. See the parent module for the rules.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::{check_divergence, RunOptions, RunSummary, STEADY_TOL};
use crate::error::{OutputError, RunError};
use crate::grid::Grid;
use crate::methods::simple_ts::case::Case;
use crate::methods::simple_ts::fields::State;
use crate::methods::simple_ts::geometry::Geometry;
use crate::output::checkpoint::write_checkpoint;
use crate::output::manifest::{
    code_version, write_manifest, Manifest, Timings, GIT_DESCRIBE, RUSTC_VERSION,
};
use crate::output::series::NcSeries;
use crate::output::side::SideFiles;
use crate::run::guard::{fields_finite, residuals_ok};
use crate::run::status::Reporter;
use crate::solver::{Solver, SolverInfo, StepReport};

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
    pub(super) case: &'a Case,
    pub(super) opts: &'a RunOptions,
    pub(super) grid: &'a Grid,
    pub(super) geo: &'a Geometry,
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
        let (case, opts, grid) = (m.case, m.opts, m.grid);
        let prev = m.good;
        let t0 = Instant::now();
        let rep = solver.step().map_err(|e| {
            // The backends roll a diverged step back: their iterate is the last good state.
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
        let limit = case.solver.divergence_limit;
        let bad = !residuals_ok(&rep.res, limit);
        let steady = case.time.stop_at_steady_state && rep.iters == 1 && rep.res.max() < STEADY_TOL;
        let interrupted = opts
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst));
        let end = last || steady;
        let interval = case.output.interval;
        let snap = end || interrupted || (interval > 0 && abs % interval == 0);
        let every = opts.checkpoint_every;
        let ckpt = interrupted || every.is_some_and(|n| end || (n > 0 && abs % n == 0));
        let due = self.side.due(abs);
        m.t.output_s += t1.elapsed().as_secs_f64();
        // Read back only what this step needs (a bad residual always reads the whole state).
        let t2 = Instant::now();
        let st: Option<&State> = if bad || ckpt {
            Some(solver.state())
        } else if snap {
            Some(solver.iterate_rows(std::slice::from_ref(&(0..grid.nyt))))
        } else if due.0 || due.1 {
            Some(solver.iterate_rows(&self.side.rows(due)))
        } else {
            None
        };
        m.t.readback_s += t2.elapsed().as_secs_f64();
        let current = Clock {
            step,
            time,
            iters: rep.iters,
        };
        let Some(st) = st else {
            m.good = current;
            m.steps += 1;
            return Ok(Stepped {
                rep,
                time,
                steady,
                interrupted,
            });
        };
        m.t.readbacks += 1;
        if bad || snap || ckpt {
            // Level n is read only for a bad residual, when the whole state was read.
            if let Some(e) = check_divergence(abs, &rep, st, grid, limit) {
                return Err(Box::new((e, Keep::LevelN(prev))));
            }
        }
        m.good = current;
        m.steps += 1;
        let t3 = Instant::now();
        let keep = |e: OutputError| Box::new((RunError::from(e), Keep::Iterate(current)));
        self.side.record(grid, m.geo, st, due).map_err(keep)?;
        if snap {
            self.nc.append(st, rep.iters).map_err(keep)?;
        }
        if ckpt {
            let part = self.nc.last_part();
            let p = write_checkpoint(&opts.out_dir, case, grid, st, part).map_err(keep)?;
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
        let written = nc.last_step();
        let appended = match keep {
            Keep::Iterate(c) if Some(c.step) != written => {
                m.t.readbacks += 1;
                let st = solver.state();
                Some(nc.append_fields(&st.k, c.step, c.time, c.iters))
            }
            Keep::LevelN(c) if Some(c.step) != written => {
                m.t.readbacks += 1;
                let st = solver.state();
                if fields_finite(m.grid, &st.n) {
                    Some(nc.append_fields(&st.n, c.step, c.time, c.iters))
                } else {
                    log::warn!(
                        "the state before the failed step is not finite either: the output \
                         ends with its last snapshot"
                    );
                    None
                }
            }
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
            scheme: self.case.scheme.to_string(),
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
            case: self.case,
        };
        if let Err(e) = write_manifest(&self.opts.out_dir, &self.stem, &m) {
            log::error!("could not write the run manifest: {e}");
        }
    }

    /// Fluid cells × loop-2 iterations per second over `wall_s`.
    fn rate(&self, wall_s: f64) -> f64 {
        self.geo.n_fluid as f64 * self.iterations as f64 / wall_s.max(1e-9)
    }
}
