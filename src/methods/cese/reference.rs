//! The serial reference of CE/SE, the oracle of every backend, and its row-parallel form
//! (rayon over rows in 2D, over chunks of points in 1D: the same per-point code, so
//! bit-identical). The functions here are the twins of the inline functions of
//! `cl/cese/step.cl` with the same names; the formulas are [`super::fragments`].
//!
//! A step (docs/method/cese.md §4): half step A computes every half-level point from its
//! integer parents ([`parent_point`] gives the ghosts outside the domain), half step B every
//! integer point from its half-level parents; then the largest CFL rate of the new level
//! gives the next Δt and a NaN rate (ρ ≤ 0 or p ≤ 0) fails the step.

use super::fragments::*;
use super::{Bc, Consts, Mesh, Problem};
use crate::methods::explicit::update::{advance_time, nan_max, next_dt};

pub use super::sweep::{half_a, half_b, CHUNK_1D};
use crate::methods::explicit::StepRule;

/// Up to four components.
pub type V4 = [f64; 4];

/// A mesh point: u, u_x, u_y (1D: three components, u_y unused).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Point {
    /// Conserved variables.
    pub u: V4,
    /// Their x-derivatives.
    pub ux: V4,
    /// Their y-derivatives (2D).
    pub uy: V4,
}

/// The constants of one step that depend on Δt.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StepK {
    /// Δt/Δx.
    pub rx: f64,
    /// Δt/Δy.
    pub ry: f64,
    /// Δt/4.
    pub dt4: f64,
    /// Δt/2.
    pub hdt: f64,
    /// (Δt/Δx)(Δy/4), the weight of A_x u_y in a parent's cross term.
    pub kxy: f64,
    /// (Δt/Δy)(Δx/4), the weight of A_y u_x.
    pub kyx: f64,
}

/// The Δt-dependent constants of a step of `dt`.
pub fn step_k(c: &Consts, dt: f64) -> StepK {
    let (rx, ry) = (dt * c.rdx, dt * c.rdy);
    StepK {
        rx,
        ry,
        dt4: 0.25 * dt,
        hdt: 0.5 * dt,
        kxy: rx * c.qdy,
        kyx: ry * c.qdx,
    }
}

/// Point `k` of level `q`.
#[inline(always)]
pub fn load(m: &Mesh, q: &[f64], k: usize) -> Point {
    let mut p = Point::default();
    for v in 0..m.nv {
        p.u[v] = q[v * m.ns + k];
        p.ux[v] = q[(m.nv + v) * m.ns + k];
        if m.dims == 2 {
            p.uy[v] = q[(2 * m.nv + v) * m.ns + k];
        }
    }
    p
}

/// The mirror image of a point across a wall normal to x: x-momentum reversed; of the
/// x-derivatives, all but the x-momentum's (the mirror changes the sign of ∂/∂x).
#[inline(always)]
pub fn mirror_x(dims: usize, p: Point) -> Point {
    let mut o = p;
    if dims == 1 {
        o.u[1] = -p.u[1];
        o.ux[0] = -p.ux[0];
        o.ux[2] = -p.ux[2];
    } else {
        o.u[1] = -p.u[1];
        o.ux[0] = -p.ux[0];
        o.ux[2] = -p.ux[2];
        o.ux[3] = -p.ux[3];
        o.uy[1] = -p.uy[1];
    }
    o
}

/// The mirror image across a wall normal to y (2D).
#[inline(always)]
pub fn mirror_y(p: Point) -> Point {
    let mut o = p;
    o.u[2] = -p.u[2];
    o.uy[0] = -p.uy[0];
    o.uy[1] = -p.uy[1];
    o.uy[3] = -p.uy[3];
    o.ux[2] = -p.ux[2];
    o
}

/// How an axis index outside 0 … n − 1 (−1 or n) maps under `bc`: the source index and
/// whether the point is mirrored; `None` for an inflow (a fixed state).
#[inline(always)]
pub fn ghost_src(bc: &Bc, i: isize, n: usize) -> Option<(usize, bool)> {
    let n = n as isize;
    if (0..n).contains(&i) {
        return Some((i as usize, false));
    }
    let low = i < 0;
    match bc {
        Bc::Outflow => Some((if low { 0 } else { n as usize - 1 }, false)),
        Bc::Reflective => Some((
            if low {
                (-1 - i) as usize
            } else {
                (2 * n - 1 - i) as usize
            },
            true,
        )),
        Bc::Periodic => Some((
            if low {
                (i + n) as usize
            } else {
                (i - n) as usize
            },
            false,
        )),
        Bc::Inflow(_) => None,
    }
}

