//! Persistent device buffers and kernels bound to them by argument name.
//!
//! A [`Runtime`] owns a built program and named buffers. A kernel is bound once: each of its
//! arguments (read from the program with `-cl-kernel-arg-info`) is matched by name to a
//! buffer, so a kernel signature and the host can never disagree silently (STYLE §7). All
//! launches go to the in-order queue without waiting; reads block.

use std::collections::HashMap;
use std::ptr;

use opencl3::error_codes::ClError;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::types::{cl_double, cl_int, CL_BLOCKING};

use super::program::BuiltProgram;
use super::select::cl_error_name;
use crate::error::DeviceError;

enum Buf {
    Real(Buffer<cl_double>, usize),
    Int(Buffer<cl_int>),
}

impl Buf {
    fn mem(&self) -> opencl3::types::cl_mem {
        match self {
            Buf::Real(b, _) => b.get(),
            Buf::Int(b) => b.get(),
        }
    }
}

/// A program with named buffers and bound kernels on one device.
pub struct Runtime {
    built: BuiltProgram,
    bufs: HashMap<String, Buf>,
    kernels: HashMap<String, Kernel>,
    bytes: u64,
}

impl Runtime {
    /// Wrap a built program.
    pub fn new(built: BuiltProgram) -> Runtime {
        Runtime {
            built,
            bufs: HashMap::new(),
            kernels: HashMap::new(),
            bytes: 0,
        }
    }

    /// The built program.
    pub fn program(&self) -> &BuiltProgram {
        &self.built
    }

    /// Device memory held by the buffers, bytes.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    fn err(&self, call: &'static str) -> impl Fn(ClError) -> DeviceError + '_ {
        move |ClError(code)| DeviceError::Api {
            device: self.built.device().name.clone(),
            call,
            code,
            name: cl_error_name(code),
        }
    }

    fn missing(&self, what: &str) -> DeviceError {
        DeviceError::Api {
            device: self.built.device().name.clone(),
            call: "buffer lookup",
            code: -38,
            name: format!("no buffer or kernel named {what}"),
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
        self.bufs.insert(name.to_string(), Buf::Int(b));
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

    fn api_err(&self, call: &'static str, code: i32) -> DeviceError {
        self.err(call)(ClError(code))
    }

    /// Read a real buffer into `out` (blocking; waits for every launch before it).
    pub fn read(&self, name: &str, out: &mut [f64]) -> Result<(), DeviceError> {
        match self.bufs.get(name) {
            Some(Buf::Real(b, n)) if out.len() <= *n => {
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
            (Some(Buf::Real(a, n)), Buf::Real(b, m)) if n == m => {
                // SAFETY: both buffers hold n doubles; the in-order queue orders the copy.
                unsafe {
                    self.built
                        .queue()
                        .enqueue_copy_buffer(a, b, 0, 0, 8 * *n, &[])
                }
                .map(|_| ())
                .map_err(self.err("clEnqueueCopyBuffer"))
            }
            _ => Err(self.missing(&format!("{src} (a real buffer the size of {dst})"))),
        };
        self.bufs.insert(dst.to_string(), to);
        result
    }

    /// Create kernel `name` and bind every argument to the buffer of the same name.
    pub fn bind(&mut self, name: &str) -> Result<(), DeviceError> {
        self.bind_as(name, name, &[])
    }

    /// Create kernel `kernel` as instance `instance`, binding each argument to the buffer of
    /// the same name unless `rename` maps the argument name to another buffer (ping-pong
    /// Jacobi buffers: one instance reads set A and writes B, another the reverse).
    pub fn bind_as(
        &mut self,
        instance: &str,
        kernel: &str,
        rename: &[(&str, &str)],
    ) -> Result<(), DeviceError> {
        let k = Kernel::create(self.built.program(), kernel).map_err(self.err("clCreateKernel"))?;
        let n = k.num_args().map_err(self.err("clGetKernelInfo"))?;
        for a in 0..n {
            let arg = k.get_arg_name(a).map_err(self.err("clGetKernelArgInfo"))?;
            let name = rename
                .iter()
                .find(|(from, _)| *from == arg)
                .map_or(arg.as_str(), |r| r.1);
            let buf = self.bufs.get(name).ok_or_else(|| self.missing(name))?;
            // SAFETY: the argument is a __global pointer bound to a live buffer we own.
            unsafe { k.set_arg(a, &buf.mem()) }.map_err(self.err("clSetKernelArg"))?;
        }
        self.kernels.insert(instance.to_string(), k);
        Ok(())
    }

    /// Queue kernel instance `name` over a 2-D range `global` in work-groups of `local`.
    pub fn launch2(
        &self,
        name: &str,
        global: [usize; 2],
        local: [usize; 2],
    ) -> Result<(), DeviceError> {
        let k = self.kernels.get(name).ok_or_else(|| self.missing(name))?;
        // SAFETY: every argument was bound to a buffer that lives as long as self.
        unsafe {
            self.built.queue().enqueue_nd_range_kernel(
                k.get(),
                2,
                ptr::null(),
                global.as_ptr(),
                local.as_ptr(),
                &[],
            )
        }
        .map(|_| ())
        .map_err(self.err("clEnqueueNDRangeKernel"))
    }

    /// Queue kernel `name` over a 1-D range of `global` work-items (rounded up to `local`
    /// when given; kernels guard their own range).
    pub fn launch(
        &self,
        name: &str,
        global: usize,
        local: Option<usize>,
    ) -> Result<(), DeviceError> {
        let k = self.kernels.get(name).ok_or_else(|| self.missing(name))?;
        let global = match local {
            Some(l) => global.div_ceil(l) * l,
            None => global,
        };
        let lp = local.as_ref().map_or(ptr::null(), |l| l as *const usize);
        // SAFETY: every argument was bound in `bind` to a buffer that lives as long as self.
        unsafe {
            self.built
                .queue()
                .enqueue_nd_range_kernel(k.get(), 1, ptr::null(), &global, lp, &[])
        }
        .map(|_| ())
        .map_err(self.err("clEnqueueNDRangeKernel"))
    }

    /// Run kernel `name` over `global` work-items (blocking) and return its device time in
    /// seconds from the queue's profiling events.
    pub fn time_kernel(&self, name: &str, global: usize) -> Result<f64, DeviceError> {
        let k = self.kernels.get(name).ok_or_else(|| self.missing(name))?;
        // SAFETY: every argument was bound to a buffer that lives as long as self.
        let ev = unsafe {
            self.built.queue().enqueue_nd_range_kernel(
                k.get(),
                1,
                ptr::null(),
                &global,
                ptr::null(),
                &[],
            )
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        ev.wait().map_err(self.err("clWaitForEvents"))?;
        let t0 = ev
            .profiling_command_start()
            .map_err(self.err("clGetEventProfilingInfo"))?;
        let t1 = ev
            .profiling_command_end()
            .map_err(self.err("clGetEventProfilingInfo"))?;
        Ok(t1.saturating_sub(t0) as f64 * 1e-9)
    }

    /// Wait for everything queued.
    pub fn finish(&self) -> Result<(), DeviceError> {
        self.built.queue().finish().map_err(self.err("clFinish"))
    }
}
