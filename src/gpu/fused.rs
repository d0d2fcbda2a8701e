//! The OpenCL backend in the paper's form (spec §5.1–5.5): loop 2 is ONE kernel
//! (`cl/kernels/iterate_fused.cl`) whose work-groups march their subdomains along y, staging
//! temporaries in local memory; the explicit scheme adds the convective kernel once per step.
//! Two Jacobi buffer sets alternate as read and write sets; after each launch the copy ghosts
//! and copy faces of the written set are filled (`cl/kernels/boundary.cl`), and only the
//! per-work-group residual maxima cross to the host.

use super::decomposition::{Decomposition, HALO};
use super::solver::{defines, fields_of, upload_geometry, CopyLists, OpenClOptions, K, N};
use crate::config::{Case, Convection, Side};
use crate::device::{
    build_cached, check_capacity, require_fp64, select_device, DeviceInfo, Runtime, Source,
};
use crate::error::{DeviceError, RunError};
use crate::fields::State;
use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::reference::Reference;
use crate::solver::{Solver, StepReport};

/// Buffer names of the second Jacobi set, in [`K`] order.
const K2: [&str; 6] = ["u2", "v2", "p2", "t2", "rho2", "gam2"];
/// The kernel's write-set parameter names, in [`K`] order.
const W: [&str; 6] = ["u_w", "v_w", "p_w", "t_w", "rho_w", "gam_w"];
/// Boundary-copy kernels of `boundary.cl`.
const BOUNDARY: [&str; 6] = [
    "ghosts0", "ghosts1", "faces_u0", "faces_u1", "faces_v0", "faces_v1",
];

/// f64 buffers per stored cell of the fused form: two Jacobi sets of u, v, p, T, ρ, Γ (12), level
/// n (6), and C_u, C_v, C_T for the explicit scheme only (3). No ρu, ρv, Fx, Fy, û, d or
/// residual arrays: the kernel keeps them in local memory and registers.
pub fn f64_per_cell(explicit: bool) -> u64 {
    if explicit {
        21
    } else {
        18
    }
}

/// Device memory of the fused form for `cells` stored cells: (total, largest buffer) in bytes
/// (buffers not per cell left out, as [`super::solver::device_bytes`]).
pub fn device_bytes(cells: u64, explicit: bool) -> (u64, u64) {
    (
        cells * (8 * f64_per_cell(explicit) + 4 * super::solver::I32_PER_CELL),
        8 * cells,
    )
}

/// The assembled source of the fused form.
pub fn source() -> String {
    use crate::device::source as s;
    Source::new()
        .with(s::FIELDS)
        .with(s::OPS)
        .with(s::DENSITY)
        .with(s::BC)
        .with(s::MOMENTUM)
        .with(s::ENERGY)
        .with(s::PRESSURE)
        .with(s::FLUX_INLINE)
        .with(s::CONVECTIVE)
        .with(s::BOUNDARY)
        .with(s::ITERATE)
        .assemble()
}

/// The `-D` defines of the fused form for `case` on `dev` with decomposition `dec` (the
/// phase form's defines plus the work-group width). The rows per subdomain are not a define:
/// the kernel derives them from the launch (`get_num_groups(1)`), so one build serves every
/// value.
pub fn fused_defines(r: &Reference, dec: &Decomposition) -> crate::device::Defines {
    defines(r, &r.ghosts)
        .int("DEV_W", dec.width as i64)
        .int("DEV_COLS", dec.cols as i64)
        .int("DEV_HALO", HALO as i64)
}

/// Compile (and store in the kernel cache) the OpenCL forms `(phase, fused)` asked for, for
/// `case` on `dev`, without allocating any field buffer: `simplets build-kernels`. Returns the
/// seconds each build took (0 for a cache hit), `None` for a form not asked for (or, fused,
/// not applicable).
pub fn build_ahead(
    case: &Case,
    dev: &DeviceInfo,
    cache: &crate::device::KernelCache,
    forms: (bool, bool),
) -> Result<(Option<f64>, Option<f64>), DeviceError> {
    let r = Reference::new(case);
    let secs = |b: &crate::device::BuiltProgram| {
        if b.cache_hit() {
            0.0
        } else {
            b.build_seconds()
        }
    };
    let phase = if forms.0 {
        let b = build_cached(
            dev,
            &super::solver::source(),
            &defines(&r, &r.ghosts),
            None,
            Some(cache),
        )?;
        Some(secs(&b))
    } else {
        None
    };
    let fused = if forms.1 && supports(case) {
        let dec = Decomposition::for_device(&r.grid, dev)?;
        let b = build_cached(dev, &source(), &fused_defines(&r, &dec), None, Some(cache))?;
        Some(secs(&b))
    } else {
        None
    };
    Ok((phase, fused))
}

/// True if the fused kernel supports the case (no periodic sides yet).
pub fn supports(case: &Case) -> bool {
    let b = &case.boundaries;
    ![&b.west, &b.east, &b.south, &b.north]
        .iter()
        .any(|s| matches!(s, Side::Periodic))
}

