//! The serial SIMPLE-TS reference solver (spec §2): plain, readable Rust in the C++ order, and
//! the oracle every other backend must reproduce.
//!
//! File stems follow `cl/`: `ops` (scalar fragments), `density` (9)–(12), `momentum` (13)–(21),
//! `energy` (24)–(30), `pressure` (22)–(23), `correct` (velocity correction, EoS), `bc` (ghost
//! layers and wall gas values), `iterate` (loop 2 and loop 1).
#![allow(non_snake_case)]

pub mod bc;
pub mod density;
pub mod energy;
pub mod halo;
pub mod interior;
pub mod iterate;
pub mod momentum;
pub mod ops;
pub mod plain;
pub mod pressure;
pub mod rows;

use std::sync::Arc;

use crate::error::RunError;
use crate::grid::Grid;
use crate::methods::simple_ts::backend::Backend;
use crate::methods::simple_ts::case::{Case, Convection, Interpolation};
use crate::methods::simple_ts::fields::{Fields, State};
use crate::methods::simple_ts::geometry::Geometry;
use crate::methods::simple_ts::physics::Constants;
use crate::methods::simple_ts::problem::Problem;
use crate::solver::{Residuals, StepReport};

/// Face densities and mass fluxes of the current iterate (spec §2.2–2.3).
#[derive(Debug, Clone, Default)]
pub struct Fluxes {
    /// ρu: density at u-faces.
    pub rho_u: Vec<f64>,
    /// ρv: density at v-faces.
    pub rho_v: Vec<f64>,
    /// Fx = hy ρu u, mass flux through the west face (7).
    pub Fx: Vec<f64>,
    /// Fy = hx ρv v, mass flux through the south face (8).
    pub Fy: Vec<f64>,
    /// The east outer face beyond the east ghost column, by row (the C++ code's face Nx−1;
    /// empty unless the east side stores it, [`Geometry::east_outer`]): velocity ...
    pub u_xe: Vec<f64>,
    /// ... density (the ghost cell's) ...
    pub rho_u_xe: Vec<f64>,
    /// ... and mass flux hy ρu u.
    pub Fx_xe: Vec<f64>,
}

/// Pseudo-velocities and d-coefficients of the current loop-2 iteration (15)–(16): written
/// by the momentum step, read by the pressure equation and the correction.
#[derive(Debug, Clone, Default)]
pub struct Pseudo {
    /// û, pseudo-velocity at u-faces (15).
    pub u_hat: Vec<f64>,
    /// d_u = A hy / a_P^u (15).
    pub d_u: Vec<f64>,
    /// v̂ (16).
    pub v_hat: Vec<f64>,
    /// d_v = A hx / a_P^v (16).
    pub d_v: Vec<f64>,
}

impl Pseudo {
    fn new(n: usize) -> Pseudo {
        Pseudo {
            u_hat: vec![0.0; n],
            d_u: vec![0.0; n],
            v_hat: vec![0.0; n],
            d_v: vec![0.0; n],
        }
    }
}

/// The explicit scheme's convective terms of a time step, from level n (empty for the
/// implicit scheme, which never reads them).
#[derive(Debug, Clone, Default)]
pub struct Explicit {
    /// Convective term of the u-CV, C_u.
    pub cu: Vec<f64>,
    /// Convective term of the v-CV, C_v.
    pub cv: Vec<f64>,
    /// Convective term of the energy equation, C_T.
    pub ct: Vec<f64>,
}

