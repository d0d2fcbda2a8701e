//! Gauss–Legendre quadrature for cell averages of exact solutions: a fixed 8-point rule, an
//! adaptive bisection on top of it, and a piecewise driver that splits an interval at the known
//! discontinuities (waves) of the integrand so that every piece is smooth.
//!
//! The 8-point rule integrates polynomials of degree ≤ 15 exactly; its nodes are interior, so
//! the integrand is never evaluated on a breakpoint.

/// Positive nodes of the 8-point Gauss–Legendre rule on [−1, 1] (the others are their
/// negatives), from Newton's iteration on P₈ in 40-digit arithmetic (mpmath), as the nearest f64
/// (shortest round-trip digits).
pub const GL8_NODES: [f64; 4] = [
    0.183_434_642_495_649_8,
    0.525_532_409_916_329,
    0.796_666_477_413_626_7,
    0.960_289_856_497_536_3,
];

/// Weights of [`GL8_NODES`] (they sum to 1, the half-length of [−1, 1]).
pub const GL8_WEIGHTS: [f64; 4] = [
    0.362_683_783_378_362,
    0.313_706_645_877_887_27,
    0.222_381_034_453_374_48,
    0.101_228_536_290_376_26,
];

/// Relative tolerance of [`integrate`] per component, against ∫|f|: the adaptive bisection
/// stops refining a piece when the 8-point rule on it and on its two halves agree to this.
pub const RTOL: f64 = 1e-13;

/// Maximum bisection depth of [`integrate_adaptive`]; below it a piece is accepted as is
/// (reached only at integrable singularities, e.g. the ρ^((3−γ)/(γ−1))-type edge of a fan
/// bordering vacuum, where the neglected piece is shorter than 2⁻⁴⁰ of the interval).
pub const MAX_DEPTH: u32 = 40;

/// The 8 nodes and weights of the Gauss–Legendre rule mapped to [a, b] (weights sum to b − a).
pub fn gl8_points(a: f64, b: f64) -> [(f64, f64); 8] {
    let c = 0.5 * (a + b);
    let h = 0.5 * (b - a);
    let mut out = [(0.0, 0.0); 8];
    for k in 0..4 {
        out[2 * k] = (c - h * GL8_NODES[k], h * GL8_WEIGHTS[k]);
        out[2 * k + 1] = (c + h * GL8_NODES[k], h * GL8_WEIGHTS[k]);
    }
    out
}

/// ∫ₐᵇ f dx by the 8-point rule, with ∫ₐᵇ |f| dx by the same rule (the error scale).
pub fn gauss_legendre_8<const N: usize>(
    f: &impl Fn(f64) -> [f64; N],
    a: f64,
    b: f64,
) -> ([f64; N], [f64; N]) {
    let mut sum = [0.0; N];
    let mut mag = [0.0; N];
    for (x, w) in gl8_points(a, b) {
        let v = f(x);
        for k in 0..N {
            sum[k] += w * v[k];
            mag[k] += w * v[k].abs();
        }
    }
    (sum, mag)
}

/// ∫ₐᵇ f dx by adaptive bisection of the 8-point rule: a piece is accepted when, for every
/// component k, |I(left half) + I(right half) − I(piece)| ≤ [`RTOL`] · ∫|f_k| over the piece.
/// Meant for integrands that are smooth on (a, b); use [`integrate`] across discontinuities.
pub fn integrate_adaptive<const N: usize>(
    f: &impl Fn(f64) -> [f64; N],
    a: f64,
    b: f64,
) -> [f64; N] {
    if b <= a {
        return [0.0; N];
    }
    let (whole, _) = gauss_legendre_8(f, a, b);
    refine(f, a, b, whole, MAX_DEPTH)
}

fn refine<const N: usize>(
    f: &impl Fn(f64) -> [f64; N],
    a: f64,
    b: f64,
    whole: [f64; N],
    depth: u32,
) -> [f64; N] {
    let m = 0.5 * (a + b);
    let (l, lm) = gauss_legendre_8(f, a, m);
    let (r, rm) = gauss_legendre_8(f, m, b);
    let converged = (0..N).all(|k| (l[k] + r[k] - whole[k]).abs() <= RTOL * (lm[k] + rm[k]));
    if converged || depth == 0 || m <= a || m >= b {
        let mut out = [0.0; N];
        for k in 0..N {
            out[k] = l[k] + r[k];
        }
        return out;
    }
    let il = refine(f, a, m, l, depth - 1);
    let ir = refine(f, m, b, r, depth - 1);
    let mut out = [0.0; N];
    for k in 0..N {
        out[k] = il[k] + ir[k];
    }
    out
}

/// ∫ₐᵇ f dx for an integrand that is smooth except at `breaks` (any order, any number, those
/// outside (a, b) ignored): [`integrate_adaptive`] on each smooth piece, summed.
pub fn integrate<const N: usize>(
    f: &impl Fn(f64) -> [f64; N],
    a: f64,
    b: f64,
    breaks: &[f64],
) -> [f64; N] {
    let mut cuts: Vec<f64> = breaks.iter().copied().filter(|&x| x > a && x < b).collect();
    cuts.sort_by(f64::total_cmp);
    cuts.dedup();
    let mut out = [0.0; N];
    let mut lo = a;
    for hi in cuts.into_iter().chain(std::iter::once(b)) {
        let piece = integrate_adaptive(f, lo, hi);
        for k in 0..N {
            out[k] += piece[k];
        }
        lo = hi;
    }
    out
}

