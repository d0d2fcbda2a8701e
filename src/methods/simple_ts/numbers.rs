//! Derived numbers of a case for `simplets check`: cell counts, spacing, the constants of
//! eq. (41), inflow Mach and Reynolds numbers, time-step numbers and a memory estimate.
//! Everything is non-dimensional (lengths / L, speeds / V_th = √(2RT0), time / (L/V_th)).

use crate::grid::Grid;
use crate::methods::simple_ts::case::rules::centre_range;
use crate::methods::simple_ts::case::{Case, Side};
use crate::methods::simple_ts::geometry::Geometry;
use crate::methods::simple_ts::physics::{mach_of_speed, reynolds, speed_of_mach, Constants};

/// f64 arrays per stored cell of the serial reference: two levels of the six
/// [`crate::methods::simple_ts::fields::Fields`] and 28 work arrays (coefficients,
/// pseudo-velocities, explicit terms, fluxes, sweep copies). With the geometry and one snapshot
/// being written, 397 B per stored cell; measured: the peak RSS of `simplets run --backend
/// reference` grows by 405 B per stored cell from 1000×500 to 2000×1000 (one step, PoCL host).
pub const REF_F64_ARRAYS: usize = 40;
/// Bytes per stored cell of [`Geometry`]: cell u8, wall_of u16, two face classes u8, two
/// partners u32, two fixed values f64.
pub const GEOMETRY_BYTES: usize = 1 + 2 + 1 + 1 + 4 + 4 + 8 + 8;

/// Host bytes per stored cell of the reference backend: its f64 arrays and the geometry.
pub fn host_bytes_per_cell() -> u64 {
    (REF_F64_ARRAYS * 8 + GEOMETRY_BYTES) as u64
}

/// f64 arrays per stored cell the OpenCL backends keep on the host: the state read back (two
/// levels of the six fields), allocated at the first read-back. (On a CPU device the device
/// buffers are host memory as well and are added to the estimate.)
pub const OPENCL_HOST_F64_ARRAYS: usize = 12;
/// f64 arrays per stored cell of a snapshot being written (p, T, ρ, u, v, the fluid mask).
pub const OUTPUT_F64_ARRAYS: usize = 6;
/// Host memory that does not grow with the grid: the program and its libraries (34 MB
/// measured), an OpenCL runtime and its compiler (PoCL with LLVM: about 330 MB), with a margin.
pub const HOST_FIXED_BYTES: u64 = 512 << 20;

/// Host bytes per stored cell of an OpenCL set-up beyond the geometry: the fused form's alias
/// tables (3 i32), fast-path mask and packed word (i32 each), the most any form holds at once.
pub const OPENCL_SETUP_BYTES: usize = 5 * 4;

/// Host bytes a run of `stored` stored cells needs on `kind`: the backend's arrays, the
/// geometry, one snapshot being written and the fixed margin.
pub fn host_bytes(stored: u64, kind: crate::methods::BackendKind) -> u64 {
    use crate::methods::BackendKind;
    let per_cell = match kind {
        BackendKind::Reference | BackendKind::Parallel => host_bytes_per_cell(),
        BackendKind::OpenCl => (OPENCL_HOST_F64_ARRAYS * 8 + GEOMETRY_BYTES) as u64,
    } + (OUTPUT_F64_ARRAYS * 8) as u64;
    with_fixed(stored, per_cell)
}

/// `stored` cells of `per_cell` bytes and the fixed margin.
fn with_fixed(stored: u64, per_cell: u64) -> u64 {
    stored
        .saturating_mul(per_cell)
        .saturating_add(HOST_FIXED_BYTES)
}

/// Host bytes of a run on `kind` that never reads the whole state back nor writes a snapshot
/// (`simplets bench`): a device backend's set-up (geometry and the form's tables, measured
/// 33 B per stored cell for the lean fused form); a host backend as [`host_bytes`] less the
/// snapshot.
pub fn host_bytes_no_read_back(stored: u64, kind: crate::methods::BackendKind) -> u64 {
    use crate::methods::BackendKind;
    let per_cell = match kind {
        BackendKind::Reference | BackendKind::Parallel => host_bytes_per_cell(),
        BackendKind::OpenCl => (GEOMETRY_BYTES + OPENCL_SETUP_BYTES) as u64,
    };
    with_fixed(stored, per_cell)
}
/// Above this many stored cells the fluid count is taken without building [`Geometry`].
const GEOMETRY_MAX_CELLS: usize = 1 << 24;

