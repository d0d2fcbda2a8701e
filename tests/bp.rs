//! `bp_euler` through the solver seam: a run writes the node positions as CF 2D auxiliary
//! coordinates (x, y on (y_c, x_c), `coordinates = "y x"` on every field) that equal the
//! grid generator's; a restored checkpoint continues bit-identically; the OpenCL backend
//! and the parallel backend are bit-identical to the reference on PoCL (steps, residuals,
//! snapshots, checkpoints, restores, the NetCDF file, a failing step); bad input names its
//! field.
#![cfg(feature = "netcdf")]

mod common;

#[path = "bp/cascade.rs"]
mod cascade;
#[path = "bp/forms.rs"]
mod forms;
#[path = "bp/grids.rs"]
mod grids;

use simplets::device::KernelCache;
use simplets::methods::bp::grid::NodeGrid;
use simplets::methods::bp::solver::BpSolver;
use simplets::methods::{AnyCase, BackendChoice, BackendKind};
use simplets::run::status::Progress;
use simplets::run::RunOptions;
use simplets::solver::{Level, Solver};

pub(crate) const CASE: &str = r#"{"name":"bpt","method":"bp_euler",
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
    let f = common::open_nc(&dir.path().join("bpt.nc"));
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
fn bad_input_named() {
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

/// The wedge's inputs named (one line each).
#[test]
fn wedge_bad_input_named() {
    let wedge = std::fs::read_to_string(common::config("bp_wedge.json")).unwrap();
    for (from, to, field) in [
        (r#""angle": 10.0"#, r#""angle": 45.0"#, "grid.angle"),
        (r#""mach": 1.6"#, r#""mach": 0.8"#, "inlet.mach"),
        (r#""mach": 1.6"#, r#""mach": 1.6, "p0": 1e5"#, "inlet.p0"),
        (r#""t": 300.0"#, r#""t": -300.0"#, "inlet.t"),
        (r#""p": 100000.0, "#, "", "inlet.p"),
        (
            r#""kind": "supersonic""#,
            r#""kind": "supersonic", "p": 1e5"#,
            "outlet.p",
        ),
        (
            r#""kind": "supersonic""#,
            r#""kind": "pressure""#,
            "outlet.p",
        ),
    ] {
        assert!(wedge.contains(from), "{from}");
        let e = AnyCase::from_json(&wedge.replace(from, to), "<t>")
            .expect_err("refused")
            .to_string();
        assert!(e.contains(field), "{field}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
    // A supersonic exit after a subsonic inlet has no state to start from.
    let e = AnyCase::from_json(
        &CASE.replace(
            r#""outlet":{"p":84300}"#,
            r#""outlet":{"kind":"supersonic"}"#,
        ),
        "<t>",
    )
    .expect_err("refused")
    .to_string();
    assert!(e.contains("outlet.kind"), "{e}");
}

/// An odd-sized bump grid (both counts odd, neither a multiple of a work-group) whose inlet
/// density is still relaxing, so every kernel and the host's inlet condition matter.
pub(crate) const ODD: &str = r#"{"name":"bpodd","method":"bp_euler",
    "grid":{"kind":"bump","ni":37,"nj":13,"thickness":0.1},
    "inlet":{"p0":100000,"t0":300,"angle":3},"outlet":{"p":84300},
    "time":{"steps":200}}"#;

fn odd() -> simplets::methods::bp::case::Case {
    let AnyCase::BpEuler(c) = AnyCase::from_json(ODD, "<t>").unwrap() else {
        panic!()
    };
    c
}

pub(crate) fn choice(kind: BackendKind) -> BackendChoice {
    common::init_log();
    BackendChoice {
        kind,
        cache: Some(KernelCache::new(common::kernel_cache_dir())),
        ..BackendChoice::default()
    }
}

fn bits(a: &[[f64; 4]]) -> Vec<u64> {
    a.iter().flatten().map(|x| x.to_bits()).collect()
}

pub(crate) fn same(what: &str, a: &[[f64; 4]], b: &[[f64; 4]]) {
    let (a, b) = (bits(a), bits(b));
    let first = a.iter().zip(&b).position(|(x, y)| x != y);
    assert!(
        first.is_none() && a.len() == b.len(),
        "{what}: first difference at value {first:?} of {}",
        a.len()
    );
}

fn same_arrays(what: &str, a: &[&[f64]], b: &[&[f64]]) {
    assert_eq!(a.len(), b.len(), "{what}");
    for (v, (x, y)) in a.iter().zip(b).enumerate() {
        let d = x
            .iter()
            .zip(y.iter())
            .position(|(p, q)| p.to_bits() != q.to_bits());
        assert!(d.is_none(), "{what}: array {v} differs at {d:?}");
    }
}

/// A small odd-sized wedge (a node on the corner: 30 cells along i, the corner at a third):
/// the supersonic inlet and exit, with the corner's shock still moving.
pub(crate) const WEDGE: &str = r#"{"name":"bpwedge","method":"bp_euler",
    "grid":{"kind":"wedge","ni":31,"nj":19,"angle":10},
    "inlet":{"mach":1.6,"p":100000,"t":300},"outlet":{"kind":"supersonic"},
    "time":{"steps":200}}"#;

/// 150 steps on the reference, on OpenCL and on the parallel backend: every step's residual,
/// the node state, both snapshot levels and the checkpoint arrays are bit-identical (0
/// tolerance).
#[test]
fn opencl_and_parallel_match_the_reference_bit_for_bit() {
    parity(odd(), true);
}

/// The same on the wedge (supersonic inlet and exit).
#[test]
fn wedge_opencl_and_parallel_match_the_reference_bit_for_bit() {
    let AnyCase::BpEuler(c) = AnyCase::from_json(WEDGE, "<t>").unwrap() else {
        panic!()
    };
    assert!(c.flow().free_exit && c.flow().p_inlet.is_some());
    parity(c.clone(), false);
    // The shock has reached the exit, whose pressure is free: an imposed exit pressure
    // (the inlet's) would have kept it at 1 bar.
    let mut r = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    for _ in 0..150 {
        r.step().unwrap();
    }
    let (w, b) = (r.state().unwrap(), r.bp());
    let ni = b.g.ni;
    let rise = (0..b.g.nj)
        .map(|j| b.flow.secondary(&w[ni - 1 + j * ni])[2] / b.flow.p_exit - 1.0)
        .fold(0.0, f64::max);
    assert!(rise > 0.2, "exit pressure rise {rise}");
}

/// 150 steps of `c` on the three backends, compared bit for bit; `relaxing`: the inlet
/// density is still relaxing at the end (the subsonic inlet).
pub(crate) fn parity(c: simplets::methods::bp::case::Case, relaxing: bool) {
    let mut r = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    let mut par = BpSolver::new(&c, &choice(BackendKind::Parallel)).unwrap();
    assert!(par.name().starts_with("parallel:"), "{}", par.name());
    let _g = common::cl_lock();
    let mut o = BpSolver::new(&c, &choice(BackendKind::OpenCl)).unwrap();
    assert!(o.name().starts_with("opencl:"), "{}", o.name());
    for n in 0..150 {
        let (a, b) = (r.step().unwrap(), o.step().unwrap());
        let p = par.step().unwrap();
        assert_eq!(
            a.res.0[0].to_bits(),
            p.res.0[0].to_bits(),
            "parallel, step {}",
            n + 1
        );
        assert_eq!(
            a.res.0[0].to_bits(),
            b.res.0[0].to_bits(),
            "residual of step {}: {} vs {}",
            n + 1,
            a.res.0[0],
            b.res.0[0]
        );
    }
    if relaxing {
        assert!(r.bp().rho_inlet()[3] < 0.9999 * r.bp().flow.rho0());
    }
    assert_eq!(r.clock(), o.clock());
    same("state", &r.state().unwrap(), &o.state().unwrap());
    same("parallel state", &r.state().unwrap(), &par.state().unwrap());
    for level in [Level::Current, Level::Previous] {
        let a: Vec<Vec<f64>> = r
            .snapshot(level)
            .unwrap()
            .arrays
            .iter()
            .map(|x| x.to_vec())
            .collect();
        let b = o.snapshot(level).unwrap();
        let a: Vec<&[f64]> = a.iter().map(Vec::as_slice).collect();
        same_arrays(&format!("snapshot {level:?}"), &a, &b.arrays);
    }
    let (sa, sb) = (r.save().unwrap(), o.save().unwrap());
    assert_eq!(sa.step, sb.step);
    let a: Vec<&[f64]> = sa.arrays.iter().map(Vec::as_slice).collect();
    let b: Vec<&[f64]> = sb.arrays.iter().map(Vec::as_slice).collect();
    same_arrays("checkpoint", &a, &b);
}

/// A checkpoint of the reference after 23 steps restored on OpenCL (and one of OpenCL on the
/// reference) continues to the same state as 60 uninterrupted reference steps.
#[test]
fn opencl_restore_continues_bit_identically() {
    let c = odd();
    let mut whole = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    for _ in 0..60 {
        whole.step().unwrap();
    }
    let mut a = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    for _ in 0..23 {
        a.step().unwrap();
    }
    let _g = common::cl_lock();
    let mut o = BpSolver::new(&c, &choice(BackendKind::OpenCl)).unwrap();
    o.restore(a.save().unwrap()).unwrap();
    for _ in 23..41 {
        o.step().unwrap();
    }
    let mut back = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    back.restore(o.save().unwrap()).unwrap();
    for _ in 41..50 {
        back.step().unwrap();
    }
    let mut o2 = BpSolver::new(&c, &choice(BackendKind::OpenCl)).unwrap();
    o2.restore(back.save().unwrap()).unwrap();
    for _ in 50..60 {
        o2.step().unwrap();
    }
    assert_eq!(o2.clock().0, 60);
    same(
        "restored state",
        &whole.state().unwrap(),
        &o2.state().unwrap(),
    );
}

/// `run` on OpenCL writes the reference's NetCDF values bit for bit (every field at every
/// output step), and `bench` times the OpenCL backend with its kernel rows.
#[test]
fn opencl_run_writes_the_reference_values_and_benches() {
    let c = AnyCase::from_json(ODD, "<t>").unwrap();
    let mut files = Vec::new();
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let _g = common::cl_lock();
    for (kind, dir) in [BackendKind::Reference, BackendKind::OpenCl]
        .into_iter()
        .zip(&dirs)
    {
        let mut s = simplets::methods::build(&c, &choice(kind)).unwrap();
        let o = RunOptions {
            out_dir: dir.path().to_path_buf(),
            progress: Progress::Off,
            ..RunOptions::default()
        };
        simplets::run::run_case(&c.common(), s.as_mut(), &o).unwrap();
        files.push(common::open_nc(&dir.path().join("bpodd.nc")));
    }
    for field in ["rho", "u", "v", "p", "mach", "res_rho"] {
        let get = |f: &netcdf::File| -> Vec<u64> {
            f.variable(field)
                .unwrap_or_else(|| panic!("{field}"))
                .get_values::<f64, _>(..)
                .unwrap()
                .iter()
                .map(|x| x.to_bits())
                .collect()
        };
        let (a, b) = (get(&files[0]), get(&files[1]));
        assert!(!a.is_empty() && a == b, "{field} differs");
    }
    let out = common::simplets()
        .args([
            "bench",
            "--backend",
            "opencl",
            "--steps",
            "5",
            "--warmup",
            "1",
        ])
        .arg(common::config("bp_bump.json"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for kernel in ["calc_changes", "smooth", "reduce"] {
        assert!(text.contains(kernel), "{kernel} missing from\n{text}");
    }
}

/// A case that fails at its second step (a 30 % bump at a low exit pressure, CFL 1, no
/// smoothing): OpenCL names the same step and node as the reference and keeps the same state
/// (the one before the failed step) at both snapshot levels.
#[test]
fn opencl_fails_as_the_reference() {
    let text = ODD
        .replace(r#""thickness":0.1"#, r#""thickness":0.3"#)
        .replace(r#""p":84300"#, r#""p":30000"#)
        .replace(
            r#""time":{"steps":200}"#,
            r#""scheme":{"cfl":1.0,"smooth":0.0},"time":{"steps":200}"#,
        );
    let AnyCase::BpEuler(c) = AnyCase::from_json(&text, "<t>").unwrap() else {
        panic!()
    };
    let fail = |s: &mut BpSolver| -> String {
        for _ in 0..50 {
            if let Err(e) = s.step() {
                return e.to_string();
            }
        }
        panic!("no failure in 50 steps")
    };
    let mut r = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    let _g = common::cl_lock();
    let mut o = BpSolver::new(&c, &choice(BackendKind::OpenCl)).unwrap();
    let (a, b) = (fail(&mut r), fail(&mut o));
    assert_eq!(a, b);
    assert_eq!(r.clock(), o.clock());
    same("state", &r.state().unwrap(), &o.state().unwrap());
    for level in [Level::Current, Level::Previous] {
        let a: Vec<Vec<f64>> = r
            .snapshot(level)
            .unwrap()
            .arrays
            .iter()
            .map(|x| x.to_vec())
            .collect();
        let b = o.snapshot(level).unwrap();
        let a: Vec<&[f64]> = a.iter().map(Vec::as_slice).collect();
        same_arrays(&format!("snapshot {level:?}"), &a, &b.arrays);
    }
}
