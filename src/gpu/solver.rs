//! The OpenCL backend, first form: loop 2 as a sequence of Jacobi phase kernels
//! (`cl/kernels/jacobi.cl`), each the twin of a step of `reference/iterate.rs` in the GPU order
//! (one T/p evaluation per loop-2 iteration). All fields stay on the device; only the residual
//! maxima of each work-group cross to the host per iteration, and fields are read back for
//! output (`state`).

use crate::config::{Case, Convection, Interpolation};
use crate::device::{
    build_cached, require_fp64, select_device, Defines, DeviceInfo, KernelCache, Runtime, Source,
};
use crate::error::{DeviceError, RunError};
use crate::fields::{Fields, State};
use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::reference::bc::{CellRule, Ghosts};
use crate::reference::Reference;
use crate::solver::{Residuals, Solver, StepReport};

/// Work-group size of the residual reductions (`DEV_RED_WG` in the kernels).
const RED_WG: usize = 256;
/// Work-groups of each residual reduction.
const RED_GROUPS: usize = 64;

/// Names of the k-iterate and level-n buffers, in [`Fields`] order.
const K: [&str; 6] = ["u", "v", "p", "t", "rho", "gam"];
const N: [&str; 6] = ["u_n", "v_n", "p_n", "t_n", "rho_n", "gam_n"];

/// Options of the OpenCL backend.
#[derive(Debug, Clone, Default)]
pub struct OpenClOptions {
    /// Device selector (index or name substring); `None`: the first fp64 GPU, else CPU.
    pub device: Option<String>,
    /// Kernel binary cache; `None` disables it.
    pub cache: Option<KernelCache>,
    /// Directory for the build log and assembled source.
    pub log_dir: Option<std::path::PathBuf>,
}

/// The OpenCL solver.
pub struct OpenCl {
    case: Case,
    grid: Grid,
    geom: Geometry,
    rt: Runtime,
    host: State,
    dirty: bool,
    explicit: bool,
    n: usize,
}

/// The assembled kernel source of the Jacobi backend.
pub fn source() -> String {
    Source::new()
        .with(crate::device::source::FIELDS)
        .with(crate::device::source::OPS)
        .with(crate::device::source::DENSITY)
        .with(crate::device::source::BC)
        .with(crate::device::source::MOMENTUM)
        .with(crate::device::source::ENERGY)
        .with(crate::device::source::PRESSURE)
        .with(crate::device::source::JACOBI)
        .assemble()
}

/// The `-D` defines of a case (grid, constants, scheme, list lengths).
pub fn defines(r: &Reference, ghosts: &Ghosts) -> Defines {
    let c = &r.c;
    let n_copy = ghosts
        .cells
        .iter()
        .filter(|(_, rule)| matches!(rule, CellRule::Copy(_)))
        .count();
    Defines::new()
        .int("CFG_NXT", r.grid.nxt as i64)
        .int("CFG_NYT", r.grid.nyt as i64)
        .int(
            "CFG_TVD",
            i64::from(r.case.scheme.interpolation == Interpolation::Tvd),
        )
        .int(
            "CFG_EXPLICIT",
            i64::from(r.case.scheme.convection == Convection::Explicit),
        )
        .real("CFG_A", c.a)
        .real("CFG_B", c.b)
        .real("CFG_CT1", c.ct1)
        .real("CFG_CT2", c.ct2)
        .real("CFG_CT3", c.ct3)
        .real("CFG_KN", c.kn)
        .real("CFG_SIGMA_U", c.sigma_u)
        .real("CFG_SIGMA_T", c.sigma_t)
        .real("CFG_DT", r.dt)
        .int("CFG_NU_COPY", ghosts.u_copies.len() as i64)
        .int("CFG_NV_COPY", ghosts.v_copies.len() as i64)
        .int("CFG_NGHOST_COPY", n_copy as i64)
        .int("DEV_RED_WG", RED_WG as i64)
}

fn pairs(v: &[(usize, usize)]) -> Vec<i32> {
    v.iter().flat_map(|&(a, b)| [a as i32, b as i32]).collect()
}

fn fields_of(f: &Fields) -> [&Vec<f64>; 6] {
    [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam]
}

