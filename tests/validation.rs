//! `simplets validate all --quick` through the library (issue 6): every metric of every
//! validation case passes on the coarse variants. The full variants run with
//! `simplets validate all`; reports go to validation/report/.

use std::path::Path;

use simplets::validate::{run_case, table, CASES};

#[test]
fn every_quick_validation_metric_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut rows = vec![];
    for name in CASES {
        let rep = run_case(root, name, true).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!rep.rows.is_empty(), "{name}: no metrics");
        rows.extend(rep.rows);
    }
    eprint!("{}", table(&rows));
    let failed: Vec<_> = rows.iter().filter(|r| !r.pass).collect();
    assert!(failed.is_empty(), "failed metrics: {failed:#?}");
}

#[test]
fn unknown_case_is_an_error() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert!(run_case(root, "no_such_case", true).is_err());
}

/// The square study's solver factory on the OpenCL backend (PoCL in CI) gives the same C_d and
/// stand-off as the reference in the GPU order: the full variants are meant for the GPU.
#[test]
fn square_run_on_opencl_matches_the_reference() {
    use simplets::config::{Case, SweepOrder};
    use simplets::validate::square::{opencl_factory, reference_solver, run_square, Averaging};
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
    let cl = opencl_factory(simplets::gpu::solver::OpenClOptions::default());
    let a = run_square(&case, &cl, avg).unwrap();
    let b = run_square(&case, &reference_solver, avg).unwrap();
    assert!(
        (a.cd - b.cd).abs() <= 1e-12 * b.cd.abs(),
        "{} {}",
        a.cd,
        b.cd
    );
    let (sa, sb) = (a.standoff.unwrap(), b.standoff.unwrap());
    assert!((sa - sb).abs() <= 1e-12 * sb, "{sa} {sb}");
}

/// The full square studies on the OpenCL backend: the GPU run of `validation/confined_square`
/// and `validation/square_low_speed` (minutes each on an H200, hours on PoCL), until
/// `simplets validate` takes `--backend`. Writes `validation/report/<case>.md` and its PNGs
/// (or into `$SQUARE_REPORT_DIR`); `$SQUARE_CASES` picks the cases (comma-separated),
/// `$SIMPLETS_DEVICE` the device, `SQUARE_QUICK=1` the quick variants (a smoke test of the
/// device path; the low-speed quick variant's Δt is for the reference only). Run one case per
/// command:
/// `SQUARE_CASES=confined_square cargo test --release --no-default-features --test validation
/// -- --ignored --nocapture full_square_studies_on_opencl`.
#[test]
#[ignore = "the GPU run of the full square studies (minutes on an H200)"]
fn full_square_studies_on_opencl() {
    use simplets::device::KernelCache;
    use simplets::gpu::solver::OpenClOptions;
    use simplets::validate::square::{opencl_factory, run_case_with};
    use simplets::validate::write_report;
    // One progress line per run (scheme, grid, C_d, stand-off, recirculation, wall time).
    let _ = env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info"))
        .is_test(true)
        .try_init();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::env::var("SQUARE_REPORT_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| root.join("validation/report"));
    let cases = std::env::var("SQUARE_CASES")
        .unwrap_or_else(|_| "confined_square,square_low_speed".to_string());
    let mut failed = vec![];
    for name in cases.split(',') {
        let start = std::time::Instant::now();
        let cl = opencl_factory(OpenClOptions {
            device: std::env::var("SIMPLETS_DEVICE").ok(),
            cache: KernelCache::default_dir().map(KernelCache::new),
            log_dir: None,
        });
        let quick = std::env::var("SQUARE_QUICK").is_ok_and(|v| v == "1");
        let rep = run_case_with(root, name, quick, &cl).unwrap_or_else(|e| panic!("{name}: {e}"));
        let path = write_report(&rep, &out).unwrap();
        eprint!("{}", table(&rep.rows));
        for n in &rep.notes {
            eprintln!("- {n}");
        }
        eprintln!(
            "{name}: {:.1} s, report {}",
            start.elapsed().as_secs_f64(),
            path.display()
        );
        failed.extend(rep.rows.into_iter().filter(|r| !r.pass));
    }
    assert!(failed.is_empty(), "failed metrics: {failed:#?}");
}