/// One inflow side.
#[derive(Debug, Clone, PartialEq)]
pub struct InflowNumbers {
    /// Side name (`west`, …).
    pub side: &'static str,
    /// Velocity x-component.
    pub u: f64,
    /// Velocity y-component.
    pub v: f64,
    /// Speed |(u, v)|.
    pub speed: f64,
    /// Flow Mach number of the speed at the inflow temperature.
    pub mach: f64,
    /// Reynolds number ρ|V|L/μ with ρ = p/T.
    pub re: f64,
}

/// Derived numbers of a case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseNumbers {
    /// Computed cells nx·ny.
    pub computed: u64,
    /// Computed fluid cells (computed cells not inside a body).
    pub fluid: u64,
    /// Stored cells (nx + 2)(ny + 2).
    pub stored: u64,
    /// Smallest and largest computed cell width along x.
    pub hx: (f64, f64),
    /// Smallest and largest computed cell width along y.
    pub hy: (f64, f64),
    /// Constants of eq. (41).
    pub constants: Constants,
    /// Inflow sides.
    pub inflows: Vec<InflowNumbers>,
    /// Largest prescribed speed: inflow, initial and wall velocities.
    pub u_max: f64,
    /// Smallest prescribed density p/T (initial, inflow, pressure sides).
    pub rho_min: f64,
    /// Convective CFL Δt·u_max/h_min.
    pub cfl: f64,
    /// Diffusive number Δt·B/(ρ_min h_min²).
    pub diffusion: f64,
    /// Time steps.
    pub steps: u64,
}

fn min_max(h: &[f64]) -> (f64, f64) {
    h.iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)))
}

/// Computed cells inside at least one body, by rows of merged column intervals (the rule of
/// [`Geometry::new`] without its per-cell arrays).
pub fn body_cells(case: &Case, grid: &Grid) -> u64 {
    let spans: Vec<_> = case
        .bodies
        .iter()
        .map(|b| {
            let cols = centre_range(&grid.x_v, grid.nx, b.x[0], b.x[1]);
            let rows = centre_range(&grid.y_v, grid.ny, b.y[0], b.y[1]);
            (cols, rows)
        })
        .collect();
    let mut total = 0u64;
    for j in 1..=grid.ny {
        let mut row: Vec<(usize, usize)> = spans
            .iter()
            .filter(|(_, r)| (r.0..r.1).contains(&j))
            .map(|(c, _)| *c)
            .collect();
        row.sort_unstable();
        let mut end = 0;
        for (a, b) in row {
            let a = a.max(end);
            if b > a {
                total += (b - a) as u64;
                end = b;
            }
        }
    }
    total
}