/// Loop-2 temporaries: the coefficients of the energy and pressure equations and the loop-3
/// buffers.
#[derive(Debug, Clone, Default)]
pub struct Work {
    /// Energy equation: neighbour coefficients ×Δt (W, E, S, N), 0 at walls.
    pub tW: Vec<f64>,
    /// East.
    pub tE: Vec<f64>,
    /// South.
    pub tS: Vec<f64>,
    /// North.
    pub tN: Vec<f64>,
    /// Energy diagonal (left side of (24)).
    pub tP: Vec<f64>,
    /// Energy constant right side (sources, wall terms, pⁿV, explicit/TVD terms).
    pub tB: Vec<f64>,
    /// Δt C_T3 × discrete divergence: multiplies p(i,j) in the compression work.
    pub tDiv: Vec<f64>,
    /// Pressure equation: Δt a^p neighbour coefficients (W, E, S, N).
    pub pW: Vec<f64>,
    /// East.
    pub pE: Vec<f64>,
    /// South.
    pub pS: Vec<f64>,
    /// North.
    pub pN: Vec<f64>,
    /// Δt Σ a^p.
    pub pD: Vec<f64>,
    /// Δt b^p + V pⁿ/Tⁿ.
    pub pB: Vec<f64>,
    /// Loop-3 buffers: T of the previous sweep.
    pub T_old: Vec<f64>,
    /// Loop-3 buffers: T of this sweep.
    pub T_new: Vec<f64>,
    /// Loop-3 buffers: p of the previous sweep.
    pub p_old: Vec<f64>,
    /// Loop-3 buffers: p of this sweep.
    pub p_new: Vec<f64>,
}

impl Work {
    fn new(n: usize) -> Work {
        let z = || vec![0.0; n];
        Work {
            tW: z(),
            tE: z(),
            tS: z(),
            tN: z(),
            tP: z(),
            tB: z(),
            tDiv: z(),
            pW: z(),
            pE: z(),
            pS: z(),
            pN: z(),
            pD: z(),
            pB: z(),
            T_old: z(),
            T_new: z(),
            p_old: z(),
            p_new: z(),
        }
    }
}

/// Read-only view of everything an equation needs at one loop-2 iteration.
pub struct Ctx<'a> {
    /// Grid.
    pub g: &'a Grid,
    /// Cell and face classes.
    pub geo: &'a Geometry,
    /// Constants.
    pub c: &'a Constants,
    /// Iterate k.
    pub k: &'a Fields,
    /// Level n.
    pub n: &'a Fields,
    /// Face densities and fluxes of iterate k.
    pub f: &'a Fluxes,
    /// Pseudo-velocities and d-coefficients of this iteration (empty while they are computed).
    pub ps: &'a Pseudo,
    /// Explicit convective terms of this step (empty for the implicit scheme, and while they
    /// are computed).
    pub ex: &'a Explicit,
    /// Time step.
    pub dt: f64,
    /// TVD corrections on.
    pub tvd: bool,
    /// Explicit convection.
    pub explicit: bool,
    /// Run the cell/face loops on rayon's threads (the `parallel` backend; same bits).
    pub par: bool,
    /// Interior runs of the geometry (empty: every face and cell through the fragments).
    pub pl: &'a plain::Plain,
}

/// Borrow a [`Ctx`] from a [`Reference`] field by field, so that `work` stays free to mutate.
macro_rules! ctx {
    ($r:expr) => {
        $crate::methods::simple_ts::reference::Ctx {
            g: &$r.p.grid,
            geo: &$r.p.geo,
            c: &$r.p.c,
            k: &$r.state.k,
            n: &$r.state.n,
            f: &$r.flux,
            ps: &$r.ps,
            ex: &$r.ex,
            dt: $r.dt,
            tvd: $r.tvd,
            explicit: $r.explicit,
            par: $r.parallel,
            pl: &$r.plain,
        }
    };
}
pub(crate) use ctx;

/// The serial reference solver.
pub struct Reference {
    /// The discretised problem: case, grid, geometry, constants, ghost rules.
    pub p: Arc<Problem>,
    /// Time step.
    pub dt: f64,
    /// TVD on.
    pub tvd: bool,
    /// Explicit convection.
    pub explicit: bool,
    /// Loop-3 sweeps per loop-2 iteration.
    pub sweeps: u32,
    /// Fields at level n and iterate k.
    pub state: State,
    /// Face densities and fluxes of iterate k.
    pub flux: Fluxes,
    /// Pseudo-velocities and d-coefficients.
    pub ps: Pseudo,
    /// Explicit convective terms.
    pub ex: Explicit,
    /// Temporaries.
    pub work: Work,
    /// Run the cell/face loops row-parallel on rayon's threads (the `parallel` backend); the
    /// equations and the bits are those of the serial loops.
    pub parallel: bool,
    /// One rank's window of a decomposed run: the halo exchanged after every phase that
    /// neighbours read, the residuals merged over all ranks (`None`: the whole grid).
    pub halo: Option<Arc<crate::decomp::Halo>>,
    /// The update norms of the last loop-2 iteration (for reports: the C++ steady test reads
    /// the first sweep's p and T changes).
    pub last_iter: iterate::IterInfo,
    /// Interior runs of the geometry, for the loops of [`interior`].
    pub plain: plain::Plain,
}