impl OpenCl {
    /// Set up `case` on a device: initial state as the reference's, buffers, kernels.
    pub fn new(case: &Case, opts: &OpenClOptions) -> Result<OpenCl, DeviceError> {
        let dev = select_device(opts.device.as_deref())?;
        require_fp64(&dev)?;
        let r = Reference::new(case);
        let ghosts = r.ghosts.clone();
        let src = source();
        let built = build_cached(
            &dev,
            &src,
            &defines(&r, &ghosts),
            opts.log_dir.as_deref(),
            opts.cache.as_ref(),
        )?;
        let n = r.grid.len();
        let mut rt = Runtime::new(built);
        let k = &r.state.k;
        for (name, f) in K.iter().zip(fields_of(k)) {
            rt.real(name, f)?;
        }
        for (name, f) in N.iter().zip(fields_of(&r.state.n)) {
            rt.real(name, f)?;
        }
        let zeros = vec![0.0; n];
        for name in [
            "rho_u", "rho_v", "fx", "fy", "cu", "cv", "ct", "u_hat", "d_u", "v_hat", "d_v",
            "p_new", "t_new", "res_u", "res_v", "res_p", "res_t",
        ] {
            rt.real(name, &zeros)?;
        }
        for name in ["part_u", "part_v", "part_p", "part_t"] {
            rt.real(name, &vec![0.0; 2 * RED_GROUPS])?;
        }
        let g = &r.grid;
        rt.real("hx", &g.hx)?;
        rt.real("hy", &g.hy)?;
        let geo = &r.geom;
        let walls =
            |f: fn(&crate::geometry::Wall) -> f64| geo.walls.iter().map(f).collect::<Vec<_>>();
        rt.real("wall_u", &walls(|w| w.u))?;
        rt.real("wall_v", &walls(|w| w.v))?;
        rt.real("wall_t", &walls(|w| w.t))?;
        let to_i32 = |v: &[u8]| v.iter().map(|&x| i32::from(x)).collect::<Vec<_>>();
        rt.int("cell", &to_i32(&geo.cell))?;
        rt.int("u_face", &to_i32(&geo.u_face))?;
        rt.int("v_face", &to_i32(&geo.v_face))?;
        rt.int(
            "wall_of",
            &geo.wall_of
                .iter()
                .map(|&x| i32::from(x))
                .collect::<Vec<_>>(),
        )?;
        rt.int(
            "wall_bc",
            &geo.walls.iter().map(|w| w.bc as i32).collect::<Vec<_>>(),
        )?;
        rt.int("u_copy", &pairs(&ghosts.u_copies))?;
        rt.int("v_copy", &pairs(&ghosts.v_copies))?;
        let ghost_copy: Vec<(usize, usize)> = ghosts
            .cells
            .iter()
            .filter_map(|&(dst, rule)| match rule {
                CellRule::Copy(src) => Some((dst, src)),
                CellRule::Fixed { .. } => None,
            })
            .collect();
        rt.int("ghost_copy", &pairs(&ghost_copy))?;
        for kname in [
            "fluxes",
            "convective",
            "pseudo",
            "copy_hat",
            "tp",
            "ghost_pt",
            "correct",
            "eos",
            "ghosts",
            "reduce_u",
            "reduce_v",
            "reduce_p",
            "reduce_t",
        ] {
            rt.bind(kname)?;
        }
        log::info!(
            "OpenCL backend on {} ({}): {} MiB of buffers",
            dev.name,
            dev.platform_name,
            rt.bytes() >> 20
        );
        let s = OpenCl {
            explicit: case.scheme.convection == Convection::Explicit,
            case: case.clone(),
            grid: r.grid.clone(),
            geom: r.geom.clone(),
            host: r.state.clone(),
            rt,
            dirty: false,
            n,
        };
        s.run("fluxes")?;
        Ok(s)
    }

    /// The device this solver runs on.
    pub fn device(&self) -> &DeviceInfo {
        self.rt.program().device()
    }

    fn run(&self, kernel: &str) -> Result<(), DeviceError> {
        self.rt.launch(kernel, self.n, None)
    }

    fn single(&self, kernel: &str) -> Result<(), DeviceError> {
        self.rt.launch(kernel, 1, None)
    }

    /// Largest residual and its stored index, from the per-group partial results.
    fn reduce(&self, kernel: &str, part: &str) -> Result<(f64, usize), DeviceError> {
        self.rt.launch(kernel, RED_WG * RED_GROUPS, Some(RED_WG))?;
        let mut buf = vec![0.0; 2 * RED_GROUPS];
        self.rt.read(part, &mut buf)?;
        let (mut best, mut at) = (0.0f64, 0usize);
        for g in buf.chunks(2) {
            let (d, k) = (g[0], g[1] as usize);
            let take = if d.is_nan() || best.is_nan() {
                d.is_nan() && (!best.is_nan() || k < at)
            } else {
                d > best || (d == best && k < at)
            };
            if take {
                best = d;
                at = k;
            }
        }
        Ok((best, at))
    }

