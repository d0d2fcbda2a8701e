//! The oblique shock of a converged wedge run (`"grid": {"kind": "wedge"}`), measured from
//! the pressure field for the comparison with the θ–β–M relation (`exact::oblique_shock`):
//! used by the wedge test (`tests.rs`) and `simplets validate bp_wedge`.

use super::grid::NodeGrid;
use super::Flow;

/// What a converged wedge run gives: the shock angle fitted to the pressure jump's locus
/// and the pressure behind it (see [`wedge_shock`]).
pub struct WedgeShock {
    /// Fitted shock angle, radians.
    pub beta: f64,
    /// Intercept of the fitted line y = y0 + x tan β at x = 0 (the corner is at (0, 0)).
    pub y0: f64,
    /// Mean p/p1 behind the shock.
    pub p_ratio: f64,
    /// Largest deviation of p/p1 behind the shock from its mean.
    pub p_spread: f64,
    /// The shock's points (x, y) the line is fitted to.
    pub points: Vec<(f64, f64)>,
}

/// The shock of a wedge run on grid `g` with state `w` and free-stream pressure `p1` and expected ratio `p21`:
/// on every i-line with x in [0.3, 0.95] the y where p crosses the mid value (p1 + p2)/2
/// (searched from the upper wall down, linear between the two nodes), a least-squares line
/// through those points, and p/p1 over the middle half of each i-line between the wall and
/// the shock (away from both, where the smoothing smears the jump and the wall's one-sided
/// stencil sits).
pub fn wedge_shock(g: &NodeGrid, flow: &Flow, w: &[[f64; 4]], p1: f64, p21: f64) -> WedgeShock {
    let (ni, nj) = (g.ni, g.nj);
    let p = |k: usize| flow.secondary(&w[k])[2];
    let mid = 0.5 * (1.0 + p21) * p1;
    let mut pts = Vec::new();
    let mut behind = Vec::new();
    for i in 0..ni {
        let x = g.x[i];
        if !(0.3..=0.95).contains(&x) {
            continue;
        }
        let j = (0..nj - 1)
            .rev()
            .find(|&j| p(i + j * ni) > mid)
            .expect("a shock on every i-line");
        let (ka, kb) = (i + j * ni, i + (j + 1) * ni);
        let f = (mid - p(ka)) / (p(kb) - p(ka));
        let ys = g.y[ka] + f * (g.y[kb] - g.y[ka]);
        pts.push((x, ys));
        let yw = g.y[i];
        for jj in 0..nj {
            let y = g.y[i + jj * ni];
            if y > yw + 0.25 * (ys - yw) && y < yw + 0.75 * (ys - yw) {
                behind.push(p(i + jj * ni) / p1);
            }
        }
    }
    let n = pts.len() as f64;
    let (sx, sy) = pts.iter().fold((0.0, 0.0), |(a, c), (x, y)| (a + x, c + y));
    let (mx, my) = (sx / n, sy / n);
    let sxy: f64 = pts.iter().map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = pts.iter().map(|(x, _)| (x - mx) * (x - mx)).sum();
    let slope = sxy / sxx;
    let mean = behind.iter().sum::<f64>() / behind.len() as f64;
    let spread = behind.iter().map(|r| (r - mean).abs()).fold(0.0, f64::max);
    WedgeShock {
        beta: slope.atan(),
        y0: my - slope * mx,
        p_ratio: mean,
        p_spread: spread,
        points: pts,
    }
}
