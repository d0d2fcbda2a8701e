//! The launch of the explicit stage kernels ([`Stage`]): their form (`DEV_TILE` of
//! `cl/explicit/step.cl`), the work-group shape, the grid of work-groups and their local
//! memory, and the tuning knobs that override them (every choice gives the same bits).
//!
//! The form depends on the kind of device: the strip stage (a work-group of one row with a
//! barrier per row) is the fastest form of the 2D first-order SHLL stages on a GPU (runs 87
//! and 89 on an H200: Euler 188 → 122 µs per step at 3072 × 1536, shallow water 183 → 139 µs
//! at 2048²), and half as fast as the tile on PoCL's CPU device (10.2 against 4.7 ms at 512 ×
//! 256), which runs a work-group's items one after another between barriers. The MUSCL strip
//! does for MUSCL what the strip does for first order, on a GPU only as well (run 119 on an
//! H200: Euler 695 → 445 µs per step at 3072 × 1536, shallow water 431 → 355 at 2048²).

use super::settings::{
    all_walled_setting, parse_shape, prefetch_setting, shape_var, stage_setting,
    walled_launch_setting, SHAPE_ENV,
};
use super::walls::WalledMode;
use crate::device::DeviceInfo;
use crate::error::DeviceError;
use crate::methods::explicit::{Flux, Problem, System};

/// Work-group of the reduction kernels (`DEV_RED`).
pub const RED: usize = 256;

/// The strip form's default shape (LX, 1, RPI): rows of 128 items sweeping 16 rows, the
/// fastest of ten shapes from 32 to 256 items and 8 to 64 rows for both systems (run 86).
pub const STRIP_SHAPE: (usize, usize, usize) = (128, 1, 16);

/// Work-groups of the strip's 128 items that one NVIDIA compute unit (an SM, 64 K registers)
/// runs at once: 5, as both systems' strips take at most 96 registers
/// ([`NV_STRIP_MAX_REGISTERS`](super::NV_STRIP_MAX_REGISTERS); 5 × 128 × 96 ≤ 64 K; the local
/// memory of 5 groups, 97–133 KiB, fits the SM's 228), and so do the MUSCL strips
/// ([`NV_MUSCL_STRIP_MAX_REGISTERS`](super::NV_MUSCL_STRIP_MAX_REGISTERS); 5 groups of 35–43
/// KiB). [`Stage::on`] fits the strip's rows to
/// the groups the device runs at once ([`fit_rows`]).
pub const NV_STRIP_GROUPS_PER_CU: usize = 5;

/// The strip keeps [`STRIP_SHAPE`]'s rows where they make at least this many waves of groups:
/// there the last wave's idle slots are a small part of the launch, and fitted strips did not
/// pay (run 99 on an H200: Euler at 6144 × 3072, 16 rows in 14 waves 405 µs per stage, fitted
/// rows in 2.4 waves 417 µs).
pub const STRIP_KEEP_WAVES: usize = 4;

/// How many times the strip's row loop is unrolled (`DEV_UNROLL`), Euler and shallow water:
/// twice for both (run 88 on an H200, each item's own F±_x in registers: Euler 127.2/126.1 →
/// 123.8/122.7 µs per step at 3072 × 1536 unrolled twice). Shallow water, with its pending row
/// in registers and at its cap of 96, was slower unrolled (run 88: 139.4/139.2 →
/// 149.9/149.4 µs at 2048²); with the pending row in local memory it takes 90 registers
/// unrolled, no spills, and is faster (run 104, paired twice: without the dam 85.0–85.2 →
/// 82.9 µs at 2048², the dam 100.4–100.5 → 99.2, at 4096² 318.3–319.8 → 313.6–314.0).
pub const STRIP_UNROLL: [usize; 2] = [2, 2];

