use super::*;

/// Each case's report names the solvers that case used, and only those, even when an
/// earlier case of the same `validate all` used the same one. Without this, the low-speed
/// square, assembled from the cache after the supersonic one, was credited with the live GPU
/// runs of the cases before it (`docs/runs/gpu-run26-2026-11-21/README.md`).
#[test]
fn each_case_names_only_its_own_solvers() {
    let bk = Backend::reference();
    let (live, cached) = (
        "opencl:GPU".to_string(),
        "opencl:GPU (cached 2026-11-21)".to_string(),
    );
    bk.begin_case();
    bk.record(live.clone());
    assert_eq!(bk.case_names(), vec![live.clone()]);
    bk.begin_case();
    bk.record(cached.clone());
    assert_eq!(bk.case_names(), vec![cached.clone()]);
    bk.begin_case();
    bk.record(cached.clone());
    assert_eq!(bk.case_names(), vec![cached.clone()]);
    bk.begin_case();
    assert!(bk.case_names().is_empty());
    assert_eq!(bk.names(), [live, cached]);
}

/// `run_all` returns the results in task order whatever the dispatch order (by cost) and
/// the number of workers, and each worker sees its own index.
#[test]
fn run_all_keeps_task_order_and_numbers_workers() {
    for jobs in [1, 2, 5] {
        let bk = Backend::reference().with_jobs(jobs);
        let tasks: Vec<Task<(usize, usize)>> = (0..7usize)
            .map(|i| Box::new(move |_: &Backend| (i * i, worker())) as Task<(usize, usize)>)
            .collect();
        let cost = [1.0, 7.0, 3.0, 3.0, 0.5, 9.0, 2.0];
        let out = bk.run_all(tasks, &cost);
        let squares: Vec<usize> = out.iter().map(|r| r.0).collect();
        assert_eq!(squares, vec![0, 1, 4, 9, 16, 25, 36], "jobs {jobs}");
        assert!(out.iter().all(|r| r.1 < jobs), "jobs {jobs}: {out:?}");
    }
    assert_eq!(worker(), 0, "outside run_all");
}

#[test]
fn rows_are_judged_by_their_kind() {
    assert!(Row::new("c", "m", 1.009, 1.0, 0.01, Check::Relative).pass);
    assert!(!Row::new("c", "m", 1.011, 1.0, 0.01, Check::Relative).pass);
    assert!(Row::new("c", "m", -0.5, 0.0, 0.5, Check::Absolute).pass);
    assert!(!Row::new("c", "m", 2e-10, 1e-10, 1e-10, Check::AtMost).pass);
    assert!(!Row::new("c", "m", f64::NAN, 0.0, 1.0, Check::Absolute).pass);
}
