//! Boundary conditions (spec §3): ghost-layer rules of the domain sides, face copies, and the
//! wall gas values of slip (42) and jump (43), computed inline from iterate k (which equals the
//! C++ order of computing them at the end of the previous iteration).

use super::ops::{gam_eos, jump, li, rho_eos, slip};
use super::{Ctx, Fluxes};
use crate::grid::Grid;
use crate::methods::simple_ts::case::{Defect, Thermal};
use crate::methods::simple_ts::fields::Fields;
use crate::methods::simple_ts::geometry::{
    EastOuter, Geometry, Ghost, F_BALANCE, F_COPY, F_PERIODIC, F_SOLVED, OPEN,
};

/// Where one ghost value (p or T) comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Src {
    /// A fixed value.
    Fixed(f64),
    /// A copy of another stored cell's value (zero gradient or periodic).
    Copy(usize),
}

/// How one ghost cell gets its p and T (ρ = p/T and Γ = √T follow).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellRule {
    /// Pressure.
    pub p: Src,
    /// Temperature.
    pub t: Src,
}

impl CellRule {
    /// The stored cell this ghost copies entirely (p and T from one source), if it does.
    pub fn copy_of(&self) -> Option<usize> {
        match (self.p, self.t) {
            (Src::Copy(a), Src::Copy(b)) if a == b => Some(a),
            _ => None,
        }
    }

    /// True if neither value is copied.
    pub fn is_fixed(&self) -> bool {
        matches!((self.p, self.t), (Src::Fixed(_), Src::Fixed(_)))
    }

    /// The stored cells p and T are read from: the source of a copied value, `dst` itself
    /// for a fixed one (which never changes after the initial state).
    pub fn sources(&self, dst: usize) -> (usize, usize) {
        let of = |s: Src| match s {
            Src::Copy(k) => k,
            Src::Fixed(_) => dst,
        };
        (of(self.p), of(self.t))
    }
}

/// Ghost cells and copied faces, ordered so that every source is final before it is read.
#[derive(Debug, Clone, Default)]
pub struct Ghosts {
    /// (ghost cell, rule).
    pub cells: Vec<(usize, CellRule)>,
    /// (u-face, source u-face) for COPY and PERIODIC faces.
    pub u_copies: Vec<(usize, usize)>,
    /// (v-face, source v-face).
    pub v_copies: Vec<(usize, usize)>,
    /// Rows whose west outer face (`F_BALANCE`) comes from the ghost cell's mass balance.
    pub west_balance: Vec<usize>,
    /// What sets the east outer face.
    pub east_outer: EastOuter,
    /// Rows with an east outer face (an open ghost cell; for a copy, a solved boundary face).
    pub east_rows: Vec<usize>,
}

