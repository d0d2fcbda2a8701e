//! Cell and face classes from bodies and domain sides (spec §3.1, §3.4).
//!
//! Every stored cell is FLUID (computed), SOLID (a body, or the ghost layer of a wall side) or
//! OPEN (the ghost layer of an inflow, outflow, pressure or periodic side: fluid-like for
//! stencils, its values set by the boundary rule). A wall side is a ghost row of solid cells,
//! so bodies and channel walls share one slip/jump implementation.
//!
//! Faces (u on west faces, v on south faces) are SOLVED by the momentum equation, FIXED (a
//! wall's zero normal velocity, an inflow velocity), COPY (set from a partner face after each
//! iteration: outflow zero gradient), PERIODIC (the seam face: treated as solved in the
//! pressure equation with its partner's pseudo-velocity, value copied from the partner) or
//! NONE (inside a solid; never read by a computed equation).

use crate::grid::Grid;
use crate::methods::simple_ts::case::{
    BoundaryFace, Case, Compat, Defect, EndValue, OuterFace, Side, Thermal,
};

/// Cell class: computed fluid cell.
pub const FLUID: u8 = 0;
/// Cell class: solid (body or wall ghost).
pub const SOLID: u8 = 1;
/// Cell class: ghost cell of an open boundary.
pub const OPEN: u8 = 2;

/// Face class: solved by the momentum equation.
pub const F_SOLVED: u8 = 0;
/// Face class: fixed value.
pub const F_FIXED: u8 = 1;
/// Face class: copied from `partner` after each iteration (zero gradient).
pub const F_COPY: u8 = 2;
/// Face class: periodic seam, solved through its partner.
pub const F_PERIODIC: u8 = 3;
/// Face class: unused.
pub const F_NONE: u8 = 4;
/// Face class: the west outer face of a side with `outer_face: mass_balance`, set after each
/// iteration from the ghost cell's mass balance (the reference backends only).
pub const F_BALANCE: u8 = 5;

/// Properties of one solid (body or wall side).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Wall {
    /// Wall velocity along x (tangential on horizontal faces).
    pub u: f64,
    /// Wall velocity along y (tangential on vertical faces).
    pub v: f64,
    /// Wall temperature.
    pub t: f64,
    /// Velocity slip (42) on; else the gas takes the wall velocity.
    pub slip: bool,
    /// Temperature condition.
    pub thermal: Thermal,
    /// σ_u of this wall.
    pub sigma_u: f64,
    /// σ_T of this wall.
    pub sigma_t: f64,
}

impl Wall {
    /// The wall's condition as the kernels read it (`wall_bc`): bit 0 slip, bits 1–2 the
    /// thermal condition (0 jump, 1 fixed, 2 adiabatic).
    pub fn code(&self) -> i32 {
        i32::from(self.slip) | (self.thermal as i32) << 1
    }
}

/// What sets the east outer face (see [`Geometry::east_outer`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum EastOuter {
    /// Not stored: zero gradient through the boundary face itself.
    #[default]
    None,
    /// From the ghost cell's mass balance (`outer_face: mass_balance`).
    Balance,
    /// A copy of the boundary face with the ghost cell's density (compat
    /// `east_outer_face_copy`).
    Copy,
}

/// What sets the ghost cells of one domain side.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ghost {
    /// Solid ghost layer.
    Wall,
    /// Fixed state (p, T) with velocity (u, v).
    Inflow {
        /// Velocity along x.
        u: f64,
        /// Velocity along y.
        v: f64,
        /// Pressure (with `p_copy` its value before the first copy).
        p: f64,
        /// Temperature.
        t: f64,
        /// Ghost p copied from the first computed cell (zero gradient).
        p_copy: bool,
    },
    /// Zero gradient of every quantity.
    Outflow {
        /// The boundary face is solved by the momentum equation (else copied).
        solved: bool,
        /// The outer face (west/east) comes from the ghost cell's mass balance.
        balance: bool,
    },
    /// Fixed p (and T), zero-gradient velocity.
    Pressure {
        /// Pressure.
        p: f64,
        /// Temperature (with `t_copy` its value before the first copy).
        t: f64,
        /// Ghost T copied from the first computed cell (zero gradient).
        t_copy: bool,
        /// The outer face (west/east) comes from the ghost cell's mass balance.
        balance: bool,
    },
    /// Copy of the opposite side.
    Periodic,
}

