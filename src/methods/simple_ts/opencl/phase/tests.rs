use super::{resolve, resolve3};

/// Applying the resolved list, in any order, equals applying the list in order (each
/// chained entry after the entry it reads).
#[test]
fn resolved_copies_preserve_sequential_semantics() {
    // 10 ← 1, 11 ← 2, 12 ← 10 (chained), 13 ← 3, 14 ← 11 (chained)
    let list = [(10, 1), (11, 2), (12, 10), (13, 3), (14, 11)];
    let one = resolve(&list);
    assert_eq!(one, vec![(10, 1), (11, 2), (12, 1), (13, 3), (14, 2)]);
    let apply = |v: &mut Vec<i32>, pairs: &[(usize, usize)]| {
        for &(d, s) in pairs {
            v[d] = v[s];
        }
    };
    let mut a: Vec<i32> = (0..16).collect();
    apply(&mut a, &list);
    // No resolved entry reads a destination, so the order of application cannot matter.
    let dsts: Vec<usize> = one.iter().map(|e| e.0).collect();
    assert!(one.iter().all(|e| !dsts.contains(&e.1)));
    let mut b: Vec<i32> = (0..16).collect();
    let mut rev = one.clone();
    rev.reverse();
    apply(&mut b, &rev);
    assert_eq!(a, b);
}

#[test]
#[should_panic(expected = "longer than two copies")]
fn three_copy_chains_are_refused() {
    resolve(&[(10, 1), (11, 10), (12, 11)]);
}

/// Each of p and T resolves on its own; a value a ghost keeps (its own index as the source)
/// stays the ghost's, and an entry reading it keeps that ghost as its source.
#[test]
fn ghost_sources_resolve_per_value() {
    // 10 keeps p, copies T from 1; 11 copies both from 10 (corner); 12 keeps T, copies p from 3;
    // 13 copies p from 12 and T from 12.
    let list = [(10, 10, 1), (11, 10, 10), (12, 3, 12), (13, 12, 12)];
    let one = resolve3(&list);
    assert_eq!(
        one,
        vec![(10, 10, 1), (11, 10, 1), (12, 3, 12), (13, 3, 12)]
    );
    let apply = |p: &mut Vec<i32>, t: &mut Vec<i32>, l: &[(usize, usize, usize)]| {
        for &(d, ps, ts) in l {
            p[d] = p[ps];
            t[d] = t[ts];
        }
    };
    let (mut p, mut t): (Vec<i32>, Vec<i32>) = ((0..16).collect(), (100..116).collect());
    apply(&mut p, &mut t, &list);
    let (mut p1, mut t1): (Vec<i32>, Vec<i32>) = ((0..16).collect(), (100..116).collect());
    let mut rev = one.clone();
    rev.reverse();
    apply(&mut p1, &mut t1, &rev);
    assert_eq!((p, t), (p1, t1));
}

/// The memory estimate counts the first sweep's residual arrays of p and T only when compat
/// `steady_test_first_sweep` keeps them.
#[test]
fn device_bytes_count_the_first_sweep_arrays() {
    use super::{case_device_bytes, device_bytes};
    use crate::methods::simple_ts::case::{Case, CompatSpec};
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/cpp/channel_straight.json");
    let with = Case::from_file(&path).unwrap();
    let mut without = with.clone();
    without.compat = Some(CompatSpec::List(vec!["lagged_ghost_state".into()]));
    let cells = 1000;
    let plain = device_bytes(cells, false, with.solver.sweeps());
    assert_eq!(case_device_bytes(&without, cells), plain);
    assert_eq!(
        case_device_bytes(&with, cells),
        (plain.0 + 16 * cells, plain.1)
    );
}
