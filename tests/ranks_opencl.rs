//! The OpenCL phase form split among ranks (threads of one process exchanging the messages of
//! MPI: `decomp::threads`) on PoCL against the single-process reference: every report and
//! every stored value of both time levels must be the same bits, for 1D and 2D layouts, cuts
//! through a body, both sweep orders and pressure sides. The halos cross the bus as strips
//! (`opencl/phase.rs`); the MPI launcher itself is exercised by `scripts/test-mpi.sh`.
//!
//! Each window is a program of its own (its size and copy lists are build constants); the
//! programs come from the shared kernel cache (`tests/common`), and both sweep orders use the
//! same ones.

mod common;

use std::sync::Arc;

use common::{cl_lock, kernel_cache_dir};
use simplets::decomp::{Comm, Decomposition, ThreadComm};
use simplets::device::KernelCache;
use simplets::methods::simple_ts::backend::Backend;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, Scheme, SweepOrder};
use simplets::methods::simple_ts::fields::State;
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::simple_ts::ranks;
use simplets::methods::simple_ts::reference::Reference;
use simplets::methods::{BackendChoice, BackendKind};
use simplets::solver::StepReport;

/// A 24 × 18 channel with slip walls and a body that the cuts of 3 × 1 and 2 × 2 ranks run
/// through (body columns 8..=11, rows 8..=11).
fn body_case(west: &str, east: &str) -> Case {
    let json = format!(
        r#"{{ "name": "ranks_cl", "gas": {{ "kn": 0.05 }},
           "grid": {{ "nx": 24, "ny": 18, "x": [0.0, 2.4], "y": [0.0, 1.8] }},
           "bodies": [ {{ "x": [0.65, 1.05], "y": [0.75, 1.15], "T_wall": 1.2, "wall": "slip" }} ],
           "boundaries": {{ "west": {west}, "east": {east},
             "south": {{ "kind": "wall", "velocity": 0.3, "T": 1.0, "wall": "slip" }},
             "north": {{ "kind": "wall", "velocity": 0.0, "T": 1.1, "wall": "no_slip" }} }},
           "initial": {{ "u": 0.6, "v": 0.02, "p": 1.0, "T": 1.0 }},
           "time": {{ "dt": 0.01, "steps": 3 }},
           "solver": {{ "max_iters": 6 }} }}"#
    );
    let mut c = Case::from_json(&json, "ranks_cl").unwrap_or_else(|e| panic!("{e}"));
    c.scheme = Scheme {
        convection: Convection::Implicit,
        interpolation: Interpolation::Tvd,
    };
    c
}

fn bits(s: &State) -> Vec<u64> {
    [&s.n, &s.k]
        .iter()
        .flat_map(|f| [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam])
        .flat_map(|a| a.iter().map(|x| x.to_bits()))
        .collect()
}

/// "level array (i, j)" of index `k` of [`bits`].
fn place(case: &Case, k: usize) -> String {
    let (nxt, nyt) = (case.grid.nx + 2, case.grid.ny + 2);
    let (a, c) = (k / (nxt * nyt), k % (nxt * nyt));
    let level = ["n", "k"][a / 6];
    let name = ["u", "v", "p", "T", "rho", "Gam"][a % 6];
    format!("{level}.{name} at ({}, {})", c % nxt, c / nxt)
}

