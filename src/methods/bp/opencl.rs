//! The OpenCL backend of `bp_euler`: the node state stays on the device in two ping-pong
//! buffers; a step queues `set_secondary`, `apply_bconds`, `flux_i`, `flux_j`,
//! `calc_changes`, `sum_changes`, `smooth` and `reduce` (`cl/bp/step.cl`), then reads back a
//! small report: the residual, the first node that is not admissible and the density of the
//! inlet nodes. From those the host computes the next step's inlet states
//! ([`super::step::inlet_state`], which needs `powf`: OpenCL's `pow` is not correctly rounded,
//! so one implementation serves both backends) and writes them before the next step's
//! kernels: one read and one small write per step. Fields cross to the host only for output
//! and checkpoints. Bit-identical to [`super::step::Bp`]: the same formulas
//! ([`super::formulas`], FP contraction off), the same tables, a maximum and a minimum as the
//! only reductions.

use super::ghost::Ghost;
use super::grid::NodeGrid;
use super::step::inlet_state;
use super::tables::{BoundaryForm, Edges, Tables};
use super::{Flow, Numerics};
use crate::device::{
    build_cached, check_capacity, require_fp64, select_device, Defines, DeviceInfo, Runtime,
};
use crate::error::{DeviceError, RunError};
use crate::methods::BackendChoice;

/// Work-group of `smooth` and `reduce` (`DEV_RED`).
pub const RED: usize = 256;

/// Work-group of the other kernels (their ranges are rounded up to it; they guard).
const WG: usize = 128;

/// Work-groups of `smooth` over `nn` nodes (`CFG_NGROUPS` of the tables form).
pub fn groups(nn: usize) -> usize {
    nn.div_ceil(RED)
}

/// Boundary nodes of the ranges form (`CFG_NE`).
pub fn edge_nodes(ni: usize, nj: usize) -> usize {
    2 * ni + 2 * (nj - 2)
}

/// Work-groups of the smoothing of a form: (interior or all nodes, boundary nodes); their
/// sum is `CFG_NGROUPS`.
pub fn form_groups(ni: usize, nj: usize, form: BoundaryForm) -> (usize, usize) {
    match form {
        BoundaryForm::Tables | BoundaryForm::Ghost => (groups(ni * nj), 0),
        BoundaryForm::Ranges => (groups((ni - 2) * (nj - 2)), groups(edge_nodes(ni, nj))),
    }
}

/// The `-D` defines (the contract in `cl/bp/step.cl`; the prelude's `CFG_NXT`, `CFG_NYT` are
/// the node counts: no ghost layers). The inlet needs none: its states come from the host,
/// subsonic or supersonic alike.
pub fn defines(g: &NodeGrid, flow: &Flow, num: &Numerics, form: BoundaryForm) -> Defines {
    let (gi, ge) = form_groups(g.ni, g.nj, form);
    let d = Defines::new()
        .int("CFG_NXT", g.ni as i64)
        .int("CFG_NYT", g.nj as i64)
        .int("CFG_NI", g.ni as i64)
        .int("CFG_NJ", g.nj as i64)
        .real("CFG_GAMMA", flow.gamma)
        .real("CFG_CFL", num.cfl)
        .real("CFG_SF", num.smooth * num.cfl)
        .real("CFG_RHO0", flow.rho0())
        .real("CFG_P_EXIT", flow.p_exit)
        .int("CFG_NGROUPS", (gi + ge) as i64)
        .int("CFG_G_INT", gi as i64)
        .int("CFG_NE", edge_nodes(g.ni, g.nj) as i64)
        .int("DEV_RED", RED as i64);
    // A supersonic exit imposes no pressure; the flag only where it is set, so the
    // subsonic build is the one it always was.
    if flow.free_exit {
        d.flag("CFG_FREE_EXIT")
    } else {
        d
    }
}

/// The assembled kernel source.
pub fn source() -> String {
    super::source::program().assemble()
}

/// Device bytes of a grid of `ni` × `nj` nodes: all buffers, and the largest one (a state
/// level, 4 values per node); the tables form's, an upper bound of the ranges form's.
pub fn device_bytes(ni: usize, nj: usize) -> (u64, u64) {
    let nn = (ni * nj) as u64;
    let cells = ((ni - 1) * (nj - 1)) as u64;
    let faces = (ni * (nj - 1) + (ni - 1) * nj) as u64;
    // Two levels, tmp and sec (4 each per node); smooth weights (4); fluxes (4 per face),
    // projected lengths (2) and multipliers (1); cell changes and SCREE memory (4 each),
    // area and d_min; the two int tables (4 + 4 per node).
    let reals = 20 * nn + 7 * faces + 10 * cells + 16 * nj as u64 + groups(ni * nj) as u64;
    (8 * reals + 4 * 8 * nn, 8 * 4 * nn)
}

