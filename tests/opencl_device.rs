//! The OpenCL device layer on a real device (PoCL's CPU device in CI): listing, selection,
//! building the probe program, exact results, and build errors that name `cl/` files.
//!
//! The device is looked up once per process (`OnceLock`) and every OpenCL use holds one
//! global mutex ([`common::cl_lock`]): PoCL races when threads look devices up or build
//! concurrently.

mod common;

use std::sync::OnceLock;

use common::cl_lock;
use simplets::device::{
    build, list_devices, list_devices_from, select_device, select_from, Defines, DeviceInfo,
    Source, BUILD_LOG_FILE, DISABLE_ENV, SOURCE_FILE,
};
use simplets::error::DeviceError;

/// The device the tests build for: the default choice, looked up once.
fn device() -> &'static DeviceInfo {
    static DEV: OnceLock<DeviceInfo> = OnceLock::new();
    DEV.get_or_init(|| select_device(None).expect("an FP64 OpenCL device (PoCL in CI)"))
}

/// Grid defines every program needs (cl/common/prelude.cl guards).
fn grid_defines() -> Defines {
    Defines::new().int("CFG_NXT", 6).int("CFG_NYT", 5)
}

#[test]
fn list_devices_finds_an_fp64_device() {
    let _g = cl_lock();
    let list = list_devices().unwrap();
    assert!(!list.is_empty());
    assert!(list.iter().any(|d| d.fp64), "{list:#?}");
    let d = device();
    assert!(d.fp64 && d.compute_units > 0 && d.global_mem_bytes > 0 && d.max_work_group_size > 0);
    assert!(
        d.local_mem_bytes >= 16 << 10,
        "OpenCL guarantees 16 KiB local memory"
    );
    eprintln!("{}", simplets::device::devices_table(&list));
}

#[test]
fn select_by_index_substring_and_bad_selector() {
    let _g = cl_lock();
    let list = list_devices().unwrap();
    let k = list.iter().position(|d| d == device()).unwrap();
    assert_eq!(&select_device(Some(&k.to_string())).unwrap(), device());
    let part = device().name[..device().name.len().min(6)].to_uppercase();
    assert_eq!(select_from(&list, Some(&part)).unwrap().name, device().name);
    let e = select_device(Some("no-such-device-xyz")).unwrap_err();
    let DeviceError::NoDevice { ref available, .. } = e else {
        panic!("{e}")
    };
    assert!(available.contains(&device().name), "{e}");
    assert!(e
        .to_string()
        .starts_with("no OpenCL device matches 'no-such-device-xyz'"));
    let e = select_device(Some(&list.len().to_string())).unwrap_err();
    assert!(matches!(e, DeviceError::NoDevice { .. }), "{e}");
}

#[test]
fn probe_copy_doubles_exactly() {
    let _g = cl_lock();
    let dir = tempfile::tempdir().unwrap();
    let src = Source::probe().assemble();
    let p = build(device(), &src, &grid_defines(), Some(dir.path())).unwrap();
    assert!(
        p.kernel_names().contains(&"probe_copy".to_string()),
        "{:?}",
        p.kernel_names()
    );
    let a: Vec<f64> = (0..37)
        .map(|k| (k as f64 - 18.0) / 7.0 + 1e-300 * k as f64)
        .collect();
    let b = p.run_probe("probe_copy", &a, a.len()).unwrap();
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(y.to_bits(), (2.0 * x).to_bits(), "{x:e}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join(SOURCE_FILE)).unwrap(),
        src
    );
    let log = std::fs::read_to_string(dir.path().join(BUILD_LOG_FILE)).unwrap();
    assert!(log.contains("-D CFG_NXT=6"), "{log}");
}

