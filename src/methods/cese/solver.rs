//! CE/SE behind the solver seam: [`Cese`] runs a [`Problem`] on the reference (serial or
//! row-parallel) or on an OpenCL device, and gives the run driver its layout (ρ, u, (v,) p
//! at the integer points, which are the cell centres of the output grid; the residual
//! max |Δρ|; every plane of the level, derivatives included, as checkpoint arrays).

use std::sync::Arc;

use super::opencl::{OpenCl, Sweep};
use super::reference::{load, Reference};
use super::Problem;
use crate::error::{DeviceError, RunError};
use crate::methods::explicit::StepRule;
use crate::methods::{BackendChoice, BackendKind};
use crate::solver::{
    Layout, Level, Place, ResidualSpec, Saved, Snapshot, Solver, SolverInfo, StepReport, Variable,
};

/// Where a CE/SE problem runs.
pub enum Engine {
    /// The serial (or row-parallel) reference.
    Reference(Box<Reference>),
    /// An OpenCL device.
    OpenCl(Box<OpenCl>),
}

/// CE/SE on a backend, as a [`Solver`].
pub struct Cese {
    p: Arc<Problem>,
    engine: Engine,
    layout: Layout,
    out: Vec<Vec<f64>>,
}

/// The names of the planes of a level (checkpoint arrays).
pub fn plane_names(dims: usize) -> Vec<String> {
    let u: &[&str] = if dims == 1 {
        &["rho", "rho_u", "E"]
    } else {
        &["rho", "rho_u", "rho_v", "E"]
    };
    let mut n: Vec<String> = u.iter().map(|s| s.to_string()).collect();
    n.extend(u.iter().map(|s| format!("{s}_x")));
    if dims == 2 {
        n.extend(u.iter().map(|s| format!("{s}_y")));
    }
    n
}

/// The [`Layout`] of `p`.
pub fn layout(p: &Problem) -> Layout {
    let v = |name, long_name| Variable {
        name,
        long_name,
        place: Place::Cell,
        guarded: true,
    };
    let m = &p.mesh;
    let variables = if m.dims == 1 {
        vec![v("rho", "density"), v("u", "velocity"), v("p", "pressure")]
    } else {
        vec![
            v("rho", "density"),
            v("u", "velocity x-component"),
            v("v", "velocity y-component"),
            v("p", "pressure"),
        ]
    };
    Layout {
        method: p.method(),
        grid: p.grid.clone(),
        variables,
        residuals: vec![ResidualSpec {
            name: "res_rho",
            short: "drho",
            variable: 0,
            long_name: "max |rho^(n+1) - rho^n| of the step",
        }],
        mask: vec![1; m.nx * m.ny],
        work_cells: p.points(),
        units: "non-dimensional, in the units of the case file (docs/method/cese.md)",
        time_unit: "time in the units of the case file",
        side: Vec::new(),
        saved: plane_names(m.dims),
        aux: None,
    }
}

impl Cese {
    /// Build `p` on the backend `choice` asks for.
    pub fn new(p: Problem, choice: &BackendChoice) -> Result<Cese, DeviceError> {
        let p = Arc::new(p);
        let engine = match choice.kind {
            BackendKind::Reference => {
                Engine::Reference(Box::new(Reference::new(Arc::clone(&p), false)))
            }
            BackendKind::Parallel => {
                Engine::Reference(Box::new(Reference::new(Arc::clone(&p), true)))
            }
            BackendKind::OpenCl => Engine::OpenCl(Box::new(OpenCl::new(Arc::clone(&p), choice)?)),
        };
        Ok(Cese {
            layout: layout(&p),
            out: Vec::new(),
            engine,
            p,
        })
    }

    /// The problem.
    pub fn problem(&self) -> &Problem {
        &self.p
    }

    /// The fused kernels' shape on OpenCL (the default elsewhere, where it means nothing).
    pub fn sweep(&self) -> Sweep {
        match &self.engine {
            Engine::OpenCl(o) => o.sweep(),
            Engine::Reference(_) => Sweep::default_env(),
        }
    }

    /// Δt of the next step.
    pub fn next_dt(&self) -> f64 {
        match &self.engine {
            Engine::Reference(r) => r.dt,
            Engine::OpenCl(o) => o.clock().2,
        }
    }

    /// The current integer level (`previous`: the one before the last step), stored layout.
    pub fn level(&self, previous: bool) -> Result<Vec<f64>, RunError> {
        Ok(match &self.engine {
            Engine::Reference(r) => {
                let l = if previous { 1 - r.cur } else { r.cur };
                r.q[l].clone()
            }
            Engine::OpenCl(o) => o.state(previous)?,
        })
    }

    /// The conserved variables at the integer points, one `nx·ny` array (row-major) each.
    pub fn conserved(&self) -> Result<Vec<Vec<f64>>, RunError> {
        let q = self.level(false)?;
        let q = &q;
        let m = &self.p.mesh;
        Ok((0..m.nv)
            .map(|v| {
                (0..m.ny)
                    .flat_map(|j| (0..m.nx).map(move |i| q[v * m.ns + m.idx(i, j)]))
                    .collect()
            })
            .collect())
    }

