//! The OpenCL backend of the explicit methods: the state stays on the device in two
//! ping-pong buffers (plus the first RK2 stage); a step queues the stage kernels, the ghost
//! fills and `finish`, then reads back the 4-value clock `[Δt, t, max rate, max |Δq0|]`
//! (one host round trip per step). Fields cross to the host only for output and checkpoints.
//! Bit-identical to [`super::reference`] (the same per-cell functions and fragments, FP
//! contraction off, a maximum as the only reduction). On a rank of a decomposed run
//! (`opencl/strips.rs`) the same kernels run on the rank's window, with the halo exchanged
//! every stage (while the stage's interior runs: `opencl/bands.rs`) and the maxima merged over
//! the ranks.

mod bands;
mod settings;
mod stage;
mod strips;
mod walls;

pub use crate::device::OVERLAP_ENV;

/// Whether the explicit methods' OpenCL ranks overlap their exchanges unless
/// [`OVERLAP_ENV`] says: no (two ranks sharing one GPU ran 9–26 % slower overlapped, run 56).
pub const OVERLAP_BY_DEFAULT: bool = false;
pub use bands::{split, walled_launch, Part, Split, WalledLaunch};
pub use settings::{
    parse_shape, prefetch_setting, stage_setting, walled_launch_setting, PREFETCH_ENV, SHAPE_ENV,
    STAGE_ENV, WALLED_ENV, WALLED_LAUNCH_ENV,
};
pub use stage::{
    fit_rows_upto, is_gpu, system_index, Stage, StageForm, MUSCL_STRIP_LOCAL,
    NV_STRIP_GROUPS_PER_CU, RED, STRIP_SHAPE,
};
pub use walls::{WalledMode, APART_FROM_WAVE, MIXED_BELOW_WAVES};

use std::sync::Arc;

use super::reference::{dt_of, fill_ghosts, first_bad, first_bad_merged, max_rate};
use super::{Bc, Flux, Limiter, Problem, StepRule, System};
use crate::decomp::Halo;
use crate::device::{
    build_cached, check_capacity, require_fp64, select_device, Defines, DeviceInfo, Runtime,
};
use crate::error::{DeviceError, RunError};
use crate::methods::BackendChoice;

/// The `-D` defines of `p` with the stage launch `st` (see the contract in
/// `cl/explicit/step.cl`).
pub fn defines(p: &Problem, st: &Stage) -> Defines {
    let m = &p.mesh;
    let (lx, ly) = st.work_group();
    let (gamma, phi_dry, c, a, nu, cn) = match p.system {
        System::Euler { gamma } => (gamma, 0.0, [0.0; 2], [0.0; 2], 0.0, [0.0; 2]),
        System::ShallowWater { phi_dry, .. } => (0.0, phi_dry, [0.0; 2], [0.0; 2], 0.0, [0.0; 2]),
        System::Transport { c, a, nu } => (0.0, 0.0, c, a, nu, [0.0; 2]),
        System::Convection { nu } => (0.0, 0.0, [0.0; 2], [0.0; 2], 0.0, nu),
    };
    let (cfl, fixed) = match p.rule {
        StepRule::Cfl(c) => (c, 0),
        StepRule::Fixed(_) => (1.0, 1),
    };
    Defines::new()
        .int("CFG_NXT", m.nxs as i64)
        .int("CFG_NYT", m.nys as i64)
        .int("CFG_NS", m.ns as i64)
        .int("CFG_NX", m.nx as i64)
        .int("CFG_NY", m.ny as i64)
        .int("CFG_NG", m.ng as i64)
        .int("CFG_DIM", m.dims as i64)
        .int("CFG_NV", p.nv() as i64)
        .int("CFG_SYS", p.system.id())
        .int(
            "CFG_FLUX",
            match p.num.flux {
                Flux::Shll => 0,
                Flux::Hll => 1,
                Flux::Rusanov => 2,
            },
        )
        .int("CFG_MUSCL", i64::from(p.num.muscl))
        .int("CFG_LIMITER", i64::from(p.num.limiter == Limiter::VanLeer))
        .int("CFG_CLAMP_CHI", i64::from(p.num.clamp_chi))
        .real("CFG_D", p.num.d)
        .int("CFG_WALLS", i64::from(p.solid.is_some()))
        // The strip's skip of groups that are solid throughout, compiled only where there are
        // some: without, the dam at 2048² (none) ran 1–2 % faster (run 112).
        .int("CFG_SOLID_GROUPS", i64::from(st.solid_share(p) > 0.0))
        .real("CFG_DX", m.dx)
        .real("CFG_DY", m.dy)
        .real("CFG_CFL", cfl)
        .real("CFG_T_END", p.t_end)
        .int("CFG_FIXED_DT", fixed)
        .int("CFG_NGROUPS", st.groups(p) as i64)
        .int("CFG_NGROUPS2", st.groups2(p) as i64)
        .real("CFG_GAMMA", gamma)
        .real("CFG_PHI_DRY", phi_dry)
        .real("CFG_CX", c[0])
        .real("CFG_CY", c[1])
        .real("CFG_AX", a[0])
        .real("CFG_AY", a[1])
        .real("CFG_NU", nu)
        .real("CFG_NUX", cn[0])
        .real("CFG_NUY", cn[1])
        .int("CFG_WEST", p.sides[0].id())
        .int("CFG_EAST", p.sides[1].id())
        .int("CFG_SOUTH", p.sides[2].id())
        .int("CFG_NORTH", p.sides[3].id())
        .int("DEV_LX", lx as i64)
        .int("DEV_LY", ly as i64)
        .int("DEV_RPI", st.rpi as i64)
        .int("DEV_TILE", st.form.id())
        .int(
            "DEV_PREFETCH",
            i64::from(prefetch_setting().unwrap_or(true)),
        )
        .int("DEV_UNROLL", st.unroll(p) as i64)
        .int("DEV_LOCAL_PENDING", i64::from(st.local_pending(p)))
        .int("DEV_MSTRIP_LOCAL", i64::from(st.muscl_local(p)))
        .int(
            "DEV_WALLED_APART",
            i64::from(st.walls_apart(p) && st.walled != WalledMode::Mixed),
        )
        .int("DEV_RED", RED as i64)
}

