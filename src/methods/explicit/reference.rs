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

use rayon::prelude::*;

use super::update::{
    advance_time, cfl_rate_2d, fv_update_1d, fv_update_2d, nan_max, next_dt, rk2_average,
};
use super::{Bc, Flux, Limiter, Problem, StepRule, System, NV_MAX};
use crate::methods::convection::ftbs::{ftbs_diff, ftbs_update};
use crate::methods::shll::euler::{euler_a, euler_f_e, euler_f_mn, euler_f_mt, euler_p};
use crate::methods::shll::muscl::{muscl_minus, muscl_plus, muscl_slope};
use crate::methods::shll::shallow_water::{sw_a, sw_f_mn, sw_f_mt, sw_f_phi, sw_vel, sw_wet};
use crate::methods::shll::split::{
    hll_flux, hll_sl, hll_sr, rusanov_flux, rusanov_s, shll_chi, shll_minus, shll_plus,
};
use crate::methods::shll::transport::{cd_diff_flux, cd_rate};

/// A state of up to [`NV_MAX`] components.
pub type State = [f64; NV_MAX];

/// The conserved state of stored cell `k`.
#[inline(always)]
pub fn load(p: &Problem, q: &[f64], k: usize) -> State {
    let mut s = [0.0; NV_MAX];
    for (v, sv) in s.iter_mut().enumerate().take(p.nv()) {
        *sv = q[v * p.mesh.ns + k];
    }
    s
}

/// A state in the frame of `axis` (0: x, 1: y): the momenta swapped for y, so that
/// component 1 is the normal one. Its own inverse.
#[inline(always)]
pub fn frame(sys: &System, s: State, axis: usize) -> State {
    match (sys, axis) {
        (System::Euler { .. } | System::ShallowWater { .. }, 1) => [s[0], s[2], s[1], s[3]],
        _ => s,
    }
}

/// The mirror image of a framed state across a wall normal to its axis (normal momentum
/// reversed).
#[inline(always)]
pub fn mirror(sys: &System, s: State) -> State {
    match sys {
        System::Euler { .. } | System::ShallowWater { .. } => [s[0], -s[1], s[2], s[3]],
        _ => s,
    }
}

/// Physical flux, normal velocity and wave speed of the framed state `s` along `axis`.
#[inline(always)]
pub fn phys(sys: &System, s: &State, axis: usize) -> (State, f64, f64) {
    match *sys {
        System::Euler { gamma } => {
            let un = s[1] / s[0];
            let ut = s[2] / s[0];
            let p = euler_p(gamma, s[1], s[2], un, ut, s[3]);
            let a = euler_a(gamma, s[0], p);
            let f = [
                s[1],
                euler_f_mn(s[1], un, p),
                euler_f_mt(s[2], un),
                euler_f_e(s[3], p, un),
            ];
            (f, un, a)
        }
        System::ShallowWater { phi_dry, .. } => {
            let un = sw_vel(phi_dry, s[0], s[1]);
            let a = sw_a(s[0]);
            let f = [
                sw_f_phi(s[0], un),
                sw_f_mn(s[0], s[1], un),
                sw_f_mt(s[2], un),
                0.0,
            ];
            (f, un, a)
        }
        System::Transport { c, a, .. } => ([c[axis] * s[0], 0.0, 0.0, 0.0], c[axis], a[axis]),
        System::Convection { .. } => ([0.0; NV_MAX], 0.0, 0.0),
    }
}

/// Interface flux between the framed states `l` and `r` along `axis` (the SHLL split, HLL
/// or Rusanov), in the frame.
#[inline(always)]
pub fn face_flux(p: &Problem, l: &State, r: &State, axis: usize) -> State {
    let (fl, ul, al) = phys(&p.system, l, axis);
    let (fr, ur, ar) = phys(&p.system, r, axis);
    let mut f = [0.0; NV_MAX];
    let n = &p.num;
    match n.flux {
        Flux::Shll => {
            let cl = shll_chi(n.clamp_chi, ul, al);
            let cr = shll_chi(n.clamp_chi, ur, ar);
            for v in 0..p.nv() {
                f[v] = shll_plus(n.d, l[v], fl[v], al, cl) + shll_minus(n.d, r[v], fr[v], ar, cr);
            }
        }
        Flux::Hll => {
            let sl = hll_sl(ul, al, ur, ar);
            let sr = hll_sr(ul, al, ur, ar);
            for v in 0..p.nv() {
                f[v] = hll_flux(l[v], r[v], fl[v], fr[v], sl, sr);
            }
        }
        Flux::Rusanov => {
            let s = rusanov_s(ul, al, ur, ar);
            for v in 0..p.nv() {
                f[v] = rusanov_flux(l[v], r[v], fl[v], fr[v], s);
            }
        }
    }
    f
}

