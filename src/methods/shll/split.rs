//! Interface fluxes (docs/method/shll.md §4): the SHLL split (eq. 9), HLL and Rusanov with
//! Davis wave speeds, per component. Twins of `cl/shll/split.cl` (`d` is `CFG_D`, `clamp`
//! is `CFG_CLAMP_CHI`).

/// (8) x clamped to [−1, 1]: ±1 with x's sign where |x| > 1, else x (a NaN stays NaN, −0
/// stays −0); the twin's one comparison and sign copy.
pub fn shll_clamp1(x: f64) -> f64 {
    if x.abs() > 1.0 {
        1.0f64.copysign(x)
    } else {
        x
    }
}

/// (8) critical number χ = u_n/a = u_n·(1/a), clamped to [−1, 1] when `clamp`; 0 where a = 0
/// (dry). As a product with the reciprocal so that a cell's two numbers (χ_x, χ_y) share one
/// division.
pub fn shll_chi(clamp: bool, un: f64, a: f64) -> f64 {
    if a > 0.0 {
        if clamp {
            shll_clamp1(un * (1.0 / a))
        } else {
            un * (1.0 / a)
        }
    } else {
        0.0
    }
}

/// (9) D·x; exactly x when D = 1 (x·1 = x in IEEE arithmetic; the OpenCL twin skips the
/// product that its compiler keeps).
pub fn shll_d(d: f64, x: f64) -> f64 {
    if d == 1.0 {
        x
    } else {
        d * x
    }
}

/// (9) SHLL split flux toward the + side: ½[(1 + Dχ)F + D a (1 − χ²) U].
pub fn shll_plus(d: f64, q: f64, f: f64, a: f64, chi: f64) -> f64 {
    0.5 * ((1.0 + shll_d(d, chi)) * f + shll_d(d, a) * (1.0 - chi * chi) * q)
}

/// (9) SHLL split flux toward the − side: ½[(1 − Dχ)F − D a (1 − χ²) U].
pub fn shll_minus(d: f64, q: f64, f: f64, a: f64, chi: f64) -> f64 {
    0.5 * ((1.0 - shll_d(d, chi)) * f - shll_d(d, a) * (1.0 - chi * chi) * q)
}

/// (10) Davis estimate of the left wave speed.
pub fn hll_sl(ul: f64, al: f64, ur: f64, ar: f64) -> f64 {
    (ul - al).min(ur - ar)
}

/// (10) Davis estimate of the right wave speed.
pub fn hll_sr(ul: f64, al: f64, ur: f64, ar: f64) -> f64 {
    (ul + al).max(ur + ar)
}

/// (11) HLL flux, all three branches.
pub fn hll_flux(ql: f64, qr: f64, fl: f64, fr: f64, sl: f64, sr: f64) -> f64 {
    if sl >= 0.0 {
        fl
    } else if sr <= 0.0 {
        fr
    } else {
        (sr * fl - sl * fr + sl * sr * (qr - ql)) / (sr - sl)
    }
}

/// (12) Rusanov speed max(|u_L| + a_L, |u_R| + a_R).
pub fn rusanov_s(ul: f64, al: f64, ur: f64, ar: f64) -> f64 {
    (ul.abs() + al).max(ur.abs() + ar)
}

/// (12) Rusanov (local Lax–Friedrichs) flux.
pub fn rusanov_flux(ql: f64, qr: f64, fl: f64, fr: f64, s: f64) -> f64 {
    0.5 * (fl + fr) - 0.5 * s * (qr - ql)
}
