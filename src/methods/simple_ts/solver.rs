//! SIMPLE-TS behind the solver seam: [`SimpleTs`] turns any [`Backend`] into a [`Solver`] for
//! the run driver (its output variables, residuals, forces and probes, checkpoint arrays), and
//! [`build_backend`] builds the backend a user chose.

use std::sync::Arc;

use super::backend::Backend;
use super::case::Case;
use super::fields::{Fields, State};
use super::geometry::Geometry;
use super::problem::Problem;
use super::side::{self, SideOutputs};
use crate::error::RunError;
use crate::grid::Grid;
use crate::solver::{
    Layout, Level, Place, ResidualSpec, Saved, Snapshot, Solver, SolverInfo, StepReport, Variable,
};

/// The output variables of SIMPLE-TS, in snapshot order: p, T, ρ on the cells, u on the
/// x-faces, v on the y-faces (the stored staggered values).
pub fn variables() -> Vec<Variable> {
    let v = |name, long_name, place, guarded| Variable {
        name,
        long_name,
        place,
        guarded,
    };
    vec![
        v(
            "p",
            "pressure / p0 (inflow or reference pressure)",
            Place::Cell,
            true,
        ),
        v(
            "T",
            "temperature / T0 (reference temperature)",
            Place::Cell,
            true,
        ),
        v("rho", "density / rho0 = p0 / (R T0)", Place::Cell, false),
        v(
            "u",
            "velocity x-component on x-faces (west face of cell i) / V_th = sqrt(2 R T0)",
            Place::XFace,
            true,
        ),
        v(
            "v",
            "velocity y-component on y-faces (south face of cell j) / V_th = sqrt(2 R T0)",
            Place::YFace,
            true,
        ),
    ]
}

/// The residuals of a SIMPLE-TS step, in [`StepReport`] order.
pub fn residuals() -> Vec<ResidualSpec> {
    let r = |name, short, variable, long_name| ResidualSpec {
        name,
        short,
        variable,
        long_name,
    };
    vec![
        r(
            "res_u",
            "du",
            3,
            "max |u^(k+1) - u^k| of the last loop-2 iteration of this time step",
        ),
        r(
            "res_v",
            "dv",
            4,
            "max |v^(k+1) - v^k| of the last loop-2 iteration of this time step",
        ),
        r(
            "res_p",
            "dp",
            0,
            "max |p^(k+1) - p^k| of the last loop-2 iteration of this time step",
        ),
        r(
            "res_T",
            "dT",
            1,
            "max |T^(k+1) - T^k| of the last loop-2 iteration of this time step",
        ),
    ]
}

/// The names of the checkpoint arrays: level n, then iterate k, each u, v, p, T, ρ, Γ.
pub fn saved_names() -> Vec<String> {
    let f = ["u", "v", "p", "T", "rho", "Gam"];
    ["n", "k"]
        .iter()
        .flat_map(|l| f.iter().map(move |x| format!("{l}.{x}")))
        .collect()
}

/// The units of SIMPLE-TS output in words (NetCDF global `comment`).
pub const UNITS: &str = "non-dimensional: lengths / L, velocities / V_th = sqrt(2 R T0), time / \
                         (L / V_th), p / p0, T / T0, rho / rho0; u and v are staggered (on x_f \
                         and y_f)";

/// The [`Layout`] of `case` on `grid` with `geo`.
pub fn layout(case: &Case, grid: &Grid, geo: &Geometry) -> Layout {
    Layout {
        method: crate::case::Method::SimpleTs,
        grid: grid.clone(),
        variables: variables(),
        residuals: residuals(),
        mask: geo.fluid_mask(grid).into_iter().map(|m| m as i8).collect(),
        work_cells: geo.n_fluid as u64,
        units: UNITS,
        time_unit: "time / (L / V_th), V_th = sqrt(2 R T0)",
        side: side::specs(case),
        saved: saved_names(),
        aux: None,
    }
}

fn fields(f: &Fields) -> [&[f64]; 6] {
    [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam]
}

/// A SIMPLE-TS backend as a [`Solver`].
pub struct SimpleTs<'a> {
    backend: Box<dyn Backend + 'a>,
    problem: Arc<Problem>,
    layout: Layout,
    side: SideOutputs,
}

impl<'a> SimpleTs<'a> {
    /// Wrap `backend`.
    pub fn new(backend: Box<dyn Backend + 'a>) -> SimpleTs<'a> {
        let problem = Arc::clone(backend.problem());
        let (case, grid, geo) = (&problem.case, &problem.grid, &problem.geo);
        SimpleTs {
            layout: layout(case, grid, geo),
            side: SideOutputs::new(case, grid, geo),
            problem,
            backend,
        }
    }

    /// The backend.
    pub fn backend(&mut self) -> &mut (dyn Backend + 'a) {
        self.backend.as_mut()
    }
}

impl Solver for SimpleTs<'_> {
    fn name(&self) -> String {
        self.backend.name()
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn step(&mut self) -> Result<StepReport, RunError> {
        self.backend.step()
    }

    fn clock(&self) -> (u64, f64) {
        self.backend.clock()
    }

    fn snapshot(&mut self, level: Level) -> Result<Snapshot<'_>, RunError> {
        let (step, time) = self.backend.clock();
        let all = 0..self.layout.grid.nyt;
        let st = match level {
            Level::Current => self.backend.iterate_rows(std::slice::from_ref(&all))?,
            Level::Previous => self.backend.state()?,
        };
        let f = match level {
            Level::Current => &st.k,
            Level::Previous => &st.n,
        };
        Ok(Snapshot {
            step,
            time,
            arrays: vec![&f.p, &f.T, &f.rho, &f.u, &f.v],
        })
    }

