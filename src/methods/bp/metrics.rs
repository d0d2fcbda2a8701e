//! Measurements of a steady `bp_euler` solution from its node state (any backend's): the
//! mass flow through an i-line, its mass-weighted flow angle, and how far apart the two
//! nodes of the periodic pairs are.

use super::grid::NodeGrid;
use super::Flow;

/// The faces of i-line `i`: per face (mass flow, ρu + ρv mean over the face) from the node
/// values, the mass flow ½((ρu_a + ρu_b)dl_x + (ρv_a + ρv_b)dl_y) as the scheme's.
fn faces<'a>(
    g: &'a NodeGrid,
    w: &'a [[f64; 4]],
    i: usize,
) -> impl Iterator<Item = (f64, [f64; 2])> + 'a {
    let ni = g.ni;
    (0..g.ncj()).map(move |j| {
        let (a, b) = (&w[i + j * ni], &w[i + (j + 1) * ni]);
        let dl = g.dli[i + j * ni];
        let (ru, rv) = (a[1] + b[1], a[2] + b[2]);
        (0.5 * (ru * dl[0] + rv * dl[1]), [ru, rv])
    })
}

/// Mass flow through i-line `i` (per unit depth).
pub fn mass_flow(g: &NodeGrid, w: &[[f64; 4]], i: usize) -> f64 {
    faces(g, w, i).map(|(m, _)| m).sum()
}

/// The mass-weighted flow angle through i-line `i`, radians from the x axis.
pub fn flow_angle(g: &NodeGrid, w: &[[f64; 4]], i: usize) -> f64 {
    let (mut s, mut m) = (0.0, 0.0);
    for (dm, r) in faces(g, w, i) {
        s += dm * r[1].atan2(r[0]);
        m += dm;
    }
    s / m
}

/// The largest difference between the two nodes of a periodic pair over every component,
/// relative to that component's largest magnitude (0: none, or no pairs).
pub fn periodic_mismatch(g: &NodeGrid, w: &[[f64; 4]]) -> f64 {
    let top = (g.nj - 1) * g.ni;
    let mut scale = [0.0f64; 4];
    for n in w {
        for v in 0..4 {
            scale[v] = scale[v].max(n[v].abs());
        }
    }
    let mut worst = 0.0f64;
    for i in (0..g.ni).filter(|&i| g.periodic[i]) {
        for v in 0..4 {
            worst = worst.max((w[top + i][v] - w[i][v]).abs() / scale[v]);
        }
    }
    worst
}

/// The Mach number of node k.
pub fn mach(flow: &Flow, w: &[f64; 4]) -> f64 {
    let s = flow.secondary(w);
    s[0].hypot(s[1]) / (flow.gamma * s[2] / w[0]).sqrt()
}
