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
