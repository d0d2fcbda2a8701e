//! What the explicit methods share (issue 18): linear convection (`methods/convection`) and
//! the SHLL flux-splitting methods (`methods/shll`: Euler, shallow water,
//! convection–diffusion) are all a conservation law on a uniform Cartesian grid, advanced
//! cell by cell from the state of the last stage. This module holds the discretised problem
//! ([`Problem`]: the system, the numerics, the padded storage, the sides, the solid mask, the
//! time rule and the initial state), the serial and row-parallel reference ([`reference`]),
//! the OpenCL backend ([`opencl`], kernels in `cl/explicit/`) and the [`solver`] that puts any
//! of them behind the solver seam.
//!
//! **Storage.** Each conserved variable is a plane of `ns = nxs·nys` values, cell (i, j) at
//! `v·ns + i + j·nxs`, with `ng` ghost layers on each side (1 for first order, 2 for MUSCL)
//! and, in 1D (ny = 1), no ghost rows at all: a 1D run stores and computes one row. The
//! output grid ([`crate::grid::Grid`], one ghost layer) is filled from it on the host at each
//! snapshot.
//!
//! **Time step.** Δt = cfl / max over fluid cells of a rate (docs/method/shll.md eq. 20, 21):
//! the rate of each new state is reduced with the update itself (per work-group maxima on a
//! device, a final one-group kernel), so Δt is the same bits on every backend (a maximum does
//! not depend on order). A fixed Δt is also possible (`time.dt`).

pub mod case;
pub mod numbers;
pub mod opencl;
pub mod ranks;
pub mod reference;
pub mod solver;
pub mod source;
pub mod update;

use crate::case::{Common, GridSpec, Method};
use crate::grid::Grid;

/// Largest number of conserved variables (Euler: ρ, ρu, ρv, E).
pub const NV_MAX: usize = 4;

/// The conservation law, with its constants.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum System {
    /// 2D Euler equations of an ideal gas, U = (ρ, ρu, ρv, E).
    Euler {
        /// Ratio of specific heats γ.
        gamma: f64,
    },
    /// Shallow water in geopotential form, U = (φ, φu, φv), φ = g h.
    ShallowWater {
        /// Gravity g.
        g: f64,
        /// Dry threshold g·h_dry: below it a cell has no velocity.
        phi_dry: f64,
    },
    /// A scalar advected with velocity `c` through the SHLL split with numerical speeds `a`
    /// (≥ |c|), diffused with coefficient `nu`.
    Transport {
        /// Velocity (c_x, c_y).
        c: [f64; 2],
        /// Numerical speed per axis.
        a: [f64; 2],
        /// Diffusion coefficient ν.
        nu: f64,
    },
    /// A scalar advected by first-order upwind with Courant numbers ν = cΔt/h (fixed Δt).
    Convection {
        /// (ν_x, ν_y).
        nu: [f64; 2],
    },
}

impl System {
    /// Number of conserved variables.
    pub fn nv(&self) -> usize {
        match self {
            System::Euler { .. } => 4,
            System::ShallowWater { .. } => 3,
            System::Transport { .. } | System::Convection { .. } => 1,
        }
    }

    /// `CFG_SYS` of the kernels.
    pub fn id(&self) -> i64 {
        match self {
            System::Euler { .. } => 1,
            System::ShallowWater { .. } => 2,
            System::Transport { .. } => 3,
            System::Convection { .. } => 4,
        }
    }

    /// Names of the conserved variables (checkpoint arrays).
    pub fn conserved_names(&self) -> &'static [&'static str] {
        match self {
            System::Euler { .. } => &["rho", "rho_u", "rho_v", "E"],
            System::ShallowWater { .. } => &["phi", "phi_u", "phi_v"],
            System::Transport { .. } | System::Convection { .. } => &["q"],
        }
    }
}

/// Interface flux of the SHLL methods.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Flux {
    /// The split flux of the paper (eq. 9), locally computable per cell.
    #[default]
    Shll,
    /// HLL with Davis wave speeds (eq. 11), the paper's reference.
    Hll,
    /// Rusanov (local Lax–Friedrichs, eq. 12).
    Rusanov,
}

/// Slope limiter of the MUSCL reconstruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Limiter {
    /// minmod (most dissipative, most robust).
    #[default]
    Minmod,
    /// van Leer.
    VanLeer,
}

