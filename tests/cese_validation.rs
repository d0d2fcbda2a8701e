//! The quick variants of the CE/SE validation cases (`validation/cese_*/`, READMEs state the
//! references and tolerances) pass on the reference: the thesis' 1D cases against the exact
//! Riemann solver and fine runs, the four-shock 2D Riemann problem symmetric about y = x to
//! round-off, and the smooth density wave at second order with its totals conserved.

use simplets::validate::{default_root, run_case};

fn passes(name: &str) {
    let rep = run_case(&default_root(), name, true).expect("the case runs");
    assert!(!rep.rows.is_empty(), "{name}: no rows");
    for n in &rep.notes {
        eprintln!("{n}");
    }
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
fn cese_1d_cases_against_exact_and_fine_runs() {
    passes("cese_riemann");
}

#[test]
fn cese_config3_symmetric_and_positive() {
    passes("cese_riemann_2d");
}

#[test]
fn cese_smooth_wave_second_order_and_conservative() {
    passes("cese_smooth");
}