    fn side_lines(&mut self, due: &[bool]) -> Result<Vec<Vec<String>>, RunError> {
        if !due.iter().any(|&d| d) {
            return Ok(vec![vec![]; due.len()]);
        }
        let rows = self.side.rows(due);
        let st = self.backend.iterate_rows(&rows)?;
        let (grid, geo) = (&self.problem.grid, &self.problem.geo);
        Ok(self.side.lines(grid, geo, st, due))
    }

    fn save(&mut self) -> Result<Saved, RunError> {
        let st = self.backend.state()?;
        Ok(Saved {
            step: st.step,
            time: st.time,
            arrays: fields(&st.n)
                .into_iter()
                .chain(fields(&st.k))
                .map(<[f64]>::to_vec)
                .collect(),
        })
    }

    fn restore(&mut self, saved: Saved) -> Result<(), RunError> {
        let mut a = saved.arrays.into_iter();
        let mut level = || Fields {
            u: a.next().unwrap_or_default(),
            v: a.next().unwrap_or_default(),
            p: a.next().unwrap_or_default(),
            T: a.next().unwrap_or_default(),
            rho: a.next().unwrap_or_default(),
            Gam: a.next().unwrap_or_default(),
        };
        let n = level();
        let k = level();
        self.backend.restore(State {
            n,
            k,
            step: saved.step,
            time: saved.time,
        })
    }

    fn info(&self) -> SolverInfo {
        self.backend.info()
    }

    fn details(&self) -> Vec<(String, String)> {
        self.backend.details()
    }

    fn profiling(&mut self) -> Option<&mut dyn crate::device::Profiling> {
        self.backend
            .runtime_mut()
            .map(|rt| rt as &mut dyn crate::device::Profiling)
    }
}

/// Build the SIMPLE-TS backend `choice` asks for on `case`: the reference (serial or
/// row-parallel), or an OpenCL form (the phase kernels; the fused kernel where it applies and
/// is asked for, with a warning where it does not).
pub fn build_backend(
    case: &Case,
    choice: &crate::methods::BackendChoice,
) -> Result<Box<dyn Backend>, crate::error::DeviceError> {
    use super::opencl::{fused, phase};
    use crate::methods::{BackendKind, KernelForm};
    // Before anything is allocated: a run that does not fit would abort in the allocator.
    check_fits(case, choice)?;
    Ok(match choice.kind {
        BackendKind::Reference => Box::new(super::reference::Reference::new(case)),
        BackendKind::Parallel => Box::new(super::reference::Reference::new_parallel(case)),
        BackendKind::OpenCl => {
            let opts = phase::OpenClOptions {
                device: choice.device.clone(),
                cache: choice.cache.clone(),
                log_dir: choice.log_dir.clone(),
                lean: choice.lean,
            };
            let unsupported = fused::unsupported(case);
            match (choice.kernel, unsupported) {
                (KernelForm::Fused, None) => {
                    Box::new(fused::Fused::new(case, &opts, choice.decomposition)?)
                }
                (form, what) => {
                    if let (KernelForm::Fused, Some(what)) = (form, what) {
                        log::warn!(
                            "the fused kernel does not support {what}: using the phase kernels"
                        );
                    }
                    Box::new(phase::OpenCl::new(case, &opts)?)
                }
            }
        }
    })
}

/// The memory a run of `case` on `choice` needs: host bytes, and on OpenCL the device and its
/// per-cell buffers (total, largest buffer). On a CPU device the buffers are host memory too
/// and count in both.
#[allow(clippy::type_complexity)]
fn footprint(
    case: &Case,
    choice: &crate::methods::BackendChoice,
) -> Result<(u64, Option<(crate::device::DeviceInfo, u64, u64)>), crate::error::DeviceError> {
    use super::case::Convection;
    use super::opencl::{fused, phase};
    use crate::methods::{BackendKind, KernelForm};
    let stored = ((case.grid.nx + 2) * (case.grid.ny + 2)) as u64;
    let host = if choice.no_read_back {
        super::numbers::host_bytes_no_read_back(stored, choice.kind)
    } else {
        super::numbers::host_bytes(stored, choice.kind)
    };
    if choice.kind != BackendKind::OpenCl {
        return Ok((host, None));
    }
    let dev = crate::device::select_device(choice.device.as_deref())?;
    let explicit = case.scheme.convection == Convection::Explicit;
    let (total, largest) = match (choice.kernel, fused::unsupported(case)) {
        (KernelForm::Fused, None) => fused::device_bytes(stored, explicit, choice.lean),
        _ => phase::case_device_bytes(case, stored),
    };
    let host = if dev.device_type == "CPU" {
        host.saturating_add(total)
    } else {
        host
    };
    Ok((host, Some((dev, total, largest))))
}

/// Whether a run of `case` on `choice` fits the host's memory and, on OpenCL, the device's
/// (fp64, global memory, largest buffer): the checks the backends make before they allocate,
/// for `simplets check`, without building anything.
pub fn check_fits(
    case: &Case,
    choice: &crate::methods::BackendChoice,
) -> Result<(), crate::error::DeviceError> {
    // The device first: on a GPU its memory is the tighter and more telling limit.
    let (host, dev) = footprint(case, choice)?;
    if let Some((dev, total, largest)) = dev {
        crate::device::require_fp64(&dev)?;
        crate::device::check_capacity(&dev, total, largest, 0, 1)?;
    }
    crate::methods::check_host_memory(host, choice.kind)
}
