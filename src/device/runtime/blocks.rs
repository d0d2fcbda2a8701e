//! Rectangles of real buffers ([`Block`]) read and written with one wait per batch: the halo
//! strips of a decomposed run cross the bus without their whole buffers, through pinned host
//! memory (`pinned.rs`). A batch of reads may be queued and taken later
//! ([`Runtime::queue_reads`], [`Runtime::take_reads`]) and writes queued without a wait
//! ([`Runtime::queue_writes`]), so that kernels queued in between run while the host works.

use opencl3::error_codes::ClError;
use opencl3::event::Event;
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::types::{cl_double, CL_NON_BLOCKING};
use std::ptr;

use super::buffers::Buf;
use super::pinned::Area;
use super::record::READ;
use super::Runtime;
use crate::error::DeviceError;

/// A rectangle of a real buffer seen as rows of `pitch` values: columns `x0..x0 + cols` of
/// rows `y0..y0 + rows`. On the host side it is packed row by row (`cols × rows` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Block {
    /// Values per row of the buffer.
    pub pitch: usize,
    /// First column.
    pub x0: usize,
    /// First row.
    pub y0: usize,
    /// Columns.
    pub cols: usize,
    /// Rows.
    pub rows: usize,
}

impl Block {
    /// Values in the rectangle.
    pub fn len(&self) -> usize {
        self.cols * self.rows
    }

    /// True if it holds no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Past the last element of the buffer it touches.
    fn end(&self) -> usize {
        if self.is_empty() {
            0
        } else {
            (self.y0 + self.rows - 1) * self.pitch + self.x0 + self.cols
        }
    }

    /// (buffer origin, host origin, region) in bytes and rows, as clEnqueue*BufferRect takes
    /// them.
    fn origins(&self) -> ([usize; 3], [usize; 3], [usize; 3]) {
        (
            [8 * self.x0, self.y0, 0],
            [0, 0, 0],
            [8 * self.cols, self.rows, 1],
        )
    }
}

/// Rectangles with fewer columns than this (and more than one row) are gathered into, or
/// scattered from, a contiguous staging buffer on the device (`clEnqueueCopyBufferRect`),
/// all those of one batch crossing the bus in one transfer: a rectangle read or written across
/// the bus moves row by row, and a column strip of a few values per row over thousands of
/// rows took 7 times as long as a row strip of the same size on an H100 (device run 42).
const NARROW_COLS: usize = 64;

/// True if `blk` goes through the staging buffer ([`NARROW_COLS`]).
fn narrow(blk: &Block) -> bool {
    blk.rows > 1 && blk.cols < NARROW_COLS
}

/// Reads queued by [`Runtime::queue_reads`]: where each rectangle lands in the pinned read
/// area, and a marker that completes when all of them have.
#[must_use = "the values arrive through Runtime::take_reads"]
pub struct PendingReads {
    at: Vec<usize>,
    lens: Vec<usize>,
    marker: Option<Event>,
}

/// Where each block of a batch lies in a pinned area: the narrow ones ([`NARROW_COLS`]) first,
/// packed in order (one transfer to or from the staging buffer), then the others; and the
/// count of narrow values.
fn places(blocks: impl Iterator<Item = Block> + Clone) -> (Vec<usize>, usize, usize) {
    let staged: usize = blocks.clone().filter(narrow).map(|b| b.len()).sum();
    let (mut n, mut w) = (0, staged);
    let at = blocks
        .map(|b| {
            let slot = if narrow(&b) { &mut n } else { &mut w };
            *slot += b.len();
            *slot - b.len()
        })
        .collect();
    (at, staged, w)
}

impl Runtime {
    /// A staging buffer of at least `n` values ([`NARROW_COLS`]).
    fn stage_for(&mut self, n: usize) -> Result<(), DeviceError> {
        if self.stage.as_ref().is_some_and(|(_, m)| *m >= n) {
            return Ok(());
        }
        // SAFETY: a plain allocation of n doubles, written by the copies before any read.
        let b = unsafe {
            Buffer::<cl_double>::create(self.built.context(), CL_MEM_READ_WRITE, n, ptr::null_mut())
        }
        .map_err(self.err("clCreateBuffer"))?;
        let old = self.stage.replace((b, n)).map_or(0, |(_, m)| m);
        self.bytes = self.bytes - 8 * old as u64 + 8 * n as u64;
        Ok(())
    }

