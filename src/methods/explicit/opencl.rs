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
mod strips;

pub use crate::device::OVERLAP_ENV;

/// Whether the explicit methods' OpenCL ranks overlap their exchanges unless
/// [`OVERLAP_ENV`] says: no (two ranks sharing one GPU ran 9–26 % slower overlapped, run 56).
pub const OVERLAP_BY_DEFAULT: bool = false;
pub use bands::{split, Part, Split};

use std::sync::Arc;

use super::reference::{dt_of, fill_ghosts, first_bad, first_bad_merged, max_rate};
use super::{Bc, Flux, Limiter, Problem, StepRule, System};
use crate::decomp::Halo;
use crate::device::{
    build_cached, check_capacity, require_fp64, select_device, Defines, DeviceInfo, Runtime,
};
use crate::error::{DeviceError, RunError};
use crate::methods::BackendChoice;

/// Work-group of the finish kernel (`DEV_RED`).
const RED: usize = 256;

/// Environment variable overriding the stage shape for tuning sweeps: `LXxLYxRPI`, e.g.
/// `64x4x4` (LX·LY a power of two, at most 1024; LY = 1 in 1D and in the strip form, whose
/// LX is at least 4). It becomes `DEV_LX`, `DEV_LY` and `DEV_RPI`, so it is part of the
/// kernel cache key and of the recorded build options; results do not depend on it (every
/// cell's update is the same function).
pub const SHAPE_ENV: &str = "SIMPLETS_EXPLICIT_SHAPE";

/// Environment variable choosing the form of the 2D first-order SHLL stages (Euler and
/// shallow water) for comparisons: `strip` (the default) or `tile` ([`StageForm`]). Every
/// form gives the same bits.
pub const STAGE_ENV: &str = "SIMPLETS_EXPLICIT_STAGE";

/// Environment variable for comparisons: `0` makes the strip stage read each row when it
/// comes to it instead of one row ahead (`DEV_PREFETCH`; the default is `1`). The same bits.
pub const PREFETCH_ENV: &str = "SIMPLETS_STRIP_PREFETCH";

/// Whether the strip stage reads each row one row ahead ([`PREFETCH_ENV`]), or why the
/// variable's value is refused.
pub fn prefetch_setting() -> Result<bool, DeviceError> {
    match std::env::var(PREFETCH_ENV) {
        Ok(v) => match v.trim() {
            "" | "1" => Ok(true),
            "0" => Ok(false),
            _ => Err(DeviceError::BadBuildOption {
                var: PREFETCH_ENV,
                value: v.clone(),
                reason: "expected 0 or 1".into(),
            }),
        },
        Err(_) => Ok(true),
    }
}

/// The form of a problem's stage kernels (`DEV_TILE` of `cl/explicit/step.cl`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageForm {
    /// Every face flux from the two states (1D, MUSCL, convection, convection–diffusion).
    Plain,
    /// A work-group's tile of cells and its halo: the primitives (and with SHLL the critical
    /// numbers) of each once, into local memory; each face from them (2D first-order Euler
    /// and shallow water with HLL or Rusanov, or SHLL when [`STAGE_ENV`] says `tile`).
    Tile,
    /// SHLL's split fluxes of each cell once, a work-group of one row sweeping a strip of
    /// rows, each face the sum of two halves (2D first-order SHLL, Euler and shallow water).
    Strip,
}

impl StageForm {
    /// Its `DEV_TILE` value.
    pub fn id(self) -> i64 {
        match self {
            StageForm::Plain => 0,
            StageForm::Tile => 1,
            StageForm::Strip => 2,
        }
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            StageForm::Plain => "plain",
            StageForm::Tile => "tile",
            StageForm::Strip => "strip",
        }
    }
}

/// The form [`STAGE_ENV`] asks for: `Ok(None)` when unset or empty, an error naming the
/// variable for another value.
pub fn stage_setting() -> Result<Option<StageForm>, DeviceError> {
    match std::env::var(STAGE_ENV) {
        Ok(v) => match v.trim() {
            "" => Ok(None),
            "strip" => Ok(Some(StageForm::Strip)),
            "tile" => Ok(Some(StageForm::Tile)),
            _ => Err(DeviceError::BadBuildOption {
                var: STAGE_ENV,
                value: v.clone(),
                reason: "expected `strip` or `tile`".into(),
            }),
        },
        Err(_) => Ok(None),
    }
}