/// Pressure of a conserved Euler state (natural frame), through the velocities as
/// [`phys`] and [`rate`] compute it.
#[inline(always)]
pub fn pressure(gamma: f64, s: &State) -> f64 {
    euler_p(gamma, s[1], s[2], s[1] / s[0], s[2] / s[0], s[3])
}

/// True if a conserved state (natural frame) is admissible: ρ > 0 and p > 0 (Euler), φ ≥ 0
/// (shallow water).
#[inline(always)]
pub fn admissible(sys: &System, s: &State) -> bool {
    match *sys {
        System::Euler { gamma } => s[0] > 0.0 && pressure(gamma, s) > 0.0,
        System::ShallowWater { .. } => s[0] >= 0.0,
        _ => true,
    }
}

/// MUSCL slopes of stored cell `k` along the axis of its neighbours `km`, `kp` (natural
/// frame): zero next to a solid cell, and zero when a face value would not be admissible.
#[inline(always)]
pub fn slopes(p: &Problem, q: &[f64], k: usize, km: usize, kp: usize) -> State {
    let zero = [0.0; NV_MAX];
    if p.is_solid(km) || p.is_solid(kp) {
        return zero;
    }
    let (sm, s0, sp) = (load(p, q, km), load(p, q, k), load(p, q, kp));
    let vl = p.num.limiter == Limiter::VanLeer;
    let mut s = [0.0; NV_MAX];
    let (mut hi, mut lo) = ([0.0; NV_MAX], [0.0; NV_MAX]);
    for v in 0..p.nv() {
        s[v] = muscl_slope(vl, sm[v], s0[v], sp[v]);
        hi[v] = muscl_plus(s0[v], s[v]);
        lo[v] = muscl_minus(s0[v], s[v]);
    }
    if admissible(&p.system, &hi) && admissible(&p.system, &lo) {
        s
    } else {
        zero
    }
}

/// The framed left and right states of the face between stored cells `kl` and `kr` along
/// `axis` (`step` = kr − kl): the cell values (first order) or MUSCL face values; the side of
/// a solid cell is the mirror of the other.
#[inline(always)]
pub fn face_states(
    p: &Problem,
    q: &[f64],
    kl: usize,
    kr: usize,
    step: usize,
    axis: usize,
) -> (State, State) {
    let sys = &p.system;
    let (mut l, mut r) = (load(p, q, kl), load(p, q, kr));
    if p.num.muscl {
        let sl = slopes(p, q, kl, kl - step, kr);
        let sr = slopes(p, q, kr, kl, kr + step);
        for v in 0..p.nv() {
            l[v] = muscl_plus(l[v], sl[v]);
            r[v] = muscl_minus(r[v], sr[v]);
        }
    }
    let (mut l, mut r) = (frame(sys, l, axis), frame(sys, r, axis));
    if p.is_solid(kr) {
        r = mirror(sys, l);
    } else if p.is_solid(kl) {
        l = mirror(sys, r);
    }
    (l, r)
}

/// The flux through the face between stored cells `kl` and `kr` along `axis`, in the natural
/// frame, diffusion included (convection–diffusion).
#[inline(always)]
pub fn flux_at(p: &Problem, q: &[f64], kl: usize, kr: usize, step: usize, axis: usize) -> State {
    let (l, r) = face_states(p, q, kl, kr, step, axis);
    let mut f = frame(&p.system, face_flux(p, &l, &r, axis), axis);
    if let System::Transport { nu, .. } = p.system {
        let h = if axis == 0 { p.mesh.dx } else { p.mesh.dy };
        f[0] += cd_diff_flux(nu, q[kl], q[kr], h);
    }
    f
}

