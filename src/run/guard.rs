//! The run driver's divergence guard on the fields of a state (the backends guard the
//! residuals of every loop-2 iteration themselves and roll back; see [`crate::solver::Solver::step`]).

use crate::error::RunError;
use crate::grid::Grid;
use crate::methods::simple_ts::fields::State;
use crate::solver::{Residuals, StepReport};

/// True if every residual is finite and at most `limit`.
pub fn residuals_ok(res: &Residuals, limit: f64) -> bool {
    [res.du, res.dv, res.dp, res.dt]
        .iter()
        .all(|r| r.is_finite() && *r <= limit)
}

/// True if p, T, u and v of `f` are finite in every computed cell and face.
pub fn fields_finite(grid: &Grid, f: &crate::methods::simple_ts::fields::Fields) -> bool {
    let (nx, ny) = (grid.nx, grid.ny);
    [
        (&f.p, nx, ny),
        (&f.T, nx, ny),
        (&f.u, nx + 1, ny),
        (&f.v, nx, ny + 1),
    ]
    .iter()
    .all(|(x, ni, nj)| first_non_finite(grid, x, *ni, *nj).is_none())
}

/// The first non-finite value among `(i, j)` in `1..=ni × 1..=nj` of `f`, as computed-cell
/// coordinates (ghost offset removed).
fn first_non_finite(grid: &Grid, f: &[f64], ni: usize, nj: usize) -> Option<(i64, i64, f64)> {
    for j in 1..=nj {
        for i in 1..=ni {
            let x = f[grid.idx(i, j)];
            if !x.is_finite() {
                return Some((i as i64 - 1, j as i64 - 1, x));
            }
        }
    }
    None
}

/// Where `|a - b|` is largest in `1..=ni × 1..=nj` (computed-cell coordinates); where `|a|` is
/// largest if `a` and `b` agree everywhere (a solver that already copied level n).
fn largest_change(grid: &Grid, a: &[f64], b: &[f64], ni: usize, nj: usize) -> (i64, i64) {
    let argmax = |d: &dyn Fn(usize) -> f64| {
        let mut best = (0, 0, -1.0);
        for j in 1..=nj {
            for i in 1..=ni {
                let x = d(grid.idx(i, j));
                let x = if x.is_nan() { f64::INFINITY } else { x };
                if x > best.2 {
                    best = (i as i64 - 1, j as i64 - 1, x);
                }
            }
        }
        best
    };
    let (i, j, d) = argmax(&|ij| (a[ij] - b[ij]).abs());
    if d > 0.0 {
        (i, j)
    } else {
        let (i, j, _) = argmax(&|ij| a[ij].abs());
        (i, j)
    }
}

/// The divergence guard after step `step`: a non-finite p, T, u or v of the current iterate
/// names its cell; a residual above `limit` (or non-finite) is named `du`, `dv`, `dp` or `dT`
/// with the cell where that field changed most during the step.
pub fn check_divergence(
    step: u64,
    rep: &StepReport,
    state: &State,
    grid: &Grid,
    limit: f64,
) -> Option<RunError> {
    let (nx, ny) = (grid.nx, grid.ny);
    let (k, n) = (&state.k, &state.n);
    // (field, residual name, level k, level n, residual, columns, rows)
    type Guarded<'a> = (
        &'static str,
        &'static str,
        &'a [f64],
        &'a [f64],
        f64,
        usize,
        usize,
    );
    let fields: [Guarded; 4] = [
        ("p", "dp", &k.p, &n.p, rep.res.dp, nx, ny),
        ("T", "dT", &k.T, &n.T, rep.res.dt, nx, ny),
        ("u", "du", &k.u, &n.u, rep.res.du, nx + 1, ny),
        ("v", "dv", &k.v, &n.v, rep.res.dv, nx, ny + 1),
    ];
    let diverged = |field, i, j, value| RunError::Diverged {
        step,
        iter: rep.iters,
        field,
        i,
        j,
        value,
    };
    for &(name, _, f, _, _, ni, nj) in &fields {
        if let Some((i, j, x)) = first_non_finite(grid, f, ni, nj) {
            return Some(diverged(name, i, j, x));
        }
    }
    for &(_, res_name, f, f_n, r, ni, nj) in &fields {
        if !r.is_finite() || r > limit {
            let (i, j) = largest_change(grid, f, f_n, ni, nj);
            return Some(diverged(res_name, i, j, r));
        }
    }
    None
}