/// Whether the strip keeps its pending row (the half-updated state and the south face flux,
/// 8 reals per item) in local memory instead of registers (`DEV_LOCAL_PENDING`), Euler and
/// shallow water: both (run 96 on an H200, paired twice: Euler 120.5 → 115.2–115.5 µs per
/// step at 3072 × 1536, fewer registers for the rest). For shallow water alone it was
/// neutral (run 104: 85.0–85.2 against 84.9–85.1 µs without the dam at 2048²; run 96 before
/// the fitted rows: 107.4–107.6 → 108.9–109.4 with the dam), but it frees the registers its
/// loop needs to be unrolled ([`STRIP_UNROLL`]).
pub const STRIP_LOCAL_PENDING: [bool; 2] = [true, true];

/// Whether the MUSCL strip keeps the rows R − 1 and R − 2 (8 reals per item) in local memory
/// and sends its x half fluxes straight into the next pass's row buffer instead of carrying
/// them in registers (`DEV_MSTRIP_LOCAL`), Euler and shallow water. Run 118 on an H200 (MUSCL
/// with SSP-RK2; `stage_fe` and `stage_rk2` together, µs per step): Euler takes 102
/// registers instead of 114–116, and 94–96 without spilling at a cap of 96, where 5 groups
/// fit an SM: 462.6 at 3072 × 1536 against 486–488 in registers at a cap of 128 (4 groups;
/// at 96 they spill and take 788). Shallow water, which fits 96 registers either way, was
/// 2–4 % slower with it (2048²: 366.2–367.5 against 355.6–355.8; 4096²: 1393.6–1399.4
/// against 1352.3–1352.6).
pub const MUSCL_STRIP_LOCAL: [bool; 2] = [true, false];

/// The form of a problem's stage kernels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StageForm {
    /// Every face flux from the two states (1D, MUSCL, convection, convection–diffusion).
    Plain,
    /// A work-group's tile of cells and its halo: the primitives (and with SHLL the critical
    /// numbers) of each once, into local memory; each face from them (2D first-order Euler
    /// and shallow water off a GPU, or with HLL or Rusanov).
    Tile,
    /// SHLL's split fluxes of each cell once, a work-group of one row sweeping a strip of
    /// rows, each face the sum of two halves (2D first-order SHLL, Euler and shallow water,
    /// on a GPU).
    Strip,
    /// The strip for MUSCL: each cell's two slopes, four face states and their half fluxes
    /// once, a work-group of one row with two halo items at each end (2D MUSCL with SHLL,
    /// Euler and shallow water without walls, on a GPU; `cl/explicit/muscl_strip.cl`).
    MusclStrip,
}

impl StageForm {
    /// Its `DEV_TILE` value.
    pub fn id(self) -> i64 {
        match self {
            StageForm::Plain => 0,
            StageForm::Tile => 1,
            StageForm::Strip => 2,
            StageForm::MusclStrip => 3,
        }
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            StageForm::Plain => "plain",
            StageForm::Tile => "tile",
            StageForm::Strip => "strip",
            StageForm::MusclStrip => "muscl-strip",
        }
    }
}

/// Whether the stages run on a GPU (the strip's device kind).
pub fn is_gpu(dev: &DeviceInfo) -> bool {
    dev.device_type == "GPU"
}

/// The launch of a problem's stage kernels: form and shape (`DEV_LX`, `DEV_LY`, `DEV_RPI`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stage {
    /// The form.
    pub form: StageForm,
    /// Work-items of a group along x.
    pub lx: usize,
    /// Work-items of a group along y.
    pub ly: usize,
    /// Cells each item updates: a column of them in 2D (the strip's rows), strided cells in
    /// 1D.
    pub rpi: usize,
    /// How the strip with walls launches its walled and free groups (unused otherwise).
    pub walled: WalledMode,
}

