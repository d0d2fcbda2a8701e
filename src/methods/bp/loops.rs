//! What every serial form of the Brandvik–Pullan step shares: the loops over nodes, faces and
//! cells (serial or on rayon's threads, the same per-item code, so bit-identical) and the flux
//! through one face (§4.2).

use rayon::prelude::*;

use super::formulas::{bp_fe, bp_fmom, bp_mass};

/// `f(k, &mut a[k])` for every k, on rayon's threads if `par`.
pub(super) fn each<T: Send>(par: bool, a: &mut [T], f: impl Fn(usize, &mut T) + Sync) {
    if par {
        a.par_iter_mut().enumerate().for_each(|(k, x)| f(k, x));
    } else {
        a.iter_mut().enumerate().for_each(|(k, x)| f(k, x));
    }
}

/// `f(k, &mut a[k], &mut b[k])` for every k, on rayon's threads if `par`.
pub(super) fn each2<T: Send, U: Send>(
    par: bool,
    a: &mut [T],
    b: &mut [U],
    f: impl Fn(usize, &mut T, &mut U) + Sync,
) {
    if par {
        a.par_iter_mut()
            .zip(b.par_iter_mut())
            .enumerate()
            .for_each(|(k, (x, y))| f(k, x, y));
    } else {
        a.iter_mut()
            .zip(b.iter_mut())
            .enumerate()
            .for_each(|(k, (x, y))| f(k, x, y));
    }
}

/// The largest `f(k, &mut a[k])` (NaN ignored, so the order does not matter), on rayon's
/// threads if `par`.
pub(super) fn max_over<T: Send>(
    par: bool,
    a: &mut [T],
    f: impl Fn(usize, &mut T) -> f64 + Sync,
) -> f64 {
    if par {
        a.par_iter_mut()
            .enumerate()
            .map(|(k, x)| f(k, x))
            .reduce(|| 0.0, f64::max)
    } else {
        a.iter_mut()
            .enumerate()
            .map(|(k, x)| f(k, x))
            .fold(0.0, f64::max)
    }
}

/// The flux through a face of nodes a, b with projected length `dl` and mass-flux
/// multiplier `mul` (§4.2).
pub(super) fn face(
    w: &[[f64; 4]],
    sec: &[[f64; 4]],
    a: usize,
    b: usize,
    dl: [f64; 2],
    mul: f64,
) -> [f64; 4] {
    let (wa, wb, sa, sb) = (&w[a], &w[b], &sec[a], &sec[b]);
    let m = bp_mass(mul, wa[1], wb[1], wa[2], wb[2], dl[0], dl[1]);
    let pp = sa[2] + sb[2];
    [
        m,
        bp_fmom(m, sa[0], sb[0], pp, dl[0]),
        bp_fmom(m, sa[1], sb[1], pp, dl[1]),
        bp_fe(m, sa[3], sb[3]),
    ]
}