/// Defines reach the compiler bit-exactly and the prelude's index macros match `Grid::idx`
/// with clamping. Test-only piece, so it is kept here rather than in cl/.
#[test]
fn defines_round_trip_and_clamped_index() {
    const ECHO: &str = "__kernel void echo(__global const real* a, __global real* b)\n\
        {\n  b[0] = CFG_R0; b[1] = CFG_R1; b[2] = CFG_R2; b[3] = CFG_R3; b[4] = 1.0 - CFG_R4;\n  \
        b[5] = (real)IDXC(-1, 2); b[6] = (real)IDXC(9, 9); b[7] = (real)IDX(2, 3);\n}\n";
    let _g = cl_lock();
    let vals = [0.1, 1.0 / 3.0, 5e-324, 1e300, -0.0];
    let mut d = grid_defines();
    for (k, name) in ["CFG_R0", "CFG_R1", "CFG_R2", "CFG_R3", "CFG_R4"]
        .iter()
        .enumerate()
    {
        d = d.real(name, vals[k]);
    }
    let src = Source::new().with(("cl/test_echo.cl", ECHO)).assemble();
    let p = build(device(), &src, &d, None).unwrap();
    let b = p.run_probe("echo", &[], 8).unwrap();
    for k in 0..4 {
        assert_eq!(b[k].to_bits(), vals[k].to_bits(), "CFG_R{k}");
    }
    assert_eq!(b[4], 1.0, "1.0 - CFG_R4 with CFG_R4 = -0.0 parses");
    assert_eq!(
        &b[5..],
        &[12.0, 29.0, 20.0],
        "IDXC(-1,2)=0+2*6, IDXC(9,9)=5+4*6, IDX(2,3)"
    );
}

#[test]
fn syntax_error_names_piece_and_line() {
    const BROKEN: &str =
        "/* line 1 */\n__kernel void broken(__global real* b)\n{ b[0] = 1.0 +; }\n";
    let _g = cl_lock();
    let dir = tempfile::tempdir().unwrap();
    let src = Source::probe().with(("cl/broken.cl", BROKEN)).assemble();
    let e = build(device(), &src, &grid_defines(), Some(dir.path()))
        .err()
        .unwrap();
    let DeviceError::Build {
        ref first_error,
        ref log_path,
        ..
    } = e
    else {
        panic!("{e}")
    };
    eprintln!("{e}");
    assert!(first_error.contains("cl/broken.cl:3"), "{e}");
    assert_eq!(
        log_path,
        &dir.path().join(BUILD_LOG_FILE).display().to_string()
    );
    let log = std::fs::read_to_string(log_path).unwrap();
    eprintln!("--- {BUILD_LOG_FILE} ---\n{log}");
    assert!(log.contains("cl/broken.cl:3"));
    assert!(dir.path().join(SOURCE_FILE).exists());
}

#[test]
fn missing_define_hits_prelude_guard() {
    let _g = cl_lock();
    let src = Source::probe().assemble();
    let e = build(device(), &src, &Defines::new().int("CFG_NXT", 6), None)
        .err()
        .unwrap();
    eprintln!("{e}");
    let DeviceError::Build {
        ref first_error,
        ref log_path,
        ..
    } = e
    else {
        panic!("{e}")
    };
    assert!(first_error.contains("cl/common/prelude.cl:"), "{e}");
    assert!(first_error.contains("CFG_NYT not defined"), "{e}");
    assert!(log_path.starts_with("not written"), "{e}");
}

#[test]
fn no_platform_messages() {
    let e = list_devices_from(Err(-1001)).unwrap_err();
    assert!(matches!(e, DeviceError::NoRuntime { .. }));
    assert!(e.to_string().contains("CL_PLATFORM_NOT_FOUND_KHR"), "{e}");
    assert!(e
        .to_string()
        .ends_with("install an ICD such as pocl-opencl-icd or a GPU driver"));
    assert_eq!(
        list_devices_from(Ok(Vec::new())).unwrap_err(),
        DeviceError::NoPlatform
    );
}

/// `SIMPLETS_OPENCL_DISABLE=1` hides every platform. Checked in a child process (this test
/// binary re-run on this test alone, with the variable set) so the variable never changes
/// under other threads; the parent checks that the child ran the check and passed.
#[test]
fn disable_env_var_gives_no_platform() {
    const NAME: &str = "disable_env_var_gives_no_platform";
    if std::env::var(DISABLE_ENV).as_deref() == Ok("1") {
        // The child.
        let e = list_devices().unwrap_err();
        assert_eq!(e, DeviceError::NoPlatform);
        assert_eq!(select_device(None).unwrap_err(), DeviceError::NoPlatform);
        eprintln!("{NAME}: NoPlatform checked");
        return;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", NAME, "--nocapture", "--test-threads=1"])
        .env(DISABLE_ENV, "1")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("{NAME}: NoPlatform checked")),
        "{text}"
    );
    assert!(text.contains("1 passed"), "{text}");
}

