//! Streamlines on a field picture: the pieces of a polyline inside one strip, and the arrow
//! heads along it.

/// The pieces of polyline `line` within `xa <= x <= xb`.
pub(super) fn clip_x(line: &[(f64, f64)], xa: f64, xb: f64) -> Vec<Vec<(f64, f64)>> {
    let mut pieces: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for w in line.windows(2) {
        let (p, q) = (w[0], w[1]);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        let dx = q.0 - p.0;
        if dx == 0.0 {
            if p.0 < xa || p.0 > xb {
                t0 = 2.0;
            }
        } else {
            let (ta, tb) = ((xa - p.0) / dx, (xb - p.0) / dx);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
        if t0 > t1 {
            if cur.len() > 1 {
                pieces.push(std::mem::take(&mut cur));
            }
            cur.clear();
            continue;
        }
        let at = |t: f64| (p.0 + t * dx, p.1 + t * (q.1 - p.1));
        if cur.is_empty() || t0 > 0.0 {
            if cur.len() > 1 {
                pieces.push(std::mem::take(&mut cur));
            }
            cur = vec![at(t0)];
        }
        cur.push(at(t1));
        if t1 < 1.0 {
            pieces.push(std::mem::take(&mut cur));
        }
    }
    if cur.len() > 1 {
        pieces.push(cur);
    }
    pieces
}

/// Triangles of size `a` pointing along `line`: one at its middle if it is shorter than
/// `every`, else one every `every` length units, the first at `every / 2`.
pub(super) fn arrow_heads(line: &[(f64, f64)], a: f64, every: f64) -> Vec<[(f64, f64); 3]> {
    let mut heads = Vec::new();
    if line.len() < 3 || every.is_nan() || every <= 0.0 {
        return heads;
    }
    let length: f64 = line
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .sum();
    let (mut next, step) = if length < every {
        (length / 2.0, f64::INFINITY)
    } else {
        (every / 2.0, every)
    };
    let mut s = 0.0;
    for k in 1..line.len() - 1 {
        s += (line[k].0 - line[k - 1].0).hypot(line[k].1 - line[k - 1].1);
        if s < next {
            continue;
        }
        next += step;
        let (p, q) = (line[k - 1], line[k + 1]);
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let n = dx.hypot(dy);
        if n == 0.0 {
            continue;
        }
        let (ex, ey) = (dx / n, dy / n);
        let c = line[k];
        heads.push([
            (c.0 + a * ex, c.1 + a * ey),
            (c.0 - a * ex - 0.6 * a * ey, c.1 - a * ey + 0.6 * a * ex),
            (c.0 - a * ex + 0.6 * a * ey, c.1 - a * ey - 0.6 * a * ex),
        ]);
    }
    heads
}