    /// One loop-2 iteration on the device; the residuals with their stored indices.
    pub fn iterate(&mut self) -> Result<[(f64, usize); 4], DeviceError> {
        self.dirty = true;
        self.run("pseudo")?;
        self.single("copy_hat")?;
        self.rt.copy("p", "p_new")?;
        self.rt.copy("t", "t_new")?;
        self.run("tp")?;
        self.single("ghost_pt")?;
        self.run("correct")?;
        self.run("eos")?;
        self.single("ghosts")?;
        self.run("fluxes")?;
        Ok([
            self.reduce("reduce_u", "part_u")?,
            self.reduce("reduce_v", "part_v")?,
            self.reduce("reduce_p", "part_p")?,
            self.reduce("reduce_t", "part_t")?,
        ])
    }

    /// Start a time step: level n := iterate k; explicit convective terms.
    pub fn begin_step(&mut self) -> Result<(), DeviceError> {
        for (k, n) in K.iter().zip(N) {
            self.rt.copy(k, n)?;
        }
        self.host.time += self.case.time.dt;
        if self.explicit {
            self.run("convective")?;
        }
        Ok(())
    }

    fn rollback(&mut self) -> Result<(), DeviceError> {
        for (k, n) in K.iter().zip(N) {
            self.rt.copy(n, k)?;
        }
        self.host.time -= self.case.time.dt;
        self.run("fluxes")
    }

    fn download(&mut self) -> Result<(), DeviceError> {
        let st = &mut self.host;
        let kf = [
            &mut st.k.u,
            &mut st.k.v,
            &mut st.k.p,
            &mut st.k.T,
            &mut st.k.rho,
            &mut st.k.Gam,
        ];
        for (name, f) in K.iter().zip(kf) {
            self.rt.read(name, f)?;
        }
        let nf = [
            &mut st.n.u,
            &mut st.n.v,
            &mut st.n.p,
            &mut st.n.T,
            &mut st.n.rho,
            &mut st.n.Gam,
        ];
        for (name, f) in N.iter().zip(nf) {
            self.rt.read(name, f)?;
        }
        self.dirty = false;
        Ok(())
    }
}

impl Solver for OpenCl {
    fn name(&self) -> String {
        format!("opencl:{}", self.device().name)
    }

    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn geometry(&self) -> &Geometry {
        &self.geom
    }

    fn step(&mut self) -> Result<StepReport, RunError> {
        self.begin_step()?;
        let s = self.case.solver.clone();
        let mut report = StepReport::default();
        for iter in 1..=s.max_iters {
            let [du, dv, dp, dt] = self.iterate()?;
            for (field, (value, at)) in [("u", du), ("v", dv), ("p", dp), ("T", dt)] {
                if !value.is_finite() || value > s.divergence_limit {
                    self.rollback()?;
                    let nx = self.grid.nxt;
                    return Err(RunError::Diverged {
                        step: self.host.step + 1,
                        iter,
                        field,
                        i: (at % nx) as i64 - 1,
                        j: (at / nx) as i64 - 1,
                        value,
                    });
                }
            }
            let res = Residuals {
                du: du.0,
                dv: dv.0,
                dp: dp.0,
                dt: dt.0,
            };
            report.iters = iter;
            report.res = res;
            if res.du <= s.eps_v && res.dv <= s.eps_v && res.dp <= s.eps_p && res.dt <= s.eps_t {
                report.converged = true;
                break;
            }
        }
        self.host.step += 1;
        Ok(report)
    }

    fn state(&mut self) -> &State {
        if self.dirty {
            if let Err(e) = self.download() {
                log::error!("reading fields back from the device failed: {e}");
            }
        }
        &self.host
    }

    fn restore(&mut self, state: State) -> Result<(), RunError> {
        for (name, f) in K.iter().zip(fields_of(&state.k)) {
            self.rt.write(name, f)?;
        }
        for (name, f) in N.iter().zip(fields_of(&state.n)) {
            self.rt.write(name, f)?;
        }
        self.host = state;
        self.run("fluxes")?;
        self.dirty = false;
        Ok(())
    }
}
