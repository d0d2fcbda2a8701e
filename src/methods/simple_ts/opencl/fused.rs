//! The OpenCL backend in the paper's form (spec §5.1–5.5): loop 2 is ONE kernel
//! (`cl/simple_ts/kernels/iterate_fused.cl`) whose work-groups march their subdomains along y, staging
//! temporaries in local memory; the explicit scheme adds the convective kernel once per step.
//! Two Jacobi buffer sets alternate as read and write sets. Copy ghosts and copy faces are
//! never filled on the device: the kernels read their sources instead ([`super::paths`]), so
//! a loop-2 iteration is exactly one launch (two with mass-balance outer faces, whose small
//! kernel follows it: `fused/setup.rs`), and only the per-work-group residual maxima cross
//! to the host. The host applies the copies when it downloads the fields.

mod setup;

use super::paths::Aliases;
use super::phase::{defines, upload_geometry, CopyLists, OpenClOptions, K, N};
use super::subdomains::Decomposition;
use crate::device::{
    build_cached, check_capacity, require_fp64, select_device, DeviceInfo, Runtime,
};
use setup::{derive_rho_gam, upload_packed, Outer};
use std::sync::Arc;

use crate::error::{DeviceError, RunError};
use crate::methods::simple_ts::backend::Backend;
use crate::methods::simple_ts::case::{BoundaryFace, Case, Convection, Side};
use crate::methods::simple_ts::fields::State;
use crate::methods::simple_ts::problem::Problem;

/// Buffer names of the second Jacobi set, in [`K`] order.
const K2: [&str; 6] = ["u2", "v2", "p2", "t2", "rho2", "gam2"];
/// The kernel's write-set parameter names, in [`K`] order.
const W: [&str; 6] = ["u_w", "v_w", "p_w", "t_w", "rho_w", "gam_w"];

/// f64 buffers per stored cell of the fused form: two Jacobi sets of u, v, p, T, ρ, Γ (12), level
/// n (6), and C_u, C_v, C_T for the explicit scheme only (3). No ρu, ρv, Fx, Fy, û, d or
/// residual arrays: the kernel keeps them in local memory and registers. With `lean` storage
/// ρ and Γ are not stored: u, v, p, T per set (12).
pub fn f64_per_cell(explicit: bool, lean: bool) -> u64 {
    let sets = if lean { 12 } else { 18 };
    sets + if explicit { 3 } else { 0 }
}

/// int buffers per stored cell of the fused form: the phase form's class tables and fast-path
/// mask plus the three alias tables, or one packed geometry word with `lean` storage.
pub fn i32_per_cell(lean: bool) -> u64 {
    if lean {
        1
    } else {
        super::phase::I32_PER_CELL + 3
    }
}

/// Device memory of the fused form for `cells` stored cells: (total, largest buffer) in bytes
/// (buffers not per cell left out, as [`super::phase::device_bytes`]).
pub fn device_bytes(cells: u64, explicit: bool, lean: bool) -> (u64, u64) {
    (
        cells * (8 * f64_per_cell(explicit, lean) + 4 * i32_per_cell(lean)),
        8 * cells,
    )
}

/// The assembled source of the fused form.
pub fn source() -> String {
    use super::source as s;
    s::equations()
        .with(s::FLUX_INLINE)
        .with(s::CONVECTIVE)
        .with(crate::device::source::MAX_AT)
        .with(s::ITERATE)
        .assemble()
}

/// Register cap of the fused kernel on NVIDIA devices. Uncapped, NVIDIA's compiler gives
/// `loop2` 188–196 registers, which fits one 256-item group per SM; capped at 128 (two groups
/// per SM, no spills reported) implicit upwind ran 41 % faster on an H200 and 96 was slower
/// again (docs/performance-log.md).
pub const NV_MAX_REGISTERS: u32 = 128;

/// The `-D` defines of the fused form for `case` on `dev` with decomposition `dec` (the
/// phase form's defines plus the work-group width), and the device's tuning options. The rows
/// per subdomain are not a define: the kernel derives them from the launch
/// (`get_num_groups(1)`), so one build serves every value.
pub fn fused_defines(
    pb: &Problem,
    dec: &Decomposition,
    dev: &DeviceInfo,
    lean: bool,
) -> crate::device::Defines {
    let d = defines(pb)
        .int("DEV_W", dec.width as i64)
        .int("DEV_COLS", dec.cols as i64)
        .int("DEV_HALO", dec.halo as i64)
        .int("DEV_SWEEPS", dec.sweeps as i64)
        .int("DEV_ALIAS", 1)
        .int("DEV_LEAN", i64::from(lean));
    if dev.is_nvidia() {
        d.option(&format!("-cl-nv-maxrregcount={NV_MAX_REGISTERS}"))
    } else {
        d
    }
}

