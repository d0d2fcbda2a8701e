//! The per-cell and per-face functions of one explicit step, the twins of the kernel functions
//! of `cl/explicit/step.cl` (same names, same order of operations): a cell's state and its
//! frame, the physical and interface fluxes, the MUSCL slopes and face states, the CFL rate
//! of a new state and the update of one cell. Apart from the loops over the grid
//! (`reference.rs`) so that these read as the kernel's twins, one function each.

use crate::methods::convection::ftbs::{ftbs_diff, ftbs_update};
use crate::methods::explicit::update::{cfl_rate_2d, fv_update_1d, fv_update_2d, rk2_average};
use crate::methods::explicit::{Flux, Limiter, Problem, System, NV_MAX};
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
            let ri = 1.0 / s[0];
            let un = s[1] * ri;
            let ut = s[2] * ri;
            let p = euler_p(gamma, s[1], s[2], un, ut, s[3]);
            let a = euler_a(gamma, ri, p);
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
    let ri = 1.0 / s[0];
    euler_p(gamma, s[1], s[2], s[1] * ri, s[2] * ri, s[3])
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
            let ri = 1.0 / o[0];
            let u = o[1] * ri;
            let v = o[2] * ri;
            let pr = euler_p(gamma, o[1], o[2], u, v, o[3]);
            if !(o[0] > 0.0 && pr > 0.0) {
                return f64::NAN;
            }
            let a = euler_a(gamma, ri, pr);
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

#[cfg(test)]
mod tests {
    //! The strip stage's wall faces (`split_mirror` in `cl/explicit/step.cl`) take the mirror
    //! state's split flux from the cell's own primitives instead of the mirror's `phys`:
    //! normal velocity −u_n (a dry shallow-water cell's 0 kept), the cell's pressure and wave
    //! speed, critical number −χ. This checks, bit for bit, that the shortcut gives what the
    //! reference computes (mirror, `phys`, `shll_chi`, the split) on states chosen for their
    //! edges: signed zeros, dry and exactly empty cells, clamped and unclamped χ, a = 0. The
    //! kernel's own composition is checked against the reference by tests/explicit_parity.rs
    //! and tests/explicit_shape.rs (walls and dry cells).
    use super::*;

    /// The kernel's `prim_of` (u, v, p, a in the x frame) and its χ_x, χ_y.
    fn prims(sys: &System, clamp: bool, s: &State) -> ([f64; 4], f64, f64) {
        let p = match *sys {
            System::Euler { gamma } => {
                let ri = 1.0 / s[0];
                let (u, v) = (s[1] * ri, s[2] * ri);
                let pr = euler_p(gamma, s[1], s[2], u, v, s[3]);
                [u, v, pr, euler_a(gamma, ri, pr)]
            }
            System::ShallowWater { phi_dry, .. } => [
                sw_vel(phi_dry, s[0], s[1]),
                sw_vel(phi_dry, s[0], s[2]),
                0.0,
                sw_a(s[0]),
            ],
            _ => unreachable!(),
        };
        (p, shll_chi(clamp, p[0], p[3]), shll_chi(clamp, p[1], p[3]))
    }

    /// `split_mirror` of the kernel: framed state `s`, the cell's primitives and χ along `axis`.
    fn split_mirror(
        sys: &System,
        d: f64,
        s: &State,
        pr: &[f64; 4],
        chi: f64,
        axis: usize,
        plus: bool,
    ) -> State {
        let m = mirror(sys, *s);
        let f = match *sys {
            System::Euler { .. } => {
                let un = -pr[axis];
                [
                    m[1],
                    euler_f_mn(m[1], un, pr[2]),
                    euler_f_mt(m[2], un),
                    euler_f_e(m[3], pr[2], un),
                ]
            }
            System::ShallowWater { phi_dry, .. } => {
                let un = if sw_wet(phi_dry, s[0]) {
                    -pr[axis]
                } else {
                    pr[axis]
                };
                [
                    sw_f_phi(m[0], un),
                    sw_f_mn(m[0], m[1], un),
                    sw_f_mt(m[2], un),
                    0.0,
                ]
            }
            _ => unreachable!(),
        };
        let mut h = [0.0; NV_MAX];
        for v in 0..4 {
            h[v] = if plus {
                shll_plus(d, m[v], f[v], pr[3], -chi)
            } else {
                shll_minus(d, m[v], f[v], pr[3], -chi)
            };
        }
        h
    }

    /// The reference's split of the mirror state (face_states' mirror, face_flux's halves).
    fn reference(sys: &System, d: f64, clamp: bool, s: &State, axis: usize, plus: bool) -> State {
        let m = mirror(sys, *s);
        let (f, un, a) = phys(sys, &m, axis);
        let chi = shll_chi(clamp, un, a);
        let mut h = [0.0; NV_MAX];
        for v in 0..4 {
            h[v] = if plus {
                shll_plus(d, m[v], f[v], a, chi)
            } else {
                shll_minus(d, m[v], f[v], a, chi)
            };
        }
        h
    }

    #[test]
    fn wall_split_from_the_cells_primitives_gives_the_references_bits() {
        let momenta = [0.0, -0.0, 1e-300, -2.5, 3.0, 0.7, -40.0, 1e3];
        let mut cases = 0;
        let mut lcg = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move || {
            lcg = lcg
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (lcg >> 11) as f64 / (1u64 << 53) as f64
        };
        for sys in [
            System::Euler { gamma: 1.4 },
            System::ShallowWater {
                g: 9.81,
                phi_dry: 9.81e-6,
            },
        ] {
            let firsts: &[f64] = match sys {
                System::Euler { .. } => &[1.0, 0.125, 1e-8, 3.7],
                // Wet, at the threshold, dry, exactly empty, negative.
                _ => &[9.81, 9.81e-6, 1e-7, 0.0, -0.0, -1e-9],
            };
            for &d in &[0.0, 0.5, 1.0] {
                for clamp in [true, false] {
                    let mut states = Vec::new();
                    for &r in firsts {
                        for &mx in &momenta {
                            for &my in &momenta {
                                // Euler: energies with p > 0, p = 0 (a = 0) and p < 0.
                                let kin = 0.5 * (mx * mx + my * my) / r;
                                for e in [kin + 2.5, kin, kin * 0.5] {
                                    states.push([r, mx, my, e]);
                                }
                            }
                        }
                    }
                    for _ in 0..2000 {
                        let r = firsts[(rnd() * firsts.len() as f64) as usize % firsts.len()]
                            * (0.5 + rnd());
                        let (mx, my) = (20.0 * (rnd() - 0.5), 20.0 * (rnd() - 0.5));
                        states.push([r, mx, my, 0.5 * (mx * mx + my * my) / r + 10.0 * rnd()]);
                    }
                    for s in &states {
                        let (pr, cx, cy) = prims(&sys, clamp, s);
                        for axis in 0..2 {
                            let sf = frame(&sys, *s, axis);
                            let chi = if axis == 0 { cx } else { cy };
                            for plus in [true, false] {
                                let want = reference(&sys, d, clamp, &sf, axis, plus);
                                let got = split_mirror(&sys, d, &sf, &pr, chi, axis, plus);
                                for v in 0..4 {
                                    let same = want[v].to_bits() == got[v].to_bits()
                                        || (want[v].is_nan() && got[v].is_nan());
                                    assert!(
                                        same,
                                        "{sys:?} d {d} clamp {clamp} state {s:?} axis {axis} \
                                         plus {plus}: component {v} {} against {}",
                                        got[v], want[v]
                                    );
                                }
                                cases += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(cases > 50_000, "{cases} cases");
    }
}