impl Ghost {
    fn of(side: &Side, gamma: f64, inward: f64, x_normal: bool) -> Ghost {
        match side {
            Side::Wall { .. } => Ghost::Wall,
            Side::Inflow {
                u,
                mach,
                v,
                p,
                t,
                pressure,
            } => {
                // `mach` gives the inward normal speed; `u` and `v` are Cartesian components.
                let (mut uu, mut vv) = (u.unwrap_or(0.0), *v);
                if let Some(m) = mach {
                    let s = crate::methods::simple_ts::physics::speed_of_mach(*m, gamma) * inward;
                    if x_normal {
                        uu = s;
                    } else {
                        vv = s;
                    }
                }
                Ghost::Inflow {
                    u: uu,
                    v: vv,
                    p: *p,
                    t: *t,
                    p_copy: *pressure == EndValue::ZeroGradient,
                }
            }
            Side::Outflow {
                boundary_face,
                outer_face,
            } => Ghost::Outflow {
                solved: *boundary_face == BoundaryFace::Solved,
                balance: *outer_face == OuterFace::MassBalance,
            },
            Side::Pressure {
                p,
                t,
                temperature,
                outer_face,
            } => Ghost::Pressure {
                p: *p,
                t: *t,
                t_copy: *temperature == EndValue::ZeroGradient,
                balance: *outer_face == OuterFace::MassBalance,
            },
            Side::Periodic {} => Ghost::Periodic,
        }
    }
}

/// Cell and face classes of a case on its grid.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// Cell class per stored cell: FLUID, SOLID or OPEN.
    pub cell: Vec<u8>,
    /// For SOLID cells, index into `walls`.
    pub wall_of: Vec<u16>,
    /// Solids: bodies first (in case order), then wall sides.
    pub walls: Vec<Wall>,
    /// u-face class per stored cell (west face of the cell).
    pub u_face: Vec<u8>,
    /// v-face class per stored cell (south face of the cell).
    pub v_face: Vec<u8>,
    /// Partner face index of COPY/PERIODIC u-faces (own index otherwise).
    pub u_partner: Vec<u32>,
    /// Partner face index of COPY/PERIODIC v-faces.
    pub v_partner: Vec<u32>,
    /// Fixed values of FIXED u-faces (0 elsewhere).
    pub u_fixed: Vec<f64>,
    /// Fixed values of FIXED v-faces.
    pub v_fixed: Vec<f64>,
    /// Ghost rules of the west, east, south and north sides.
    pub sides: [Ghost; 4],
    /// The compat switches of the case (none: the corrected method).
    pub compat: Compat,
    /// Number of computed fluid cells.
    pub n_fluid: usize,
}

/// Index of a side in [`Geometry::sides`].
pub const WEST: usize = 0;
/// East side index.
pub const EAST: usize = 1;
/// South side index.
pub const SOUTH: usize = 2;
/// North side index.
pub const NORTH: usize = 3;