impl Reference {
    /// Set up the grid, geometry and initial state of `case` (impulsive start, spec §3.5).
    pub fn new(case: &Case) -> Reference {
        Reference::on(Arc::new(Problem::new(case)), false)
    }

    /// The `parallel` backend: the reference with row-parallel loops on rayon's global pool;
    /// bit-identical to [`Reference::new`].
    pub fn new_parallel(case: &Case) -> Reference {
        Reference::on(Arc::new(Problem::new(case)), true)
    }

    /// Serial (`false`) or row-parallel (`true`) reference.
    pub fn with_parallel(case: &Case, parallel: bool) -> Reference {
        Reference::on(Arc::new(Problem::new(case)), parallel)
    }

    /// The reference on the discretised problem `p`, from its initial state; row-parallel
    /// if `parallel`.
    pub fn on(p: Arc<Problem>, parallel: bool) -> Reference {
        let n = p.grid.len();
        let case = &p.case;
        let k = p.initial();
        let interior_runs = plain::Plain::new(&p.grid, &p.geo);
        let outer = if p.ghosts.east_rows.is_empty() {
            0
        } else {
            p.grid.nyt
        };
        let flux = Fluxes {
            rho_u: vec![0.0; n],
            rho_v: vec![0.0; n],
            Fx: vec![0.0; n],
            Fy: vec![0.0; n],
            u_xe: vec![0.0; outer],
            rho_u_xe: vec![0.0; outer],
            Fx_xe: vec![0.0; outer],
        };
        let mut r = Reference {
            dt: case.time.dt,
            tvd: case.scheme.interpolation == Interpolation::Tvd,
            explicit: case.scheme.convection == Convection::Explicit,
            sweeps: case.solver.sweeps(),
            state: State {
                n: k.clone(),
                k,
                step: 0,
                time: 0.0,
            },
            flux,
            ps: Pseudo::new(n),
            ex: Explicit::default(),
            work: Work::new(n),
            p,
            parallel,
            halo: None,
            last_iter: iterate::IterInfo::default(),
            plain: interior_runs,
        };
        r.update_fluxes();
        r.apply_outer();
        r
    }

    /// Rebuild ρu, ρv, Fx, Fy from the current iterate (loop 2 step 7/10).
    pub fn update_fluxes(&mut self) {
        let mut out = std::mem::take(&mut self.flux);
        density::face_densities(&ctx!(self), &mut out);
        if let Some(h) = &self.halo {
            h.exchange(&mut [&mut out.rho_u, &mut out.rho_v, &mut out.Fx, &mut out.Fy]);
        }
        self.flux = out;
    }

    /// Rebuild ρu, ρv only (compat `face_density_before_end_rules`: the C++ code computes
    /// them before the velocity end rules and the fluxes after).
    pub fn update_densities(&mut self) {
        let mut out = std::mem::take(&mut self.flux);
        density::densities_only(&ctx!(self), &mut out);
        self.flux = out;
    }

    /// Rebuild Fx, Fy from the stored ρu, ρv and the current velocities.
    pub fn update_mass_fluxes(&mut self) {
        let mut out = std::mem::take(&mut self.flux);
        density::mass_fluxes(&ctx!(self), &mut out);
        self.flux = out;
    }

    /// Set the outer faces of the west and east ghost columns and their fluxes from the
    /// stored densities (nothing for a case without them).
    pub fn apply_outer(&mut self) {
        let gh = &self.p.ghosts;
        if gh.has_outer() {
            let s = &mut self.state;
            gh.apply_outer(&self.p.grid, &mut s.k, &s.n, &mut self.flux, self.dt);
        }
    }

