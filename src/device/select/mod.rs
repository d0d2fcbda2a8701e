//! Device discovery and selection, and the capacity checks a case must pass before upload.
//!
//! The OpenCL platforms are queried once per process (`OnceLock`): PoCL races when several
//! threads look devices up at once. Everything after the query is a pure function on
//! [`DeviceInfo`], so the error paths are unit-tested without special hardware.
//!
//! `SIMPLETS_OPENCL_DISABLE=1` makes [`list_devices`] behave as if the loader listed no
//! platform (for tests of the "no OpenCL" path on machines that have one).

use std::sync::OnceLock;

use opencl3::device::{
    Device, CL_DEVICE_TYPE_ACCELERATOR, CL_DEVICE_TYPE_ALL, CL_DEVICE_TYPE_CPU, CL_DEVICE_TYPE_GPU,
};
use opencl3::error_codes::{error_text, ClError};
use opencl3::platform::{get_platforms, Platform};
use opencl3::types::cl_device_id;

use crate::error::DeviceError;

/// Environment variable that hides every OpenCL platform from [`list_devices`] when set to `1`.
pub const DISABLE_ENV: &str = "SIMPLETS_OPENCL_DISABLE";

/// The ICD loader's "no platform" code, `CL_PLATFORM_NOT_FOUND_KHR`.
const CL_PLATFORM_NOT_FOUND_KHR: i32 = -1001;
/// cl3's code for "libOpenCL.so.1 could not be loaded" (dynamic feature).
const DLOPEN_RUNTIME_LOAD_FAILED: i32 = -2000;

/// What the solver needs to know about one OpenCL device, as reported by the driver.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Position of the platform in `clGetPlatformIDs` order.
    pub platform_index: usize,
    /// Position of the device within its platform.
    pub device_index: usize,
    /// CL_PLATFORM_NAME, e.g. `Portable Computing Language`.
    pub platform_name: String,
    /// CL_PLATFORM_VERSION, e.g. `OpenCL 3.0 PoCL 5.0 ...`.
    pub platform_version: String,
    /// CL_DEVICE_NAME.
    pub name: String,
    /// CL_DEVICE_VENDOR.
    pub vendor: String,
    /// `GPU`, `CPU`, `ACCELERATOR` or `other`.
    pub device_type: String,
    /// CL_DEVICE_MAX_COMPUTE_UNITS.
    pub compute_units: u32,
    /// CL_DEVICE_MAX_CLOCK_FREQUENCY in MHz.
    pub max_clock_mhz: u32,
    /// CL_DEVICE_GLOBAL_MEM_SIZE in bytes.
    pub global_mem_bytes: u64,
    /// CL_DEVICE_LOCAL_MEM_SIZE in bytes (per work-group).
    pub local_mem_bytes: u64,
    /// CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest single buffer, in bytes.
    pub max_alloc_bytes: u64,
    /// CL_DEVICE_MAX_WORK_GROUP_SIZE.
    pub max_work_group_size: usize,
    /// Double precision: `cl_khr_fp64` is listed or CL_DEVICE_DOUBLE_FP_CONFIG is non-zero.
    pub fp64: bool,
    /// CL_DEVICE_OPENCL_C_VERSION, e.g. `OpenCL C 1.2 `.
    pub opencl_c_version: String,
    /// CL_DRIVER_VERSION.
    pub driver_version: String,
    /// CL_DEVICE_EXTENSIONS, space-separated.
    pub extensions: String,
}

impl DeviceInfo {
    /// Whether NVIDIA's OpenCL platform runs the device (its build options and register caps
    /// apply, `-cl-nv-*`).
    pub fn is_nvidia(&self) -> bool {
        self.platform_name.contains("NVIDIA")
    }
}

/// A listed device and its OpenCL handle (kept as an address so the cache is `Sync`).
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub(crate) info: DeviceInfo,
    id: usize,
}

impl Entry {
    /// The `cl_device_id`; root device ids stay valid for the life of the process.
    pub(crate) fn id(&self) -> cl_device_id {
        self.id as cl_device_id
    }
}

static CACHE: OnceLock<Result<Vec<Entry>, DeviceError>> = OnceLock::new();

/// True when [`DISABLE_ENV`] is `1`.
fn disabled() -> bool {
    std::env::var(DISABLE_ENV).is_ok_and(|v| v == "1")
}

/// Every device of every platform, queried once per process (see [`DISABLE_ENV`]).
pub(crate) fn entries() -> Result<&'static [Entry], DeviceError> {
    if disabled() {
        return Err(DeviceError::NoPlatform);
    }
    CACHE
        .get_or_init(|| enumerate(get_platforms().map_err(|ClError(code)| code)))
        .as_ref()
        .map(Vec::as_slice)
        .map_err(Clone::clone)
}

