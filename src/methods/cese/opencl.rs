//! The OpenCL backend of CE/SE: the integer level stays on the device in two ping-pong
//! buffers (and the half level in a third for the split form); a step queues the half
//! steps (two launches, or one fused), the two reduction kernels and reads back the 4-value
//! clock `[Δt, t, max rate, max |Δρ|]` (one host round trip per step). Bit-identical to
//! [`super::reference`]: the same functions and fragments, FP contraction off, a maximum as
//! the only reduction.

use std::sync::Arc;

use super::reference::{dt_of, first_bad, max_rate};
use super::{Bc, Problem};
use crate::device::{
    build_cached, check_capacity, require_fp64, select_device, Defines, DeviceInfo, Runtime,
};
use crate::error::{DeviceError, RunError};
use crate::methods::explicit::StepRule;
use crate::methods::{BackendChoice, KernelForm};

/// Work-group of the reduction kernels.
const RED: usize = 256;

/// The kernel form: two half-step launches or one fused launch per step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `half_a` then `half_b` (the half level through global memory).
    Split,
    /// `fused_1d` / `fused_2d` (the half level in local memory).
    Fused,
}

impl Form {
    /// The form a backend choice asks for: `--kernel fused` → fused, else split.
    pub fn of(k: KernelForm) -> Form {
        match k {
            KernelForm::Fused => Form::Fused,
            KernelForm::Phase => Form::Split,
        }
    }

    /// `split` or `fused` (manifest, bench).
    pub fn name(self) -> &'static str {
        match self {
            Form::Split => "cese-split",
            Form::Fused => "cese-fused",
        }
    }
}

/// Environment variable that sets the 2D work-group `LXxLY` of the point kernels (the fused
/// tile) for tuning sweeps; any valid shape gives the same bits.
pub const TILE_ENV: &str = "SIMPLETS_CESE_TILE";

/// The 2D shape `LXxLY` of [`TILE_ENV`], or why not (the group reduction needs LX·LY a
/// power of two).
pub fn parse_tile(value: &str) -> Result<(usize, usize), String> {
    let parts = crate::text::x_counts(value)?;
    let [lx, ly] = parts[..] else {
        return Err("expected LXxLY, e.g. 8x8".into());
    };
    let n = lx * ly;
    if lx == 0 || ly == 0 || !n.is_power_of_two() || n > 1024 {
        return Err("LX·LY must be a power of two from 1 to 1024".into());
    }
    Ok((lx, ly))
}

/// The work-group (x, y) of the point kernels: 128 × 1 in 1D; 16 × 4 in 2D (the fused tile:
/// the shares of 18 × 6 integer and 17 × 5 half points, 31 KiB of local memory; the fastest
/// of seven tiles on an H100, 0.208 ns per point-step at 8192², against 0.222 at 8 × 8), or
/// [`TILE_ENV`] where valid (`OpenCl::new` refuses an invalid one).
pub fn work_group(dims: usize) -> (usize, usize) {
    const TILE: (usize, usize) = (16, 4);
    if dims == 2 {
        match std::env::var(TILE_ENV) {
            Ok(v) if !v.trim().is_empty() => parse_tile(&v).unwrap_or(TILE),
            _ => TILE,
        }
    } else {
        (128, 1)
    }
}

/// Groups of `half_b` and the fused kernels (one output point per item).
pub fn groups(p: &Problem) -> usize {
    let (lx, ly) = work_group(p.mesh.dims);
    p.mesh.nx.div_ceil(lx) * p.mesh.ny.div_ceil(ly)
}

/// Groups of the first reduction level.
pub fn groups2(p: &Problem) -> usize {
    groups(p).div_ceil(RED).clamp(1, 1024)
}

/// Values per parent in the fused 2D kernel's local memory (`NSH` of `cl/cese/step.cl`).
pub const SHARES: usize = 20;

/// Integer and half points whose shares the fused 2D kernel holds per work-group.
pub fn fused_tile_points(dims: usize) -> (usize, usize) {
    let (lx, ly) = work_group(dims);
    ((lx + 2) * (ly + 2), (lx + 1) * (ly + 1))
}

/// Local memory of the fused kernel, bytes.
pub fn fused_local_bytes(dims: usize) -> usize {
    let (lx, ly) = work_group(dims);
    let red = 2 * lx * ly * 8;
    if dims == 2 {
        let (n1, n2) = fused_tile_points(dims);
        SHARES * (n1 + n2) * 8 + red
    } else {
        (2 * lx + 3) * 9 * 8 + red
    }
}