/// The stage form of `p`: the strip for 2D first-order SHLL on Euler and shallow water
/// (unless [`STAGE_ENV`] says `tile`), the tile for the same systems with HLL or Rusanov,
/// plain otherwise. The strip computes each cell's split fluxes once, where the tile
/// computed each face from the tile's primitives (13 face evaluations per 4 cells, each
/// reading both states).
pub fn stage_form(p: &Problem) -> StageForm {
    let first_order_2d = p.mesh.dims == 2
        && !p.num.muscl
        && matches!(p.system, System::Euler { .. } | System::ShallowWater { .. });
    if !first_order_2d {
        return StageForm::Plain;
    }
    let asked = stage_setting().ok().flatten();
    if matches!(p.num.flux, Flux::Shll) && asked != Some(StageForm::Tile) {
        StageForm::Strip
    } else {
        StageForm::Tile
    }
}

/// The shape `LXxLYxRPI` of [`SHAPE_ENV`] for the stage `form` of a mesh of `dims`
/// dimensions, or why not.
pub fn parse_shape(
    value: &str,
    dims: usize,
    form: StageForm,
) -> Result<(usize, usize, usize), String> {
    let parts: Vec<usize> = value
        .trim()
        .split('x')
        .map(|t| {
            t.parse::<usize>()
                .map_err(|_| format!("`{t}` is not a count"))
        })
        .collect::<Result<_, _>>()?;
    let [lx, ly, rpi] = parts[..] else {
        return Err("expected LXxLYxRPI, e.g. 64x4x4".into());
    };
    let n = lx * ly;
    if lx == 0 || ly == 0 || rpi == 0 || !n.is_power_of_two() || n > 1024 {
        return Err("LX·LY must be a power of two from 1 to 1024, RPI at least 1".into());
    }
    if dims == 1 && ly != 1 {
        return Err("a 1D mesh takes LY = 1".into());
    }
    if form == StageForm::Strip && (ly != 1 || lx < 4) {
        return Err(format!(
            "the strip stage takes LY = 1 and LX of at least 4 (e.g. 128x1x16; {STAGE_ENV}=tile for tiles)"
        ));
    }
    Ok((lx, ly, rpi))
}

/// Stage shape (DEV_LX, DEV_LY, DEV_RPI) of `p`. The strip: rows of 128 items, each sweeping
/// 16 rows. Otherwise work-groups of 32 × 4 items in 2D (rows of 32 cells: coalesced, with a
/// tile that reuses the y-neighbours in cache), 256 × 1 in 1D, each item updating 4 cells
/// (the group reduction of the rate and the residual is then paid once per 4 cells); 32 × 4
/// × 4 was the fastest of 13 shapes on an H100 for both first-order systems in the tile form
/// (device run 34: Euler's stage 514 → 439 µs against 64 × 4 × 4 at 3072 × 1536).
/// [`SHAPE_ENV`] overrides it where valid (`OpenCl::new` refuses an invalid one).
pub fn shape(p: &Problem) -> (usize, usize, usize) {
    let dims = p.mesh.dims;
    let form = stage_form(p);
    let default = match form {
        StageForm::Strip => STRIP_SHAPE,
        _ if dims == 2 => (32, 4, 4),
        _ => (256, 1, 4),
    };
    match std::env::var(SHAPE_ENV) {
        Ok(v) if !v.trim().is_empty() => parse_shape(&v, dims, form).unwrap_or(default),
        _ => default,
    }
}

/// The strip form's default shape (LX, 1, RPI).
pub const STRIP_SHAPE: (usize, usize, usize) = (128, 1, 16);

/// Stage work-group (x, y) of `p` ([`shape`]).
pub fn work_group(p: &Problem) -> (usize, usize) {
    let (lx, ly, _) = shape(p);
    (lx, ly)
}

/// Cells each stage work-item updates (`DEV_RPI`, [`shape`]): a column of them in 2D (the
/// strip's rows), strided cells in 1D.
pub fn rpi(p: &Problem) -> usize {
    shape(p).2
}

/// The computed cells of one stage work-group along x and y in 2D: LX × LY·RPI, or for the
/// strip LX − 2 × RPI (its first and last items hold halo columns).
pub fn group_cells(p: &Problem) -> (usize, usize) {
    let (lx, ly, rpi) = shape(p);
    if stage_form(p) == StageForm::Strip {
        (lx - 2, rpi)
    } else {
        (lx, ly * rpi)
    }
}