/// Kernel cache: the first build stores the binary, the second loads it (same results), a
/// corrupt binary is rejected and rebuilt from source, and another source gets another key.
#[test]
fn kernel_cache_stores_reuses_and_survives_corruption() {
    use simplets::device::{build_cached, KernelCache};
    let _g = cl_lock();
    let dir = tempfile::tempdir().unwrap();
    let cache = KernelCache::new(dir.path().join("cache"));
    let src = Source::probe().assemble();
    let a: Vec<f64> = (0..9).map(|k| k as f64 / 3.0).collect();
    let first = build_cached(device(), &src, &grid_defines(), None, Some(&cache)).unwrap();
    assert!(!first.cache_hit());
    let stored: Vec<_> = std::fs::read_dir(cache.dir()).unwrap().collect();
    if stored.is_empty() {
        // A driver may give no binary; then there is nothing to reuse (allowed, but PoCL in CI
        // gives one, and the suite's shared cache depends on it).
        return common::skip(
            "kernel_cache_stores_reuses_and_survives_corruption",
            &format!("{} gives no program binary", device().name),
        );
    }
    let want = first.run_probe("probe_copy", &a, a.len()).unwrap();
    let second = build_cached(device(), &src, &grid_defines(), None, Some(&cache)).unwrap();
    assert!(second.cache_hit());
    assert_eq!(second.run_probe("probe_copy", &a, a.len()).unwrap(), want);
    // Corrupt the stored binary: rejected, rebuilt from source, still correct.
    let path = stored[0].as_ref().unwrap().path();
    std::fs::write(&path, b"not a program binary").unwrap();
    let third = build_cached(device(), &src, &grid_defines(), None, Some(&cache)).unwrap();
    assert!(!third.cache_hit());
    assert_eq!(third.run_probe("probe_copy", &a, a.len()).unwrap(), want);
    // Different options, different key.
    let other = grid_defines().int("CFG_EXTRA", 1).to_options();
    assert_ne!(
        KernelCache::key(device(), &src, &other),
        KernelCache::key(device(), &src, &grid_defines().to_options())
    );
}

/// The bandwidth probe runs, checks its own result, and gives a plausible figure
/// (between 10 MB/s and 100 TB/s).
#[test]
fn triad_bandwidth_is_measured() {
    let _g = cl_lock();
    let bw = simplets::device::bandwidth::triad_bandwidth(device(), 1 << 20, 3).unwrap();
    assert!(bw.is_finite() && bw > 1e7 && bw < 1e14, "{bw}");
}

/// Two kernels launched beside each other (`Runtime::launch_beside`) write disjoint halves of
/// one buffer, each from its own global offset, and a kernel queued after them on the main
/// queue reads what both wrote, on one queue and with the side queue; the profile holds them
/// as one command of the second kernel.
#[test]
fn launches_beside_each_other_are_ordered_as_one_command() {
    use simplets::device::{Range2, Runtime};
    let _g = cl_lock();
    const SRC: &str = "#pragma OPENCL EXTENSION cl_khr_fp64 : enable
    __kernel void fill(__global double* a, __global const double* b) {
        const int i = get_global_id(0);
        a[i] = b[i] + (double)(i / 8);
    }
    __kernel void twice(__global const double* a, __global double* b) {
        const int i = get_global_id(0);
        b[i] = 2.0 * a[i];
    }";
    let n = 4096;
    let half = |start: usize| Range2 {
        offset: [start, 0],
        global: [n / 2, 1],
    };
    for side in [false, true] {
        let mut rt = Runtime::new(build(device(), SRC, &Defines::new(), None).unwrap());
        if side {
            rt.open_side_queue().unwrap();
        }
        rt.set_profiling(true).unwrap();
        rt.real_zeros("a", n).unwrap();
        rt.real("b", &vec![1.0; n]).unwrap();
        rt.bind("fill").unwrap();
        rt.bind_as("fill_b", "fill", &[]).unwrap();
        rt.bind("twice").unwrap();
        assert_eq!(rt.has_side_queue(), side);
        rt.launch_beside("fill_b", half(n / 2), "fill", half(0), [8, 1])
            .unwrap();
        rt.launch("twice", n, None).unwrap();
        let mut b = vec![0.0; n];
        rt.read("b", &mut b).unwrap();
        let want: Vec<f64> = (0..n).map(|i| 2.0 * (1.0 + (i / 8) as f64)).collect();
        assert_eq!(b, want, "side queue {side}");
        let prof = rt.profile().unwrap();
        assert_eq!(prof["fill"].launches, 1, "side queue {side}");
        assert_eq!(prof["fill"].items, n as u64, "side queue {side}");
        assert!(!prof.contains_key("fill_b"), "{prof:?}");
    }
}