/// Device bytes of the ghost form's padded arrays on top of [`device_bytes`]: gw, gsec and
/// gtmp (4 values per padded node each), the fluxes and projected lengths of the padded
/// faces (4 + 2), the cell changes, SCREE memory, area and d_min of the padded cells
/// (4 + 4 + 2), the wall normals.
pub fn ghost_bytes(ni: usize, nj: usize) -> u64 {
    let (pi, pj) = ((ni + 2) as u64, (nj + 2) as u64);
    let faces = pi * (pj - 1) + (pi - 1) * pj;
    8 * (12 * pi * pj + 6 * faces + 10 * (pi - 1) * (pj - 1) + 4 * pi)
}

/// Structure of arrays: component v of item k at v·n + k.
fn soa<const N: usize>(a: &[[f64; N]]) -> Vec<f64> {
    (0..N).flat_map(|v| a.iter().map(move |x| x[v])).collect()
}

/// The tables' indices as int32, 4 per node.
fn ints(a: &[[u32; 4]]) -> Vec<i32> {
    a.iter()
        .flatten()
        .map(|&x| i32::try_from(x).expect("indices below 2^31 (checked by the capacity)"))
        .collect()
}

/// The OpenCL solver of `bp_euler`.
pub struct BpOpenCl {
    rt: Runtime,
    ni: usize,
    nj: usize,
    flow: Flow,
    num: Numerics,
    /// Which of `wa` (0), `wb` (1) holds the current state.
    cur: usize,
    step: u64,
    /// The relaxed inlet density per inlet node (the reference's `rho_in`).
    rho_in: Vec<f64>,
    /// The density of the inlet nodes of the current state.
    rho_col: Vec<f64>,
    /// Whether the last step was taken (the other level is then the state before it, with
    /// its inlet column in `inlet_old`).
    stepped: bool,
    /// Tables or ranges.
    form: BoundaryForm,
}

const LEVEL: [&str; 2] = ["wa", "wb"];