/// All OpenCL devices in listing order (platforms, then devices). Cached per process.
pub fn list_devices() -> Result<Vec<DeviceInfo>, DeviceError> {
    Ok(entries()?.iter().map(|e| e.info.clone()).collect())
}

/// [`list_devices`] for a given outcome of `clGetPlatformIDs` (`Err` holds the OpenCL code),
/// uncached: how tests reach the "no runtime" and "no platform" errors.
pub fn list_devices_from(
    query: Result<Vec<Platform>, i32>,
) -> Result<Vec<DeviceInfo>, DeviceError> {
    Ok(enumerate(query)?.into_iter().map(|e| e.info).collect())
}

fn enumerate(query: Result<Vec<Platform>, i32>) -> Result<Vec<Entry>, DeviceError> {
    let platforms = query.map_err(runtime_error)?;
    let mut out = Vec::new();
    for (pi, platform) in platforms.iter().enumerate() {
        // CL_DEVICE_NOT_FOUND (-1) is an empty platform; another failure skips only this one.
        let ids = match platform.get_devices(CL_DEVICE_TYPE_ALL) {
            Ok(ids) => ids,
            Err(ClError(-1)) => Vec::new(),
            Err(e) => {
                log::warn!("OpenCL platform {pi}: clGetDeviceIDs failed: {e}; skipped");
                Vec::new()
            }
        };
        for (di, id) in ids.into_iter().enumerate() {
            match describe(platform, pi, Device::new(id), di) {
                Ok(info) => out.push(Entry {
                    info,
                    id: id as usize,
                }),
                Err(e) => log::warn!("OpenCL device {pi}.{di}: {e}; skipped"),
            }
        }
    }
    if out.is_empty() {
        return Err(DeviceError::NoPlatform);
    }
    Ok(out)
}

/// Map a failed `clGetPlatformIDs` to [`DeviceError::NoRuntime`].
fn runtime_error(code: i32) -> DeviceError {
    let detail = match code {
        DLOPEN_RUNTIME_LOAD_FAILED => "cannot load libOpenCL.so.1".to_string(),
        c => format!("clGetPlatformIDs returned {c} ({})", cl_error_name(c)),
    };
    DeviceError::NoRuntime { detail }
}

/// Symbolic name of an OpenCL error code.
pub(crate) fn cl_error_name(code: i32) -> String {
    match code {
        CL_PLATFORM_NOT_FOUND_KHR => "CL_PLATFORM_NOT_FOUND_KHR".into(),
        c => error_text(c).into(),
    }
}

/// Query one device's properties.
fn describe(p: &Platform, pi: usize, d: Device, di: usize) -> Result<DeviceInfo, ClError> {
    let ty = d.dev_type()?;
    let device_type = if ty & CL_DEVICE_TYPE_GPU != 0 {
        "GPU"
    } else if ty & CL_DEVICE_TYPE_CPU != 0 {
        "CPU"
    } else if ty & CL_DEVICE_TYPE_ACCELERATOR != 0 {
        "ACCELERATOR"
    } else {
        "other"
    };
    let extensions = d.extensions()?;
    // CL_DEVICE_DOUBLE_FP_CONFIG is optional before OpenCL 1.2: a failed query means none.
    let fp64 = extensions.split_whitespace().any(|e| e == "cl_khr_fp64")
        || d.double_fp_config().unwrap_or(0) != 0;
    Ok(DeviceInfo {
        platform_index: pi,
        device_index: di,
        platform_name: p.name()?.trim().to_string(),
        platform_version: p.version()?.trim().to_string(),
        name: d.name()?.trim().to_string(),
        vendor: d.vendor()?.trim().to_string(),
        device_type: device_type.to_string(),
        compute_units: d.max_compute_units()?,
        max_clock_mhz: d.max_clock_frequency()?,
        global_mem_bytes: d.global_mem_size()?,
        local_mem_bytes: d.local_mem_size()?,
        max_alloc_bytes: d.max_mem_alloc_size()?,
        max_work_group_size: d.max_work_group_size()?,
        fp64,
        opencl_c_version: d.opencl_c_version()?.trim().to_string(),
        driver_version: d.driver_version()?.trim().to_string(),
        extensions: extensions.trim().to_string(),
    })
}

/// Choose a device from the cached listing; see [`select_from`].
pub fn select_device(sel: Option<&str>) -> Result<DeviceInfo, DeviceError> {
    select_from(&list_devices()?, sel)
}