impl Stage {
    /// The stage of `p` on a GPU (`gpu`) or another device. The form: the strip for 2D
    /// first-order SHLL on Euler and shallow water on a GPU, the tile for the same systems
    /// elsewhere or with HLL or Rusanov; the MUSCL strip for 2D MUSCL with SHLL on those
    /// systems without walls on a GPU; plain otherwise. Where a strip applies, `want` (a
    /// caller's choice, `BackendChoice::stage`) or else [`STAGE_ENV`](super::STAGE_ENV) chooses between it and
    /// the tile (plain for MUSCL). The strip computes each cell's split fluxes once, where the
    /// tile computes each face from the tile's primitives (13 face evaluations per 4 cells,
    /// each reading both states). The shape: [`STRIP_SHAPE`] for both strips; otherwise
    /// work-groups of 32 × 4 items in 2D (rows of 32 cells: coalesced, with a tile that
    /// reuses the y-neighbours in cache), 256 × 1 in 1D, each item updating 4 cells (the
    /// group reduction of the rate and the residual is then paid once per 4 cells; 32 × 4 × 4
    /// was the fastest of 13 shapes on an H100 for both first-order systems in the tile form,
    /// device run 34: Euler's stage 514 → 439 µs against 64 × 4 × 4 at 3072 × 1536).
    /// [`SHAPE_ENV`] overrides the shape where valid (`OpenCl::new` refuses an invalid one).
    pub fn new(p: &Problem, gpu: bool, want: Option<StageForm>) -> Stage {
        let dims = p.mesh.dims;
        let shll_2d =
            dims == 2 && matches!(p.system, System::Euler { .. } | System::ShallowWater { .. });
        let shll = matches!(p.num.flux, Flux::Shll);
        // The caller's choice, else the environment's, else the device's: a strip on a GPU.
        let choice = || match want
            .filter(|f| *f != StageForm::Plain)
            .or(stage_setting().ok().flatten())
        {
            Some(f) => f != StageForm::Tile,
            None => gpu,
        };
        let form = if !shll_2d {
            StageForm::Plain
        } else if p.num.muscl {
            if shll && p.solid.is_none() && choice() {
                StageForm::MusclStrip
            } else {
                StageForm::Plain
            }
        } else if !shll {
            StageForm::Tile
        } else if choice() {
            StageForm::Strip
        } else {
            StageForm::Tile
        };
        let default = match form {
            StageForm::Strip | StageForm::MusclStrip => STRIP_SHAPE,
            _ if dims == 2 => (32, 4, 4),
            _ => (256, 1, 4),
        };
        let (lx, ly, rpi) = match shape_var() {
            Some(v) => parse_shape(&v, dims, form).unwrap_or(default),
            None => default,
        };
        let walled = walled_launch_setting()
            .ok()
            .flatten()
            .unwrap_or(WalledMode::Mixed);
        Stage {
            form,
            lx,
            ly,
            rpi,
            walled,
        }
    }

    /// [`Stage::new`], or the one-line refusal of a tuning variable that does not hold a
    /// valid value: [`STAGE_ENV`](super::STAGE_ENV), [`PREFETCH_ENV`](super::PREFETCH_ENV),
    /// [`WALLED_ENV`](super::WALLED_ENV),
    /// [`WALLED_LAUNCH_ENV`](super::WALLED_LAUNCH_ENV), or [`SHAPE_ENV`] for the
    /// form chosen (which `new` would quietly replace by the default).
    pub fn checked(p: &Problem, gpu: bool, want: Option<StageForm>) -> Result<Stage, DeviceError> {
        stage_setting()?;
        prefetch_setting()?;
        all_walled_setting()?;
        walled_launch_setting()?;
        let st = Stage::new(p, gpu, want);
        if let Some(v) = shape_var() {
            parse_shape(&v, p.mesh.dims, st.form).map_err(|reason| {
                DeviceError::BadBuildOption {
                    var: SHAPE_ENV,
                    value: v.clone(),
                    reason,
                }
            })?;
        }
        Ok(st)
    }

    /// The stage of `p` on `dev`: [`Stage::new`], and on an NVIDIA GPU without [`SHAPE_ENV`]
    /// [`Stage::fitted`] to the groups it runs at once ([`NV_STRIP_GROUPS_PER_CU`] on each
    /// compute unit), with walls launched after [`Stage::walled_mode`] unless
    /// [`WALLED_LAUNCH_ENV`](super::WALLED_LAUNCH_ENV) says (elsewhere one kernel, as measured
    /// on no other GPU).
    pub fn on(p: &Problem, dev: &DeviceInfo, want: Option<StageForm>) -> Stage {
        let st = Stage::new(p, is_gpu(dev), want);
        if !dev.is_nvidia() {
            return st;
        }
        let slots = dev.compute_units as usize * NV_STRIP_GROUPS_PER_CU;
        let st = if shape_var().is_some() {
            st
        } else {
            st.fitted(p, slots)
        };
        match walled_launch_setting() {
            Ok(None) => Stage {
                walled: st.walled_mode(p, slots),
                ..st
            },
            _ => st,
        }
    }

