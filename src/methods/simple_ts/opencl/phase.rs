//! The OpenCL backend, first form: loop 2 as a sequence of Jacobi phase kernels
//! (`cl/simple_ts/kernels/jacobi.cl`), each the twin of a step of `methods/simple_ts/reference/iterate.rs` in the GPU order
//! (one T/p evaluation per loop-2 iteration). All fields stay on the device; only the residual
//! maxima of each work-group cross to the host per iteration, and fields are read back for
//! output (`state`).
//!
//! The boundary copy lists and the geometry upload both forms share are in `phase/copies.rs`.
//!
//! On one rank of a decomposed run ([`OpenCl::set_halo`]) the form computes on the rank's
//! window and exchanges halos at the reference's points (`reference/iterate.rs`): after the
//! pseudo-velocities (û, d_u, v̂, d_v), after each loop-3 sweep (p_new, T_new), after the
//! correction and ghosts (u, v) and after the face fluxes (ρu, ρv, Fx, Fy). Only the halo
//! strips cross the bus (`clEnqueueReadBufferRect`/`WriteBufferRect`, `phase/strips.rs`); the
//! messages are `decomp::Halo`'s. By default each exchange overlaps the interior of its phase
//! (`phase/overlap.rs`). The residual maxima cover the owned cells only (the halo
//! strips of the residual arrays are zeroed before the reduction) and are merged over the
//! ranks, so loop 2 runs one host round trip per iteration there (no device-side control: its
//! check cannot see the other ranks).

use crate::decomp::Halo;
use crate::device::{
    build_cached, check_capacity, require_fp64, select_device, Defines, DeviceInfo, KernelCache,
    Runtime,
};
use std::sync::Arc;

use crate::error::DeviceError;
use crate::methods::simple_ts::case::{Case, Convection, Defect, Interpolation};
use crate::methods::simple_ts::fields::State;
use crate::methods::simple_ts::geometry::Wall;
use crate::methods::simple_ts::problem::Problem;

mod copies;
mod ends;
mod overlap;
mod regs;
mod seams;
mod strips;

use ends::Ends;
pub use regs::{NV_CAPS, PHASE_REGS_ENV};

use strips::{FLUXES, PSEUDO, SWEEP, SWEEP_OLD, VELOCITY};

pub use copies::{resolve, resolve3, Pairs, Triples};
pub(crate) use copies::{upload_geometry, CopyLists};

/// Work-group size of the residual reductions (`DEV_RED_WG` in the kernels).
pub(crate) const RED_WG: usize = 256;
/// Work-groups of each residual reduction per compute unit. Each item strides over the grid,
/// so enough of them must be in flight to saturate the memory: with 64 groups in all, the
/// four reductions ran at 7.7 % of their bandwidth bound on an H200 and took 24 % of a
/// loop-2 iteration; with 8 per compute unit they reach 56–67 % of the datasheet bandwidth
/// (measured: docs/performance-log.md, "Tuning step 5").
const RED_GROUPS_PER_CU: usize = 8;

/// Work-groups of each residual reduction on `dev`. Fewer groups on a small grid do not pay:
/// on the main job's grid `reduce_all` and `check` took 12 and 14 µs per iteration with 1056
/// groups on an H100 (run 55) and 14 and 11 µs with 20 (at least 4 cells per item, run 57):
/// their time there is launch latency and the barrier trees, not the partial results.
fn red_groups(dev: &crate::device::DeviceInfo) -> usize {
    (RED_GROUPS_PER_CU * dev.compute_units as usize).clamp(16, 4096)
}

/// f64 buffers per stored cell of the phase-kernel backend: k and n fields (12), ρu, ρv, Fx,
/// Fy (4), û, d_u, v̂, d_v (4), p_new, T_new (2), the residual arrays of p and T (2),
/// C_u, C_v, C_T for the explicit scheme only (3), and the previous sweep's p and T when loop
/// 3 runs more than one sweep (2, the C++ order). The residual arrays of u and v are Fx and
/// Fy: `correct` writes them after the last read of the fluxes in an iteration, the
/// reductions read them before `fluxes` refills them ([`RES_ALIAS`]).
pub fn f64_per_cell(explicit: bool, sweeps: u32) -> u64 {
    24 + if explicit { 3 } else { 0 } + if sweeps > 1 { 2 } else { 0 }
}
/// int buffers per stored cell: cell, wall index, u- and v-face classes, fast-path mask.
pub const I32_PER_CELL: u64 = 5;

