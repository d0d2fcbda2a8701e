//! Brandvik–Pullan behind the solver seam, on the serial reference, its loops on rayon's
//! threads (`parallel`) or an OpenCL device ([`super::opencl`]), all bit-identical: the output has one value per node (ρ, u, v, p, Mach) with the node positions as 2D auxiliary coordinates; the
//! residual is max |Δρ|/ρ0 of the step; the run ends at the case's step count or once the
//! residual is below its tolerance; checkpoints hold the node state, SCREE's previous cell
//! changes and the relaxed inlet density.

use super::case::Case;
use super::opencl::BpOpenCl;
use super::step::Bp;
use super::tables::BoundaryForm;
use crate::error::{DeviceError, RunError};
use crate::grid::Grid;
use crate::methods::{BackendChoice, BackendKind};
use crate::solver::{
    Layout, Level, Place, ResidualSpec, Saved, Snapshot, Solver, SolverInfo, StepReport, Variable,
};

/// Where a `bp_euler` run steps. The reference keeps the grid, tables and initial state that
/// the OpenCL backend uploads (and the output reads), so both hold a [`Bp`]; with OpenCL its
/// state is only the initial one.
enum Engine {
    /// The serial reference, with the state before its last step.
    Reference { prev_w: Vec<[f64; 4]> },
    /// An OpenCL device.
    OpenCl(Box<BpOpenCl>),
}

/// A `bp_euler` run.
pub struct BpSolver {
    b: Bp,
    engine: Engine,
    layout: Layout,
    tolerance: f64,
    res: f64,
    out: Vec<Vec<f64>>,
}

impl BpSolver {
    /// Build `c` on the backend `choice` asks for.
    pub fn new(c: &Case, choice: &BackendChoice) -> Result<BpSolver, DeviceError> {
        let mut b = Bp::start(c.node_grid(), c.flow(), c.numerics(), c.start);
        b.parallel = choice.kind == BackendKind::Parallel;
        b.form = c.scheme.boundaries;
        if b.form == BoundaryForm::Ghost && b.g.periodic.iter().any(|&p| p) {
            return Err(DeviceError::Unsupported(
                "bp_euler: the ghost boundary form serves ducts only (walls at j = 0 and nj - 1), not periodic grids; use \"tables\" or \"ranges\"".into(),
            ));
        }
        let engine = match choice.kind {
            BackendKind::OpenCl => Engine::OpenCl(Box::new(BpOpenCl::new(
                &b.g,
                &b.t,
                (&b.edges, c.scheme.boundaries),
                b.flow,
                b.num,
                &b.w,
                b.rho_inlet(),
                choice,
            )?)),
            BackendKind::Reference | BackendKind::Parallel => Engine::Reference {
                prev_w: b.w.clone(),
            },
        };
        let common = c.common();
        let grid = Grid::new(&common.grid, false, false);
        let v = |name, long_name| Variable {
            name,
            long_name,
            place: Place::Cell,
            guarded: true,
        };
        let (ni, nj) = (b.g.ni, b.g.nj);
        let layout = Layout {
            method: crate::case::Method::BpEuler,
            grid,
            variables: vec![
                v("rho", "density, kg/m3"),
                v("u", "velocity x-component, m/s"),
                v("v", "velocity y-component, m/s"),
                v("p", "pressure, Pa"),
                v("mach", "Mach number"),
            ],
            residuals: vec![ResidualSpec {
                name: "res_rho",
                short: "drho",
                variable: 0,
                long_name: "max |rho^(n+1) - rho^n| / rho0 of the step",
            }],
            mask: vec![1; ni * nj],
            work_cells: (ni * nj) as u64,
            units: "SI: m, s, kg/m3, Pa; x_c, y_c are node indices scaled to the bounding box, \
                    the node positions are the auxiliary coordinates x, y",
            time_unit: "pseudo-time steps (local time stepping: no physical time)",
            side: Vec::new(),
            saved: ["rho", "rho_u", "rho_v", "rho_E"]
                .iter()
                .flat_map(|s| [s.to_string(), format!("{s}_scree_previous")])
                .chain(["rho_inlet".to_string()])
                .collect(),
            aux: Some([b.g.x.clone(), b.g.y.clone()]),
        };
        Ok(BpSolver {
            engine,
            b,
            layout,
            tolerance: c.time.tolerance,
            res: f64::INFINITY,
            out: Vec::new(),
        })
    }

