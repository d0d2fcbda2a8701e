//! The run driver's divergence guard on the fields of a state (the backends guard the
//! residuals of every iteration themselves and roll back; see
//! [`crate::solver::Solver::step`]).

use crate::error::RunError;
use crate::grid::Grid;
use crate::output::shape;
use crate::solver::{Layout, Level, Place, Residuals, Snapshot, Solver, StepReport};

/// True if every residual is finite and at most `limit`.
pub fn residuals_ok(res: &Residuals, limit: f64) -> bool {
    res.0.iter().all(|r| r.is_finite() && *r <= limit)
}

/// True if every guarded variable of `s` is finite in every computed cell and face.
pub fn fields_finite(layout: &Layout, s: &Snapshot) -> bool {
    layout
        .variables
        .iter()
        .zip(&s.arrays)
        .filter(|(v, _)| v.guarded)
        .all(|(v, a)| first_non_finite(&layout.grid, a, v.place).is_none())
}

/// The first non-finite value of `f` at `place`, as computed-cell coordinates (ghost offset
/// removed).
fn first_non_finite(grid: &Grid, f: &[f64], place: Place) -> Option<(i64, i64, f64)> {
    let (ni, nj) = shape(grid, place);
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

/// Where `|a - b|` is largest at `place` (computed-cell coordinates); where `|a|` is largest if
/// `a` and `b` agree everywhere (a solver that already copied level n).
fn largest_change(grid: &Grid, a: &[f64], b: &[f64], place: Place) -> (i64, i64) {
    let (ni, nj) = shape(grid, place);
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

/// The first non-finite guarded variable of the snapshot `s` after step `step`, as the
/// divergence that names its cell (variables in layout order).
pub fn non_finite(step: u64, rep: &StepReport, layout: &Layout, s: &Snapshot) -> Option<RunError> {
    for (v, a) in layout.variables.iter().zip(&s.arrays) {
        if let (true, Some((i, j, x))) = (v.guarded, first_non_finite(&layout.grid, a, v.place)) {
            return Some(RunError::Diverged {
                step,
                iter: rep.iters,
                field: v.name,
                i,
                j,
                value: x,
            });
        }
    }
    None
}

/// A residual of `rep` above `limit` (or non-finite) after step `step`, named by its status
/// column (`dp`, `dT`, `du`, `dv` for SIMPLE-TS) with the cell where its field changed most
/// during the step (read from both levels of `solver`). Residuals are checked in the order of
/// the variables they measure.
pub fn residual(
    step: u64,
    rep: &StepReport,
    solver: &mut dyn Solver,
    limit: f64,
) -> Result<Option<RunError>, RunError> {
    let layout = solver.layout().clone();
    let mut order: Vec<(usize, usize)> = layout
        .residuals
        .iter()
        .enumerate()
        .map(|(k, r)| (r.variable, k))
        .collect();
    order.sort();
    let bad = order.into_iter().find(|&(_, k)| {
        let r = rep.res.0[k];
        !r.is_finite() || r > limit
    });
    let Some((var, k)) = bad else {
        return Ok(None);
    };
    let place = layout.variables[var].place;
    let now = solver.snapshot(Level::Current)?.arrays[var].to_vec();
    let before = solver.snapshot(Level::Previous)?;
    let (i, j) = largest_change(&layout.grid, &now, before.arrays[var], place);
    Ok(Some(RunError::Diverged {
        step,
        iter: rep.iters,
        field: layout.residuals[k].short,
        i,
        j,
        value: rep.res.0[k],
    }))
}

/// The whole guard on the current state of `solver` after step `step`: [`non_finite`], then
/// [`residual`].
pub fn check_divergence(
    step: u64,
    rep: &StepReport,
    solver: &mut dyn Solver,
    limit: f64,
) -> Result<Option<RunError>, RunError> {
    let layout = solver.layout().clone();
    let s = solver.snapshot(Level::Current)?;
    if let Some(e) = non_finite(step, rep, &layout, &s) {
        return Ok(Some(e));
    }
    residual(step, rep, solver, limit)
}