impl CaseNumbers {
    /// Compute the numbers of a valid case.
    pub fn new(case: &Case) -> CaseNumbers {
        let b = &case.boundaries;
        let px = matches!(b.west, Side::Periodic {});
        let py = matches!(b.south, Side::Periodic {});
        let grid = Grid::new(&case.grid, px, py);
        let (nx, ny) = (grid.nx, grid.ny);
        let computed = (nx * ny) as u64;
        let fluid = if grid.len() <= GEOMETRY_MAX_CELLS {
            Geometry::new(case, &grid).n_fluid as u64
        } else {
            computed - body_cells(case, &grid)
        };
        let c = Constants::new(&case.gas);
        let gamma = case.gas.gamma;
        let init = &case.initial;
        let mut u_max = init.u.hypot(init.v);
        let mut rho_min = init.p.min(init.p_east.unwrap_or(init.p)) / init.t;
        let mut inflows = Vec::new();
        let sides = [
            ("west", &b.west),
            ("east", &b.east),
            ("south", &b.south),
            ("north", &b.north),
        ];
        for (k, (name, side)) in sides.into_iter().enumerate() {
            match side {
                Side::Inflow {
                    u, mach, v, p, t, ..
                } => {
                    let (mut uu, mut vv) = (u.unwrap_or(0.0), *v);
                    if let Some(m) = mach {
                        let s = speed_of_mach(*m, gamma) * if k % 2 == 0 { 1.0 } else { -1.0 };
                        if k < 2 {
                            uu = s;
                        } else {
                            vv = s;
                        }
                    }
                    let speed = uu.hypot(vv);
                    let mach = mach_of_speed(speed, *t, gamma);
                    let re = reynolds(p / t, speed, *t, &c);
                    inflows.push(InflowNumbers {
                        side: name,
                        u: uu,
                        v: vv,
                        speed,
                        mach,
                        re,
                    });
                    u_max = u_max.max(speed);
                    rho_min = rho_min.min(p / t);
                }
                Side::Pressure { p, t, .. } => rho_min = rho_min.min(p / t),
                Side::Wall { velocity, .. } => u_max = u_max.max(velocity.abs()),
                Side::Outflow { .. } | Side::Periodic {} => {}
            }
        }
        for body in &case.bodies {
            u_max = u_max.max(body.u_wall.hypot(body.v_wall));
        }
        let h_min = grid.h_min();
        let dt = case.time.dt;
        CaseNumbers {
            computed,
            fluid,
            stored: grid.len() as u64,
            hx: min_max(&grid.hx[1..=nx]),
            hy: min_max(&grid.hy[1..=ny]),
            constants: c,
            inflows,
            u_max,
            rho_min,
            cfl: dt * u_max / h_min,
            diffusion: dt * c.b / (rho_min * h_min * h_min),
            steps: case.time.n_steps(),
        }
    }