/// CFL rate of a new state (natural frame), NaN if it is not admissible (positivity guard).
#[inline(always)]
pub fn rate(p: &Problem, o: &State) -> f64 {
    let m = &p.mesh;
    let (dy, twod) = if m.dims == 2 {
        (m.dy, true)
    } else {
        (1.0, false)
    };
    match p.system {
        System::Euler { gamma } => {
            let u = o[1] / o[0];
            let v = o[2] / o[0];
            let pr = euler_p(gamma, o[1], o[2], u, v, o[3]);
            if !(o[0] > 0.0 && pr > 0.0) {
                return f64::NAN;
            }
            let a = euler_a(gamma, o[0], pr);
            let sx = u.abs() + a;
            let sy = if twod { v.abs() + a } else { 0.0 };
            cfl_rate_2d(sx, sy, m.dx, dy)
        }
        System::ShallowWater { phi_dry, .. } => {
            if o[0].is_nan() || o[0] < 0.0 {
                return f64::NAN;
            }
            let a = sw_a(o[0]);
            let sx = sw_vel(phi_dry, o[0], o[1]).abs() + a;
            let sy = if twod {
                sw_vel(phi_dry, o[0], o[2]).abs() + a
            } else {
                0.0
            };
            cfl_rate_2d(sx, sy, m.dx, dy)
        }
        System::Transport { a, nu, .. } => {
            if o[0].is_nan() {
                return f64::NAN;
            }
            let ry = if twod { cd_rate(nu, a[1], m.dy) } else { 0.0 };
            cd_rate(nu, a[0], m.dx) + ry
        }
        System::Convection { nu } => {
            if o[0].is_nan() {
                return f64::NAN;
            }
            nu[0].abs() + nu[1].abs()
        }
    }
}

/// The new state of stored cell (i, j) from `q_in` with step `dt` (`q0`: the level-n state of
/// the second RK2 stage), with its CFL rate and |Δ first variable| (against `q0` or `q_in`).
#[inline(always)]
pub fn cell_update(
    p: &Problem,
    q_in: &[f64],
    q0: Option<&[f64]>,
    dt: f64,
    i: usize,
    j: usize,
) -> (State, f64, f64) {
    let m = &p.mesh;
    let k = m.idx(i, j);
    let s = load(p, q_in, k);
    if p.is_solid(k) {
        return (s, 0.0, 0.0);
    }
    let twod = m.dims == 2;
    let mut o = [0.0; NV_MAX];
    if let System::Convection { nu } = p.system {
        let ddx = ftbs_diff(nu[0], q_in[k - 1], s[0], q_in[k + 1]);
        let ddy = if twod {
            ftbs_diff(nu[1], q_in[k - m.nxs], s[0], q_in[k + m.nxs])
        } else {
            0.0
        };
        o[0] = ftbs_update(s[0], ddx, ddy);
    } else {
        let fw = flux_at(p, q_in, k - 1, k, 1, 0);
        let fe = flux_at(p, q_in, k, k + 1, 1, 0);
        let dtdx = dt / m.dx;
        if twod {
            let fs = flux_at(p, q_in, k - m.nxs, k, m.nxs, 1);
            let fn_ = flux_at(p, q_in, k, k + m.nxs, m.nxs, 1);
            let dtdy = dt / m.dy;
            for v in 0..p.nv() {
                o[v] = fv_update_2d(s[v], fw[v], fe[v], fs[v], fn_[v], dtdx, dtdy);
            }
        } else {
            for v in 0..p.nv() {
                o[v] = fv_update_1d(s[v], fw[v], fe[v], dtdx);
            }
        }
    }
    let base = match q0 {
        Some(q0) => {
            let b = load(p, q0, k);
            for v in 0..p.nv() {
                o[v] = rk2_average(b[v], o[v]);
            }
            b
        }
        None => s,
    };
    if let System::ShallowWater { phi_dry, .. } = p.system {
        if !sw_wet(phi_dry, o[0]) {
            o[1] = 0.0;
            o[2] = 0.0;
        }
    }
    (o, rate(p, &o), (o[0] - base[0]).abs())
}

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

