//! The serial reference of the explicit methods, the oracle of every backend, and its
//! row-parallel form (rayon; the same per-cell code, so bit-identical). The per-cell
//! functions here are the twins of the kernel functions of `cl/explicit/step.cl` (same
//! names, same order of operations); the formulas they call are the fragments of
//! `methods/shll/`, `methods/convection/ftbs.rs` and [`super::update`].
//!
//! A step (docs/method/shll.md §7): first order, U' = U + Δt L(U); MUSCL, the two SSP-RK2
//! stages. After each stage the ghosts are filled ([`fill_ghosts`]). Each new state's CFL
//! rate and |Δ(first variable)| are reduced to their maxima, which give the next Δt and the
//! step's residual; a NaN (a non-physical state: the positivity guard) fails the step.
//!
//! The per-cell functions are in `reference/cell.rs` and the ghost layers in
//! `reference/ghosts.rs`; this file holds the loops over the grid (a stage, the reductions)
//! and the [`Reference`] solver, and re-exports the others, so callers name
//! `reference::fill_ghosts` and so on.

mod cell;
mod ghosts;

use rayon::prelude::*;

pub use cell::{
    admissible, cell_update, face_flux, face_states, flux_at, frame, load, mirror, phys, pressure,
    rate, slopes, State,
};
pub use ghosts::{fill_ghosts, ghost_source};

use super::update::{advance_time, nan_max, next_dt};
use super::{Problem, StepRule, System};

/// One stage over every computed cell: `q_out` from `q_in` (and `q0` for the second RK2
/// stage); returns the maxima of the rate and of |Δ first variable| (NaN-propagating).
pub fn stage(
    p: &Problem,
    q_in: &[f64],
    q0: Option<&[f64]>,
    q_out: &mut [f64],
    dt: f64,
    parallel: bool,
) -> (f64, f64) {
    let m = &p.mesh;
    let nv = p.nv();
    let row = |j: usize| {
        let mut out = Vec::with_capacity(nv * m.nx);
        let (mut r, mut d) = (0.0f64, 0.0f64);
        for i in m.cols() {
            let (o, ri, di) = cell_update(p, q_in, q0, dt, i, j);
            out.extend_from_slice(&o[..nv]);
            r = nan_max(r, ri);
            d = nan_max(d, di);
        }
        (out, r, d)
    };
    let rows: Vec<(Vec<f64>, f64, f64)> = if parallel {
        m.rows().into_par_iter().map(row).collect()
    } else {
        m.rows().map(row).collect()
    };
    let (mut rmax, mut dmax) = (0.0f64, 0.0f64);
    for (j, (out, r, d)) in m.rows().zip(rows) {
        for (c, i) in m.cols().enumerate() {
            let k = m.idx(i, j);
            for v in 0..nv {
                q_out[v * m.ns + k] = out[c * nv + v];
            }
        }
        rmax = nan_max(rmax, r);
        dmax = nan_max(dmax, d);
    }
    (rmax, dmax)
}

/// Largest CFL rate of the computed fluid cells of `q` (NaN-propagating).
pub fn max_rate(p: &Problem, q: &[f64]) -> f64 {
    let m = &p.mesh;
    let mut r = 0.0f64;
    for j in m.rows() {
        for i in m.cols() {
            let k = m.idx(i, j);
            if !p.is_solid(k) {
                r = nan_max(r, rate(p, &load(p, q, k)));
            }
        }
    }
    r
}

/// The Δt of the next step from the largest rate `smax` at time `t`.
pub fn dt_of(p: &Problem, smax: f64, t: f64) -> f64 {
    match p.rule {
        StepRule::Cfl(cfl) => next_dt(cfl, p.t_end, smax, t),
        StepRule::Fixed(dt) => dt,
    }
}

/// The time after a step of `dt` from `t`.
pub fn time_after(p: &Problem, t: f64, dt: f64) -> f64 {
    advance_time(p.t_end, t, dt)
}

/// The first computed fluid cell of `q` whose state is not admissible or not finite:
/// (i, j, name of the variable, value), with i, j 0-based computed indices.
pub fn first_bad(p: &Problem, q: &[f64]) -> Option<(i64, i64, &'static str, f64)> {
    let m = &p.mesh;
    for j in m.rows() {
        for i in m.cols() {
            let k = m.idx(i, j);
            if p.is_solid(k) {
                continue;
            }
            let s = load(p, q, k);
            if !rate(p, &s).is_nan() {
                continue;
            }
            let names = p.system.conserved_names();
            let v = (0..p.nv()).find(|&v| !s[v].is_finite()).unwrap_or(0);
            let (name, val) = match p.system {
                System::Euler { gamma } if s[0] > 0.0 => ("p", pressure(gamma, &s)),
                _ => (names[v], s[v]),
            };
            return Some(((i - m.ng) as i64, (j - m.j0()) as i64, name, val));
        }
    }
    None
}

/// The serial (or row-parallel) reference solver state.
#[derive(Debug, Clone)]
pub struct Reference {
    /// The problem.
    pub p: std::sync::Arc<Problem>,
    /// The two time levels; `q[cur]` is the current state.
    pub q: [Vec<f64>; 2],
    /// The first-stage state of SSP-RK2.
    pub q1: Vec<f64>,
    /// Which of `q` is current.
    pub cur: usize,
    /// Completed steps.
    pub step: u64,
    /// Time of the current state.
    pub time: f64,
    /// Δt of the next step.
    pub dt: f64,
    /// Largest rate of the current state.
    pub smax: f64,
    /// Residual of the last step.
    pub dq: f64,
    /// Row loops on rayon's threads.
    pub parallel: bool,
    /// On a rank of a decomposed run (`p` is then its window, [`super::ranks`]): the halo
    /// exchange after every stage and the maxima merged over all ranks.
    pub halo: Option<std::sync::Arc<crate::decomp::Halo>>,
}

