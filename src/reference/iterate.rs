//! Loop 2 (one iteration of the coupled equations) and loop 1 (one time step), spec §2.8.
//!
//! C++ order per loop-2 iteration: û,d_u (all u-CVs) → v̂,d_v (all v-CVs) → energy and
//! pressure coefficients → loop 3 (`sweeps` Jacobi T/p evaluations: T from old neighbours and
//! old p, then p from old neighbours and the new T of the same cell) → velocity correction →
//! ρ = p/T, Γ = √T → boundary ghosts → ρu, ρv, Fx, Fy. With one sweep this is exactly the GPU
//! kernel's order (spec §2.8, G14).

use super::pressure::{correct, p_cc, MaxAt};
use super::{ctx, energy, momentum, pressure, Reference};
use crate::error::RunError;
use crate::geometry::{FLUID, F_SOLVED};
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
}

impl IterInfo {
    /// The plain residuals.
    pub fn residuals(&self) -> Residuals {
        Residuals {
            du: self.du.value,
            dv: self.dv.value,
            dp: self.dp.value,
            dt: self.dt.value,
        }
    }
}

/// Pseudo-velocities of all solved faces; periodic seam faces take their partner's.
fn pseudo_velocities(r: &mut Reference) {
    let x = ctx!(r);
    let (g, geo) = (x.g, x.geo);
    let w = &mut r.work;
    for j in 1..=g.ny {
        for i in 1..g.nxt {
            let ij = g.idx(i, j);
            if geo.u_face[ij] == F_SOLVED {
                (w.u_hat[ij], w.d_u[ij]) = momentum::u_hat_d_u(&x, &w.Cu, i, j);
            }
        }
    }
    for j in 1..g.nyt {
        for i in 1..=g.nx {
            let ij = g.idx(i, j);
            if geo.v_face[ij] == F_SOLVED {
                (w.v_hat[ij], w.d_v[ij]) = momentum::v_hat_d_v(&x, &w.Cv, i, j);
            }
        }
    }
    for &(ij, src) in &r.ghosts.u_copies {
        w.u_hat[ij] = w.u_hat[src];
        w.d_u[ij] = w.d_u[src];
    }
    for &(ij, src) in &r.ghosts.v_copies {
        w.v_hat[ij] = w.v_hat[src];
        w.d_v[ij] = w.d_v[src];
    }
}

/// One loop-2 iteration.
pub fn iterate_info(r: &mut Reference) -> IterInfo {
    pseudo_velocities(r);
    {
        let x = ctx!(r);
        energy::energy_coeffs(&x, &mut r.work);
        pressure::pressure_coeffs(&x, &mut r.work);
    }
    // Loop 3.
    let g = &r.grid;
    let nx = g.nxt;
    let w = &mut r.work;
    let k = &mut r.state.k;
    w.T_old.copy_from_slice(&k.T);
    w.T_new.copy_from_slice(&k.T);
    w.p_old.copy_from_slice(&k.p);
    w.p_new.copy_from_slice(&k.p);
    let (mut dp, mut dt) = (MaxAt::default(), MaxAt::default());
    for sweep in 0..r.sweeps {
        let last = sweep + 1 == r.sweeps;
        for j in 1..=g.ny {
            for i in 1..=g.nx {
                let p = g.idx(i, j);
                if r.geom.cell[p] != FLUID {
                    continue;
                }
                let t = energy::T_cc(w, nx, p);
                let q = p_cc(w, g.vol(i, j), nx, p, t);
                w.T_new[p] = t;
                w.p_new[p] = q;
                if last {
                    dt.see(t - w.T_old[p], p);
                    dp.see(q - w.p_old[p], p);
                }
            }
        }
        r.ghosts.apply_pt(&mut w.p_new, &mut w.T_new);
        std::mem::swap(&mut w.T_old, &mut w.T_new);
        std::mem::swap(&mut w.p_old, &mut w.p_new);
    }
    // Correction with the new pressure (ghosts of periodic/outflow sides already refreshed).
    let (du, dv) = correct(g, &r.geom, w, &w.p_old, k);
    for p in 0..g.len() {
        if r.geom.cell[p] == FLUID {
            let (q, t) = (w.p_old[p], w.T_old[p]);
            k.p[p] = q;
            k.T[p] = t;
            k.rho[p] = q / t;
            k.Gam[p] = t.sqrt();
        }
    }
    r.ghosts.apply_cells(k);
    r.ghosts.apply_faces(k);
    r.update_fluxes();
    IterInfo { du, dv, dp, dt }
}

/// One loop-2 iteration; the residuals only.
pub fn iterate(r: &mut Reference) -> Residuals {
    iterate_info(r).residuals()
}

/// Check an iteration for NaN/Inf or blow-up; name the field and the computed cell.
fn guard(r: &Reference, info: &IterInfo, iter: u32) -> Result<(), RunError> {
    let limit = r.case.solver.divergence_limit;
    let fields = [
        ("u", info.du),
        ("v", info.dv),
        ("p", info.dp),
        ("T", info.dt),
    ];
    for (name, m) in fields {
        if !m.value.is_finite() || m.value > limit {
            let g = &r.grid;
            let (i, j) = (m.at % g.nxt, m.at / g.nxt);
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

/// Loop 1 body: one time step, loop 2 until the tolerances of spec §4 hold or `max_iters`.
/// On divergence the state is rolled back to the start of the step (the last good state).
pub fn step(r: &mut Reference) -> Result<StepReport, RunError> {
    r.begin_step();
    let s = r.case.solver.clone();
    let mut report = StepReport::default();
    for iter in 1..=s.max_iters {
        let info = iterate_info(r);
        if let Err(e) = guard(r, &info, iter) {
            r.state.k.clone_from(&r.state.n);
            r.state.time -= r.dt;
            r.update_fluxes();
            return Err(e);
        }
        let res = info.residuals();
        report.iters = iter;
        report.res = res;
        if res.du <= s.eps_v && res.dv <= s.eps_v && res.dp <= s.eps_p && res.dt <= s.eps_t {
            report.converged = true;
            break;
        }
    }
    r.state.step += 1;
    Ok(report)
}