/// The stage kernels' global size (x, y) of `p`: every computed cell covered ([`shape`],
/// [`group_cells`]; strided cells in 1D).
pub fn global(p: &Problem) -> [usize; 2] {
    let (lx, ly, rpi) = shape(p);
    let m = &p.mesh;
    if m.dims == 2 {
        let (cx, cy) = group_cells(p);
        [m.nx.div_ceil(cx) * lx, m.ny.div_ceil(cy) * ly]
    } else {
        [m.nx.div_ceil(lx * rpi) * lx, 1]
    }
}

/// Whether the stage kernels of `p` read a tile of primitives from local memory
/// ([`StageForm::Tile`]). On an H100 (device runs 31, 41): Euler's stage 640 → 508 µs per
/// step at 3072 × 1536 with the primitives, 402 → 298 µs with χ as well; shallow water,
/// untiled before because the primitives alone did not pay (407 → 469 µs), 387 → 289 µs at
/// 2048² with χ.
pub fn tiled(p: &Problem) -> bool {
    stage_form(p) == StageForm::Tile
}

/// Local memory of a stage work-group in bytes: the two reduction arrays; with the tile the
/// 4 primitives (and with the SHLL flux the 2 critical numbers) of its (DEV_LX + 2) ×
/// (DEV_LY·RPI + 2) cells (`TILE_VALS` of `cl/explicit/step.cl`); with the strip two row
/// buffers of F±_x (8 reals per item) and of the solid flags (`STRIP_XS`).
pub fn stage_local_bytes(p: &Problem) -> u64 {
    let (lx, ly, rpi) = shape(p);
    let bytes = match stage_form(p) {
        StageForm::Strip => 8 * (2 * lx + 2 * 8 * lx) + 4 * 2 * lx,
        StageForm::Tile => {
            let vals = if matches!(p.num.flux, Flux::Shll) {
                6
            } else {
                4
            };
            8 * (2 * lx * ly + vals * (lx + 2) * (ly * rpi + 2))
        }
        StageForm::Plain => 8 * (2 * lx * ly + 4),
    };
    bytes as u64
}

/// Stage work-groups of `p`.
pub fn groups(p: &Problem) -> usize {
    let (lx, ly) = work_group(p);
    let g = global(p);
    (g[0] / lx) * (g[1] / ly)
}

/// Stage partial maxima up to which `finish` reads them itself, with no `reduce` launch
/// before it: 16 per item of its one work-group.
pub const DIRECT_MAX: usize = 16 * RED;

/// Groups of the first reduction level, `reduce`; `None` when the stage has at most
/// [`DIRECT_MAX`] groups and `finish` reads their maxima directly (one launch less per step:
/// a maximum is exact, so the bits are the same).
pub fn reduce_groups(p: &Problem) -> Option<usize> {
    let g = groups(p);
    (g > DIRECT_MAX).then(|| g.div_ceil(RED).clamp(1, 1024))
}

/// The partial maxima `finish` reads (`CFG_NGROUPS2`): those of `reduce`, or of the stage.
pub fn groups2(p: &Problem) -> usize {
    reduce_groups(p).unwrap_or_else(|| groups(p))
}

