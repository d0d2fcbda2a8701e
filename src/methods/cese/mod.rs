//! Chang's space-time conservation element and solution element (CE/SE) scheme for the 1D
//! and 2D Euler equations of an ideal gas (seed 000, the α-scheme; `docs/method/cese.md` has
//! every numbered equation the code cites). Its state is not a cell average alone: every
//! mesh point carries the conserved variables u and their spatial derivatives u_x (and u_y),
//! on a staggered space-time mesh whose points alternate between cell centres (the
//! "integer" level, t^n) and cell corners (the "half" level, t^{n+½}).
//!
//! **Mesh and storage.** The integer level holds the nx (× ny) cell centres of the case's
//! uniform grid; the half level holds the nx + 1 (× ny + 1) cell corners, both domain ends
//! included, so that every side has a half-level point on it. Half step A (integer → half)
//! computes every half point from its two (four) integer parents, with the parents outside
//! the domain given by the sides' ghost rules ([`Bc`]); half step B (half → integer) has all
//! parents inside. One step is A then B: the points return to the cell centres and t
//! advances by Δt. Each level is `planes` planes of `ns` values (component-major: u, then
//! u_x, then u_y), point (i, j) at `i + j·(nx + 1)`.
//!
//! **Time step.** Δt = cfl·h / max(|v| + a) (h = Δx in 1D, min(Δx, Δy) in 2D), from the
//! integer level at the start of the step, the last step clipped to the end time; computed
//! with the fragments of `methods/explicit/update.rs` (rate (|v| + a)/h). On a device the
//! maximum is reduced with the second half step; a maximum does not depend on order, so Δt
//! is the same bits on every backend.
//!
//! **Bit-identity.** The reference ([`reference`]), its row-parallel form and the OpenCL
//! kernels (`cl/cese/`) evaluate the same formulas ([`fragments`], 0-ulp twins of
//! `cl/cese/fragments.cl`) in the same order with FP contraction off; |x|^α is a product of
//! α factors (α an integer), never `pow`, which is not correctly rounded on either side.

pub mod case;
pub mod fragments;
pub mod numbers;
pub mod opencl;
pub mod reference;
pub mod shape;
pub mod solver;
pub mod source;
pub mod sweep;

use crate::case::{Common, GridSpec, Method};
use crate::grid::Grid;
use crate::methods::explicit::StepRule;

/// A side's ghost rule: what the parents outside the domain are in half step A.
#[derive(Debug, Clone, PartialEq)]
pub enum Bc {
    /// Zero-order extrapolation: the ghost copies the nearest integer point, derivatives
    /// included (the thesis' non-reflective condition, applied to the missing parent).
    Outflow,
    /// A slip wall: the mirror image of the nearest point (normal momentum and the
    /// derivatives that change sign under the mirror reversed), so the normal mass flux
    /// through the wall point is zero.
    Reflective,
    /// A fixed conserved state with zero derivatives.
    Inflow([f64; 4]),
    /// The point at the opposite side.
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

/// The storage of the two levels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mesh {
    /// Integer points (cells) along x.
    pub nx: usize,
    /// Integer points along y (1 in 1D).
    pub ny: usize,
    /// 1 or 2.
    pub dims: usize,
    /// Row stride, nx + 1 (the half level's row).
    pub sx: usize,
    /// Values per plane: (nx + 1)(ny + 1) in 2D, nx + 1 in 1D.
    pub ns: usize,
    /// Conserved variables: 3 in 1D (ρ, ρu, E), 4 in 2D (ρ, ρu, ρv, E).
    pub nv: usize,
    /// Planes per level: nv · (1 + dims) (u, u_x, u_y).
    pub planes: usize,
    /// Δx.
    pub dx: f64,
    /// Δy (the y extent in 1D).
    pub dy: f64,
    /// x of the west side.
    pub x0: f64,
    /// y of the south side.
    pub y0: f64,
}

