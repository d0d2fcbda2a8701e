//! Kernel-count traces (`simplets bench --trace DIR`): everything needed to replay one time step
//! of an OpenCL backend in the counting build of the kernels (`scripts/count_kernels.py`):
//!
//! - `kernel.cl`: the assembled source; `trace.json`: its build options, the buffers (name,
//!   element size, length), every kernel instance with its argument bindings (from
//!   `clGetKernelArgInfo`), and the commands of the step in queue order ([`TraceOp`]);
//! - `buf/<name>.bin`: each buffer's contents before the step (little-endian f64 or i32), and
//!   `after/<name>.bin` after it.
//!
//! The replay runs the same kernels on the same data with the same NDRanges, so the counts it
//! produces are those of this step of this case; it checks its final buffers against
//! `after/`.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::device::{ArgBinding, Runtime, TraceOp};
use crate::error::DeviceError;

/// One buffer of a trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceBuffer {
    /// Buffer name.
    pub name: String,
    /// Element size: 8 (double) or 4 (int).
    pub elem: usize,
    /// Elements.
    pub len: usize,
}

/// One kernel instance of a trace.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TraceInstance {
    /// Kernel function name.
    pub kernel: String,
    /// Arguments in order.
    pub args: Vec<ArgBinding>,
}

/// `trace.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    /// `phase` or `fused`.
    pub form: String,
    /// Scheme (`implicit-upwind`, …).
    pub scheme: String,
    /// Case name.
    pub case: String,
    /// Stored cells (nx + 2)(ny + 2).
    pub stored_cells: u64,
    /// Fluid cells.
    pub fluid_cells: u64,
    /// FNV-1a 64 of `kernel.cl`, hex.
    pub source_hash: String,
    /// Build options (`-cl-std=CL1.2 -cl-kernel-arg-info -D …`).
    pub options: String,
    /// Every buffer.
    pub buffers: Vec<TraceBuffer>,
    /// Instance name → kernel and bindings (the instances the step launches).
    pub instances: std::collections::BTreeMap<String, TraceInstance>,
    /// The step's commands in queue order.
    pub ops: Vec<TraceOp>,
}

/// FNV-1a 64 of an assembled kernel source as 16 hex digits (the `source_hash` of traces and
/// of `src/bench/counts.json`).
pub fn source_hash(source: &str) -> String {
    format!(
        "{:016x}",
        crate::device::cache::fnv1a64(&[source.as_bytes()])
    )
}

fn io_err(rt: &Runtime, path: &Path, e: std::io::Error) -> DeviceError {
    DeviceError::Api {
        device: rt.program().device().name.clone(),
        call: "writing the kernel-count trace",
        code: 0,
        name: format!("{}: {e}", path.display()),
    }
}

/// Write the buffers of `rt` as they are now into `dir/<sub>/` (`buf` before the traced
/// step, `after` after it).
pub fn write_buffers(rt: &Runtime, dir: &Path, sub: &str) -> Result<(), DeviceError> {
    let bdir = dir.join(sub);
    std::fs::create_dir_all(&bdir).map_err(|e| io_err(rt, &bdir, e))?;
    for (name, elem, len) in rt.buffers() {
        let bytes: Vec<u8> = if elem == 8 {
            let mut v = vec![0.0f64; len];
            rt.read(&name, &mut v)?;
            v.iter().flat_map(|x| x.to_le_bytes()).collect()
        } else {
            let mut v = vec![0i32; len];
            rt.read_int(&name, &mut v)?;
            v.iter().flat_map(|x| x.to_le_bytes()).collect()
        };
        let path = bdir.join(format!("{name}.bin"));
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(&bytes))
            .map_err(|e| io_err(rt, &path, e))?;
    }
    Ok(())
}

/// Write `trace.json` and `kernel.cl` for the commands `ops` recorded on `rt`.
#[allow(clippy::too_many_arguments)]
pub fn write_trace(
    rt: &Runtime,
    dir: &Path,
    form: &str,
    scheme: &str,
    case: &str,
    cells: (u64, u64),
    source: &str,
    ops: Vec<TraceOp>,
) -> Result<Trace, DeviceError> {
    let used: std::collections::BTreeSet<&str> = ops
        .iter()
        .filter_map(|op| match op {
            TraceOp::Launch { instance, .. } => Some(instance.as_str()),
            TraceOp::Copy { .. } => None,
        })
        .collect();
    let instances = rt
        .bindings()
        .iter()
        .filter(|(name, _)| used.contains(name.as_str()))
        .map(|(name, (kernel, args))| {
            (
                name.clone(),
                TraceInstance {
                    kernel: kernel.clone(),
                    args: args.clone(),
                },
            )
        })
        .collect();
    let trace = Trace {
        form: form.to_string(),
        scheme: scheme.to_string(),
        case: case.to_string(),
        stored_cells: cells.0,
        fluid_cells: cells.1,
        source_hash: source_hash(source),
        options: rt.program().options().to_string(),
        buffers: rt
            .buffers()
            .into_iter()
            .map(|(name, elem, len)| TraceBuffer { name, elem, len })
            .collect(),
        instances,
        ops,
    };
    let text = serde_json::to_string_pretty(&trace).expect("trace serialises");
    for (file, body) in [("trace.json", text.as_str()), ("kernel.cl", source)] {
        let path = dir.join(file);
        std::fs::write(&path, body).map_err(|e| io_err(rt, &path, e))?;
    }
    Ok(trace)
}

/// The assembled kernel source of a SIMPLE-TS OpenCL form (`phase`, `fused`, `fused-lean`).
pub fn form_source(form: &str) -> String {
    if form.starts_with("fused") {
        crate::methods::simple_ts::opencl::fused::source()
    } else {
        crate::methods::simple_ts::opencl::phase::source()
    }
}

/// A kernel-count trace of one more step of the SIMPLE-TS OpenCL `backend` of `case`, in
/// `form`, into `dir`: the buffers before and after the step and the step's commands
/// (the input of `scripts/count_kernels.py`).
pub fn trace_step(
    backend: &mut dyn crate::methods::simple_ts::backend::Backend,
    case: &crate::methods::simple_ts::case::Case,
    form: &str,
    dir: &Path,
) -> Result<(), crate::error::RunError> {
    let name = backend.name();
    let (stored, fluid) = (
        backend.grid().len() as u64,
        backend.geometry().n_fluid as u64,
    );
    let not_device = || DeviceError::Api {
        device: name.clone(),
        call: "kernel-count trace",
        code: 0,
        name: "needs an OpenCL backend".into(),
    };
    std::fs::create_dir_all(dir).map_err(|e| DeviceError::Api {
        device: name.clone(),
        call: "creating the trace directory",
        code: 0,
        name: format!("{}: {e}", dir.display()),
    })?;
    {
        let rt = backend.runtime_mut().ok_or_else(not_device)?;
        rt.finish()?;
        write_buffers(rt, dir, "buf")?;
        rt.set_recording(true);
    }
    backend.step()?;
    let rt = backend.runtime_mut().ok_or_else(not_device)?;
    let ops = rt.recorded();
    rt.set_recording(false);
    write_buffers(rt, dir, "after")?;
    write_trace(
        rt,
        dir,
        form,
        &case.scheme.to_string(),
        &case.name,
        (stored, fluid),
        &form_source(form),
        ops,
    )?;
    Ok(())
}
