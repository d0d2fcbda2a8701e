//! A run split among ranks (here threads of one process with the same messages as MPI:
//! `decomp::threads`) against the single-process reference: every report (iterations,
//! residuals) and every stored value of both time levels must be the same bits, for 1D and 2D
//! layouts, cuts through a body, all four schemes and both sweep orders. The MPI launcher
//! itself is exercised by `scripts/test-mpi.sh`.

use std::sync::Arc;

use simplets::decomp::{Comm, Decomposition, ThreadComm};
use simplets::methods::simple_ts::backend::Backend;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, Scheme, SweepOrder};
use simplets::methods::simple_ts::fields::State;
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::simple_ts::ranks;
use simplets::methods::simple_ts::reference::Reference;
use simplets::methods::{BackendChoice, BackendKind};
use simplets::solver::StepReport;

/// A 24 × 18 channel with inflow, outflow and slip walls, and a body that the cuts of 3 × 2
/// ranks run through (columns 8..=11, rows 8..=11; cuts after column 8 and row 9).
fn body_case(west: &str, east: &str) -> Case {
    let json = format!(
        r#"{{ "name": "ranks", "gas": {{ "kn": 0.05 }},
           "grid": {{ "nx": 24, "ny": 18, "x": [0.0, 2.4], "y": [0.0, 1.8] }},
           "bodies": [ {{ "x": [0.65, 1.05], "y": [0.75, 1.15], "T_wall": 1.2, "wall": "slip" }} ],
           "boundaries": {{ "west": {west}, "east": {east},
             "south": {{ "kind": "wall", "velocity": 0.3, "T": 1.0, "wall": "slip" }},
             "north": {{ "kind": "wall", "velocity": 0.0, "T": 1.1, "wall": "no_slip" }} }},
           "initial": {{ "u": 0.6, "v": 0.02, "p": 1.0, "T": 1.0 }},
           "time": {{ "dt": 0.01, "steps": 4 }},
           "solver": {{ "max_iters": 6 }} }}"#
    );
    Case::from_json(&json, "ranks").unwrap_or_else(|e| panic!("{e}"))
}

fn inflow() -> &'static str {
    r#"{ "kind": "inflow", "mach": 0.8, "p": 1.0, "T": 1.0 }"#
}

/// "level array (i, j)" of index `k` of [`bits`].
fn place(case: &Case, k: Option<usize>) -> String {
    let Some(k) = k else { return String::new() };
    let (nxt, nyt) = (case.grid.nx + 2, case.grid.ny + 2);
    let (a, c) = (k / (nxt * nyt), k % (nxt * nyt));
    let level = ["n", "k"][a / 6];
    let name = ["u", "v", "p", "T", "rho", "Gam"][a % 6];
    format!("{level}.{name} at ({}, {})", c % nxt, c / nxt)
}

fn bits(s: &State) -> Vec<u64> {
    [&s.n, &s.k]
        .iter()
        .flat_map(|f| [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam])
        .flat_map(|a| a.iter().map(|x| x.to_bits()))
        .collect()
}

