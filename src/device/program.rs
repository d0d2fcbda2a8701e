//! Building an assembled source for one device: context, queue, program, build log.
//!
//! On failure the full log (and the source it refers to) goes to `log_dir`, and the error
//! carries the first log line that contains `error`; thanks to the `#line` markers of
//! [`assemble`](super::source::assemble) it names `cl/<file>.cl:line`.

use std::path::Path;
use std::ptr;
use std::time::Instant;

use opencl3::command_queue::{CommandQueue, CL_QUEUE_PROFILING_ENABLE};
use opencl3::context::Context;
use opencl3::device::Device;
use opencl3::error_codes::ClError;
use opencl3::kernel::{ExecuteKernel, Kernel};
use opencl3::memory::{Buffer, ClMem, CL_MEM_COPY_HOST_PTR, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
use opencl3::program::Program;
use opencl3::types::{cl_device_id, cl_double, cl_int, cl_uint, CL_BLOCKING};

use super::cache::KernelCache;
use super::select::{cl_error_name, entries, DeviceInfo};
use super::source::{write_atomic, Defines};
use crate::error::DeviceError;

/// File name of the build log written to `log_dir`.
pub const BUILD_LOG_FILE: &str = "kernel-build.log";
/// File name of the assembled source written to `log_dir`.
pub const SOURCE_FILE: &str = "kernel-source.cl";

/// A program built for one device, with its context and in-order queue (profiling off unless
/// [`BuiltProgram::set_profiling`] turns it on: `simplets bench`, the triad probe), and a
/// second in-order queue where [`BuiltProgram::open_side_queue`] asked for one.
pub struct BuiltProgram {
    program: Program,
    queue: CommandQueue,
    /// The side queue: kernels queued there run beside those of the main queue
    /// (`Runtime::launch_beside`).
    side: Option<CommandQueue>,
    profiling: bool,
    context: Context,
    device_id: cl_device_id,
    device: DeviceInfo,
    options: String,
    log: String,
    build_seconds: f64,
    cache_hit: bool,
    cache_key: String,
    cache_enabled: bool,
}

/// `map_err` helper: an OpenCL failure in `call` on `device`.
fn api<'a>(device: &'a DeviceInfo, call: &'static str) -> impl Fn(ClError) -> DeviceError + 'a {
    move |ClError(code)| DeviceError::Api {
        device: device.name.clone(),
        call,
        code,
        name: cl_error_name(code),
    }
}

/// Build `source` with `defines` for `device` (a value from [`list_devices`](super::list_devices)).
///
/// With `log_dir`, the build log ([`BUILD_LOG_FILE`], warnings too) and the source
/// ([`SOURCE_FILE`]) are written there whether or not the build succeeds.
pub fn build(
    device: &DeviceInfo,
    source: &str,
    defines: &Defines,
    log_dir: Option<&Path>,
) -> Result<BuiltProgram, DeviceError> {
    build_cached(device, source, defines, log_dir, None)
}

/// [`build`] with a kernel binary cache: a cached binary for the same device, driver, options
/// and source is loaded instead of compiling; after a source build the binary is stored.
pub fn build_cached(
    device: &DeviceInfo,
    source: &str,
    defines: &Defines,
    log_dir: Option<&Path>,
    cache: Option<&KernelCache>,
) -> Result<BuiltProgram, DeviceError> {
    let listed = entries()?;
    let entry = listed.iter().find(|e| e.info == *device).ok_or_else(|| {
        let available = listed
            .iter()
            .map(|e| e.info.name.as_str())
            .collect::<Vec<_>>();
        DeviceError::NoDevice {
            selector: device.name.clone(),
            available: available.join("; "),
        }
    })?;
    let id = entry.id();
    let context = Context::from_device(&Device::new(id)).map_err(api(device, "clCreateContext"))?;
    // clCreateCommandQueue (1.2) works on every platform, 2.0+ ones included. No profiling:
    // timestamps cost per command, and only `simplets bench` asks for them.
    let queue =
        CommandQueue::create_default(&context, 0).map_err(api(device, "clCreateCommandQueue"))?;
    let mut options = defines.to_options();
    if let Ok(value) = std::env::var(super::source::EXTRA_OPTIONS_ENV) {
        let extra = super::source::extra_options(&value)?;
        if !extra.is_empty() {
            options = format!("{options} {extra}");
        }
    }
    let c = compile(&context, id, device, source, &options, log_dir, cache)?;
    Ok(BuiltProgram {
        program: c.program,
        queue,
        side: None,
        profiling: false,
        context,
        device_id: id,
        device: device.clone(),
        options,
        log: c.log,
        build_seconds: c.seconds,
        cache_hit: c.hit,
        cache_enabled: cache.is_some(),
        cache_key: c.key,
    })
}

/// A program compiled (or loaded from the cache) in a context.
struct Compiled {
    program: Program,
    log: String,
    seconds: f64,
    hit: bool,
    key: String,
}

/// Build `source` with `options` for device `id` in `context`: from the kernel cache when it
/// holds the binary, else from source (the log and source written to `log_dir` on failure or
/// when given; the binary stored in the cache).
fn compile(
    context: &Context,
    id: cl_device_id,
    device: &DeviceInfo,
    source: &str,
    options: &str,
    log_dir: Option<&Path>,
    cache: Option<&KernelCache>,
) -> Result<Compiled, DeviceError> {
    let key = KernelCache::key(device, source, options);
    let start = Instant::now();
    if let Some(hit) = cache.and_then(|c| from_binary(c, &key, context, id, options)) {
        log::info!("kernels for {} loaded from the cache ({key})", device.name);
        return Ok(Compiled {
            program: hit,
            log: String::new(),
            seconds: start.elapsed().as_secs_f64(),
            hit: true,
            key,
        });
    }
    log::info!("building kernels for {} (not in the cache)", device.name);
    let mut program = Program::create_from_source(context, source)
        .map_err(api(device, "clCreateProgramWithSource"))?;
    let built = program.build(&[id], options);
    let seconds = start.elapsed().as_secs_f64();
    let log = super::source::locate(&program.get_build_log(id).unwrap_or_default(), source);
    let log_path = match log_dir {
        Some(dir) => Some(write_logs(dir, device, options, &log, source)?),
        None => None,
    };
    if let Err(ClError(code)) = built {
        let first_error = first_error(&log)
            .unwrap_or_else(|| format!("clBuildProgram returned {code} ({})", cl_error_name(code)));
        let log_path =
            log_path.unwrap_or_else(|| "not written; give a log directory to keep it".to_string());
        return Err(DeviceError::Build {
            device: device.name.clone(),
            log_path,
            first_error,
        });
    }
    log::info!("kernels built for {} in {seconds:.2} s", device.name);
    if let Some(c) = cache {
        match program.get_binaries() {
            Ok(bins) if bins.first().is_some_and(|b| !b.is_empty()) => c.store(&key, &bins[0]),
            _ => log::debug!("kernel cache: {} gives no program binary", device.name),
        }
    }
    if log.contains("warning") {
        let at = log_path.as_deref().unwrap_or("the debug log");
        log::warn!("kernel build on {} has warnings; see {at}", device.name);
        log::debug!("kernel build log:\n{log}");
    }
    Ok(Compiled {
        program,
        log,
        seconds,
        hit: false,
        key,
    })
}

/// A program from a cached binary, built for `id`; `None` if absent or rejected.
fn from_binary(
    cache: &KernelCache,
    key: &str,
    context: &Context,
    id: cl_device_id,
    options: &str,
) -> Option<Program> {
    let bin = cache.load(key)?;
    // SAFETY: the binary is handed to the driver, which validates it; a rejected binary is an
    // error code, not undefined behaviour.
    let program = unsafe { Program::create_from_binary(context, &[id], &[&bin]) };
    match program {
        Ok(mut p) => match p.build(&[id], options) {
            Ok(()) => Some(p),
            Err(e) => {
                log::warn!("kernel cache: binary {key} rejected at build ({e}); rebuilding");
                None
            }
        },
        Err(e) => {
            log::warn!("kernel cache: binary {key} rejected ({e}); rebuilding");
            None
        }
    }
}

/// Write the log (with a header naming device and options) and the source; the log's path.
fn write_logs(
    dir: &Path,
    device: &DeviceInfo,
    options: &str,
    log: &str,
    source: &str,
) -> Result<String, DeviceError> {
    let path = dir.join(BUILD_LOG_FILE);
    let text = format!(
        "device: {} ({}, driver {})\noptions: {options}\nsource: {SOURCE_FILE}\n\n{log}\n",
        device.name, device.platform_name, device.driver_version
    );
    write_atomic(&path, &text)?;
    write_atomic(&dir.join(SOURCE_FILE), source)?;
    Ok(path.display().to_string())
}

/// The first log line containing `error` (any case), trimmed.
pub fn first_error(log: &str) -> Option<String> {
    log.lines()
        .find(|l| l.to_lowercase().contains("error"))
        .map(|l| l.trim().to_string())
}

impl BuiltProgram {
    /// The device it was built for.
    pub fn device(&self) -> &DeviceInfo {
        &self.device
    }

    /// The build options used (see [`Defines::to_options`]).
    pub fn options(&self) -> &str {
        &self.options
    }

    /// The compiler's log (warnings; often empty).
    pub fn build_log(&self) -> &str {
        &self.log
    }

    /// True if the program came from the kernel cache.
    pub fn cache_hit(&self) -> bool {
        self.cache_hit
    }

    /// Wall time of `clBuildProgram`, in seconds.
    pub fn build_seconds(&self) -> f64 {
        self.build_seconds
    }

    /// The kernel cache key of this build ([`KernelCache::key`]: device, driver, options and
    /// source), whether or not a cache was used.
    pub fn cache_key(&self) -> &str {
        &self.cache_key
    }

    /// `hit`, `miss` (built from source and stored) or `disabled` (no cache given).
    pub fn cache_status(&self) -> &'static str {
        match (self.cache_enabled, self.cache_hit) {
            (_, true) => "hit",
            (true, false) => "miss",
            (false, false) => "disabled",
        }
    }

    /// The kernels the program defines.
    pub fn kernel_names(&self) -> Vec<String> {
        self.program
            .kernel_names()
            .split(';')
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect()
    }

    /// Another program of `source` in this program's context, so that its kernels can take
    /// this program's buffers: built with this program's options and `extra` after them (e.g.
    /// a register cap for some of the kernels), through the kernel cache `cache`.
    pub fn sibling(
        &self,
        source: &str,
        extra: &str,
        cache: Option<&KernelCache>,
    ) -> Result<Program, DeviceError> {
        let options = format!("{} {extra}", self.options);
        let c = compile(
            &self.context,
            self.device_id,
            &self.device,
            source,
            &options,
            None,
            cache,
        )?;
        Ok(c.program)
    }

    /// The OpenCL context (for buffers).
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// The in-order queue.
    pub fn queue(&self) -> &CommandQueue {
        &self.queue
    }

    /// True if the queue records profiling timestamps.
    pub fn profiling(&self) -> bool {
        self.profiling
    }

    /// Replace the queue by one with (or without) `CL_QUEUE_PROFILING_ENABLE`, after waiting
    /// for everything queued. Buffers and kernels belong to the context and stay valid.
    pub fn set_profiling(&mut self, on: bool) -> Result<(), DeviceError> {
        if on == self.profiling {
            return Ok(());
        }
        let d = &self.device;
        self.queue.finish().map_err(api(d, "clFinish"))?;
        let props = if on { CL_QUEUE_PROFILING_ENABLE } else { 0 };
        self.queue = CommandQueue::create_default(&self.context, props)
            .map_err(api(d, "clCreateCommandQueue"))?;
        if let Some(side) = self.side.as_mut() {
            side.finish().map_err(api(d, "clFinish"))?;
            *side = CommandQueue::create_default(&self.context, props)
                .map_err(api(d, "clCreateCommandQueue"))?;
        }
        self.profiling = on;
        Ok(())
    }

    /// Create the side queue (in-order, profiling as the main queue's), if there is none.
    pub fn open_side_queue(&mut self) -> Result<(), DeviceError> {
        if self.side.is_none() {
            let props = if self.profiling {
                CL_QUEUE_PROFILING_ENABLE
            } else {
                0
            };
            self.side = Some(
                CommandQueue::create_default(&self.context, props)
                    .map_err(api(&self.device, "clCreateCommandQueue"))?,
            );
        }
        Ok(())
    }

    /// The side queue, where one was opened ([`BuiltProgram::open_side_queue`]).
    pub fn side_queue(&self) -> Option<&CommandQueue> {
        self.side.as_ref()
    }

    /// The built program (for kernels).
    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The `cl_device_id`.
    pub fn device_id(&self) -> cl_device_id {
        self.device_id
    }

    /// Run a probe kernel `name(__global const real* a, __global real* b)` with one work-item
    /// per element of `b` (`n_out` of them) and return `b`. For tests of the pipeline and of
    /// fragments (STYLE §5); `a` is zero-padded to `n_out` values.
    pub fn run_probe(&self, name: &str, a: &[f64], n_out: usize) -> Result<Vec<f64>, DeviceError> {
        let d = &self.device;
        let mut b = vec![0.0; n_out];
        if n_out == 0 {
            return Ok(b);
        }
        let kernel = Kernel::create(&self.program, name).map_err(api(d, "clCreateKernel"))?;
        let n_args = kernel.num_args().map_err(api(d, "clGetKernelInfo"))?;
        if n_args != 2 {
            // CL_INVALID_KERNEL_ARGS: not the probe signature.
            return Err(api(d, "probe kernel signature check")(ClError(-52)));
        }
        // `a` zero-padded to n_out, so a kernel reading a[k] for every k stays in bounds.
        let mut a_host = a.to_vec();
        a_host.resize(a.len().max(n_out), 0.0);
        // SAFETY: buffer sizes match the host slices; transfers are blocking, so the slices
        // outlive them; the probe contract has item k touch a[k] and b[k] only, k < n_out.
        unsafe {
            let mut a_buf = Buffer::<cl_double>::create(
                &self.context,
                CL_MEM_READ_ONLY,
                a_host.len(),
                ptr::null_mut(),
            )
            .map_err(api(d, "clCreateBuffer"))?;
            let b_buf = Buffer::<cl_double>::create(
                &self.context,
                CL_MEM_WRITE_ONLY,
                n_out,
                ptr::null_mut(),
            )
            .map_err(api(d, "clCreateBuffer"))?;
            self.queue
                .enqueue_write_buffer(&mut a_buf, CL_BLOCKING, 0, &a_host, &[])
                .map_err(api(d, "clEnqueueWriteBuffer"))?;
            ExecuteKernel::new(&kernel)
                .set_arg(&a_buf)
                .set_arg(&b_buf)
                .set_global_work_size(n_out)
                .enqueue_nd_range(&self.queue)
                .map_err(api(d, "clEnqueueNDRangeKernel"))?
                .wait()
                .map_err(api(d, "clWaitForEvents"))?;
            self.queue
                .enqueue_read_buffer(&b_buf, CL_BLOCKING, 0, &mut b, &[])
                .map_err(api(d, "clEnqueueReadBuffer"))?;
        }
        Ok(b)
    }

    /// Run kernel `name` with arguments `(real inputs…, int inputs…, __global real* out)`, one
    /// read-only buffer per input slice in order, over `global` work-items (1-D, local size
    /// left to the driver), and return `out` (`n_out` values, zero before the run). For probe
    /// kernels of the fragments (`cl/simple_ts/kernels/probe_fragments.cl`, STYLE §5).
    ///
    /// The kernel must take exactly `inputs.len() + int_inputs.len() + 1` arguments
    /// (else `Api { call: "kernel signature check", code: -52 }`); it must keep its reads
    /// within each slice and its writes within `n_out`. An empty slice becomes a one-value
    /// buffer (OpenCL has no empty buffers).
    pub fn run_kernel(
        &self,
        name: &str,
        inputs: &[&[f64]],
        int_inputs: &[&[i32]],
        n_out: usize,
        global: usize,
    ) -> Result<Vec<f64>, DeviceError> {
        let d = &self.device;
        let mut out = vec![0.0; n_out];
        if n_out == 0 || global == 0 {
            return Ok(out);
        }
        let kernel = Kernel::create(&self.program, name).map_err(api(d, "clCreateKernel"))?;
        let n_args = kernel.num_args().map_err(api(d, "clGetKernelInfo"))? as usize;
        if n_args != inputs.len() + int_inputs.len() + 1 {
            // CL_INVALID_KERNEL_ARGS: not (reals…, ints…, out).
            return Err(api(d, "kernel signature check")(ClError(-52)));
        }
        // SAFETY: every buffer is created from (and sized by) its host slice and copied at
        // creation; the kernel's bounds are the caller's contract above; transfers and the
        // run are blocking, so nothing outlives the host data it refers to.
        unsafe {
            let reals = inputs
                .iter()
                .map(|x| self.input_buffer::<cl_double>(x))
                .collect::<Result<Vec<_>, _>>()?;
            let ints = int_inputs
                .iter()
                .map(|x| self.input_buffer::<cl_int>(x))
                .collect::<Result<Vec<_>, _>>()?;
            let out_buf = Buffer::<cl_double>::create(
                &self.context,
                CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR,
                n_out,
                out.as_mut_ptr().cast(),
            )
            .map_err(api(d, "clCreateBuffer"))?;
            let set = api(d, "clSetKernelArg");
            let mut k: cl_uint = 0;
            for b in &reals {
                kernel.set_arg(k, &b.get()).map_err(&set)?;
                k += 1;
            }
            for b in &ints {
                kernel.set_arg(k, &b.get()).map_err(&set)?;
                k += 1;
            }
            kernel.set_arg(k, &out_buf.get()).map_err(&set)?;
            self.queue
                .enqueue_nd_range_kernel(kernel.get(), 1, ptr::null(), &global, ptr::null(), &[])
                .map_err(api(d, "clEnqueueNDRangeKernel"))?
                .wait()
                .map_err(api(d, "clWaitForEvents"))?;
            self.queue
                .enqueue_read_buffer(&out_buf, CL_BLOCKING, 0, &mut out, &[])
                .map_err(api(d, "clEnqueueReadBuffer"))?;
        }
        Ok(out)
    }

    /// A read-only buffer holding a copy of `data` (one zero value if `data` is empty).
    ///
    /// # Safety
    /// `T` must be the plain OpenCL type the kernel argument expects.
    unsafe fn input_buffer<T: Copy + Default>(&self, data: &[T]) -> Result<Buffer<T>, DeviceError> {
        let one = [T::default()];
        let host = if data.is_empty() { &one[..] } else { data };
        Buffer::<T>::create(
            &self.context,
            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
            host.len(),
            host.as_ptr() as *mut std::ffi::c_void,
        )
        .map_err(api(&self.device, "clCreateBuffer"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_error_skips_warnings() {
        let log = "cl/a.cl:2:1: warning: unused\n  cl/b.cl:3:5: error: bad token\nerror: 1 error\n";
        assert_eq!(first_error(log).unwrap(), "cl/b.cl:3:5: error: bad token");
        assert_eq!(first_error("all fine"), None);
    }
}
