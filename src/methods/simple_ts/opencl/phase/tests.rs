use super::{levels, levels3};

/// Level 0 reads nothing the list writes; level 1 reads level-0 results; applying the
/// levels in turn equals applying the list in order.
#[test]
fn copy_levels_preserve_sequential_semantics() {
    // 10 ← 1, 11 ← 2, 12 ← 10 (chained), 13 ← 3, 14 ← 11 (chained)
    let list = [(10, 1), (11, 2), (12, 10), (13, 3), (14, 11)];
    let (l0, l1) = levels(&list);
    assert_eq!(l0, vec![(10, 1), (11, 2), (13, 3)]);
    assert_eq!(l1, vec![(12, 10), (14, 11)]);
    let apply = |v: &mut Vec<i32>, pairs: &[(usize, usize)]| {
        for &(d, s) in pairs {
            v[d] = v[s];
        }
    };
    let mut a: Vec<i32> = (0..16).collect();
    let mut b = a.clone();
    apply(&mut a, &list);
    apply(&mut b, &l0);
    apply(&mut b, &l1);
    assert_eq!(a, b);
}

#[test]
#[should_panic(expected = "deeper than two levels")]
fn three_level_chains_are_refused() {
    levels(&[(10, 1), (11, 10), (12, 11)]);
}

/// A ghost-cell entry is level 1 when either source is another entry's destination; a value
/// the ghost keeps (its own index as the source) is no dependency.
#[test]
fn ghost_levels_follow_either_source() {
    // 10 keeps p, copies T from 1; 11 copies both from 10 (corner); 12 keeps T, copies p from 3.
    let list = [(10, 10, 1), (11, 10, 10), (12, 3, 12)];
    let (l0, l1) = levels3(&list);
    assert_eq!(l0, vec![(10, 10, 1), (12, 3, 12)]);
    assert_eq!(l1, vec![(11, 10, 10)]);
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
