//! Interior runs: per grid row, the ranges of faces and cells whose stencils hold no solid
//! cell (and, for the pressure equation, only pseudo-velocity faces), computed once from the
//! geometry.
//!
//! In such a run every wall branch, compat switch and boundary rule of the generic fragments
//! takes its plain side, so the loops of `super::interior` evaluate the same floating-point
//! operations in the same order with no per-face class tests; the other faces and cells go
//! through the fragment sequences (`u_hat_d_u`, `energy_coeffs`' fragments, …) one by one.
//! Only the implicit upwind scheme has interior loops; explicit and TVD runs take the
//! fragments everywhere.

use std::ops::Range;

use crate::grid::Grid;
use crate::methods::simple_ts::geometry::{Geometry, FLUID, F_PERIODIC, F_SOLVED, SOLID};

/// Interior runs per stored row `j` (`runs[j]`, ascending, disjoint); an empty table (the
/// default) makes every loop take the fragments.
#[derive(Debug, Clone, Default)]
pub struct Plain {
    /// u-faces (i, j), i in 1..nxt, j in 1..=ny.
    pub u: Vec<Vec<Range<usize>>>,
    /// v-faces (i, j), i in 1..=nx, j in 1..nyt.
    pub v: Vec<Vec<Range<usize>>>,
    /// Energy CVs: fluid cells with no solid among their eight neighbours.
    pub t: Vec<Vec<Range<usize>>>,
    /// Pressure CVs: fluid cells whose four faces are solved or periodic.
    pub p: Vec<Vec<Range<usize>>>,
}

/// The runs of `i` in `lo..hi` where `ok(i)` holds.
fn runs(lo: usize, hi: usize, ok: impl Fn(usize) -> bool) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for i in lo..hi {
        if !ok(i) {
            continue;
        }
        match out.last_mut() {
            Some(r) if r.end == i => r.end = i + 1,
            _ => out.push(i..i + 1),
        }
    }
    out
}

impl Plain {
    /// The interior runs of `geo` on `g`.
    pub fn new(g: &Grid, geo: &Geometry) -> Plain {
        let (nxt, nyt) = (g.nxt, g.nyt);
        // No solid cell in columns a..=b, rows c..=d.
        let clear = |a: usize, b: usize, c: usize, d: usize| {
            (c..=d).all(|j| (a..=b).all(|i| geo.cell[g.idx(i, j)] != SOLID))
        };
        let pseudo = |k: u8| k == F_SOLVED || k == F_PERIODIC;
        let mut p = Plain::default();
        for j in 0..nyt {
            let inner = j >= 1 && j <= g.ny;
            // u-face (i, j): cells i−2 (i−1 at i = 1) ..= i+1, rows j−1 ..= j+1; not the last
            // face, whose east neighbour is an outer face.
            p.u.push(if inner {
                runs(1, nxt - 1, |i| {
                    geo.u_face[g.idx(i, j)] == F_SOLVED
                        && clear(i.saturating_sub(2), i + 1, j - 1, j + 1)
                })
            } else {
                Vec::new()
            });
            // v-face (i, j): cells i−1 ..= i+1, rows j−2 ..= j+1 (both exist).
            p.v.push(if j >= 2 && j + 1 < nyt {
                runs(1, g.nx + 1, |i| {
                    geo.v_face[g.idx(i, j)] == F_SOLVED && clear(i - 1, i + 1, j - 2, j + 1)
                })
            } else {
                Vec::new()
            });
            let fluid = |i: usize| geo.cell[g.idx(i, j)] == FLUID;
            p.t.push(if inner {
                runs(1, g.nx + 1, |i| {
                    fluid(i) && clear(i - 1, i + 1, j - 1, j + 1)
                })
            } else {
                Vec::new()
            });
            p.p.push(if inner {
                runs(1, g.nx + 1, |i| {
                    let ij = g.idx(i, j);
                    fluid(i)
                        && pseudo(geo.u_face[ij])
                        && pseudo(geo.u_face[ij + 1])
                        && pseudo(geo.v_face[ij])
                        && pseudo(geo.v_face[ij + nxt])
                })
            } else {
                Vec::new()
            });
        }
        p
    }
}

/// The runs of row `j` of `table`, none when `on` is false or the table is empty.
#[inline]
pub fn row_runs(table: &[Vec<Range<usize>>], j: usize, on: bool) -> &[Range<usize>] {
    match table.get(j) {
        Some(r) if on => r,
        _ => &[],
    }
}

/// Cover `lo..hi` in order with `f(range, interior)`: the runs (which lie inside `lo..hi`)
/// with `interior` true, the gaps between them with false.
#[inline]
pub fn split(lo: usize, hi: usize, runs: &[Range<usize>], mut f: impl FnMut(Range<usize>, bool)) {
    let mut i = lo;
    for r in runs {
        if i < r.start {
            f(i..r.start, false);
        }
        f(r.clone(), true);
        i = r.end;
    }
    if i < hi {
        f(i..hi, false);
    }
}