impl BpOpenCl {
    /// Set up `g` started from `w` (the reference's initial state and inlet density) on the
    /// device `choice` names.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        g: &NodeGrid,
        t: &Tables,
        e: (&Edges, BoundaryForm),
        flow: Flow,
        num: Numerics,
        w: &[[f64; 4]],
        rho_in: &[f64],
        choice: &BackendChoice,
    ) -> Result<BpOpenCl, DeviceError> {
        let dev = select_device(choice.device.as_deref())?;
        require_fp64(&dev)?;
        let (mut total, largest) = device_bytes(g.ni, g.nj);
        if e.1 == BoundaryForm::Ghost {
            total += ghost_bytes(g.ni, g.nj);
        }
        check_capacity(&dev, total, largest, (RED * 12) as u64, RED)?;
        if 4 * g.ni * g.nj > i32::MAX as usize {
            return Err(DeviceError::Unsupported(format!(
                "bp_euler on OpenCL: {} × {} nodes overflow the int32 tables",
                g.ni, g.nj
            )));
        }
        BpOpenCl::on(&dev, g, t, e, flow, num, w, rho_in, choice)
    }

    /// Set up on `dev` (selected and checked by the caller).
    #[allow(clippy::too_many_arguments)]
    pub fn on(
        dev: &DeviceInfo,
        g: &NodeGrid,
        t: &Tables,
        (edges, form): (&Edges, BoundaryForm),
        flow: Flow,
        num: Numerics,
        w: &[[f64; 4]],
        rho_in: &[f64],
        choice: &BackendChoice,
    ) -> Result<BpOpenCl, DeviceError> {
        let built = build_cached(
            dev,
            &source(),
            &defines(g, &flow, &num, form),
            choice.log_dir.as_deref(),
            choice.cache.as_ref(),
        )?;
        let mut rt = Runtime::new(built);
        let (ni, nj) = (g.ni, g.nj);
        let (nn, ncell) = (ni * nj, g.nci() * g.ncj());
        let state = soa(w);
        rt.real("wa", &state)?;
        rt.real("wb", &state)?;
        rt.real_zeros("tmp", 4 * nn)?;
        rt.real_zeros("sec", 4 * nn)?;
        rt.real_zeros("fi", 4 * g.dli.len())?;
        rt.real_zeros("fj", 4 * g.dlj.len())?;
        rt.real_zeros("cells", 4 * ncell)?;
        rt.real_zeros("prev", 4 * ncell)?;
        rt.real("dli", &soa(&g.dli))?;
        rt.real("dlj", &soa(&g.dlj))?;
        rt.real("area", &g.area)?;
        rt.real("dmin", &g.dmin)?;
        if form == BoundaryForm::Tables {
            rt.real("mul_i", &t.mul_i)?;
            rt.real("mul_j", &t.mul_j)?;
            rt.int("sum_idx", &ints(&t.sum))?;
            rt.int("smooth_idx", &ints(&t.smooth_idx))?;
            rt.real("smooth_w", &t.smooth_w.concat())?;
        } else {
            // The ranges form has no whole-grid tables: placeholders for the table kernels'
            // arguments (bound, never launched), so the device memory is the form's own.
            for name in ["mul_i", "mul_j", "smooth_w"] {
                rt.real_zeros(name, 4)?;
            }
            rt.int("sum_idx", &[0; 4])?;
            rt.int("smooth_idx", &[0; 4])?;
        }
        // The ghost form's padded arrays (placeholders for the other forms: bound, never
        // launched).
        if form == BoundaryForm::Ghost {
            let gh = Ghost::new(g);
            let (gn, gc) = (gh.g.ni * gh.g.nj, gh.g.nci() * gh.g.ncj());
            for name in ["gw", "gsec", "gtmp"] {
                rt.real_zeros(name, 4 * gn)?;
            }
            rt.real_zeros("gfi", 4 * gh.g.dli.len())?;
            rt.real_zeros("gfj", 4 * gh.g.dlj.len())?;
            rt.real_zeros("gcells", 4 * gc)?;
            rt.real_zeros("gprev", 4 * gc)?;
            rt.real("gdli", &soa(&gh.g.dli))?;
            rt.real("gdlj", &soa(&gh.g.dlj))?;
            rt.real("garea", &gh.g.area)?;
            rt.real("gdmin", &gh.g.dmin)?;
            rt.real("gnorm", &gh.normal.concat())?;
        } else {
            for name in [
                "gw", "gsec", "gtmp", "gfi", "gfj", "gcells", "gprev", "gdli", "gdlj", "garea",
                "gdmin", "gnorm",
            ] {
                rt.real_zeros(name, 4)?;
            }
        }
        rt.real_zeros("inlet", 4 * nj)?;
        rt.real_zeros("inlet_old", 4 * nj)?;
        let (gi, ge) = form_groups(ni, nj, form);
        rt.real_zeros("part_res", gi + ge)?;
        rt.int("part_bad", &vec![0; gi + ge])?;
        rt.int(
            "e_node",
            &edges.nodes.iter().map(|&k| k as i32).collect::<Vec<_>>(),
        )?;
        rt.int("e_sum", &ints(&edges.sum))?;
        rt.int("e_sidx", &ints(&edges.smooth_idx))?;
        rt.real("e_sw", &edges.smooth_w.concat())?;
        rt.real("mul_e", &edges.mul_j)?;
        rt.real_zeros("report", 2 + nj)?;
        for (c, (from, to)) in [("wa", "wb"), ("wb", "wa")].into_iter().enumerate() {
            let r = [("w", from)];
            rt.bind_as(&format!("sec{c}"), "set_secondary", &r)?;
            rt.bind_as(&format!("bc{c}"), "apply_bconds", &r)?;
            rt.bind_as(&format!("fi{c}"), "flux_i", &r)?;
            rt.bind_as(&format!("fj{c}"), "flux_j", &r)?;
            rt.bind_as(&format!("ch{c}"), "calc_changes", &r)?;
            rt.bind_as(&format!("ch_first{c}"), "calc_changes_first", &r)?;
            rt.bind_as(&format!("sum{c}"), "sum_changes", &r)?;
            rt.bind_as(
                &format!("smooth{c}"),
                "smooth",
                &[("w", from), ("w_new", to)],
            )?;
            rt.bind_as(&format!("reduce{c}"), "reduce", &[("w_new", to)])?;
            rt.bind_as(&format!("restore{c}"), "restore_inlet", &r)?;
            rt.bind_as(&format!("fir{c}"), "flux_i_r", &r)?;
            rt.bind_as(&format!("fjr{c}"), "flux_j_r", &r)?;
            rt.bind_as(&format!("fje{c}"), "flux_j_edge", &r)?;
            rt.bind_as(&format!("sumi{c}"), "sum_interior", &r)?;
            rt.bind_as(&format!("sume{c}"), "sum_edge", &r)?;
            let s = [("w", from), ("w_new", to)];
            rt.bind_as(&format!("smi{c}"), "smooth_interior", &s)?;
            rt.bind_as(&format!("sme{c}"), "smooth_edge", &s)?;
            rt.bind_as(&format!("gcopy{c}"), "ghost_copy", &r)?;
            rt.bind_as(&format!("gwall{c}"), "ghost_walls", &r)?;
            rt.bind_as(&format!("gfi{c}"), "ghost_flux_i", &r)?;
            rt.bind_as(&format!("gfj{c}"), "ghost_flux_j", &r)?;
            rt.bind_as(&format!("gch{c}"), "ghost_changes", &r)?;
            rt.bind_as(&format!("gch_first{c}"), "ghost_changes_first", &r)?;
            rt.bind_as(&format!("gsum{c}"), "ghost_sum", &r)?;
            rt.bind_as(&format!("gsm{c}"), "ghost_smooth", &s)?;
        }
        log::info!(
            "OpenCL backend on {} ({}): {} MiB of buffers",
            dev.name,
            dev.platform_name,
            rt.bytes() >> 20
        );
        Ok(BpOpenCl {
            rt,
            ni,
            nj,
            flow,
            num,
            cur: 0,
            step: 0,
            rho_in: rho_in.to_vec(),
            rho_col: (0..nj).map(|j| w[j * ni][0]).collect(),
            stepped: false,
            form,
        })
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

    /// Completed steps.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// The relaxed inlet density per inlet node.
    pub fn rho_inlet(&self) -> &[f64] {
        &self.rho_in
    }

    /// One step; returns the residual max |Δρ|/ρ0. On a node that is not admissible the
    /// state goes back to the one before the step and the node is named (as the reference:
    /// the step count, the SCREE memory and the relaxed inlet density stay advanced).
    pub fn step(&mut self) -> Result<f64, RunError> {
        let (ni, nj) = (self.ni, self.nj);
        let mut inlet = vec![0.0; 4 * nj];
        for j in 0..nj {
            let (r, w) = inlet_state(&self.flow, &self.num, self.rho_col[j], self.rho_in[j]);
            self.rho_in[j] = r;
            for (v, x) in w.into_iter().enumerate() {
                inlet[v * nj + j] = x;
            }
        }
        self.rt.write("inlet", &inlet)?;
        let c = self.cur;
        let nn = ni * nj;
        let rt = &self.rt;
        rt.launch(&format!("sec{c}"), nn, Some(WG))?;
        rt.launch(&format!("bc{c}"), nj, Some(WG))?;
        let ranges = self.form == BoundaryForm::Ranges;
        let ch = if self.step == 0 { "ch_first" } else { "ch" };
        if self.form == BoundaryForm::Ghost {
            let (pi, pj) = (ni + 2, nj + 2);
            rt.launch(&format!("gcopy{c}"), pi * nj, Some(WG))?;
            rt.launch(&format!("gwall{c}"), 2 * pi, Some(WG))?;
            rt.launch(&format!("gfi{c}"), pi * (pj - 1), Some(WG))?;
            rt.launch(&format!("gfj{c}"), (pi - 1) * pj, Some(WG))?;
            rt.launch(&format!("g{ch}{c}"), (pi - 1) * (pj - 1), Some(WG))?;
            rt.launch(&format!("gsum{c}"), nn, Some(WG))?;
            rt.launch(&format!("gsm{c}"), nn, Some(RED))?;
        } else if ranges {
            let (ne, nin) = (edge_nodes(ni, nj), (ni - 2) * (nj - 2));
            rt.launch(&format!("fir{c}"), ni * (nj - 1), Some(WG))?;
            rt.launch(&format!("fjr{c}"), (ni - 1) * (nj - 2), Some(WG))?;
            rt.launch(&format!("fje{c}"), 2 * (ni - 1), Some(WG))?;
            rt.launch(&format!("{ch}{c}"), (ni - 1) * (nj - 1), Some(WG))?;
            rt.launch(&format!("sumi{c}"), nin, Some(WG))?;
            rt.launch(&format!("sume{c}"), ne, Some(WG))?;
            rt.launch(&format!("smi{c}"), nin, Some(RED))?;
            rt.launch(&format!("sme{c}"), ne, Some(RED))?;
        } else {
            rt.launch(&format!("fi{c}"), ni * (nj - 1), Some(WG))?;
            rt.launch(&format!("fj{c}"), (ni - 1) * nj, Some(WG))?;
            rt.launch(&format!("{ch}{c}"), (ni - 1) * (nj - 1), Some(WG))?;
            rt.launch(&format!("sum{c}"), nn, Some(WG))?;
            rt.launch(&format!("smooth{c}"), nn, Some(RED))?;
        }
        rt.launch(&format!("reduce{c}"), RED, Some(RED))?;
        let mut report = vec![0.0; 2 + nj];
        rt.read("report", &mut report)?;
        self.step += 1;
        if report[1] >= 0.0 {
            self.rt.launch(&format!("restore{c}"), nj, Some(WG))?;
            self.stepped = false;
            let k = report[1] as usize;
            return Err(RunError::Diverged {
                step: self.step,
                iter: 1,
                field: "rho or p",
                i: (k % ni) as i64 + 1,
                j: (k / ni) as i64 + 1,
                value: f64::NAN,
            });
        }
        self.rho_col.copy_from_slice(&report[2..]);
        self.cur = 1 - c;
        self.stepped = true;
        Ok(report[0])
    }

    /// The node state of level `l`, (ρ, ρu, ρv, ρE) per node.
    fn read_level(&self, l: usize) -> Result<Vec<[f64; 4]>, DeviceError> {
        let nn = self.ni * self.nj;
        let mut a = vec![0.0; 4 * nn];
        self.rt.read(LEVEL[l], &mut a)?;
        Ok((0..nn)
            .map(|k| [a[k], a[nn + k], a[2 * nn + k], a[3 * nn + k]])
            .collect())
    }

    /// The current state, or (`previous`) the state before the last step.
    pub fn state(&self, previous: bool) -> Result<Vec<[f64; 4]>, DeviceError> {
        if !(previous && self.stepped) {
            return self.read_level(self.cur);
        }
        // The other level, with the inlet column as it was before apply_bconds.
        let mut w = self.read_level(1 - self.cur)?;
        let nj = self.nj;
        let mut old = vec![0.0; 4 * nj];
        self.rt.read("inlet_old", &mut old)?;
        for j in 0..nj {
            for v in 0..4 {
                w[j * self.ni][v] = old[v * nj + j];
            }
        }
        Ok(w)
    }

    /// SCREE's previous cell changes, 4 per cell.
    pub fn scree_previous(&self) -> Result<Vec<[f64; 4]>, DeviceError> {
        let n = (self.ni - 1) * (self.nj - 1);
        if self.form == BoundaryForm::Ghost {
            // The real cells of the padded memory: real cell c at padded (i + 1, j + 1).
            let (gc, pc) = ((self.ni + 1) * (self.nj + 1), self.ni + 1);
            let mut a = vec![0.0; 4 * gc];
            self.rt.read("gprev", &mut a)?;
            let at = |c: usize| c % (self.ni - 1) + 1 + (c / (self.ni - 1) + 1) * pc;
            return Ok((0..n)
                .map(|c| {
                    let g = at(c);
                    [a[g], a[gc + g], a[2 * gc + g], a[3 * gc + g]]
                })
                .collect());
        }
        let mut a = vec![0.0; 4 * n];
        self.rt.read("prev", &mut a)?;
        Ok((0..n)
            .map(|c| [a[c], a[n + c], a[2 * n + c], a[3 * n + c]])
            .collect())
    }

    /// Replace the state, SCREE's memory, the relaxed inlet density and the step count.
    pub fn restore(
        &mut self,
        w: &[[f64; 4]],
        prev: &[[f64; 4]],
        rho_in: &[f64],
        step: u64,
    ) -> Result<(), DeviceError> {
        let state = soa(w);
        self.rt.write("wa", &state)?;
        self.rt.write("wb", &state)?;
        if self.form == BoundaryForm::Ghost {
            // The real cells into the padded memory; the ghost cells keep theirs, as the
            // reference's padded arrays do.
            let (gc, pc, nc) = ((self.ni + 1) * (self.nj + 1), self.ni + 1, self.ni - 1);
            let mut a = vec![0.0; 4 * gc];
            self.rt.read("gprev", &mut a)?;
            for (c, x) in prev.iter().enumerate() {
                let g = c % nc + 1 + (c / nc + 1) * pc;
                for v in 0..4 {
                    a[v * gc + g] = x[v];
                }
            }
            self.rt.write("gprev", &a)?;
        } else {
            self.rt.write("prev", &soa(prev))?;
        }
        self.rho_in.copy_from_slice(rho_in);
        for j in 0..self.nj {
            self.rho_col[j] = w[j * self.ni][0];
        }
        self.cur = 0;
        self.step = step;
        self.stepped = false;
        Ok(())
    }
}