    /// A read-only context over the current state.
    pub fn ctx(&self) -> Ctx<'_> {
        ctx!(self)
    }

    /// Start a time step: level n := current iterate, t += Δt, explicit convective terms.
    pub fn begin_step(&mut self) {
        let (k, n) = (&self.state.k, &mut self.state.n);
        if n.u.len() == k.u.len() {
            let dst = [
                &mut n.u[..],
                &mut n.v,
                &mut n.p,
                &mut n.T,
                &mut n.rho,
                &mut n.Gam,
            ];
            let src = [&k.u[..], &k.v, &k.p, &k.T, &k.rho, &k.Gam];
            rows::copy_rows(self.parallel, self.p.grid.nxt, dst, src);
        } else {
            n.clone_from(k);
        }
        self.state.time += self.dt;
        if self.explicit {
            let n = self.p.grid.len();
            let mut ex = std::mem::take(&mut self.ex);
            for a in [&mut ex.cu, &mut ex.cv, &mut ex.ct] {
                a.resize(n, 0.0);
            }
            {
                let x = ctx!(self);
                momentum::convective_u(&x, &mut ex.cu);
                momentum::convective_v(&x, &mut ex.cv);
                energy::convective_T(&x, &mut ex.ct);
            }
            self.ex = ex;
        }
    }

    /// One loop-2 iteration (spec §2.8); the maxima of |Δu|, |Δv|, |Δp|, |ΔT|.
    pub fn iterate(&mut self) -> Residuals {
        iterate::iterate(self)
    }
}

/// Global mass budget of the last time step (spec §5.8 item 3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MassBudget {
    /// Mass in the fluid cells at level n+1, Σ ρ V.
    pub mass: f64,
    /// Σ (ρ − ρⁿ) V + Δt (net outflow through the domain boundary).
    pub imbalance: f64,
    /// Largest per-cell continuity residual |(ρ − ρⁿ)V + Δt Σ_out F| relative to ρV.
    pub max_cell_rel: f64,
}

impl Reference {
    /// Continuity residual of the current iterate against level n, with the face densities and
    /// velocities of the current iterate (spec §5.8: C++ `SolveContinuityEquation`).
    pub fn mass_budget(&self) -> MassBudget {
        let (g, geo, k, n, f) = (
            &self.p.grid,
            &self.p.geo,
            &self.state.k,
            &self.state.n,
            &self.flux,
        );
        let nx = g.nxt;
        let (mut mass, mut imb, mut worst) = (0.0, 0.0, 0.0f64);
        for j in 1..=g.ny {
            for i in 1..=g.nx {
                let p = g.idx(i, j);
                if !geo.fluid(p) {
                    continue;
                }
                let vol = g.vol(i, j);
                let out = f.Fx[p + 1] - f.Fx[p] + f.Fy[p + nx] - f.Fy[p];
                let r = (k.rho[p] - n.rho[p]) * vol + self.dt * out;
                mass += k.rho[p] * vol;
                imb += r;
                worst = worst.max(r.abs() / (k.rho[p] * vol));
            }
        }
        MassBudget {
            mass,
            imbalance: imb,
            max_cell_rel: worst,
        }
    }
}

impl Backend for Reference {
    fn name(&self) -> String {
        if self.parallel {
            format!("parallel:{}", rayon::current_num_threads())
        } else {
            "reference".into()
        }
    }
    fn problem(&self) -> &Arc<Problem> {
        &self.p
    }
    fn step(&mut self) -> Result<StepReport, RunError> {
        iterate::step(self)
    }
    fn clock(&self) -> (u64, f64) {
        (self.state.step, self.state.time)
    }
    fn state(&mut self) -> Result<&State, RunError> {
        Ok(&self.state)
    }
    fn restore(&mut self, state: State) -> Result<(), RunError> {
        self.state = state;
        self.update_fluxes();
        self.apply_outer();
        Ok(())
    }
}