/// Register cap of the first-order 2D SHLL stages (Euler and shallow water) on NVIDIA
/// devices. Registers only: the arithmetic, and so the bits, are the same. Uncapped, the
/// stage took 92 registers and 5 groups per SM; 72 made it 9 % faster (device run 39). Since
/// each state divides once (run 79) the stage needs fewer registers, and at 72 it spilled
/// 48 B: 80 is the fastest of 64 … 96 (runs 79–80 on an H100: Euler's stage 223 → 195 µs at
/// 3072 × 1536, shallow water's 203 → 193 µs at 2048²).
pub const NV_SHLL_MAX_REGISTERS: u32 = 80;

/// Register cap of the 2D MUSCL stages on NVIDIA: 108–112 registers uncapped; 96 runs them
/// 4–6 % faster (run 80: 370 / 397 → 353 / 372 µs at 3072 × 1536), 80 gains nothing. Before
/// each state divided once, every cap below 120 spilled and was slower (run 48).
pub const NV_MUSCL_MAX_REGISTERS: u32 = 96;

/// Register cap of the MUSCL strip on NVIDIA, Euler and shallow water: 96, so that an SM holds
/// 5 groups of 128 ([`NV_STRIP_GROUPS_PER_CU`]). Shallow water takes 100–102 registers
/// uncapped (4 groups), 92–96 at 96 without spilling, 11 % faster (run 117 on an H200 at
/// 2048² and 4096²; at 80 it spills 104–120 B and is 10–14 % slower than uncapped). Euler
/// takes 114–116 uncapped and spills at 96 unless its rows live in local memory
/// ([`MUSCL_STRIP_LOCAL`]; run 118).
pub const NV_MUSCL_STRIP_MAX_REGISTERS: u32 = 96;

/// Register caps of the strip stage on NVIDIA, Euler and shallow water: 96 for both, so that
/// an SM holds 5 groups of 128 ([`NV_STRIP_GROUPS_PER_CU`]).
/// Shallow water took 100 registers uncapped and 94 at 96 without spilling (run 86 on an
/// H200: 142.0 µs per step at 2048² against 162.5 uncapped and 144.2 at 80, spilling 64 B);
/// with its pending row in local memory and its loop unrolled twice it takes 90 (run 104).
/// Euler took 114 uncapped and spilled at 96 (run 86: 163.4 against 128.8 µs at 3072 × 1536)
/// until its pending row moved to local memory; since then it takes 90 uncapped (run 99) and
/// 95 at 96 without spilling (run 100).
pub const NV_STRIP_MAX_REGISTERS: [Option<u32>; 2] = [Some(96), Some(96)];