    /// The scheme of the reference (with OpenCL: its grid, tables and initial state).
    pub fn bp(&self) -> &Bp {
        &self.b
    }

    /// The node state, (ρ, ρu, ρv, ρE) per node (read back from a device).
    pub fn state(&self) -> Result<Vec<[f64; 4]>, RunError> {
        Ok(match &self.engine {
            Engine::Reference { .. } => self.b.w.clone(),
            Engine::OpenCl(o) => o.state(false)?,
        })
    }

    fn fill(&mut self, w: &[[f64; 4]]) {
        let g = &self.layout.grid;
        let (ni, nj) = (self.b.g.ni, self.b.g.nj);
        self.out = vec![vec![0.0; g.len()]; 5];
        for j in 0..nj {
            for i in 0..ni {
                let k = i + j * ni;
                let s = self.b.secondary(&w[k]);
                let a = (self.b.flow.gamma * s[2] / w[k][0]).sqrt();
                let vals = [w[k][0], s[0], s[1], s[2], s[0].hypot(s[1]) / a];
                for (o, v) in self.out.iter_mut().zip(vals) {
                    o[g.idx(i + 1, j + 1)] = v;
                }
            }
        }
    }
}

impl Solver for BpSolver {
    fn name(&self) -> String {
        match &self.engine {
            Engine::Reference { .. } if self.b.parallel => {
                format!("parallel:{}", rayon::current_num_threads())
            }
            Engine::Reference { .. } => "reference".into(),
            Engine::OpenCl(o) => format!("opencl:{}", o.device().name),
        }
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn step(&mut self) -> Result<StepReport, RunError> {
        let r = match &mut self.engine {
            Engine::OpenCl(o) => o.step()?,
            Engine::Reference { prev_w } => {
                prev_w.clone_from(&self.b.w);
                let r = self.b.step();
                let bad = self.b.w.iter().position(|w| {
                    let p = self.b.secondary(w)[2];
                    !super::formulas::bp_admissible(w[0], p)
                });
                if let Some(k) = bad {
                    let ni = self.b.g.ni;
                    self.b.w.clone_from(prev_w);
                    return Err(RunError::Diverged {
                        step: self.b.step,
                        iter: 1,
                        field: "rho or p",
                        i: (k % ni) as i64 + 1,
                        j: (k / ni) as i64 + 1,
                        value: f64::NAN,
                    });
                }
                r
            }
        };
        self.res = r;
        let mut res = crate::solver::Residuals::default();
        res.0[0] = r;
        Ok(StepReport {
            iters: 1,
            res,
            converged: true,
            steady: None,
        })
    }

    fn clock(&self) -> (u64, f64) {
        let step = match &self.engine {
            Engine::Reference { .. } => self.b.step,
            Engine::OpenCl(o) => o.steps(),
        };
        (step, step as f64)
    }

    fn snapshot(&mut self, level: Level) -> Result<Snapshot<'_>, RunError> {
        let previous = level == Level::Previous;
        let w = match &self.engine {
            Engine::Reference { prev_w } if previous => prev_w.clone(),
            Engine::Reference { .. } => self.b.w.clone(),
            Engine::OpenCl(o) => o.state(previous)?,
        };
        self.fill(&w);
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
        let (w, prev, rho_in) = match &self.engine {
            Engine::Reference { .. } => (
                self.b.w.clone(),
                self.b.prev.clone(),
                self.b.rho_inlet().to_vec(),
            ),
            Engine::OpenCl(o) => (o.state(false)?, o.scree_previous()?, o.rho_inlet().to_vec()),
        };
        let g = &self.layout.grid;
        let (ni, nj, nc) = (self.b.g.ni, self.b.g.nj, self.b.g.nci());
        let mut arrays = Vec::new();
        for v in 0..4 {
            let mut a = vec![0.0; g.len()];
            let mut p = vec![0.0; g.len()];
            for j in 0..nj {
                for i in 0..ni {
                    a[g.idx(i + 1, j + 1)] = w[i + j * ni][v];
                    if i < nc && j + 1 < nj {
                        p[g.idx(i + 1, j + 1)] = prev[i + j * nc][v];
                    }
                }
            }
            arrays.push(a);
            arrays.push(p);
        }
        let mut r = vec![0.0; g.len()];
        for (j, x) in rho_in.iter().enumerate() {
            r[g.idx(1, j + 1)] = *x;
        }
        arrays.push(r);
        let (step, time) = self.clock();
        Ok(Saved { step, time, arrays })
    }

