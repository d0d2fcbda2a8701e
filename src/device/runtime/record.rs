//! The recorders of a [`Runtime`] for `simplets bench`: device time per kernel from profiling
//! events ([`Profile`]) and the command sequence with the kernels' argument bindings
//! ([`TraceOp`], [`ArgBinding`]).

use std::collections::BTreeMap;

use opencl3::event::Event;

use super::Runtime;
use crate::error::DeviceError;

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

/// A command whose profiling event is not resolved yet; with `beside`, two commands that
/// ran at once, timed together from the first start to the last end.
struct Pending {
    key: String,
    items: u64,
    grouped: bool,
    event: Event,
    beside: Option<Event>,
}

/// The recorders, each off (`None`) unless switched on.
#[derive(Default)]
pub(super) struct Recorders {
    /// Profiling: commands not yet resolved, and the totals so far.
    profile: Option<(Vec<Pending>, Profile)>,
    trace: Option<Vec<TraceOp>>,
}

impl Runtime {
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

    /// Whether a profile or a trace is being recorded (launches must then keep an event).
    pub(super) fn recording(&self) -> bool {
        let r = self.rec.borrow();
        r.profile.is_some() || r.trace.is_some()
    }

    /// Whether profiling is on.
    pub(super) fn profiling(&self) -> bool {
        self.rec.borrow().profile.is_some()
    }

    /// Start (or stop) recording the commands queued, for a kernel-count trace.
    pub fn set_recording(&mut self, on: bool) {
        self.rec.get_mut().trace = on.then(Vec::new);
    }

    /// The commands recorded since recording started.
    pub fn recorded(&self) -> Vec<TraceOp> {
        self.rec.borrow().trace.clone().unwrap_or_default()
    }

    /// Keep `event` for the profile under `key` (profiling on), else drop it.
    pub(super) fn note(&self, key: &str, items: u64, grouped: bool, event: Event) {
        self.note_span(key, items, grouped, event, None);
    }

    /// [`Runtime::note`] of `event` and the command `beside` that ran at once with it, as
    /// one command from the first start to the last end.
    pub(super) fn note_span(
        &self,
        key: &str,
        items: u64,
        grouped: bool,
        event: Event,
        beside: Option<Event>,
    ) {
        if let Some((pending, _)) = self.rec.borrow_mut().profile.as_mut() {
            pending.push(Pending {
                key: key.to_string(),
                items,
                grouped,
                event,
                beside,
            });
        }
    }

    /// Record `op` (recording on).
    pub(super) fn trace(&self, op: TraceOp) {
        if let Some(t) = self.rec.borrow_mut().trace.as_mut() {
            t.push(op);
        }
    }

    /// Move the times of completed pending commands into the totals.
    pub(super) fn drain(&self) -> Result<(), DeviceError> {
        let mut rec = self.rec.borrow_mut();
        let Some((pending, done)) = rec.profile.as_mut() else {
            return Ok(());
        };
        let span = |ev: &Event| -> Result<(u64, u64), DeviceError> {
            ev.wait().map_err(self.err("clWaitForEvents"))?;
            let t0 = ev
                .profiling_command_start()
                .map_err(self.err("clGetEventProfilingInfo"))?;
            let t1 = ev
                .profiling_command_end()
                .map_err(self.err("clGetEventProfilingInfo"))?;
            Ok((t0, t1))
        };
        for p in pending.drain(..) {
            let (mut t0, mut t1) = span(&p.event)?;
            if let Some(b) = &p.beside {
                let (b0, b1) = span(b)?;
                (t0, t1) = (t0.min(b0), t1.max(b1));
            }
            let e = done.entry(p.key).or_default();
            e.launches += 1;
            e.items += p.items;
            e.grouped |= p.grouped;
            e.seconds += t1.saturating_sub(t0) as f64 * 1e-9;
        }
        Ok(())
    }
}
