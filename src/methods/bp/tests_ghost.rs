//! The ghost-cell form (`"boundaries": "ghost"`): the reference and parallel loops give the
//! same bits, and on the bump and the wedge it converges to results within stated bounds of
//! the tables form's (a different discretisation of the walls and the inlet and exit).

use super::case::Case;
use super::shock::wedge_shock;
use super::step::Bp;
use super::tables::BoundaryForm;
use crate::exact::oblique_shock::{Branch, ObliqueShock};

fn run(c: &Case, form: BoundaryForm, par: bool, max: u64) -> (Bp, u64, f64) {
    let mut b = Bp::start(c.node_grid(), c.flow(), c.numerics(), c.start);
    b.form = form;
    b.parallel = par;
    let (mut steps, mut res) = (0, f64::INFINITY);
    while steps < max && res >= c.time.tolerance {
        res = b.step();
        steps += 1;
    }
    (b, steps, res)
}

fn case(text: &str) -> Case {
    Case::from_json(text, "<t>").expect("the case")
}

/// The padded grid's ghost cells mirror the real ones: every cell closed and of positive
/// area, the ghost rows at the mirror images of the rows two in.
#[test]
fn ghost_grid_mirrors_the_walls() {
    let g = super::grid::NodeGrid::wedge(31, 11, 10f64.to_radians());
    let p = super::ghost::Ghost::new(&g);
    assert!(p.g.closure() < 1e-14, "closure {}", p.g.closure());
    assert!(p.g.area.iter().all(|a| *a > 0.0));
    // Before the corner the lower wall is y = 0: ghost row at −y of the row two in.
    let pi = g.ni + 2;
    assert_eq!(p.g.y[3], -p.g.y[3 + 2 * pi]);
}

/// 120 steps of the odd bump and the small wedge, serial and on rayon's threads: every
/// residual and the final state bit for bit.
#[test]
fn ghost_form_is_bit_identical_serial_and_parallel() {
    let bump = r#"{"name":"o","method":"bp_euler","grid":{"kind":"bump","ni":37,"nj":13,
        "thickness":0.1},"inlet":{"p0":100000,"t0":300,"angle":3},"outlet":{"p":84300},
        "time":{"steps":120}}"#;
    let wedge = r#"{"name":"w","method":"bp_euler","grid":{"kind":"wedge","ni":31,"nj":19,
        "angle":10},"inlet":{"mach":1.6,"p":100000,"t":300},"outlet":{"kind":"supersonic"},
        "time":{"steps":120}}"#;
    for text in [bump, wedge] {
        let c = case(text);
        let mut a = Bp::start(c.node_grid(), c.flow(), c.numerics(), c.start);
        let mut b = a.clone();
        a.form = BoundaryForm::Ghost;
        b.form = BoundaryForm::Ghost;
        b.parallel = true;
        for n in 0..120 {
            let (ra, rb) = (a.step(), b.step());
            assert_eq!(ra.to_bits(), rb.to_bits(), "step {}", n + 1);
            assert!(ra.is_finite(), "step {}", n + 1);
        }
        let bits = |w: &[[f64; 4]]| w.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a.w), bits(&b.w));
        assert_eq!(bits(&a.prev), bits(&b.prev));
    }
}

/// The bump (97 × 33, configs/bp_bump.json) and the wedge (91 × 91, configs/bp_wedge.json)
/// in both forms to the cases' tolerance: the ghost form converges, its mass flow out/in and
/// the wedge's shock angle and pressure ratio are within the bounds docs/method/bp.md states
/// of the tables form's.
#[test]
#[ignore = "about 20 s in release: cargo test --release --lib ghost_form_against -- --ignored"]
fn ghost_form_against_the_tables() {
    let bump = case(include_str!("../../../configs/bp_bump.json"));
    let mut flows = Vec::new();
    for form in [BoundaryForm::Tables, BoundaryForm::Ghost] {
        let (b, steps, res) = run(&bump, form, true, bump.time.steps);
        let (m_in, m_out) = (b.mass_flow(0), b.mass_flow(b.g.ni - 1));
        let smax = (0..b.w.len())
            .map(|k| b.entropy(k).abs())
            .fold(0.0, f64::max);
        eprintln!(
            "bump {:?}: {steps} steps, res {res:.2e}, mass in {m_in:.6} out {m_out:.6} \
             (out/in − 1 = {:.3e}), max |entropy rise| {smax:.3e}",
            form,
            m_out / m_in - 1.0
        );
        assert!(res < bump.time.tolerance, "{form:?}: not converged");
        flows.push((m_in, m_out, smax));
    }
    let d_in = flows[1].0 / flows[0].0 - 1.0;
    eprintln!("bump: ghost mass flow in / tables − 1 = {d_in:.3e}");
    assert!((flows[1].1 / flows[1].0 - 1.0).abs() < 1e-2);
    assert!(d_in.abs() < 2e-2, "inlet mass flow differs by {d_in}");
    let wedge = case(include_str!("../../../configs/bp_wedge.json"));
    let exact = ObliqueShock::new(1.6, 10f64.to_radians(), 1.4, Branch::Weak).unwrap();
    let mut shocks = Vec::new();
    for form in [BoundaryForm::Tables, BoundaryForm::Ghost] {
        let (b, steps, res) = run(&wedge, form, true, wedge.time.steps);
        let s = wedge_shock(&b.g, &b.flow, &b.w, 1e5, exact.pressure_ratio);
        let (m_in, m_out) = (b.mass_flow(0), b.mass_flow(b.g.ni - 1));
        eprintln!(
            "wedge {:?}: {steps} steps, res {res:.2e}, beta {:.3} deg (exact {:.3}), p2/p1 \
             {:.4} (exact {:.4}), y0 {:.4}, spread {:.4}, mass out/in − 1 = {:.3e}",
            form,
            s.beta.to_degrees(),
            exact.beta.to_degrees(),
            s.p_ratio,
            exact.pressure_ratio,
            s.y0,
            s.p_spread,
            m_out / m_in - 1.0
        );
        assert!(res < wedge.time.tolerance, "{form:?}: not converged");
        shocks.push(s);
    }
    let db = (shocks[1].beta - shocks[0].beta).to_degrees();
    let dp = shocks[1].p_ratio / shocks[0].p_ratio - 1.0;
    eprintln!("wedge: ghost − tables: beta {db:.3} deg, p2/p1 {dp:.3e}");
    assert!(db.abs() < 0.5 && dp.abs() < 0.01);
}