/// Maximum quadrisection depth of [`integrate_2d`].
pub const MAX_DEPTH_2D: u32 = 12;

/// ∫∫ f over [x0, x1] × [y0, y1] by the 8 × 8 tensor rule, with ∫∫ |f| (the error scale).
fn gauss_legendre_8x8(f: &impl Fn(f64, f64) -> f64, x: (f64, f64), y: (f64, f64)) -> (f64, f64) {
    let (mut sum, mut mag) = (0.0, 0.0);
    for (xi, wx) in gl8_points(x.0, x.1) {
        for (yj, wy) in gl8_points(y.0, y.1) {
            let v = f(xi, yj);
            sum += wx * wy * v;
            mag += wx * wy * v.abs();
        }
    }
    (sum, mag)
}

fn refine_2d(
    f: &impl Fn(f64, f64) -> f64,
    x: (f64, f64),
    y: (f64, f64),
    whole: f64,
    depth: u32,
) -> f64 {
    let (xm, ym) = (0.5 * (x.0 + x.1), 0.5 * (y.0 + y.1));
    let quads = [
        ((x.0, xm), (y.0, ym)),
        ((xm, x.1), (y.0, ym)),
        ((x.0, xm), (ym, y.1)),
        ((xm, x.1), (ym, y.1)),
    ];
    let parts = quads.map(|(qx, qy)| gauss_legendre_8x8(f, qx, qy));
    let sum: f64 = parts.iter().map(|p| p.0).sum();
    let mag: f64 = parts.iter().map(|p| p.1).sum();
    if depth == 0 || (sum - whole).abs() <= RTOL * mag {
        return sum;
    }
    quads
        .iter()
        .zip(parts)
        .map(|(&(qx, qy), p)| refine_2d(f, qx, qy, p.0, depth - 1))
        .sum()
}

/// ∫∫ f over [x0, x1] × [y0, y1] for an integrand smooth except across the lines x = `breaks_x`
/// and y = `breaks_y`: the rectangle is cut along them and each piece integrated by the 8 × 8
/// tensor rule with adaptive quadrisection ([`RTOL`] against ∫∫|f|, depth ≤ [`MAX_DEPTH_2D`]).
pub fn integrate_2d(
    f: &impl Fn(f64, f64) -> f64,
    x: (f64, f64),
    y: (f64, f64),
    breaks_x: &[f64],
    breaks_y: &[f64],
) -> f64 {
    let cuts = |lo: f64, hi: f64, b: &[f64]| {
        let mut c: Vec<f64> = b.iter().copied().filter(|&v| v > lo && v < hi).collect();
        c.sort_by(f64::total_cmp);
        c.dedup();
        let mut out = vec![lo];
        out.extend(c);
        out.push(hi);
        out
    };
    if x.1 <= x.0 || y.1 <= y.0 {
        return 0.0;
    }
    let (cx, cy) = (cuts(x.0, x.1, breaks_x), cuts(y.0, y.1, breaks_y));
    let mut total = 0.0;
    for wx in cx.windows(2) {
        for wy in cy.windows(2) {
            let (px, py) = ((wx[0], wx[1]), (wy[0], wy[1]));
            let (whole, _) = gauss_legendre_8x8(f, px, py);
            total += refine_2d(f, px, py, whole, MAX_DEPTH_2D);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_sum_to_one_and_degree_15_is_exact() {
        let s: f64 = GL8_WEIGHTS.iter().sum();
        assert!((s - 1.0).abs() < 1e-15);
        // ∫_{-1}^{2} x^15 dx = (2^16 − 1)/16 ; x^14: (2^15 + 1)/15.
        let (i, _) = gauss_legendre_8(&|x: f64| [x.powi(15), x.powi(14)], -1.0, 2.0);
        assert!((i[0] - 65535.0 / 16.0).abs() < 1e-11 * 4096.0);
        assert!((i[1] - 32769.0 / 15.0).abs() < 1e-11 * 2184.0);
    }

    #[test]
    fn piecewise_integrates_a_step_exactly() {
        let f = |x: f64| [if x < 0.3 { 2.0 } else { 1.0 }];
        let i = integrate(&f, 0.0, 1.0, &[0.3, 5.0]);
        assert!((i[0] - 1.3).abs() < 1e-15);
    }

    #[test]
    fn two_d_integrates_a_square_step_and_a_smooth_bump() {
        let f = |x: f64, y: f64| if x > 0.3 && y < 0.6 { 2.0 } else { 1.0 };
        let i = integrate_2d(&f, (0.0, 1.0), (0.0, 1.0), &[0.3], &[0.6]);
        assert!((i - (1.0 + 0.7 * 0.6)).abs() < 1e-15);
        // ∫∫ exp(−(x² + y²)/0.02) over a box of ±1 ≈ 0.02π (the tail beyond is ~1e-22).
        let g = |x: f64, y: f64| (-(x * x + y * y) / 0.02).exp();
        let i = integrate_2d(&g, (-1.0, 1.0), (-1.0, 1.0), &[], &[]);
        assert!((i - 0.02 * std::f64::consts::PI).abs() < 1e-14, "{i}");
    }

    #[test]
    fn adaptive_handles_a_sqrt_edge() {
        // ∫_0^1 sqrt(x) dx = 2/3; the singular derivative at 0 needs bisection.
        let i = integrate_adaptive(&|x: f64| [x.sqrt()], 0.0, 1.0);
        assert!((i[0] - 2.0 / 3.0).abs() < 1e-12);
    }
}