impl Ghosts {
    /// Collect the ghost rules of `geo` on `g`.
    pub fn new(g: &Grid, geo: &Geometry) -> Ghosts {
        let mut cells = Vec::new();
        let either = |copy: bool, v: f64, src: usize| {
            if copy {
                Src::Copy(src)
            } else {
                Src::Fixed(v)
            }
        };
        let rule = |side: Ghost, src: usize, wrap: usize| match side {
            Ghost::Inflow { p, t, p_copy, .. } => Some(CellRule {
                p: either(p_copy, p, src),
                t: Src::Fixed(t),
            }),
            Ghost::Pressure { p, t, t_copy, .. } => Some(CellRule {
                p: Src::Fixed(p),
                t: either(t_copy, t, src),
            }),
            Ghost::Outflow { .. } => Some(CellRule {
                p: Src::Copy(src),
                t: Src::Copy(src),
            }),
            Ghost::Periodic => Some(CellRule {
                p: Src::Copy(wrap),
                t: Src::Copy(wrap),
            }),
            Ghost::Wall => None,
        };
        let [w, e, s, n] = geo.sides;
        // x-sides first (rows 1..=ny), then y-sides over all columns (corners read x-ghosts).
        for j in 1..=g.ny {
            for (i, side, src, wrap) in [(0, w, 1, g.nx), (g.nx + 1, e, g.nx, 1)] {
                let ij = g.idx(i, j);
                if geo.cell[ij] == OPEN {
                    if let Some(r) = rule(side, g.idx(src, j), g.idx(wrap, j)) {
                        cells.push((ij, r));
                    }
                }
            }
        }
        for i in 0..g.nxt {
            for (j, side, src, wrap) in [(0, s, 1, g.ny), (g.ny + 1, n, g.ny, 1)] {
                let ij = g.idx(i, j);
                if geo.cell[ij] == OPEN {
                    if let Some(r) = rule(side, g.idx(i, src), g.idx(i, wrap)) {
                        cells.push((ij, r));
                    }
                }
            }
        }
        let copies = |kind: &[u8], partner: &[u32]| {
            let mut first = Vec::new();
            let mut second = Vec::new();
            for (ij, &k) in kind.iter().enumerate() {
                if k == F_COPY || k == F_PERIODIC {
                    let src = partner[ij] as usize;
                    let chained = kind[src] == F_COPY || kind[src] == F_PERIODIC;
                    if chained { &mut second } else { &mut first }.push((ij, src));
                }
            }
            first.extend(second);
            first
        };
        let west_balance = (1..=g.ny)
            .filter(|&j| geo.u_face[g.idx(0, j)] == F_BALANCE)
            .collect();
        let east_outer = geo.east_outer();
        let east_rows = (1..=g.ny)
            .filter(|&j| {
                let ij = g.idx(g.nx + 1, j);
                match east_outer {
                    EastOuter::None => false,
                    EastOuter::Balance => geo.cell[ij] == OPEN,
                    EastOuter::Copy => geo.cell[ij] == OPEN && geo.u_face[ij] == F_SOLVED,
                }
            })
            .collect();
        Ghosts {
            cells,
            u_copies: copies(&geo.u_face, &geo.u_partner),
            v_copies: copies(&geo.v_face, &geo.v_partner),
            west_balance,
            east_outer,
            east_rows,
        }
    }

    /// True if an outer face is set by [`Ghosts::apply_outer`].
    pub fn has_outer(&self) -> bool {
        !self.west_balance.is_empty() || !self.east_rows.is_empty()
    }

    /// Compat `lagged_ghost_state`: ρ = p/T and Γ = √T of every open ghost cell from its
    /// current p and T (the values of the previous iteration's copies), then the copied p
    /// and T, as the C++ code orders them (docs/authors-cpp-defects.md).
    pub fn apply_cells_lagged(&self, f: &mut Fields) {
        for &(ij, _) in &self.cells {
            f.rho[ij] = rho_eos(f.p[ij], f.T[ij]);
            f.Gam[ij] = gam_eos(f.T[ij]);
        }
        for &(ij, r) in &self.cells {
            if let Src::Copy(src) = r.p {
                f.p[ij] = f.p[src];
            }
            if let Src::Copy(src) = r.t {
                f.T[ij] = f.T[src];
            }
        }
    }

    /// The outer faces of the west and east ghost columns from the face densities in `fl`
    /// (the C++ code's `drhodt_durhodx_dvrhody_0_BC_xb/xe` and, in compat, the east
    /// `dudx_0_BC_xe` copy), then their mass fluxes. The mass balance of the ghost cell,
    /// (ρ − ρⁿ)V/Δt + Σ out F = 0, solved for the outer face's velocity, in the C++ code's
    /// order of operations; `n` is level n, `k` the iterate after this iteration's ghost
    /// column v copies.
    pub fn apply_outer(&self, g: &Grid, k: &mut Fields, n: &Fields, fl: &mut Fluxes, dt: f64) {
        let nxt = g.nxt;
        for &j in &self.west_balance {
            let ij = g.idx(0, j);
            let (up, hx, hy) = (ij + nxt, g.hx[0], g.hy[j]);
            k.u[ij] = ((k.rho[ij] - n.rho[ij]) * hx * hy / dt
                + (fl.rho_v[up] * k.v[up] - fl.rho_v[ij] * k.v[ij]) * hx
                + fl.rho_u[ij + 1] * k.u[ij + 1] * hy)
                / (fl.rho_u[ij] * hy);
            fl.Fx[ij] = hy * fl.rho_u[ij] * k.u[ij];
        }
        let i = g.nx + 1;
        for &j in &self.east_rows {
            let ij = g.idx(i, j);
            let (up, hx, hy) = (ij + nxt, g.hx[i], g.hy[j]);
            // The face between the ghost column and the (unstored) second C++ ghost column,
            // whose ρ equals the ghost's: its upwind density is the ghost's.
            fl.rho_u_xe[j] = k.rho[ij];
            fl.u_xe[j] = match self.east_outer {
                EastOuter::Balance => {
                    (-(k.rho[ij] - n.rho[ij]) * hx * hy / dt
                        - (fl.rho_v[up] * k.v[up] - fl.rho_v[ij] * k.v[ij]) * hx
                        + fl.rho_u[ij] * k.u[ij] * hy)
                        / (fl.rho_u_xe[j] * hy)
                }
                _ => k.u[ij],
            };
            fl.Fx_xe[j] = hy * fl.rho_u_xe[j] * fl.u_xe[j];
        }
    }

