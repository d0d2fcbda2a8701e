//! One rank of a decomposed run on the OpenCL backend ([`OpenCl::set_halo`]): the same
//! kernels on the rank's window (`ranks::sub_problem`), the halo of every stage's new state
//! exchanged through the host (only the strips cross the bus, through pinned host memory:
//! `Runtime::read_blocks` gathers a narrow column strip on the device and reads it in one
//! transfer), and the step's maxima merged over the ranks before the host sets the next Δt.
//!
//! Overlapped ([`crate::device::OVERLAP_ENV`]`=1`, [`OpenCl::set_overlap`]): a stage first computes
//! the frame of its window (`bands.rs`: the groups near a side, which hold the strips the
//! neighbours receive and the ghost kernels' sources), fills the ghosts, starts the strip
//! reads, then queues the interior (and the step's reduction) and exchanges while it runs;
//! the received strips are queued behind it, before the next kernel that reads them. Blocking
//! (the default): the whole stage, its ghosts and reduction, then the exchange. Both give the
//! same bits. Blocking is the default because it was the faster of the two where it could be
//! measured, two ranks sharing one H100 (docs/PERFORMANCE.md, run 56: the ranks' contexts take
//! turns on the GPU, so the split launches cost more than the overlap gains); on separate GPUs
//! it is unmeasured.
//!
//! The ghost kernels fill both sides of each axis, also a side that faces another rank: those
//! layers are halo, and the exchange that follows every ghost fill overwrites all of them
//! (the received rectangles cover the owned rows and columns they fill) before a stage reads
//! them, so the kernels and programs are those of one process.

use std::ops::Range;
use std::sync::Arc;

