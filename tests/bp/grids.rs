//! The grid file: a case reading the bump generator's nodes from a file runs to the
//! generator's bits; a periodic grid from a file is bit-identical on the three backends;
//! a broken file or a resize of a file grid is refused in one line (exit 2, nothing
//! written).

use simplets::methods::bp::grid::NodeGrid;
use simplets::methods::bp::gridfile::write;
use simplets::methods::bp::solver::BpSolver;
use simplets::methods::{AnyCase, BackendKind};
use simplets::solver::Solver;

use super::{choice, common, parity, same, CASE};

/// `CASE` (the 25 × 9 bump) with its grid read from `file` (written into `dir` with the
/// nodes of `g`); returns the case file's path.
fn file_case(dir: &std::path::Path, g: &NodeGrid, file: &str) -> std::path::PathBuf {
    std::fs::write(dir.join(file), write(g)).unwrap();
    let text = CASE.replace(
        r#""grid":{"kind":"bump","ni":25,"nj":9,"thickness":0.1}"#,
        &format!(r#""grid":{{"kind":"file","path":"{file}"}}"#),
    );
    assert_ne!(text, CASE);
    let path = dir.join("case.json");
    std::fs::write(&path, text).unwrap();
    path
}

fn bp(c: AnyCase) -> simplets::methods::bp::case::Case {
    let AnyCase::BpEuler(c) = c else { panic!() };
    c
}

/// The bump's nodes written to a file (path relative to the case file) and run from it:
/// 60 steps give the generator's state bit for bit.
#[test]
fn file_grid_runs_to_the_generators_bits() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_case(dir.path(), &NodeGrid::bump(25, 9, 0.1), "bump.grid");
    let from_file = bp(AnyCase::load(&path).unwrap());
    let generated = bp(AnyCase::from_json(CASE, "<t>").unwrap());
    assert_eq!(from_file.node_grid(), generated.node_grid());
    let ch = choice(BackendKind::Reference);
    let (mut a, mut b) = (
        BpSolver::new(&from_file, &ch).unwrap(),
        BpSolver::new(&generated, &ch).unwrap(),
    );
    for _ in 0..60 {
        let (ra, rb) = (a.step().unwrap(), b.step().unwrap());
        assert_eq!(ra.res.0[0].to_bits(), rb.res.0[0].to_bits());
    }
    same(
        "file vs generator",
        &a.state().unwrap(),
        &b.state().unwrap(),
    );
    // The case as written back (the manifest, --nx/--ny) names the file absolutely.
    let back = serde_json::to_string(&from_file).unwrap();
    let again = bp(AnyCase::from_json(&back, "elsewhere/x.json").unwrap());
    assert_eq!(again.node_grid(), generated.node_grid());
}

/// A file grid with periodic pairs (the bump's flat stretches: a cascade of plano-convex
/// plates), odd-sized, 150 steps on the reference, parallel and OpenCL backends: bit for
/// bit, and each pair's two nodes equal.
#[test]
fn periodic_file_grid_is_bit_identical_on_every_backend() {
    let dir = tempfile::tempdir().unwrap();
    let g = NodeGrid::bump(37, 13, 0.1);
    let p = (0..37).map(|i| g.x[i] <= 0.0 || g.x[i] >= 1.0).collect();
    let path = file_case(dir.path(), &g.with_periodic(p), "plates.grid");
    let c = bp(AnyCase::load(&path).unwrap());
    parity(c.clone(), true);
    let mut r = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    for _ in 0..150 {
        r.step().unwrap();
    }
    let w = r.state().unwrap();
    let ni = 37;
    let top = 12 * ni;
    let pairs = (0..ni).filter(|&i| r.bp().g.periodic[i]).count();
    assert_eq!(pairs, 26);
    for i in (0..ni).filter(|&i| r.bp().g.periodic[i]) {
        assert_eq!(
            w[i].map(f64::to_bits),
            w[top + i].map(f64::to_bits),
            "pair {i}"
        );
    }
}

/// A missing or broken grid file and `--nx` on a file grid: one line naming the field (and
/// the file and line), exit 2, no output.
#[test]
fn bad_grid_file_named() {
    let dir = tempfile::tempdir().unwrap();
    let path = file_case(dir.path(), &NodeGrid::bump(25, 9, 0.1), "bump.grid");
    let text = std::fs::read_to_string(dir.path().join("bump.grid")).unwrap();
    let broken = text.replacen("\n-1 0\n", "\n-1 inf\n", 1);
    assert_ne!(broken, text);
    std::fs::write(dir.path().join("broken.grid"), broken).unwrap();
    let case_text = std::fs::read_to_string(&path).unwrap();
    for (file, want) in [
        ("missing.grid", "cannot read"),
        ("broken.grid", "line 3: x = -1, y = inf: not finite"),
    ] {
        let p = dir.path().join(format!("{file}.json"));
        std::fs::write(&p, case_text.replace("bump.grid", file)).unwrap();
        let e = AnyCase::load(&p).expect_err(file).to_string();
        assert!(e.starts_with("grid.path = "), "{e}");
        assert!(e.contains(file) && e.contains(want), "{want}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
        let out_dir = dir.path().join("out");
        let out = common::simplets()
            .args(["run", "--out"])
            .arg(&out_dir)
            .arg(&p)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("grid.path"), "{err}");
        assert!(!out_dir.exists(), "{file}: output written");
    }
    let out = common::simplets()
        .args(["check", "--nx", "40"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("grid.kind") && err.contains("--nx"), "{err}");
}