/// The fused OpenCL solver.
pub struct Fused {
    case: Case,
    grid: Grid,
    geom: Geometry,
    rt: Runtime,
    dec: Decomposition,
    host: State,
    dirty: bool,
    explicit: bool,
    n: usize,
    /// Which set holds iterate k: false = A (`u`, …), true = B (`u2`, …).
    in_b: bool,
    counts: [usize; 6],
}

impl Fused {
    /// Set up `case` with the decomposition `dec` (`None`: the device default).
    pub fn new(
        case: &Case,
        opts: &OpenClOptions,
        dec: Option<(usize, usize)>,
    ) -> Result<Fused, DeviceError> {
        let dev = select_device(opts.device.as_deref())?;
        require_fp64(&dev)?;
        let cells = ((case.grid.nx + 2) * (case.grid.ny + 2)) as u64;
        let explicit = case.scheme.convection == Convection::Explicit;
        let (total, largest) = device_bytes(cells, explicit);
        check_capacity(&dev, total, largest, 0, 1)?;
        let r = Reference::new(case);
        let dec = match dec {
            Some((w, rows)) => {
                let d = Decomposition::new(&r.grid, w, rows).map_err(|m| {
                    DeviceError::WorkGroupTooLarge {
                        device: format!("{} ({m})", dev.name),
                        needed: w,
                        max: dev.max_work_group_size,
                    }
                })?;
                d.check(&dev)?;
                d
            }
            None => Decomposition::for_device(&r.grid, &dev)?,
        };
        if !dec.width.is_power_of_two() {
            return Err(DeviceError::WorkGroupTooLarge {
                device: format!("{} (work-group width must be a power of two)", dev.name),
                needed: dec.width,
                max: dev.max_work_group_size,
            });
        }
        let ghosts = r.ghosts.clone();
        let defs = fused_defines(&r, &dec);
        let built = build_cached(
            &dev,
            &source(),
            &defs,
            opts.log_dir.as_deref(),
            opts.cache.as_ref(),
        )?;
        let n = r.grid.len();
        let mut rt = Runtime::new(built);
        for set in [&K, &K2] {
            for (name, f) in set.iter().zip(fields_of(&r.state.k)) {
                rt.real(name, f)?;
            }
        }
        for (name, f) in N.iter().zip(fields_of(&r.state.n)) {
            rt.real(name, f)?;
        }
        let zeros = vec![0.0; n];
        // The implicit kernels never read the explicit terms: one value each.
        for name in ["cu", "cv", "ct"] {
            rt.real(name, if explicit { &zeros } else { &[] })?;
        }
        rt.real("part", &vec![0.0; 8 * dec.groups()])?;
        let l = CopyLists::new(&ghosts);
        upload_geometry(&mut rt, &r, &l)?;
        // Kernel instances for both directions of the ping-pong.
        let ab: Vec<(&str, &str)> = W.iter().zip(K2).map(|(w, b)| (*w, b)).collect();
        let mut ba: Vec<(&str, &str)> = K.iter().zip(K2).map(|(k, b)| (*k, b)).collect();
        ba.extend(W.iter().zip(K).map(|(w, a)| (*w, a)));
        rt.bind_as("loop2_ab", "loop2", &ab)?;
        rt.bind_as("loop2_ba", "loop2", &ba)?;
        let to_b: Vec<(&str, &str)> = K.iter().zip(K2).map(|(k, b)| (*k, b)).collect();
        rt.bind_as("convective_a", "convective", &[])?;
        rt.bind_as("convective_b", "convective", &to_b)?;
        for k in BOUNDARY {
            rt.bind_as(&format!("{k}_a"), k, &[])?;
            rt.bind_as(&format!("{k}_b"), k, &to_b)?;
        }
        let counts = [
            l.cells.0.len(),
            l.cells.1.len(),
            l.u.0.len(),
            l.u.1.len(),
            l.v.0.len(),
            l.v.1.len(),
        ];
        log::info!(
            "OpenCL fused loop-2 kernel on {}: {} work-groups of {} ({} columns × {} rows), \
             {} KiB local memory each, {} MiB of buffers",
            dev.name,
            dec.groups(),
            dec.width,
            dec.cols,
            dec.rows,
            dec.local_bytes() / 1024,
            rt.bytes() >> 20
        );
        Ok(Fused {
            explicit,
            case: case.clone(),
            grid: r.grid.clone(),
            geom: r.geom.clone(),
            host: r.state.clone(),
            rt,
            dec,
            dirty: false,
            n,
            in_b: false,
            counts,
        })
    }

    /// The device this solver runs on.
    pub fn device(&self) -> &DeviceInfo {
        self.rt.program().device()
    }

    /// The work-group decomposition in use.
    pub fn decomposition(&self) -> &Decomposition {
        &self.dec
    }

