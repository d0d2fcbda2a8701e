//! What `simplets check` prints for an explicit case, and the byte and flop model of its
//! kernels that `simplets bench` turns into its roofline counts (an analytic count from the
//! code, per computed cell: there is no counting build of these kernels).

use super::opencl::{device_bytes, Stage, StageForm, NV_STRIP_GROUPS_PER_CU};
use super::reference::max_rate;
use super::{Flux, Problem, StepRule, System};

/// The bench form name of the explicit kernels.
pub const FORM: &str = "explicit";

/// Host bytes per stored cell of the reference (two levels, the RK2 stage, ghosts included).
pub fn host_bytes_per_cell(p: &Problem) -> u64 {
    (if p.num.muscl { 3 } else { 2 }) * 8 * p.nv() as u64
}

/// FP64 operations of one stage per computed cell, as written (no common subexpressions
/// merged; a division or square root counts 1): faces evaluated × (two states' fluxes + the
/// flux formula per component) + the update + the rate of the new state; the tiled stage
/// computes the states' primitives once per cell of its tile. docs/PERFORMANCE.md
/// ("explicit methods") derives each term.
pub fn flops_per_cell(p: &Problem, st: &Stage) -> f64 {
    let nv = p.nv() as f64;
    // Faces evaluated per cell: 2 in 1D; in 2D the two x faces, and of the y faces one per
    // cell plus one per work-item column of `rpi` cells (a cell's north face flux is the next
    // cell's south face flux, `cell_update` in cl/explicit/step.cl).
    let faces = if p.mesh.dims == 2 {
        3.0 + 1.0 / st.rpi as f64
    } else {
        2.0
    };
    // A state's primitives (velocities, pressure, wave speed) and its physical fluxes.
    let (prim, fluxes, rate) = match p.system {
        // 1/ρ 1, u_n, u_t 2, p 6, a 3 | fluxes 5 | rate: 1/ρ, u, v 3, p 6, a 3, 2 add, 2 mul
        // and 1 add (the spacings' reciprocals are folded when the kernel is built)
        System::Euler { .. } => (12.0, 5.0, 17.0),
        // 1/φ, u 2, a 1 | fluxes 6 | rate: 1/φ, u, v 3, a 2, 2 add, 2 mul and 1 add
        System::ShallowWater { .. } => (3.0, 6.0, 10.0),
        System::Transport { .. } => (0.0, 1.0, 0.0),
        System::Convection { .. } => return 3.0 * p.mesh.dims as f64 + 1.0,
    };
    // The tiled stage (Euler) computes each cell's primitives once, plus its tile's halo;
    // the other forms compute them for both states of every face.
    // The strip's groups that are solid throughout compute nothing.
    if st.form == StageForm::Strip {
        return strip_flops_per_cell(p, st, prim, fluxes, rate) * (1.0 - st.solid_share(p));
    }
    if st.form == StageForm::MusclStrip {
        return muscl_strip_flops_per_cell(p, st, prim, fluxes, rate);
    }
    let (state, once) = if st.form == StageForm::Tile {
        let (lx, ly, rpi) = (st.lx, st.ly, st.rpi);
        let rows = (ly * rpi) as f64;
        let halo = (lx as f64 + 2.0) * (rows + 2.0) / (lx as f64 * rows);
        (fluxes, halo * prim)
    } else {
        (prim + fluxes, 0.0)
    };
    let per_comp = match p.num.flux {
        Flux::Shll => 1.0 + 2.0 * split_flops(p),
        Flux::Hll => 8.0,
        Flux::Rusanov => 6.0,
    };
    // SHLL: each side's χ = u_n·(1/a), 2 flops.
    let speeds = match p.num.flux {
        Flux::Shll => 4.0,
        Flux::Hll => 4.0,
        Flux::Rusanov => 4.0,
    };
    // MUSCL: a slope of 4 flops per component, its 2 face values and their admissibility
    // (a state's primitives), computed once per cell and axis: 3 along x (the cell's and its
    // two neighbours'), along y 1 per cell plus 2 per work-item column of `rpi` cells (the
    // next cell's y slope is carried, `cell_update` in cl/explicit/step.cl).
    let recon = if p.num.muscl {
        let per_cell = if p.mesh.dims == 2 {
            4.0 + 2.0 / st.rpi as f64
        } else {
            3.0
        };
        per_cell * (nv * (4.0 + 2.0) + state)
    } else {
        0.0
    };
    let diffusion = if matches!(p.system, System::Transport { .. }) {
        4.0
    } else {
        0.0
    };
    let face = 2.0 * state + speeds + nv * per_comp + diffusion;
    let update = nv * 3.0 * p.mesh.dims as f64 + p.mesh.dims as f64;
    faces * face + recon + once + update + rate + 1.0
}