/// Integer point (i, j) of level `q`, or its ghost outside the domain (i, j ∈ −1 … n): the
/// x-side's rule, then the y-side's.
#[inline(always)]
pub fn parent_point(p: &Problem, q: &[f64], i: isize, j: isize) -> Point {
    let m = &p.mesh;
    let bx = if i < 0 { &p.sides[0] } else { &p.sides[1] };
    let Some((si, fx)) = ghost_src(bx, i, m.nx) else {
        return fixed(bx);
    };
    let (sj, fy) = if m.dims == 2 {
        let by = if j < 0 { &p.sides[2] } else { &p.sides[3] };
        match ghost_src(by, j, m.ny) {
            Some(s) => s,
            None => return fixed(by),
        }
    } else {
        (0, false)
    };
    let mut pt = load(m, q, m.idx(si, sj));
    if fx {
        pt = mirror_x(m.dims, pt);
    }
    if fy {
        pt = mirror_y(pt);
    }
    pt
}

fn fixed(bc: &Bc) -> Point {
    match bc {
        Bc::Inflow(s) => Point {
            u: *s,
            ..Point::default()
        },
        _ => unreachable!("only an inflow side has a fixed state"),
    }
}

/// What a 1D parent contributes to the new points beside it: u, s (eq. 9) and the Taylor
/// value u' (eq. 10).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Parent1 {
    /// u.
    pub u: [f64; 3],
    /// s.
    pub s: [f64; 3],
    /// u'.
    pub up: [f64; 3],
}

/// The contribution of the 1D point `pt` (eqs. 4–10).
#[inline(always)]
pub fn parent_1d(c: &Consts, k: &StepK, pt: &Point) -> Parent1 {
    let g = c.gamma;
    let (u, ux) = (&pt.u, &pt.ux);
    let ri = 1.0 / u[0];
    let w2 = u[1] * ri;
    let w3 = u[2] * ri;
    let ut = [
        -ux[1],
        -c1_a2(g, w2, ux[0], ux[1], ux[2]),
        -c1_a3(g, w2, w3, ux[0], ux[1], ux[2]),
    ];
    let f = [u[1], c1_f2(g, u[1], u[2], w2), c1_f3(g, u[1], u[2], w2)];
    let ft = [
        ut[1],
        c1_a2(g, w2, ut[0], ut[1], ut[2]),
        c1_a3(g, w2, w3, ut[0], ut[1], ut[2]),
    ];
    let mut o = Parent1::default();
    for v in 0..3 {
        o.u[v] = u[v];
        o.s[v] = cese_s(c.qdx, ux[v], k.rx, f[v], k.dt4, ft[v]);
        o.up[v] = cese_up(u[v], k.hdt, ut[v]);
    }
    o
}

/// The new 1D point between the parents `l` and `r` (eqs. 9, 11).
#[inline(always)]
pub fn point_1d(c: &Consts, l: &Parent1, r: &Parent1) -> Point {
    let mut o = Point::default();
    for v in 0..3 {
        o.u[v] = cese_mid(l.u[v], r.u[v], l.s[v], r.s[v]);
        o.ux[v] = cese_grad(c.alpha, l.up[v], o.u[v], r.up[v], c.rdx2);
    }
    o
}

/// What a 2D parent contributes (eqs. 15–18): its shares of the four new points it is a
/// parent of (the one it is the left-down, right-down, right-up, left-up parent of), and
/// its Taylor value u'.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Parent2 {
    /// The share of the new point this parent is the left-down parent of.
    pub ld: V4,
    /// … the right-down parent of.
    pub rd: V4,
    /// … the right-up parent of.
    pub ru: V4,
    /// … the left-up parent of.
    pub lu: V4,
    /// u' = u + (Δt/2) u_t.
    pub up: V4,
}