    /// Read several rectangles of real buffers, each packed row by row into its slice (of
    /// exactly [`Block::len`] values), with one wait ([`Runtime::queue_reads`], then
    /// [`Runtime::take_reads`]). Only the rectangles cross the bus, not the whole buffers.
    pub fn read_blocks(
        &mut self,
        reads: &mut [(&str, Block, &mut [f64])],
    ) -> Result<(), DeviceError> {
        let blocks: Vec<(&str, Block)> = reads.iter().map(|(n, b, _)| (*n, *b)).collect();
        let pending = self.queue_reads(&blocks)?;
        let mut outs: Vec<&mut [f64]> = reads.iter_mut().map(|(_, _, o)| &mut **o).collect();
        self.take_reads(pending, &mut outs)?;
        self.drain()
    }

    /// Queue the reads of several rectangles of real buffers into the pinned read area and
    /// start them, without waiting: each is read with `clEnqueueReadBufferRect`, or for the
    /// narrow ones ([`NARROW_COLS`]) gathered on the device into the staging buffer and read
    /// together in one transfer. Commands queued afterwards run after them (in-order queue);
    /// [`Runtime::take_reads`] waits for the reads alone. On an error the queue is finished
    /// first.
    pub fn queue_reads(&mut self, reads: &[(&str, Block)]) -> Result<PendingReads, DeviceError> {
        let (at, staged, total) = places(reads.iter().map(|r| r.1));
        if staged > 0 {
            self.stage_for(staged)?;
        }
        self.pin(Area::Reads, total)?;
        let queued = self.enqueue_reads(reads, &at, staged);
        let marker = match queued {
            Ok(()) => {
                // SAFETY: a marker with no wait list; it completes after everything queued.
                let m = unsafe { self.built.queue().enqueue_marker_with_wait_list(&[]) };
                let m = m.map_err(self.err("clEnqueueMarkerWithWaitList"))?;
                self.built.queue().flush().map_err(self.err("clFlush"))?;
                m
            }
            Err(e) => {
                self.built.queue().finish().map_err(self.err("clFinish"))?;
                return Err(e);
            }
        };
        Ok(PendingReads {
            at,
            lens: reads.iter().map(|r| r.1.len()).collect(),
            marker: Some(marker),
        })
    }

    /// The commands of [`Runtime::queue_reads`]; the pinned area and staging buffer are sized.
    fn enqueue_reads(
        &mut self,
        reads: &[(&str, Block)],
        at: &[usize],
        staged: usize,
    ) -> Result<(), DeviceError> {
        let pin = self.pinned[Area::Reads as usize]
            .as_ref()
            .expect("invariant: pinned above");
        for ((name, blk), &to) in reads.iter().zip(at) {
            if blk.is_empty() {
                continue;
            }
            let Some(Buf::Real(b, n)) = self.bufs.get(*name) else {
                return Err(self.missing(&format!("{name} (a real buffer holding {blk:?})")));
            };
            if blk.end() > *n {
                return Err(self.missing(&format!("{name} (a real buffer holding {blk:?})")));
            }
            let (bo, ho, region) = blk.origins();
            if narrow(blk) {
                let st = &mut self.stage.as_mut().expect("invariant: staged above").0;
                let dst = [8 * to, 0, 0];
                // SAFETY: the source rectangle lies inside the buffer (checked above) and the
                // destination [to, to + len) inside the staging buffer (sized for the batch);
                // device-to-device, no host memory is touched.
                unsafe {
                    self.built.queue().enqueue_copy_buffer_rect(
                        b,
                        st,
                        bo.as_ptr(),
                        dst.as_ptr(),
                        region.as_ptr(),
                        8 * blk.pitch,
                        0,
                        8 * blk.cols,
                        0,
                        &[],
                    )
                }
                .map_err(self.err("clEnqueueCopyBufferRect"))?;
                continue;
            }
            // SAFETY: the rectangle lies inside the buffer (checked above) and [to, to + len)
            // inside the pinned area (sized for the batch), which lives until the runtime
            // unmaps it after finishing the queue.
            let ev = unsafe {
                self.built.queue().enqueue_read_buffer_rect(
                    b,
                    CL_NON_BLOCKING,
                    bo.as_ptr(),
                    ho.as_ptr(),
                    region.as_ptr(),
                    8 * blk.pitch,
                    0,
                    8 * blk.cols,
                    0,
                    pin.at(to).cast(),
                    &[],
                )
            }
            .map_err(self.err("clEnqueueReadBufferRect"))?;
            self.note(READ, blk.len() as u64, false, ev);
        }
        if staged > 0 {
            let st = &self.stage.as_ref().expect("invariant: staged above").0;
            // SAFETY: the first `staged` values of the pinned area receive the staging
            // buffer's first `staged` values (both sized for the batch); the in-order queue
            // runs the read after the copies.
            let ev = unsafe {
                self.built.queue().enqueue_read_buffer_rect(
                    st,
                    CL_NON_BLOCKING,
                    [0, 0, 0].as_ptr(),
                    [0, 0, 0].as_ptr(),
                    [8 * staged, 1, 1].as_ptr(),
                    0,
                    0,
                    0,
                    0,
                    pin.at(0).cast(),
                    &[],
                )
            }
            .map_err(self.err("clEnqueueReadBuffer"))?;
            self.note(READ, staged as u64, false, ev);
        }
        Ok(())
    }

