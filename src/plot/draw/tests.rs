use super::field::{FieldLayout, MAX_PLOT_H};
use super::polyline::clip_x;
use super::*;

#[test]
fn ticks_are_short() {
    assert_eq!(tick(0.0), "0");
    assert_eq!(tick(2.5), "2.5");
    assert_eq!(tick(10.0), "10");
    assert_eq!(tick(0.012345), "0.01235");
    assert_eq!(tick(1234.6), "1235");
    assert_eq!(tick(1e-7), "1e-7");
    assert_eq!(tick(-2.5e-9), "-2.5e-9");
    assert_eq!(tick_in(-1.11e-16, 1.2), "0");
    assert_eq!(tick_in(1.00002, 1e-4), "1.00002");
    assert_eq!(tick_in(0.5, 1.0), "0.5");
}

#[test]
fn layout_keeps_the_aspect_and_cuts_long_domains() {
    let l = FieldLayout::new(20.0, 10.0);
    assert_eq!(l.strips, 1);
    assert_eq!(l.ph * 2, l.pw);
    let l = FieldLayout::new(201.6, 10.0);
    assert_eq!(l.strips, 4);
    assert!((f64::from(l.pw) / f64::from(l.ph) - 5.04).abs() < 0.05);
    let l = FieldLayout::new(1.0, 5.0);
    assert_eq!((l.strips, l.ph), (1, MAX_PLOT_H));
    assert_eq!(field_image_size(20.0, 10.0).0, FIELD_WIDTH);
}

#[test]
fn clipping_splits_at_strip_edges() {
    let line = [(0.0, 0.0), (2.0, 2.0), (4.0, 0.0)];
    let p = clip_x(&line, 1.0, 3.0);
    assert_eq!(p, vec![vec![(1.0, 1.0), (2.0, 2.0), (3.0, 1.0)]]);
    assert!(clip_x(&line, 5.0, 6.0).is_empty());
}