impl Geometry {
    /// Classify the cells and faces of `case` on `grid`.
    pub fn new(case: &Case, grid: &Grid) -> Geometry {
        let (nxt, nyt, nx, ny) = (grid.nxt, grid.nyt, grid.nx, grid.ny);
        let n = grid.len();
        let gamma = case.gas.gamma;
        let b = &case.boundaries;
        let sides = [
            Ghost::of(&b.west, gamma, 1.0, true),
            Ghost::of(&b.east, gamma, -1.0, true),
            Ghost::of(&b.south, gamma, 1.0, false),
            Ghost::of(&b.north, gamma, -1.0, false),
        ];
        let mut cell = vec![FLUID; n];
        let mut wall_of = vec![0u16; n];
        let wall = |u, v, t, c: crate::methods::simple_ts::case::WallCondition| Wall {
            u,
            v,
            t,
            slip: c.slip,
            thermal: c.thermal,
            sigma_u: c.sigma_u,
            sigma_t: c.sigma_t,
        };
        let mut walls: Vec<Wall> = case
            .bodies
            .iter()
            .map(|bd| wall(bd.u_wall, bd.v_wall, bd.t_wall, bd.condition(&case.gas)))
            .collect();
        // Wall sides: the wall velocity is tangential (u on south/north, v on west/east).
        let mut side_wall = [u16::MAX; 4];
        for (k, side) in [&b.west, &b.east, &b.south, &b.north]
            .into_iter()
            .enumerate()
        {
            if let Some((velocity, t, c)) = side.wall_condition(&case.gas) {
                let (u, v) = if k < 2 {
                    (0.0, velocity)
                } else {
                    (velocity, 0.0)
                };
                side_wall[k] = walls.len() as u16;
                walls.push(wall(u, v, t, c));
            }
        }
        // Ghost layer: y-sides take the corners when they are walls, then x-sides.
        for j in 0..nyt {
            for i in 0..nxt {
                if grid.interior(i, j) {
                    continue;
                }
                let ij = grid.idx(i, j);
                let ys = if j == 0 {
                    Some(SOUTH)
                } else if j == nyt - 1 {
                    Some(NORTH)
                } else {
                    None
                };
                let xs = if i == 0 {
                    Some(WEST)
                } else if i == nxt - 1 {
                    Some(EAST)
                } else {
                    None
                };
                let wall = ys
                    .filter(|&s| side_wall[s] != u16::MAX)
                    .or(xs.filter(|&s| side_wall[s] != u16::MAX));
                match wall {
                    Some(s) => {
                        cell[ij] = SOLID;
                        wall_of[ij] = side_wall[s];
                    }
                    None => cell[ij] = OPEN,
                }
            }
        }
        // Bodies: cells whose centre lies inside the rectangle (later bodies win). The test is
        // a column test and a row test, so each body visits only its own columns × rows: a
        // tiled grid's many bodies cost O(bodies · (nx + ny) + cells), not O(bodies · cells).
        for (id, bd) in case.bodies.iter().enumerate() {
            let cols: Vec<usize> = (1..=nx)
                .filter(|&i| grid.x_v[i] > bd.x[0] && grid.x_v[i] < bd.x[1])
                .collect();
            for j in (1..=ny).filter(|&j| grid.y_v[j] > bd.y[0] && grid.y_v[j] < bd.y[1]) {
                for &i in &cols {
                    let ij = grid.idx(i, j);
                    cell[ij] = SOLID;
                    wall_of[ij] = id as u16;
                }
            }
        }
        let n_fluid = cell.iter().filter(|&&c| c == FLUID).count();
        let compat = case.compat();
        let mut g = Geometry {
            cell,
            wall_of,
            walls,
            u_face: vec![F_NONE; n],
            v_face: vec![F_NONE; n],
            u_partner: (0..n as u32).collect(),
            v_partner: (0..n as u32).collect(),
            u_fixed: vec![0.0; n],
            v_fixed: vec![0.0; n],
            sides,
            compat,
            n_fluid,
        };
        g.classify_u(grid);
        g.classify_v(grid);
        g
    }

