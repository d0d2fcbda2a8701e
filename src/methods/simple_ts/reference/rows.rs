//! Row-parallel loops for the `parallel` backend (rayon).
//!
//! Every loop of loop 2 is a Jacobi loop: each cell or face writes its own outputs from inputs
//! nobody writes in the same loop, so splitting the output arrays into grid rows and running
//! the rows on rayon's threads computes the same expression per element as the serial loop and
//! gives the same bits. Maxima are reduced per row and then merged in row order, which picks
//! the same value and the same (first) index as the serial scan.

use rayon::prelude::*;
use std::ops::Range;

/// Split `N` arrays of `nx`-long rows into rows: element `j` holds row `j` of every array.
fn transpose<const N: usize>(nx: usize, outs: [&mut [f64]; N]) -> Vec<[&mut [f64]; N]> {
    let mut its = outs.map(|s| s.chunks_mut(nx));
    let rows = its.first().map_or(0, |it| it.len());
    (0..rows)
        .map(|_| its.each_mut().map(|it| it.next().expect("equal lengths")))
        .collect()
}

/// Run `f(j, rows)` for every row `j` in `rows` of the `N` output arrays (row length `nx`),
/// on rayon's threads when `par` is set, else in order; returns the results in row order.
pub fn map_rows<const N: usize, R, F>(
    par: bool,
    nx: usize,
    outs: [&mut [f64]; N],
    rows: Range<usize>,
    f: F,
) -> Vec<R>
where
    R: Send,
    F: Fn(usize, [&mut [f64]; N]) -> R + Sync,
{
    let all = transpose(nx, outs);
    let (skip, take) = (rows.start, rows.end - rows.start);
    if par {
        all.into_par_iter()
            .enumerate()
            .skip(skip)
            .take(take)
            .map(|(j, r)| f(j, r))
            .collect()
    } else {
        all.into_iter()
            .enumerate()
            .skip(skip)
            .take(take)
            .map(|(j, r)| f(j, r))
            .collect()
    }
}

/// `dst[m] := src[m]` for each pair, row by row (rows of `nx`) on rayon's threads when `par`
/// is set: the copies of a time step and of loop 3, which one thread would stream alone
/// while the others wait (a tenth of a 16-thread iteration at 16 M cells).
pub fn copy_rows<const N: usize>(par: bool, nx: usize, dst: [&mut [f64]; N], src: [&[f64]; N]) {
    let rows = dst.first().map_or(0, |d| d.len().div_ceil(nx.max(1)));
    for (d, s) in dst.iter().zip(&src) {
        assert_eq!(d.len(), s.len(), "copy_rows: arrays of equal length");
    }
    map_rows(par, nx, dst, 0..rows, |j, out| {
        for (d, s) in out.into_iter().zip(&src) {
            let at = j * nx;
            d.copy_from_slice(&s[at..at + d.len()]);
        }
    });
}
