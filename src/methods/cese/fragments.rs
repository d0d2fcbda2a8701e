//! The CE/SE formulas (docs/method/cese.md), one scalar function each: the twins of
//! `cl/cese/fragments.cl` (same names, same order, same operation order; `g` is `CFG_GAMMA`,
//! `alpha` is `CFG_ALPHA`), checked bit for bit by `tests/cese_fragments.rs`.
//!
//! 1D: u = (u1, u2, u3) = (ρ, ρv, ρE), w2 = u2·ri, w3 = u3·ri with ri = 1/u1 (one division per
//! point; the callers compute it). 2D: u = (ρ, ρu, ρv, E) with w_n, w_t the velocities normal
//! and tangential to a direction and w4 = E·ri: the y-direction formulas are the x-direction
//! ones with the two momenta (and their velocities) swapped, and every sum over the two
//! momenta is grouped so that the swap only commutes operands of one `+`. A problem symmetric about y = x therefore stays symmetric to the last bit.

/// (12) |x|^α as a product of α factors (α a small integer; `pow` is not correctly rounded).
pub fn cese_pow(alpha: i32, x: f64) -> f64 {
    let a = x.abs();
    let mut p = 1.0;
    for _ in 0..alpha {
        p *= a;
    }
    p
}

/// (12) the α-weighted average W0(a, b) = (|b|^α a + |a|^α b)/(|a|^α + |b|^α); 0 when both
/// weights are 0.
pub fn cese_w0(alpha: i32, a: f64, b: f64) -> f64 {
    let wa = cese_pow(alpha, a);
    let wb = cese_pow(alpha, b);
    let den = wa + wb;
    if den == 0.0 {
        0.0
    } else {
        (wb * a + wa * b) / den
    }
}

/// (11) the derivative of a new point from the Taylor values u'_L, u'_R of its parents:
/// W0(u − u'_L, u'_R − u) · h (h = 2/Δx in 1D).
pub fn cese_grad(alpha: i32, upl: f64, u: f64, upr: f64, h: f64) -> f64 {
    cese_w0(alpha, u - upl, upr - u) * h
}

/// (9) s = (Δx/4) u_x + (Δt/Δx)(f + (Δt/4) f_t) of a parent (1D).
pub fn cese_s(qdx: f64, ux: f64, r: f64, f: f64, dt4: f64, ft: f64) -> f64 {
    qdx * ux + r * (f + dt4 * ft)
}

/// (10) the Taylor value u' = u + (Δt/2) u_t of a parent at the new time level.
pub fn cese_up(u: f64, hdt: f64, ut: f64) -> f64 {
    u + hdt * ut
}

/// (9) the new value ½[(u_L + u_R) + (s_L − s_R)] (1D).
pub fn cese_mid(ul: f64, ur: f64, sl: f64, sr: f64) -> f64 {
    0.5 * ((ul + ur) + (sl - sr))
}

/// (2) pressure (γ − 1)(u3 − ½ u2 w2) (1D).
pub fn c1_p(g: f64, u2: f64, u3: f64, w2: f64) -> f64 {
    (g - 1.0) * (u3 - 0.5 * u2 * w2)
}

/// (3) momentum flux (γ − 1) u3 + ½(3 − γ) u2 w2 (1D).
pub fn c1_f2(g: f64, u2: f64, u3: f64, w2: f64) -> f64 {
    (g - 1.0) * u3 + 0.5 * (3.0 - g) * u2 * w2
}

/// (3) energy flux γ u3 w2 − ½(γ − 1) u2 w2² (1D).
pub fn c1_f3(g: f64, u2: f64, u3: f64, w2: f64) -> f64 {
    g * u3 * w2 - 0.5 * (g - 1.0) * u2 * w2 * w2
}

/// (4) row 2 of the Jacobian A times x (1D).
pub fn c1_a2(g: f64, w2: f64, x1: f64, x2: f64, x3: f64) -> f64 {
    -0.5 * (3.0 - g) * w2 * w2 * x1 + (3.0 - g) * w2 * x2 + (g - 1.0) * x3
}

/// (4) row 3 of the Jacobian A times x (1D).
pub fn c1_a3(g: f64, w2: f64, w3: f64, x1: f64, x2: f64, x3: f64) -> f64 {
    ((g - 1.0) * w2 * w2 * w2 - g * w2 * w3) * x1
        + (g * w3 - 1.5 * (g - 1.0) * w2 * w2) * x2
        + g * w2 * x3
}