/// FP64 operations of one SHLL split flux F± per component (`shll_plus`, eq. 9): (1 ± Dχ)F
/// 3, D a (1 − χ²) U 5, their sum and the half 2; the two products by D are not compiled
/// for D = 1 (`shll_d` in cl/shll/split.cl).
fn split_flops(p: &Problem) -> f64 {
    if p.num.d == 1.0 {
        8.0
    } else {
        10.0
    }
}

/// [`flops_per_cell`] of the strip stage: a work-group of LX items sweeps RPI + 2 rows (the
/// halo rows below and above included) and updates (LX − 2) × RPI cells. Each item and row
/// computes its state's primitives (`prim`), its critical numbers (one reciprocal and two
/// products) and along y its physical flux (`fluxes`) and split fluxes (F⁺ and F⁻,
/// [`split_flops`] per component each); the RPI inner rows also along x. Per updated
/// cell then three face sums per component (west, east and south: the north face is the
/// next row's south), the update and the rate of the new state.
fn strip_flops_per_cell(p: &Problem, st: &Stage, prim: f64, fluxes: f64, rate: f64) -> f64 {
    let nv = p.nv() as f64;
    let (lx, rpi) = (st.lx as f64, st.rpi as f64);
    let axis = fluxes + 2.0 * split_flops(p) * nv;
    let per_group = lx * (rpi + 2.0) * (prim + 3.0 + axis) + lx * rpi * axis;
    let computed = per_group / ((lx - 2.0) * rpi);
    let update = nv * 3.0 * 2.0 + 2.0;
    computed + 3.0 * nv + update + rate + 1.0
}

/// [`flops_per_cell`] of the MUSCL strip: a work-group of LX items sweeps RPI + 4 rows and
/// updates (LX − 4) × RPI cells. Along an axis a cell computes its slope (4 per component),
/// its two face values (2 each per component), their primitives (`prim`), critical numbers
/// (a reciprocal and a product), physical fluxes (`fluxes`) and one split half each
/// ([`split_flops`] per component): along x the LX − 2 items with both neighbours, on the RPI
/// rows; along y the LX − 4 updating items, on the RPI rows and the halo row below and above.
/// Per updated cell then three face sums per component, the update and the new state's rate.
fn muscl_strip_flops_per_cell(p: &Problem, st: &Stage, prim: f64, fluxes: f64, rate: f64) -> f64 {
    let nv = p.nv() as f64;
    let (lx, rpi) = (st.lx as f64, st.rpi as f64);
    let state = 2.0 * nv + prim + 2.0 + fluxes + split_flops(p) * nv;
    let axis = 4.0 * nv + 2.0 * state;
    let per_group = (lx - 2.0) * rpi * axis + (lx - 4.0) * (rpi + 2.0) * axis;
    let update = nv * 3.0 * 2.0 + 2.0;
    per_group / ((lx - 4.0) * rpi) + 3.0 * nv + update + rate + 1.0
}

