//! The OpenCL backend of CE/SE: the integer level stays on the device in two ping-pong
//! buffers (and the half level in a third for the split form); a step queues the half
//! steps (two launches, or one fused), the two reduction kernels and reads back the 4-value
//! clock `[Δt, t, max rate, max |Δρ|]` (one host round trip per step). Bit-identical to
//! [`super::reference`]: the same functions and fragments, FP contraction off, a maximum as
//! the only reduction.

use std::sync::Arc;

use super::reference::{dt_of, first_bad, max_rate};
pub use super::shape::{
    parse_sweep, Sweep, NV_SWEEP_1D, NV_SWEEP_1D_LEAST_GROUPS_PER_CU, NV_SWEEP_GROUPS_PER_CU,
    NV_SWEEP_MAX_REGISTERS, SWEEP, SWEEP_1D_LEAST_GROUPS_PER_CU, SWEEP_ENV, SWEEP_LEAST_WAVES,
    SWEEP_MOST_ROWS,
};
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

/// Environment variable that sets the 2D work-group `LXxLY` of the split kernels for tuning
/// sweeps (the fused kernels take [`SWEEP_ENV`]); any valid shape gives the same bits.
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

/// The work-group (x, y) of the split kernels: 128 × 1 in 1D, 16 × 4 in 2D, or [`TILE_ENV`]
/// where valid (`OpenCl::new` refuses an invalid one). The fused kernels take a [`Sweep`].
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

/// Work-groups (x, y) of the launch that writes the new integer level in `form`: `half_b`
/// (one output point per item), or `sw.w` items for `sw.w` − 2 output columns (`fused_1d`,
/// the sweep of `fused_2d`).
pub fn grid_groups(p: &Problem, form: Form, sw: Sweep) -> (usize, usize) {
    let m = &p.mesh;
    match (form, m.dims) {
        (Form::Fused, 2) => (m.nx.div_ceil(sw.w - 2), m.ny.div_ceil(sw.rows)),
        (Form::Fused, _) => (m.nx.div_ceil((sw.w - 2) * sw.rows), 1),
        (Form::Split, _) => {
            let (lx, ly) = work_group(m.dims);
            (m.nx.div_ceil(lx), m.ny.div_ceil(ly))
        }
    }
}

/// Work-groups of the launch that writes the new level (one partial maximum each).
pub fn groups(p: &Problem, form: Form, sw: Sweep) -> usize {
    let (gx, gy) = grid_groups(p, form, sw);
    gx * gy
}

/// Groups of the first reduction level.
pub fn groups2(p: &Problem, form: Form, sw: Sweep) -> usize {
    groups(p, form, sw).div_ceil(RED).clamp(1, 1024)
}

/// Local memory per work-group of `form`'s output kernel, bytes, and its work-items.
pub fn local_bytes(dims: usize, form: Form, sw: Sweep) -> (usize, usize) {
    let (lx, ly) = work_group(dims);
    let red = |n: usize| 2 * n * 8;
    match (form, dims) {
        (Form::Split, _) => (red(lx * ly), lx * ly),
        // W integer and W − 1 half parents of 9 values (`Parent1`).
        (Form::Fused, 1) => ((2 * sw.w - 1) * 9 * 8 + red(sw.w), sw.w),
        // Two levels of five slots of 4 components (`SW_SLOTS` of cl/cese/step.cl).
        (Form::Fused, _) => (2 * 20 * sw.w * 8 + red(sw.w), sw.w),
    }
}

/// The `-D` defines of `p` (the contract at the top of `cl/cese/step.cl`).
pub fn defines(p: &Problem, form: Form, sw: Sweep) -> Defines {
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
        .int("CFG_NGROUPS", groups(p, form, sw) as i64)
        .int("CFG_NGROUPS2", groups2(p, form, sw) as i64)
        .int("DEV_LX", lx as i64)
        .int("DEV_LY", ly as i64)
        .int("DEV_SW", sw.w as i64)
        .int("DEV_SR", sw.rows as i64)
        .int("DEV_RED", RED as i64)
}

