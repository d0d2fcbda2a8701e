//! The `parallel` backend (rayon, row-parallel loops) against the serial reference: every loop
//! is a Jacobi loop computing the same expression per element, so the fields, the residuals
//! and the cells where the maxima occur must be identical bit for bit, in both sweep orders
//! and all four schemes. Compared as bits (`tests/common`: -0 and +0 differ).

mod common;

use common::{diff, diff_state};
use simplets::methods::simple_ts::backend::Backend as Solver;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, Scheme, SweepOrder};
use simplets::methods::simple_ts::reference::{iterate, Reference};
use simplets::solver::StepReport;

fn load(name: &str) -> Case {
    Case::from_file(&common::config(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// A step report with its residuals as bits.
fn report_bits(r: &StepReport) -> (u32, Vec<u64>, bool) {
    (r.iters, bits(&r.res.0), r.converged)
}

/// The bits of a flux array.
fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Run `steps` steps serially and in parallel (3 threads, so that rows split unevenly even on
/// a small machine) and compare everything bit for bit after every step.
fn same_bits(base: &Case, steps: u64, max_iters: u32) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(3)
        .build()
        .unwrap();
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
                case.solver.max_iters = max_iters;
                let what = format!("{} {:?} {}", case.name, order, case.scheme);
                let mut s = Reference::new(&case);
                let mut p = Reference::new_parallel(&case);
                let nxt = s.p.grid.nxt;
                assert_eq!(s.name(), "reference");
                pool.install(|| {
                    assert_eq!(p.name(), "parallel:3");
                    for step in 1..=steps {
                        let a = s.step().unwrap_or_else(|e| panic!("{what}: {e}"));
                        let b = p.step().unwrap_or_else(|e| panic!("{what}: {e}"));
                        assert_eq!(a, b, "{what}: step {step} report");
                        assert_eq!(report_bits(&a), report_bits(&b), "{what}: step {step}");
                        let e = diff(&s.state().unwrap().k, &p.state().unwrap().k, nxt);
                        assert!(e.same(), "{what}: step {step} fields: {e}");
                    }
                    // The cells of the maxima too (the divergence report names them).
                    s.begin_step();
                    p.begin_step();
                    let (a, b) = (iterate::iterate_info(&mut s), iterate::iterate_info(&mut p));
                    assert_eq!(
                        [a.du, a.dv, a.dp, a.dt],
                        [b.du, b.dv, b.dp, b.dt],
                        "{what}: maxima"
                    );
                    let e = diff_state(&s.state, &p.state, nxt);
                    assert!(e.same(), "{what}: state: {e}");
                    assert_eq!(bits(&s.flux.Fx), bits(&p.flux.Fx), "{what}: Fx");
                    assert_eq!(bits(&s.flux.Fy), bits(&p.flux.Fy), "{what}: Fy");
                    assert_eq!(s.mass_budget(), p.mass_budget(), "{what}: mass budget");
                });
            }
        }
    }
}

#[test]
fn parallel_equals_reference_on_confined_square_coarse() {
    same_bits(&load("confined_square_coarse.json"), 30, 5);
}

#[test]
fn parallel_equals_reference_on_periodic_couette() {
    let case = load("couette_slip.json");
    let iters = case.solver.max_iters;
    same_bits(&case, 20, iters);
}
