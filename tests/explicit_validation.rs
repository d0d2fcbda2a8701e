//! The quick variants of the explicit methods' validation cases (`validation/<case>/`,
//! READMEs state the references and tolerances) pass on the serial reference: the Euler
//! Riemann problems against Toro's exact solver, the dam breaks against Ritter and Stoker,
//! seed 003's convection against its own loop and the exact shift, and conservation to
//! round-off on periodic domains for every method.

use simplets::validate::{default_root, run_case};

fn passes(name: &str) {
    let rep = run_case(&default_root(), name, true).expect("the case runs");
    assert!(!rep.rows.is_empty(), "{name}: no rows");
    let failed: Vec<String> = rep
        .rows
        .iter()
        .filter(|r| !r.pass)
        .map(|r| {
            format!(
                "{}: {} (reference {}, {})",
                r.metric,
                r.value,
                r.reference,
                r.tolerance_text()
            )
        })
        .collect();
    assert!(failed.is_empty(), "{name}: {failed:?}");
}

#[test]
fn riemann_problems_against_the_exact_solver() {
    passes("riemann_euler");
}

#[test]
fn dam_breaks_against_ritter_and_stoker() {
    passes("dam_break_1d");
}

#[test]
fn seed_003_convection() {
    passes("convection");
}

#[test]
fn every_method_conserves_to_round_off() {
    passes("conservation");
}
