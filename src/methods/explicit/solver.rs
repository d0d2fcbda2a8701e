//! The explicit methods behind the solver seam: [`Explicit`] runs a [`Problem`] on the
//! reference (serial or row-parallel) or on an OpenCL device, and gives the run driver its
//! layout (the primitive variables on the cells, the residual max |Δ first variable|, the
//! conserved variables as checkpoint arrays) and snapshots on the output grid.

use std::sync::Arc;

use super::opencl::OpenCl;
use super::reference::Reference;
use super::{Problem, StepRule, System};
use crate::error::{DeviceError, RunError};
use crate::methods::{BackendChoice, BackendKind};
use crate::solver::{
    Layout, Level, Place, ResidualSpec, Saved, Snapshot, Solver, SolverInfo, StepReport, Variable,
};

/// Where an explicit problem runs.
pub enum Engine {
    /// The serial (or row-parallel) reference.
    Reference(Box<Reference>),
    /// An OpenCL device.
    OpenCl(Box<OpenCl>),
}

/// An explicit method on a backend, as a [`Solver`].
pub struct Explicit {
    p: Arc<Problem>,
    engine: Engine,
    layout: Layout,
    /// Snapshot arrays (output grid layout), refilled at each snapshot.
    out: Vec<Vec<f64>>,
}

/// The output variables of a system.
pub fn variables(sys: &System) -> Vec<Variable> {
    let v = |name, long_name| Variable {
        name,
        long_name,
        place: Place::Cell,
        guarded: true,
    };
    match sys {
        System::Euler { .. } => vec![
            v("rho", "density"),
            v("u", "velocity x-component"),
            v("v", "velocity y-component"),
            v("p", "pressure"),
        ],
        System::ShallowWater { .. } => vec![
            v("h", "water depth (phi / g)"),
            v("u", "depth-averaged velocity x-component (0 where dry)"),
            v("v", "depth-averaged velocity y-component (0 where dry)"),
        ],
        System::Transport { .. } | System::Convection { .. } => {
            vec![v("q", "transported scalar")]
        }
    }
}

/// The [`Layout`] of `p`.
pub fn layout(p: &Problem) -> Layout {
    let first = match p.system {
        System::Euler { .. } => ("res_rho", "drho", "max |rho^(n+1) - rho^n| of the step"),
        System::ShallowWater { .. } => (
            "res_phi",
            "dphi",
            "max |phi^(n+1) - phi^n| of the step (phi = g h)",
        ),
        _ => ("res_q", "dq", "max |q^(n+1) - q^n| of the step"),
    };
    let m = &p.mesh;
    let mut mask = vec![1i8; m.nx * m.ny];
    if let Some(s) = &p.solid {
        for (jj, j) in m.rows().enumerate() {
            for (ii, i) in m.cols().enumerate() {
                mask[ii + jj * m.nx] = i8::from(s[m.idx(i, j)] == 0);
            }
        }
    }
    Layout {
        method: p.method,
        grid: p.grid.clone(),
        variables: variables(&p.system),
        residuals: vec![ResidualSpec {
            name: first.0,
            short: first.1,
            variable: 0,
            long_name: first.2,
        }],
        mask,
        work_cells: p.fluid_cells(),
        units: "non-dimensional, in the units of the case file (docs/method/shll.md, \
                docs/method/convection.md)",
        time_unit: "time in the units of the case file",
        side: Vec::new(),
        saved: p
            .system
            .conserved_names()
            .iter()
            .map(|s| s.to_string())
            .collect(),
        aux: None,
    }
}

/// Primitive output values of a conserved state.
fn primitives(sys: &System, s: &[f64]) -> [f64; 4] {
    match *sys {
        System::Euler { gamma } => {
            let st = [s[0], s[1], s[2], s[3]];
            let p = super::reference::pressure(gamma, &st);
            [s[0], s[1] / s[0], s[2] / s[0], p]
        }
        System::ShallowWater { g, phi_dry } => {
            use crate::methods::shll::shallow_water::sw_vel;
            [
                s[0] / g,
                sw_vel(phi_dry, s[0], s[1]),
                sw_vel(phi_dry, s[0], s[2]),
                0.0,
            ]
        }
        _ => [s[0], 0.0, 0.0, 0.0],
    }
}

