//! A rank's window of the whole problem ([`sub_problem`]). The residual maxima of its owned
//! cells and their merge over all ranks are the reference's (`reference::halo`).

use crate::decomp::Window;
use crate::decomp::{EAST, NORTH, WEST};
use crate::grid::Grid;
use crate::methods::simple_ts::geometry::{Geometry, FLUID, F_NONE};
use crate::methods::simple_ts::problem::Problem;
use crate::methods::simple_ts::reference::bc::{CellRule, Ghosts, Src};

/// The rows `win.y` of the columns `win.x` of an array of the whole grid.
fn cut<T: Copy>(a: &[T], nxt: usize, win: &Window) -> Vec<T> {
    let mut out = Vec::with_capacity(win.len());
    for j in win.y.clone() {
        out.extend_from_slice(&a[j * nxt + win.x.start..j * nxt + win.x.end]);
    }
    out
}

/// The problem a rank solves: the window `win` of the whole problem `pb` as a grid of its own
/// (metrics, classes, wall records cut from the whole grid's, so a cut through a body keeps
/// every class), with the ghost rules and face copies whose cells it holds. A halo edge looks
/// like a stored edge of a grid: its values are incomplete after a phase, and the exchange
/// replaces them.
pub fn sub_problem(pb: &Problem, win: &Window) -> Problem {
    let (g, geo) = (&pb.grid, &pb.geo);
    let (x, y) = (win.x.clone(), win.y.clone());
    let grid = Grid {
        nx: x.len() - 2,
        ny: y.len() - 2,
        nxt: x.len(),
        nyt: y.len(),
        hx: g.hx[x.clone()].to_vec(),
        hy: g.hy[y.clone()].to_vec(),
        x_f: g.x_f[x.start..=x.end].to_vec(),
        y_f: g.y_f[y.start..=y.end].to_vec(),
        x_v: g.x_v[x.clone()].to_vec(),
        y_v: g.y_v[y.clone()].to_vec(),
    };
    let nxt = g.nxt;
    let local = |k: usize| win.local(k);
    // A partner outside the window is never used: its copy is not in the local lists.
    let partner = |p: &[u32]| -> Vec<u32> {
        cut(p, nxt, win)
            .into_iter()
            .enumerate()
            .map(|(k, q)| local(q as usize).unwrap_or(k) as u32)
            .collect()
    };
    let cell = cut(&geo.cell, nxt, win);
    let n_fluid = cell.iter().filter(|&&c| c == FLUID).count();
    // The last u-face column of an east halo and the last v-face row of a north halo are
    // where a grid has its east and north domain faces, which no loop solves: their stencils
    // would reach past the window. No owned value reads them (they lie HALO faces out).
    let (w, h) = (win.width(), win.height());
    let mut u_face = cut(&geo.u_face, nxt, win);
    if !win.owns_side(EAST) {
        (0..h).for_each(|j| u_face[w - 1 + j * w] = F_NONE);
    }
    // The TVD test of a solved east domain face (a pressure side) reads the class of the
    // u-face one past it, which in the row-major grid is the west ghost face of the next row:
    // never solved. A window with a west halo holds another column there, so its first column
    // takes the classes of the whole grid's first column (no owned stencil reaches it).
    if !win.owns_side(WEST) {
        (0..h).for_each(|j| u_face[j * w] = geo.u_face[(win.y.start + j) * nxt]);
    }
    let mut v_face = cut(&geo.v_face, nxt, win);
    if !win.owns_side(NORTH) {
        v_face[(h - 1) * w..].fill(F_NONE);
    }
    let sub = Geometry {
        cell,
        wall_of: cut(&geo.wall_of, nxt, win),
        walls: geo.walls.clone(),
        u_face,
        v_face,
        u_partner: partner(&geo.u_partner),
        v_partner: partner(&geo.v_partner),
        u_fixed: cut(&geo.u_fixed, nxt, win),
        v_fixed: cut(&geo.v_fixed, nxt, win),
        sides: geo.sides,
        n_fluid,
        compat: geo.compat,
    };
    // The rules in their order, where both ends are held (a periodic source on another rank
    // cannot occur: periodic axes are not split).
    let pairs = |l: &[(usize, usize)]| -> Vec<(usize, usize)> {
        l.iter()
            .filter_map(|&(d, s)| Some((local(d)?, local(s)?)))
            .collect()
    };
    let ghosts = Ghosts {
        cells: pb
            .ghosts
            .cells
            .iter()
            .filter_map(|&(d, r)| {
                let src = |s: Src| match s {
                    Src::Copy(k) => local(k).map(Src::Copy),
                    fixed => Some(fixed),
                };
                Some((
                    local(d)?,
                    CellRule {
                        p: src(r.p)?,
                        t: src(r.t)?,
                    },
                ))
            })
            .collect(),
        u_copies: pairs(&pb.ghosts.u_copies),
        v_copies: pairs(&pb.ghosts.v_copies),
        // Outer faces are refused on decomposed runs (`Case::single_process_only`).
        ..Ghosts::default()
    };
    Problem::from_parts(&pb.case, grid, sub, ghosts)
}
