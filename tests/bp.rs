//! `bp_euler` through the solver seam: a run writes the node positions as CF 2D auxiliary
//! coordinates (x, y on (y_c, x_c), `coordinates = "y x"` on every field) that equal the
//! grid generator's; a restored checkpoint continues bit-identically; OpenCL is refused with
//! one line; bad input names its field.
#![cfg(feature = "netcdf")]

use simplets::methods::bp::grid::NodeGrid;
use simplets::methods::{AnyCase, BackendChoice, BackendKind};
use simplets::run::status::Progress;
use simplets::run::RunOptions;
use simplets::solver::Solver;

const CASE: &str = r#"{"name":"bpt","method":"bp_euler",
    "grid":{"kind":"bump","ni":25,"nj":9,"thickness":0.1},
    "inlet":{"p0":100000,"t0":300},"outlet":{"p":84300},
    "time":{"steps":60},"output":{"interval":30}}"#;

fn case() -> AnyCase {
    AnyCase::from_json(CASE, "<t>").unwrap()
}

#[test]
fn run_writes_curvilinear_auxiliary_coordinates() {
    let c = case();
    let dir = tempfile::tempdir().unwrap();
    let mut s = simplets::methods::build(&c, &BackendChoice::default()).unwrap();
    let o = RunOptions {
        out_dir: dir.path().to_path_buf(),
        progress: Progress::Off,
        ..RunOptions::default()
    };
    simplets::run::run_case(&c.common(), s.as_mut(), &o).unwrap();
    let f = netcdf::open(dir.path().join("bpt.nc")).unwrap();
    let g = NodeGrid::bump(25, 9, 0.1);
    for (name, want) in [("x", &g.x), ("y", &g.y)] {
        let v = f.variable(name).unwrap();
        let dims: Vec<String> = v.dimensions().iter().map(|d| d.name()).collect();
        assert_eq!(dims, ["y_c", "x_c"], "{name}");
        assert_eq!(&v.get_values::<f64, _>(..).unwrap(), want, "{name}");
    }
    for field in ["rho", "u", "v", "p", "mach"] {
        let v = f.variable(field).unwrap();
        let a = v.attribute("coordinates").unwrap().value().unwrap();
        assert_eq!(
            format!("{a:?}"),
            format!("{:?}", netcdf::AttributeValue::Str("y x".into()))
        );
    }
}

#[test]
fn restore_continues_bit_identically() {
    let AnyCase::BpEuler(c) = case() else {
        panic!()
    };
    let ch = BackendChoice::default();
    let mut whole = simplets::methods::bp::solver::BpSolver::new(&c, &ch).unwrap();
    for _ in 0..40 {
        whole.step().unwrap();
    }
    let mut a = simplets::methods::bp::solver::BpSolver::new(&c, &ch).unwrap();
    for _ in 0..15 {
        a.step().unwrap();
    }
    let saved = a.save().unwrap();
    let mut b = simplets::methods::bp::solver::BpSolver::new(&c, &ch).unwrap();
    b.restore(saved).unwrap();
    for _ in 0..25 {
        b.step().unwrap();
    }
    let bits = |s: &simplets::methods::bp::solver::BpSolver| -> Vec<u64> {
        s.bp().w.iter().flatten().map(|x| x.to_bits()).collect()
    };
    assert_eq!(b.clock().0, 40);
    assert!(bits(&b) == bits(&whole), "the restored run differs");
}

#[test]
fn opencl_refused_and_bad_input_named() {
    let ch = BackendChoice {
        kind: BackendKind::OpenCl,
        ..BackendChoice::default()
    };
    let e = simplets::methods::build(&case(), &ch)
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("bp_euler has no OpenCL kernels"), "{e}");
    for (from, to, field) in [
        (r#""ni":25"#, r#""ni":2"#, "grid.ni"),
        (r#""p":84300"#, r#""p":200000"#, "outlet.p"),
        (r#""t0":300"#, r#""t0":-3"#, "inlet.t0"),
    ] {
        let e = AnyCase::from_json(&CASE.replace(from, to), "<t>")
            .expect_err("refused")
            .to_string();
        assert!(e.contains(field), "{field}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}
