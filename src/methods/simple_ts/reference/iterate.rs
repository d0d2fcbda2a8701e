//! Loop 2 (one iteration of the coupled equations) and loop 1 (one time step), spec §2.8.
//!
//! C++ order per loop-2 iteration: û,d_u (all u-CVs) → v̂,d_v (all v-CVs) → energy and
//! pressure coefficients → loop 3 (`sweeps` Jacobi T/p evaluations: T from old neighbours and
//! old p, then p from old neighbours and the new T of the same cell) → velocity correction →
//! ρ = p/T, Γ = √T → boundary ghosts → ρu, ρv, Fx, Fy. With one sweep this is exactly the GPU
//! kernel's order (spec §2.8, G14).

use super::ops::{gam_eos, rho_eos};
use super::plain::{row_runs, split};
use super::pressure::{correct, MaxAt};
use super::rows::{copy_rows, map_rows};
use super::{bc, ctx, energy, halo, interior, momentum, pressure, Ctx, Reference, Work};
use crate::error::RunError;
use crate::methods::simple_ts::case::Defect;
use crate::methods::simple_ts::geometry::{FLUID, F_SOLVED};
use crate::solver::{Residuals, StepReport};

/// Update norms of one iteration with the cells where they occur.
#[derive(Debug, Clone, Copy, Default)]
pub struct IterInfo {
    /// u.
    pub du: MaxAt,
    /// v.
    pub dv: MaxAt,
    /// p (last inner sweep).
    pub dp: MaxAt,
    /// T (last inner sweep).
    pub dt: MaxAt,
    /// p (first inner sweep; recorded for compat `steady_test_first_sweep` only).
    pub dp_first: MaxAt,
    /// T (first inner sweep; likewise).
    pub dt_first: MaxAt,
}

impl IterInfo {
    /// The plain residuals.
    pub fn residuals(&self) -> Residuals {
        Residuals([self.du.value, self.dv.value, self.dp.value, self.dt.value])
    }
}

/// Pseudo-velocities of all solved faces; periodic seam faces take their partner's.
fn pseudo_velocities(r: &mut Reference) {
    let mut ps = std::mem::take(&mut r.ps);
    {
        let x = ctx!(r);
        let (g, geo) = (x.g, x.geo);
        // Interior runs (implicit upwind only) in one loop each, the other faces one by one.
        let on = !x.explicit && !x.tvd;
        let outs = [&mut ps.u_hat[..], &mut ps.d_u[..]];
        map_rows(x.par, g.nxt, outs, 1..g.ny + 1, |j, [uh, du]| {
            let runs = row_runs(&x.pl.u, j, on);
            split(1, g.nxt, runs, |r, inner| {
                if inner {
                    return interior::u_run(&x, j, r, uh, du);
                }
                for i in r {
                    if geo.u_face[g.idx(i, j)] == F_SOLVED {
                        (uh[i], du[i]) = momentum::u_hat_d_u(&x, i, j);
                    }
                }
            });
        });
        let outs = [&mut ps.v_hat[..], &mut ps.d_v[..]];
        map_rows(x.par, g.nxt, outs, 1..g.nyt, |j, [vh, dv]| {
            let runs = row_runs(&x.pl.v, j, on);
            split(1, g.nx + 1, runs, |r, inner| {
                if inner {
                    return interior::v_run(&x, j, r, vh, dv);
                }
                for i in r {
                    if geo.v_face[g.idx(i, j)] == F_SOLVED {
                        (vh[i], dv[i]) = momentum::v_hat_d_v(&x, i, j);
                    }
                }
            });
        });
    }
    for &(ij, src) in &r.p.ghosts.u_copies {
        ps.u_hat[ij] = ps.u_hat[src];
        ps.d_u[ij] = ps.d_u[src];
    }
    for &(ij, src) in &r.p.ghosts.v_copies {
        ps.v_hat[ij] = ps.v_hat[src];
        ps.d_v[ij] = ps.d_v[src];
    }
    r.ps = ps;
}