/// `steps` steps of `case` on `px × py` thread ranks on OpenCL: rank 0's reports and gathered
/// final state, with the exchanges overlapped (`Some(true)`), blocking (`Some(false)`) or as
/// the environment says (`None`); with `Some`, every rank must report that exchange.
fn on_ranks_with(
    case: &Case,
    px: usize,
    py: usize,
    steps: u64,
    overlap: Option<bool>,
) -> (Vec<StepReport>, State) {
    let pb = Arc::new(Problem::new(case));
    let dec = Decomposition::new(case.grid.nx, case.grid.ny, px, py).unwrap();
    let threads: Vec<_> = ThreadComm::group(px * py)
        .into_iter()
        .map(|c| {
            let (pb, dec) = (Arc::clone(&pb), dec.clone());
            std::thread::spawn(move || {
                let comm: Arc<dyn Comm> = Arc::new(c);
                let choice = BackendChoice {
                    kind: BackendKind::OpenCl,
                    cache: Some(KernelCache::new(kernel_cache_dir())),
                    ..BackendChoice::default()
                };
                let mut r = ranks::build(pb, dec, Arc::clone(&comm), &choice)
                    .unwrap_or_else(|e| panic!("rank {}: {e}", comm.rank()));
                if let Some(on) = overlap {
                    r.set_overlap(on);
                    let how = r.halo_exchange();
                    let want = if on { "overlapped" } else { "blocking" };
                    assert!(
                        how.is_some_and(|v| v.starts_with(want)),
                        "rank {}: {how:?}",
                        comm.rank()
                    );
                }
                if !comm.is_root() {
                    r.follow();
                    return None;
                }
                let reports: Vec<StepReport> = (0..steps).map(|_| r.step().unwrap()).collect();
                let st = r.state().unwrap().clone();
                Some((reports, st))
            })
        })
        .collect();
    let mut out: Vec<_> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    assert!(out[1..].iter().all(Option::is_none));
    out.swap_remove(0).unwrap()
}

fn same_bits(case: &Case, layouts: &[(usize, usize)], steps: u64) {
    same_bits_with(case, layouts, steps, None)
}

fn same_bits_with(case: &Case, layouts: &[(usize, usize)], steps: u64, overlap: Option<bool>) {
    let mut one = Reference::new(case);
    let want: Vec<StepReport> = (0..steps).map(|_| one.step().unwrap()).collect();
    let want_state = bits(&one.state);
    for &(px, py) in layouts {
        let what = format!(
            "{} {:?} on {px} x {py} (overlap {overlap:?})",
            case.name, case.solver.order
        );
        let (reports, st) = on_ranks_with(case, px, py, steps, overlap);
        assert_eq!(reports, want, "{what}: reports");
        let got = bits(&st);
        let diff = got.iter().zip(&want_state).filter(|(a, b)| a != b).count();
        let first = got.iter().zip(&want_state).position(|(a, b)| a != b);
        assert_eq!(
            diff,
            0,
            "{what}: {diff} stored values differ, the first {}",
            first.map_or(String::new(), |k| place(case, k))
        );
        assert_eq!(
            (st.step, st.time.to_bits()),
            (one.state.step, one.state.time.to_bits()),
            "{what}: clock"
        );
        eprintln!("{what}: {} steps, 0 values differ", reports.len());
    }
}

/// Inflow and outflow, both sweep orders (the C++ order with two loop-3 sweeps, each
/// exchanged), 1D and 2D layouts whose cuts run through the body.
#[test]
fn opencl_ranks_equal_one_process_in_both_orders() {
    let _g = cl_lock();
    let base = body_case(
        r#"{ "kind": "inflow", "mach": 0.8, "p": 1.0, "T": 1.0 }"#,
        r#"{ "kind": "outflow" }"#,
    );
    for order in [SweepOrder::Gpu, SweepOrder::Cpp] {
        let mut case = base.clone();
        case.solver.order = order;
        case.solver.inner_sweeps = 2;
        same_bits(&case, &[(2, 1), (1, 2), (3, 1), (2, 2)], 3);
    }
}