    /// u-faces: interior faces by the two cells' classes, boundary faces by the side rule.
    fn classify_u(&mut self, grid: &Grid) {
        let (nx, ny) = (grid.nx, grid.ny);
        let [west, east, south, north] = self.sides;
        for j in 0..grid.nyt {
            for i in 0..grid.nxt {
                let ij = grid.idx(i, j);
                let (kind, partner, fixed) = if j == 0 || j == ny + 1 {
                    // Tangential faces inside a y-ghost row.
                    let (side, src) = if j == 0 { (south, 1) } else { (north, ny) };
                    let wrap = if j == 0 { ny } else { 1 };
                    tangential(side, grid.idx(i, src), grid.idx(i, wrap), |g| match g {
                        Ghost::Inflow { u, .. } => u,
                        _ => 0.0,
                    })
                } else if i == 0 {
                    // West face of the west ghost cell.
                    match west {
                        Ghost::Wall => (F_NONE, ij, 0.0),
                        Ghost::Inflow { u, .. } => (F_FIXED, ij, u),
                        Ghost::Periodic => (F_COPY, grid.idx(nx, j), 0.0),
                        Ghost::Pressure { balance: true, .. }
                        | Ghost::Outflow { balance: true, .. } => (F_BALANCE, ij, 0.0),
                        _ => (F_COPY, grid.idx(1, j), 0.0),
                    }
                } else if i == 1 || i == nx + 1 {
                    let (side, inner) = if i == 1 { (west, 2) } else { (east, nx) };
                    match side {
                        Ghost::Wall => (F_FIXED, ij, 0.0),
                        Ghost::Inflow { u, .. } => (F_FIXED, ij, u),
                        Ghost::Outflow { solved: true, .. } => (F_SOLVED, ij, 0.0),
                        Ghost::Outflow { .. } => (F_COPY, grid.idx(inner, j), 0.0),
                        Ghost::Pressure { .. } => (F_SOLVED, ij, 0.0),
                        Ghost::Periodic if i == 1 => (F_SOLVED, ij, 0.0),
                        Ghost::Periodic => (F_PERIODIC, grid.idx(1, j), 0.0),
                    }
                } else {
                    interior_face(self.cell[ij - 1], self.cell[ij], ij)
                };
                // A boundary face next to a solid body cell stays a wall face.
                let kind = if (1..=ny).contains(&j)
                    && (i == 1 || i == nx + 1)
                    && (self.cell[ij - 1] == SOLID || self.cell[ij] == SOLID)
                {
                    if self.cell[ij - 1] == SOLID && self.cell[ij] == SOLID {
                        F_NONE
                    } else {
                        F_FIXED
                    }
                } else {
                    kind
                };
                self.u_face[ij] = kind;
                self.u_partner[ij] = partner as u32;
                // Only fixed faces are written: the rest stay the allocation's zeros, whose
                // pages the host never touches (about 16 B per cell of resident memory).
                if kind == F_FIXED {
                    self.u_fixed[ij] = fixed;
                }
            }
        }
    }

    /// v-faces: the transpose of [`Geometry::classify_u`].
    fn classify_v(&mut self, grid: &Grid) {
        let (nx, ny, nxt) = (grid.nx, grid.ny, grid.nxt);
        let [west, east, south, north] = self.sides;
        for j in 0..grid.nyt {
            for i in 0..nxt {
                let ij = grid.idx(i, j);
                let (kind, partner, fixed) = if i == 0 || i == nx + 1 {
                    let (side, src) = if i == 0 { (west, 1) } else { (east, nx) };
                    let wrap = if i == 0 { nx } else { 1 };
                    tangential(side, grid.idx(src, j), grid.idx(wrap, j), |g| match g {
                        Ghost::Inflow { v, .. } => v,
                        _ => 0.0,
                    })
                } else if j == 0 {
                    match south {
                        Ghost::Wall => (F_NONE, ij, 0.0),
                        Ghost::Inflow { v, .. } => (F_FIXED, ij, v),
                        Ghost::Periodic => (F_COPY, grid.idx(i, ny), 0.0),
                        _ => (F_COPY, grid.idx(i, 1), 0.0),
                    }
                } else if j == 1 || j == ny + 1 {
                    let (side, inner) = if j == 1 { (south, 2) } else { (north, ny) };
                    match side {
                        Ghost::Wall => (F_FIXED, ij, 0.0),
                        Ghost::Inflow { v, .. } => (F_FIXED, ij, v),
                        Ghost::Outflow { .. } => (F_COPY, grid.idx(i, inner), 0.0),
                        Ghost::Pressure { .. } => (F_SOLVED, ij, 0.0),
                        Ghost::Periodic if j == 1 => (F_SOLVED, ij, 0.0),
                        Ghost::Periodic => (F_PERIODIC, grid.idx(i, 1), 0.0),
                    }
                } else {
                    interior_face(self.cell[ij - nxt], self.cell[ij], ij)
                };
                let kind = if (1..=nx).contains(&i)
                    && (j == 1 || j == ny + 1)
                    && (self.cell[ij - nxt] == SOLID || self.cell[ij] == SOLID)
                {
                    if self.cell[ij - nxt] == SOLID && self.cell[ij] == SOLID {
                        F_NONE
                    } else {
                        F_FIXED
                    }
                } else {
                    kind
                };
                self.v_face[ij] = kind;
                self.v_partner[ij] = partner as u32;
                if kind == F_FIXED {
                    self.v_fixed[ij] = fixed;
                }
            }
        }
    }

