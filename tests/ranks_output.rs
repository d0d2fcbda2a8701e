//! A whole `run` split among ranks (threads of one process, the messages of MPI): rank 0 runs
//! the run driver and writes, the other ranks follow its orders. Every NetCDF variable, the
//! forces and probes CSV files and the checkpoints equal the single-process run's bit for bit,
//! and a restart on another rank count continues bit-exactly. `scripts/test-mpi.sh` runs the
//! same comparison through `mpirun`.
#![cfg(feature = "netcdf")]

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use simplets::decomp::{Comm, Decomposition, ThreadComm};
use simplets::error::RunError;
use simplets::methods::simple_ts::case::Case;
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::simple_ts::ranks;
use simplets::methods::simple_ts::reference::Reference;
use simplets::methods::simple_ts::solver::SimpleTs;
use simplets::methods::{BackendChoice, BackendKind};
use simplets::run::status::Progress;
use simplets::run::{run_case, RunOptions, RunSummary};

/// A supersonic channel with a square body and two probes; forces every 2 steps, probes every
/// 3, snapshots every 4 in files of 2.
fn case() -> Case {
    Case::from_json(&case_json().to_string(), "rk").unwrap()
}

/// The case of [`case`] as JSON.
fn case_json() -> serde_json::Value {
    let text = r#"{
        "name": "rk",
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
        "solver": { "max_iters": 5 },
        "output": { "interval": 4, "forces_every": 2, "probes_every": 3, "snapshots_per_file": 2,
                    "probes": [ { "name": "low", "x": 1.1, "y": 0.3 },
                                { "name": "wake", "x": 5.5, "y": 2.9 } ] }
    }"#;
    serde_json::from_str(text).unwrap()
}

/// One test at a time: HDF5 (under NetCDF) is not thread-safe, and each test writes and reads
/// NetCDF files. A test that starts a process takes it too: the child inherits the open file
/// of a NetCDF file being written in another thread (HDF5 opens it without close-on-exec),
/// and with it HDF5's lock, so reading that file back fails ("unable to lock file") while the
/// child runs.
fn nc_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn opts(out: &Path, restart: Option<PathBuf>) -> RunOptions {
    RunOptions {
        out_dir: out.to_path_buf(),
        progress: Progress::Off,
        checkpoint_every: Some(4),
        restart,
        ..RunOptions::default()
    }
}

/// `case` on `px × py` thread ranks: rank 0's summary.
fn on_ranks(case: &Case, px: usize, py: usize, o: &RunOptions) -> RunSummary {
    run_on_ranks(case, px, py, o, None).unwrap()
}

/// `case` on `px × py` thread ranks, each with its own SIGTERM flag, the flag of rank
/// `signalled` raised before the first step: rank 0's result.
fn run_on_ranks(
    case: &Case,
    px: usize,
    py: usize,
    o: &RunOptions,
    signalled: Option<usize>,
) -> Result<RunSummary, RunError> {
    let pb = Arc::new(Problem::new(case));
    let dec = Decomposition::new(case.grid.nx, case.grid.ny, px, py).unwrap();
    let threads: Vec<_> = ThreadComm::group(px * py)
        .into_iter()
        .map(|c| {
            let (pb, dec, common) = (Arc::clone(&pb), dec.clone(), case.common());
            let flag = Arc::new(AtomicBool::new(signalled == Some(c.rank())));
            let o = RunOptions {
                interrupt: Some(Arc::clone(&flag)),
                ..o.clone()
            };
            std::thread::spawn(move || {
                let comm: Arc<dyn Comm> = Arc::new(c);
                let choice = BackendChoice {
                    kind: BackendKind::Reference,
                    ..BackendChoice::default()
                };
                let r = ranks::build(pb, dec, Arc::clone(&comm), &choice).unwrap();
                r.share_interrupt(flag);
                if !comm.is_root() {
                    let mut r = r;
                    r.follow();
                    return None;
                }
                let mut s = SimpleTs::new(Box::new(r));
                Some(run_case(&common, &mut s, &o))
            })
        })
        .collect();
    let mut out: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    out.swap_remove(0).unwrap()
}

