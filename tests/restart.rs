//! Restart equality: a run stopped at a checkpoint and restarted from it ends in the same state,
//! bit for bit, as the uninterrupted run (reference backend, two schemes).
#![cfg(feature = "netcdf")]

mod common;

use std::path::Path;

use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, Scheme};
use simplets::methods::simple_ts::fields::State;
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

/// The coarse confined square, shortened to 30 steps of at most 5 loop-2 iterations.
fn case(scheme: Scheme) -> Case {
    let mut c = Case::from_file(&common::config("confined_square_coarse.json")).unwrap();
    c.time.steps = Some(30);
    c.time.end_time = None;
    c.solver.max_iters = 5;
    c.output.interval = 10;
    c.scheme = scheme;
    c
}

fn opts(out: &Path) -> RunOptions {
    RunOptions {
        out_dir: out.to_path_buf(),
        progress: Progress::Off,
        ..RunOptions::default()
    }
}

fn final_state(r: &Reference) -> State {
    r.state.clone()
}

fn restart_equals_uninterrupted(scheme: Scheme) {
    let dir = tempfile::tempdir().unwrap();
    let c = case(scheme);

    let mut whole = Reference::new(&c);
    run_case(&c, &mut whole, &opts(&dir.path().join("whole"))).unwrap();

    let out = dir.path().join("split");
    let mut first = Reference::new(&c);
    let o = RunOptions {
        steps_override: Some(12),
        checkpoint_every: Some(6),
        ..opts(&out)
    };
    let sum = run_case(&c, &mut first, &o).unwrap();
    assert_eq!(sum.steps, 12);
    let ckpt = out.join(format!("{}.ckpt-12", c.name));
    assert!(out.join(format!("{}.ckpt-6", c.name)).is_file());

    // A fresh solver: everything must come from the checkpoint.
    let mut second = Reference::new(&c);
    let o = RunOptions {
        restart: Some(ckpt),
        ..opts(&out)
    };
    let sum = run_case(&c, &mut second, &o).unwrap();
    assert_eq!(sum.steps, 18, "30 steps in all, 12 done before the restart");
    assert_eq!(sum.output, out.join(format!("{}.s12.nc", c.name)));

    let (a, b) = (final_state(&whole), final_state(&second));
    assert_eq!((a.step, b.step), (30, 30));
    let e = common::diff_state(&a, &b, whole.p.grid.nxt);
    assert!(e.same(), "after the restart ({scheme}): {e}");
}

#[test]
fn restart_is_bit_exact_implicit_upwind() {
    restart_equals_uninterrupted(Scheme {
        convection: Convection::Implicit,
        interpolation: Interpolation::Upwind,
    });
}

#[test]
fn restart_is_bit_exact_explicit_tvd() {
    restart_equals_uninterrupted(Scheme {
        convection: Convection::Explicit,
        interpolation: Interpolation::Tvd,
    });
}