/// Compulsory DRAM bytes of one stage `st` per computed cell: the input state read once, the
/// output written once (+ U⁰ in the second RK2 stage, + the mask's 4 B with walls, in the
/// strip only where its groups near a wall read it: [`Stage::walled_share`]); in the strip,
/// none for the cells of groups that are solid throughout ([`Stage::solid_share`]).
pub fn stage_bytes(p: &Problem, st: &Stage, rk2: bool) -> (f64, f64) {
    let nv = p.nv() as f64;
    // stage_fe's groups take the wall-free copy or skip; stage_rk2 (never a strip) reads it all.
    let apart = st.walls_apart(p) && !rk2;
    let mask = match &p.solid {
        None => 0.0,
        Some(_) if apart => st.walled_share(p),
        Some(_) => 1.0,
    };
    let moved = if apart { 1.0 - st.solid_share(p) } else { 1.0 };
    let read = 8.0 * nv * moved * if rk2 { 2.0 } else { 1.0 } + 4.0 * mask;
    (read, 8.0 * nv * moved)
}

/// Compute units of the NVIDIA GPU whose fitted strip `simplets check` shows (an H100 SXM
/// or an H200: 132 SMs); a run fits the rows to the GPU it is on ([`Stage::on`]).
const CHECK_NV_COMPUTE_UNITS: usize = 132;