/// Every variable of a NetCDF file as f64 bits, by name.
fn nc_bits(path: &Path) -> Vec<(String, Vec<u64>)> {
    let f = netcdf::open(path).unwrap();
    let mut out: Vec<(String, Vec<u64>)> = f
        .variables()
        .map(|v| {
            let x = v.get_values::<f64, _>(..).unwrap();
            (v.name(), x.iter().map(|x| x.to_bits()).collect())
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The files of `a` and `b` are the same: NetCDF variables bit for bit, CSV and checkpoint
/// files byte for byte.
fn same_files(a: &Path, b: &Path, what: &str) {
    let mut names: Vec<_> = std::fs::read_dir(a)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with(".json") && !n.ends_with(".log"))
        .collect();
    names.sort();
    assert!(names.iter().any(|n| n.ends_with(".nc")), "{names:?}");
    assert!(names.iter().any(|n| n.contains(".ckpt-")), "{names:?}");
    for n in &names {
        let (p, q) = (a.join(n), b.join(n));
        if n.ends_with(".nc") {
            assert_eq!(nc_bits(&p), nc_bits(&q), "{what}: {n}");
        } else {
            let (x, y) = (std::fs::read(&p).unwrap(), std::fs::read(&q).unwrap());
            assert!(x == y, "{what}: {n} differs");
        }
    }
}

#[test]
fn ranked_runs_write_the_files_of_one_process_and_restart_on_other_counts() {
    let _g = nc_lock();
    let c = case();
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one");
    let sum = run_case(
        &c.common(),
        &mut SimpleTs::new(Box::new(Reference::new(&c))),
        &opts(&one, None),
    )
    .unwrap();
    assert_eq!(sum.outputs.len(), 2);
    for (px, py) in [(3, 1), (2, 2), (1, 3)] {
        let out = dir.path().join(format!("r{px}x{py}"));
        let s = on_ranks(&c, px, py, &opts(&out, None));
        assert_eq!((s.steps, s.iterations), (sum.steps, sum.iterations));
        same_files(&one, &out, &format!("{px} x {py}"));
        let m: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("rk.manifest.json")).unwrap())
                .unwrap();
        let r = &m["ranks"];
        assert_eq!(
            (r["ranks_x"].as_u64(), r["ranks_y"].as_u64()),
            (Some(px as u64), Some(py as u64))
        );
        assert_eq!(r["each"].as_array().map(Vec::len), Some(px * py));
        // One reduction per loop-2 iteration, and at least 4 exchanges (pseudo-velocities, a
        // sweep, the correction, the fluxes) with bytes in each.
        assert_eq!(r["reductions"].as_u64(), Some(sum.iterations));
        let (x, b) = (
            r["exchanges"].as_u64().unwrap(),
            r["halo_bytes"].as_u64().unwrap(),
        );
        assert!(x >= 4 * sum.iterations && b >= 8 * x, "{r}");
    }
    // The checkpoint of step 4 written on one process, continued on 2 × 2 ranks and on one
    // process: the same files.
    let ckpt = one.join("rk.ckpt-4");
    let (ra, rb) = (dir.path().join("ra"), dir.path().join("rb"));
    for d in [&ra, &rb] {
        std::fs::create_dir_all(d).unwrap();
    }
    run_case(
        &c.common(),
        &mut SimpleTs::new(Box::new(Reference::new(&c))),
        &opts(&ra, Some(ckpt.clone())),
    )
    .unwrap();
    on_ranks(&c, 2, 2, &opts(&rb, Some(ckpt)));
    same_files(&ra, &rb, "restart on 2 x 2");
}

/// SIGTERM on one rank other than 0 stops the whole run after its first step with rank 0's
/// checkpoint, from which one process continues to the files of an uninterrupted run.
#[test]
fn a_signal_to_any_rank_stops_the_run_with_a_checkpoint() {
    let _g = nc_lock();
    let c = case();
    let dir = tempfile::tempdir().unwrap();
    let (one, cut, cont) = (
        dir.path().join("one"),
        dir.path().join("cut"),
        dir.path().join("cont"),
    );
    run_case(
        &c.common(),
        &mut SimpleTs::new(Box::new(Reference::new(&c))),
        &opts(&one, None),
    )
    .unwrap();
    let e = run_on_ranks(&c, 3, 1, &opts(&cut, None), Some(2)).unwrap_err();
    let RunError::Interrupted { step, checkpoint } = e else {
        panic!("{e}")
    };
    assert_eq!(step, 1);
    assert_eq!(checkpoint, cut.join("rk.ckpt-1"));
    std::fs::create_dir_all(&cont).unwrap();
    run_case(
        &c.common(),
        &mut SimpleTs::new(Box::new(Reference::new(&c))),
        &opts(&cont, Some(checkpoint)),
    )
    .unwrap();
    let read = |d: &Path| std::fs::read(d.join("rk.ckpt-8")).unwrap();
    assert!(
        read(&one) == read(&cont),
        "the continued run's last checkpoint differs"
    );
}

/// What the binary says when it is started by an MPI launcher it cannot use, or asked for a
/// layout without one: one `error:` line and status 2, nothing run.
#[test]
fn launches_it_cannot_serve_are_refused_in_one_line() {
    let _g = nc_lock();
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("rk.json");
    std::fs::write(&case, serde_json::to_string(&case_json()).unwrap()).unwrap();
    let case = case.to_str().unwrap();
    let out = dir.path().join("out");
    let out = out.to_str().unwrap();
    let simplets = |args: &[&str], ranks: Option<&str>| {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_simplets"));
        c.args(args).env_remove("RUST_LOG");
        for v in [
            "OMPI_COMM_WORLD_SIZE",
            "PMI_SIZE",
            "PMIX_RANK",
            "MPI_LOCALNRANKS",
        ] {
            c.env_remove(v);
        }
        if let Some(n) = ranks {
            c.env("OMPI_COMM_WORLD_SIZE", n);
        }
        let o = c.output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        let lines: Vec<&str> = err.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(lines.len(), 1, "{args:?}: {err}");
        lines[0].to_string()
    };
    let e = simplets(&["check", case], Some("2"));
    assert!(
        e.contains("only `simplets run` and `simplets bench` run on several MPI ranks"),
        "{e}"
    );
    let e = simplets(&["run", case, "--out", out, "--ranks-x", "2"], None);
    assert!(e.contains("need an MPI launch"), "{e}");
    if !cfg!(feature = "mpi") {
        let e = simplets(&["run", case, "--out", out], Some("3"));
        assert!(e.contains("built without the feature `mpi`"), "{e}");
        let e = simplets(&["bench", case, "--backend", "reference"], Some("3"));
        assert!(e.contains("built without the feature `mpi`"), "{e}");
    }
    assert!(!Path::new(out).join("rk.nc").exists());
}
