//! `simplets validate all --quick` through the library (issue 6): every metric of every
//! validation case passes on the coarse variants. The full variants run with
//! `simplets validate all`; reports go to validation/report/.

mod common;

use std::path::Path;

use simplets::validate::{run_case, table, CASES};

/// The cases are independent: they run on as many threads as there are cores (about 2 min of
/// CPU in all), each taking the next case not yet taken; the rows keep the order of [`CASES`].
#[test]
fn every_quick_validation_metric_passes() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let next = AtomicUsize::new(0);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get().min(CASES.len()));
    let mut done: Vec<(usize, Vec<_>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(name) = CASES.get(k) else {
                            return mine;
                        };
                        let rep =
                            run_case(root, name, true).unwrap_or_else(|e| panic!("{name}: {e}"));
                        assert!(!rep.rows.is_empty(), "{name}: no metrics");
                        mine.push((k, rep.rows));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    done.sort_by_key(|(k, _)| *k);
    assert_eq!(done.len(), CASES.len());
    let rows: Vec<_> = done.into_iter().flat_map(|(_, rows)| rows).collect();
    eprint!("{}", table(&rows));
    let failed: Vec<_> = rows.iter().filter(|r| !r.pass).collect();
    assert!(failed.is_empty(), "failed metrics: {failed:#?}");
}

#[test]
fn unknown_case_is_an_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(run_case(root, "no_such_case", true).is_err());
}

/// `simplets validate couette_heat --quick --backend opencl` on PoCL passes, names the OpenCL
/// device in the printed table and the report, and its metrics (the full-precision
/// `<case>.csv`, shortest round-trip digits) equal those of the reference run bit for bit: the
/// OpenCL backend runs the case's sweep order (here the default C++ order, two T/p sweeps per
/// loop-2 iteration, on the phase kernels), whose kernels are bit-identical twins of the
/// reference (`tests/parity.rs`).
#[test]
fn opencl_validation_matches_the_reference() {
    use simplets::methods::simple_ts::backend::Backend as Solver;
    use simplets::methods::simple_ts::case::Case;
    use simplets::methods::simple_ts::reference::Reference;
    use simplets::validate::{run_case_on, Backend};

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = common::simplets()
        .args(["validate", "couette_heat", "--quick", "--backend", "opencl"])
        .arg("--report-dir")
        .arg(dir.path())
        .current_dir(root)
        .output()
        .expect("run simplets");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout: {stdout}\nstderr: {stderr}");
    assert!(stdout.contains("backend: opencl:"), "{stdout}");
    let md = std::fs::read_to_string(dir.path().join("couette_heat.md")).unwrap();
    assert!(md.contains("Backend: opencl:"), "{md}");
    let csv = std::fs::read_to_string(dir.path().join("couette_heat.csv")).unwrap();
    let ours: Vec<(String, f64)> = csv
        .lines()
        .filter(|l| l.starts_with('"'))
        .map(|l| {
            let (metric, rest) = l[1..].split_once("\",").unwrap();
            let value = rest.split(',').next().unwrap().parse().unwrap();
            (metric.to_string(), value)
        })
        .collect();

    let same_order =
        Backend::new(|case: &Case| Ok(Box::new(Reference::new(case)) as Box<dyn Solver>));
    let reference = run_case_on(root, "couette_heat", true, &same_order).unwrap();
    assert_eq!(ours.len(), reference.rows.len(), "{csv}");
    for ((metric, value), row) in ours.iter().zip(&reference.rows) {
        assert_eq!(metric, &row.metric);
        assert_eq!(
            value.to_bits(),
            row.value.to_bits(),
            "{metric}: OpenCL {value:e}, reference {:e}",
            row.value
        );
    }
}

/// A device that does not exist is bad input: one `error:` line naming the selector, exit 2,
/// before any case runs (no report written).
#[test]
fn validate_with_an_unknown_device_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = common::simplets()
        .args(["validate", "couette_heat", "--quick", "--backend", "opencl"])
        .args(["--device", "no-such-device-xyz", "--report-dir"])
        .arg(dir.path())
        .output()
        .expect("run simplets");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "stderr: {err}");
    assert!(
        err.starts_with("error: ") && err.contains("no-such-device-xyz"),
        "{err}"
    );
    assert!(!dir.path().join("couette_heat.md").exists());
}

