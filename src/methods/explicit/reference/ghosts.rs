//! The ghost layers of an explicit state ([`fill_ghosts`]): which computed cell each ghost
//! copies on each kind of side ([`ghost_source`]), reflected for a wall, fixed for an inflow.
//! The reference fills them after every stage; the twins are `ghost_src`, `ghost_row` and
//! `ghost_column` of `cl/explicit/step.cl` (launched as `ghosts_x` in 1D, `ghosts_2d` in 2D).

use crate::methods::explicit::{Bc, Problem};

/// Source column of ghost column `i` on an x-side (`west`), or `None` for a fixed state.
/// Ghost layer g = 1..ng counts outward from the side.
pub fn ghost_source(bc: &Bc, n: usize, ng: usize, g: usize, low: bool) -> Option<usize> {
    // Computed cells are ng .. ng + n − 1.
    match (bc, low) {
        (Bc::Outflow, true) => Some(ng),
        (Bc::Outflow, false) => Some(ng + n - 1),
        (Bc::Reflective, true) => Some(ng + g - 1),
        (Bc::Reflective, false) => Some(ng + n - g),
        (Bc::Periodic, true) => Some(ng + n - g),
        (Bc::Periodic, false) => Some(ng + g - 1),
        (Bc::Inflow(_), _) => None,
    }
}

/// Fill the ghost layers of `q` from its computed cells and the sides (x-ghosts of the
/// computed rows, then y-ghosts of the computed columns; corners are never read). On a rank's
/// window only the sides the rank owns: the others are halo, filled by the exchange.
pub fn fill_ghosts(p: &Problem, q: &mut [f64]) {
    let m = &p.mesh;
    let nv = p.nv();
    let refl = |bc: &Bc| matches!(bc, Bc::Reflective);
    for (side, low) in [(0usize, true), (1, false)] {
        if m.halo[side] {
            continue;
        }
        let bc = &p.sides[side];
        for j in m.rows() {
            for g in 1..=m.ng {
                let dst = if low { m.ng - g } else { m.ng + m.nx + g - 1 };
                let src = ghost_source(bc, m.nx, m.ng, g, low);
                for v in 0..nv {
                    let val = match (src, bc) {
                        (Some(s), _) => {
                            let x = q[v * m.ns + m.idx(s, j)];
                            if v == 1 && refl(bc) {
                                -x
                            } else {
                                x
                            }
                        }
                        (None, Bc::Inflow(st)) => st[v],
                        (None, _) => unreachable!("only an inflow has no source cell"),
                    };
                    q[v * m.ns + m.idx(dst, j)] = val;
                }
            }
        }
    }
    if m.dims == 1 {
        return;
    }
    for (side, low) in [(2usize, true), (3, false)] {
        if m.halo[side] {
            continue;
        }
        let bc = &p.sides[side];
        for g in 1..=m.ng {
            let dst = if low { m.ng - g } else { m.ng + m.ny + g - 1 };
            let src = ghost_source(bc, m.ny, m.ng, g, low);
            for i in m.cols() {
                for v in 0..nv {
                    let val = match (src, bc) {
                        (Some(s), _) => {
                            let x = q[v * m.ns + m.idx(i, s)];
                            if v == 2 && refl(bc) {
                                -x
                            } else {
                                x
                            }
                        }
                        (None, Bc::Inflow(st)) => st[v],
                        (None, _) => unreachable!("only an inflow has no source cell"),
                    };
                    q[v * m.ns + m.idx(i, dst)] = val;
                }
            }
        }
    }
}