impl Reference {
    /// The initial state of `p`, ghosts filled, Δt from its largest rate.
    pub fn new(p: std::sync::Arc<Problem>, parallel: bool) -> Reference {
        Reference::on_rank(p, parallel, None)
    }

    /// [`Reference::new`] on a rank's window `p`, exchanging through `halo`.
    pub fn on_rank(
        p: std::sync::Arc<Problem>,
        parallel: bool,
        halo: Option<std::sync::Arc<crate::decomp::Halo>>,
    ) -> Reference {
        let mut q = p.initial.clone();
        fill_ghosts(&p, &mut q);
        exchange(&p, halo.as_deref(), &mut q);
        let mut r = Reference {
            q: [q.clone(), q],
            q1: if p.num.muscl {
                vec![0.0; p.initial.len()]
            } else {
                Vec::new()
            },
            cur: 0,
            step: 0,
            time: 0.0,
            dt: 0.0,
            smax: 0.0,
            dq: 0.0,
            parallel,
            halo,
            p,
        };
        r.rebuild();
        r
    }

    /// Recompute what derives from the current state and time (largest rate, Δt).
    pub fn rebuild(&mut self) {
        self.smax = self.merged([max_rate(&self.p, &self.q[self.cur]), 0.0])[0];
        self.dt = dt_of(&self.p, self.smax, self.time);
    }

    /// One step. On a non-admissible state the step is undone (the state, time and Δt are
    /// those before it) and the bad cell is returned as an error.
    pub fn step(&mut self) -> Result<(), crate::error::RunError> {
        let p = std::sync::Arc::clone(&self.p);
        let (cur, nxt) = (self.cur, 1 - self.cur);
        let [a, b] = &mut self.q;
        let (q_in, q_out) = if cur == 0 { (&*a, b) } else { (&*b, a) };
        let (rmax, dmax) = if p.num.muscl {
            let q1 = &mut self.q1;
            stage(&p, q_in, None, q1, self.dt, self.parallel);
            fill_ghosts(&p, q1);
            exchange(&p, self.halo.as_deref(), q1);
            stage(&p, q1, Some(q_in), q_out, self.dt, self.parallel)
        } else {
            stage(&p, q_in, None, q_out, self.dt, self.parallel)
        };
        let [rmax, dmax] = self.merged([rmax, dmax]);
        if rmax.is_nan() || dmax.is_nan() {
            let bad = match &self.halo {
                Some(h) => first_bad_merged(&p, h, &self.q[nxt]),
                None => first_bad(&p, &self.q[nxt]),
            };
            let (i, j, field, value) = bad.unwrap_or((-1, -1, "?", rmax));
            return Err(crate::error::RunError::Diverged {
                step: self.step + 1,
                iter: 1,
                field,
                i,
                j,
                value,
            });
        }
        fill_ghosts(&p, &mut self.q[nxt]);
        exchange(&p, self.halo.as_deref(), &mut self.q[nxt]);
        self.cur = nxt;
        self.step += 1;
        self.time = time_after(&p, self.time, self.dt);
        self.smax = rmax;
        self.dq = dmax;
        self.dt = dt_of(&p, rmax, self.time);
        Ok(())
    }

    /// The maxima `m` of this rank merged over all ranks (a maximum is exact: the same bits
    /// as the single-process scan; NaN wins). Unchanged on one process.
    fn merged(&self, m: [f64; 2]) -> [f64; 2] {
        match &self.halo {
            Some(h) => h.reduce_max_at([(m[0], 0), (m[1], 0)]).map(|(v, _)| v),
            None => m,
        }
    }
}

/// Replace the halo of the `nv` planes of `q` with their owners' values (a rank's window;
/// nothing on one process).
pub fn exchange(p: &Problem, halo: Option<&crate::decomp::Halo>, q: &mut [f64]) {
    if let Some(h) = halo {
        let mut planes: Vec<&mut [f64]> = q.chunks_mut(p.mesh.ns).take(p.nv()).collect();
        h.exchange(&mut planes);
    }
}

/// [`first_bad`] over all ranks (every rank calls it): the first bad cell of the whole grid in
/// the single-process scan order (rows from the south, x fastest), in computed indices of the
/// whole grid, identical on every rank.
pub fn first_bad_merged(
    p: &Problem,
    halo: &crate::decomp::Halo,
    q: &[f64],
) -> Option<(i64, i64, &'static str, f64)> {
    let m = &p.mesh;
    let names = p.system.conserved_names();
    let mine = match first_bad(p, q) {
        // Local computed indices from the window's stored ones: back to the whole grid's.
        Some((i, j, name, value)) => {
            let gi = i + halo.win.x.start as i64;
            let gj = if m.dims == 2 {
                j + halo.win.y.start as i64
            } else {
                j
            };
            let code = names.iter().position(|&n| n == name).unwrap_or(names.len());
            [1.0, gj as f64, gi as f64, code as f64, value]
        }
        None => [0.0; 5],
    };
    let all = halo.comm.all_gather(&mine);
    all.chunks(5)
        .filter(|r| r[0] != 0.0)
        .min_by(|a, b| (a[1], a[2]).partial_cmp(&(b[1], b[2])).expect("finite"))
        .map(|r| {
            let code = r[3] as usize;
            let name = if code < names.len() { names[code] } else { "p" };
            (r[2] as i64, r[1] as i64, name, r[4])
        })
}
