//! Helpers shared by the integration tests (`mod common;` in each file that uses them).
//!
//! - [`cl_lock`]: one OpenCL user at a time in a test binary (its tests run in parallel
//!   threads, and PoCL races when threads look devices up or build at once).
//! - [`cl_options`] and [`simplets`]: in-process solvers and the `simplets` binary share one
//!   kernel binary cache, `<target dir>/kernel-cache` or the directory in
//!   `SIMPLETS_TEST_KERNEL_CACHE` ([`kernel_cache_dir`]): a program built by one test (PoCL
//!   takes 25–40 s for a fused SIMPLE-TS program) is loaded by the next test, and by the next
//!   run of the suite. Tests of cache misses and `--no-kernel-cache` build their own cache in
//!   a temporary directory instead.
//! - [`open_nc`], [`quiet_hdf5`]: no `HDF5-DIAG` traces from a test thread that opens a NetCDF
//!   file.
//! - [`body_case`]: the parity case, whose programs `tests/parity.rs` builds.
//! - [`diff`], [`diff_state`]: fields compared bit for bit, naming the largest difference.
//! - [`skip`]: a test that cannot run here (a tool or a device missing) fails in CI (`CI` set)
//!   and skips with a notice elsewhere.

// Each test binary compiles this module and uses part of it.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, MutexGuard};

use simplets::device::KernelCache;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, Scheme, SweepOrder};
use simplets::methods::simple_ts::fields::{Fields, State};
use simplets::methods::simple_ts::opencl::phase::OpenClOptions;

/// The repository root (`CARGO_MANIFEST_DIR`).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A file of `configs/`.
pub fn config(name: &str) -> PathBuf {
    root().join("configs").join(name)
}

/// Serialises OpenCL use across the tests of one binary.
pub fn cl_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// Cargo's target directory: `$CARGO_TARGET_DIR` if set (relative to the repository root),
/// else the one this test binary was built into (`<target>/<profile>/deps/<test>`), else
/// `<repository>/target`.
pub fn target_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("CARGO_TARGET_DIR").filter(|d| !d.is_empty()) {
        return root().join(dir);
    }
    std::env::current_exe()
        .ok()
        .and_then(|exe| {
            let deps = exe.parent()?;
            (deps.file_name()? == "deps").then(|| deps.parent()?.parent().map(PathBuf::from))?
        })
        .unwrap_or_else(|| root().join("target"))
}

/// Environment variable naming a kernel cache for the tests outside the target directory:
/// CI (`.ci/run`) keeps it across runs on one machine, so a change that leaves `cl/` alone
/// does not rebuild every program from a fresh clone. Entries are keyed by the source, the
/// options, the device and its driver, so a stale entry is never used.
pub const TEST_CACHE_ENV: &str = "SIMPLETS_TEST_KERNEL_CACHE";

/// The kernel cache every test shares: `$SIMPLETS_TEST_KERNEL_CACHE`, else
/// `<target dir>/kernel-cache`.
pub fn kernel_cache_dir() -> PathBuf {
    match std::env::var_os(TEST_CACHE_ENV) {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => target_dir().join("kernel-cache"),
    }
}

/// OpenCL options with the shared kernel cache ([`kernel_cache_dir`]). With `RUST_LOG=info`
/// and `--nocapture` the builds and cache hits are logged.
pub fn cl_options() -> OpenClOptions {
    init_log();
    OpenClOptions {
        cache: Some(KernelCache::new(kernel_cache_dir())),
        ..OpenClOptions::default()
    }
}

/// A logger for the library's log lines (`RUST_LOG`), captured per test like its output.
pub fn init_log() {
    let _ = env_logger::builder().is_test(true).try_init();
}

/// The `simplets` binary with the shared kernel cache (`SIMPLETS_KERNEL_CACHE`) and no
/// `RUST_LOG` (a test that wants log lines sets it).
pub fn simplets() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_simplets"));
    c.env(simplets::device::cache::CACHE_ENV, kernel_cache_dir())
        .env_remove("RUST_LOG");
    c
}

/// Whether this is a CI run (`CI` set and not empty or `0`/`false`, as CI services set it).
pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// A test that cannot run here because `missing` is missing: panics in CI, where everything
/// the suite needs must be installed; elsewhere prints a notice (the caller then returns).
pub fn skip(test: &str, missing: &str) {
    assert!(
        !in_ci(),
        "{test}: {missing} (CI must run every test: install what is missing)"
    );
    eprintln!("SKIPPED {test}: {missing}");
}

