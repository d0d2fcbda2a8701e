//! The two half steps over the whole mesh, serial or on rayon's threads (rows in 2D, chunks
//! of points in 1D): the same per-point code of [`super::reference`] either way, so the
//! row-parallel form is bit-identical to the serial one.

use rayon::prelude::*;

use super::reference::{
    load, parent_1d, parent_2d, parent_point, point_1d, point_2d, rate, Parent1, Parent2, Point,
    StepK,
};
use super::{Mesh, Problem};
use crate::methods::explicit::update::nan_max;

/// Points per chunk of the 1D loops (the unit of the row-parallel form).
pub const CHUNK_1D: usize = 4096;

/// The output planes of a level cut into chunks: `chunk` values of each plane per piece.
fn pieces<'a>(m: &Mesh, out: &'a mut [f64], chunk: usize) -> Vec<Vec<&'a mut [f64]>> {
    let n = m.ns.div_ceil(chunk);
    let mut per: Vec<Vec<&mut [f64]>> = (0..n).map(|_| Vec::with_capacity(m.planes)).collect();
    for plane in out.chunks_mut(m.ns) {
        for (c, piece) in plane.chunks_mut(chunk).enumerate() {
            per[c].push(piece);
        }
    }
    per
}

fn put(m: &Mesh, piece: &mut [&mut [f64]], k: usize, pt: &Point) {
    for v in 0..m.nv {
        piece[v][k] = pt.u[v];
        piece[m.nv + v][k] = pt.ux[v];
        if m.dims == 2 {
            piece[2 * m.nv + v][k] = pt.uy[v];
        }
    }
}

/// Run `f` on every piece, serially or on rayon's threads; fold the returned (rate, Δρ)
/// maxima.
fn each<F>(per: Vec<Vec<&mut [f64]>>, parallel: bool, f: F) -> (f64, f64)
where
    F: Fn(usize, &mut [&mut [f64]]) -> (f64, f64) + Sync + Send,
{
    let fold = |a: (f64, f64), b: (f64, f64)| (nan_max(a.0, b.0), nan_max(a.1, b.1));
    if parallel {
        per.into_par_iter()
            .enumerate()
            .map(|(c, mut piece)| f(c, &mut piece))
            .reduce(|| (0.0, 0.0), fold)
    } else {
        per.into_iter()
            .enumerate()
            .map(|(c, mut piece)| f(c, &mut piece))
            .fold((0.0, 0.0), fold)
    }
}

/// Half step A: the half level `h` from the integer level `q`.
pub fn half_a(p: &Problem, k: &StepK, q: &[f64], h: &mut [f64], parallel: bool) {
    let m = &p.mesh;
    let c = &p.c;
    if m.dims == 1 {
        let per = pieces(m, h, CHUNK_1D);
        each(per, parallel, |ch, piece| {
            let a = ch * CHUNK_1D;
            let b = (a + CHUNK_1D).min(m.nx + 1);
            // Parents of the integer points a − 1 … b − 1.
            let par: Vec<Parent1> = (a as isize - 1..b as isize)
                .map(|i| parent_1d(c, k, &parent_point(p, q, i, 0)))
                .collect();
            for i in a..b {
                put(m, piece, i - a, &point_1d(c, &par[i - a], &par[i - a + 1]));
            }
            (0.0, 0.0)
        });
    } else {
        let per = pieces(m, h, m.sx);
        each(per, parallel, |j, piece| {
            let row = |jj: isize| -> Vec<Parent2> {
                (-1..=m.nx as isize)
                    .map(|i| parent_2d(c, k, &parent_point(p, q, i, jj)))
                    .collect()
            };
            let (lo, hi) = (row(j as isize - 1), row(j as isize));
            for i in 0..=m.nx {
                let pt = point_2d(c, &lo[i], &lo[i + 1], &hi[i + 1], &hi[i]);
                put(m, piece, i, &pt);
            }
            (0.0, 0.0)
        });
    }
}

/// Half step B: the integer level `out` from the half level `h`; returns the largest rate
/// of the new points and the largest |Δρ| against the integer level `old`.
pub fn half_b(
    p: &Problem,
    k: &StepK,
    h: &[f64],
    old: &[f64],
    out: &mut [f64],
    parallel: bool,
) -> (f64, f64) {
    let m = &p.mesh;
    let c = &p.c;
    if m.dims == 1 {
        let per = pieces(m, out, CHUNK_1D);
        each(per, parallel, |ch, piece| {
            let a = ch * CHUNK_1D;
            let b = (a + CHUNK_1D).min(m.nx);
            if a >= b {
                return (0.0, 0.0);
            }
            let par: Vec<Parent1> = (a..=b).map(|i| parent_1d(c, k, &load(m, h, i))).collect();
            let (mut r, mut d) = (0.0, 0.0);
            for i in a..b {
                let pt = point_1d(c, &par[i - a], &par[i - a + 1]);
                put(m, piece, i - a, &pt);
                r = nan_max(r, rate(c, 1, &pt.u));
                d = nan_max(d, (pt.u[0] - old[i]).abs());
            }
            (r, d)
        })
    } else {
        let per = pieces(m, out, m.sx);
        each(per, parallel, |j, piece| {
            if j >= m.ny {
                return (0.0, 0.0);
            }
            let row = |jj: usize| -> Vec<Parent2> {
                (0..=m.nx)
                    .map(|i| parent_2d(c, k, &load(m, h, m.idx(i, jj))))
                    .collect()
            };
            let (lo, hi) = (row(j), row(j + 1));
            let (mut r, mut d) = (0.0, 0.0);
            for i in 0..m.nx {
                let pt = point_2d(c, &lo[i], &lo[i + 1], &hi[i + 1], &hi[i]);
                put(m, piece, i, &pt);
                r = nan_max(r, rate(c, 2, &pt.u));
                d = nan_max(d, (pt.u[0] - old[m.idx(i, j)]).abs());
            }
            (r, d)
        })
    }
}