use super::bands::{split, walled_twin, Part, WalledLaunch};
use super::{OpenCl, RED};
use crate::decomp::{Halo, Rect, StripIo};
use crate::device::{Block, PendingReads, Runtime};
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
    /// Reads started by `start_read`.
    pending: Option<PendingReads>,
    /// Wait for the written strips (blocking path), or only queue them (overlapped).
    wait: bool,
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
        self.start_read(rects)?;
        self.finish_read(rects, out)
    }

    fn start_read(&mut self, rects: &[Rect]) -> Result<(), DeviceError> {
        let mut reads = Vec::with_capacity(rects.len() * self.planes);
        for r in rects {
            reads.extend((0..self.planes).map(|v| (self.name, self.block(r, v))));
        }
        self.pending = Some(self.rt.queue_reads(&reads)?);
        Ok(())
    }

    fn finish_read(&mut self, rects: &[Rect], out: &mut [Vec<f64>]) -> Result<(), DeviceError> {
        let pending = self.pending.take().expect("invariant: start_read first");
        let mut outs = Vec::with_capacity(rects.len() * self.planes);
        for (r, buf) in rects.iter().zip(out.iter_mut()) {
            outs.extend(buf.chunks_mut(r.len().max(1)).take(self.planes));
        }
        self.rt.take_reads(pending, &mut outs)
    }

    fn write(&mut self, rects: &[Rect], data: &[Vec<f64>]) -> Result<(), DeviceError> {
        let mut writes = Vec::with_capacity(rects.len() * self.planes);
        for (r, buf) in rects.iter().zip(data) {
            for (v, chunk) in buf.chunks(r.len().max(1)).enumerate() {
                writes.push((self.name, self.block(r, v), chunk));
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
    /// Make this solver one rank of a decomposed run: `p` is the rank's window and `halo` its
    /// exchange. The initial state gets its halo and the clock the largest rate of all ranks
    /// (collective: every rank calls it).
    pub fn set_halo(&mut self, halo: Arc<Halo>) -> Result<(), DeviceError> {
        self.split = (!halo.stages().iter().all(Vec::is_empty))
            .then(|| Arc::new(split(&self.p, &self.stage)));
        self.halo = Some(halo);
        let (smax, time) = (self.clock[2], self.clock[1]);
        self.start(smax, time)
    }

    /// This rank's halo exchange, if it is one.
    pub fn halo(&self) -> Option<&Arc<Halo>> {
        self.halo.as_ref()
    }

    /// Overlap the exchanges of the stages with their interior (`true`) or run the blocking
    /// exchange after each whole stage; the same bits either way.
    pub fn set_overlap(&mut self, on: bool) {
        self.overlap = on;
    }

    /// Whether the stages overlap their exchanges with their interior.
    pub fn overlap(&self) -> bool {
        self.overlap
    }

    /// Queue stage kernel instance `inst`, which writes state buffer `to`, the ghosts of
    /// `to` and (`last`: the step's last stage) the step's reduction, and on a rank replace
    /// the halo of `to` with its owners' values: overlapped with the interior when
    /// [`OpenCl::set_overlap`] and the window has neighbours, else after the whole stage.
    pub(super) fn stage(&mut self, inst: &str, to: &str, last: bool) -> Result<(), DeviceError> {
        let walled = self
            .walled
            .clone()
            .filter(|_| self.rt.bindings().contains_key(&walled_twin(inst)));
        let (h, split) = match (&self.halo, &self.split) {
            (Some(h), Some(s)) if self.overlap => (Arc::clone(h), Arc::clone(s)),
            _ => {
                match &walled {
                    Some(w) => w.launch(&self.rt, inst, &w.all, self.local)?,
                    None => self.rt.launch2(inst, self.global, self.local)?,
                }
                self.ghosts(to)?;
                tail(
                    &self.rt,
                    inst,
                    &[],
                    None,
                    self.local,
                    last.then(|| self.stage.groups2(&self.p)),
                )?;
                return self.exchange(to);
            }
        };
        let frame = split.frame.len();
        let walled_frame = walled.as_deref().map(|w| (w, &w.parts[..frame]));
        launch_parts(&self.rt, inst, &split.frame, walled_frame, self.local)?;
        self.ghosts(to)?;
        let (local, reduce) = (self.local, last.then(|| self.stage.groups2(&self.p)));
        let walled_interior = walled.as_deref().map(|w| (w, &w.parts[frame..]));
        let mut io = self.strips(to, false);
        h.exchange_during(&mut io, |io| {
            tail(io.rt, inst, &split.interior, walled_interior, local, reduce)
        })
    }

    /// The exchange of state buffer `name` as strips of the runtime (`wait`: for the writes).
    fn strips<'a>(&'a mut self, name: &'a str, wait: bool) -> PlaneStrips<'a> {
        let m = &self.p.mesh;
        PlaneStrips {
            planes: self.p.nv(),
            pitch: m.nxs,
            rows: m.nys,
            rt: &mut self.rt,
            name,
            pending: None,
            wait,
        }
    }

    /// Replace the halo of state buffer `name` with its owners' values, blocking (nothing on
    /// one process, or on a rank without neighbours).
    pub(super) fn exchange(&mut self, name: &str) -> Result<(), DeviceError> {
        let Some(h) = self.halo.clone() else {
            return Ok(());
        };
        if h.stages().iter().all(Vec::is_empty) {
            return Ok(());
        }
        // The queued kernels first, so that the exchange's time (HaloStats) is its own.
        self.rt.finish()?;
        h.exchange_with(&mut self.strips(name, true))
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

/// Queue the `parts` of stage kernel instance `inst`, with the strip's walls (`walled`: the
/// parts' places, [`WalledLaunch::parts`]) as its free and walled kernels beside each other.
fn launch_parts(
    rt: &Runtime,
    inst: &str,
    parts: &[Part],
    walled: Option<(&WalledLaunch, &[[Range<usize>; 2]])>,
    local: [usize; 2],
) -> Result<(), DeviceError> {
    match walled {
        Some((w, at)) => at.iter().try_for_each(|at| w.launch(rt, inst, at, local)),
        None => parts
            .iter()
            .try_for_each(|part| rt.launch2_at(inst, part.offset, part.size, local)),
    }
}

/// Queue the `parts` of stage kernel instance `inst` ([`launch_parts`]) and, with `reduce`
/// (the groups of the first level), the step's reduction (`reduce`, `finish`).
fn tail(
    rt: &Runtime,
    inst: &str,
    parts: &[Part],
    walled: Option<(&WalledLaunch, &[[Range<usize>; 2]])>,
    local: [usize; 2],
    reduce: Option<usize>,
) -> Result<(), DeviceError> {
    launch_parts(rt, inst, parts, walled, local)?;
    if let Some(g2) = reduce {
        rt.launch("reduce", RED * g2, Some(RED))?;
        rt.launch("finish", RED, Some(RED))?;
    }
    Ok(())
}