/// The `-D` defines of `p` (the contract at the top of `cl/cese/step.cl`).
pub fn defines(p: &Problem) -> Defines {
    let m = &p.mesh;
    let (lx, ly) = work_group(m.dims);
    let (cfl, fixed) = match p.rule {
        StepRule::Cfl(c) => (c, 0),
        StepRule::Fixed(_) => (1.0, 1),
    };
    let c = &p.c;
    Defines::new()
        .int("CFG_NXT", m.sx as i64)
        .int("CFG_NYT", if m.dims == 2 { m.ny as i64 + 1 } else { 1 })
        .int("CFG_NX", m.nx as i64)
        .int("CFG_NY", m.ny as i64)
        .int("CFG_SX", m.sx as i64)
        .int("CFG_NS", m.ns as i64)
        .int("CFG_NV", m.nv as i64)
        .int("CFG_DIM", m.dims as i64)
        .real("CFG_GAMMA", c.gamma)
        .int("CFG_ALPHA", c.alpha as i64)
        .real("CFG_QDX", c.qdx)
        .real("CFG_QDY", c.qdy)
        .real("CFG_RDX", c.rdx)
        .real("CFG_RDY", c.rdy)
        .real("CFG_RDX2", c.rdx2)
        .real("CFG_H", c.h)
        .real("CFG_CFL", cfl)
        .real("CFG_T_END", p.t_end)
        .int("CFG_FIXED_DT", fixed)
        .int("CFG_WEST", p.sides[0].id())
        .int("CFG_EAST", p.sides[1].id())
        .int("CFG_SOUTH", p.sides[2].id())
        .int("CFG_NORTH", p.sides[3].id())
        .int("CFG_NGROUPS", groups(p) as i64)
        .int("CFG_NGROUPS2", groups2(p) as i64)
        .int("DEV_LX", lx as i64)
        .int("DEV_LY", ly as i64)
        .int("DEV_RED", RED as i64)
}

/// The assembled kernel source.
pub fn source() -> String {
    super::source::program().assemble()
}

/// Device bytes: the two integer levels and (split) the half level; and the largest buffer.
pub fn device_bytes(p: &Problem, form: Form) -> (u64, u64) {
    let level = 8 * p.mesh.len() as u64;
    let n = if form == Form::Split { 3 } else { 2 };
    (n * level, level)
}

/// The OpenCL solver of CE/SE.
pub struct OpenCl {
    p: Arc<Problem>,
    rt: Runtime,
    form: Form,
    /// Which of `qa` (0), `qb` (1) holds the current level.
    cur: usize,
    step: u64,
    /// `[Δt, t, max rate, max |Δρ|]` of the current level, as on the device.
    clock: [f64; 4],
}

const LEVEL: [&str; 2] = ["qa", "qb"];

impl OpenCl {
    /// Set up `p` on the device `choice` names.
    pub fn new(p: Arc<Problem>, choice: &BackendChoice) -> Result<OpenCl, DeviceError> {
        if let Ok(v) = std::env::var(TILE_ENV) {
            if p.mesh.dims == 2 && !v.trim().is_empty() {
                parse_tile(&v).map_err(|reason| DeviceError::BadBuildOption {
                    var: TILE_ENV,
                    value: v.clone(),
                    reason,
                })?;
            }
        }
        let dev = select_device(choice.device.as_deref())?;
        require_fp64(&dev)?;
        let form = Form::of(choice.kernel);
        let (total, largest) = device_bytes(&p, form);
        let (lx, ly) = work_group(p.mesh.dims);
        let local = if form == Form::Fused {
            fused_local_bytes(p.mesh.dims)
        } else {
            2 * lx * ly * 8
        };
        check_capacity(&dev, total, largest, local as u64, lx * ly)?;
        OpenCl::on(p, &dev, choice)
    }