/// Kernel arguments bound to another buffer in every kernel: the residuals of u and v live
/// in Fx and Fy (see [`f64_per_cell`]).
pub const RES_ALIAS: [(&str, &str); 2] = [("res_u", "fx"), ("res_v", "fy")];

/// Device memory the phase-kernel backend needs for `cells` stored cells with `sweeps` T/p
/// sweeps per loop-2 iteration: (total, largest buffer) in bytes. Buffers not per cell
/// (metrics, walls, copy lists, partial maxima) are left out; they are O(nx + ny).
pub fn device_bytes(cells: u64, explicit: bool, sweeps: u32) -> (u64, u64) {
    (
        cells * (8 * f64_per_cell(explicit, sweeps) + 4 * I32_PER_CELL),
        8 * cells,
    )
}

/// [`device_bytes`] of `case` on `cells` stored cells, with the first sweep's residual arrays
/// of p and T that compat `steady_test_first_sweep` keeps (2 f64 per cell, `phase/ends.rs`).
pub fn case_device_bytes(case: &Case, cells: u64) -> (u64, u64) {
    let explicit = case.scheme.convection == Convection::Explicit;
    let (total, largest) = device_bytes(cells, explicit, case.solver.sweeps());
    let first = case.compat().has(Defect::SteadyTestFirstSweep);
    (total + if first { 16 * cells } else { 0 }, largest)
}

/// Names of the k-iterate and level-n buffers, in [`Fields`] order.
pub(crate) const K: [&str; 6] = ["u", "v", "p", "t", "rho", "gam"];
pub(crate) const N: [&str; 6] = ["u_n", "v_n", "p_n", "t_n", "rho_n", "gam_n"];

/// Options of the OpenCL backend.
#[derive(Debug, Clone, Default)]
pub struct OpenClOptions {
    /// Device selector (index or name substring); `None`: the first fp64 GPU, else CPU.
    pub device: Option<String>,
    /// Kernel binary cache; `None` disables it.
    pub cache: Option<KernelCache>,
    /// Directory for the build log and assembled source.
    pub log_dir: Option<std::path::PathBuf>,
    /// Fused form only: lean storage (ρ and Γ computed where read, packed geometry; about
    /// 100 B per cell for the implicit scheme, `fused::device_bytes`).
    pub lean: bool,
}