/// One loop-3 Jacobi sweep over the fluid cells: T_new, p_new from the previous sweep's
/// buffers and the stored coefficients; the largest T and p updates (per row, merged in row
/// order) when `last` (the last sweep, or a first one that is recorded). Rows on rayon's
/// threads when `x.par`.
fn sweep(x: &Ctx, w: &mut Work, last: bool) -> (MaxAt, MaxAt) {
    let (g, geo) = (x.g, x.geo);
    let nx = g.nxt;
    let (mut t_new, mut p_new) = (std::mem::take(&mut w.T_new), std::mem::take(&mut w.p_new));
    let rows = {
        let w: &Work = w;
        map_rows(
            x.par,
            nx,
            [&mut t_new[..], &mut p_new[..]],
            1..g.ny + 1,
            |j, [tn, pn]| {
                let (mut dt, mut dp) = (MaxAt::default(), MaxAt::default());
                // The expressions of energy::T_cc and pressure::p_cc over row slices.
                let at = |a, jj| interior::row(a, jj, nx);
                let cell = &geo.cell[j * nx..(j + 1) * nx];
                let (to_s, to_p, to_n) =
                    (at(&w.T_old, j - 1), at(&w.T_old, j), at(&w.T_old, j + 1));
                let (po_s, po_p, po_n) =
                    (at(&w.p_old, j - 1), at(&w.p_old, j), at(&w.p_old, j + 1));
                let [tw, te, ts, tnb, tp, tb, tdiv] =
                    [&w.tW, &w.tE, &w.tS, &w.tN, &w.tP, &w.tB, &w.tDiv].map(|a| at(a, j));
                let [pw, pe, ps, pnb, pd, pb] =
                    [&w.pW, &w.pE, &w.pS, &w.pN, &w.pD, &w.pB].map(|a| at(a, j));
                let (hx, hy) = (&g.hx[..nx], g.hy[j]);
                assert!(g.nx < nx && tn.len() == nx && pn.len() == nx);
                for i in 1..=g.nx {
                    if cell[i] != FLUID {
                        continue;
                    }
                    let t = (tw[i] * to_p[i - 1]
                        + te[i] * to_p[i + 1]
                        + ts[i] * to_s[i]
                        + tnb[i] * to_n[i]
                        + tb[i]
                        + tdiv[i] * po_p[i])
                        / tp[i];
                    let q = (pw[i] * po_p[i - 1]
                        + pe[i] * po_p[i + 1]
                        + ps[i] * po_s[i]
                        + pnb[i] * po_n[i]
                        + pb[i])
                        / (hx[i] * hy / t + pd[i]);
                    tn[i] = t;
                    pn[i] = q;
                    if last {
                        dt.see(t - to_p[i], j * nx + i);
                        dp.see(q - po_p[i], j * nx + i);
                    }
                }
                (dt, dp)
            },
        )
    };
    (w.T_new, w.p_new) = (t_new, p_new);
    let (dt, dp): (Vec<MaxAt>, Vec<MaxAt>) = rows.into_iter().unzip();
    (MaxAt::merged(dt), MaxAt::merged(dp))
}

/// Equation of state and Γ of a fluid cell with the new p and T: [p, T, ρ = p/T, Γ = √T].
#[inline(always)]
fn eos_cell(q: f64, t: f64) -> [f64; 4] {
    [q, t, rho_eos(q, t), gam_eos(t)]
}

