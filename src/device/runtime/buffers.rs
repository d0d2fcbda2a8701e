//! The buffers of a [`Runtime`]: created by name (real or int), written from the host, read
//! back (blocking, or several with one wait), and copied on the device.

use std::ptr;

use opencl3::error_codes::ClError;
use opencl3::event::Event;
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::types::{cl_double, cl_int, CL_BLOCKING, CL_NON_BLOCKING};

use super::record::{TraceOp, COPY, READ};
use super::Runtime;
use crate::error::DeviceError;

/// A buffer with its length in elements.
pub(super) enum Buf {
    Real(Buffer<cl_double>, usize),
    Int(Buffer<cl_int>, usize),
}

impl Buf {
    /// The OpenCL memory object.
    pub(super) fn mem(&self) -> opencl3::types::cl_mem {
        match self {
            Buf::Real(b, _) => b.get(),
            Buf::Int(b, _) => b.get(),
        }
    }
}

impl Runtime {
    /// Names of every buffer with its element size (8: real, 4: int) and length.
    pub fn buffers(&self) -> Vec<(String, usize, usize)> {
        let mut v: Vec<_> = self
            .bufs
            .iter()
            .map(|(name, b)| match b {
                Buf::Real(_, n) => (name.clone(), 8, *n),
                Buf::Int(_, n) => (name.clone(), 4, *n),
            })
            .collect();
        v.sort();
        v
    }