/// The OpenCL solver.
pub struct OpenCl {
    p: Arc<Problem>,
    rt: Runtime,
    /// The host copy of the fields, allocated at the first read-back.
    host: State,
    dirty: bool,
    explicit: bool,
    n: usize,
    /// T/p sweeps per loop-2 iteration (loop 3): one in the GPU order.
    sweeps: u32,
    /// Boundary-copy kernel instances and their work-items (list entries).
    counts: [(&'static str, usize); 7],
    /// What the end of a loop-2 iteration runs beyond the default copies (`phase/ends.rs`).
    ends: Ends,
    /// Work-groups of each residual reduction.
    red_groups: usize,
    /// Work-group size of the whole-grid and list kernels ([`phase_wg`]).
    wg: Option<usize>,
    /// Loop-2 iterations of the previous step: the first batch of the next one.
    hint: u32,
    /// One rank's window of a decomposed run: its halo exchange ([`OpenCl::set_halo`]).
    halo: Option<Arc<Halo>>,
    /// Overlap the exchanges with the interior (`Backend::set_overlap`).
    overlap: bool,
    /// The rank's frame and interior where the overlap keeps the bits (`phase/overlap.rs`).
    split: Option<Arc<overlap::Split>>,
    /// Kernels built apart with a register cap (`phase/regs.rs`).
    caps: Vec<(String, u32)>,
}

/// Every kernel of `cl/simple_ts/kernels/jacobi.cl` and `boundary.cl`, each bound once with
/// its arguments' own buffers (the loop-3 kernels also in the other direction: [`SWEEP_BACK`]).
const KERNELS: [&str; 14] = [
    "fluxes",
    "convective",
    "pseudo",
    "copy_hat",
    "tp",
    "tp_sweep",
    "ghost_pt",
    "correct",
    "ghosts",
    "faces",
    "end_copies",
    "reduce_all",
    "check",
    "ctl_reset",
];

/// Loop 3's second buffer set: a sweep that writes p_old, t_old (and reads p_new, t_new)
/// runs the kernel instances bound with these renames (`tp_o`, `tp_sweep_o`, `ghost_pt_o`).
const SWEEP_BACK: [(&str, &str); 4] = [
    ("p_new", "p_old"),
    ("t_new", "t_old"),
    ("p_old", "p_new"),
    ("t_old", "t_new"),
];

/// Whether a rank overlaps its exchanges with the interior unless `SIMPLETS_HALO_OVERLAP`
/// says: yes (two ranks sharing one H200 ran 15 % faster per iteration on column strips and
/// 0–4 % on row strips, run 74; docs/decisions.md).
pub const OVERLAP_BY_DEFAULT: bool = true;

/// Environment variable that sets the work-group size of the phase form's whole-grid and list
/// kernels (`0`: the driver's choice), so that a run can compare sizes.
pub const PHASE_WG_ENV: &str = "SIMPLETS_PHASE_WG";

/// Work-group size of the whole-grid and list kernels on a GPU. The driver's own choice was
/// 15–21 % slower at 806 k and 16 M cells on an H100 (run 64: 4032 × 4000 in the C++ order
/// 7.70 ms per iteration with it, 6.54 with 64, 6.57 with 128, 7.46 with 256); on the main
/// job's 20 k cells the size changes nothing measurable. The kernels guard their own range,
/// and no work-item reads what another writes, so the size does not change the results.
const GPU_PHASE_WG: usize = 128;

/// The work-group size of the whole-grid and list kernels on `dev` ([`PHASE_WG_ENV`], else
/// [`GPU_PHASE_WG`] on a GPU and the driver's choice elsewhere); a value that is not a size
/// the device takes is refused in one line naming the variable.
fn phase_wg(dev: &DeviceInfo) -> Result<Option<usize>, DeviceError> {
    let max = dev.max_work_group_size.max(1);
    let Some(v) = std::env::var(PHASE_WG_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty())
    else {
        return Ok((dev.device_type == "GPU").then_some(GPU_PHASE_WG.min(max)));
    };
    match v.trim().parse::<usize>() {
        Ok(0) => Ok(None),
        Ok(w) if w <= max => Ok(Some(w)),
        _ => Err(DeviceError::BadBuildOption {
            var: PHASE_WG_ENV,
            value: v.clone(),
            reason: format!(
                "a work-group size: 1 to {max} on {} (0: the driver's choice)",
                dev.name
            ),
        }),
    }
}

/// Entries of the loop-2 control buffer `ctl` (`cl/simple_ts/kernels/gate.cl`).
const CTL_LEN: usize = 17;

/// The assembled kernel source of the Jacobi backend.
pub fn source() -> String {
    super::source::phase().assemble()
}

/// The `-D` defines of a problem (grid, constants, scheme, list lengths).
pub fn defines(pb: &Problem) -> Defines {
    let c = &pb.c;
    let l = CopyLists::new(&pb.ghosts);
    let walls = |f: fn(&Wall) -> f64| pb.geo.walls.iter().map(f).collect::<Vec<_>>();
    let d = Defines::new()
        .int("CFG_NXT", pb.grid.nxt as i64)
        .int("CFG_NYT", pb.grid.nyt as i64)
        .int(
            "CFG_TVD",
            i64::from(pb.case.scheme.interpolation == Interpolation::Tvd),
        )
        .int(
            "CFG_EXPLICIT",
            i64::from(pb.case.scheme.convection == Convection::Explicit),
        )
        .real("CFG_A", c.a)
        .real("CFG_B", c.b)
        .real("CFG_CT1", c.ct1)
        .real("CFG_CT2", c.ct2)
        .real("CFG_CT3", c.ct3)
        .real("CFG_KN", c.kn)
        .reals("CFG_WALL_SIGMA_U", &walls(|w| w.sigma_u))
        .reals("CFG_WALL_SIGMA_T", &walls(|w| w.sigma_t))
        .real("CFG_DT", pb.case.time.dt)
        .int(
            "CFG_COMPAT_SWAPPED_U",
            i64::from(pb.geo.compat.has(Defect::SwappedUWallFlags)),
        )
        .int("CFG_NU_COPY", l.u.len() as i64)
        .int("CFG_NV_COPY", l.v.len() as i64)
        .int("CFG_NGHOST_COPY", l.cells.len() as i64)
        .int("DEV_RED_WG", RED_WG as i64);
    ends::defines(d, pb)
}

impl OpenCl {
    /// Set up `case` on a device: initial state as the reference's, buffers, kernels.
    pub fn new(case: &Case, opts: &OpenClOptions) -> Result<OpenCl, DeviceError> {
        let dev = select_device(opts.device.as_deref())?;
        require_fp64(&dev)?;
        // Refuse a grid the device cannot hold before building anything on the host.
        let cells = ((case.grid.nx + 2) * (case.grid.ny + 2)) as u64;
        let explicit = case.scheme.convection == Convection::Explicit;
        let sweeps = case.solver.sweeps();
        let (total, largest) = device_bytes(cells, explicit, sweeps);
        check_capacity(&dev, total, largest, (2 * RED_WG * 8) as u64, RED_WG)?;
        OpenCl::on(Arc::new(Problem::new(case)), &dev, opts)
    }

    /// Set up the discretised problem `p` on `dev` (selected and checked by the caller).
    pub fn on(
        p: Arc<Problem>,
        dev: &DeviceInfo,
        opts: &OpenClOptions,
    ) -> Result<OpenCl, DeviceError> {
        // A bad work-group or register setting is refused before the build.
        let wg = phase_wg(dev)?;
        let caps = regs::caps(dev)?;
        let case = &p.case;
        let explicit = case.scheme.convection == Convection::Explicit;
        let sweeps = case.solver.sweeps();
        let src = source();
        let built = build_cached(
            dev,
            &src,
            &defines(&p),
            opts.log_dir.as_deref(),
            opts.cache.as_ref(),
        )?;
        let n = p.grid.len();
        let mut rt = Runtime::new(built);
        super::loop2::upload_initial(&mut rt, &p, &[&K, &N])?;
        for name in [
            "rho_u", "rho_v", "fx", "fy", "u_hat", "d_u", "v_hat", "d_v", "p_new", "t_new",
            "res_p", "res_t",
        ] {
            rt.real_zeros(name, n)?;
        }
        // Only later sweeps read the previous sweep's p and T.
        for name in ["p_old", "t_old"] {
            rt.real_zeros(name, if sweeps > 1 { n } else { 0 })?;
        }
        // The implicit kernels never read the explicit terms: one value each.
        for name in ["cu", "cv", "ct"] {
            rt.real_zeros(name, if explicit { n } else { 0 })?;
        }
        let red_groups = red_groups(dev);
        for name in ["part_u", "part_v", "part_p", "part_t"] {
            rt.real(name, &vec![0.0; 2 * red_groups])?;
        }
        // The loop-2 control (gate.cl): per-step entries zero; tolerances, divergence limit
        // and group count once.
        let sv = &case.solver;
        let mut ctl = [0.0; CTL_LEN];
        ctl[11..16].copy_from_slice(&[
            sv.eps_v,
            sv.eps_p,
            sv.eps_t,
            sv.divergence_limit,
            red_groups as f64,
        ]);
        rt.real("ctl", &ctl)?;
        let l = CopyLists::new(&p.ghosts);
        upload_geometry(&mut rt, &p, &l)?;
        let ends = Ends::new(&p);
        ends.upload(&mut rt, &p, n, red_groups)?;
        for kname in KERNELS.iter().chain(&ends::KERNELS) {
            rt.bind_as(kname, kname, &RES_ALIAS)?;
        }
        if sweeps > 1 {
            for kname in ["tp", "tp_sweep", "ghost_pt"] {
                rt.bind_as(&format!("{kname}_o"), kname, &SWEEP_BACK)?;
            }
        }
        regs::apply(&mut rt, &src, &caps, opts.cache.as_ref())?;
        let (cells, faces) = (l.cells.len(), l.u.len() + l.v.len());
        let counts = [
            ("copy_hat", faces),
            ("ghost_pt", cells),
            ("ghost_pt_o", cells),
            ("ghosts", cells),
            ("lagged_ghosts", cells),
            ("faces", faces),
            ("end_copies", cells + faces),
        ];
        log::info!(
            "OpenCL backend on {} ({}): {} MiB of buffers",
            dev.name,
            dev.platform_name,
            rt.bytes() >> 20
        );
        let s = OpenCl {
            wg,
            counts,
            ends,
            red_groups,
            explicit,
            host: State::empty(),
            rt,
            dirty: true,
            n,
            sweeps,
            hint: 1,
            halo: None,
            overlap: crate::device::overlap_setting()?.unwrap_or(OVERLAP_BY_DEFAULT),
            split: None,
            caps,
            p,
        };
        s.fluxes()?;
        Ok(s)
    }

    /// The device this solver runs on.
    pub fn device(&self) -> &DeviceInfo {
        self.rt.program().device()
    }

    fn run(&self, kernel: &str) -> Result<(), DeviceError> {
        self.rt.launch(kernel, self.n, self.wg)
    }

    /// Launch a one-item kernel (`ctl_reset`).
    fn run_one(&self, kernel: &str) -> Result<(), DeviceError> {
        self.rt.launch(kernel, 1, None)
    }

    /// Launch the boundary-copy kernel instance `name`, one work-item per list entry (none
    /// for empty lists).
    fn copies(&self, name: &str) -> Result<(), DeviceError> {
        let n = self.list_items(name);
        if n > 0 {
            self.rt.launch(name, n, self.wg)?;
        }
        Ok(())
    }

    /// Work-items of boundary-copy kernel instance `name` (its list entries).
    fn list_items(&self, name: &str) -> usize {
        self.counts
            .iter()
            .find(|(k, _)| *k == name)
            .map_or(0, |c| c.1)
    }

    /// The four residual maxima (u, v, p, T) in one reduction launch, each the largest value
    /// with its stored index from the per-group partial results, with `fluxes` queued behind
    /// it. The four partial buffers come back in one host round trip, and `fluxes` runs while
    /// the host merges them (it overwrites Fx and Fy, which hold the u and v residuals, so it
    /// must come after the reduction: the in-order queue sees to that).
    fn residuals_then_fluxes(&self) -> Result<[(f64, usize); 4], DeviceError> {
        self.rt
            .launch("reduce_all", RED_WG * self.red_groups, Some(RED_WG))?;
        self.merged_parts(|| self.queue_after_reduce())
    }

    /// The four residual maxima from the partial results of the last `reduce_all`, read back
    /// in one host round trip with `between` queued behind the reads.
    fn merged_parts(
        &self,
        between: impl FnOnce() -> Result<(), DeviceError>,
    ) -> Result<[(f64, usize); 4], DeviceError> {
        const PARTS: [&str; 4] = ["part_u", "part_v", "part_p", "part_t"];
        let mut bufs = [(); 4].map(|()| vec![0.0; 2 * self.red_groups]);
        let [b0, b1, b2, b3] = &mut bufs;
        let mut reads = [
            (PARTS[0], &mut b0[..]),
            (PARTS[1], &mut b1[..]),
            (PARTS[2], &mut b2[..]),
            (PARTS[3], &mut b3[..]),
        ];
        self.rt.read_all_then(&mut reads, between)?;
        Ok(bufs.map(|buf| {
            let mut best = (0.0, 0);
            for g in buf.chunks(2) {
                super::loop2::merge(&mut best, (g[0], g[1] as usize));
            }
            best
        }))
    }

    /// Queue the kernels of one loop-2 iteration through loop 3, with a rank's exchanges (the
    /// correction, the boundary copies, the reduction and `fluxes` follow).
    fn queue_sweeps(&mut self) -> Result<(), DeviceError> {
        self.dirty = true;
        self.phase("pseudo", Some("copy_hat"), &PSEUDO)?;
        // Compat stale_ghosts_in_loop3 keeps the copied ghosts of loop 3 at their values of
        // the previous loop-2 iteration, as the reference does.
        let refresh = !self.p.geo.compat.has(Defect::StaleGhostsInLoop3);
        // Loop 3 alternates between p_new, t_new and p_old, t_old, ending in p_new, t_new,
        // which the correction reads: sweep s writes p_new when sweeps − s is even. A sweep
        // writes every stored cell (the unsolved ones keep the previous sweep's value), so
        // none starts with a copy.
        for s in 1..=self.sweeps {
            let to_new = (self.sweeps - s) % 2 == 0;
            let (kernel, ghosts, strips) = match (s == 1, to_new) {
                (true, true) => ("tp", "ghost_pt", &SWEEP),
                (true, false) => ("tp_o", "ghost_pt_o", &SWEEP_OLD),
                (false, true) => ("tp_sweep", "ghost_pt", &SWEEP),
                (false, false) => ("tp_sweep_o", "ghost_pt_o", &SWEEP_OLD),
            };
            self.phase(kernel, refresh.then_some(ghosts), strips)?;
        }
        Ok(())
    }

    /// Queue the correction and the boundary copies of the end of an iteration.
    fn queue_correct(&self) -> Result<(), DeviceError> {
        self.run("correct")?;
        self.queue_before_reduce()
    }

    /// One loop-2 iteration on the device; the residuals with their stored indices (one host
    /// round trip per iteration: the loop without the device-side control, kept for tests).
    /// On a rank ([`OpenCl::set_halo`]): the owned cells' maxima merged over every rank, with
    /// the whole grid's stored indices.
    pub fn iterate(&mut self) -> Result<[(f64, usize); 4], DeviceError> {
        self.queue_sweeps()?;
        let Some(h) = self.halo.clone() else {
            self.queue_correct()?;
            return self.residuals_then_fluxes();
        };
        let mine = if self.overlapped().is_some() {
            // The default end of an iteration (`plan_overlap`): `end_copies`, then `fluxes`.
            self.phase("correct", Some("end_copies"), &VELOCITY)?;
            self.zero_halo_residuals()?;
            self.rt
                .launch("reduce_all", RED_WG * self.red_groups, Some(RED_WG))?;
            self.phase("fluxes", None, &FLUXES)?;
            self.merged_parts(|| Ok(()))?
        } else {
            self.queue_correct()?;
            self.exchange(&VELOCITY)?;
            self.zero_halo_residuals()?;
            let mine = self.residuals_then_fluxes()?;
            self.exchange(&FLUXES)?;
            mine
        };
        Ok(h.reduce_max_at(mine))
    }

    /// Queue one loop-2 iteration that ends with the device-side check (gate.cl).
    fn queue_checked_iteration(&mut self) -> Result<(), DeviceError> {
        self.queue_sweeps()?;
        self.queue_correct()?;
        self.rt
            .launch("reduce_all", RED_WG * self.red_groups, Some(RED_WG))?;
        self.reduce_first()?;
        self.queue_after_reduce()?;
        self.rt.launch("check", RED_WG, Some(RED_WG))
    }

    /// The loop-2 control record (a blocking read of `ctl`).
    fn control(&self) -> Result<super::loop2::Control, DeviceError> {
        let mut c = [0.0; CTL_LEN];
        self.rt.read("ctl", &mut c)?;
        Ok(super::loop2::Control::from_ctl(&c))
    }

    /// Start a time step: level n := iterate k; explicit convective terms.
    pub fn begin_step(&mut self) -> Result<(), DeviceError> {
        self.run_one("ctl_reset")?;
        for (k, n) in K.iter().zip(N) {
            self.rt.copy(k, n)?;
        }
        self.host.time += self.p.case.time.dt;
        if self.explicit {
            self.run("convective")?;
        }
        Ok(())
    }

    fn rollback(&mut self) -> Result<(), DeviceError> {
        // The gate is closed after a diverged check: open it for `fluxes`.
        self.run_one("ctl_reset")?;
        for (k, n) in K.iter().zip(N) {
            self.rt.copy(n, k)?;
        }
        self.host.time -= self.p.case.time.dt;
        self.fluxes()?;
        self.exchange(&FLUXES)
    }

    fn download(&mut self) -> Result<(), DeviceError> {
        self.host.allocate(self.n);
        super::loop2::read_fields(&self.rt, &K, &mut self.host.k)?;
        super::loop2::read_fields(&self.rt, &N, &mut self.host.n)?;
        self.dirty = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