/// The numerics of a problem.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Numerics {
    /// Interface flux.
    pub flux: Flux,
    /// MUSCL reconstruction with SSP-RK2 (else first order with forward Euler).
    pub muscl: bool,
    /// Limiter of the reconstruction.
    pub limiter: Limiter,
    /// χ clamped to [−1, 1] (spec §3.3).
    pub clamp_chi: bool,
    /// SHLL dissipation coefficient D.
    pub d: f64,
}

impl Numerics {
    /// First-order SHLL with the defaults (convection ignores it).
    pub fn first_order() -> Numerics {
        Numerics {
            flux: Flux::Shll,
            muscl: false,
            limiter: Limiter::Minmod,
            clamp_chi: true,
            d: 1.0,
        }
    }

    /// `shll-first-order`, `hll-muscl-minmod`, … (manifest, NetCDF attribute).
    pub fn label(&self) -> String {
        let f = match self.flux {
            Flux::Shll => "shll",
            Flux::Hll => "hll",
            Flux::Rusanov => "rusanov",
        };
        if self.muscl {
            let l = match self.limiter {
                Limiter::Minmod => "minmod",
                Limiter::VanLeer => "van_leer",
            };
            format!("{f}-muscl-{l}-rk2")
        } else {
            format!("{f}-first-order")
        }
    }
}

/// A side's ghost rule.
#[derive(Debug, Clone, PartialEq)]
pub enum Bc {
    /// Ghosts copy the nearest computed cell.
    Outflow,
    /// Ghosts mirror the computed cells with the normal momentum reversed.
    Reflective,
    /// Ghosts hold this conserved state.
    Inflow(Vec<f64>),
    /// Ghosts copy the cells at the opposite side.
    Periodic,
}

impl Bc {
    /// `CFG_<SIDE>` of the kernels.
    pub fn id(&self) -> i64 {
        match self {
            Bc::Outflow => 0,
            Bc::Reflective => 1,
            Bc::Inflow(_) => 2,
            Bc::Periodic => 3,
        }
    }
}

/// The padded storage of a uniform grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mesh {
    /// Computed cells along x.
    pub nx: usize,
    /// Computed cells along y (1 in 1D).
    pub ny: usize,
    /// 1 or 2.
    pub dims: usize,
    /// Ghost layers (1: first order, 2: MUSCL).
    pub ng: usize,
    /// Stored columns nx + 2ng.
    pub nxs: usize,
    /// Stored rows: ny + 2ng in 2D, 1 in 1D.
    pub nys: usize,
    /// Stored cells per variable.
    pub ns: usize,
    /// Cell width Δx.
    pub dx: f64,
    /// Cell height Δy (the y extent in 1D).
    pub dy: f64,
    /// x of the west side.
    pub x0: f64,
    /// y of the south side.
    pub y0: f64,
    /// The computed cells this storage updates: stored columns `own[0]..own[1]` and rows
    /// `own[2]..own[3]` (all of them, except on a rank's window: its owned computed cells).
    pub own: [usize; 4],
    /// West, east, south, north: true where the side faces another rank's block (a window of
    /// a decomposed run), whose ghost layers are the halo the exchange fills, not the side's
    /// rule.
    pub halo: [bool; 4],
}

impl Mesh {
    /// The storage of `spec` with `ng` ghost layers.
    pub fn new(spec: &GridSpec, ng: usize) -> Mesh {
        let dims = if spec.ny == 1 { 1 } else { 2 };
        let nxs = spec.nx + 2 * ng;
        let nys = if dims == 2 { spec.ny + 2 * ng } else { 1 };
        Mesh {
            nx: spec.nx,
            ny: spec.ny,
            dims,
            ng,
            nxs,
            nys,
            ns: nxs * nys,
            dx: (spec.x[1] - spec.x[0]) / spec.nx as f64,
            dy: (spec.y[1] - spec.y[0]) / spec.ny as f64,
            x0: spec.x[0],
            y0: spec.y[0],
            own: [ng, ng + spec.nx, 0, 0],
            halo: [false; 4],
        }
        .with_rows()
    }

    /// `own` rows set to every computed row.
    fn with_rows(mut self) -> Mesh {
        let j0 = self.j0();
        self.own[2] = j0;
        self.own[3] = j0 + self.ny;
        self
    }

    /// Stored index of (i, j).
    #[inline(always)]
    pub fn idx(&self, i: usize, j: usize) -> usize {
        i + j * self.nxs
    }