/// [`defines`] with the stage launch `st` on device `dev` ([`Stage::on`]) and its options
/// ([`NV_SHLL_MAX_REGISTERS`] for the tile, [`NV_STRIP_MAX_REGISTERS`],
/// [`NV_MUSCL_MAX_REGISTERS`]).
pub fn device_defines(p: &Problem, dev: &DeviceInfo, st: &Stage) -> Defines {
    let d = defines(p, st);
    let shll = matches!(p.system, System::Euler { .. } | System::ShallowWater { .. });
    if !(dev.is_nvidia() && p.mesh.dims == 2 && shll) {
        return d;
    }
    let cap = if st.form == StageForm::MusclStrip {
        Some(NV_MUSCL_STRIP_MAX_REGISTERS)
    } else if p.num.muscl {
        Some(NV_MUSCL_MAX_REGISTERS)
    } else if st.form == StageForm::Strip {
        NV_STRIP_MAX_REGISTERS[system_index(p)]
    } else {
        Some(NV_SHLL_MAX_REGISTERS)
    };
    match cap {
        Some(n) => d.option(&format!("-cl-nv-maxrregcount={n}")),
        None => d,
    }
}

/// The assembled kernel source.
pub fn source() -> String {
    super::source::program().assemble()
}

/// f64 values per stored cell on the device: two time levels (+ the RK2 stage) of `nv`
/// variables; and int32 per stored cell (the mask, with walls).
pub fn device_bytes(p: &Problem) -> (u64, u64) {
    let levels = if p.num.muscl { 3 } else { 2 };
    let cells = p.mesh.ns as u64;
    let reals = levels * p.nv() as u64 * cells * 8;
    let ints = if p.solid.is_some() { 4 * cells } else { 0 };
    (reals + ints, p.nv() as u64 * cells * 8)
}

/// Whether `p` can run on `dev` with the stage form `want` ([`Stage::on`]): a valid
/// [`STAGE_ENV`], [`PREFETCH_ENV`] and [`SHAPE_ENV`], FP64, room for its buffers and its
/// stage work-groups.
pub fn check(p: &Problem, dev: &DeviceInfo, want: Option<StageForm>) -> Result<(), DeviceError> {
    let st = Stage::checked(p, is_gpu(dev), want)?;
    require_fp64(dev)?;
    let (total, largest) = device_bytes(p);
    check_capacity(dev, total, largest, st.local_bytes(p), st.lx * st.ly)
}

/// The OpenCL solver of an explicit method.
pub struct OpenCl {
    p: Arc<Problem>,
    rt: Runtime,
    /// Which of `qa` (0), `qb` (1) holds the current state.
    cur: usize,
    step: u64,
    /// `[Δt, t, max rate, max |Δq0|]` of the current state, as on the device.
    clock: [f64; 4],
    global: [usize; 2],
    local: [usize; 2],
    /// The stage kernels' form and shape on this device.
    stage: Stage,
    /// On a rank of a decomposed run (`p` is then its window): the halo exchange and the
    /// reductions over all ranks (`strips.rs`).
    halo: Option<Arc<Halo>>,
    /// On a rank with neighbours: the stage's frame and interior (`bands.rs`).
    split: Option<Arc<Split>>,
    /// Overlap the exchanges with the interior (`strips.rs`).
    overlap: bool,
    /// The strip's free and walled groups as two kernels (with walls: `bands.rs`).
    walled: Option<Arc<WalledLaunch>>,
}

const LEVEL: [&str; 2] = ["qa", "qb"];

impl OpenCl {
    /// Set up `p` on the device `choice` names: buffers, initial state, kernels.
    pub fn new(p: Arc<Problem>, choice: &BackendChoice) -> Result<OpenCl, DeviceError> {
        let dev = select_device(choice.device.as_deref())?;
        check(&p, &dev, choice.stage)?;
        OpenCl::on(p, &dev, choice)
    }

