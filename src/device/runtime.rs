//! Persistent device buffers and kernels bound to them by argument name.
//!
//! A [`Runtime`] owns a built program and named buffers. A kernel is bound once: each of its
//! arguments (read from the program with `-cl-kernel-arg-info`) is matched by name to a
//! buffer, so a kernel signature and the host can never disagree silently (STYLE §7). All
//! launches go to the in-order queue without waiting; reads block.
//!
//! Two optional recorders serve `simplets bench`: [`Runtime::set_profiling`] accumulates the
//! device time of every command per kernel name from OpenCL profiling events
//! ([`Profile`]), and [`Runtime::set_recording`] keeps the command sequence with the kernels'
//! argument bindings for the kernel-count trace ([`TraceOp`], `src/bench/trace.rs`). Both are
//! off in normal runs.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::ptr;

use opencl3::error_codes::ClError;
use opencl3::event::Event;
use opencl3::kernel::Kernel;
use opencl3::memory::{Buffer, ClMem, CL_MEM_READ_WRITE};
use opencl3::types::{cl_double, cl_int, CL_BLOCKING, CL_NON_BLOCKING};

use super::program::BuiltProgram;
use super::select::cl_error_name;
use crate::error::DeviceError;

enum Buf {
    Real(Buffer<cl_double>, usize),
    Int(Buffer<cl_int>, usize),
}

impl Buf {
    fn mem(&self) -> opencl3::types::cl_mem {
        match self {
            Buf::Real(b, _) => b.get(),
            Buf::Int(b, _) => b.get(),
        }
    }
}

/// Device time of one kind of command, summed over its launches.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CommandTime {
    /// Commands (kernel launches, copies or reads) summed here.
    pub launches: u64,
    /// Work-items over all launches (elements for copies and reads).
    pub items: u64,
    /// True if launched with an explicit work-group size (groups that loop over cells).
    pub grouped: bool,
    /// Device seconds, start to end of each command, summed.
    pub seconds: f64,
}

/// Device time per kernel name (every instance of a kernel under its kernel name), plus
/// [`COPY`] and [`READ`] for buffer copies and reads.
pub type Profile = BTreeMap<String, CommandTime>;

/// [`Profile`] key of device-side buffer copies (`clEnqueueCopyBuffer`).
pub const COPY: &str = "(copy buffer)";
/// [`Profile`] key of blocking reads to the host (residual maxima, fields).
pub const READ: &str = "(read buffer)";

/// One recorded command (see [`Runtime::set_recording`]).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum TraceOp {
    /// A kernel instance over `global` work-items in groups of `local` (driver's choice when
    /// absent).
    Launch {
        /// Instance name (see [`Runtime::bind_as`]).
        instance: String,
        /// Global size per dimension.
        global: Vec<usize>,
        /// Work-group size per dimension, if given.
        local: Option<Vec<usize>>,
    },
    /// A whole-buffer copy.
    Copy {
        /// Source buffer.
        src: String,
        /// Destination buffer.
        dst: String,
    },
}

/// One argument of a bound kernel instance.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ArgBinding {
    /// Parameter name in the kernel source.
    pub arg: String,
    /// Buffer bound to it.
    pub buffer: String,
    /// OpenCL type name as the driver reports it (`double*`, `int*`, …).
    pub type_name: String,
}

struct Pending {
    key: String,
    items: u64,
    grouped: bool,
    event: Event,
}

#[derive(Default)]
struct Recorders {
    /// Profiling: commands not yet resolved, and the totals so far.
    profile: Option<(Vec<Pending>, Profile)>,
    trace: Option<Vec<TraceOp>>,
}

/// A program with named buffers and bound kernels on one device.
pub struct Runtime {
    built: BuiltProgram,
    bufs: HashMap<String, Buf>,
    kernels: HashMap<String, Kernel>,
    /// Instance → (kernel name, argument bindings).
    bindings: HashMap<String, (String, Vec<ArgBinding>)>,
    rec: RefCell<Recorders>,
    bytes: u64,
}

impl Runtime {
    /// Wrap a built program.
    pub fn new(built: BuiltProgram) -> Runtime {
        Runtime {
            built,
            bufs: HashMap::new(),
            kernels: HashMap::new(),
            bindings: HashMap::new(),
            rec: RefCell::new(Recorders::default()),
            bytes: 0,
        }
    }

    /// Start (or stop) accumulating device time per kernel from profiling events; switches
    /// the queue's profiling on or off. Starting clears the totals.
    pub fn set_profiling(&mut self, on: bool) -> Result<(), DeviceError> {
        self.built.set_profiling(on)?;
        self.rec.get_mut().profile = on.then(|| (Vec::new(), Profile::new()));
        Ok(())
    }

    /// The device times accumulated since profiling started (waits for queued commands).
    pub fn profile(&self) -> Result<Profile, DeviceError> {
        self.finish()?;
        Ok(self
            .rec
            .borrow()
            .profile
            .as_ref()
            .map(|p| p.1.clone())
            .unwrap_or_default())
    }

    /// Clear the accumulated device times (profiling stays on).
    pub fn reset_profile(&self) -> Result<(), DeviceError> {
        self.finish()?;
        if let Some(p) = self.rec.borrow_mut().profile.as_mut() {
            p.1.clear();
        }
        Ok(())
    }

