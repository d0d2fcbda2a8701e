//! The kernels of a [`Runtime`]: each argument bound by name to the buffer of that name
//! (or a renamed one), launched on the in-order queue and noted for the recorders.

use std::collections::HashMap;
use std::ptr;
use std::sync::OnceLock;

use opencl3::error_codes::ClError;
use opencl3::event::Event;
use opencl3::kernel::Kernel;

use super::record::{ArgBinding, TraceOp};
use super::Runtime;
use crate::error::DeviceError;

/// Environment variable that makes every launch ask for an event even when nothing keeps it
/// (`1`), so one run can time both ways of launching (`simplets bench`).
pub const LAUNCH_EVENTS_ENV: &str = "SIMPLETS_LAUNCH_EVENTS";

/// Whether launches ask for an event they do not keep ([`LAUNCH_EVENTS_ENV`]).
fn events_forced() -> bool {
    static FORCED: OnceLock<bool> = OnceLock::new();
    *FORCED.get_or_init(|| std::env::var(LAUNCH_EVENTS_ENV).is_ok_and(|v| v == "1"))
}

/// The result of a raw OpenCL call through the loaded runtime: `None` when the runtime or
/// the entry point could not be loaded.
pub(super) fn quiet_status(status: Option<i32>) -> Result<(), ClError> {
    match status {
        Some(0) => Ok(()),
        Some(code) => Err(ClError(code)),
        None => Err(ClError(cl3::error_codes::DLOPEN_FUNCTION_NOT_AVAILABLE)),
    }
}

/// The device's limits for kernel `name` at debug level: its largest work-group (on NVIDIA
/// it falls with the registers the kernel takes), its local and private memory per item.
fn log_limits(k: &Kernel, name: &str, dev: opencl3::types::cl_device_id) {
    if log::log_enabled!(log::Level::Debug) {
        log::debug!(
            "kernel {name}: work-group at most {}, local {} B, private {} B",
            k.get_work_group_size(dev).unwrap_or(0),
            k.get_local_mem_size(dev).unwrap_or(0),
            k.get_private_mem_size(dev).unwrap_or(0)
        );
    }
}

impl Runtime {
    /// Kernel instances: instance name → (kernel name, argument bindings).
    pub fn bindings(&self) -> &HashMap<String, (String, Vec<ArgBinding>)> {
        &self.bindings
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
        log_limits(&k, kernel, self.built.device_id());
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

    /// Keep `program` (built in this runtime's context: [`BuiltProgram::sibling`]) and bind
    /// the already bound kernel instances `instances` anew to its kernels of the same names,
    /// each argument to the buffer it has now: the same launches, another build of the code.
    ///
    /// [`BuiltProgram::sibling`]: crate::device::BuiltProgram::sibling
    pub fn rebind_from(
        &mut self,
        program: opencl3::program::Program,
        instances: &[&str],
    ) -> Result<(), DeviceError> {
        let mut made = Vec::with_capacity(instances.len());
        for instance in instances {
            let Some((kernel, args)) = self.bindings.get(*instance) else {
                return Err(self.missing(instance));
            };
            let k = Kernel::create(&program, kernel).map_err(self.err("clCreateKernel"))?;
            for (a, binding) in args.iter().enumerate() {
                let buf = self
                    .bufs
                    .get(&binding.buffer)
                    .ok_or_else(|| self.missing(&binding.buffer))?;
                // SAFETY: the argument is a __global pointer bound to a live buffer we own,
                // the one the same argument of the main program's kernel has.
                unsafe { k.set_arg(a as u32, &buf.mem()) }.map_err(self.err("clSetKernelArg"))?;
            }
            made.push((instance.to_string(), k));
        }
        self.siblings.push(program);
        self.kernels.extend(made);
        Ok(())
    }

    /// Queue kernel instance `name` over a 2-D range `global` in work-groups of `local`.
    pub fn launch2(
        &self,
        name: &str,
        global: [usize; 2],
        local: [usize; 2],
    ) -> Result<(), DeviceError> {
        self.launch2_at(name, [0, 0], global, local)
    }

    /// [`Runtime::launch2`] over the part of a 2-D range that starts at `offset` (the global
    /// work offset: the items' global ids start there) and spans `global` items.
    pub fn launch2_at(
        &self,
        name: &str,
        offset: [usize; 2],
        global: [usize; 2],
        local: [usize; 2],
    ) -> Result<(), DeviceError> {
        self.launch_rect(name, offset, global, Some(local))
    }

    /// [`Runtime::launch2_at`] with the work-group shape `local`, or the driver's choice
    /// (`None`: any `global` then, not only multiples of a group).
    pub fn launch_rect(
        &self,
        name: &str,
        offset: [usize; 2],
        global: [usize; 2],
        local: Option<[usize; 2]>,
    ) -> Result<(), DeviceError> {
        let k = self.kernels.get(name).ok_or_else(|| self.missing(name))?;
        let off = if offset == [0, 0] {
            ptr::null()
        } else {
            offset.as_ptr()
        };
        let lp = local.as_ref().map_or(ptr::null(), |l| l.as_ptr());
        if !self.recording() && !events_forced() {
            return self.enqueue_quiet(k, off, &global, lp);
        }
        // SAFETY: every argument was bound to a buffer that lives as long as self; `off` and
        // `lp` are null or point at 2 sizes.
        let ev = unsafe {
            self.built
                .queue()
                .enqueue_nd_range_kernel(k.get(), 2, off, global.as_ptr(), lp, &[])
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        self.launched(name, &global, local.as_ref().map(|l| &l[..]), ev);
        Ok(())
    }

    /// Queue kernel `k` over `global` (its length is the dimension) without asking for an
    /// event: with no profile or trace recording nothing would keep it, and an event created
    /// and released per launch is host time on every launch of a loop-2 iteration. `offset`
    /// and `local` point at as many sizes as `global` has, or are null.
    fn enqueue_quiet(
        &self,
        k: &Kernel,
        offset: *const usize,
        global: &[usize],
        local: *const usize,
    ) -> Result<(), DeviceError> {
        // The loader's wrapper is a safe call; what makes it sound: the queue and kernel are
        // live, every argument of `k` was bound to a buffer that lives as long as self, and
        // `offset`, `global` and `local` hold `global.len()` sizes (or are null).
        quiet_status(cl3::load_library().as_ref().ok().and_then(|rt| {
            rt.clEnqueueNDRangeKernel(
                self.built.queue().get(),
                k.get(),
                global.len() as u32,
                offset,
                global.as_ptr(),
                local,
                0,
                ptr::null(),
                ptr::null_mut(),
            )
        }))
        .map_err(self.err("clEnqueueNDRangeKernel"))
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
        if !self.recording() && !events_forced() {
            return self.enqueue_quiet(k, ptr::null(), std::slice::from_ref(&global), lp);
        }
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
}