    /// Set p, T, ρ, Γ of every open ghost cell.
    pub fn apply_cells(&self, f: &mut Fields) {
        for &(ij, r) in &self.cells {
            let value = |s: Src, a: &[f64]| match s {
                Src::Fixed(v) => v,
                Src::Copy(src) => a[src],
            };
            let (p, t) = (value(r.p, &f.p), value(r.t, &f.T));
            f.p[ij] = p;
            f.T[ij] = t;
            f.rho[ij] = rho_eos(p, t);
            f.Gam[ij] = gam_eos(t);
        }
    }

    /// Set the copied p and T of open ghost cells in loop-3 buffers (between inner sweeps).
    pub fn apply_pt(&self, p: &mut [f64], t: &mut [f64]) {
        for &(ij, r) in &self.cells {
            if let Src::Copy(src) = r.p {
                p[ij] = p[src];
            }
            if let Src::Copy(src) = r.t {
                t[ij] = t[src];
            }
        }
    }

    /// Copy COPY/PERIODIC faces from their partners.
    pub fn apply_faces(&self, f: &mut Fields) {
        for &(ij, src) in &self.u_copies {
            f.u[ij] = f.u[src];
        }
        for &(ij, src) in &self.v_copies {
            f.v[ij] = f.v[src];
        }
    }
}

/// True if stored cell (i, j) is solid.
#[inline(always)]
fn solid(x: &Ctx, i: usize, j: usize) -> bool {
    x.geo.solid(x.g.idx(i, j))
}

/// (42) gas velocity at a horizontal wall next to u-face (i,j), the solid cell (si,sj) across
/// it at the half-cell distance `hh`: the slip value for a slip wall (with its σ_u), the wall
/// velocity otherwise.
#[inline(always)]
pub fn u_wall_gas(x: &Ctx, i: usize, j: usize, si: usize, sj: usize, hh: f64) -> f64 {
    let ij = x.g.idx(i, j);
    let w = x.geo.wall(x.g.idx(si, sj));
    if w.slip {
        slip(x.k.u[ij], w.u, x.f.rho_u[ij], hh, w.sigma_u, x.c.kn)
    } else {
        w.u
    }
}

/// (42) gas velocity at a vertical wall next to v-face (i,j).
#[inline(always)]
pub fn v_wall_gas(x: &Ctx, i: usize, j: usize, si: usize, sj: usize, hh: f64) -> f64 {
    let ij = x.g.idx(i, j);
    let w = x.geo.wall(x.g.idx(si, sj));
    if w.slip {
        slip(x.k.v[ij], w.v, x.f.rho_v[ij], hh, w.sigma_u, x.c.kn)
    } else {
        w.v
    }
}

/// (43) gas temperature T_s at the wall face between fluid cell (i,j) and solid (si,sj),
/// `hh` half the fluid cell's width normal to the face: the jump value (with the wall's σ_T),
/// the wall temperature (fixed), the fluid value (adiabatic).
#[inline(always)]
pub fn T_wall_gas(x: &Ctx, i: usize, j: usize, si: usize, sj: usize, hh: f64) -> f64 {
    let ij = x.g.idx(i, j);
    let w = x.geo.wall(x.g.idx(si, sj));
    match w.thermal {
        Thermal::Jump => jump(x.k.T[ij], w.t, x.k.rho[ij], hh, w.sigma_t, x.c.kn),
        Thermal::Fixed => w.t,
        Thermal::Adiabatic => x.k.T[ij],
    }
}