/// A_x x and A_y x (eq. 15), sharing x's velocity and pressure perturbations; the second is
/// the first with the momenta swapped.
#[inline(always)]
pub fn jac(g: f64, wx: f64, wy: f64, q: f64, h: f64, x: &V4) -> (V4, V4) {
    let dx = c2_dv(x[1], wx, x[0]);
    let dy = c2_dv(x[2], wy, x[0]);
    let dp = c2_dp(g, wx, wy, q, x[0], x[1], x[2], x[3]);
    let e4 = x[3] + dp;
    (
        [
            x[1],
            c2_jn(wx, x[1], dx, dp),
            c2_jt(x[2], wx, wy, dx),
            c2_je(e4, wx, h, dx),
        ],
        [
            x[2],
            c2_jt(x[1], wy, wx, dy),
            c2_jn(wy, x[2], dy, dp),
            c2_je(e4, wy, h, dy),
        ],
    )
}

/// The contribution of the 2D point `pt` (eqs. 13–18): with the levers
/// P = (Δx/4) u_x + (Δt/Δx) f_c, Q = (Δy/4) u_y + (Δt/Δy) g_c (f_c = f + (Δt/4) f_t) and the
/// cross term R, the share at offset (s_x, s_y) from the new point is
/// (u + s_x s_y R) − (s_x P + s_y Q).
#[inline(always)]
pub fn parent_2d(c: &Consts, k: &StepK, pt: &Point) -> Parent2 {
    let g = c.gamma;
    let u = &pt.u;
    let ri = 1.0 / u[0];
    let wx = u[1] * ri;
    let wy = u[2] * ri;
    let q = c2_q(wx, wy);
    let p = c2_pq(g, u[0], u[3], q);
    let h = c2_h(u[3], p, ri);
    let (axx, fyx) = jac(g, wx, wy, q, h, &pt.ux);
    let (fxy, ayy) = jac(g, wx, wy, q, h, &pt.uy);
    let mut ut = [0.0; 4];
    for v in 0..4 {
        ut[v] = -(axx[v] + ayy[v]);
    }
    let (fxt, fyt) = jac(g, wx, wy, q, h, &ut);
    let fx = [u[1], c2_fn(u[1], wx, p), u[2] * wx, h * u[1]];
    let fy = [u[2], u[1] * wy, c2_fn(u[2], wy, p), h * u[2]];
    let mut o = Parent2::default();
    for v in 0..4 {
        let pl = c2_lever(c.qdx, pt.ux[v], k.rx, c2_fc(fx[v], k.dt4, fxt[v]));
        let ql = c2_lever(c.qdy, pt.uy[v], k.ry, c2_fc(fy[v], k.dt4, fyt[v]));
        let r = c2_cross(k.kxy, fxy[v], k.kyx, fyx[v]);
        let (e, f, s, d) = (u[v] + r, u[v] - r, pl + ql, pl - ql);
        o.ru[v] = e - s;
        o.ld[v] = e + s;
        o.rd[v] = f - d;
        o.lu[v] = f + d;
        o.up[v] = cese_up(u[v], k.hdt, ut[v]);
    }
    o
}

/// The new 2D point from its parents left-down, right-down, right-up, left-up (eqs. 18, 19).
#[inline(always)]
pub fn point_2d(c: &Consts, ld: &Parent2, rd: &Parent2, ru: &Parent2, lu: &Parent2) -> Point {
    let mut o = Point::default();
    for v in 0..4 {
        o.u[v] = c2_sum(ld.ld[v], rd.rd[v], ru.ru[v], lu.lu[v]);
        let da = cese_w0(c.alpha, o.u[v] - ld.up[v], ru.up[v] - o.u[v]);
        let db = cese_w0(c.alpha, o.u[v] - rd.up[v], lu.up[v] - o.u[v]);
        o.ux[v] = c2_dx(da, db, c.rdx);
        o.uy[v] = c2_dy(da, db, c.rdy);
    }
    o
}

/// The CFL rate (|v| + a)/h of a point, NaN if ρ ≤ 0 or p ≤ 0 (the positivity guard).
#[inline(always)]
pub fn rate(c: &Consts, dims: usize, u: &V4) -> f64 {
    let g = c.gamma;
    let ri = 1.0 / u[0];
    let (p, s) = if dims == 1 {
        let w = u[1] * ri;
        let p = c1_p(g, u[1], u[2], w);
        (p, w.abs())
    } else {
        let wx = u[1] * ri;
        let wy = u[2] * ri;
        let p = c2_p(g, u[1], u[2], u[3], wx, wy);
        (p, (wx * wx + wy * wy).sqrt())
    };
    if !(u[0] > 0.0 && p > 0.0) {
        return f64::NAN;
    }
    cese_rate(s + cese_a(g, ri, p), c.h)
}

