//! The phase form behind the loop-2 driver (`loop2::DeviceLoop`) and the SIMPLE-TS
//! backend seam (`Backend`).

use super::strips::FLUXES;
use super::{OpenCl, K, N};
use crate::error::{DeviceError, RunError};
use crate::methods::simple_ts::backend::Backend;
use crate::methods::simple_ts::fields::State;
use crate::methods::simple_ts::opencl::loop2;

impl loop2::DeviceLoop for OpenCl {
    fn begin_step(&mut self) -> Result<(), DeviceError> {
        OpenCl::begin_step(self)
    }
    fn iterate(&mut self) -> Result<[loop2::MaxAt; 4], DeviceError> {
        OpenCl::iterate(self)
    }
    fn rollback(&mut self) -> Result<(), DeviceError> {
        OpenCl::rollback(self)
    }
    fn nxt(&self) -> usize {
        // A rank's maxima carry the whole grid's indices.
        self.halo.as_ref().map_or(self.p.grid.nxt, |h| h.win.nxt)
    }
    fn steps_mut(&mut self) -> &mut u64 {
        &mut self.host.step
    }
    fn device_control(&self) -> bool {
        // The device-side check cannot merge the maxima of other ranks.
        self.halo.is_none()
    }
    fn enqueue_iteration(&mut self) -> Result<(), DeviceError> {
        self.queue_checked_iteration()
    }
    fn read_control(&mut self) -> Result<loop2::Control, DeviceError> {
        self.control()
    }
    fn batch_hint(&mut self) -> &mut u32 {
        &mut self.hint
    }
    fn cpp_steady(&self, c: &loop2::Control) -> Option<bool> {
        // The C++ test also needs at most two loop-3 sweeps (iterate::cpp_steady).
        self.ends.first.then_some(c.steady && self.sweeps <= 2)
    }
}

impl Backend for OpenCl {
    fn name(&self) -> String {
        format!("opencl:{}", self.device().name)
    }

    loop2::shared_backend_methods!();

    fn iterate_rows(&mut self, rows: &[std::ops::Range<usize>]) -> Result<&State, RunError> {
        if self.dirty {
            self.host.allocate(self.n);
            let nxt = self.p.grid.nxt;
            loop2::read_rows(&self.rt, &K, &mut self.host.k, rows, nxt)?;
        }
        Ok(&self.host)
    }

    fn info(&self) -> crate::solver::SolverInfo {
        loop2::info(self.rt.program(), "phase", None)
    }

    fn details(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        let caps = super::regs::describe(&self.caps);
        if !caps.is_empty() {
            out.push(("register caps".into(), caps));
        }
        if let Some(how) = self.halo_exchange() {
            out.push(("halo exchange".into(), how.into()));
        }
        out
    }

    fn set_overlap(&mut self, on: bool) {
        self.overlap = on;
    }

    fn halo_exchange(&self) -> Option<&'static str> {
        match (&self.halo, &self.split) {
            (None, _) => None,
            (Some(_), Some(_)) if self.overlap => Some("overlapped with the interior"),
            (Some(_), None) if self.overlap => Some("blocking (this window allows no overlap)"),
            _ => Some("blocking"),
        }
    }

    fn restore(&mut self, state: State) -> Result<(), RunError> {
        self.run_one("ctl_reset")?;
        loop2::write_fields(&mut self.rt, &K, &state.k)?;
        loop2::write_fields(&mut self.rt, &N, &state.n)?;
        self.host = state;
        self.fluxes()?;
        self.exchange(&FLUXES)?;
        self.dirty = false;
        Ok(())
    }
}