/// A confined-square run on the OpenCL backend (PoCL in CI) gives the same C_d and stand-off as
/// the reference in the GPU sweep order (both set to it), bit for bit: the square studies'
/// metrics are computed on the host from the sampled states, whatever marched them, and the
/// states are bit-identical. The same holds for a run warm-started from the final state on the
/// grid refined by two.
#[test]
fn square_run_on_opencl_matches_the_reference_in_gpu_order() {
    use simplets::methods::simple_ts::backend::Backend as Solver;
    use simplets::methods::simple_ts::case::{Case, SweepOrder};
    use simplets::methods::simple_ts::opencl::phase::OpenCl;
    use simplets::validate::square::{run_square, Averaging};
    use simplets::validate::Backend;

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file = root.join("validation/confined_square/case.quick.json");
    let mut case = Case::from_file(&file).unwrap();
    case.time.steps = Some(20);
    case.solver.order = SweepOrder::Gpu;
    let avg = Averaging {
        from: 0.5,
        samples: 5,
        kick: 0.0,
    };
    let cl = Backend::new(|c: &Case| {
        let s = OpenCl::new(c, &common::cl_options()).map_err(|e| e.to_string())?;
        Ok(Box::new(s) as Box<dyn Solver>)
    });
    let (a, end_a) = run_square(&case, &cl, avg, None, true).unwrap();
    assert!(cl.names()[0].starts_with("opencl"), "{:?}", cl.names());
    let rf = Backend::reference();
    let (b, end_b) = run_square(&case, &rf, avg, None, true).unwrap();
    let close = |x: f64, y: f64| x.to_bits() == y.to_bits();
    assert!(close(a.cd, b.cd), "{} {}", a.cd, b.cd);
    let (sa, sb) = (a.standoff.unwrap(), b.standoff.unwrap());
    assert!(close(sa, sb), "{sa} {sb}");
    // Grid sequencing: both backends go on from their final states carried to the grid refined
    // by two (the device backend takes the carried state through `restore`).
    let fine = simplets::validate::square::warm_case(&case, 2, 2, 10.0 * case.time.dt / 2.0);
    let (wa, _) = run_square(&fine, &cl, avg, end_a.as_ref(), false).unwrap();
    let (wb, _) = run_square(&fine, &rf, avg, end_b.as_ref(), false).unwrap();
    assert_eq!(wb.steps, 10);
    assert!(wb.label.ends_with(" warm"), "{}", wb.label);
    assert!(
        wb.start.as_deref().unwrap().starts_with(&b.label),
        "{:?}",
        wb.start
    );
    assert!(close(wa.cd, wb.cd), "{} {}", wa.cd, wb.cd);
    // It goes on in time from the coarse run's end.
    let t_end = b.history.last().unwrap().0;
    assert!(wb.history[0].0 > t_end, "{:?} after {t_end}", wb.history[0]);
}

/// The committed GPU studies (`validation/cache/`: the supersonic and low-speed confined
/// squares, every run computed on an H200) assemble from their run cache with nothing run, and
/// every row of both passes. This pins the committed reports to the code: a change that moves a
/// study's runs (case, grid, Δt, sampling: the cache key) or its rows fails here instead of
/// silently leaving reports that the code no longer reproduces.
#[test]
fn committed_gpu_studies_assemble_from_the_run_cache_and_pass() {
    use simplets::validate::{run_case_on, Backend, RunCache};

    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let bk = Backend::new(|case: &simplets::methods::simple_ts::case::Case| {
        Err(format!(
            "{}: a run missing from the cache would run here",
            case.name
        ))
    })
    .with_cache(Some(RunCache {
        dir: root.join("validation").join("cache"),
        kind: "opencl".into(),
    }))
    .with_cache_only(true);
    for (name, n_rows) in [("confined_square", 11), ("square_low_speed", 8)] {
        let rep = run_case_on(root, name, false, &bk).unwrap_or_else(|e| panic!("{name}: {e}"));
        eprint!("{}", table(&rep.rows));
        assert_eq!(rep.rows.len(), n_rows, "{name}: rows");
        let failed: Vec<_> = rep.rows.iter().filter(|r| !r.pass).collect();
        assert!(failed.is_empty(), "{name}: failed metrics: {failed:#?}");
        // Every run came from the cache, and the report says so and names nothing else.
        assert!(
            rep.backend.starts_with("opencl:NVIDIA H200 (cached") && !rep.backend.contains(", "),
            "{name}: backend {}",
            rep.backend
        );
        // The committed report was written from these runs: its table has the same rows.
        let md = std::fs::read_to_string(root.join("validation/report").join(format!("{name}.md")))
            .unwrap();
        for r in &rep.rows {
            assert!(
                md.contains(&format!("| {} |", r.metric)),
                "{name}: {} not in the report",
                r.metric
            );
        }
    }
}

/// `--cache-only` with a run missing from the cache is bad input (exit 2) that names the
/// missing runs, and writes no report.
#[test]
fn cache_only_with_missing_runs_is_bad_input() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let out = common::simplets()
        .args(["validate", "confined_square", "--cache-only", "--cache"])
        .arg(dir.path().join("empty"))
        .arg("--report-dir")
        .arg(dir.path().join("report"))
        .current_dir(root)
        .output()
        .expect("run simplets");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {stderr}");
    assert!(
        stderr.contains("not in the run cache") && stderr.contains("implicit-upwind h=1/80 warm"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(!dir.path().join("report").exists());
}