/// The exchanges overlapped with the interior (`phase/overlap.rs`, the default: each phase's
/// frame first, its interior and copy list again while the strips travel) and blocking, set on
/// every rank: the same bits as one process in both orders, on windows whose interior is
/// launched in groups of 32 columns (80 columns on 2 × 1 and 2 × 2) and in the driver's shape
/// (3 × 1), cut through the body.
#[test]
fn overlapped_exchange_equals_one_process() {
    let _g = cl_lock();
    let mut base = body_case(
        r#"{ "kind": "inflow", "mach": 0.8, "p": 1.0, "T": 1.0 }"#,
        r#"{ "kind": "outflow" }"#,
    );
    base.grid.nx = 80;
    base.grid.x = [0.0, 8.0];
    base.bodies[0].x = [3.85, 4.25];
    for order in [SweepOrder::Gpu, SweepOrder::Cpp] {
        let mut case = base.clone();
        case.solver.order = order;
        case.solver.inner_sweeps = 2;
        same_bits_with(&case, &[(2, 1), (2, 2), (3, 1)], 3, Some(true));
    }
    same_bits_with(&base, &[(2, 2)], 2, Some(false));
}

/// Pressure sides (ghost rules on both x sides) on 2 × 1.
#[test]
fn opencl_ranks_equal_one_process_with_pressure_sides() {
    let _g = cl_lock();
    let case = body_case(
        r#"{ "kind": "pressure", "p": 1.3, "T": 1.0 }"#,
        r#"{ "kind": "pressure", "p": 1.0, "T": 1.0 }"#,
    );
    same_bits(&case, &[(2, 1)], 3);
}

/// `simplets bench --thread-ranks 2 --halo-exchange both` on OpenCL: for the blocking and the
/// overlapped exchange, every rank reports the same iterations, halo traffic in every
/// iteration, and a modelled exchange time; the JSON has both reports.
#[test]
fn bench_on_thread_ranks_reports_every_rank() {
    let _g = cl_lock();
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("ranks_cl.json");
    let json = dir.path().join("bench.json");
    std::fs::write(
        &case,
        r#"{ "name": "ranks_cl", "gas": { "kn": 0.05 },
           "grid": { "nx": 24, "ny": 18, "x": [0.0, 2.4], "y": [0.0, 1.8] },
           "bodies": [ { "x": [0.65, 1.05], "y": [0.75, 1.15], "T_wall": 1.2, "wall": "slip" } ],
           "boundaries": { "west": { "kind": "inflow", "mach": 0.8, "p": 1.0, "T": 1.0 },
             "east": { "kind": "outflow" },
             "south": { "kind": "wall", "velocity": 0.3, "T": 1.0, "wall": "slip" },
             "north": { "kind": "wall", "velocity": 0.0, "T": 1.1, "wall": "no_slip" } },
           "initial": { "u": 0.6, "v": 0.02, "p": 1.0, "T": 1.0 },
           "scheme": { "convection": "implicit", "interpolation": "tvd" },
           "time": { "dt": 0.01, "steps": 3 },
           "solver": { "max_iters": 6, "order": "gpu" } }"#,
    )
    .unwrap();
    let out = common::simplets()
        .args(["bench", case.to_str().unwrap(), "--backend", "opencl"])
        .args([
            "--thread-ranks",
            "2",
            "--warmup",
            "0",
            "--steps",
            "2",
            "--iters",
            "3",
            "--halo-exchange",
            "both",
        ])
        .args(["--json", json.to_str().unwrap()])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("on 2 x 1 thread ranks"), "{text}");
    assert!(text.contains("(overlapped exchange)"), "{text}");
    let both: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    for how in ["blocking", "overlapped"] {
        let r = &both[how];
        assert_eq!(r["exchange"], how, "{both}");
        assert_eq!(r["iterations"], 6, "{r}");
        let each = r["each"].as_array().unwrap();
        assert_eq!(each.len(), 2);
        for rank in each {
            assert_eq!(rank["iterations"], 6, "{rank}");
            // Four exchanges per iteration in the GPU order (pseudo-velocities, the sweep, the
            // correction, the fluxes), one neighbour each.
            assert_eq!(rank["exchanges_per_iteration"], 4.0, "{rank}");
            assert!(
                rank["halo_bytes_per_iteration"].as_f64().unwrap() > 0.0,
                "{rank}"
            );
            assert!(
                rank["model_ms_per_iteration"].as_f64().unwrap() > 0.0,
                "{rank}"
            );
        }
    }
}