/// The `simplets check` text of an explicit problem.
pub fn render(p: &Problem) -> String {
    use std::fmt::Write;
    let m = &p.mesh;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "case        {} ({}, {})",
        p.common.name, p.method, p.common.scheme
    );
    let _ =
        writeln!(
        s,
        "grid        {} x {} = {} computed cells ({}D), {} fluid, {} stored ({} ghost layer(s){})",
        m.nx,
        m.ny,
        m.nx * m.ny,
        m.dims,
        p.fluid_cells(),
        m.ns,
        m.ng,
        if m.dims == 1 { ", no ghost rows in 1D" } else { "" }
    );
    let _ = writeln!(s, "spacing     dx {:.6e}  dy {:.6e}", m.dx, m.dy);
    let mut q = p.initial.clone();
    super::reference::fill_ghosts(p, &mut q);
    let smax = max_rate(p, &q);
    match p.rule {
        StepRule::Cfl(c) => {
            let _ = writeln!(
                s,
                "time step   CFL {c}: initial max rate {smax:.6e} gives dt {:.6e} (recomputed every step)",
                c / smax
            );
        }
        StepRule::Fixed(dt) => {
            // Convection's rate is already the Courant number |ν_x| + |ν_y|.
            let cfl = if matches!(p.system, System::Convection { .. }) {
                smax
            } else {
                dt * smax
            };
            let _ = writeln!(s, "time step   fixed dt {dt:.6e}: CFL number {cfl:.6}");
        }
    }
    if p.t_end.is_finite() {
        let _ = writeln!(
            s,
            "run         to t = {} (at most {} steps)",
            p.t_end, p.total_steps
        );
    } else {
        let _ = writeln!(s, "run         {} steps", p.total_steps);
    }
    let (dev, _) = device_bytes(p);
    let _ = writeln!(
        s,
        "memory      device {:.1} MiB ({} B per cell), host reference {:.1} MiB",
        dev as f64 / 1048576.0,
        dev / m.ns as u64,
        (host_bytes_per_cell(p) * m.ns as u64) as f64 / 1048576.0
    );
    let (gpu, other) = (Stage::new(p, true, None), Stage::new(p, false, None));
    let (r, w) = stage_bytes(p, &gpu, false);
    let _ = writeln!(
        s,
        "kernels     stage on a GPU ({} form): {:.0} B and {:.0} flops per cell (model), {} work-groups of {} items x {} cells",
        gpu.form.name(),
        r + w,
        flops_per_cell(p, &gpu),
        gpu.groups(p),
        gpu.lx * gpu.ly,
        gpu.rpi
    );
    let nvidia = gpu.fitted(p, CHECK_NV_COMPUTE_UNITS * NV_STRIP_GROUPS_PER_CU);
    if nvidia != gpu {
        let _ = writeln!(
            s,
            "            on an NVIDIA GPU of {CHECK_NV_COMPUTE_UNITS} compute units (H100, H200), rows fitted to its waves: {:.0} flops per cell (model), {} work-groups of {} items x {} cells",
            flops_per_cell(p, &nvidia),
            nvidia.groups(p),
            nvidia.lx * nvidia.ly,
            nvidia.rpi
        );
    }
    if other != gpu {
        let _ = writeln!(
            s,
            "            on a CPU device ({} form): {:.0} flops per cell (model), {} work-groups of {} items x {} cells",
            other.form.name(),
            flops_per_cell(p, &other),
            other.groups(p),
            other.lx * other.ly,
            other.rpi
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn euler(nx: usize, ny: usize) -> Problem {
        euler_with(nx, ny, "")
    }

    /// A 2D Euler case of nx × ny cells with `scheme` spliced in before the grid.
    fn euler_with(nx: usize, ny: usize, scheme: &str) -> Problem {
        let json = format!(
            r#"{{"name":"s","method":"shll_euler",{scheme}"grid":{{"nx":{nx},"ny":{ny},"x":[0,2],"y":[0,1]}},
            "boundaries":{{"west":{{"kind":"outflow"}},"east":{{"kind":"outflow"}},
            "south":{{"kind":"outflow"}},"north":{{"kind":"outflow"}}}},
            "initial":{{"state":{{"rho":1,"p":1}}}},"time":{{"cfl":0.5,"steps":1}}}}"#
        );
        crate::methods::AnyCase::from_json(&json, "<test>")
            .unwrap()
            .explicit_problem()
            .unwrap()
    }

    /// `simplets check` shows the strip an H100 or H200 runs where its rows are fitted (at
    /// 512 × 256: 5 columns × 128 strips of 2 rows, one wave of 640 of 660 slots), with that
    /// strip's flops; where 16 rows make 4 waves or more (6144 × 3072) there is no such line.
    #[test]
    fn check_shows_the_fitted_strip_of_an_nvidia_gpu() {
        let p = euler(512, 256);
        let text = render(&p);
        let fitted = Stage::new(&p, true, None).fitted(&p, 660);
        assert_eq!((fitted.groups(&p), fitted.rpi), (640, 2));
        let line = format!(
            "on an NVIDIA GPU of 132 compute units (H100, H200), rows fitted to its waves: {:.0} flops per cell (model), 640 work-groups of 128 items x 2 cells",
            flops_per_cell(&p, &fitted)
        );
        assert!(text.contains(&line), "{text}");
        assert!(!render(&euler(6144, 3072)).contains("NVIDIA"));
    }

    /// `simplets check` names the MUSCL strip for 2D MUSCL with SHLL on a GPU, and its model
    /// counts about 0.6 of the plain stage's flops (2 slopes and 4 face states per cell
    /// against 4 and 6; 343 against 573 for Euler at 128 × 1 × 16).
    #[test]
    fn the_muscl_strip_counts_its_slopes_and_face_states_once() {
        let p = euler_with(3072, 1536, r#""scheme":{"reconstruction":"muscl"},"#);
        assert!(render(&p).contains("stage on a GPU (muscl-strip form)"));
        let (strip, plain) = (Stage::new(&p, true, None), Stage::new(&p, false, None));
        assert_eq!(
            (strip.form, plain.form),
            (StageForm::MusclStrip, StageForm::Plain)
        );
        let (fs, fp) = (flops_per_cell(&p, &strip), flops_per_cell(&p, &plain));
        assert!(fs > 0.55 * fp && fs < 0.65 * fp, "{fs} against {fp}");
    }
}
