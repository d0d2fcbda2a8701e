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
//!
//! The code: `beside.rs` (two kernels at once, one on a side queue), `buffers.rs` (creating,
//! writing, reading and copying buffers), `blocks.rs`
//! (rectangles of buffers, with a staging buffer for narrow ones), `pinned.rs` (the pinned
//! host memory they cross the bus through), `kernels.rs`
//! (binding by name and launching), `record.rs` (the two recorders).

mod beside;
mod blocks;
mod buffers;
mod kernels;
mod pinned;
mod record;

use std::cell::RefCell;
use std::collections::HashMap;

use opencl3::error_codes::ClError;
use opencl3::kernel::Kernel;

use super::program::BuiltProgram;
use super::select::cl_error_name;
use crate::error::DeviceError;
use buffers::Buf;
use record::Recorders;

pub use beside::Range2;
pub use blocks::{overlap_setting, Block, PendingReads, OVERLAP_ENV};
pub use record::{ArgBinding, CommandTime, Profile, TraceOp, COPY, READ};

/// A program with named buffers and bound kernels on one device.
pub struct Runtime {
    built: BuiltProgram,
    bufs: HashMap<String, Buf>,
    kernels: HashMap<String, Kernel>,
    /// Instance → (kernel name, argument bindings).
    bindings: HashMap<String, (String, Vec<ArgBinding>)>,
    rec: RefCell<Recorders>,
    bytes: u64,
    /// Staging buffer of the narrow rectangles of [`Runtime::read_blocks`] and
    /// [`Runtime::write_blocks`] (allocated at the first one, grown when needed), its length.
    stage: Option<(opencl3::memory::Buffer<opencl3::types::cl_double>, usize)>,
    /// Pinned host memory of the rectangles read and written (`pinned::Area`), mapped at the
    /// first batch, grown when needed.
    pinned: [Option<pinned::Pinned>; 2],
    /// Completes when the last batch of [`Runtime::queue_writes`] has left the pinned area.
    writes_done: Option<opencl3::event::Event>,
    /// Programs of the same context whose kernels replace some of the main program's
    /// ([`Runtime::rebind_from`]: other build options, e.g. a register cap).
    siblings: Vec<opencl3::program::Program>,
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
            stage: None,
            pinned: [None, None],
            writes_done: None,
            siblings: Vec::new(),
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

    fn api_err(&self, call: &'static str, code: i32) -> DeviceError {
        self.err(call)(ClError(code))
    }

    /// Wait for everything queued (on both queues where there is a side queue).
    pub fn finish(&self) -> Result<(), DeviceError> {
        self.built.queue().finish().map_err(self.err("clFinish"))?;
        if let Some(side) = self.built.side_queue() {
            side.finish().map_err(self.err("clFinish"))?;
        }
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