/// [`defines`] with the options of `dev`: on an NVIDIA GPU the 2D sweep's register cap
/// ([`NV_SWEEP_MAX_REGISTERS`]).
pub fn device_defines(p: &Problem, dev: &DeviceInfo, form: Form, sw: Sweep) -> Defines {
    let d = defines(p, form, sw);
    if dev.is_nvidia() && p.mesh.dims == 2 && form == Form::Fused {
        d.option(&format!("-cl-nv-maxrregcount={NV_SWEEP_MAX_REGISTERS}"))
    } else {
        d
    }
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

/// An error naming `var` where it is set to a value `check` refuses.
fn check_env(var: &'static str, check: fn(&str) -> Result<(), String>) -> Result<(), DeviceError> {
    match std::env::var(var) {
        Ok(v) if !v.trim().is_empty() => check(&v).map_err(|reason| DeviceError::BadBuildOption {
            var,
            value: v.clone(),
            reason,
        }),
        _ => Ok(()),
    }
}

/// The OpenCL solver of CE/SE.
pub struct OpenCl {
    p: Arc<Problem>,
    rt: Runtime,
    form: Form,
    /// The fused kernels' shape.
    sweep: Sweep,
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
        if p.mesh.dims == 2 {
            check_env(TILE_ENV, |v| parse_tile(v).map(drop))?;
        }
        check_env(SWEEP_ENV, |v| parse_sweep(v).map(drop))?;
        let dev = select_device(choice.device.as_deref())?;
        require_fp64(&dev)?;
        let form = Form::of(choice.kernel);
        let (total, largest) = device_bytes(&p, form);
        let (local, items) = local_bytes(p.mesh.dims, form, Sweep::on(&p, &dev));
        check_capacity(&dev, total, largest, local as u64, items)?;
        OpenCl::on(p, &dev, choice)
    }

    /// Set up `p` on `dev` (selected and checked by the caller).
    pub fn on(
        p: Arc<Problem>,
        dev: &DeviceInfo,
        choice: &BackendChoice,
    ) -> Result<OpenCl, DeviceError> {
        let form = Form::of(choice.kernel);
        let sweep = Sweep::on(&p, dev);
        let built = build_cached(
            dev,
            &source(),
            &device_defines(&p, dev, form, sweep),
            choice.log_dir.as_deref(),
            choice.cache.as_ref(),
        )?;
        let mut rt = Runtime::new(built);
        rt.real("qa", &p.initial)?;
        rt.real("qb", &p.initial)?;
        rt.real_zeros("h", if form == Form::Split { p.mesh.len() } else { 0 })?;
        let ng = groups(&p, form, sweep);
        rt.real_zeros("part_rate", ng)?;
        rt.real_zeros("part_dq", ng)?;
        rt.real_zeros("part2_rate", groups2(&p, form, sweep))?;
        rt.real_zeros("part2_dq", groups2(&p, form, sweep))?;
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
            "OpenCL backend on {} ({}): CE/SE {} kernels{}, {} MiB of buffers",
            dev.name,
            dev.platform_name,
            form.name(),
            if form == Form::Fused {
                format!(" (sweep {} x {})", sweep.w, sweep.rows)
            } else {
                String::new()
            },
            rt.bytes() >> 20
        );
        Ok(OpenCl {
            p,
            rt,
            form,
            sweep,
            cur: 0,
            step: 0,
            clock,
        })
    }

    /// The kernel form.
    pub fn form(&self) -> Form {
        self.form
    }

    /// The fused kernels' shape (the one the kernels were built with).
    pub fn sweep(&self) -> Sweep {
        self.sweep
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
            Form::Fused => {
                let (gx, gy) = grid_groups(&self.p, Form::Fused, self.sweep);
                let w = self.sweep.w;
                self.rt.launch2(&format!("f{c}"), [gx * w, gy], [w, 1])?;
            }
        }
        self.rt.launch(
            "reduce",
            RED * groups2(&self.p, self.form, self.sweep),
            Some(RED),
        )?;
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

#[cfg(test)]
mod tests {
    use super::*;