/// One loop-2 iteration.
pub fn iterate_info(r: &mut Reference) -> IterInfo {
    pseudo_velocities(r);
    if let Some(h) = &r.halo {
        let ps = &mut r.ps;
        h.exchange(&mut [&mut ps.u_hat, &mut ps.d_u, &mut ps.v_hat, &mut ps.d_v]);
    }
    let mut w = std::mem::take(&mut r.work);
    {
        let x = ctx!(r);
        energy::energy_coeffs(&x, &mut w);
        pressure::pressure_coeffs(&x, &mut w);
    }
    // Loop 3.
    {
        let k = &r.state.k;
        let dst = [&mut w.T_old[..], &mut w.T_new, &mut w.p_old, &mut w.p_new];
        copy_rows(r.parallel, r.p.grid.nxt, dst, [&k.T, &k.T, &k.p, &k.p]);
    }
    let (mut dp, mut dt) = (MaxAt::default(), MaxAt::default());
    let (mut dp_first, mut dt_first) = (MaxAt::default(), MaxAt::default());
    // Compat stale_ghosts_in_loop3: the C++ code leaves the copied ghost p and T of loop 3 at
    // their values of the previous loop-2 iteration (docs/authors-cpp-defects.md).
    let refresh = !r.p.geo.compat.has(Defect::StaleGhostsInLoop3);
    let first_wanted = r.p.geo.compat.has(Defect::SteadyTestFirstSweep);
    for s in 0..r.sweeps {
        let last = s + 1 == r.sweeps;
        let first = s == 0 && first_wanted;
        (dt, dp) = sweep(&ctx!(r), &mut w, last || first);
        if first {
            (dt_first, dp_first) = (dt, dp);
        }
        if refresh {
            r.p.ghosts.apply_pt(&mut w.p_new, &mut w.T_new);
        }
        if let Some(h) = &r.halo {
            if last {
                (dt, dp) = halo::tp_residuals(h, &r.p.geo, &w);
            }
            h.exchange(&mut [&mut w.p_new, &mut w.T_new]);
        }
        std::mem::swap(&mut w.T_old, &mut w.T_new);
        std::mem::swap(&mut w.p_old, &mut w.p_new);
    }
    // Correction with the new pressure (ghosts of periodic/outflow sides already refreshed).
    let mut k = std::mem::take(&mut r.state.k);
    let before = r.halo.as_ref().map(|_| (k.u.clone(), k.v.clone()));
    let (mut du, mut dv) = correct(&ctx!(r), &w.p_old, &mut k);
    let (g, geo, nx) = (&r.p.grid, &r.p.geo, r.p.grid.nxt);
    let outs = [&mut k.p[..], &mut k.T[..], &mut k.rho[..], &mut k.Gam[..]];
    let wr = &w;
    map_rows(r.parallel, nx, outs, 0..g.nyt, |j, [kp, kt, kr, kg]| {
        for i in 0..nx {
            let p = j * nx + i;
            if geo.cell[p] == FLUID {
                [kp[i], kt[i], kr[i], kg[i]] = eos_cell(wr.p_old[p], wr.T_old[p]);
            }
        }
    });
    // The C++ order of the end rules (compat, docs/authors-cpp-defects.md): ρ and Γ of the
    // ghosts from their p and T before this iteration's copies (`lagged_ghost_state`), face
    // densities before the velocity end rules and fluxes after them
    // (`face_density_before_end_rules`).
    let compat = r.p.geo.compat;
    let early = compat.has(Defect::FaceDensityBeforeEndRules);
    if compat.has(Defect::LaggedGhostState) {
        r.p.ghosts.apply_cells_lagged(&mut k);
    } else {
        r.p.ghosts.apply_cells(&mut k);
    }
    r.state.k = k;
    r.work = w;
    let slots = compat.has(Defect::CornerSlipGhosts);
    if early {
        r.update_densities();
        if slots {
            write_corner_slots(r);
        }
    }
    let k = &mut r.state.k;
    r.p.ghosts.apply_faces(k);
    if let (Some(h), Some(before)) = (&r.halo, &before) {
        (du, dv) = halo::uv_residuals(h, &r.p.geo, before, k);
        h.exchange(&mut [&mut k.u, &mut k.v]);
    }
    if early {
        r.apply_outer();
        r.update_mass_fluxes();
    } else if slots {
        // The slot values need this iteration's face densities; the densities of the wall
        // faces do not depend on the velocities they hold.
        r.update_fluxes();
        write_corner_slots(r);
        r.update_mass_fluxes();
        r.apply_outer();
    } else {
        r.update_fluxes();
        r.apply_outer();
    }
    let info = IterInfo {
        du,
        dv,
        dp,
        dt,
        dp_first,
        dt_first,
    };
    match &r.halo {
        Some(h) => merged(h, info),
        None => info,
    }
}

