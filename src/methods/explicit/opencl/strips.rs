//! One rank of a decomposed run on the OpenCL backend ([`OpenCl::set_halo`]): the same
//! kernels on the rank's window (`ranks::sub_problem`), the halo of every stage's new state
//! exchanged through the host (only the strips cross the bus: `Runtime::read_blocks` gathers a
//! narrow column strip on the device and reads it in one transfer), and the step's maxima
//! merged over the ranks before the host sets the next Δt.
//!
//! The ghost kernels fill both sides of each axis, also a side that faces another rank: those
//! layers are halo, and the exchange that follows every ghost fill overwrites all of them
//! (the received rectangles cover the owned rows and columns they fill) before a stage reads
//! them, so the kernels and programs are those of one process.

use std::sync::Arc;

use super::OpenCl;
use crate::decomp::{Halo, Rect, StripIo};
use crate::device::{Block, Runtime};
use crate::error::DeviceError;
use crate::methods::explicit::reference::{dt_of, time_after};

/// The `planes` variables of a state buffer as the arrays of an exchange: variable `v` of
/// the window is rows `v·rows …` of a buffer of `pitch` values per row.
struct PlaneStrips<'a> {
    rt: &'a mut Runtime,
    name: &'a str,
    planes: usize,
    pitch: usize,
    rows: usize,
}

impl PlaneStrips<'_> {
    fn block(&self, r: &Rect, v: usize) -> Block {
        Block {
            pitch: self.pitch,
            x0: r.x0,
            y0: r.y0 + v * self.rows,
            cols: r.x1 - r.x0,
            rows: r.y1 - r.y0,
        }
    }
}

impl StripIo for PlaneStrips<'_> {
    type Error = DeviceError;

    fn arrays(&self) -> usize {
        self.planes
    }

    fn read(&mut self, rects: &[Rect], out: &mut [Vec<f64>]) -> Result<(), DeviceError> {
        let mut reads = Vec::with_capacity(rects.len() * self.planes);
        for (r, buf) in rects.iter().zip(out.iter_mut()) {
            for (v, chunk) in buf.chunks_mut(r.len().max(1)).enumerate() {
                reads.push((self.name, self.block(r, v), chunk));
            }
        }
        self.rt.read_blocks(&mut reads)
    }

    fn write(&mut self, rects: &[Rect], data: &[Vec<f64>]) -> Result<(), DeviceError> {
        let mut writes = Vec::with_capacity(rects.len() * self.planes);
        for (r, buf) in rects.iter().zip(data) {
            for (v, chunk) in buf.chunks(r.len().max(1)).enumerate() {
                writes.push((self.name, self.block(r, v), chunk));
            }
        }
        self.rt.write_blocks(&writes)
    }
}

impl OpenCl {
    /// Make this solver one rank of a decomposed run: `p` is the rank's window and `halo` its
    /// exchange. The initial state gets its halo and the clock the largest rate of all ranks
    /// (collective: every rank calls it).
    pub fn set_halo(&mut self, halo: Arc<Halo>) -> Result<(), DeviceError> {
        self.halo = Some(halo);
        let (smax, time) = (self.clock[2], self.clock[1]);
        self.start(smax, time)
    }

    /// This rank's halo exchange, if it is one.
    pub fn halo(&self) -> Option<&Arc<Halo>> {
        self.halo.as_ref()
    }

    /// Replace the halo of state buffer `name` with its owners' values (nothing on one
    /// process, or on a rank without neighbours).
    pub(super) fn exchange(&mut self, name: &str) -> Result<(), DeviceError> {
        let Some(h) = self.halo.clone() else {
            return Ok(());
        };
        if h.stages().iter().all(Vec::is_empty) {
            return Ok(());
        }
        // The queued kernels first, so that the exchange's time (HaloStats) is its own.
        self.rt.finish()?;
        let m = &self.p.mesh;
        let mut io = PlaneStrips {
            planes: self.p.nv(),
            pitch: m.nxs,
            rows: m.nys,
            rt: &mut self.rt,
            name,
        };
        h.exchange_with(&mut io)
    }

    /// The clock `[Δt, t, max rate, max |Δq0|]` after a step from this rank's `finish`: the
    /// maxima merged over the ranks (exact: the single-process scan's bits), then the time
    /// and the next Δt from them on the host, as the reference does (`update.rs`, the twins of
    /// `finish`'s); a NaN keeps the clock before the step. Written back to the device, where
    /// the next stage reads Δt.
    pub(super) fn merged_clock(&mut self, local: [f64; 4]) -> Result<[f64; 4], DeviceError> {
        let h = self.halo.as_ref().expect("invariant: on a rank");
        let [(r, _), (d, _)] = h.reduce_max_at([(local[2], 0), (local[3], 0)]);
        let [dt, t, _, _] = self.clock;
        let clock = if r.is_nan() || d.is_nan() {
            [dt, t, r, d]
        } else {
            let t = time_after(&self.p, t, dt);
            [dt_of(&self.p, r, t), t, r, d]
        };
        self.rt.write("clock", &clock)?;
        Ok(clock)
    }
}
