//! Finite-volume updates and the time-step rule shared by the explicit methods
//! (docs/method/shll.md §7). Twins of `cl/explicit/update.cl` (`cfl` is `CFG_CFL`, `t_end` is
//! `CFG_T_END`).

/// (18) forward-Euler update of one component in 1D, dtdx = Δt/Δx.
pub fn fv_update_1d(q: f64, fw: f64, fe: f64, dtdx: f64) -> f64 {
    q - dtdx * (fe - fw)
}

/// (18) forward-Euler update of one component in 2D.
#[allow(clippy::too_many_arguments)]
pub fn fv_update_2d(q: f64, fw: f64, fe: f64, fs: f64, fn_: f64, dtdx: f64, dtdy: f64) -> f64 {
    q - dtdx * (fe - fw) - dtdy * (fn_ - fs)
}

/// (19) second SSP-RK2 stage: ½U⁰ + ½(U¹ + ΔtL(U¹)).
pub fn rk2_average(q0: f64, q2: f64) -> f64 {
    0.5 * q0 + 0.5 * q2
}

/// (20) CFL rate of a cell: s_x/Δx + s_y/Δy = s_x·(1/Δx) + s_y·(1/Δy) (s: |u| + a); the
/// reciprocals of the constant spacings are folded when a kernel is built.
pub fn cfl_rate_2d(sx: f64, sy: f64, dx: f64, dy: f64) -> f64 {
    sx * (1.0 / dx) + sy * (1.0 / dy)
}

/// (21) next time step from the largest rate, clipped to land on the end time.
pub fn next_dt(cfl: f64, t_end: f64, smax: f64, t: f64) -> f64 {
    (cfl / smax).min(t_end - t)
}

/// (21) the time after a step of dt: exactly the end time for the clipped last step.
pub fn advance_time(t_end: f64, t: f64, dt: f64) -> f64 {
    if dt >= t_end - t {
        t_end
    } else {
        t + dt
    }
}

/// (22) NaN-propagating maximum (a NaN rate or update marks a failed step): `a` on a tie, so
/// the result is one of the two doubles even for ±0 (where `f64::max` and OpenCL's `fmax` may
/// give either), by comparisons only.
pub fn nan_max(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        a
    } else if b.is_nan() || b > a {
        b
    } else {
        a
    }
}