impl Mesh {
    /// The storage of `spec`.
    pub fn new(spec: &GridSpec) -> Mesh {
        let dims = if spec.ny == 1 { 1 } else { 2 };
        let nv = if dims == 1 { 3 } else { 4 };
        let sx = spec.nx + 1;
        let ns = if dims == 2 { sx * (spec.ny + 1) } else { sx };
        Mesh {
            nx: spec.nx,
            ny: spec.ny,
            dims,
            sx,
            ns,
            nv,
            planes: nv * (1 + dims),
            dx: (spec.x[1] - spec.x[0]) / spec.nx as f64,
            dy: (spec.y[1] - spec.y[0]) / spec.ny as f64,
            x0: spec.x[0],
            y0: spec.y[0],
        }
    }

    /// Index of point (i, j) in a plane.
    #[inline(always)]
    pub fn idx(&self, i: usize, j: usize) -> usize {
        i + j * self.sx
    }

    /// Values of one level.
    pub fn len(&self) -> usize {
        self.planes * self.ns
    }

    /// Always false: a mesh has at least two points.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Centre of integer point (i, j) (as [`Grid`] computes it: face + half width).
    pub fn centre(&self, i: usize, j: usize) -> (f64, f64) {
        let fx = self.x0 + i as f64 * self.dx;
        let fy = self.y0 + j as f64 * self.dy;
        (fx + 0.5 * self.dx, fy + 0.5 * self.dy)
    }

    /// The length of the CFL rule: Δx in 1D, min(Δx, Δy) in 2D.
    pub fn h(&self) -> f64 {
        if self.dims == 2 {
            self.dx.min(self.dy)
        } else {
            self.dx
        }
    }
}

/// The constants of the scheme that do not change from step to step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Consts {
    /// γ.
    pub gamma: f64,
    /// α of the weighted average W0 (an integer, 0 … [`MAX_ALPHA`]).
    pub alpha: i32,
    /// Δx/4, Δy/4.
    pub qdx: f64,
    /// Δy/4.
    pub qdy: f64,
    /// 1/Δx.
    pub rdx: f64,
    /// 1/Δy.
    pub rdy: f64,
    /// 2/Δx (1D: the one-sided differences span Δx/2).
    pub rdx2: f64,
    /// The CFL length h.
    pub h: f64,
}

impl Consts {
    /// The constants of `mesh` with γ and α.
    pub fn new(mesh: &Mesh, gamma: f64, alpha: i32) -> Consts {
        Consts {
            gamma,
            alpha,
            qdx: 0.25 * mesh.dx,
            qdy: 0.25 * mesh.dy,
            rdx: 1.0 / mesh.dx,
            rdy: 1.0 / mesh.dy,
            rdx2: 2.0 / mesh.dx,
            h: mesh.h(),
        }
    }
}

/// Largest α accepted: |x|^α is a product of α factors.
pub const MAX_ALPHA: i32 = 8;

/// The discretised problem of a `cese_euler` case, shared (`Arc`) by its backends.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The storage.
    pub mesh: Mesh,
    /// The scheme's constants.
    pub c: Consts,
    /// West, east, south, north (south/north unused in 1D).
    pub sides: [Bc; 4],
    /// How Δt is chosen.
    pub rule: StepRule,
    /// End time the last CFL step is clipped to (∞ when the case counts steps).
    pub t_end: f64,
    /// Steps the run driver takes at most.
    pub total_steps: u64,
    /// The initial integer level (`mesh.len()` values; half-level slots zero).
    pub initial: Vec<f64>,
    /// The output grid (one ghost layer) of the case.
    pub grid: Grid,
    /// What the run driver and the output need of the case.
    pub common: Common,
}

impl Problem {
    /// Integer points (the work of a step).
    pub fn points(&self) -> u64 {
        (self.mesh.nx * self.mesh.ny) as u64
    }

    /// The time rule in words (log).
    pub fn rule_text(&self) -> String {
        match self.rule {
            StepRule::Cfl(c) => format!("CFL {c}"),
            StepRule::Fixed(dt) => format!("fixed dt {dt:?}"),
        }
    }

    /// The method (always [`Method::CeseEuler`]).
    pub fn method(&self) -> Method {
        Method::CeseEuler
    }

    /// `alpha-2`, the scheme label (manifest, NetCDF attribute).
    pub fn label(&self) -> String {
        format!("alpha-{}", self.c.alpha)
    }
}
