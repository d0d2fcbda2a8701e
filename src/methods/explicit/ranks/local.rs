//! The engine of one rank of a decomposed run ([`Engine`] on the rank's window): the
//! reference (serial or row-parallel) or the OpenCL kernels, each exchanging its halos and
//! merging its maxima through the rank's [`Halo`]. What [`super::ExplicitRanks`] asks of it.

use std::sync::Arc;

use super::super::opencl::{self, OpenCl};
use super::super::reference::{exchange, fill_ghosts, Reference};
use super::super::solver::Engine;
use super::super::Problem;
use crate::decomp::Halo;
use crate::error::{DeviceError, RunError};
use crate::methods::{BackendChoice, BackendKind};
use crate::solver::SolverInfo;

/// The engine of `sub` (this rank's window) on `choice`, exchanging through `halo`
/// (collective: every rank calls it). OpenCL: the device `choice.device` names, else the
/// node-local rank's GPU, else the default device (`device::select_for_rank`).
pub(super) fn engine(
    sub: Arc<Problem>,
    halo: &Arc<Halo>,
    choice: &BackendChoice,
) -> Result<Engine, DeviceError> {
    Ok(match choice.kind {
        BackendKind::Reference | BackendKind::Parallel => {
            let parallel = choice.kind == BackendKind::Parallel;
            Engine::Reference(Box::new(Reference::on_rank(
                sub,
                parallel,
                Some(Arc::clone(halo)),
            )))
        }
        BackendKind::OpenCl => {
            /// Ranks that are threads of one process build one at a time: PoCL's compiler is
            /// not safe to run from several threads at once.
            static BUILD: std::sync::Mutex<()> = std::sync::Mutex::new(());
            // The device list is looked up once per process (`device::list_devices`).
            let devices = crate::device::list_devices()?;
            let dev = crate::device::select_for_rank(
                &devices,
                choice.device.as_deref(),
                halo.comm.node_rank(),
            )?;
            opencl::check(&sub, &dev, choice.stage)?;
            let mut cl = {
                let _one = BUILD
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                OpenCl::on(sub, &dev, choice)?
            };
            cl.set_halo(Arc::clone(halo))?;
            Engine::OpenCl(Box::new(cl))
        }
    })
}

impl Engine {
    /// The backend's name.
    pub fn backend_name(&self) -> String {
        match self {
            Engine::Reference(r) if r.parallel => {
                format!("parallel:{}", rayon::current_num_threads())
            }
            Engine::Reference(_) => "reference".into(),
            Engine::OpenCl(o) => format!("opencl:{}", o.device().name),
        }
    }

    /// The window's problem.
    pub(super) fn window(&self) -> &Problem {
        match self {
            Engine::Reference(r) => &r.p,
            Engine::OpenCl(o) => o.problem(),
        }
    }

    /// On OpenCL: overlap each stage's halo exchange with its interior (`true`;
    /// `SIMPLETS_HALO_OVERLAP=1`) or exchange after the whole stage (the default); the same
    /// bits.
    /// The reference has nothing to overlap.
    pub fn set_overlap(&mut self, on: bool) {
        if let Engine::OpenCl(o) = self {
            o.set_overlap(on);
        }
    }

    /// The halo exchange of an OpenCL rank, for the manifest (`None` on the CPU backends).
    pub fn exchange(&self) -> Option<String> {
        match self {
            Engine::OpenCl(o) if o.overlap() => Some("overlapped with the interior".into()),
            Engine::OpenCl(_) => Some("blocking".into()),
            Engine::Reference(_) => None,
        }
    }

    /// One step (every rank's merged outcome: all succeed or all fail alike).
    pub fn step_rank(&mut self) -> Result<(), RunError> {
        match self {
            Engine::Reference(r) => r.step(),
            Engine::OpenCl(o) => o.step(),
        }
    }

    /// Completed steps, time, Δt of the next step, residual of the last step.
    pub(super) fn rank_clock(&self) -> (u64, f64, f64, f64) {
        match self {
            Engine::Reference(r) => (r.step, r.time, r.dt, r.dq),
            Engine::OpenCl(o) => o.clock(),
        }
    }

    /// The window's state (stored layout) of the current level, or of the one before the
    /// last step.
    pub(super) fn level(&self, previous: bool) -> Result<Vec<f64>, RunError> {
        Ok(match self {
            Engine::Reference(r) => r.q[if previous { 1 - r.cur } else { r.cur }].clone(),
            Engine::OpenCl(o) => o.state(previous)?,
        })
    }

    /// Take the window's state `q` (owned cells set; ghosts and halo filled here), step and
    /// time (collective).
    pub(super) fn restore_rank(
        &mut self,
        mut q: Vec<f64>,
        step: u64,
        time: f64,
        halo: &Halo,
    ) -> Result<(), RunError> {
        match self {
            Engine::Reference(r) => {
                fill_ghosts(&r.p, &mut q);
                exchange(&r.p, Some(halo), &mut q);
                r.q = [q.clone(), q];
                r.cur = 0;
                r.step = step;
                r.time = time;
                r.rebuild();
            }
            Engine::OpenCl(o) => o.restore(q, step, time)?,
        }
        Ok(())
    }

    /// The backend's part of the run record (the program and device on OpenCL).
    pub(super) fn rank_info(&self) -> SolverInfo {
        match self {
            Engine::OpenCl(o) => SolverInfo::opencl(o.runtime().program(), "explicit-stage", None),
            Engine::Reference(_) => SolverInfo::default(),
        }
    }
}
