//! The analysis of a square run's samples: the shock stand-off, the recirculation length,
//! the Strouhal number, window drift and spread, Richardson extrapolation of a grid study,
//! and the stand-off correlation the supersonic case is compared with (Billig).

/// Pressure behind a normal shock over the pressure ahead of it (Rankine–Hugoniot).
pub fn normal_shock_pressure_ratio(mach: f64, gamma: f64) -> f64 {
    1.0 + 2.0 * gamma / (gamma + 1.0) * (mach * mach - 1.0)
}

/// Where `p` first reaches `p_mid` on the way from the inflow to `x_front`: the x of the
/// crossing, linearly interpolated between the two cells beside it. `None` if the first cell
/// is already at or above `p_mid` or no cell before `x_front` reaches it.
pub fn shock_position(x: &[f64], p: &[f64], x_front: f64, p_mid: f64) -> Option<f64> {
    let n = x.iter().take_while(|&&xi| xi < x_front).count();
    if n == 0 || p[0] >= p_mid || p[0].is_nan() {
        return None;
    }
    (1..n).find(|&i| p[i] >= p_mid).map(|i| {
        let t = (p_mid - p[i - 1]) / (p[i] - p[i - 1]);
        x[i - 1] + t * (x[i] - x[i - 1])
    })
}

/// Recirculation length behind `x_rear`: from the rear face to where u on the u-faces
/// downstream of it first changes from negative to non-negative (linear interpolation). 0 if
/// the first face behind the body already has u ≥ 0; `None` if u stays negative to the end.
pub fn recirculation_length(x_u: &[f64], u: &[f64], x_rear: f64, h: f64) -> Option<f64> {
    let start = x_u.iter().position(|&x| x > x_rear + 0.25 * h)?;
    if u[start].is_nan() {
        return None;
    }
    if u[start] >= 0.0 {
        return Some(0.0);
    }
    (start + 1..x_u.len()).find(|&i| u[i] >= 0.0).map(|i| {
        let t = -u[i - 1] / (u[i] - u[i - 1]);
        x_u[i - 1] + t * (x_u[i] - x_u[i - 1]) - x_rear
    })
}

/// Strouhal number f L / u_in of a lift series: the mean spacing of its upward crossings of
/// its mean (linear interpolation). `None` with fewer than two crossings, or when the spacings
/// vary by more than 10 % (standard deviation over mean): an irregular signal has no shedding
/// frequency.
pub fn strouhal(t: &[f64], cl: &[f64], l: f64, u_in: f64) -> Option<f64> {
    if t.len() < 3 {
        return None;
    }
    let m = cl.iter().sum::<f64>() / cl.len() as f64;
    let mut ups = vec![];
    for i in 1..t.len() {
        let (a, b) = (cl[i - 1] - m, cl[i] - m);
        if a < 0.0 && b >= 0.0 {
            ups.push(t[i - 1] + (t[i] - t[i - 1]) * (-a) / (b - a));
        }
    }
    if ups.len() < 2 {
        return None;
    }
    let gaps: Vec<f64> = ups.windows(2).map(|w| w[1] - w[0]).collect();
    let period = gaps.iter().sum::<f64>() / gaps.len() as f64;
    let var = gaps.iter().map(|g| (g - period).powi(2)).sum::<f64>() / gaps.len() as f64;
    (var.sqrt() <= 0.1 * period).then(|| l / (period * u_in))
}

/// Grid-convergence numbers of a metric on three grids refined by a constant ratio.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Richardson {
    /// Observed order ln(|f1 − f2| / |f2 − f3|) / ln r (f1 coarsest).
    pub order: f64,
    /// Richardson-extrapolated value f3 + (f3 − f2)/(r^p − 1).
    pub extrapolated: f64,
    /// |f3 − f2| / |f3|: relative change between the two finest grids.
    pub change_fine: f64,
    /// |f2 − f1| / |f3|: relative change between the two coarsest grids.
    pub change_coarse: f64,
    /// True if the differences keep their sign and shrink (monotone convergence).
    pub monotone: bool,
}

impl Richardson {
    /// From the values `f` on grids h, h/r, h/r² (coarsest first) and the ratio `r`.
    pub fn new(f: [f64; 3], r: f64) -> Richardson {
        let (d1, d2) = (f[1] - f[0], f[2] - f[1]);
        let monotone = d1 * d2 > 0.0 && d2.abs() < d1.abs();
        let order = (d1.abs() / d2.abs()).ln() / r.ln();
        let extrapolated = if monotone {
            f[2] + d2 / (r.powf(order) - 1.0)
        } else {
            f64::NAN
        };
        Richardson {
            order,
            extrapolated,
            change_fine: d2.abs() / f[2].abs(),
            change_coarse: d1.abs() / f[2].abs(),
            monotone,
        }
    }
}

/// |mean of the second half of `v` − mean of the first half| / |`scale`|: how far a sampled
/// quantity still moves across an averaging window; `None` with fewer than two samples.
pub(super) fn window_drift(v: &[f64], scale: f64) -> Option<f64> {
    let half = v.len() / 2;
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    (half > 0).then(|| (mean(&v[half..]) - mean(&v[..half])).abs() / scale.abs())
}

/// Relative spread (max − min)/|mean| of finite values.
pub(super) fn spread(v: &[f64]) -> f64 {
    let (lo, hi) = v
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    (hi - lo) / (v.iter().sum::<f64>() / v.len() as f64).abs()
}

/// Billig's stand-off correlation for a circular cylinder (cylinder-wedge) of radius R,
/// Δ/R = 0.386 exp(4.67/M²) (Billig 1967; Anderson, *Hypersonic and High-Temperature Gas
/// Dynamics*, eq. 5.37), fitted for air (γ = 1.4), carried to `gamma` by the normal-shock
/// density ratio ε = ρ1/ρ2 (Δ ∝ ε, the constant-density shock-layer scaling).
pub fn billig_cylinder(mach: f64, gamma: f64, radius: f64) -> f64 {
    let eps = |g: f64| ((g - 1.0) * mach * mach + 2.0) / ((g + 1.0) * mach * mach);
    radius * 0.386 * (4.67 / (mach * mach)).exp() * eps(gamma) / eps(1.4)
}

/// The stand-off bracket of a flat face of height `l` (a square of side l): the shock of
/// the inscribed circular cylinder (radius l/2, nose on the face) and that of the
/// circumscribed one (radius l/√2, nose (√2 − 1) l/2 ahead of the face), both measured from
/// the face.
pub fn standoff_bracket(mach: f64, gamma: f64, l: f64) -> (f64, f64) {
    let (ri, rc) = (0.5 * l, std::f64::consts::FRAC_1_SQRT_2 * l);
    (
        billig_cylinder(mach, gamma, ri),
        billig_cylinder(mach, gamma, rc) + rc - ri,
    )
}