    /// This stage on a device that runs `slots` of its groups at once: a strip whose rows make
    /// fewer than [`STRIP_KEEP_WAVES`] waves takes the rows of [`fit_rows`], at most its own
    /// with walls; any other stage is unchanged. A small mesh then fills the device (run 98
    /// on an H200, Euler's stage at 512 × 256: 80 groups of 16 rows 20.9 µs, 430 of 3 rows
    /// 14.2; at 2048 × 1024 61.1 → 57.0 µs; run 100, Euler at 3072 × 1536: 650 groups of 60
    /// rows 105.6–106.8 µs, 2 400 of 16 rows 111.3–113.3). With walls the rows stay at most
    /// the default's: the walled groups run the slower copy of the strip, and in one wave of
    /// long strips they set the launch's time (run 98, the dam at 2048²: 54 rows in one wave
    /// 124.5–126.0 µs, 16 rows 108.4–109.2).
    pub fn fitted(self, p: &Problem, slots: usize) -> Stage {
        if !self.is_strip() || self.groups(p) >= STRIP_KEEP_WAVES * slots {
            return self;
        }
        // Row passes beyond a group's rows: 1 halo row below and above, 2 for MUSCL.
        let halo = if self.form == StageForm::MusclStrip {
            4
        } else {
            2
        };
        let rows = fit_rows(p.mesh.nx, p.mesh.ny, self.group_cells().0, slots, halo);
        Stage {
            rpi: if p.solid.is_some() {
                rows.min(self.rpi)
            } else {
                rows
            },
            ..self
        }
    }

    /// Whether the MUSCL strip keeps rows and half fluxes in local memory for `p`
    /// ([`MUSCL_STRIP_LOCAL`]; false in the other forms).
    pub fn muscl_local(&self, p: &Problem) -> bool {
        self.form == StageForm::MusclStrip && MUSCL_STRIP_LOCAL[system_index(p)]
    }

    /// Whether the form is one of the strips (a work-group of one row sweeping rows).
    pub fn is_strip(&self) -> bool {
        matches!(self.form, StageForm::Strip | StageForm::MusclStrip)
    }

    /// How many times the strip's row loop is unrolled for `p` ([`STRIP_UNROLL`]; 1 in the
    /// other forms, which have no such loop).
    pub fn unroll(&self, p: &Problem) -> usize {
        self.strip_choice(p, STRIP_UNROLL, 1)
    }

    /// Whether the strip keeps its pending row in local memory for `p`
    /// ([`STRIP_LOCAL_PENDING`]; false in the other forms).
    pub fn local_pending(&self, p: &Problem) -> bool {
        self.strip_choice(p, STRIP_LOCAL_PENDING, false)
    }

    /// A per-system choice of the strip: `strip[0]` for Euler, `strip[1]` for shallow water;
    /// `other` in the other forms.
    fn strip_choice<T: Copy>(&self, p: &Problem, strip: [T; 2], other: T) -> T {
        match self.form {
            StageForm::Strip => strip[system_index(p)],
            _ => other,
        }
    }

    /// The work-group (x, y).
    pub fn work_group(&self) -> (usize, usize) {
        (self.lx, self.ly)
    }

    /// The computed cells of one work-group along x and y in 2D: LX × LY·RPI, or for the
    /// strip LX − 2 × RPI (its first and last items hold halo columns), for the MUSCL strip
    /// LX − 4 × RPI (two at each end).
    pub fn group_cells(&self) -> (usize, usize) {
        match self.form {
            StageForm::Strip => (self.lx - 2, self.rpi),
            StageForm::MusclStrip => (self.lx - 4, self.rpi),
            _ => (self.lx, self.ly * self.rpi),
        }
    }