/// Γ along y to the corner of column `i` between rows j−1 and j: linear between two fluid
/// cells, √T_s at half a cell where one of them is solid (spec §3.2); 0 where both are solid
/// (the caller's [`mean_of`] is told so).
#[inline]
pub fn gam_col(x: &Ctx, i: usize, j: usize) -> f64 {
    let g = x.g;
    match (solid(x, i, j - 1), solid(x, i, j)) {
        (false, false) => li(
            x.k.Gam[g.idx(i, j - 1)],
            x.k.Gam[g.idx(i, j)],
            g.hy[j - 1],
            g.hy[j],
        ),
        (true, false) => T_wall_gas(x, i, j, i, j - 1, 0.5 * g.hy[j]).sqrt(),
        (false, true) => T_wall_gas(x, i, j - 1, i, j, 0.5 * g.hy[j - 1]).sqrt(),
        (true, true) => 0.0,
    }
}

/// Γ along x in row `j` between columns i−1 and i (see [`gam_col`]).
#[inline]
pub fn gam_row(x: &Ctx, i: usize, j: usize) -> f64 {
    let g = x.g;
    match (solid(x, i - 1, j), solid(x, i, j)) {
        (false, false) => li(
            x.k.Gam[g.idx(i - 1, j)],
            x.k.Gam[g.idx(i, j)],
            g.hx[i - 1],
            g.hx[i],
        ),
        (true, false) => T_wall_gas(x, i, j, i - 1, j, 0.5 * g.hx[i]).sqrt(),
        (false, true) => T_wall_gas(x, i - 1, j, i, j, 0.5 * g.hx[i - 1]).sqrt(),
        (true, true) => 0.0,
    }
}

/// Γc(i,j): Γ at the corner (x_f[i], y_f[j]) for the u-CV cross faces, column
/// interpolations first (spec §2.4).
#[inline]
pub fn gam_c(x: &Ctx, i: usize, j: usize) -> f64 {
    let four = [(i - 1, j - 1), (i, j - 1), (i - 1, j), (i, j)];
    if x.geo.compat.has(Defect::CornerGammaThreeTerms) && mixed(x, four) {
        // The C++ sum: both column values and the vertical wall faces' √T_s, halved.
        let g = x.g;
        let walls = li(
            wall_sqrt_row(x, i, j - 1),
            wall_sqrt_row(x, i, j),
            g.hy[j - 1],
            g.hy[j],
        );
        return 0.5 * ((gam_col(x, i - 1, j) + gam_col(x, i, j)) + walls);
    }
    mean_of(
        gam_col(x, i - 1, j),
        solid(x, i - 1, j - 1) && solid(x, i - 1, j),
        gam_col(x, i, j),
        solid(x, i, j - 1) && solid(x, i, j),
    )
}

/// Γc'(i,j): Γ at the corner (x_f[i], y_f[j]) for the v-CV cross faces, row
/// interpolations first.
#[inline]
pub fn gam_c2(x: &Ctx, i: usize, j: usize) -> f64 {
    let four = [(i - 1, j - 1), (i, j - 1), (i - 1, j), (i, j)];
    if x.geo.compat.has(Defect::CornerGammaThreeTerms) && mixed(x, four) {
        let g = x.g;
        let walls = li(
            wall_sqrt_col(x, i - 1, j),
            wall_sqrt_col(x, i, j),
            g.hx[i - 1],
            g.hx[i],
        );
        return 0.5 * ((gam_row(x, i, j - 1) + gam_row(x, i, j)) + walls);
    }
    mean_of(
        gam_row(x, i, j - 1),
        solid(x, i - 1, j - 1) && solid(x, i, j - 1),
        gam_row(x, i, j),
        solid(x, i - 1, j) && solid(x, i, j),
    )
}

/// True if some but not all of the four cells are solid (compat `corner_gamma_three_terms`:
/// where the C++ code sums its five terms).
#[inline]
fn mixed(x: &Ctx, four: [(usize, usize); 4]) -> bool {
    let n = four.iter().filter(|&&(a, b)| solid(x, a, b)).count();
    n > 0 && n < 4
}