    /// Wait for the reads of `pending` (not for what was queued after them) and copy each
    /// rectangle into its slice of `outs` (in the order of [`Runtime::queue_reads`], each of
    /// exactly its length).
    pub fn take_reads(
        &mut self,
        mut pending: PendingReads,
        outs: &mut [&mut [f64]],
    ) -> Result<(), DeviceError> {
        if let Some(m) = pending.marker.take() {
            m.wait().map_err(self.err("clWaitForEvents"))?;
        }
        let pin = self.pinned[Area::Reads as usize]
            .as_mut()
            .expect("invariant: pinned by queue_reads")
            .values();
        for ((out, &at), &len) in outs.iter_mut().zip(&pending.at).zip(&pending.lens) {
            if out.len() != len {
                return Err(self.missing(&format!("a slice of {len} values")));
            }
            out.copy_from_slice(&pin[at..at + len]);
        }
        Ok(())
    }

    /// Write several rectangles of real buffers from host slices packed row by row (the
    /// inverse of [`Runtime::read_blocks`]) and wait for them.
    pub fn write_blocks(&mut self, writes: &[(&str, Block, &[f64])]) -> Result<(), DeviceError> {
        self.queue_writes(writes)?;
        self.finish()
    }

    /// Queue the writes of several rectangles without waiting: the values are copied into the
    /// pinned write area (after the previous batch's writes are done with it), the narrow
    /// ones written together into the staging buffer in one transfer and scattered on the
    /// device, the others with `clEnqueueWriteBufferRect`. Kernels queued afterwards see them
    /// (in-order queue). On an error the queue is finished first.
    pub fn queue_writes(&mut self, writes: &[(&str, Block, &[f64])]) -> Result<(), DeviceError> {
        if let Some(m) = self.writes_done.take() {
            m.wait().map_err(self.err("clWaitForEvents"))?;
        }
        for (name, blk, data) in writes {
            if data.len() != blk.len() {
                return Err(self.missing(&format!("{name} (a real buffer holding {blk:?})")));
            }
        }
        let (at, staged, total) = places(writes.iter().map(|w| w.1));
        if staged > 0 {
            self.stage_for(staged)?;
        }
        self.pin(Area::Writes, total)?;
        let pin = self.pinned[Area::Writes as usize]
            .as_mut()
            .expect("invariant: pinned above")
            .values();
        for ((_, blk, data), &to) in writes.iter().zip(&at) {
            pin[to..to + blk.len()].copy_from_slice(data);
        }
        let queued = self.enqueue_writes(writes, &at, staged).and_then(|()| {
            // SAFETY: a marker with no wait list; it completes after everything queued.
            let m = unsafe { self.built.queue().enqueue_marker_with_wait_list(&[]) };
            self.writes_done = Some(m.map_err(self.err("clEnqueueMarkerWithWaitList"))?);
            self.built.queue().flush().map_err(self.err("clFlush"))
        });
        if queued.is_err() {
            self.built.queue().finish().map_err(self.err("clFinish"))?;
        }
        queued
    }