    fn cur(&self) -> [&'static str; 6] {
        if self.in_b {
            K2
        } else {
            K
        }
    }

    /// One loop-2 iteration; the residuals with their stored indices.
    pub fn iterate(&mut self) -> Result<[(f64, usize); 4], DeviceError> {
        self.dirty = true;
        let (global, local) = self.dec.ndrange();
        self.rt.launch2(
            if self.in_b { "loop2_ba" } else { "loop2_ab" },
            global,
            local,
        )?;
        self.in_b = !self.in_b;
        let suffix = if self.in_b { "_b" } else { "_a" };
        for (k, &count) in BOUNDARY.iter().zip(&self.counts) {
            if count > 0 {
                self.rt.launch(&format!("{k}{suffix}"), count, None)?;
            }
        }
        let mut part = vec![0.0; 8 * self.dec.groups()];
        self.rt.read("part", &mut part)?;
        let mut res = [(0.0f64, 0usize); 4];
        for g in part.chunks(8) {
            for (m, r) in res.iter_mut().enumerate() {
                super::loop2::merge(r, (g[2 * m], g[2 * m + 1] as usize));
            }
        }
        Ok(res)
    }

    /// Start a time step: level n := iterate k; explicit convective terms.
    pub fn begin_step(&mut self) -> Result<(), DeviceError> {
        for (k, n) in self.cur().iter().zip(N) {
            self.rt.copy(k, n)?;
        }
        self.host.time += self.case.time.dt;
        if self.explicit {
            let name = if self.in_b {
                "convective_b"
            } else {
                "convective_a"
            };
            self.rt.launch(name, self.n, None)?;
        }
        Ok(())
    }

    fn rollback(&mut self) -> Result<(), DeviceError> {
        for (k, n) in self.cur().iter().zip(N) {
            self.rt.copy(n, k)?;
        }
        self.host.time -= self.case.time.dt;
        Ok(())
    }

    fn download(&mut self) -> Result<(), DeviceError> {
        super::loop2::read_fields(&self.rt, &self.cur(), &mut self.host.k)?;
        super::loop2::read_fields(&self.rt, &N, &mut self.host.n)?;
        self.dirty = false;
        Ok(())
    }
}

impl super::loop2::DeviceLoop for Fused {
    fn begin_step(&mut self) -> Result<(), DeviceError> {
        Fused::begin_step(self)
    }
    fn iterate(&mut self) -> Result<[super::loop2::MaxAt; 4], DeviceError> {
        Fused::iterate(self)
    }
    fn rollback(&mut self) -> Result<(), DeviceError> {
        Fused::rollback(self)
    }
    fn nxt(&self) -> usize {
        self.grid.nxt
    }
    fn steps_mut(&mut self) -> &mut u64 {
        &mut self.host.step
    }
}

impl Solver for Fused {
    fn name(&self) -> String {
        format!("opencl-fused:{}", self.device().name)
    }

    fn grid(&self) -> &Grid {
        &self.grid
    }

    fn geometry(&self) -> &Geometry {
        &self.geom
    }

    fn step(&mut self) -> Result<StepReport, RunError> {
        let spec = self.case.solver.clone();
        super::loop2::step(self, &spec)
    }

    fn clock(&self) -> (u64, f64) {
        (self.host.step, self.host.time)
    }

    fn iterate_rows(&mut self, rows: &[std::ops::Range<usize>]) -> &State {
        if self.dirty {
            let names = self.cur();
            let nxt = self.grid.nxt;
            if let Err(e) = super::loop2::read_rows(&self.rt, &names, &mut self.host.k, rows, nxt) {
                log::error!("reading rows back from the device failed: {e}");
            }
        }
        &self.host
    }

    fn info(&self) -> crate::solver::SolverInfo {
        super::loop2::info(self.rt.program(), "fused", Some(&self.dec))
    }

    fn state(&mut self) -> &State {
        if self.dirty {
            if let Err(e) = self.download() {
                log::error!("reading fields back from the device failed: {e}");
            }
        }
        &self.host
    }

    fn details(&self) -> Vec<(String, String)> {
        let d = &self.dec;
        vec![(
            "decomposition".into(),
            format!(
                "W = {} ({} columns + 2 × {HALO} halo), {} rows per subdomain, {} × {} = {} \
                 work-groups",
                d.width,
                d.cols,
                d.rows,
                d.groups_x,
                d.groups_y,
                d.groups()
            ),
        )]
    }

    fn runtime(&self) -> Option<&Runtime> {
        Some(&self.rt)
    }

    fn runtime_mut(&mut self) -> Option<&mut Runtime> {
        Some(&mut self.rt)
    }

    fn restore(&mut self, state: State) -> Result<(), RunError> {
        for set in [&K, &K2] {
            super::loop2::write_fields(&mut self.rt, set, &state.k)?;
        }
        super::loop2::write_fields(&mut self.rt, &N, &state.n)?;
        self.in_b = false;
        self.host = state;
        self.dirty = false;
        Ok(())
    }
}