/// The device of node-local rank `node_rank` of a decomposed run: the one `sel` names (every
/// rank the same), else the node's fp64 GPUs in turn (rank `r` of the node takes the
/// `r mod n`-th of `n`), else [`select_from`]'s default (a CPU device).
pub fn select_for_rank(
    list: &[DeviceInfo],
    sel: Option<&str>,
    node_rank: usize,
) -> Result<DeviceInfo, DeviceError> {
    if sel.is_some() {
        return select_from(list, sel);
    }
    let gpus: Vec<_> = list
        .iter()
        .filter(|d| d.fp64 && d.device_type == "GPU")
        .collect();
    match gpus.len() {
        0 => select_from(list, None),
        n => Ok(gpus[node_rank % n].clone()),
    }
}

/// Choose an FP64 device from `list`.
///
/// `None`: the first FP64 GPU, else the first FP64 CPU, else the first FP64 device.
/// `Some("3")`: position 3 in `list`. Otherwise the first FP64 device whose name, vendor or
/// platform name contains `sel`, ignoring case. A chosen device without FP64 is an error.
pub fn select_from(list: &[DeviceInfo], sel: Option<&str>) -> Result<DeviceInfo, DeviceError> {
    let Some(sel) = sel.map(str::trim) else {
        let first = |ty: Option<&str>| {
            list.iter()
                .find(|d| d.fp64 && (ty.is_none() || ty == Some(d.device_type.as_str())))
        };
        return match first(Some("GPU"))
            .or_else(|| first(Some("CPU")))
            .or_else(|| first(None))
        {
            Some(d) => Ok(d.clone()),
            None => match list.first() {
                Some(d) => Err(DeviceError::NoFp64 {
                    device: d.name.clone(),
                }),
                None => Err(DeviceError::NoPlatform),
            },
        };
    };
    let found = match sel.parse::<usize>() {
        Ok(k) => list.get(k),
        Err(_) => {
            let s = sel.to_lowercase();
            let hits = || {
                list.iter().filter(|d| {
                    [&d.name, &d.vendor, &d.platform_name]
                        .iter()
                        .any(|f| f.to_lowercase().contains(&s))
                })
            };
            // The first FP64 match; without one, the first match (an FP64 error below).
            hits().find(|d| d.fp64).or_else(|| hits().next())
        }
    };
    let d = found.ok_or_else(|| DeviceError::NoDevice {
        selector: sel.to_string(),
        available: available(list),
    })?;
    require_fp64(d)?;
    Ok(d.clone())
}

/// `index: name (platform)` for every device, `; `-separated (or `none`).
fn available(list: &[DeviceInfo]) -> String {
    if list.is_empty() {
        return "none".to_string();
    }
    let rows: Vec<String> = list
        .iter()
        .enumerate()
        .map(|(k, d)| format!("{k}: {} ({})", d.name, d.platform_name))
        .collect();
    rows.join("; ")
}

/// [`DeviceError::NoFp64`] unless the device does double precision.
pub fn require_fp64(info: &DeviceInfo) -> Result<(), DeviceError> {
    if info.fp64 {
        Ok(())
    } else {
        Err(DeviceError::NoFp64 {
            device: info.name.clone(),
        })
    }
}

/// Check a case's footprint against the device: all buffers together (`total_bytes`), the
/// largest single buffer, local memory per work-group and work-items per group.
pub fn check_capacity(
    info: &DeviceInfo,
    total_bytes: u64,
    largest_buffer: u64,
    local_bytes: u64,
    wg_size: usize,
) -> Result<(), DeviceError> {
    let device = || info.name.clone();
    if total_bytes > info.global_mem_bytes {
        return Err(DeviceError::OutOfMemory {
            device: device(),
            limit: "global memory",
            needed_bytes: total_bytes,
            available_bytes: info.global_mem_bytes,
        });
    }
    if largest_buffer > info.max_alloc_bytes {
        return Err(DeviceError::OutOfMemory {
            device: device(),
            limit: "the largest single buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE)",
            needed_bytes: largest_buffer,
            available_bytes: info.max_alloc_bytes,
        });
    }
    if local_bytes > info.local_mem_bytes {
        return Err(DeviceError::LocalMemTooSmall {
            device: device(),
            needed: local_bytes,
            available: info.local_mem_bytes,
        });
    }
    if wg_size > info.max_work_group_size {
        return Err(DeviceError::WorkGroupTooLarge {
            device: device(),
            needed: wg_size,
            max: info.max_work_group_size,
        });
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests;
