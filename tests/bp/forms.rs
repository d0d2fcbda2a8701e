//! The boundary forms (`"scheme": { "boundaries": "tables" | "ranges" | "ghost" }`): the ranges
//! form (interior by index arithmetic, boundary rows in launches of their own) gives the
//! tables' bits on the bump, the wedge and the cascade; it is bit-identical on the three
//! backends, and so is the ghost form (a padded layer: another discretisation); `bench`
//! reports the three forms.

use simplets::methods::bp::case::Case;
use simplets::methods::bp::solver::BpSolver;
use simplets::methods::bp::tables::BoundaryForm;
use simplets::methods::{AnyCase, BackendKind};
use simplets::solver::Solver;

use super::{choice, common, parity, same, ODD, WEDGE};

fn with_form(text: &str, form: BoundaryForm) -> Case {
    let AnyCase::BpEuler(mut c) = AnyCase::from_json(text, "<t>").unwrap() else {
        panic!()
    };
    c.scheme.boundaries = form;
    c
}

const CASCADE: &str = super::cascade::CASCADE;

/// 150 reference steps of each grid in both forms: every residual and the final state bit
/// for bit (walls, corners, the inlet and exit columns, periodic seams and the blade edges).
#[test]
fn ranges_form_gives_the_tables_bits() {
    for text in [ODD, WEDGE, CASCADE] {
        let ch = choice(BackendKind::Reference);
        let mut a = BpSolver::new(&with_form(text, BoundaryForm::Tables), &ch).unwrap();
        let mut b = BpSolver::new(&with_form(text, BoundaryForm::Ranges), &ch).unwrap();
        for n in 0..150 {
            let (ra, rb) = (a.step().unwrap(), b.step().unwrap());
            assert_eq!(
                ra.res.0[0].to_bits(),
                rb.res.0[0].to_bits(),
                "step {}",
                n + 1
            );
        }
        same("tables vs ranges", &a.state().unwrap(), &b.state().unwrap());
    }
}

/// The ranges form on the three backends, bit for bit (the cascade: every kind of boundary
/// row; the odd bump: work-group remainders in every launch).
#[test]
fn ranges_form_is_bit_identical_on_every_backend() {
    parity(with_form(CASCADE, BoundaryForm::Ranges), true);
    parity(with_form(ODD, BoundaryForm::Ranges), true);
}

/// `simplets bench` of a bp case on OpenCL (PoCL here) reports both forms with their
/// kernels, and `--json` writes one file per form.
#[test]
fn bench_reports_both_forms() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("b.json");
    let _g = common::cl_lock();
    let out = common::simplets()
        .args([
            "bench",
            "--backend",
            "opencl",
            "--steps",
            "3",
            "--warmup",
            "1",
        ])
        .args(["--nx", "31", "--ny", "21", "--json"])
        .arg(&json)
        .arg(common::config("bp_cascade.json"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "scree-branch-free",
        "scree-ranges",
        "sum_changes",
        "smooth_interior",
        "smooth_edge",
        "flux_j_edge",
        "of their roofline bound",
    ] {
        assert!(text.contains(want), "{want} missing from\n{text}");
    }
    for form in ["tables", "ranges"] {
        let p = dir.path().join(format!("b.{form}.json"));
        let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert!(r.get("seconds").is_some(), "{r}");
    }
}

/// The ghost form (a padded layer, interior stencils: another discretisation, not the
/// tables' bits) on the three backends, bit for bit: the odd bump (subsonic inlet relaxing,
/// exit pressure) and the wedge (supersonic inlet and exit).
#[test]
fn ghost_form_is_bit_identical_on_every_backend() {
    parity(with_form(ODD, BoundaryForm::Ghost), true);
    parity(with_form(WEDGE, BoundaryForm::Ghost), false);
}

/// The ghost form serves ducts only: a periodic grid is refused in one line.
#[test]
fn ghost_form_refuses_periodic_grids() {
    let c = with_form(CASCADE, BoundaryForm::Ghost);
    let e = BpSolver::new(&c, &choice(BackendKind::Reference))
        .err()
        .expect("refused")
        .to_string();
    assert!(e.contains("ghost") && !e.contains('\n'), "{e}");
}

/// `simplets bench` of the bump on OpenCL (PoCL here) reports the ghost form after the other
/// two, with its own kernels and JSON file; on the cascade (periodic) it says it skips it.
#[test]
fn bench_reports_the_ghost_form() {
    let dir = tempfile::tempdir().unwrap();
    let _g = common::cl_lock();
    for (case, want) in [
        (
            "bp_bump.json",
            &["scree-ghost", "ghost_walls", "ghost_smooth", "scree-ranges"][..],
        ),
        ("bp_cascade.json", &["ghost form serves ducts only"][..]),
    ] {
        let out = common::simplets()
            .args(["bench", "--backend", "opencl", "--steps", "2"])
            .args(["--warmup", "1", "--nx", "31", "--ny", "15", "--json"])
            .arg(dir.path().join(case))
            .arg(common::config(case))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        for w in want {
            assert!(text.contains(w), "{w} missing from\n{text}");
        }
    }
    assert!(dir.path().join("bp_bump.ghost.json").exists());
}

/// A checkpoint of the ghost form restores exactly: the padded ring has no SCREE memory, so
/// the real cells' memory in the checkpoint is the whole state. 17 reference steps, then a
/// restore on OpenCL (PoCL here) and on the reference, continued to 40: the bits of 40
/// uninterrupted steps.
#[test]
fn ghost_form_restores_bit_identically() {
    let c = with_form(ODD, BoundaryForm::Ghost);
    let mut whole = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    for _ in 0..40 {
        whole.step().unwrap();
    }
    let mut a = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    for _ in 0..17 {
        a.step().unwrap();
    }
    let saved = a.save().unwrap();
    let mut r = BpSolver::new(&c, &choice(BackendKind::Reference)).unwrap();
    r.restore(saved.clone()).unwrap();
    for _ in 17..40 {
        r.step().unwrap();
    }
    same(
        "ghost form restored on the reference",
        &whole.state().unwrap(),
        &r.state().unwrap(),
    );
    let _g = common::cl_lock();
    let mut o = BpSolver::new(&c, &choice(BackendKind::OpenCl)).unwrap();
    o.restore(saved).unwrap();
    for _ in 17..40 {
        o.step().unwrap();
    }
    same(
        "ghost form restored on OpenCL",
        &whole.state().unwrap(),
        &o.state().unwrap(),
    );
}