impl Explicit {
    /// Build `p` on the backend `choice` asks for.
    pub fn new(p: Problem, choice: &BackendChoice) -> Result<Explicit, DeviceError> {
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
        Ok(Explicit {
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

    /// Δt of the next step.
    pub fn next_dt(&self) -> f64 {
        match &self.engine {
            Engine::Reference(r) => r.dt,
            Engine::OpenCl(o) => o.clock().2,
        }
    }

    /// True once a CFL run with an end time has reached it.
    pub fn reached_end(&self) -> bool {
        matches!(self.p.rule, StepRule::Cfl(_)) && self.clock().1 >= self.p.t_end
    }

    /// The conserved state (stored layout with ghosts) of the current level, or of the one
    /// before the last step.
    pub fn conserved(&self, previous: bool) -> Result<Vec<f64>, RunError> {
        Ok(match &self.engine {
            Engine::Reference(r) => {
                let l = if previous { 1 - r.cur } else { r.cur };
                r.q[l].clone()
            }
            Engine::OpenCl(o) => o.state(previous)?,
        })
    }

    /// The conserved variables of the computed cells, one `nx·ny` array (row-major) each.
    pub fn conserved_interior(&self) -> Result<Vec<Vec<f64>>, RunError> {
        let q = self.conserved(false)?;
        let m = &self.p.mesh;
        Ok((0..self.p.nv())
            .map(|v| {
                m.rows()
                    .flat_map(|j| m.cols().map(move |i| (i, j)))
                    .map(|(i, j)| q[v * m.ns + m.idx(i, j)])
                    .collect()
            })
            .collect())
    }

    fn fill_out(&mut self, q: &[f64]) {
        fill_snapshot(&self.p, self.layout.variables.len(), q, &mut self.out);
    }
}

/// The output arrays (`nvar` primitive variables on the output grid) of the conserved state
/// `q` of `p`, into `out`.
pub fn fill_snapshot(p: &Problem, nvar: usize, q: &[f64], out: &mut Vec<Vec<f64>>) {
    let (m, g) = (&p.mesh, &p.grid);
    out.resize(nvar, Vec::new());
    for a in out.iter_mut() {
        a.clear();
        a.resize(g.len(), 0.0);
    }
    let nv = p.nv();
    for (jj, j) in m.rows().enumerate() {
        for (ii, i) in m.cols().enumerate() {
            let k = m.idx(i, j);
            let mut s = [0.0; 4];
            for (v, sv) in s.iter_mut().enumerate().take(nv) {
                *sv = q[v * m.ns + k];
            }
            let pr = primitives(&p.system, &s);
            let kg = g.idx(ii + 1, jj + 1);
            for (v, a) in out.iter_mut().enumerate() {
                a[kg] = pr[v];
            }
        }
    }
}

/// The checkpoint arrays (the conserved variables on the output grid) of the state `q` of `p`.
pub fn saved_arrays(p: &Problem, q: &[f64]) -> Vec<Vec<f64>> {
    let (m, g) = (&p.mesh, &p.grid);
    (0..p.nv())
        .map(|v| {
            let mut a = vec![0.0; g.len()];
            for (jj, j) in m.rows().enumerate() {
                for (ii, i) in m.cols().enumerate() {
                    a[g.idx(ii + 1, jj + 1)] = q[v * m.ns + m.idx(i, j)];
                }
            }
            a
        })
        .collect()
}

/// The conserved state of `p` (stored layout, ghosts unset) of checkpoint `arrays`.
pub fn state_of_saved(p: &Problem, arrays: &[Vec<f64>]) -> Vec<f64> {
    let (m, g) = (&p.mesh, &p.grid);
    let mut q = vec![0.0; p.nv() * m.ns];
    for (v, a) in arrays.iter().enumerate().take(p.nv()) {
        for (jj, j) in m.rows().enumerate() {
            for (ii, i) in m.cols().enumerate() {
                q[v * m.ns + m.idx(i, j)] = a[g.idx(ii + 1, jj + 1)];
            }
        }
    }
    q
}

impl Solver for Explicit {
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
        let q = self.conserved(level == Level::Previous)?;
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
        let q = self.conserved(false)?;
        let arrays = saved_arrays(&self.p, &q);
        let (step, time) = self.clock();
        Ok(Saved { step, time, arrays })
    }

    fn restore(&mut self, saved: Saved) -> Result<(), RunError> {
        let mut q = state_of_saved(&self.p, &saved.arrays);
        match &mut self.engine {
            Engine::Reference(r) => {
                super::reference::fill_ghosts(&self.p, &mut q);
                r.q = [q.clone(), q];
                r.step = saved.step;
                r.time = saved.time;
                r.rebuild();
            }
            Engine::OpenCl(o) => o.restore(q, saved.step, saved.time)?,
        }
        Ok(())
    }

    fn info(&self) -> SolverInfo {
        match &self.engine {
            Engine::OpenCl(o) => {
                let b = o.runtime().program();
                SolverInfo::opencl(b, "explicit-stage", None)
            }
            Engine::Reference(_) => SolverInfo::default(),
        }
    }

    fn details(&self) -> Vec<(String, String)> {
        vec![
            ("numerics".into(), self.p.num.label()),
            ("time step".into(), self.p.rule_text()),
            ("next dt".into(), format!("{:?}", self.next_dt())),
        ]
    }

    fn profiling(&mut self) -> Option<&mut dyn crate::device::Profiling> {
        match &mut self.engine {
            Engine::OpenCl(o) => Some(o.runtime_mut() as &mut dyn crate::device::Profiling),
            Engine::Reference(_) => None,
        }
    }

    fn finished(&self) -> bool {
        self.reached_end()
    }
}