    /// The stage kernels' global size (x, y) for `p`: every computed cell covered
    /// ([`Stage::group_cells`]; strided cells in 1D).
    pub fn global(&self, p: &Problem) -> [usize; 2] {
        let m = &p.mesh;
        if m.dims == 2 {
            let (cx, cy) = self.group_cells();
            [m.nx.div_ceil(cx) * self.lx, m.ny.div_ceil(cy) * self.ly]
        } else {
            [m.nx.div_ceil(self.lx * self.rpi) * self.lx, 1]
        }
    }

    /// Work-groups of a stage launch for `p`.
    pub fn groups(&self, p: &Problem) -> usize {
        let g = self.global(p);
        (g[0] / self.lx) * (g[1] / self.ly)
    }

    /// Groups of the first reduction level (`CFG_NGROUPS2`).
    pub fn groups2(&self, p: &Problem) -> usize {
        self.groups(p).div_ceil(RED).clamp(1, 1024)
    }

    /// Local memory of a work-group in bytes: the two reduction arrays; with the tile the 4
    /// primitives (and with the SHLL flux the 2 critical numbers) of its (DEV_LX + 2) ×
    /// (DEV_LY·RPI + 2) cells (`TILE_VALS` of `cl/explicit/step.cl`); with the strip two row
    /// buffers of F±_x (8 reals per item) and of the solid flags (`STRIP_XS`), and where
    /// [`Stage::local_pending`] the pending row (8 reals per item, `STRIP_XP`); with the MUSCL
    /// strip two row buffers of the state and two half fluxes (12 reals per item,
    /// `MSTRIP_XS`) and the pending row (8, `MSTRIP_XP`; 16 with [`Stage::muscl_local`]).
    pub fn local_bytes(&self, p: &Problem) -> u64 {
        let (lx, ly, rpi) = (self.lx, self.ly, self.rpi);
        let bytes = match self.form {
            StageForm::Strip => {
                let pending = if self.local_pending(p) { 8 * lx } else { 0 };
                8 * (2 * lx + 2 * 8 * lx + pending) + 4 * 2 * lx
            }
            StageForm::Tile => {
                let vals = if matches!(p.num.flux, Flux::Shll) {
                    6
                } else {
                    4
                };
                8 * (2 * lx * ly + vals * (lx + 2) * (ly * rpi + 2))
            }
            // Two row buffers of the state and two half fluxes, the pending row (and rows).
            StageForm::MusclStrip => {
                let pending = if self.muscl_local(p) { 16 * lx } else { 8 * lx };
                8 * (2 * lx + 2 * 12 * lx + pending)
            }
            StageForm::Plain => 8 * (2 * lx * ly + 4),
        };
        bytes as u64
    }
}

/// The index of `p`'s system in the strips' per-system choices: 0 Euler, 1 shallow water
/// (the only systems with strips).
pub fn system_index(p: &Problem) -> usize {
    usize::from(matches!(p.system, System::ShallowWater { .. }))
}

/// The strip's rows per work-group for `nx` × `ny` cells in groups of `w` columns on a device
/// that runs `slots` groups at once, `halo` rows below and above a group's own. A group's rows
/// are sequential (a barrier per row) and the groups of a launch run in waves of `slots`, so
/// the launch takes about waves × (rows + halo) row passes: the rows that make that least,
/// and of those the least work (groups × passes). With the first-order strip's halo of 2,
/// rows of 16 at 3072 × 1536 and 528 slots (an H200, 4 groups per SM) make 2 400 groups, 4.5
/// waves: the fifth half empty, 5 × 18 = 90 passes; 74 rows make 525 groups, one wave of 76
/// passes.
pub fn fit_rows(nx: usize, ny: usize, w: usize, slots: usize, halo: usize) -> usize {
    fit(nx, ny, w, slots, ny, halo)
}

/// [`fit_rows`] with a halo of 2 rows and at most `most` rows per group.
pub fn fit_rows_upto(nx: usize, ny: usize, w: usize, slots: usize, most: usize) -> usize {
    fit(nx, ny, w, slots, most, 2)
}

