//! Streamlines of the centre velocity: integrated with RK2 (midpoint) along the unit
//! direction, from seeds on a regular lattice of spacing `d`, forward and backward, stopping
//! at bodies, at the domain's edges, at stagnation points and where another streamline
//! already passed (an occupancy lattice of the same spacing, as matplotlib's streamplot).

use super::data::Output;

/// The cell of `x` between `edges` (None outside).
pub(super) fn locate(edges: &[f64], x: f64) -> Option<usize> {
    let n = edges.len() - 1;
    if !(x >= edges[0] && x <= edges[n]) {
        return None;
    }
    Some(
        edges
            .partition_point(|&e| e <= x)
            .saturating_sub(1)
            .min(n - 1),
    )
}

/// Lower index and weight of the centres around `x` (clamped at the ends).
fn bracket(c: &[f64], x: f64) -> (usize, f64) {
    if c.len() < 2 {
        return (0, 0.0);
    }
    let i0 = c
        .partition_point(|&e| e <= x)
        .saturating_sub(1)
        .min(c.len() - 2);
    let t = ((x - c[i0]) / (c[i0 + 1] - c[i0])).clamp(0.0, 1.0);
    (i0, t)
}

struct Sampler<'a> {
    out: &'a Output,
    u: &'a [f64],
    v: &'a [f64],
}

impl Sampler<'_> {
    /// Bilinear velocity at `p`, None in a solid cell, outside or where not finite.
    fn at(&self, p: (f64, f64)) -> Option<(f64, f64)> {
        let o = self.out;
        let (i, j) = (locate(&o.x_edges, p.0)?, locate(&o.y_edges, p.1)?);
        if o.solid[j * o.nx + i] {
            return None;
        }
        let (i0, tx) = bracket(&o.x_c, p.0);
        let (j0, ty) = bracket(&o.y_c, p.1);
        let (i1, j1) = ((i0 + 1).min(o.nx - 1), (j0 + 1).min(o.ny - 1));
        let bl = |f: &[f64]| {
            let a = f[j0 * o.nx + i0] * (1.0 - tx) + f[j0 * o.nx + i1] * tx;
            let b = f[j1 * o.nx + i0] * (1.0 - tx) + f[j1 * o.nx + i1] * tx;
            a * (1.0 - ty) + b * ty
        };
        let w = (bl(self.u), bl(self.v));
        (w.0.is_finite() && w.1.is_finite()).then_some(w)
    }

    /// Unit direction at `p` (times `sign`), None where the speed vanishes.
    fn dir(&self, p: (f64, f64), sign: f64) -> Option<(f64, f64)> {
        let (a, b) = self.at(p)?;
        let s = a.hypot(b);
        (s > 1e-12).then(|| (sign * a / s, sign * b / s))
    }
}

/// Streamlines of the centre velocities `u`, `v` (`ny × nx`) of `out`, seeded every `d`
/// length units; each a polyline in the output's coordinates, in the flow direction.
pub fn streamlines(out: &Output, u: &[f64], v: &[f64], d: f64) -> Vec<Vec<(f64, f64)>> {
    let (x0, x1, y0, y1) = out.bounds();
    if !(d > 0.0 && x1 > x0 && y1 > y0) {
        return Vec::new();
    }
    let s = Sampler { out, u, v };
    let mx = ((x1 - x0) / d).ceil().max(1.0) as usize;
    let my = ((y1 - y0) / d).ceil().max(1.0) as usize;
    let cell = |p: (f64, f64)| {
        let i = (((p.0 - x0) / d) as usize).min(mx - 1);
        let j = (((p.1 - y0) / d) as usize).min(my - 1);
        j * mx + i
    };
    let h = d / 4.0;
    let max_steps = (8.0 * ((x1 - x0) + (y1 - y0)) / h) as usize;
    let mut occupied = vec![false; mx * my];
    let mut lines = Vec::new();
    for sj in 0..my {
        for si in 0..mx {
            let start = (x0 + (si as f64 + 0.5) * d, y0 + (sj as f64 + 0.5) * d);
            let c0 = sj * mx + si;
            if occupied[c0] || s.dir(start, 1.0).is_none() {
                continue;
            }
            occupied[c0] = true;
            let mut marked = vec![c0];
            let mut halves = [Vec::new(), Vec::new()];
            for (half, sign) in halves.iter_mut().zip([1.0, -1.0]) {
                let (mut p, mut cur) = (start, c0);
                for _ in 0..max_steps {
                    let Some(d1) = s.dir(p, sign) else { break };
                    let mid = (p.0 + 0.5 * h * d1.0, p.1 + 0.5 * h * d1.1);
                    let Some(d2) = s.dir(mid, sign) else { break };
                    let q = (p.0 + h * d2.0, p.1 + h * d2.1);
                    if s.at(q).is_none() {
                        break;
                    }
                    let c = cell(q);
                    if c != cur {
                        if occupied[c] {
                            break;
                        }
                        occupied[c] = true;
                        marked.push(c);
                        cur = c;
                    }
                    half.push(q);
                    p = q;
                }
            }
            let [fwd, bwd] = halves;
            if fwd.len() + bwd.len() < 8 {
                // Too short to read: free its cells for others.
                for c in marked {
                    occupied[c] = false;
                }
                occupied[c0] = true;
                continue;
            }
            let mut line: Vec<(f64, f64)> = bwd.into_iter().rev().collect();
            line.push(start);
            line.extend(fwd);
            lines.push(line);
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plot::data::edges_from_centres;

    fn uniform(nx: usize, ny: usize) -> Output {
        let x_c: Vec<f64> = (0..nx).map(|i| i as f64 + 0.5).collect();
        let y_c: Vec<f64> = (0..ny).map(|j| j as f64 + 0.5).collect();
        Output {
            paths: vec![],
            case_name: "t".into(),
            method: "SIMPLE-TS".into(),
            scheme: String::new(),
            backend: String::new(),
            gamma: 5.0 / 3.0,
            nx,
            ny,
            x_edges: edges_from_centres(&x_c),
            y_edges: edges_from_centres(&y_c),
            x_c,
            y_c,
            solid: vec![false; nx * ny],
            snapshots: vec![],
            series: Default::default(),
            fields: vec![],
        }
    }

    #[test]
    fn uniform_flow_gives_horizontal_lines_across() {
        let o = uniform(20, 10);
        let u = vec![1.0; 200];
        let v = vec![0.0; 200];
        let lines = streamlines(&o, &u, &v, 2.0);
        assert_eq!(lines.len(), 5, "one line per lattice row");
        for l in &lines {
            assert!(l.iter().all(|p| (p.1 - l[0].1).abs() < 1e-12));
            assert!(
                l[0].0 < 0.5 && l[l.len() - 1].0 > 19.5,
                "{:?}",
                (l[0], l.last())
            );
            assert!(
                l.windows(2).all(|w| w[1].0 > w[0].0),
                "in the flow direction"
            );
        }
    }

    #[test]
    fn lines_stop_at_bodies() {
        let mut o = uniform(20, 10);
        for j in 0..10 {
            o.solid[j * 20 + 10] = true;
        }
        let lines = streamlines(&o, &[1.0; 200], &[0.0; 200], 2.0);
        assert!(lines.iter().flatten().all(|p| !(10.0..11.0).contains(&p.0)));
    }
}