    fn problem(nx: usize, ny: usize) -> Problem {
        let sn = if ny > 1 {
            r#","south":{"kind":"outflow"},"north":{"kind":"outflow"}"#
        } else {
            ""
        };
        let json = format!(
            r#"{{"name":"s","method":"cese_euler","grid":{{"nx":{nx},"ny":{ny},"x":[0,1],"y":[0,1]}},
            "boundaries":{{"west":{{"kind":"outflow"}},"east":{{"kind":"outflow"}}{sn}}},
            "initial":{{"state":{{"rho":1,"p":1}}}},"time":{{"cfl":0.5,"steps":1}}}}"#
        );
        match crate::methods::AnyCase::from_json(&json, "<test>").unwrap() {
            crate::methods::AnyCase::CeseEuler(c) => c.problem(),
            _ => unreachable!(),
        }
    }

    /// The rows fitted on an H200 (528 slots of 4 groups): 1024² 3.9 waves of 6 rows (not one
    /// wave of 24), 4096² the cap (10 waves of 32 rows), a small mesh any rows; on 396 slots
    /// (3 groups, 150 or more registers) 1024² 2.9 waves of 8 rows and 4096² 12 waves of 29
    /// (372 passes, against 374 for 32 rows and 396 for 16); 1D and the group counts as the
    /// kernels see them.
    #[test]
    fn fitted_rows_fill_the_device() {
        let at = |n: usize, per_cu: usize| Sweep::fitted_2d(n, n, 132 * per_cu).rows;
        assert_eq!(NV_SWEEP_GROUPS_PER_CU, 4);
        assert_eq!(at(1024, 4), 6);
        assert_eq!(at(256, 4), 2);
        assert_eq!(at(4096, 4), SWEEP_MOST_ROWS);
        assert_eq!(at(1024, 3), 8);
        assert_eq!(at(4096, 3), 29);
        assert!(
            (24..=SWEEP_MOST_ROWS).contains(&at(8192, 4)),
            "{}",
            at(8192, 4)
        );
        let p = problem(1024, 1024);
        let sw = Sweep::fitted(&p, 396);
        assert_eq!(grid_groups(&p, Form::Fused, sw), (9, 128));
        assert_eq!(Sweep::fitted(&problem(300, 1), 396), SWEEP);
        // 1D: a group computes its tiles of 126 outputs one after the other.
        let one = problem(3000, 1);
        assert_eq!(grid_groups(&one, Form::Fused, SWEEP), (2, 1));
        let single = Sweep { rows: 1, ..SWEEP };
        assert_eq!(grid_groups(&one, Form::Fused, single), (24, 1));
    }

    /// On NVIDIA the 2D sweep's program is capped at [`NV_SWEEP_MAX_REGISTERS`] and 1D takes
    /// [`NV_SWEEP_1D`]; the split form, and every form elsewhere, build without a cap.
    #[test]
    fn nvidia_options_and_shapes() {
        let dev = |platform: &str| DeviceInfo {
            platform_name: platform.into(),
            compute_units: 132,
            ..crate::device::select::tests::fake("GPU", "GPU", true)
        };
        let (nv, pocl) = (dev("NVIDIA CUDA"), dev("Portable Computing Language"));
        let (two, one) = (problem(512, 512), problem(1000, 1));
        let opts = |p: &Problem, d: &DeviceInfo, f: Form| {
            device_defines(p, d, f, Sweep::on(p, d)).to_options()
        };
        let cap = format!("-cl-nv-maxrregcount={NV_SWEEP_MAX_REGISTERS}");
        assert!(opts(&two, &nv, Form::Fused).ends_with(&cap));
        for (p, d, f) in [
            (&two, &nv, Form::Split),
            (&one, &nv, Form::Fused),
            (&two, &pocl, Form::Fused),
        ] {
            assert!(!opts(p, d, f).contains("maxrregcount"), "{f:?}");
        }
        assert_eq!(
            Sweep::on(&one, &nv),
            Sweep {
                rows: 1,
                ..NV_SWEEP_1D
            }
        );
        let nv_least = 132 * NV_SWEEP_1D_LEAST_GROUPS_PER_CU;
        assert_eq!(
            Sweep::fitted_1d(NV_SWEEP_1D, 100_000_000, nv_least),
            NV_SWEEP_1D
        );
        // run 127's sizes on 132 compute units: 10⁵ one tile, 10⁶ four, 10⁷ eight.
        let tiles = |nx| Sweep::fitted_1d(NV_SWEEP_1D, nx, nv_least).rows;
        assert_eq!([100_000, 1_000_000, 10_000_000].map(tiles), [1, 4, 8]);
        // Four tiles from 4·62·24·132 points, two below.
        assert_eq!(tiles(4 * 62 * 24 * 132), 4);
        assert_eq!(tiles(4 * 62 * 24 * 132 - 4 * 62), 2);
        // Off NVIDIA 16 tiles, fewer where a compute unit would have no group (1000 points
        // make 8 groups of one tile for 132 units; 10⁵ on 16 units keep 16 tiles, 10⁴ 4).
        assert_eq!(Sweep::on(&one, &pocl), Sweep { rows: 1, ..SWEEP });
        let cpu = |nx| Sweep::fitted_1d(SWEEP, nx, 16 * SWEEP_1D_LEAST_GROUPS_PER_CU).rows;
        assert_eq!([10_000, 100_000].map(cpu), [4, 16]);
        assert_eq!(Sweep::on(&two, &pocl), SWEEP);
    }
}
