//! Rectangles of real buffers ([`Block`]) read and written with one wait per batch: the halo
//! strips of a decomposed run cross the bus without their whole buffers.

use opencl3::error_codes::ClError;
use opencl3::memory::{Buffer, CL_MEM_READ_WRITE};
use opencl3::types::{cl_double, CL_NON_BLOCKING};
use std::ptr;

use super::buffers::Buf;
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
    /// exactly [`Block::len`] values), with one wait: every read is queued without blocking
    /// (`clEnqueueReadBufferRect`), the narrow ones ([`NARROW_COLS`]) gathered on the device
    /// into the staging buffer and read together in one transfer, then the host waits for the
    /// queue. Only the rectangles cross the bus, not the whole buffers.
    pub fn read_blocks(
        &mut self,
        reads: &mut [(&str, Block, &mut [f64])],
    ) -> Result<(), DeviceError> {
        let staged: usize = reads
            .iter()
            .filter(|(_, blk, _)| narrow(blk))
            .map(|(_, blk, _)| blk.len())
            .sum();
        if staged > 0 {
            self.stage_for(staged)?;
        }
        // The narrow rectangles, in order, land here from the staging buffer.
        let mut gathered = vec![0.0; staged];
        let mut queued = Ok(());
        let mut at = 0;
        for (name, blk, out) in reads.iter_mut() {
            if blk.is_empty() {
                continue;
            }
            match self.bufs.get(*name) {
                Some(Buf::Real(b, n))
                    if blk.end() <= *n && out.len() == blk.len() && narrow(blk) =>
                {
                    let (bo, _, region) = blk.origins();
                    let to = [8 * at, 0, 0];
                    let st = &mut self.stage.as_mut().expect("invariant: staged above").0;
                    // SAFETY: the source rectangle lies inside the buffer (checked above) and
                    // the destination [at, at + len) inside the staging buffer (sized above);
                    // device-to-device, no host memory is touched.
                    let ev = unsafe {
                        self.built.queue().enqueue_copy_buffer_rect(
                            b,
                            st,
                            bo.as_ptr(),
                            to.as_ptr(),
                            region.as_ptr(),
                            8 * blk.pitch,
                            0,
                            8 * blk.cols,
                            0,
                            &[],
                        )
                    };
                    at += blk.len();
                    if let Err(e) = ev {
                        queued = Err(self.err("clEnqueueCopyBufferRect")(e));
                        break;
                    }
                }
                Some(Buf::Real(b, n)) if blk.end() <= *n && out.len() == blk.len() => {
                    let (bo, ho, region) = blk.origins();
                    // SAFETY: the rectangle lies inside the buffer (checked above) and the host
                    // slice holds exactly its values; the queue is finished below, also on an
                    // error, before `reads` is released.
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
                            out.as_mut_ptr().cast(),
                            &[],
                        )
                    };
                    match ev {
                        Ok(ev) => self.note(READ, blk.len() as u64, false, ev),
                        Err(e) => {
                            queued = Err(self.err("clEnqueueReadBufferRect")(e));
                            break;
                        }
                    }
                }
                _ => {
                    queued = Err(self.missing(&format!("{name} (a real buffer holding {blk:?})")));
                    break;
                }
            }
        }
        if queued.is_ok() && staged > 0 {
            let st = &self.stage.as_ref().expect("invariant: staged above").0;
            // SAFETY: `gathered` holds exactly the staged values and outlives the `finish`
            // below; the in-order queue runs the read after the copies.
            let ev = unsafe {
                self.built
                    .queue()
                    .enqueue_read_buffer(st, CL_NON_BLOCKING, 0, &mut gathered, &[])
            };
            match ev {
                Ok(ev) => self.note(READ, staged as u64, false, ev),
                Err(e) => queued = Err(self.err("clEnqueueReadBuffer")(e)),
            }
        }
        let waited = self.built.queue().finish().map_err(self.err("clFinish"));
        queued?;
        waited?;
        let mut at = 0;
        for (_, blk, out) in reads.iter_mut().filter(|(_, blk, _)| narrow(blk)) {
            out.copy_from_slice(&gathered[at..at + blk.len()]);
            at += blk.len();
        }
        self.drain()
    }

    /// Write several rectangles of real buffers from host slices packed row by row (the
    /// inverse of [`Runtime::read_blocks`]; `clEnqueueWriteBufferRect`, the narrow ones
    /// written together into the staging buffer in one transfer and scattered on the device),
    /// with one wait.
    pub fn write_blocks(&mut self, writes: &[(&str, Block, &[f64])]) -> Result<(), DeviceError> {
        let gathered: Vec<f64> = writes
            .iter()
            .filter(|(_, blk, data)| narrow(blk) && data.len() == blk.len())
            .flat_map(|(_, _, data)| data.iter().copied())
            .collect();
        if !gathered.is_empty() {
            self.stage_for(gathered.len())?;
        }
        let q = self.built.queue();
        let mut queued = Ok(());
        if !gathered.is_empty() {
            let st = &mut self.stage.as_mut().expect("invariant: staged above").0;
            // SAFETY: `gathered` fits the staging buffer (sized above) and outlives the
            // `finish` below; the in-order queue runs the copies after this write.
            let ev = unsafe { q.enqueue_write_buffer(st, CL_NON_BLOCKING, 0, &gathered, &[]) };
            if let Err(ClError(c)) = ev {
                queued = Err(self.api_err("clEnqueueWriteBuffer", c));
            }
        }
        let mut at = 0;
        for (name, blk, data) in writes {
            if blk.is_empty() || queued.is_err() {
                continue;
            }
            match self.bufs.get_mut(*name) {
                Some(Buf::Real(b, n))
                    if blk.end() <= *n && data.len() == blk.len() && narrow(blk) =>
                {
                    let (bo, _, region) = blk.origins();
                    let from = [8 * at, 0, 0];
                    let st = &self.stage.as_ref().expect("invariant: staged above").0;
                    // SAFETY: [at, at + len) lies inside the staging buffer and the destination
                    // rectangle inside the buffer (checked above); device-to-device.
                    let ev = unsafe {
                        q.enqueue_copy_buffer_rect(
                            st,
                            b,
                            from.as_ptr(),
                            bo.as_ptr(),
                            region.as_ptr(),
                            8 * blk.cols,
                            0,
                            8 * blk.pitch,
                            0,
                            &[],
                        )
                    };
                    at += blk.len();
                    if let Err(ClError(c)) = ev {
                        queued = Err(self.api_err("clEnqueueCopyBufferRect", c));
                    }
                }
                Some(Buf::Real(b, n)) if blk.end() <= *n && data.len() == blk.len() => {
                    let (bo, ho, region) = blk.origins();
                    // SAFETY: as in `read_blocks`; the driver only reads the host slice, which
                    // outlives the `finish` below.
                    let ev = unsafe {
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
                            data.as_ptr().cast_mut().cast(),
                            &[],
                        )
                    };
                    if let Err(ClError(c)) = ev {
                        queued = Err(self.api_err("clEnqueueWriteBufferRect", c));
                    }
                }
                _ => {
                    queued = Err(self.missing(&format!("{name} (a real buffer holding {blk:?})")));
                }
            }
        }
        let waited = q.finish().map_err(self.err("clFinish"));
        queued?;
        waited
    }
}