    fn restore(&mut self, saved: Saved) -> Result<(), RunError> {
        let g = self.layout.grid.clone();
        let (ni, nj, nc) = (self.b.g.ni, self.b.g.nj, self.b.g.nci());
        for v in 0..4 {
            for j in 0..nj {
                for i in 0..ni {
                    self.b.w[i + j * ni][v] = saved.arrays[2 * v][g.idx(i + 1, j + 1)];
                    if i < nc && j + 1 < nj {
                        self.b.prev[i + j * nc][v] = saved.arrays[2 * v + 1][g.idx(i + 1, j + 1)];
                    }
                }
            }
        }
        let rin: Vec<f64> = (0..nj).map(|j| saved.arrays[8][g.idx(1, j + 1)]).collect();
        self.b.set_rho_inlet(&rin);
        self.b.step = saved.step;
        match &mut self.engine {
            Engine::Reference { prev_w } => prev_w.clone_from(&self.b.w),
            Engine::OpenCl(o) => o.restore(&self.b.w, &self.b.prev, &rin, saved.step)?,
        }
        Ok(())
    }

    fn info(&self) -> SolverInfo {
        match &self.engine {
            Engine::OpenCl(o) => SolverInfo::opencl(o.runtime().program(), "bp-step", None),
            Engine::Reference { .. } => SolverInfo::default(),
        }
    }

    fn profiling(&mut self) -> Option<&mut dyn crate::device::Profiling> {
        match &mut self.engine {
            Engine::OpenCl(o) => Some(o.runtime_mut() as &mut dyn crate::device::Profiling),
            Engine::Reference { .. } => None,
        }
    }

    fn details(&self) -> Vec<(String, String)> {
        vec![
            (
                "scheme".into(),
                match self.b.form {
                    BoundaryForm::Tables => "SCREE, local time steps, branch-free tables".into(),
                    BoundaryForm::Ranges => {
                        "SCREE, local time steps, interior arithmetic and boundary ranges".into()
                    }
                    BoundaryForm::Ghost => {
                        "SCREE, local time steps, ghost nodes and interior stencils".into()
                    }
                },
            ),
            match self.b.form {
                BoundaryForm::Tables => (
                    "tables".into(),
                    format!("{:.0} B per node", self.b.t.bytes_per_node()),
                ),
                BoundaryForm::Ghost => {
                    let (ni, nj) = (self.b.g.ni, self.b.g.nj);
                    (
                        "ghost layer".into(),
                        format!("{} x {} padded nodes", ni + 2, nj + 2),
                    )
                }
                BoundaryForm::Ranges => (
                    "boundary rows".into(),
                    format!(
                        "{:.2} B per node",
                        self.b.edges.bytes_per_node(self.b.g.ni * self.b.g.nj)
                    ),
                ),
            },
        ]
    }

    fn finished(&self) -> bool {
        self.res < self.tolerance
    }
}