fn fit(nx: usize, ny: usize, w: usize, slots: usize, most: usize, halo: usize) -> usize {
    let columns = nx.div_ceil(w.max(1));
    let slots = slots.max(1);
    (1..=ny.min(most).max(1))
        .min_by_key(|&rows| {
            let groups = columns * ny.div_ceil(rows);
            let passes = rows + halo;
            (groups.div_ceil(slots) * passes, groups * passes)
        })
        .unwrap_or(1)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A case of `method` on 40 × 30 cells ([`problem_of`]).
    pub(in crate::methods::explicit::opencl) fn problem(method: &str, scheme: &str) -> Problem {
        problem_of(method, scheme, 40, 30)
    }

    /// A case of `method` on nx × ny cells of the unit square, outflow sides; `scheme` is
    /// spliced in before the grid (a scheme, walls).
    pub(in crate::methods::explicit::opencl) fn problem_of(
        method: &str,
        scheme: &str,
        nx: usize,
        ny: usize,
    ) -> Problem {
        let json = format!(
            r#"{{"name":"s","method":"{method}",{scheme}"grid":{{"nx":{nx},"ny":{ny},"x":[0,1],"y":[0,1]}},
            "boundaries":{{"west":{{"kind":"outflow"}},"east":{{"kind":"outflow"}},
            "south":{{"kind":"outflow"}},"north":{{"kind":"outflow"}}}},
            "initial":{{"state":{{"rho":1,"p":1,"h":1}}}},"time":{{"cfl":0.5,"steps":1}}}}"#
        );
        let json = if method == "shll_shallow_water" {
            json.replace(r#""rho":1,"p":1,"#, "")
        } else {
            json.replace(r#","h":1"#, "")
        };
        crate::methods::AnyCase::from_json(&json, "<test>")
            .unwrap()
            .explicit_problem()
            .unwrap()
    }

    /// The strip on a GPU for first-order SHLL, the tile elsewhere and for the other fluxes;
    /// the MUSCL strip on a GPU for MUSCL with SHLL and no walls, plain otherwise; a caller's
    /// choice between strip and tile (plain for MUSCL) where both apply (the environment
    /// variables are not set in the unit tests).
    #[test]
    fn the_form_follows_the_scheme_and_the_device() {
        for m in ["shll_euler", "shll_shallow_water"] {
            let shll = problem(m, "");
            assert_eq!(Stage::new(&shll, true, None).form, StageForm::Strip, "{m}");
            assert_eq!(Stage::new(&shll, false, None).form, StageForm::Tile, "{m}");
            let strip = Some(StageForm::Strip);
            assert_eq!(
                Stage::new(&shll, false, strip).form,
                StageForm::Strip,
                "{m}"
            );
            let tile = Some(StageForm::Tile);
            assert_eq!(Stage::new(&shll, true, tile).form, StageForm::Tile, "{m}");
            let hll = problem(m, r#""scheme":{"flux":"hll"},"#);
            assert_eq!(Stage::new(&hll, true, strip).form, StageForm::Tile, "{m}");
            let muscl = problem(m, r#""scheme":{"reconstruction":"muscl"},"#);
            let form = |p: &Problem, gpu: bool, want| Stage::new(p, gpu, want).form;
            assert_eq!(form(&muscl, true, None), StageForm::MusclStrip, "{m}");
            assert_eq!(form(&muscl, false, None), StageForm::Plain, "{m}");
            assert_eq!(form(&muscl, false, strip), StageForm::MusclStrip, "{m}");
            assert_eq!(form(&muscl, true, tile), StageForm::Plain, "{m}");
            let muscl_st = Some(StageForm::MusclStrip);
            assert_eq!(form(&muscl, false, muscl_st), StageForm::MusclStrip, "{m}");
            // Not with walls, nor with another flux.
            let walled = problem(
                m,
                r#""scheme":{"reconstruction":"muscl"},"walls":[{"x":[0.4,0.6],"y":[0.4,0.6]}],"#,
            );
            assert_eq!(form(&walled, true, None), StageForm::Plain, "{m}");
            let hll_muscl = problem(m, r#""scheme":{"reconstruction":"muscl","flux":"hll"},"#);
            assert_eq!(form(&hll_muscl, true, strip), StageForm::Plain, "{m}");
            let st = Stage::new(&muscl, true, None);
            assert_eq!((st.lx, st.ly, st.rpi), STRIP_SHAPE);
            assert_eq!(st.group_cells(), (STRIP_SHAPE.0 - 4, STRIP_SHAPE.2));
        }
        let s = Stage::new(&problem("shll_euler", ""), true, None);
        assert_eq!((s.lx, s.ly, s.rpi), STRIP_SHAPE);
        assert_eq!(s.group_cells(), (STRIP_SHAPE.0 - 2, STRIP_SHAPE.2));
    }

    /// The fitted rows: one wave of 525 groups at 3072 × 1536 with 528 slots (74 rows, 76
    /// passes against 16 rows' 5 waves of 18), of 646 at 2048² with 660 (54 rows), of 430 at
    /// 512 × 256 (3 rows, where 16 rows would leave 85 % of the slots empty); one row for a
    /// single row; never more rows than the mesh has; and never more
    /// passes than the default's 16 rows.
    #[test]
    fn fitted_rows_fill_whole_waves() {
        assert_eq!(fit_rows(3072, 1536, 126, 528, 2), 74);
        assert_eq!(fit_rows(2048, 2048, 126, 660, 2), 54);
        assert_eq!(fit_rows(512, 256, 126, 528, 2), 3);
        assert_eq!(fit_rows(77, 1, 126, 528, 2), 1);
        for (nx, ny, slots) in [
            (1000, 7, 64),
            (300, 5000, 3),
            (4000, 4000, 1056),
            (130, 9, 1),
        ] {
            let rows = fit_rows(nx, ny, 126, slots, 2);
            assert!((1..=ny).contains(&rows), "{nx} {ny} {slots}: {rows}");
            let passes = |r: usize| (nx.div_ceil(126) * ny.div_ceil(r)).div_ceil(slots) * (r + 2);
            assert!(
                passes(rows) <= passes(16.min(ny)),
                "{nx} {ny} {slots}: {rows}"
            );
        }
    }

    /// On an NVIDIA GPU of 132 compute units (660 slots) the strip's rows fill one wave where
    /// 16 rows would make fewer than 4 (60 rows at 3072 × 1536, 2 at 512 × 256, 54 at 2048²);
    /// with walls at most the default's 16 (4 rows at 512², 16 where 54 would fill the wave at
    /// 2048²); 16 where they make 4 waves or more (6144 × 3072); another platform, and the
    /// tile, keep the default shape.
    #[test]
    fn the_strip_fits_its_rows_to_an_nvidia_gpu() {
        let dev = |platform: &str, kind: &str| DeviceInfo {
            platform_name: platform.into(),
            compute_units: 132,
            ..crate::device::select::tests::fake("GPU", kind, true)
        };
        let (nvidia, other) = (dev("NVIDIA CUDA", "GPU"), dev("AMD Accelerated", "GPU"));
        let rows = |method: &str, walls: &str, nx: usize, ny: usize, d: &DeviceInfo| {
            Stage::on(&problem_of(method, walls, nx, ny), d, None).rpi
        };
        let dam = r#""walls":[{"x":[0.45,0.55],"y":[0,0.5]}],"#;
        assert_eq!(rows("shll_euler", "", 3072, 1536, &nvidia), 60);
        assert_eq!(rows("shll_euler", "", 512, 256, &nvidia), 2);
        assert_eq!(rows("shll_euler", "", 6144, 3072, &nvidia), 16);
        assert_eq!(rows("shll_shallow_water", dam, 2048, 2048, &nvidia), 16);
        assert_eq!(rows("shll_shallow_water", dam, 512, 512, &nvidia), 4);
        assert_eq!(rows("shll_shallow_water", "", 2048, 2048, &nvidia), 54);
        assert_eq!(rows("shll_euler", "", 3072, 1536, &other), STRIP_SHAPE.2);
        let tile = r#""scheme":{"flux":"hll"},"#;
        assert_eq!(rows("shll_euler", tile, 3072, 1536, &nvidia), 4);
    }
}