    /// The printout of `simplets check`, one quantity per line.
    pub fn render(&self, case: &Case) -> String {
        use std::fmt::Write;
        let c = &self.constants;
        let g = &case.grid;
        let mut s = String::new();
        let _ = writeln!(s, "case        {} ({})", case.name, case.scheme);
        let compat = case.compat();
        if !compat.is_empty() {
            let _ = writeln!(
                s,
                "compat      {} (the authors' C++ code, docs/authors-cpp-defects.md)",
                compat.names().join(", ")
            );
        }
        let _ = writeln!(
            s,
            "grid        {} x {} = {} computed cells, {} fluid, {} stored with ghosts",
            g.nx, g.ny, self.computed, self.fluid, self.stored
        );
        let _ = writeln!(
            s,
            "hx          min {:.6e}  max {:.6e}  (/ L)",
            self.hx.0, self.hx.1
        );
        let _ = writeln!(
            s,
            "hy          min {:.6e}  max {:.6e}  (/ L)",
            self.hy.0, self.hy.1
        );
        let _ = writeln!(
            s,
            "gas         Kn {:?}  gamma {:.6}  Pr {:.6}",
            c.kn, c.gamma, case.gas.pr
        );
        let _ = writeln!(
            s,
            "constants   A {:.10}  B {:.10}  C_T1 {:.10}  C_T2 {:.10}",
            c.a, c.b, c.ct1, c.ct2
        );
        for f in &self.inflows {
            let _ = writeln!(
                s,
                "inflow      {:<5} u {:.6}  v {:.6}  |V| {:.6} (/ V_th)  Mach {:.4}  Re {:.2}",
                f.side, f.u, f.v, f.speed, f.mach, f.re
            );
        }
        if self.inflows.is_empty() {
            let _ = writeln!(s, "inflow      none");
        }
        let _ = writeln!(
            s,
            "time        dt {:?} (/ (L/V_th))  steps {}  end time {:.6}",
            case.time.dt,
            self.steps,
            case.time.dt * self.steps as f64
        );
        let _ = writeln!(
            s,
            "numbers     convective CFL dt*|u|max/h_min {:.4} (|u|max {:.4}), \
             diffusive dt*B/(rho h_min^2) {:.4} (rho min {:.4})",
            self.cfl, self.u_max, self.diffusion, self.rho_min
        );
        {
            use crate::methods::BackendKind;
            let host = |k| crate::text::bytes(host_bytes(self.stored, k) as f64);
            let _ = writeln!(
                s,
                "memory      host: ~{} (reference, parallel: {} B per stored cell), ~{} (opencl \
                 on a GPU; ~{} in bench, which reads no field back; on a CPU device the buffers \
                 below count too), each with {} fixed",
                host(BackendKind::Reference),
                host_bytes_per_cell() + (OUTPUT_F64_ARRAYS * 8) as u64,
                host(BackendKind::OpenCl),
                crate::text::bytes(host_bytes_no_read_back(self.stored, BackendKind::OpenCl) as f64),
                crate::text::bytes(HOST_FIXED_BYTES as f64)
            );
        }
        let explicit =
            case.scheme.convection == crate::methods::simple_ts::case::Convection::Explicit;
        let sweeps = case.solver.sweeps();
        // The fused forms run one or two T/p sweeps per iteration, in the same storage.
        let fused = match sweeps {
            1 => "",
            2 => " (2 T/p sweeps)",
            _ => " (1 or 2 T/p sweeps only)",
        };
        for (form, note, (total, _)) in [
            (
                "phase",
                if sweeps > 1 { " (2+ T/p sweeps)" } else { "" },
                crate::methods::simple_ts::opencl::phase::case_device_bytes(case, self.stored),
            ),
            (
                "fused",
                fused,
                crate::methods::simple_ts::opencl::fused::device_bytes(
                    self.stored,
                    explicit,
                    false,
                ),
            ),
            (
                "fused --lean",
                fused,
                crate::methods::simple_ts::opencl::fused::device_bytes(self.stored, explicit, true),
            ),
        ] {
            let _ = writeln!(
                s,
                "device      OpenCL {form} form: {:.0} B per stored cell, {:.1} B per fluid cell \
                 (CV), total {} (per-cell buffers){note}",
                total as f64 / self.stored as f64,
                total as f64 / self.fluid.max(1) as f64,
                crate::text::bytes(total as f64)
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case() -> Case {
        let json = r#"{
            "name": "chk", "gas": { "kn": 0.05 },
            "grid": { "nx": 40, "ny": 20, "x": [0.0, 2.0], "y": [0.0, 1.0] },
            "bodies": [ { "x": [0.5, 0.8], "y": [0.3, 0.6] }, { "x": [0.7, 1.0], "y": [0.5, 0.9] } ],
            "boundaries": {
                "west": { "kind": "inflow", "mach": 2.43 }, "east": { "kind": "outflow" },
                "south": { "kind": "wall" }, "north": { "kind": "wall" }
            },
            "time": { "dt": 0.01, "end_time": 1.0 }
        }"#;
        Case::from_json(json, "chk").unwrap()
    }

    #[test]
    fn fluid_count_by_intervals_matches_geometry() {
        let c = case();
        let g = Grid::new(&c.grid, false, false);
        let geo = Geometry::new(&c, &g);
        assert_eq!(g.nx * g.ny - body_cells(&c, &g) as usize, geo.n_fluid);
        assert!(body_cells(&c, &g) > 0);
    }

    #[test]
    fn numbers_of_a_supersonic_case() {
        let c = case();
        let n = CaseNumbers::new(&c);
        assert_eq!((n.computed, n.steps), (800, 100));
        assert_eq!(n.inflows.len(), 1);
        let inflow = &n.inflows[0];
        assert!((inflow.mach - 2.43).abs() < 1e-12);
        assert!((inflow.re - 80.1).abs() < 0.1, "{}", inflow.re);
        assert!((n.cfl - 0.01 * inflow.speed / 0.05).abs() < 1e-12);
        let text = n.render(&c);
        assert!(text.contains("Re 80.") && text.contains("C_T1"), "{text}");
        // Implicit upwind in the C++ order (two T/p sweeps): phase 26 f64 + 5 int = 228 B;
        // fused 18 f64 + 8 int (classes, fast mask, aliases) = 176 B, lean 12 f64 + 1 packed
        // word = 100 B, both for the GPU order (one sweep), where the phase form takes 212 B.
        assert!(
            text.contains("OpenCL phase form: 228 B per stored cell")
                && text.contains("OpenCL fused form: 176 B per stored cell")
                && text.contains("OpenCL fused --lean form: 100 B per stored cell"),
            "{text}"
        );
        let mut g = c.clone();
        g.solver.order = crate::methods::simple_ts::case::SweepOrder::Gpu;
        let text = CaseNumbers::new(&g).render(&g);
        assert!(
            text.contains("OpenCL phase form: 212 B per stored cell") && !text.contains("sweeps"),
            "{text}"
        );
    }
}