/// Compile (and store in the kernel cache) the OpenCL forms `(phase, fused)` asked for, for
/// `case` on `dev` (the fused form in `lean` storage or not), without allocating any field
/// buffer: `simplets build-kernels`. Returns the seconds each build took (0 for a cache hit),
/// `None` for a form not asked for (or, fused, not applicable).
pub fn build_ahead(
    case: &Case,
    dev: &DeviceInfo,
    cache: &crate::device::KernelCache,
    forms: (bool, bool),
    lean: bool,
) -> Result<(Option<f64>, Option<f64>), DeviceError> {
    let r = Problem::new(case);
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
            &super::phase::source(),
            &defines(&r),
            None,
            Some(cache),
        )?;
        Some(secs(&b))
    } else {
        None
    };
    let fused = if forms.1 && supports(case) {
        let dec = Decomposition::for_device_sweeps(&r.grid, dev, case.solver.sweeps() as usize)?;
        let b = build_cached(
            dev,
            &source(),
            &fused_defines(&r, &dec, dev, lean),
            None,
            Some(cache),
        )?;
        Some(secs(&b))
    } else {
        None
    };
    Ok((phase, fused))
}

/// True if the lean storage applies to `case`: no periodic side (its copies are not
/// neighbours) and at most [`super::paths::PACKED_WALLS`] wall records.
pub fn lean_supported(case: &Case) -> bool {
    supports(case)
}

/// True if the fused kernel supports the case: no periodic sides (yet), one or two T/p
/// sweeps per loop-2 iteration (the GPU order, or the C++ order's default two).
pub fn supports(case: &Case) -> bool {
    unsupported(case).is_none()
}

/// What of `case` the fused kernel cannot run, in words; `None` if it can.
pub fn unsupported(case: &Case) -> Option<String> {
    // Compat reproduces the C++ code's loop 3 with its stale ghosts and lagged end rules,
    // which the fused kernel does not.
    if !case.compat().is_empty() {
        return Some("compat (the authors' C++ code's defects: the phase kernels)".into());
    }
    let b = &case.boundaries;
    if [&b.west, &b.east, &b.south, &b.north]
        .iter()
        .any(|s| matches!(s, Side::Periodic {}))
    {
        return Some("periodic sides (docs/DESIGN.md)".into());
    }
    // The fused kernel reads a copied ghost through one alias for p, T, ρ and Γ together.
    if [&b.west, &b.east, &b.south, &b.north].iter().any(|s| {
        matches!(s, Side::Pressure { temperature, .. } if !temperature.is_fixed())
            || matches!(s, Side::Inflow { pressure, .. } if !pressure.is_fixed())
    }) {
        return Some(
            "a ghost that copies only one of p and T (a pressure side's zero-gradient \
             temperature, an inflow's zero-gradient pressure)"
                .into(),
        );
    }
    // Measured: 5e-8 from the reference after 10 steps at the outflow column, where the
    // phase form and a pressure side's solved face agree to 0 ulp; not yet explained.
    if [&b.west, &b.east].iter().any(|s| {
        matches!(
            s,
            Side::Outflow {
                boundary_face: BoundaryFace::Solved,
                ..
            }
        )
    }) {
        return Some("an outflow side with a solved boundary face".into());
    }
    let sweeps = case.solver.sweeps();
    (sweeps > 2).then(|| {
        format!(
            "{sweeps} T/p sweeps per loop-2 iteration (solver.inner_sweeps); it runs one (GPU \
             order) or two"
        )
    })
}

/// The fused OpenCL solver.
pub struct Fused {
    p: Arc<Problem>,
    rt: Runtime,
    dec: Decomposition,
    host: State,
    dirty: bool,
    explicit: bool,
    n: usize,
    /// Which set holds iterate k: false = A (`u`, …), true = B (`u2`, …).
    in_b: bool,
    /// Field buffers per set: 6 (u, v, p, T, ρ, Γ), or 4 with lean storage.
    stored: usize,
    /// The outer faces of the ghost columns (`outer_face: mass_balance`).
    outer: Outer,
}

