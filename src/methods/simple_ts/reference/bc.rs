//! Boundary conditions (spec §3): ghost-layer rules of the domain sides, face copies, and the
//! wall gas values of slip (42) and jump (43), computed inline from iterate k (which equals the
//! C++ order of computing them at the end of the previous iteration).

use super::ops::{jump, li, slip};
use super::Ctx;
use crate::grid::Grid;
use crate::methods::simple_ts::case::WallBc;
use crate::methods::simple_ts::fields::Fields;
use crate::methods::simple_ts::geometry::{Geometry, Ghost, F_COPY, F_PERIODIC, OPEN};

/// How one ghost cell gets its p, T, ρ, Γ.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CellRule {
    /// Fixed state.
    Fixed {
        /// Pressure.
        p: f64,
        /// Temperature.
        t: f64,
    },
    /// Copy of another stored cell (zero gradient or periodic).
    Copy(usize),
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
}

impl Ghosts {
    /// Collect the ghost rules of `geo` on `g`.
    pub fn new(g: &Grid, geo: &Geometry) -> Ghosts {
        let mut cells = Vec::new();
        let rule = |side: Ghost, src: usize, wrap: usize| match side {
            Ghost::Inflow { p, t, .. } | Ghost::Pressure { p, t } => Some(CellRule::Fixed { p, t }),
            Ghost::Outflow => Some(CellRule::Copy(src)),
            Ghost::Periodic => Some(CellRule::Copy(wrap)),
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
        Ghosts {
            cells,
            u_copies: copies(&geo.u_face, &geo.u_partner),
            v_copies: copies(&geo.v_face, &geo.v_partner),
        }
    }

    /// Set p, T, ρ, Γ of every open ghost cell.
    pub fn apply_cells(&self, f: &mut Fields) {
        for &(ij, r) in &self.cells {
            let (p, t) = match r {
                CellRule::Fixed { p, t } => (p, t),
                CellRule::Copy(src) => (f.p[src], f.T[src]),
            };
            f.p[ij] = p;
            f.T[ij] = t;
            f.rho[ij] = p / t;
            f.Gam[ij] = t.sqrt();
        }
    }

    /// Set p and T of open ghost cells in loop-3 buffers (between inner sweeps).
    pub fn apply_pt(&self, p: &mut [f64], t: &mut [f64]) {
        for &(ij, r) in &self.cells {
            if let CellRule::Copy(src) = r {
                p[ij] = p[src];
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

impl Ctx<'_> {
    /// Gas velocity at a horizontal wall next to u-face `ij` (the u-CV's ghost value, (42)),
    /// for the solid cell `s` across the wall, half-cell distance `half_h`.
    #[inline]
    pub fn u_wall_gas(&self, ij: usize, s: usize, half_h: f64) -> f64 {
        let w = self.geo.wall(s);
        match w.bc {
            WallBc::Slip => slip(
                self.k.u[ij],
                w.u,
                self.f.rho_u[ij],
                half_h,
                self.c.sigma_u,
                self.c.kn,
            ),
            _ => w.u,
        }
    }

    /// Gas velocity at a vertical wall next to v-face `ij` (42).
    #[inline]
    pub fn v_wall_gas(&self, ij: usize, s: usize, half_h: f64) -> f64 {
        let w = self.geo.wall(s);
        match w.bc {
            WallBc::Slip => slip(
                self.k.v[ij],
                w.v,
                self.f.rho_v[ij],
                half_h,
                self.c.sigma_u,
                self.c.kn,
            ),
            _ => w.v,
        }
    }

    /// Gas temperature T_s at the wall face between fluid cell `ij` and solid `s` (43);
    /// `half_h` is half the fluid cell's width normal to the face.
    #[inline]
    pub fn T_wall_gas(&self, ij: usize, s: usize, half_h: f64) -> f64 {
        let w = self.geo.wall(s);
        match w.bc {
            WallBc::Slip => jump(
                self.k.T[ij],
                w.t,
                self.k.rho[ij],
                half_h,
                self.c.sigma_t,
                self.c.kn,
            ),
            WallBc::NoSlip => w.t,
            WallBc::Adiabatic => self.k.T[ij],
        }
    }

    /// Γ interpolated along y to the corner (x_f[i]... ) of column `i` between rows j−1 and j:
    /// linear between two fluid cells, √T_s where one of them is solid (spec §3.2).
    /// Returns `None` when both are solid.
    #[inline]
    pub fn gam_col(&self, i: usize, j: usize) -> Option<f64> {
        let g = self.g;
        let (a, b) = (g.idx(i, j - 1), g.idx(i, j));
        match (self.geo.solid(a), self.geo.solid(b)) {
            (false, false) => Some(li(self.k.Gam[a], self.k.Gam[b], g.hy[j - 1], g.hy[j])),
            (true, false) => Some(self.T_wall_gas(b, a, 0.5 * g.hy[j]).sqrt()),
            (false, true) => Some(self.T_wall_gas(a, b, 0.5 * g.hy[j - 1]).sqrt()),
            (true, true) => None,
        }
    }

    /// Γ interpolated along x in row `j` between columns i−1 and i (see [`Ctx::gam_col`]).
    #[inline]
    pub fn gam_row(&self, i: usize, j: usize) -> Option<f64> {
        let g = self.g;
        let (a, b) = (g.idx(i - 1, j), g.idx(i, j));
        match (self.geo.solid(a), self.geo.solid(b)) {
            (false, false) => Some(li(self.k.Gam[a], self.k.Gam[b], g.hx[i - 1], g.hx[i])),
            (true, false) => Some(self.T_wall_gas(b, a, 0.5 * g.hx[i]).sqrt()),
            (false, true) => Some(self.T_wall_gas(a, b, 0.5 * g.hx[i - 1]).sqrt()),
            (true, true) => None,
        }
    }

    /// Γc(i,j): Γ at the corner (x_f[i], y_f[j]) for the u-CV cross faces, column
    /// interpolations first (spec §2.4).
    #[inline]
    pub fn gam_c(&self, i: usize, j: usize) -> f64 {
        mean_of(self.gam_col(i - 1, j), self.gam_col(i, j))
    }

    /// Γc'(i,j): Γ at the corner (x_f[i], y_f[j]) for the v-CV cross faces, row
    /// interpolations first.
    #[inline]
    pub fn gam_c2(&self, i: usize, j: usize) -> f64 {
        mean_of(self.gam_row(i, j - 1), self.gam_row(i, j))
    }
}

/// Mean of the available values (0 if none: a corner inside a solid, never used).
#[inline]
pub fn mean_of(a: Option<f64>, b: Option<f64>) -> f64 {
    match (a, b) {
        (Some(a), Some(b)) => 0.5 * (a + b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => 0.0,
    }
}