    /// Set up `p` on `dev` (selected and checked by the caller).
    pub fn on(
        p: Arc<Problem>,
        dev: &DeviceInfo,
        choice: &BackendChoice,
    ) -> Result<OpenCl, DeviceError> {
        let st = Stage::on(&p, dev, choice.stage);
        let built = build_cached(
            dev,
            &source(),
            &device_defines(&p, dev, &st),
            choice.log_dir.as_deref(),
            choice.cache.as_ref(),
        )?;
        let mut rt = Runtime::new(built);
        let mut q = p.initial.clone();
        fill_ghosts(&p, &mut q);
        rt.real("qa", &q)?;
        rt.real("qb", &q)?;
        rt.real_zeros("q1", if p.num.muscl { q.len() } else { 0 })?;
        for name in ["part_rate", "part_dq", "part1_rate", "part1_dq"] {
            rt.real_zeros(name, st.groups(&p))?;
        }
        for name in ["part2_rate", "part2_dq"] {
            rt.real_zeros(name, st.groups2(&p))?;
        }
        let mut inflow = [0.0; 16];
        for (s, bc) in p.sides.iter().enumerate() {
            if let Bc::Inflow(st) = bc {
                inflow[4 * s..4 * s + st.len()].copy_from_slice(st);
            }
        }
        rt.real("inflow", &inflow)?;
        let mask: Vec<i32> = match &p.solid {
            Some(m) => m.iter().map(|&x| i32::from(x)).collect(),
            None => vec![0],
        };
        rt.int("mask", &mask)?;
        let walled = bands::walled_launch(&p, &st).map(Arc::new);
        rt.int("walled", &bands::walled_order(&p, &st))?;
        let smax = max_rate(&p, &q);
        let clock = [dt_of(&p, smax, 0.0), 0.0, smax, 0.0];
        rt.real("clock", &clock)?;
        // Kernel instances: stage_fe from each level into the other (first order) or into
        // q1 (RK2 stage 1), stage_rk2 from q1 into the other level, ghosts of every buffer.
        for (c, (from, to)) in [("qa", "qb"), ("qb", "qa")].into_iter().enumerate() {
            rt.bind_as(
                &format!("fe{c}"),
                "stage_fe",
                &[("q_in", from), ("q_out", to)],
            )?;
            rt.bind_as(
                &format!("s1_{c}"),
                "stage_fe",
                &[
                    ("q_in", from),
                    ("q_out", "q1"),
                    ("part_rate", "part1_rate"),
                    ("part_dq", "part1_dq"),
                ],
            )?;
            rt.bind_as(
                &format!("s2_{c}"),
                "stage_rk2",
                &[("q_in", "q1"), ("q0", from), ("q_out", to)],
            )?;
            if walled.is_some() {
                rt.bind_as(
                    &bands::walled_twin(&format!("fe{c}")),
                    "stage_fe_walled",
                    &[("q_in", from), ("q_out", to)],
                )?;
            }
        }
        if st.walled == WalledMode::Beside && walled.is_some() {
            rt.open_side_queue()?;
        }
        if let Some(w) = &walled {
            log::info!(
                "strip with walls: {} walled and {} other work-groups, launched {}",
                w.all[1].len(),
                w.all[0].len(),
                st.walled.name()
            );
        }
        let ghosts = if p.mesh.dims == 2 {
            "ghosts_2d"
        } else {
            "ghosts_x"
        };
        for b in ["qa", "qb", "q1"] {
            rt.bind_as(&format!("g_{b}"), ghosts, &[("q", b)])?;
        }
        rt.bind("reduce")?;
        rt.bind("finish")?;
        log::info!(
            "OpenCL backend on {} ({}): {} MiB of buffers, {} stage, {} work-groups of {} x {} items x {} cells",
            dev.name,
            dev.platform_name,
            rt.bytes() >> 20,
            st.form.name(),
            st.groups(&p),
            st.lx,
            st.ly,
            st.rpi
        );
        Ok(OpenCl {
            global: st.global(&p),
            local: [st.lx, st.ly],
            stage: st,
            p,
            rt,
            cur: 0,
            step: 0,
            clock,
            halo: None,
            split: None,
            overlap: crate::device::overlap_setting()?.unwrap_or(OVERLAP_BY_DEFAULT),
            walled,
        })
    }

    /// The problem (a rank's window on a rank).
    pub fn problem(&self) -> &Problem {
        &self.p
    }

