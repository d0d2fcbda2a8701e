//! Unit tests of selection and capacity checks on constructed [`DeviceInfo`] values.

use super::*;

/// A plausible device; tests change the fields they are about.
pub(crate) fn fake(name: &str, ty: &str, fp64: bool) -> DeviceInfo {
    DeviceInfo {
        platform_index: 0,
        device_index: 0,
        platform_name: "Fake Platform".into(),
        platform_version: "OpenCL 3.0 fake".into(),
        name: name.into(),
        vendor: "Acme".into(),
        device_type: ty.into(),
        compute_units: 32,
        max_clock_mhz: 1500,
        global_mem_bytes: 4 << 30,
        local_mem_bytes: 64 << 10,
        max_alloc_bytes: 1 << 30,
        max_work_group_size: 1024,
        fp64,
        opencl_c_version: "OpenCL C 1.2".into(),
        driver_version: "1.0".into(),
        extensions: if fp64 {
            "cl_khr_fp64".into()
        } else {
            String::new()
        },
    }
}

fn list() -> Vec<DeviceInfo> {
    vec![
        DeviceInfo {
            vendor: "NVIDIA Corporation".into(),
            ..fake("Tiny GPU", "GPU", false)
        },
        fake("Big CPU", "CPU", true),
        DeviceInfo {
            vendor: "NVIDIA Corporation".into(),
            ..fake("Tesla X", "GPU", true)
        },
    ]
}

#[test]
fn default_prefers_fp64_gpu_then_cpu() {
    assert_eq!(select_from(&list(), None).unwrap().name, "Tesla X");
    let no_gpu = &list()[..2];
    assert_eq!(select_from(no_gpu, None).unwrap().name, "Big CPU");
    let accel = vec![fake("A", "GPU", false), fake("B", "ACCELERATOR", true)];
    assert_eq!(select_from(&accel, None).unwrap().name, "B");
}

#[test]
fn default_without_fp64_or_devices() {
    let e = select_from(&list()[..1], None).unwrap_err();
    assert_eq!(
        e,
        DeviceError::NoFp64 {
            device: "Tiny GPU".into()
        }
    );
    assert_eq!(
        e.to_string(),
        "Tiny GPU has no FP64 (cl_khr_fp64) support; choose another device with --device \
         (see `simplets devices`)"
    );
    assert_eq!(select_from(&[], None).unwrap_err(), DeviceError::NoPlatform);
}

#[test]
fn select_by_index_and_substring() {
    assert_eq!(select_from(&list(), Some("1")).unwrap().name, "Big CPU");
    // Both NVIDIA devices match; the FP64 one wins.
    assert_eq!(
        select_from(&list(), Some("nvidia")).unwrap().name,
        "Tesla X"
    );
    assert_eq!(select_from(&list(), Some("big")).unwrap().name, "Big CPU");
    assert_eq!(
        select_from(&list(), Some("fake plat")).unwrap().name,
        "Big CPU"
    );
    let e = select_from(&list(), Some("0")).unwrap_err();
    assert_eq!(
        e,
        DeviceError::NoFp64 {
            device: "Tiny GPU".into()
        }
    );
    let e = select_from(&list(), Some("tiny")).unwrap_err();
    assert_eq!(
        e,
        DeviceError::NoFp64 {
            device: "Tiny GPU".into()
        }
    );
}

#[test]
fn bad_selector_lists_devices() {
    for sel in ["7", "radeon"] {
        let e = select_from(&list(), Some(sel)).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "no OpenCL device matches '{sel}'; available: 0: Tiny GPU (Fake Platform); \
                 1: Big CPU (Fake Platform); 2: Tesla X (Fake Platform) (see `simplets devices`)"
            )
        );
    }
}

#[test]
fn require_fp64_checks_flag() {
    assert!(require_fp64(&fake("a", "GPU", true)).is_ok());
    assert!(matches!(
        require_fp64(&fake("a", "GPU", false)),
        Err(DeviceError::NoFp64 { .. })
    ));
}

#[test]
fn capacity_errors_name_the_limit() {
    let d = fake("Tesla X", "GPU", true);
    assert!(check_capacity(&d, 4 << 30, 1 << 30, 64 << 10, 1024).is_ok());
    let e = check_capacity(&d, 5 << 30, 0, 0, 1).unwrap_err();
    assert!(matches!(
        e,
        DeviceError::OutOfMemory {
            limit: "global memory",
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "Tesla X: global memory is 4096.0 MiB, the case needs 5120.0 MiB; use a smaller grid or \
         a device with more memory"
    );
    let e = check_capacity(&d, 3 << 30, 3 << 29, 0, 1).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Tesla X: the largest single buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) is 1024.0 MiB, the \
         case needs 1536.0 MiB; use a smaller grid or a device with more memory"
    );
    let e = check_capacity(&d, 0, 0, 65 << 10, 256).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Tesla X has 65536 B of local memory, the kernel needs 66560 B; use a narrower \
         work-group or another device"
    );
    let e = check_capacity(&d, 0, 0, 0, 2048).unwrap_err();
    assert_eq!(
        e.to_string(),
        "Tesla X allows work-groups of at most 1024 items, the kernel needs 2048; use a narrower \
         work-group or another device"
    );
}

#[test]
fn failed_platform_query_is_no_runtime() {
    let e = list_devices_from(Err(-1001)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no OpenCL platform (clGetPlatformIDs returned -1001 (CL_PLATFORM_NOT_FOUND_KHR)); \
         install an ICD such as pocl-opencl-icd or a GPU driver"
    );
    let e = list_devices_from(Err(-2000)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no OpenCL platform (cannot load libOpenCL.so.1); install an ICD such as pocl-opencl-icd \
         or a GPU driver"
    );
}

#[test]
fn empty_platform_list_is_no_platform() {
    let e = list_devices_from(Ok(Vec::new())).unwrap_err();
    assert_eq!(e, DeviceError::NoPlatform);
    assert_eq!(
        e.to_string(),
        "the OpenCL loader lists no platform with a device; install an ICD such as \
         pocl-opencl-icd or a GPU driver"
    );
}

/// Ranks of a node take its fp64 GPUs in turn; a selector pins every rank; without a GPU the
/// default device.
#[test]
fn ranks_take_the_node_gpus_in_turn() {
    let l = vec![
        fake("CPU", "CPU", true),
        fake("GPU A", "GPU", true),
        fake("GPU slow", "GPU", false),
        fake("GPU B", "GPU", true),
    ];
    let name = |sel: Option<&str>, r: usize| select_for_rank(&l, sel, r).unwrap().name;
    assert_eq!(
        (0..3).map(|r| name(None, r)).collect::<Vec<_>>(),
        ["GPU A", "GPU B", "GPU A"]
    );
    assert_eq!(name(Some("B"), 0), "GPU B");
    assert_eq!(name(Some("0"), 1), "CPU");
    let cpu_only = vec![fake("CPU", "CPU", true)];
    assert_eq!(select_for_rank(&cpu_only, None, 3).unwrap().name, "CPU");
}
