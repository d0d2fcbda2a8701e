//! Output of a run on the OpenCL backend (PoCL in CI): reading back only what output needs
//! (some rows for forces and probes, all rows for snapshots) gives the same files as the
//! reference, and the manifest records the device, driver and kernel build.
#![cfg(feature = "netcdf")]

mod common;

use std::path::Path;

use common::{cl_lock, cl_options};
use simplets::device::KernelCache;
use simplets::methods::simple_ts::case::{Case, SweepOrder};
use simplets::methods::simple_ts::opencl::phase::{OpenCl, OpenClOptions};
use simplets::methods::simple_ts::reference::Reference;
use simplets::run::status::Progress;
use simplets::run::RunOptions;

/// Run a SIMPLE-TS `case` on backend `b` through the solver seam.
fn run_case(
    case: &simplets::methods::simple_ts::case::Case,
    b: impl simplets::methods::simple_ts::backend::Backend,
    o: &RunOptions,
) -> Result<simplets::run::RunSummary, simplets::error::RunError> {
    let mut s = simplets::methods::simple_ts::solver::SimpleTs::new(Box::new(b));
    simplets::run::run_case(&case.common(), &mut s, o)
}
use simplets::methods::simple_ts::backend::Backend as Solver;

/// The parity case (a body on an odd grid, slip walls) with forces every 2 steps, two probes
/// every 3, a snapshot every 4 and two snapshots per file.
fn case() -> Case {
    let text = r#"{
        "name": "clout",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 37, "ny": 19, "x": [0.0, 7.4], "y": [0.0, 3.8] },
        "bodies": [ { "name": "sq", "x": [2.0, 3.0], "y": [1.4, 2.4], "wall": "slip" } ],
        "boundaries": {
            "west": { "kind": "inflow", "mach": 1.5 },
            "east": { "kind": "outflow" },
            "south": { "kind": "wall", "velocity": 0.3, "wall": "slip" },
            "north": { "kind": "wall", "velocity": 0.0, "T": 1.2, "wall": "slip" }
        },
        "initial": { "u": 1.0 },
        "scheme": { "interpolation": "tvd" },
        "time": { "dt": 0.01, "steps": 8 },
        "solver": { "max_iters": 5, "order": "gpu" },
        "output": { "interval": 4, "forces_every": 2, "probes_every": 3, "snapshots_per_file": 2,
                    "probes": [ { "name": "low", "x": 1.1, "y": 0.3 },
                                { "name": "wake", "x": 5.5, "y": 2.9 } ] }
    }"#;
    let c = Case::from_json(text, "clout").unwrap();
    assert_eq!(c.solver.order, SweepOrder::Gpu);
    c
}

fn opts(out: &Path) -> RunOptions {
    RunOptions {
        out_dir: out.to_path_buf(),
        progress: Progress::Off,
        ..RunOptions::default()
    }
}

fn manifest(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Every variable of a NetCDF file as the bits of its f64 values, by name (compared bit for
/// bit: NaN fill values compare equal, -0 and +0 do not).
fn nc_values(path: &Path) -> Vec<(String, Vec<u64>)> {
    let f = common::open_nc(path);
    let mut out = Vec::new();
    for v in f.variables() {
        let values = v.get_values::<f64, _>(..).unwrap();
        out.push((v.name(), values.into_iter().map(f64::to_bits).collect()));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Forces, probes and snapshots of an OpenCL run equal the reference's bit for bit, and a step
/// without output reads nothing back: 1 initial read, then only steps 2, 3, 4, 6 and 8.
#[test]
fn opencl_run_reads_back_only_for_output_and_matches_the_reference() {
    let _g = cl_lock();
    let c = case();
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("ref"), dir.path().join("cl"));
    let sum_ref = run_case(&c, &mut Reference::new(&c), &opts(&a)).unwrap();
    let mut cl = OpenCl::new(&c, &cl_options()).unwrap();
    let sum_cl = run_case(&c, &mut cl, &opts(&b)).unwrap();
    assert_eq!(sum_cl.timings.readbacks, 6);
    assert_eq!(sum_ref.timings.readbacks, 6);
    assert_eq!(sum_cl.outputs.len(), 2);
    for kind in ["forces", "probes"] {
        let read = |d: &Path| std::fs::read_to_string(d.join(format!("clout.{kind}.csv"))).unwrap();
        let (x, y) = (read(&a), read(&b));
        assert_eq!(x, y, "{kind}");
        assert!(!y.contains("NaN"), "{y}");
    }
    for (p, q) in sum_ref.outputs.iter().zip(&sum_cl.outputs) {
        assert_eq!(p.file_name(), q.file_name());
        assert_eq!(nc_values(p), nc_values(q), "{}", q.display());
    }
    let lines = std::fs::read_to_string(b.join("clout.forces.csv")).unwrap();
    assert_eq!(lines.lines().count(), 1 + 4);
}

/// The manifest of an OpenCL run names the device, its driver and OpenCL version, the kernel
/// form, the exact build options, the cache key and whether the cache hit, and the build time.
/// (A cache of its own, empty at first: the miss is the point.)
#[test]
fn opencl_manifest_records_device_driver_and_kernel_build() {
    let _g = cl_lock();
    let mut c = case();
    c.time.steps = Some(2);
    let dir = tempfile::tempdir().unwrap();
    let cache = KernelCache::new(dir.path().join("cache"));
    let cl_opts = OpenClOptions {
        cache: Some(cache),
        ..OpenClOptions::default()
    };
    let mut keys = Vec::new();
    for (run, want) in [("first", "miss"), ("second", "hit")] {
        let mut cl = OpenCl::new(&c, &cl_opts).unwrap();
        let out = dir.path().join(run);
        run_case(&c, &mut cl, &opts(&out)).unwrap();
        let v = manifest(&out.join("clout.manifest.json"));
        let dev = &v["device"];
        let name = dev["name"].as_str().unwrap();
        assert_eq!(v["backend"], format!("opencl:{name}"));
        for key in ["vendor", "driver_version", "platform", "opencl_c_version"] {
            assert!(!dev[key].as_str().unwrap().is_empty(), "{key}: {v}");
        }
        assert!(dev["opencl_version"]
            .as_str()
            .unwrap()
            .starts_with("OpenCL "));
        let k = &v["kernels"];
        assert_eq!(k["form"], "phase");
        assert!(k["decomposition"].is_null());
        let options = k["build_options"].as_str().unwrap();
        assert!(options.contains("-D CFG_NXT=39"), "{options}");
        assert!(options.contains("-D CFG_TVD=1"), "{options}");
        assert_eq!(options, cl.info().kernels.unwrap().build_options);
        let key = k["cache_key"].as_str().unwrap();
        assert!(
            key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()),
            "{key}"
        );
        assert_eq!(k["cache"], want, "{run}");
        assert!(k["build_seconds"].as_f64().unwrap() > 0.0);
        assert!(v["code_version"].as_str().unwrap().starts_with("0."));
        assert!(v["timings"]["readback_s"].as_f64().unwrap() >= 0.0);
        keys.push(key.to_string());
    }
    assert_eq!(keys[0], keys[1]);
}