/// Source column of ghost column `i` on an x-side (`west`), or `None` for a fixed state.
/// Ghost layer g = 1..ng counts outward from the side.
pub fn ghost_source(bc: &Bc, n: usize, ng: usize, g: usize, low: bool) -> Option<usize> {
    // Computed cells are ng .. ng + n − 1.
    match (bc, low) {
        (Bc::Outflow, true) => Some(ng),
        (Bc::Outflow, false) => Some(ng + n - 1),
        (Bc::Reflective, true) => Some(ng + g - 1),
        (Bc::Reflective, false) => Some(ng + n - g),
        (Bc::Periodic, true) => Some(ng + n - g),
        (Bc::Periodic, false) => Some(ng + g - 1),
        (Bc::Inflow(_), _) => None,
    }
}

/// Fill the ghost layers of `q` from its computed cells and the sides (x-ghosts of the
/// computed rows, then y-ghosts of the computed columns; corners are never read).
pub fn fill_ghosts(p: &Problem, q: &mut [f64]) {
    let m = &p.mesh;
    let nv = p.nv();
    let refl = |bc: &Bc| matches!(bc, Bc::Reflective);
    for (side, low) in [(0usize, true), (1, false)] {
        let bc = &p.sides[side];
        for j in m.rows() {
            for g in 1..=m.ng {
                let dst = if low { m.ng - g } else { m.ng + m.nx + g - 1 };
                let src = ghost_source(bc, m.nx, m.ng, g, low);
                for v in 0..nv {
                    let val = match (src, bc) {
                        (Some(s), _) => {
                            let x = q[v * m.ns + m.idx(s, j)];
                            if v == 1 && refl(bc) {
                                -x
                            } else {
                                x
                            }
                        }
                        (None, Bc::Inflow(st)) => st[v],
                        (None, _) => unreachable!("only an inflow has no source cell"),
                    };
                    q[v * m.ns + m.idx(dst, j)] = val;
                }
            }
        }
    }
    if m.dims == 1 {
        return;
    }
    for (side, low) in [(2usize, true), (3, false)] {
        let bc = &p.sides[side];
        for g in 1..=m.ng {
            let dst = if low { m.ng - g } else { m.ng + m.ny + g - 1 };
            let src = ghost_source(bc, m.ny, m.ng, g, low);
            for i in m.cols() {
                for v in 0..nv {
                    let val = match (src, bc) {
                        (Some(s), _) => {
                            let x = q[v * m.ns + m.idx(i, s)];
                            if v == 2 && refl(bc) {
                                -x
                            } else {
                                x
                            }
                        }
                        (None, Bc::Inflow(st)) => st[v],
                        (None, _) => unreachable!("only an inflow has no source cell"),
                    };
                    q[v * m.ns + m.idx(i, dst)] = val;
                }
            }
        }
    }
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
}

impl Reference {
    /// The initial state of `p`, ghosts filled, Δt from its largest rate.
    pub fn new(p: std::sync::Arc<Problem>, parallel: bool) -> Reference {
        let mut q = p.initial.clone();
        fill_ghosts(&p, &mut q);
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
            p,
        };
        r.rebuild();
        r
    }

    /// Recompute what derives from the current state and time (largest rate, Δt).
    pub fn rebuild(&mut self) {
        self.smax = max_rate(&self.p, &self.q[self.cur]);
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
            stage(&p, q1, Some(q_in), q_out, self.dt, self.parallel)
        } else {
            stage(&p, q_in, None, q_out, self.dt, self.parallel)
        };
        if rmax.is_nan() || dmax.is_nan() {
            let (i, j, field, value) = first_bad(&p, &self.q[nxt]).unwrap_or((-1, -1, "?", rmax));
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
        self.cur = nxt;
        self.step += 1;
        self.time = time_after(&p, self.time, self.dt);
        self.smax = rmax;
        self.dq = dmax;
        self.dt = dt_of(&p, rmax, self.time);
        Ok(())
    }
}