/// `steps` steps of `case` on `px × py` threads with `kind`: rank 0's reports and gathered
/// final state.
fn on_ranks(
    case: &Case,
    px: usize,
    py: usize,
    steps: u64,
    kind: BackendKind,
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
                    kind,
                    ..BackendChoice::default()
                };
                let mut r = ranks::build(pb, dec, Arc::clone(&comm), &choice).unwrap();
                if !comm.is_root() {
                    // Steps and gathers as rank 0 orders them.
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

fn same_bits(case: &Case, layouts: &[(usize, usize)], steps: u64, kind: BackendKind) {
    let mut one = Reference::new(case);
    let want: Vec<StepReport> = (0..steps).map(|_| one.step().unwrap()).collect();
    let want_state = bits(&one.state);
    for &(px, py) in layouts {
        let what = format!(
            "{} {:?} {} on {px} x {py}",
            case.name, case.solver.order, case.scheme
        );
        let (reports, st) = on_ranks(case, px, py, steps, kind);
        assert_eq!(reports, want, "{what}: reports");
        let got = bits(&st);
        let diff = got.iter().zip(&want_state).filter(|(a, b)| a != b).count();
        let first = got.iter().zip(&want_state).position(|(a, b)| a != b);
        assert_eq!(
            diff,
            0,
            "{what}: {diff} stored values differ, the first {}",
            place(case, first)
        );
        assert_eq!(
            (st.step, st.time.to_bits()),
            (one.state.step, one.state.time.to_bits())
        );
    }
}

/// Every scheme in both orders on 1D and 2D layouts whose cuts run through the body.
#[test]
fn ranks_equal_one_process_in_every_scheme_and_order() {
    let base = body_case(inflow(), r#"{ "kind": "outflow" }"#);
    for order in [SweepOrder::Cpp, SweepOrder::Gpu] {
        for convection in [Convection::Implicit, Convection::Explicit] {
            for interpolation in [Interpolation::Upwind, Interpolation::Tvd] {
                let mut case = base.clone();
                case.scheme = Scheme {
                    convection,
                    interpolation,
                };
                case.solver.order = order;
                case.solver.inner_sweeps = 2;
                same_bits(&case, &[(3, 2), (1, 3)], 3, BackendKind::Reference);
            }
        }
    }
}

/// More layouts (uneven blocks, 4 and 6 ranks along one axis, the smallest blocks) and the
/// `parallel` backend; pressure sides.
#[test]
fn ranks_equal_one_process_in_many_layouts() {
    let mut case = body_case(
        r#"{ "kind": "pressure", "p": 1.3, "T": 1.0 }"#,
        r#"{ "kind": "pressure", "p": 1.0, "T": 1.0 }"#,
    );
    case.scheme = Scheme {
        convection: Convection::Implicit,
        interpolation: Interpolation::Tvd,
    };
    same_bits(
        &case,
        &[(2, 1), (4, 1), (8, 1), (2, 3), (6, 3), (1, 6)],
        3,
        BackendKind::Reference,
    );
    same_bits(&case, &[(3, 2)], 3, BackendKind::Parallel);
}

/// A periodic x axis (never split): the seam's copies stay inside every window; 1 × 2 and
/// 1 × 3 layouts, both orders, TVD.
#[test]
fn ranks_equal_one_process_with_a_periodic_axis() {
    let mut case = body_case(r#"{ "kind": "periodic" }"#, r#"{ "kind": "periodic" }"#);
    case.scheme = Scheme {
        convection: Convection::Implicit,
        interpolation: Interpolation::Tvd,
    };
    for order in [SweepOrder::Cpp, SweepOrder::Gpu] {
        case.solver.order = order;
        same_bits(&case, &[(1, 2), (1, 3)], 3, BackendKind::Reference);
    }
}

/// `scripts/scaling.sh` (thread ranks on the reference backend): strong scaling on 1, 2 and 3
/// ranks and weak scaling on 1 and 2 write one report per rank count and a table whose
/// efficiency is the aggregate rate over ranks × the one-rank rate, 100 % for one rank.
#[test]
fn scaling_script_writes_the_strong_and_weak_tables() {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("sc.json");
    std::fs::write(
        &case,
        r#"{ "name": "sc", "gas": { "kn": 0.05 },
           "grid": { "nx": 40, "ny": 16, "x": [0.0, 4.0], "y": [0.0, 1.6] },
           "boundaries": { "west": { "kind": "inflow", "mach": 0.5 }, "east": { "kind": "outflow" },
             "south": { "kind": "wall", "velocity": 0.0, "wall": "slip" },
             "north": { "kind": "wall", "velocity": 0.0, "wall": "slip" } },
           "initial": { "u": 0.5 }, "time": { "dt": 0.01, "steps": 4 } }"#,
    )
    .unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/scaling.sh");
    let bin = env!("CARGO_BIN_EXE_simplets");
    let bench = [
        "--backend",
        "reference",
        "--warmup",
        "0",
        "--steps",
        "2",
        "--iters",
        "3",
    ];
    for (kind, extra, counts) in [
        ("strong", &[][..], "1 2 3"),
        ("weak", &["--weak", "20", "16"][..], "1 2"),
    ] {
        let out = dir.path().join(kind);
        let run = std::process::Command::new(script)
            .args(extra)
            .arg("--out")
            .arg(&out)
            .args([bin, case.to_str().unwrap(), counts])
            .args(bench)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&run.stdout);
        assert!(
            run.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&run.stderr)
        );
        let table = std::fs::read_to_string(out.join("table.md")).unwrap();
        assert!(table.contains(&format!("{kind} efficiency")), "{table}");
        let rows: Vec<&str> = table
            .lines()
            .filter(|l| l.starts_with("| ") && l.ends_with("% |"))
            .collect();
        let n = counts.split(' ').count();
        assert_eq!(rows.len(), n, "{table}");
        assert!(
            rows[0].starts_with("| 1 | 1 × 1 |") && rows[0].ends_with("| 100.0 % |"),
            "{table}"
        );
        for (k, row) in rows.iter().enumerate() {
            let r: serde_json::Value = serde_json::from_slice(
                &std::fs::read(out.join(format!("ranks-{}.json", k + 1))).unwrap(),
            )
            .unwrap();
            assert_eq!(r["ranks_x"], k + 1, "{r}");
            assert_eq!(r["iterations"], 6, "{r}");
            // Weak scaling grows the grid with the ranks; strong keeps it.
            let nx = if kind == "weak" { 20 * (k + 1) } else { 40 };
            assert_eq!(r["nx"], nx, "{r}");
            let eff = r["mcell_its"].as_f64().unwrap()
                / ((k + 1) as f64 * rate_of(&out.join("ranks-1.json")));
            assert!(
                row.contains(&format!("{:.1} %", 100.0 * eff)),
                "{row} vs {eff}"
            );
        }
    }
}

/// The aggregate Mcell-it/s of a report.
fn rate_of(path: &std::path::Path) -> f64 {
    let r: serde_json::Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    r["mcell_its"].as_f64().unwrap()
}

/// The options of a decomposed bench without ranks are refused in one line naming the flag.
#[test]
fn decomposed_bench_options_need_ranks() {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("sc.json");
    std::fs::write(
        &case,
        r#"{ "name": "sc", "grid": { "nx": 8, "ny": 8, "x": [0.0, 1.0], "y": [0.0, 1.0] },
           "boundaries": { "west": { "kind": "wall" }, "east": { "kind": "wall" },
             "south": { "kind": "wall" }, "north": { "kind": "wall", "velocity": 1.0 } },
           "time": { "dt": 0.01, "steps": 1 } }"#,
    )
    .unwrap();
    for flag in [
        ["--ranks-x", "2"],
        ["--link-gbs", "50"],
        ["--halo-exchange", "both"],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_simplets"))
            .args(["bench", case.to_str().unwrap(), "--backend", "reference"])
            .args(flag)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(
            err.contains(&format!("{} is for a decomposed bench", flag[0])),
            "{err}"
        );
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}