impl Fused {
    /// Set up `case` with the decomposition `dec` (`None`: the device default).
    pub fn new(
        case: &Case,
        opts: &OpenClOptions,
        dec: Option<(usize, usize)>,
    ) -> Result<Fused, DeviceError> {
        if let Some(what) = unsupported(case) {
            return Err(DeviceError::FusedUnsupported { what });
        }
        let dev = select_device(opts.device.as_deref())?;
        require_fp64(&dev)?;
        let cells = ((case.grid.nx + 2) * (case.grid.ny + 2)) as u64;
        let explicit = case.scheme.convection == Convection::Explicit;
        let lean = opts.lean;
        let (total, largest) = device_bytes(cells, explicit, lean);
        check_capacity(&dev, total, largest, 0, 1)?;
        let r = Arc::new(Problem::new(case));
        let sweeps = case.solver.sweeps() as usize;
        let dec = match dec {
            Some((w, rows)) => {
                let d = Decomposition::with_sweeps(&r.grid, w, rows, sweeps).map_err(|m| {
                    DeviceError::WorkGroupTooLarge {
                        device: format!("{} ({m})", dev.name),
                        needed: w,
                        max: dev.max_work_group_size,
                    }
                })?;
                d.check(&dev)?;
                d
            }
            None => Decomposition::for_device_sweeps(&r.grid, &dev, sweeps)?,
        };
        if !dec.width.is_power_of_two() {
            return Err(DeviceError::WorkGroupTooLarge {
                device: format!("{} (work-group width must be a power of two)", dev.name),
                needed: dec.width,
                max: dev.max_work_group_size,
            });
        }
        let defs = fused_defines(&r, &dec, &dev, lean);
        let built = build_cached(
            &dev,
            &source(),
            &defs,
            opts.log_dir.as_deref(),
            opts.cache.as_ref(),
        )?;
        let n = r.grid.len();
        let stored = if lean { 4 } else { 6 };
        let mut rt = Runtime::new(built);
        super::loop2::upload_initial(&mut rt, &r, &[&K[..stored], &K2[..stored], &N[..stored]])?;
        // The implicit kernels never read the explicit terms: one value each.
        for name in ["cu", "cv", "ct"] {
            rt.real_zeros(name, if explicit { n } else { 0 })?;
        }
        rt.real("part", &vec![0.0; 8 * dec.groups()])?;
        let alias = Aliases::new(n, &r.ghosts);
        if lean {
            upload_packed(&mut rt, &r, &alias).map_err(|reason| DeviceError::Api {
                device: dev.name.clone(),
                call: "lean storage",
                code: 0,
                name: reason,
            })?;
        } else {
            upload_geometry(&mut rt, &r, &CopyLists::new(&r.ghosts))?;
            rt.int("c_alias", &alias.cells)?;
            rt.int("u_alias", &alias.u)?;
            rt.int("v_alias", &alias.v)?;
        }
        let outer = Outer::new(&mut rt, &r)?;
        // Kernel instances for both directions of the ping-pong.
        let (k, k2, w) = (&K[..stored], &K2[..stored], &W[..stored]);
        let ab: Vec<(&str, &str)> = w.iter().zip(k2).map(|(w, b)| (*w, *b)).collect();
        let mut ba: Vec<(&str, &str)> = k.iter().zip(k2).map(|(k, b)| (*k, *b)).collect();
        ba.extend(w.iter().zip(k).map(|(w, a)| (*w, *a)));
        rt.bind_as("loop2_ab", "loop2", &ab)?;
        rt.bind_as("loop2_ba", "loop2", &ba)?;
        let to_b: Vec<(&str, &str)> = k.iter().zip(k2).map(|(k, b)| (*k, *b)).collect();
        rt.bind_as("convective_a", "convective", &[])?;
        rt.bind_as("convective_b", "convective", &to_b)?;
        rt.bind_as("outer_faces_a", "outer_faces", &[])?;
        rt.bind_as("outer_faces_b", "outer_faces", &to_b)?;
        log::info!(
            "OpenCL fused loop-2 kernel on {}: {} work-groups of {} ({} columns × {} rows), \
             {} KiB local memory each, {} MiB of buffers ({} storage, {} B per cell)",
            dev.name,
            dec.groups(),
            dec.width,
            dec.cols,
            dec.rows,
            dec.local_bytes() / 1024,
            rt.bytes() >> 20,
            if lean { "lean" } else { "full" },
            rt.bytes() / cells
        );
        let f = Fused {
            explicit,
            p: r,
            host: State::empty(),
            rt,
            dec,
            dirty: true,
            n,
            in_b: false,
            stored,
            outer,
        };
        f.outer_faces()?;
        Ok(f)
    }

