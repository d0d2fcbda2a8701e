//! The initial state of a run: the uniform isentropic state at the exit pressure along the
//! inlet angle (`"start": "uniform"`, the default: ducts), or a one-dimensional guess that
//! follows the grid (`"start": "along_grid"`: a cascade, whose blade turns an axial start
//! abruptly; the guess takes fewer steps and survives sharper turning). The guess: every node moves along its own j-line (the
//! tangent through its i-neighbours, so the flow starts tangent to the walls), at the
//! isentropic subsonic state whose mass flux ρV carries the exit's mass flow through the
//! i-line's area normal to those directions.

use serde::{Deserialize, Serialize};

use super::grid::NodeGrid;
use super::Flow;

/// How a run starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Start {
    /// The isentropic state at the exit pressure and the inlet angle, at every node.
    #[default]
    Uniform,
    /// The one-dimensional guess along the grid's j-lines ([`along_grid`]).
    AlongGrid,
}

/// The state at every node for `start`.
pub fn initial(start: Start, g: &NodeGrid, flow: &Flow) -> Vec<[f64; 4]> {
    match start {
        Start::Uniform => vec![flow.isentropic(flow.p_exit); g.ni * g.nj],
        Start::AlongGrid => along_grid(g, flow),
    }
}

/// The unit tangent of node (i, j)'s j-line (central, one-sided at the inlet and exit).
fn tangent(g: &NodeGrid, i: usize, j: usize) -> [f64; 2] {
    let (a, b) = (
        i.saturating_sub(1) + j * g.ni,
        (i + 1).min(g.ni - 1) + j * g.ni,
    );
    let (dx, dy) = (g.x[b] - g.x[a], g.y[b] - g.y[a]);
    let l = dx.hypot(dy);
    [dx / l, dy / l]
}

/// The one-dimensional guess of [`Start::AlongGrid`].
pub fn along_grid(g: &NodeGrid, flow: &Flow) -> Vec<[f64; 4]> {
    let (ni, nj) = (g.ni, g.nj);
    // Area of i-line i normal to the nodes' directions: Σ over its faces of the mean
    // tangent · the face's projected length.
    let area = |i: usize| -> f64 {
        (0..nj - 1)
            .map(|j| {
                let (ta, tb) = (tangent(g, i, j), tangent(g, i, j + 1));
                let dl = g.dli[i + j * ni];
                0.5 * ((ta[0] + tb[0]) * dl[0] + (ta[1] + tb[1]) * dl[1])
            })
            .sum()
    };
    let exit = flow.isentropic(flow.p_exit);
    let flux_exit = exit[1].hypot(exit[2]);
    let mass = flux_exit * area(ni - 1);
    let (g1, rho0) = (flow.gamma, flow.rho0());
    let a0 = (g1 * flow.r * flow.t0).sqrt();
    // ρV of the isentropic state of Mach m, which rises monotonically to m = 1.
    let flux = |m: f64| {
        rho0 * a0 * m * (1.0 + 0.5 * (g1 - 1.0) * m * m).powf(-0.5 * (g1 + 1.0) / (g1 - 1.0))
    };
    let mut w = vec![[0.0; 4]; ni * nj];
    for i in 0..ni {
        let want = mass / area(i);
        // The subsonic Mach of that flux (at most 0.95, should the line be too narrow).
        let (mut lo, mut hi) = (0.0, 0.95);
        if flux(hi) > want {
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if flux(mid) < want {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
        }
        let m = 0.5 * (lo + hi);
        let p = flow.p0 * (1.0 + 0.5 * (g1 - 1.0) * m * m).powf(-g1 / (g1 - 1.0));
        let s = flow.isentropic(p);
        let v = s[1].hypot(s[2]);
        for j in 0..nj {
            let t = tangent(g, i, j);
            w[i + j * ni] = [s[0], v * t[0], v * t[1], s[3]];
        }
    }
    w
}