    /// The commands of [`Runtime::queue_writes`]; the pinned area holds the values.
    fn enqueue_writes(
        &mut self,
        writes: &[(&str, Block, &[f64])],
        at: &[usize],
        staged: usize,
    ) -> Result<(), DeviceError> {
        let q = self.built.queue();
        let pin = self.pinned[Area::Writes as usize]
            .as_ref()
            .expect("invariant: pinned above");
        if staged > 0 {
            let st = &mut self.stage.as_mut().expect("invariant: staged above").0;
            // SAFETY: the first `staged` pinned values go to the first `staged` values of the
            // staging buffer (both sized for the batch); the driver only reads the pinned
            // area, which stays unchanged until `writes_done` completes.
            unsafe {
                q.enqueue_write_buffer_rect(
                    st,
                    CL_NON_BLOCKING,
                    [0, 0, 0].as_ptr(),
                    [0, 0, 0].as_ptr(),
                    [8 * staged, 1, 1].as_ptr(),
                    0,
                    0,
                    0,
                    0,
                    pin.at(0).cast(),
                    &[],
                )
            }
            .map_err(|ClError(c)| self.api_err("clEnqueueWriteBuffer", c))?;
        }
        for ((name, blk, _), &from) in writes.iter().zip(at) {
            if blk.is_empty() {
                continue;
            }
            let Some(Buf::Real(b, n)) = self.bufs.get_mut(*name) else {
                return Err(self.missing(&format!("{name} (a real buffer holding {blk:?})")));
            };
            if blk.end() > *n {
                return Err(self.missing(&format!("{name} (a real buffer holding {blk:?})")));
            }
            let (bo, ho, region) = blk.origins();
            if narrow(blk) {
                let src = [8 * from, 0, 0];
                let st = &self.stage.as_ref().expect("invariant: staged above").0;
                // SAFETY: [from, from + len) lies inside the staging buffer and the
                // destination rectangle inside the buffer (checked above); device-to-device.
                unsafe {
                    q.enqueue_copy_buffer_rect(
                        st,
                        b,
                        src.as_ptr(),
                        bo.as_ptr(),
                        region.as_ptr(),
                        8 * blk.cols,
                        0,
                        8 * blk.pitch,
                        0,
                        &[],
                    )
                }
                .map_err(|ClError(c)| self.api_err("clEnqueueCopyBufferRect", c))?;
                continue;
            }
            // SAFETY: the rectangle lies inside the buffer (checked above) and the pinned
            // values [from, from + len) are its packed rows; the driver only reads them, and
            // they stay unchanged until `writes_done` completes.
            unsafe {
                q.enqueue_write_buffer_rect(
                    b,
                    CL_NON_BLOCKING,
                    bo.as_ptr(),
                    ho.as_ptr(),
                    region.as_ptr(),
                    8 * blk.pitch,
                    0,
                    8 * blk.cols,
                    0,
                    pin.at(from).cast(),
                    &[],
                )
            }
            .map_err(|ClError(c)| self.api_err("clEnqueueWriteBufferRect", c))?;
        }
        Ok(())
    }
}

/// Environment variable that chooses how OpenCL ranks exchange their halos: `1` overlaps each
/// exchange with the interior (the frame of a phase or stage first, its interior while the
/// strips travel), `0` exchanges after the whole phase or stage; unset, each method's default
/// (SIMPLE-TS overlaps, the explicit methods block: docs/decisions.md).
pub const OVERLAP_ENV: &str = "SIMPLETS_HALO_OVERLAP";

/// The exchange [`OVERLAP_ENV`] asks for: `Some(true)` overlapped, `Some(false)` blocking,
/// `None` (unset or empty) the method's default; any other value is refused in one line
/// naming the variable.
pub fn overlap_setting() -> Result<Option<bool>, DeviceError> {
    match std::env::var(OVERLAP_ENV) {
        Err(_) => Ok(None),
        Ok(v) => match v.trim() {
            "" => Ok(None),
            "0" => Ok(Some(false)),
            "1" => Ok(Some(true)),
            _ => Err(DeviceError::BadBuildOption {
                var: OVERLAP_ENV,
                value: v.clone(),
                reason: "1 (overlap each exchange with the interior) or 0 (blocking)".into(),
            }),
        },
    }
}