/// (13) pressure (γ − 1)(E − ½(m_x w_x + m_y w_y)) (2D).
pub fn c2_p(g: f64, mx: f64, my: f64, e: f64, wx: f64, wy: f64) -> f64 {
    (g - 1.0) * (e - 0.5 * (mx * wx + my * wy))
}

/// (13) the kinetic energy per unit mass ½(w_x² + w_y²) (2D).
pub fn c2_q(wx: f64, wy: f64) -> f64 {
    0.5 * (wx * wx + wy * wy)
}

/// (13) pressure from it, (γ − 1)(E − ρ q) (2D, a parent's).
pub fn c2_pq(g: f64, r: f64, e: f64, q: f64) -> f64 {
    (g - 1.0) * (e - r * q)
}

/// (14) stagnation enthalpy H = (E + p)·ri (2D).
pub fn c2_h(e: f64, p: f64, ri: f64) -> f64 {
    (e + p) * ri
}

/// (14) normal-momentum flux m_n w_n + p (2D).
pub fn c2_fn(mn: f64, wn: f64, p: f64) -> f64 {
    mn * wn + p
}

/// (15) ρ times the velocity perturbation of x along n: x_n − w_n x_1 (2D).
pub fn c2_dv(xn: f64, wn: f64, x1: f64) -> f64 {
    xn - wn * x1
}

/// (15) the pressure perturbation of x, (γ − 1)((x_4 − (w_x x_x + w_y x_y)) + q x_1): the
/// row of ∂p/∂u times x, shared by A_x x and A_y x (2D).
#[allow(clippy::too_many_arguments)]
pub fn c2_dp(g: f64, wx: f64, wy: f64, q: f64, x1: f64, xx: f64, xy: f64, x4: f64) -> f64 {
    (g - 1.0) * ((x4 - (wx * xx + wy * xy)) + q * x1)
}

/// (15) the normal-momentum row of A_n x, w_n (x_n + d_n) + δp (2D).
pub fn c2_jn(wn: f64, xn: f64, dn: f64, dp: f64) -> f64 {
    wn * (xn + dn) + dp
}

/// (15) the tangential-momentum row of A_n x, x_t w_n + w_t d_n (2D).
pub fn c2_jt(xt: f64, wn: f64, wt: f64, dn: f64) -> f64 {
    xt * wn + wt * dn
}

/// (15) the energy row of A_n x, (x_4 + δp) w_n + H d_n, with e4 = x_4 + δp (2D).
pub fn c2_je(e4: f64, wn: f64, h: f64, dn: f64) -> f64 {
    e4 * wn + h * dn
}

/// (17) the time-centred flux of a parent, f + (Δt/4) f_t.
pub fn c2_fc(f: f64, dt4: f64, ft: f64) -> f64 {
    f + dt4 * ft
}

/// (17) a parent's lever along one axis, (Δ/4) u_d + (Δt/Δ) f_c (P along x, Q along y).
pub fn c2_lever(qd: f64, ud: f64, r: f64, fc: f64) -> f64 {
    qd * ud + r * fc
}

/// (17) a parent's cross term R = (Δt/Δx)(Δy/4) A_x u_y + (Δt/Δy)(Δx/4) A_y u_x.
pub fn c2_cross(kxy: f64, fxy: f64, kyx: f64, fyx: f64) -> f64 {
    kxy * fxy + kyx * fyx
}

/// (18) the new value ¼[(t_LD + t_RU) + (t_RD + t_LU)] (2D; the diagonal pairs keep the sum
/// symmetric about y = x).
pub fn c2_sum(ld: f64, rd: f64, ru: f64, lu: f64) -> f64 {
    0.25 * ((ld + ru) + (rd + lu))
}

/// (19) u_x = (δa − δb)/Δx from the two diagonal increments (2D).
pub fn c2_dx(da: f64, db: f64, rdx: f64) -> f64 {
    (da - db) * rdx
}

/// (19) u_y = (δa + δb)/Δy (2D).
pub fn c2_dy(da: f64, db: f64, rdy: f64) -> f64 {
    (da + db) * rdy
}

/// (20) sound speed √(γ p/ρ) = √(γ·p·ri), from the point's reciprocal ri = 1/ρ.
pub fn cese_a(g: f64, ri: f64, p: f64) -> f64 {
    (g * p * ri).sqrt()
}

/// (20) the CFL rate (|v| + a)/h = (|v| + a)·(1/h) of a point (the constant 1/h is folded
/// when a kernel is built).
pub fn cese_rate(s: f64, h: f64) -> f64 {
    s * (1.0 / h)
}