/// Whether `cmd --version` runs.
pub fn have(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The parity case: a small case (37 × 19 cells) with a body, slip walls (one moving, one
/// hot) and inflow/outflow, in the GPU order, with `convection` and `interpolation`.
/// `tests/parity.rs` builds its phase and fused programs (fused: W = 8 for every scheme, 16
/// and 64 for implicit TVD; lean: W = 8 explicit TVD, W = 16 implicit upwind); other tests
/// that need an OpenCL solver of this case take one of those, so it comes from the kernel
/// cache (`max_iters`, the tolerances and the steps are not build options).
pub fn body_case(convection: Convection, interpolation: Interpolation) -> Case {
    let text = r#"{
        "name": "parity",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 37, "ny": 19, "x": [0.0, 7.4], "y": [0.0, 3.8] },
        "bodies": [ { "x": [2.0, 3.0], "y": [1.4, 2.4], "wall": "slip" } ],
        "boundaries": {
            "west": { "kind": "inflow", "mach": 1.5 },
            "east": { "kind": "outflow" },
            "south": { "kind": "wall", "velocity": 0.3, "wall": "slip" },
            "north": { "kind": "wall", "velocity": 0.0, "T": 1.2, "wall": "slip" }
        },
        "initial": { "u": 1.0 },
        "time": { "dt": 0.01, "steps": 50 },
        "solver": { "max_iters": 5, "order": "gpu" }
    }"#;
    let mut c = Case::from_json(text, "parity").unwrap();
    c.scheme = Scheme {
        convection,
        interpolation,
    };
    c.solver.order = SweepOrder::Gpu;
    c
}

/// How two sets of fields differ: how many values differ in their bits, and the largest
/// relative difference (to the field's largest magnitude) with the field and cell where it is.
#[derive(Debug, Clone, Copy)]
pub struct Diff {
    pub differing: usize,
    pub max_rel: f64,
    pub field: &'static str,
    /// Stored cell (i, j) of the largest difference.
    pub cell: (usize, usize),
}

impl Diff {
    pub fn same(&self) -> bool {
        self.differing == 0
    }
    /// Both comparisons: the counts add up, the larger difference is named.
    pub fn and(self, other: Diff) -> Diff {
        let mut d = if other.max_rel > self.max_rel {
            other
        } else {
            self
        };
        d.differing = self.differing + other.differing;
        d
    }
}

impl std::fmt::Display for Diff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.same() {
            return write!(f, "bit-identical");
        }
        write!(
            f,
            "{} values differ, largest {:.3e} (relative) in {} at stored cell {:?}",
            self.differing, self.max_rel, self.field, self.cell
        )
    }
}

/// Compare all six fields of `a` and `b` bit for bit (`nxt` stored cells per row).
pub fn diff(a: &Fields, b: &Fields, nxt: usize) -> Diff {
    let pairs = [
        ("u", &a.u, &b.u),
        ("v", &a.v, &b.v),
        ("p", &a.p, &b.p),
        ("T", &a.T, &b.T),
        ("rho", &a.rho, &b.rho),
        ("Gam", &a.Gam, &b.Gam),
    ];
    let mut d = Diff {
        differing: 0,
        max_rel: 0.0,
        field: "-",
        cell: (0, 0),
    };
    for (name, x, y) in pairs {
        assert_eq!(x.len(), y.len(), "{name}: lengths");
        let scale = x.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
        for (k, (p, q)) in x.iter().zip(y.iter()).enumerate() {
            if p.to_bits() == q.to_bits() {
                continue;
            }
            d.differing += 1;
            // NaN on one side only counts as the largest possible difference.
            let rel = if (p - q).is_nan() {
                f64::INFINITY
            } else {
                (p - q).abs() / scale
            };
            if rel >= d.max_rel {
                d.max_rel = rel;
                d.field = name;
                d.cell = (k % nxt, k / nxt);
            }
        }
    }
    d
}

/// Both levels (k and n) of two states, bit for bit; the clocks must be equal too.
pub fn diff_state(a: &State, b: &State, nxt: usize) -> Diff {
    assert_eq!(
        (a.step, a.time.to_bits()),
        (b.step, b.time.to_bits()),
        "clocks"
    );
    diff(&a.k, &b.k, nxt).and(diff(&a.n, &b.n, nxt))
}

/// Opens a NetCDF file for reading, with HDF5's error printing off in this thread
/// ([`quiet_hdf5`]).
#[cfg(feature = "netcdf")]
pub fn open_nc(path: &std::path::Path) -> netcdf::File {
    quiet_hdf5();
    netcdf::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Turns off HDF5's automatic error printing for the calling thread. NetCDF-C 4.9.0 looks up
/// the optional `_Quantize*` attributes of every variable it opens through HDF5, which prints
/// an `HDF5-DIAG` stack for each absent one; netCDF turns the printing off at its
/// initialisation, but in a thread-safe HDF5 (Debian's) that setting is per thread, and each
/// test runs in a thread of its own. Call it at the start of a test that opens NetCDF files.
#[cfg(feature = "netcdf")]
pub fn quiet_hdf5() {
    use std::ffi::{c_int, c_void};
    /// `hid_t` (HDF5 ≥ 1.10) and `H5E_DEFAULT`.
    type Hid = i64;
    const H5E_DEFAULT: Hid = 0;
    type AutoFn = Option<unsafe extern "C" fn(Hid, *mut c_void) -> c_int>;
    extern "C" {
        fn H5Eset_auto2(estack_id: Hid, func: AutoFn, client_data: *mut c_void) -> c_int;
    }
    // SAFETY: H5Eset_auto2 with the default stack, no function and no data only clears the
    // calling thread's automatic error handler.
    let rc = unsafe { H5Eset_auto2(H5E_DEFAULT, None, std::ptr::null_mut()) };
    assert!(rc >= 0, "H5Eset_auto2 failed ({rc})");
}