    /// What sets the east outer face beyond the east ghost column (the C++ code's face
    /// Nx−1): nothing stored (the east boundary face's u-CV reads the boundary face itself),
    /// the ghost cell's mass balance, or (compat `east_outer_face_copy`) a copy of the solved
    /// boundary face.
    pub fn east_outer(&self) -> EastOuter {
        match self.sides[EAST] {
            Ghost::Pressure { balance: true, .. } | Ghost::Outflow { balance: true, .. } => {
                EastOuter::Balance
            }
            Ghost::Pressure { .. } | Ghost::Outflow { solved: true, .. }
                if self.compat.has(Defect::EastOuterFaceCopy) =>
            {
                EastOuter::Copy
            }
            _ => EastOuter::None,
        }
    }

    /// True if stored cell `ij` is solid.
    #[inline(always)]
    pub fn solid(&self, ij: usize) -> bool {
        self.cell[ij] == SOLID
    }

    /// True if stored cell `ij` is a computed fluid cell.
    #[inline(always)]
    pub fn fluid(&self, ij: usize) -> bool {
        self.cell[ij] == FLUID
    }

    /// The wall record of solid cell `ij`.
    #[inline(always)]
    pub fn wall(&self, ij: usize) -> &Wall {
        &self.walls[self.wall_of[ij] as usize]
    }

    /// Fluid mask of the computed cells, row-major (j outer), 1 = fluid.
    pub fn fluid_mask(&self, grid: &Grid) -> Vec<u8> {
        let mut m = Vec::with_capacity(grid.nx * grid.ny);
        for j in 1..=grid.ny {
            for i in 1..=grid.nx {
                m.push(u8::from(self.fluid(grid.idx(i, j))));
            }
        }
        m
    }
}

/// Class of a face between two stored cells of classes `a` (west/south) and `b`.
fn interior_face(a: u8, b: u8, ij: usize) -> (u8, usize, f64) {
    match (a == SOLID, b == SOLID) {
        (false, false) => (F_SOLVED, ij, 0.0),
        (true, true) => (F_NONE, ij, 0.0),
        _ => (F_FIXED, ij, 0.0),
    }
}

/// Class of a tangential face inside a ghost layer: `src` is the adjacent computed face,
/// `wrap` the periodic partner; `inflow` picks the prescribed component.
fn tangential(
    side: Ghost,
    src: usize,
    wrap: usize,
    inflow: impl Fn(Ghost) -> f64,
) -> (u8, usize, f64) {
    match side {
        Ghost::Wall => (F_NONE, src, 0.0),
        Ghost::Inflow { .. } => (F_FIXED, src, inflow(side)),
        Ghost::Periodic => (F_COPY, wrap, 0.0),
        Ghost::Outflow { .. } | Ghost::Pressure { .. } => (F_COPY, src, 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bodies' cells, found per body column × row, are exactly those the whole-grid test
    /// finds (later bodies win), on a tiled grid with many bodies.
    #[test]
    fn body_cells_equal_the_whole_grid_test() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/confined_square.json");
        let case = Case::from_file(&path).unwrap();
        let case = crate::methods::simple_ts::tile::tile_case(&case, 300, 1000).unwrap();
        assert!(case.bodies.len() > 3, "{}", case.bodies.len());
        let grid = Grid::new(&case.grid, false, false);
        let geo = Geometry::new(&case, &grid);
        let mut body: Vec<Option<u16>> = vec![None; grid.len()];
        for (id, bd) in case.bodies.iter().enumerate() {
            for j in 1..=grid.ny {
                for i in 1..=grid.nx {
                    let (x, y) = (grid.x_v[i], grid.y_v[j]);
                    if x > bd.x[0] && x < bd.x[1] && y > bd.y[0] && y < bd.y[1] {
                        body[grid.idx(i, j)] = Some(id as u16);
                    }
                }
            }
        }
        let mut solid = 0;
        for j in 1..=grid.ny {
            for i in 1..=grid.nx {
                let ij = grid.idx(i, j);
                match body[ij] {
                    Some(id) => {
                        assert_eq!((geo.cell[ij], geo.wall_of[ij]), (SOLID, id), "({i}, {j})");
                        solid += 1;
                    }
                    None => assert_eq!(geo.cell[ij], FLUID, "({i}, {j})"),
                }
            }
        }
        assert!(solid > 0);
    }
}