    /// The device.
    pub fn device(&self) -> &DeviceInfo {
        self.rt.program().device()
    }

    /// The runtime (profiling).
    pub fn runtime_mut(&mut self) -> &mut Runtime {
        &mut self.rt
    }

    /// The runtime.
    pub fn runtime(&self) -> &Runtime {
        &self.rt
    }

    /// The stage kernels' form and shape.
    pub fn stage_launch(&self) -> Stage {
        self.stage
    }

    /// Fill the ghosts of state buffer `buf`: one launch, both axes in 2D (`ghosts_2d`).
    fn ghosts(&self, buf: &str) -> Result<(), DeviceError> {
        let m = &self.p.mesh;
        let items = if m.dims == 2 {
            (m.nx + m.ny) * m.ng
        } else {
            m.ny * m.ng
        };
        self.rt.launch(&format!("g_{buf}"), items, None)
    }

    /// One step; on a non-admissible state the step is undone and the bad cell named. On a
    /// rank, the halo of each stage's new state is exchanged before anything reads it, and
    /// the step's maxima are merged over the ranks before they give the next Δt.
    pub fn step(&mut self) -> Result<(), RunError> {
        let c = self.cur;
        let to = LEVEL[1 - c];
        if self.p.num.muscl {
            self.stage(&format!("s1_{c}"), "q1", false)?;
            self.stage(&format!("s2_{c}"), to, true)?;
        } else {
            self.stage(&format!("fe{c}"), to, true)?;
        }
        let mut clock = [0.0; 4];
        self.rt.read("clock", &mut clock)?;
        if self.halo.is_some() {
            clock = self.merged_clock(clock)?;
        }
        if clock[2].is_nan() || clock[3].is_nan() {
            let q = self.read_level(1 - c)?;
            let bad = match &self.halo {
                Some(h) => first_bad_merged(&self.p, h, &q),
                None => first_bad(&self.p, &q),
            };
            let (i, j, field, value) = bad.unwrap_or((-1, -1, "?", clock[2]));
            return Err(RunError::Diverged {
                step: self.step + 1,
                iter: 1,
                field,
                i,
                j,
                value,
            });
        }
        self.clock = clock;
        self.cur = 1 - c;
        self.step += 1;
        Ok(())
    }

    /// Completed steps, time, Δt of the next step, residual of the last step.
    pub fn clock(&self) -> (u64, f64, f64, f64) {
        (self.step, self.clock[1], self.clock[0], self.clock[3])
    }

    /// The whole state of level `l` (0: `qa`, 1: `qb`), stored layout.
    fn read_level(&self, l: usize) -> Result<Vec<f64>, DeviceError> {
        let mut q = vec![0.0; self.p.nv() * self.p.mesh.ns];
        self.rt.read(LEVEL[l], &mut q)?;
        Ok(q)
    }

    /// The current state (`previous`: the state before the last step), stored layout.
    pub fn state(&self, previous: bool) -> Result<Vec<f64>, DeviceError> {
        self.read_level(if previous { 1 - self.cur } else { self.cur })
    }

    /// Replace the state (stored layout, ghosts filled here), step and time. On a rank
    /// (collective): the halo exchanged and the largest rate merged over the ranks.
    pub fn restore(&mut self, mut q: Vec<f64>, step: u64, time: f64) -> Result<(), DeviceError> {
        fill_ghosts(&self.p, &mut q);
        self.rt.write(LEVEL[self.cur], &q)?;
        self.rt.write(LEVEL[1 - self.cur], &q)?;
        self.step = step;
        self.start(max_rate(&self.p, &q), time)
    }

    /// Set the clock of the current state from its largest rate `smax` (this rank's: merged
    /// over the ranks here, after the halo of both levels is filled) at `time`.
    fn start(&mut self, mut smax: f64, time: f64) -> Result<(), DeviceError> {
        if let Some(h) = self.halo.clone() {
            self.exchange(LEVEL[self.cur])?;
            self.exchange(LEVEL[1 - self.cur])?;
            smax = h.reduce_max_at([(smax, 0), (0.0, 0)])[0].0;
        }
        self.clock = [dt_of(&self.p, smax, time), time, smax, 0.0];
        self.rt.write("clock", &self.clock)
    }
}