    /// Read an int buffer into `out` (blocking).
    pub fn read_int(&self, name: &str, out: &mut [i32]) -> Result<(), DeviceError> {
        match self.bufs.get(name) {
            Some(Buf::Int(b, n)) if out.len() <= *n => {
                // SAFETY: blocking read within the buffer's size into a host slice.
                unsafe {
                    self.built
                        .queue()
                        .enqueue_read_buffer(b, CL_BLOCKING, 0, out, &[])
                }
                .map(|_| ())
                .map_err(self.err("clEnqueueReadBuffer"))
            }
            _ => Err(self.missing(name)),
        }
    }
    /// Create (or replace) a real buffer holding `data` (at least one value: OpenCL has no
    /// empty buffers).
    pub fn real(&mut self, name: &str, data: &[f64]) -> Result<(), DeviceError> {
        let n = data.len().max(1);
        // SAFETY: a plain allocation of n doubles; filled by the blocking write below.
        let mut b = unsafe {
            Buffer::<cl_double>::create(self.built.context(), CL_MEM_READ_WRITE, n, ptr::null_mut())
        }
        .map_err(self.err("clCreateBuffer"))?;
        if !data.is_empty() {
            // SAFETY: blocking write of exactly data.len() ≤ n values.
            unsafe {
                self.built
                    .queue()
                    .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, data, &[])
            }
            .map_err(self.err("clEnqueueWriteBuffer"))?;
        }
        self.bytes += 8 * n as u64;
        self.bufs.insert(name.to_string(), Buf::Real(b, n));
        Ok(())
    }

    /// Create (or replace) a real buffer of `n` zeros (at least one value), filled on the
    /// device: no host array of that size is needed.
    pub fn real_zeros(&mut self, name: &str, n: usize) -> Result<(), DeviceError> {
        let n = n.max(1);
        // SAFETY: a plain allocation of n doubles, filled by the blocking fill below.
        let mut b = unsafe {
            Buffer::<cl_double>::create(self.built.context(), CL_MEM_READ_WRITE, n, ptr::null_mut())
        }
        .map_err(self.err("clCreateBuffer"))?;
        // SAFETY: fills exactly the n doubles of the buffer; waited for before returning.
        let ev = unsafe {
            self.built
                .queue()
                .enqueue_fill_buffer(&mut b, &[0.0f64], 0, 8 * n, &[])
        }
        .map_err(self.err("clEnqueueFillBuffer"))?;
        ev.wait().map_err(self.err("clWaitForEvents"))?;
        self.bytes += 8 * n as u64;
        self.bufs.insert(name.to_string(), Buf::Real(b, n));
        Ok(())
    }

    /// Overwrite `data.len()` values of a real buffer from element `offset` on (blocking).
    pub fn write_at(&mut self, name: &str, offset: usize, data: &[f64]) -> Result<(), DeviceError> {
        let q = self.built.queue();
        match self.bufs.get_mut(name) {
            Some(Buf::Real(b, n)) if offset + data.len() <= *n => {
                if data.is_empty() {
                    return Ok(());
                }
                // SAFETY: blocking write of elements offset..offset+data.len() ≤ n.
                unsafe { q.enqueue_write_buffer(b, CL_BLOCKING, 8 * offset, data, &[]) }
                    .map(|_| ())
                    .map_err(|ClError(c)| self.api_err("clEnqueueWriteBuffer", c))
            }
            _ => Err(self.missing(&format!(
                "{name} (a real buffer of {} values)",
                offset + data.len()
            ))),
        }
    }

    /// Create (or replace) an int buffer holding `data`.
    pub fn int(&mut self, name: &str, data: &[i32]) -> Result<(), DeviceError> {
        let n = data.len().max(1);
        // SAFETY: as in `real`.
        let mut b = unsafe {
            Buffer::<cl_int>::create(self.built.context(), CL_MEM_READ_WRITE, n, ptr::null_mut())
        }
        .map_err(self.err("clCreateBuffer"))?;
        if !data.is_empty() {
            // SAFETY: blocking write of data.len() ≤ n values.
            unsafe {
                self.built
                    .queue()
                    .enqueue_write_buffer(&mut b, CL_BLOCKING, 0, data, &[])
            }
            .map_err(self.err("clEnqueueWriteBuffer"))?;
        }
        self.bytes += 4 * n as u64;
        self.bufs.insert(name.to_string(), Buf::Int(b, n));
        Ok(())
    }

    /// Overwrite a real buffer from the host (blocking).
    pub fn write(&mut self, name: &str, data: &[f64]) -> Result<(), DeviceError> {
        let q = self.built.queue();
        match self.bufs.get_mut(name) {
            Some(Buf::Real(b, n)) if data.len() <= *n => {
                // SAFETY: blocking write within the buffer's size.
                unsafe { q.enqueue_write_buffer(b, CL_BLOCKING, 0, data, &[]) }
                    .map(|_| ())
                    .map_err(|ClError(c)| self.api_err("clEnqueueWriteBuffer", c))
            }
            _ => Err(self.missing(name)),
        }
    }

    /// Read a real buffer into `out` (blocking; waits for every launch before it).
    pub fn read(&self, name: &str, out: &mut [f64]) -> Result<(), DeviceError> {
        match self.bufs.get(name) {
            Some(Buf::Real(b, n)) if out.len() <= *n => {
                // SAFETY: blocking read within the buffer's size into a host slice.
                let ev = unsafe {
                    self.built
                        .queue()
                        .enqueue_read_buffer(b, CL_BLOCKING, 0, out, &[])
                }
                .map_err(self.err("clEnqueueReadBuffer"))?;
                self.note(READ, out.len() as u64, false, ev);
                self.drain()
            }
            _ => Err(self.missing(name)),
        }
    }

    /// Read several real buffers with one wait: every read is queued without blocking, then
    /// `between` runs (work it queues runs after the reads, in queue order, and overlaps the
    /// host's wait), then the host waits for the last read. One host round trip instead of
    /// one per buffer; the values are those of blocking reads at the same point in the queue.
    pub fn read_all_then(
        &self,
        reads: &mut [(&str, &mut [f64])],
        between: impl FnOnce() -> Result<(), DeviceError>,
    ) -> Result<(), DeviceError> {
        // With profiling on, every read event goes to the profile and the host waits for the
        // whole queue; otherwise it waits for the last read only (the queue is in order).
        let profiling = self.profiling();
        let mut last: Option<Event> = None;
        let mut queued = Ok(());
        for (name, out) in reads.iter_mut() {
            match self.bufs.get(*name) {
                Some(Buf::Real(b, n)) if out.len() <= *n => {
                    // SAFETY: a read within the buffer's size into a host slice that outlives
                    // it: every path below waits for the read before `reads` is released.
                    let ev = unsafe {
                        self.built
                            .queue()
                            .enqueue_read_buffer(b, CL_NON_BLOCKING, 0, out, &[])
                    };
                    match ev {
                        Ok(ev) if profiling => self.note(READ, out.len() as u64, false, ev),
                        Ok(ev) => last = Some(ev),
                        Err(e) => {
                            queued = Err(self.err("clEnqueueReadBuffer")(e));
                            break;
                        }
                    }
                }
                _ => {
                    queued = Err(self.missing(name));
                    break;
                }
            }
        }
        let result = queued.and_then(|()| between());
        // Wait for the reads, also on an error: the host slices must outlive them.
        let waited = match (&result, last) {
            (Ok(()), Some(ev)) => ev.wait().map_err(self.err("clWaitForEvents")),
            _ => self.built.queue().finish().map_err(self.err("clFinish")),
        };
        result?;
        waited?;
        self.drain()
    }

    /// Read `out.len()` values of a real buffer from element `offset` on into `out`
    /// (blocking; waits for every launch before it).
    pub fn read_at(&self, name: &str, offset: usize, out: &mut [f64]) -> Result<(), DeviceError> {
        match self.bufs.get(name) {
            Some(Buf::Real(b, n)) if offset + out.len() <= *n => {
                if out.is_empty() {
                    return Ok(());
                }
                // SAFETY: blocking read of elements offset..offset+out.len() ≤ n (byte offset)
                // into a host slice of that length.
                unsafe {
                    self.built
                        .queue()
                        .enqueue_read_buffer(b, CL_BLOCKING, 8 * offset, out, &[])
                }
                .map(|_| ())
                .map_err(self.err("clEnqueueReadBuffer"))
            }
            _ => Err(self.missing(&format!(
                "{name} (a real buffer of {} values)",
                offset + out.len()
            ))),
        }
    }

    /// Device-side copy of a whole real buffer into another of the same size (queued).
    pub fn copy(&mut self, src: &str, dst: &str) -> Result<(), DeviceError> {
        let Some(mut to) = self.bufs.remove(dst) else {
            return Err(self.missing(dst));
        };
        let result = match (self.bufs.get(src), &mut to) {
            (Some(Buf::Real(a, n)), Buf::Real(b, m)) if n == m && !self.recording() => {
                // No event when nothing keeps it (as `enqueue_quiet` in kernels.rs). Sound:
                // both buffers are live and hold n doubles; the in-order queue orders it.
                super::kernels::quiet_status(cl3::load_library().as_ref().ok().and_then(|rt| {
                    rt.clEnqueueCopyBuffer(
                        self.built.queue().get(),
                        a.get(),
                        b.get(),
                        0,
                        0,
                        8 * *n,
                        0,
                        std::ptr::null(),
                        std::ptr::null_mut(),
                    )
                }))
                .map_err(self.err("clEnqueueCopyBuffer"))
            }
            (Some(Buf::Real(a, n)), Buf::Real(b, m)) if n == m => {
                // SAFETY: both buffers hold n doubles; the in-order queue orders the copy.
                unsafe {
                    self.built
                        .queue()
                        .enqueue_copy_buffer(a, b, 0, 0, 8 * *n, &[])
                }
                .map(|ev| self.note(COPY, *n as u64, false, ev))
                .map_err(self.err("clEnqueueCopyBuffer"))
            }
            _ => Err(self.missing(&format!("{src} (a real buffer the size of {dst})"))),
        };
        self.bufs.insert(dst.to_string(), to);
        if result.is_ok() {
            self.trace(TraceOp::Copy {
                src: src.to_string(),
                dst: dst.to_string(),
            });
        }
        result
    }
}