    /// Set up `p` on `dev` (selected and checked by the caller).
    pub fn on(
        p: Arc<Problem>,
        dev: &DeviceInfo,
        choice: &BackendChoice,
    ) -> Result<OpenCl, DeviceError> {
        let form = Form::of(choice.kernel);
        let built = build_cached(
            dev,
            &source(),
            &defines(&p),
            choice.log_dir.as_deref(),
            choice.cache.as_ref(),
        )?;
        let mut rt = Runtime::new(built);
        rt.real("qa", &p.initial)?;
        rt.real("qb", &p.initial)?;
        rt.real_zeros("h", if form == Form::Split { p.mesh.len() } else { 0 })?;
        let ng = groups(&p);
        rt.real_zeros("part_rate", ng)?;
        rt.real_zeros("part_dq", ng)?;
        rt.real_zeros("part2_rate", groups2(&p))?;
        rt.real_zeros("part2_dq", groups2(&p))?;
        let mut inflow = [0.0; 16];
        for (s, bc) in p.sides.iter().enumerate() {
            if let Bc::Inflow(st) = bc {
                inflow[4 * s..4 * s + 4].copy_from_slice(st);
            }
        }
        rt.real("inflow", &inflow)?;
        let smax = max_rate(&p, &p.initial);
        let clock = [dt_of(&p, smax, 0.0), 0.0, smax, 0.0];
        rt.real("clock", &clock)?;
        let fused = if p.mesh.dims == 2 {
            "fused_2d"
        } else {
            "fused_1d"
        };
        for (c, (from, to)) in [("qa", "qb"), ("qb", "qa")].into_iter().enumerate() {
            match form {
                Form::Split => {
                    rt.bind_as(&format!("a{c}"), "half_a", &[("q", from)])?;
                    rt.bind_as(
                        &format!("b{c}"),
                        "half_b",
                        &[("q_old", from), ("q_out", to)],
                    )?;
                }
                Form::Fused => {
                    rt.bind_as(&format!("f{c}"), fused, &[("q_old", from), ("q_out", to)])?;
                }
            }
        }
        rt.bind("reduce")?;
        rt.bind("finish")?;
        log::info!(
            "OpenCL backend on {} ({}): CE/SE {} kernels, {} MiB of buffers",
            dev.name,
            dev.platform_name,
            form.name(),
            rt.bytes() >> 20
        );
        Ok(OpenCl {
            p,
            rt,
            form,
            cur: 0,
            step: 0,
            clock,
        })
    }

    /// The kernel form.
    pub fn form(&self) -> Form {
        self.form
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

    fn range(&self, n: [usize; 2]) -> [usize; 2] {
        let (lx, ly) = work_group(self.p.mesh.dims);
        [n[0].div_ceil(lx) * lx, n[1].div_ceil(ly) * ly]
    }

    /// One step; on a non-admissible new state the step is undone and the point named.
    pub fn step(&mut self) -> Result<(), RunError> {
        let m = self.p.mesh;
        let c = self.cur;
        let (lx, ly) = work_group(m.dims);
        let out = self.range([m.nx, m.ny]);
        match self.form {
            Form::Split => {
                let half = if m.dims == 2 {
                    [m.nx + 1, m.ny + 1]
                } else {
                    [m.nx + 1, 1]
                };
                self.rt
                    .launch2(&format!("a{c}"), self.range(half), [lx, ly])?;
                self.rt.launch2(&format!("b{c}"), out, [lx, ly])?;
            }
            Form::Fused => self.rt.launch2(&format!("f{c}"), out, [lx, ly])?,
        }
        self.rt
            .launch("reduce", RED * groups2(&self.p), Some(RED))?;
        self.rt.launch("finish", RED, Some(RED))?;
        let mut clock = [0.0; 4];
        self.rt.read("clock", &mut clock)?;
        if clock[2].is_nan() || clock[3].is_nan() {
            let q = self.read_level(1 - c)?;
            let (i, j, field, value) = first_bad(&self.p, &q).unwrap_or((-1, -1, "?", clock[2]));
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

    fn read_level(&self, l: usize) -> Result<Vec<f64>, DeviceError> {
        let mut q = vec![0.0; self.p.mesh.len()];
        self.rt.read(LEVEL[l], &mut q)?;
        Ok(q)
    }

    /// The current integer level (`previous`: the one before the last step).
    pub fn state(&self, previous: bool) -> Result<Vec<f64>, DeviceError> {
        self.read_level(if previous { 1 - self.cur } else { self.cur })
    }

    /// Replace the state (the integer level), step and time.
    pub fn restore(&mut self, q: Vec<f64>, step: u64, time: f64) -> Result<(), DeviceError> {
        self.rt.write(LEVEL[self.cur], &q)?;
        self.rt.write(LEVEL[1 - self.cur], &q)?;
        let smax = max_rate(&self.p, &q);
        self.clock = [dt_of(&self.p, smax, time), time, smax, 0.0];
        self.rt.write("clock", &self.clock)?;
        self.step = step;
        Ok(())
    }
}