/// Compat `corner_slip_ghosts`: store the C++ code's slip values in the wall faces at convex
/// body corners ([`bc::corner_slots`]), from the current velocities and face densities.
fn write_corner_slots(r: &mut Reference) {
    let (us, vs) = bc::corner_slots(&ctx!(r));
    let k = &mut r.state.k;
    for (s, val) in us {
        k.u[s] = val;
    }
    for (s, val) in vs {
        k.v[s] = val;
    }
}

/// One loop-2 iteration; the residuals only.
pub fn iterate(r: &mut Reference) -> Residuals {
    iterate_info(r).residuals()
}

/// Check an iteration for NaN/Inf or blow-up; name the field and the computed cell.
fn guard(r: &Reference, info: &IterInfo, iter: u32) -> Result<(), RunError> {
    let limit = r.p.case.solver.divergence_limit;
    let fields = [
        ("u", info.du),
        ("v", info.dv),
        ("p", info.dp),
        ("T", info.dt),
    ];
    for (name, m) in fields {
        if !m.value.is_finite() || m.value > limit {
            // A decomposed run's maxima carry the whole grid's index.
            let nxt = r.halo.as_ref().map_or(r.p.grid.nxt, |h| h.win.nxt);
            let (i, j) = (m.at % nxt, m.at / nxt);
            return Err(RunError::Diverged {
                step: r.state.step + 1,
                iter,
                field: name,
                i: i as i64 - 1,
                j: j as i64 - 1,
                value: m.value,
            });
        }
    }
    Ok(())
}

/// The C++ code's steady-state test of one loop-2 iteration (compat
/// `steady_test_first_sweep`, its L4442–4449): the first iteration of the step, at most two
/// loop-3 sweeps, and max|Δu|, max|Δv| and the **first** sweep's max|Δp|, max|ΔT| all at most
/// 1e-12 (the code's `MaxError_to_stop_program`, equal to `run::STEADY_TOL`).
fn cpp_steady(info: &IterInfo, iter: u32, sweeps: u32) -> bool {
    const TOL: f64 = 1e-12;
    iter == 1
        && sweeps <= 2
        && [info.du, info.dv, info.dp_first, info.dt_first]
            .iter()
            .all(|m| m.value <= TOL)
}

/// Loop 1 body: one time step, loop 2 until the tolerances of spec §4 hold or `max_iters`.
/// On divergence the state is rolled back to the start of the step (the last good state).
pub fn step(r: &mut Reference) -> Result<StepReport, RunError> {
    r.begin_step();
    let s = r.p.case.solver.clone();
    let mut report = StepReport::default();
    for iter in 1..=s.max_iters {
        let info = iterate_info(r);
        r.last_iter = info;
        if let Err(e) = guard(r, &info, iter) {
            r.state.k.clone_from(&r.state.n);
            r.state.time -= r.dt;
            r.update_fluxes();
            r.apply_outer();
            return Err(e);
        }
        let res = info.residuals();
        report.iters = iter;
        report.res = res;
        if r.p.geo.compat.has(Defect::SteadyTestFirstSweep) {
            report.steady = Some(cpp_steady(&info, iter, r.sweeps));
        }
        let [du, dv, dp, dt] = res.0;
        if du <= s.eps_v && dv <= s.eps_v && dp <= s.eps_p && dt <= s.eps_t {
            report.converged = true;
            break;
        }
    }
    r.state.step += 1;
    Ok(report)
}

/// The maxima of every rank merged: the values and the whole grid's indices of a
/// single-process run.
fn merged(h: &crate::decomp::Halo, info: IterInfo) -> IterInfo {
    let m = |x: MaxAt| (x.value, x.at);
    let [du, dv, dp, dt] = h.reduce_max_at([m(info.du), m(info.dv), m(info.dp), m(info.dt)]);
    IterInfo {
        du: halo::max_at(du),
        dv: halo::max_at(dv),
        dp: halo::max_at(dp),
        dt: halo::max_at(dt),
        ..info
    }
}
