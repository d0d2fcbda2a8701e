//! One rank's halo exchange in the phase form (`OpenCl::set_halo`): the buffers exchanged at
//! each point of loop 2 (the reference's: `reference/iterate.rs` and
//! `Reference::update_fluxes`), the device buffers seen as the arrays of
//! `decomp::Halo::exchange_with` (only the strips cross the bus), and the zeroing of the
//! residual arrays' halo strips before a reduction.

use std::sync::Arc;

use super::OpenCl;
use crate::decomp::{Halo, Rect, StripIo};
use crate::device::{Block, PendingReads, Runtime};
use crate::error::DeviceError;

/// The halo-exchanged buffers of each exchange point (the reference's: `reference/iterate.rs`
/// and `Reference::update_fluxes`).
pub(super) const PSEUDO: [&str; 4] = ["u_hat", "d_u", "v_hat", "d_v"];
pub(super) const SWEEP: [&str; 2] = ["p_new", "t_new"];
/// A loop-3 sweep that wrote the second buffer set (C++ order: every other sweep).
pub(super) const SWEEP_OLD: [&str; 2] = ["p_old", "t_old"];
pub(super) const VELOCITY: [&str; 2] = ["u", "v"];
pub(super) const FLUXES: [&str; 4] = ["rho_u", "rho_v", "fx", "fy"];
/// The residual arrays the reduction reads (u and v in Fx and Fy, [`RES_ALIAS`]).
const RESIDUALS: [&str; 4] = ["fx", "fy", "res_p", "res_t"];

/// Device buffers as the arrays of a halo exchange: only the strips are read and written.
pub(super) struct DeviceStrips<'a> {
    pub(super) rt: &'a mut Runtime,
    names: &'a [&'a str],
    /// Stored columns of the window.
    pitch: usize,
    /// Reads started by `start_read`.
    pending: Option<PendingReads>,
    /// Wait for the written strips (blocking), or only queue them (overlapped: the next
    /// kernels come after them in the in-order queue).
    wait: bool,
}

impl<'a> DeviceStrips<'a> {
    /// The buffers `names` of a window `pitch` columns wide, exchanged blocking.
    fn blocking(rt: &'a mut Runtime, names: &'a [&'a str], pitch: usize) -> DeviceStrips<'a> {
        DeviceStrips {
            rt,
            names,
            pitch,
            pending: None,
            wait: true,
        }
    }

    /// The same, exchanged while the device computes: reads started and taken later, writes
    /// queued without a wait.
    pub(super) fn queued(
        rt: &'a mut Runtime,
        names: &'a [&'a str],
        pitch: usize,
    ) -> DeviceStrips<'a> {
        DeviceStrips {
            wait: false,
            ..DeviceStrips::blocking(rt, names, pitch)
        }
    }

    fn block(&self, r: &Rect) -> Block {
        Block {
            pitch: self.pitch,
            x0: r.x0,
            y0: r.y0,
            cols: r.x1 - r.x0,
            rows: r.y1 - r.y0,
        }
    }
}

impl StripIo for DeviceStrips<'_> {
    type Error = DeviceError;

    fn arrays(&self) -> usize {
        self.names.len()
    }

    fn read(&mut self, rects: &[Rect], out: &mut [Vec<f64>]) -> Result<(), DeviceError> {
        let mut reads = Vec::with_capacity(rects.len() * self.names.len());
        for (r, buf) in rects.iter().zip(out.iter_mut()) {
            let blk = self.block(r);
            for (name, chunk) in self.names.iter().zip(buf.chunks_mut(r.len().max(1))) {
                reads.push((*name, blk, chunk));
            }
        }
        self.rt.read_blocks(&mut reads)
    }

    fn start_read(&mut self, rects: &[Rect]) -> Result<(), DeviceError> {
        let mut reads = Vec::with_capacity(rects.len() * self.names.len());
        for r in rects {
            reads.extend(self.names.iter().map(|name| (*name, self.block(r))));
        }
        self.pending = Some(self.rt.queue_reads(&reads)?);
        Ok(())
    }

    fn finish_read(&mut self, rects: &[Rect], out: &mut [Vec<f64>]) -> Result<(), DeviceError> {
        let pending = self.pending.take().expect("invariant: start_read first");
        let mut outs = Vec::with_capacity(rects.len() * self.names.len());
        for (r, buf) in rects.iter().zip(out.iter_mut()) {
            outs.extend(buf.chunks_mut(r.len().max(1)).take(self.names.len()));
        }
        self.rt.take_reads(pending, &mut outs)
    }

    fn write(&mut self, rects: &[Rect], data: &[Vec<f64>]) -> Result<(), DeviceError> {
        let mut writes = Vec::with_capacity(rects.len() * self.names.len());
        for (r, buf) in rects.iter().zip(data) {
            let blk = self.block(r);
            for (name, chunk) in self.names.iter().zip(buf.chunks(r.len().max(1))) {
                writes.push((*name, blk, chunk));
            }
        }
        if self.wait {
            self.rt.write_blocks(&writes)
        } else {
            self.rt.queue_writes(&writes)
        }
    }
}

impl OpenCl {
    /// Make this solver one rank of a decomposed run: `p` is the rank's window
    /// (`ranks::sub_problem`) and `halo` its exchange. The face fluxes of the initial state get
    /// their halos here; from then on every exchange point of loop 2 exchanges, and the
    /// residuals are the owned cells' merged over the ranks (collective: every rank calls it).
    pub fn set_halo(&mut self, halo: Arc<Halo>) -> Result<(), DeviceError> {
        self.halo = Some(halo);
        self.plan_overlap();
        self.exchange(&FLUXES)
    }

    /// Replace the halo strips of the buffers `names` with their owners' values (nothing
    /// without a halo).
    pub(super) fn exchange(&mut self, names: &[&str]) -> Result<(), DeviceError> {
        let Some(h) = self.halo.clone() else {
            return Ok(());
        };
        // A window without neighbours (one rank) has nothing to exchange: no wait either, so
        // that `bench --thread-ranks 1` is the baseline of the same loop.
        if h.stages().iter().all(Vec::is_empty) {
            return Ok(());
        }
        // The kernels queued before it first, so that the exchange's time (HaloStats) is its
        // own: the strip reads would wait for them anyway.
        self.rt.finish()?;
        h.exchange_with(&mut DeviceStrips::blocking(
            &mut self.rt,
            names,
            self.p.grid.nxt,
        ))
    }

    /// Zero the halo strips of the residual arrays, so that the reduction sees the owned
    /// cells only (a zero never wins it: the reference's scan starts from zero too).
    pub(super) fn zero_halo_residuals(&mut self) -> Result<(), DeviceError> {
        let Some(h) = &self.halo else {
            return Ok(());
        };
        let rects = h.halo_rects();
        if rects.is_empty() {
            return Ok(());
        }
        let zeros = vec![0.0; rects.iter().map(Rect::len).max().unwrap_or(0)];
        let io = DeviceStrips::blocking(&mut self.rt, &RESIDUALS, self.p.grid.nxt);
        let writes: Vec<_> = rects
            .iter()
            .flat_map(|r| RESIDUALS.map(|name| (name, io.block(r), &zeros[..r.len()])))
            .collect();
        io.rt.write_blocks(&writes)
    }
}