/// Δt of a step from state time `t` and the largest rate `smax`.
pub fn dt_of(p: &Problem, smax: f64, t: f64) -> f64 {
    match p.rule {
        StepRule::Cfl(cfl) => next_dt(cfl, p.t_end, smax, t),
        StepRule::Fixed(dt) => dt,
    }
}

/// Largest rate of the integer level `q` (NaN if any point is not admissible).
pub fn max_rate(p: &Problem, q: &[f64]) -> f64 {
    let m = &p.mesh;
    let mut r = 0.0;
    for j in 0..m.ny {
        for i in 0..m.nx {
            r = nan_max(r, rate(&p.c, m.dims, &load(m, q, m.idx(i, j)).u));
        }
    }
    r
}

/// The first integer point (i, j) whose state is not admissible, with the failing field.
pub fn first_bad(p: &Problem, q: &[f64]) -> Option<(i64, i64, &'static str, f64)> {
    let m = &p.mesh;
    for j in 0..m.ny {
        for i in 0..m.nx {
            let u = load(m, q, m.idx(i, j)).u;
            if rate(&p.c, m.dims, &u).is_nan() {
                // ρ not positive (or NaN) first, else the pressure.
                let (field, value) = if u[0].is_nan() || u[0] <= 0.0 {
                    ("rho", u[0])
                } else {
                    ("p", f64::NAN)
                };
                return Some((i as i64 + 1, j as i64 + 1, field, value));
            }
        }
    }
    None
}

/// The reference solver: two integer levels (ping-pong) and the half level.
pub struct Reference {
    /// The problem.
    pub p: std::sync::Arc<Problem>,
    /// Rows (chunks) on rayon's threads.
    pub parallel: bool,
    /// The two integer levels.
    pub q: [Vec<f64>; 2],
    /// Which of `q` is current.
    pub cur: usize,
    /// The half level of the last step.
    pub h: Vec<f64>,
    /// Completed steps.
    pub step: u64,
    /// Time of the current level.
    pub time: f64,
    /// Δt of the next step.
    pub dt: f64,
    /// Largest rate of the current level.
    pub smax: f64,
    /// Largest |Δρ| of the last step.
    pub dq: f64,
}

impl Reference {
    /// The reference at the initial state of `p`.
    pub fn new(p: std::sync::Arc<Problem>, parallel: bool) -> Reference {
        let q = p.initial.clone();
        let smax = max_rate(&p, &q);
        let dt = dt_of(&p, smax, 0.0);
        Reference {
            h: vec![0.0; q.len()],
            q: [q.clone(), q],
            cur: 0,
            step: 0,
            time: 0.0,
            dt,
            smax,
            dq: 0.0,
            parallel,
            p,
        }
    }

    /// Replace the state (the integer level), step and time; Δt from the state.
    pub fn restore(&mut self, q: Vec<f64>, step: u64, time: f64) {
        self.smax = max_rate(&self.p, &q);
        self.dt = dt_of(&self.p, self.smax, time);
        self.q = [q.clone(), q];
        self.cur = 0;
        self.step = step;
        self.time = time;
        self.dq = 0.0;
    }

    /// One step; on a non-admissible new state the step is undone and the point named.
    pub fn step(&mut self) -> Result<(), crate::error::RunError> {
        let p = std::sync::Arc::clone(&self.p);
        let k = step_k(&p.c, self.dt);
        let (c, n) = (self.cur, 1 - self.cur);
        half_a(&p, &k, &self.q[c], &mut self.h, self.parallel);
        let [qa, qb] = &mut self.q;
        let (old, out) = if c == 0 { (&*qa, qb) } else { (&*qb, qa) };
        let (smax, dq) = half_b(&p, &k, &self.h, old, out, self.parallel);
        if smax.is_nan() || dq.is_nan() {
            let (i, j, field, value) = first_bad(&p, &self.q[n]).unwrap_or((-1, -1, "?", smax));
            return Err(crate::error::RunError::Diverged {
                step: self.step + 1,
                iter: 1,
                field,
                i,
                j,
                value,
            });
        }
        self.cur = n;
        self.step += 1;
        self.time = advance_time(p.t_end, self.time, self.dt);
        self.smax = smax;
        self.dq = dq;
        self.dt = dt_of(&p, smax, self.time);
        Ok(())
    }
}