    /// The outer faces of the current set (`kernels/iterate_fused.cl`, `outer_faces`), where
    /// the case has them: after every loop-2 launch, the set up, a rollback and a restore,
    /// as the reference sets them after its face fluxes.
    fn outer_faces(&self) -> Result<(), DeviceError> {
        let name = if self.in_b {
            "outer_faces_b"
        } else {
            "outer_faces_a"
        };
        self.outer.launch(&self.rt, name)
    }

    /// The device this solver runs on.
    pub fn device(&self) -> &DeviceInfo {
        self.rt.program().device()
    }

    /// The work-group decomposition in use.
    pub fn decomposition(&self) -> &Decomposition {
        &self.dec
    }

    fn cur(&self) -> &'static [&'static str] {
        if self.in_b {
            &K2[..self.stored]
        } else {
            &K[..self.stored]
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
        self.outer_faces()?;
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
        self.host.time += self.p.case.time.dt;
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
        self.host.time -= self.p.case.time.dt;
        self.outer_faces()
    }

    fn download(&mut self) -> Result<(), DeviceError> {
        self.host.allocate(self.n);
        super::loop2::read_fields(&self.rt, self.cur(), &mut self.host.k)?;
        super::loop2::read_fields(&self.rt, &N[..self.stored], &mut self.host.n)?;
        if self.stored < 6 {
            derive_rho_gam(&mut self.host.k);
            derive_rho_gam(&mut self.host.n);
        }
        // The device leaves copy ghosts and copy faces stale (they are read through aliases).
        for f in [&mut self.host.k, &mut self.host.n] {
            self.p.ghosts.apply_cells(f);
            self.p.ghosts.apply_faces(f);
        }
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
        self.p.grid.nxt
    }
    fn steps_mut(&mut self) -> &mut u64 {
        &mut self.host.step
    }
}

impl Backend for Fused {
    fn name(&self) -> String {
        format!("opencl-fused:{}", self.device().name)
    }

    super::loop2::shared_backend_methods!();

    fn iterate_rows(&mut self, rows: &[std::ops::Range<usize>]) -> Result<&State, RunError> {
        if self.dirty {
            self.host.allocate(self.n);
            let names = self.cur();
            let nxt = self.p.grid.nxt;
            super::loop2::read_rows(&self.rt, names, &mut self.host.k, rows, nxt)?;
            if self.stored < 6 {
                derive_rho_gam(&mut self.host.k);
            }
            // Copy ghosts and faces are stale on the device (read through aliases): fill them
            // on the host; those whose source rows were read come out right.
            self.p.ghosts.apply_cells(&mut self.host.k);
            self.p.ghosts.apply_faces(&mut self.host.k);
        }
        Ok(&self.host)
    }

    fn info(&self) -> crate::solver::SolverInfo {
        super::loop2::info(self.rt.program(), "fused", Some(&self.dec))
    }

    fn details(&self) -> Vec<(String, String)> {
        let d = &self.dec;
        vec![(
            "decomposition".into(),
            format!(
                "W = {} ({} columns + 2 × {} halo), {} rows per subdomain, {} × {} = {} \
                 work-groups, {} loop-3 sweep(s)",
                d.width,
                d.cols,
                d.halo,
                d.rows,
                d.groups_x,
                d.groups_y,
                d.groups(),
                d.sweeps
            ),
        )]
    }

    fn restore(&mut self, state: State) -> Result<(), RunError> {
        for set in [&K[..self.stored], &K2[..self.stored]] {
            super::loop2::write_fields(&mut self.rt, set, &state.k)?;
        }
        super::loop2::write_fields(&mut self.rt, &N[..self.stored], &state.n)?;
        self.in_b = false;
        self.host = state;
        self.dirty = false;
        self.outer_faces()?;
        Ok(())
    }
}