    /// Stored row of the first computed row (ng in 2D, 0 in 1D).
    pub fn j0(&self) -> usize {
        if self.dims == 2 {
            self.ng
        } else {
            0
        }
    }

    /// Stored rows of the computed cells (a rank's window: those it owns).
    pub fn rows(&self) -> std::ops::Range<usize> {
        self.own[2]..self.own[3]
    }

    /// Stored columns of the computed cells (a rank's window: those it owns).
    pub fn cols(&self) -> std::ops::Range<usize> {
        self.own[0]..self.own[1]
    }

    /// Centre of stored cell (i, j), as [`Grid`] computes it (face + half width).
    pub fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        let fx = self.x0 + (i as f64 - self.ng as f64) * self.dx;
        let fy = self.y0 + (j as f64 - self.j0() as f64) * self.dy;
        (fx + 0.5 * self.dx, fy + 0.5 * self.dy)
    }
}

/// How Δt is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum StepRule {
    /// Δt = cfl / max rate, from the state at the start of each step.
    Cfl(f64),
    /// A fixed Δt.
    Fixed(f64),
}

/// The discretised problem of a case of any explicit method, shared (`Arc`) by its backends.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The method.
    pub method: Method,
    /// The system and its constants.
    pub system: System,
    /// The numerics.
    pub num: Numerics,
    /// The storage.
    pub mesh: Mesh,
    /// West, east, south, north (south/north unused in 1D).
    pub sides: [Bc; 4],
    /// 1 for a solid cell (internal walls), stored layout; `None` without walls.
    pub solid: Option<Vec<u8>>,
    /// How Δt is chosen.
    pub rule: StepRule,
    /// End time the last CFL step is clipped to (∞ when the case counts steps).
    pub t_end: f64,
    /// Steps the run driver takes at most.
    pub total_steps: u64,
    /// The initial conserved state, `nv` planes of the stored layout (ghosts unset).
    pub initial: Vec<f64>,
    /// The output grid (one ghost layer) of the case.
    pub grid: Grid,
    /// What the run driver and the output need of the case.
    pub common: Common,
}

impl Problem {
    /// Number of conserved variables.
    pub fn nv(&self) -> usize {
        self.system.nv()
    }

    /// True if stored cell `k` is solid.
    #[inline(always)]
    pub fn is_solid(&self, k: usize) -> bool {
        self.solid.as_ref().is_some_and(|m| m[k] != 0)
    }

    /// Fluid cells (the work of a step).
    pub fn fluid_cells(&self) -> u64 {
        let m = &self.mesh;
        let solid = match &self.solid {
            Some(s) => s.iter().filter(|&&x| x != 0).count() as u64,
            None => 0,
        };
        (m.nx * m.ny) as u64 - solid
    }

    /// The time rule in words (log).
    pub fn rule_text(&self) -> String {
        match self.rule {
            StepRule::Cfl(c) => format!("CFL {c}"),
            StepRule::Fixed(dt) => format!("fixed dt {dt:?}"),
        }
    }
}

/// Fill the interior of `q` (nv planes of `mesh`) with `f(x, y)` at each cell centre.
pub fn fill(mesh: &Mesh, nv: usize, mut f: impl FnMut(f64, f64) -> [f64; NV_MAX]) -> Vec<f64> {
    let mut q = vec![0.0; nv * mesh.ns];
    for j in mesh.rows() {
        for i in mesh.cols() {
            let (x, y) = mesh.centre(i, j);
            let s = f(x, y);
            let k = mesh.idx(i, j);
            for (v, sv) in s.iter().enumerate().take(nv) {
                q[v * mesh.ns + k] = *sv;
            }
        }
    }
    q
}

/// Solid mask (stored layout) of the cells whose centres lie inside any of `walls`
/// (strictly), `None` if none is.
pub fn solid_mask(mesh: &Mesh, walls: &[case::Rect]) -> Option<Vec<u8>> {
    if walls.is_empty() {
        return None;
    }
    let mut m = vec![0u8; mesh.ns];
    let mut any = false;
    for j in mesh.rows() {
        for i in mesh.cols() {
            let (x, y) = mesh.centre(i, j);
            if walls
                .iter()
                .any(|w| x > w.x[0] && x < w.x[1] && y > w.y[0] && y < w.y[1])
            {
                m[mesh.idx(i, j)] = 1;
                any = true;
            }
        }
    }
    any.then_some(m)
}