/// The `-D` defines of `p` (see the contract in `cl/explicit/step.cl`).
pub fn defines(p: &Problem) -> Defines {
    let m = &p.mesh;
    let (lx, ly) = work_group(p);
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
        .real("CFG_DX", m.dx)
        .real("CFG_DY", m.dy)
        .real("CFG_CFL", cfl)
        .real("CFG_T_END", p.t_end)
        .int("CFG_FIXED_DT", fixed)
        .int("CFG_NGROUPS", groups(p) as i64)
        .int("CFG_NGROUPS2", groups2(p) as i64)
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
        .int("DEV_RPI", rpi(p) as i64)
        .int("DEV_TILE", stage_form(p).id())
        .int(
            "DEV_PREFETCH",
            i64::from(prefetch_setting().unwrap_or(true)),
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

/// Register cap of the strip stage on NVIDIA (provisional until measured on a GPU).
pub const NV_STRIP_MAX_REGISTERS: u32 = 80;

/// [`defines`] with the options of device `dev` ([`NV_SHLL_MAX_REGISTERS`] for the tile,
/// [`NV_STRIP_MAX_REGISTERS`], [`NV_MUSCL_MAX_REGISTERS`]).
pub fn device_defines(p: &Problem, dev: &DeviceInfo) -> Defines {
    let d = defines(p);
    let shll = matches!(p.system, System::Euler { .. } | System::ShallowWater { .. });
    if !(dev.platform_name.contains("NVIDIA") && p.mesh.dims == 2 && shll) {
        return d;
    }
    let cap = if p.num.muscl {
        NV_MUSCL_MAX_REGISTERS
    } else if stage_form(p) == StageForm::Strip {
        NV_STRIP_MAX_REGISTERS
    } else {
        NV_SHLL_MAX_REGISTERS
    };
    d.option(&format!("-cl-nv-maxrregcount={cap}"))
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

/// Whether `p` can run on `dev`: a valid [`STAGE_ENV`], [`PREFETCH_ENV`] and [`SHAPE_ENV`], FP64, room for its buffers and its
/// stage work-groups.
pub fn check(p: &Problem, dev: &DeviceInfo) -> Result<(), DeviceError> {
    stage_setting()?;
    prefetch_setting()?;
    if let Ok(v) = std::env::var(SHAPE_ENV) {
        if !v.trim().is_empty() {
            parse_shape(&v, p.mesh.dims, stage_form(p)).map_err(|reason| {
                DeviceError::BadBuildOption {
                    var: SHAPE_ENV,
                    value: v.clone(),
                    reason,
                }
            })?;
        }
    }
    require_fp64(dev)?;
    let (total, largest) = device_bytes(p);
    let (lx, ly) = work_group(p);
    check_capacity(dev, total, largest, stage_local_bytes(p), lx * ly)
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
    /// On a rank of a decomposed run (`p` is then its window): the halo exchange and the
    /// reductions over all ranks (`strips.rs`).
    halo: Option<Arc<Halo>>,
    /// On a rank with neighbours: the stage's frame and interior (`bands.rs`).
    split: Option<Arc<Split>>,
    /// Overlap the exchanges with the interior (`strips.rs`).
    overlap: bool,
}

const LEVEL: [&str; 2] = ["qa", "qb"];

impl OpenCl {
    /// Set up `p` on the device `choice` names: buffers, initial state, kernels.
    pub fn new(p: Arc<Problem>, choice: &BackendChoice) -> Result<OpenCl, DeviceError> {
        let dev = select_device(choice.device.as_deref())?;
        check(&p, &dev)?;
        OpenCl::on(p, &dev, choice)
    }

    /// Set up `p` on `dev` (selected and checked by the caller).
    pub fn on(
        p: Arc<Problem>,
        dev: &DeviceInfo,
        choice: &BackendChoice,
    ) -> Result<OpenCl, DeviceError> {
        let built = build_cached(
            dev,
            &source(),
            &device_defines(&p, dev),
            choice.log_dir.as_deref(),
            choice.cache.as_ref(),
        )?;
        let mut rt = Runtime::new(built);
        let mut q = p.initial.clone();
        fill_ghosts(&p, &mut q);
        rt.real("qa", &q)?;
        rt.real("qb", &q)?;
        rt.real_zeros("q1", if p.num.muscl { q.len() } else { 0 })?;
        let ng = groups(&p);
        for name in ["part_rate", "part_dq", "part1_rate", "part1_dq"] {
            rt.real_zeros(name, ng)?;
        }
        for name in ["part2_rate", "part2_dq"] {
            rt.real_zeros(name, reduce_groups(&p).unwrap_or(1))?;
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
        if reduce_groups(&p).is_some() {
            rt.bind("finish")?;
        } else {
            // The step's last stage writes part_rate, part_dq: `finish` reads them directly.
            rt.bind_as(
                "finish",
                "finish",
                &[("part2_rate", "part_rate"), ("part2_dq", "part_dq")],
            )?;
        }
        let (lx, ly) = work_group(&p);
        log::info!(
            "OpenCL backend on {} ({}): {} MiB of buffers",
            dev.name,
            dev.platform_name,
            rt.bytes() >> 20
        );
        Ok(OpenCl {
            global: global(&p),
            local: [lx, ly],
            p,
            rt,
            cur: 0,
            step: 0,
            clock,
            halo: None,
            split: None,
            overlap: crate::device::overlap_setting()?.unwrap_or(OVERLAP_BY_DEFAULT),
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