/// √T_s of the vertical wall face at u-face (i,j) if exactly one of its cells is solid, else
/// 0 (the C++ code's `Temper_of_fluid_on_the_wall_u`, never written elsewhere).
#[inline]
fn wall_sqrt_row(x: &Ctx, i: usize, j: usize) -> f64 {
    if solid(x, i - 1, j) != solid(x, i, j) {
        gam_row(x, i, j)
    } else {
        0.0
    }
}

/// √T_s of the horizontal wall face at v-face (i,j), as [`wall_sqrt_row`].
#[inline]
fn wall_sqrt_col(x: &Ctx, i: usize, j: usize) -> f64 {
    if solid(x, i, j - 1) != solid(x, i, j) {
        gam_col(x, i, j)
    } else {
        0.0
    }
}

/// Mean of the available values, 0 if none (a corner inside a solid, never used): `a`
/// unless `a_none`, `b` unless `b_none`.
#[inline]
pub fn mean_of(a: f64, a_none: bool, b: f64, b_none: bool) -> f64 {
    match (a_none, b_none) {
        (false, false) => 0.5 * (a + b),
        (false, true) => a,
        (true, false) => b,
        (true, true) => 0.0,
    }
}

/// Stored face indices and the values to write there.
pub type Slots = Vec<(usize, f64)>;

/// Compat `corner_slip_ghosts` (docs/authors-cpp-defects.md §2): the values the authors' C++
/// code stores in the wall faces at convex body corners, as (u slots, v slots) of (stored face
/// index, value). For every body cell with gas directly below (else above) the C++ code writes
/// the slip velocity of the gas face below (above) into the cell's west and east u-faces, each
/// only where the cell diagonally across that face is gas; v likewise with gas left (else
/// right). Only the faces between a gas and a body cell are returned: between two body cells
/// the same values are the wall gas velocities computed where they are read.
pub fn corner_slots(x: &Ctx) -> (Slots, Slots) {
    let (g, geo, k, f) = (x.g, x.geo, x.k, x.f);
    let gas = |i: usize, j: usize| !geo.solid(g.idx(i, j));
    let (mut us, mut vs) = (Vec::new(), Vec::new());
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let ij = g.idx(i, j);
            if !geo.solid(ij) {
                continue;
            }
            let w = geo.wall(ij);
            let side = if gas(i, j - 1) {
                Some(j - 1)
            } else if gas(i, j + 1) {
                Some(j + 1)
            } else {
                None
            };
            if let Some(jg) = side {
                // West face (i,j) beside cell i−1, east face (i+1,j) beside cell i+1.
                for (fi, ci) in [(i, i - 1), (i + 1, i + 1)] {
                    if gas(ci, j) && gas(ci, jg) {
                        let s = g.idx(fi, jg);
                        let val = if w.slip {
                            slip(k.u[s], w.u, f.rho_u[s], 0.5 * g.hy[jg], w.sigma_u, x.c.kn)
                        } else {
                            w.u
                        };
                        us.push((g.idx(fi, j), val));
                    }
                }
            }
            let side = if gas(i - 1, j) {
                Some(i - 1)
            } else if gas(i + 1, j) {
                Some(i + 1)
            } else {
                None
            };
            if let Some(ig) = side {
                // South face (i,j) beside row j−1, north face (i,j+1) beside row j+1.
                for (fj, cj) in [(j, j - 1), (j + 1, j + 1)] {
                    if gas(i, cj) && gas(ig, cj) {
                        let s = g.idx(ig, fj);
                        let val = if w.slip {
                            slip(k.v[s], w.v, f.rho_v[s], 0.5 * g.hx[ig], w.sigma_u, x.c.kn)
                        } else {
                            w.v
                        };
                        vs.push((g.idx(i, fj), val));
                    }
                }
            }
        }
    }
    (us, vs)
}

/// 1 where cell (i,j) is not solid, 0 where it is: the C++ code's fluid flags, which multiply
/// the stored velocities of the faces beyond in its near-wall branches (compat
/// `corner_slip_ghosts`, where those faces hold slot values).
#[inline(always)]
pub fn gas_flag(x: &Ctx, i: usize, j: usize) -> f64 {
    if solid(x, i, j) {
        0.0
    } else {
        1.0
    }
}
