//! Tests of the error norms and order estimates on hand-computed cases.

use super::*;

#[test]
fn norms_of_a_hand_computed_1d_case() {
    let n = error_norms_1d(&[1.0, 2.0, 3.0], &[1.0, 1.0, 1.0], 0.5).unwrap();
    assert_eq!(n.l1, 1.5);
    assert_eq!(n.l2, 2.5_f64.sqrt());
    assert_eq!(n.linf, 2.0);
    assert_eq!(n.volume, 1.5);
    let m = n.per_unit_volume();
    assert_eq!(m.l1, 1.0);
    assert!((m.l2 - (2.5_f64 / 1.5).sqrt()).abs() < 1e-15);
}

#[test]
fn norms_on_a_stretched_2d_grid_weight_by_cell_area() {
    // 2 × 2 cells, widths (1, 2), heights (0.5, 0.25); error 1 in cell (i=1, j=0) only.
    let num = [0.0, 1.0, 0.0, 0.0];
    let n = error_norms_2d(&num, &[0.0; 4], &[1.0, 2.0], &[0.5, 0.25]).unwrap();
    assert_eq!(n.l1, 1.0);
    assert_eq!(n.l2, 1.0);
    assert_eq!(n.volume, 2.25);
    let u = error_norms_2d_uniform(&num, &[0.0; 4], 2, 0.1, 0.2).unwrap();
    assert!((u.l1 - 0.02).abs() < 1e-17 && (u.volume - 0.08).abs() < 1e-16);
}

#[test]
fn a_nan_error_is_not_hidden() {
    let n = error_norms_1d(&[1.0, f64::NAN, 0.0], &[0.0; 3], 1.0).unwrap();
    assert!(n.l1.is_nan() && n.l2.is_nan() && n.linf.is_nan());
}

#[test]
fn orders_of_an_exact_power_law() {
    let h = [0.1, 0.05, 0.025, 0.0125];
    let e: Vec<f64> = h.iter().map(|h| 3.0 * h * h).collect();
    for p in observed_orders(&h, &e).unwrap() {
        assert!((p - 2.0).abs() < 1e-12);
    }
    assert!((fitted_order(&h, &e).unwrap() - 2.0).abs() < 1e-12);
    // Ratio 3 with order 1: e = h.
    assert!((observed_order(0.3, 0.1, 0.3, 0.1).unwrap() - 1.0).abs() < 1e-15);
}

#[test]
fn richardson_removes_the_leading_error_term() {
    // f(h) = 1 + h²: grids h = 0.2, 0.1 extrapolate to 1 exactly; three grids give p = 2.
    let f = |h: f64| 1.0 + h * h;
    assert!((richardson(f(0.2), f(0.1), 2.0, 2.0).unwrap() - 1.0).abs() < 1e-15);
    assert!((order_from_three(f(0.4), f(0.2), f(0.1), 2.0).unwrap() - 2.0).abs() < 1e-12);
}

#[test]
fn invalid_norm_input_gives_errors() {
    assert!(error_norms(&[], &[], &[]).is_err());
    assert!(matches!(
        error_norms_1d(&[1.0, 2.0], &[1.0], 0.1),
        Err(ExactError::LengthMismatch {
            expected: 2,
            found: 1,
            ..
        })
    ));
    assert!(error_norms_1d(&[1.0], &[1.0], 0.0).is_err());
    assert!(error_norms(&[1.0], &[1.0], &[-1.0]).is_err());
    assert!(error_norms_2d_uniform(&[1.0; 5], &[1.0; 5], 2, 0.1, 0.1).is_err());
    assert!(observed_order(1.0, 0.5, 0.1, 0.1).is_err());
    assert!(observed_order(0.0, 0.5, 0.2, 0.1).is_err());
    assert!(observed_orders(&[0.1], &[1.0]).is_err());
    assert!(richardson(1.0, 1.0, 1.0, 2.0).is_err());
    assert!(order_from_three(1.0, 1.0, 1.0, 2.0).is_err());
    assert!(order_from_three(1.0, 2.0, 1.5, 2.0).is_err());
}