    /// Start (or stop) recording the commands queued, for a kernel-count trace.
    pub fn set_recording(&mut self, on: bool) {
        self.rec.get_mut().trace = on.then(Vec::new);
    }

    /// The commands recorded since recording started.
    pub fn recorded(&self) -> Vec<TraceOp> {
        self.rec.borrow().trace.clone().unwrap_or_default()
    }

    /// Kernel instances: instance name → (kernel name, argument bindings).
    pub fn bindings(&self) -> &HashMap<String, (String, Vec<ArgBinding>)> {
        &self.bindings
    }

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

    /// Keep `event` for the profile under `key` (profiling on), else drop it.
    fn note(&self, key: &str, items: u64, grouped: bool, event: Event) {
        if let Some((pending, _)) = self.rec.borrow_mut().profile.as_mut() {
            pending.push(Pending {
                key: key.to_string(),
                items,
                grouped,
                event,
            });
        }
    }

    fn trace(&self, op: TraceOp) {
        if let Some(t) = self.rec.borrow_mut().trace.as_mut() {
            t.push(op);
        }
    }

    /// Move the times of completed pending commands into the totals.
    fn drain(&self) -> Result<(), DeviceError> {
        let mut rec = self.rec.borrow_mut();
        let Some((pending, done)) = rec.profile.as_mut() else {
            return Ok(());
        };
        for p in pending.drain(..) {
            p.event.wait().map_err(self.err("clWaitForEvents"))?;
            let t0 = p
                .event
                .profiling_command_start()
                .map_err(self.err("clGetEventProfilingInfo"))?;
            let t1 = p
                .event
                .profiling_command_end()
                .map_err(self.err("clGetEventProfilingInfo"))?;
            let e = done.entry(p.key).or_default();
            e.launches += 1;
            e.items += p.items;
            e.grouped |= p.grouped;
            e.seconds += t1.saturating_sub(t0) as f64 * 1e-9;
        }
        Ok(())
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

    fn api_err(&self, call: &'static str, code: i32) -> DeviceError {
        self.err(call)(ClError(code))
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
        let profiling = self.rec.borrow().profile.is_some();
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
        let mut args = Vec::with_capacity(n as usize);
        for a in 0..n {
            let arg = k.get_arg_name(a).map_err(self.err("clGetKernelArgInfo"))?;
            let name = rename
                .iter()
                .find(|(from, _)| *from == arg)
                .map_or(arg.as_str(), |r| r.1);
            let buf = self.bufs.get(name).ok_or_else(|| self.missing(name))?;
            // SAFETY: the argument is a __global pointer bound to a live buffer we own.
            unsafe { k.set_arg(a, &buf.mem()) }.map_err(self.err("clSetKernelArg"))?;
            let type_name = k.get_arg_type_name(a).unwrap_or_default();
            args.push(ArgBinding {
                buffer: name.to_string(),
                arg,
                type_name,
            });
        }
        self.kernels.insert(instance.to_string(), k);
        self.bindings
            .insert(instance.to_string(), (kernel.to_string(), args));
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
        let ev = unsafe {
            self.built.queue().enqueue_nd_range_kernel(
                k.get(),
                2,
                ptr::null(),
                global.as_ptr(),
                local.as_ptr(),
                &[],
            )
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        self.launched(name, &global, Some(&local), ev);
        Ok(())
    }

    /// Profile and trace a launched kernel instance.
    fn launched(&self, instance: &str, global: &[usize], local: Option<&[usize]>, ev: Event) {
        let kernel = self
            .bindings
            .get(instance)
            .map_or(instance, |b| b.0.as_str());
        let items = global.iter().product::<usize>() as u64;
        self.note(kernel, items, local.is_some(), ev);
        self.trace(TraceOp::Launch {
            instance: instance.to_string(),
            global: global.to_vec(),
            local: local.map(<[usize]>::to_vec),
        });
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
        let ev = unsafe {
            self.built
                .queue()
                .enqueue_nd_range_kernel(k.get(), 1, ptr::null(), &global, lp, &[])
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        self.launched(
            name,
            &[global],
            local.as_ref().map(std::slice::from_ref),
            ev,
        );
        Ok(())
    }

    /// Run kernel `name` over `global` work-items (blocking) and return its device time in
    /// seconds from the queue's profiling events (turn them on first with
    /// [`Runtime::set_profiling`]).
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
        self.built.queue().finish().map_err(self.err("clFinish"))?;
        self.drain()
    }
}

/// Per-kernel profiling of a device backend, as `simplets bench` uses it: the narrow view of a
/// [`Runtime`] that the solver seam exposes.
pub trait Profiling {
    /// Recreate the queue with (or without) profiling; buffers and kernels stay valid.
    fn set_profiling(&mut self, on: bool) -> Result<(), DeviceError>;
    /// Device time per kernel (and per copy and read) since profiling was turned on.
    fn profile(&self) -> Result<Profile, DeviceError>;
    /// Device memory held by the backend's buffers, bytes.
    fn device_bytes(&self) -> u64;
}

impl Profiling for Runtime {
    fn set_profiling(&mut self, on: bool) -> Result<(), DeviceError> {
        Runtime::set_profiling(self, on)
    }
    fn profile(&self) -> Result<Profile, DeviceError> {
        Runtime::profile(self)
    }
    fn device_bytes(&self) -> u64 {
        self.bytes()
    }
}