    fn fill_out(&mut self, q: &[f64]) {
        let (m, g) = (&self.p.mesh, &self.p.grid);
        let gamma = self.p.c.gamma;
        let nvar = self.layout.variables.len();
        self.out.resize(nvar, Vec::new());
        for a in &mut self.out {
            a.clear();
            a.resize(g.len(), 0.0);
        }
        for j in 0..m.ny {
            for i in 0..m.nx {
                let u = load(m, q, m.idx(i, j)).u;
                let kg = g.idx(i + 1, j + 1);
                let vals = if m.dims == 1 {
                    let w = u[1] / u[0];
                    [u[0], w, super::fragments::c1_p(gamma, u[1], u[2], w), 0.0]
                } else {
                    let (wx, wy) = (u[1] / u[0], u[2] / u[0]);
                    [
                        u[0],
                        wx,
                        wy,
                        super::fragments::c2_p(gamma, u[1], u[2], u[3], wx, wy),
                    ]
                };
                for (v, a) in self.out.iter_mut().enumerate() {
                    a[kg] = vals[v];
                }
            }
        }
    }
}

impl Solver for Cese {
    fn name(&self) -> String {
        match &self.engine {
            Engine::Reference(r) if r.parallel => {
                format!("parallel:{}", rayon::current_num_threads())
            }
            Engine::Reference(_) => "reference".into(),
            Engine::OpenCl(o) => format!("opencl:{}", o.device().name),
        }
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn step(&mut self) -> Result<StepReport, RunError> {
        let dq = match &mut self.engine {
            Engine::Reference(r) => {
                r.step()?;
                r.dq
            }
            Engine::OpenCl(o) => {
                o.step()?;
                o.clock().3
            }
        };
        let mut res = crate::solver::Residuals::default();
        res.0[0] = dq;
        Ok(StepReport {
            iters: 1,
            res,
            converged: true,
            steady: None,
        })
    }

    fn clock(&self) -> (u64, f64) {
        match &self.engine {
            Engine::Reference(r) => (r.step, r.time),
            Engine::OpenCl(o) => (o.clock().0, o.clock().1),
        }
    }

    fn snapshot(&mut self, level: Level) -> Result<Snapshot<'_>, RunError> {
        let q = self.level(level == Level::Previous)?;
        self.fill_out(&q);
        let (step, time) = self.clock();
        Ok(Snapshot {
            step,
            time,
            arrays: self.out.iter().map(Vec::as_slice).collect(),
        })
    }

    fn side_lines(&mut self, due: &[bool]) -> Result<Vec<Vec<String>>, RunError> {
        Ok(vec![vec![]; due.len()])
    }

    fn save(&mut self) -> Result<Saved, RunError> {
        let q = self.level(false)?;
        let (m, g) = (&self.p.mesh, &self.p.grid);
        let arrays = (0..m.planes)
            .map(|pl| {
                let mut a = vec![0.0; g.len()];
                for j in 0..m.ny {
                    for i in 0..m.nx {
                        a[g.idx(i + 1, j + 1)] = q[pl * m.ns + m.idx(i, j)];
                    }
                }
                a
            })
            .collect();
        let (step, time) = self.clock();
        Ok(Saved { step, time, arrays })
    }

    fn restore(&mut self, saved: Saved) -> Result<(), RunError> {
        let (m, g) = (&self.p.mesh, &self.p.grid);
        let mut q = vec![0.0; m.len()];
        for (pl, a) in saved.arrays.iter().enumerate().take(m.planes) {
            for j in 0..m.ny {
                for i in 0..m.nx {
                    q[pl * m.ns + m.idx(i, j)] = a[g.idx(i + 1, j + 1)];
                }
            }
        }
        match &mut self.engine {
            Engine::Reference(r) => r.restore(q, saved.step, saved.time),
            Engine::OpenCl(o) => o.restore(q, saved.step, saved.time)?,
        }
        Ok(())
    }

    fn info(&self) -> SolverInfo {
        match &self.engine {
            Engine::OpenCl(o) => {
                let b = o.runtime().program();
                SolverInfo::opencl(b, o.form().name(), None)
            }
            Engine::Reference(_) => SolverInfo::default(),
        }
    }

    fn details(&self) -> Vec<(String, String)> {
        let mut d = vec![
            ("scheme".into(), self.p.label()),
            ("time step".into(), self.p.rule_text()),
            ("next dt".into(), format!("{:?}", self.next_dt())),
        ];
        if let Engine::OpenCl(o) = &self.engine {
            d.push(("kernels".into(), o.form().name().into()));
        }
        d
    }

    fn profiling(&mut self) -> Option<&mut dyn crate::device::Profiling> {
        match &mut self.engine {
            Engine::OpenCl(o) => Some(o.runtime_mut() as &mut dyn crate::device::Profiling),
            Engine::Reference(_) => None,
        }
    }

    fn finished(&self) -> bool {
        matches!(self.p.rule, StepRule::Cfl(_)) && self.clock().1 >= self.p.t_end
    }
}
