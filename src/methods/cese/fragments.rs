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

/// (14) normal-momentum flux (γ − 1)E + ½(3 − γ) m_n w_n − ½(γ − 1) m_t w_t (2D).
pub fn c2_fn(g: f64, mn: f64, mt: f64, e: f64, wn: f64, wt: f64) -> f64 {
    (g - 1.0) * e + 0.5 * (3.0 - g) * mn * wn - 0.5 * (g - 1.0) * mt * wt
}

/// (14) energy flux γ E w_n − ½(γ − 1) m_n (w_n² + w_t²) (2D).
pub fn c2_fe(g: f64, mn: f64, e: f64, wn: f64, wt: f64) -> f64 {
    g * e * wn - 0.5 * (g - 1.0) * mn * (wn * wn + wt * wt)
}

/// (15) the normal-momentum row of the Jacobian A_n times x (2D).
pub fn c2_an(g: f64, wn: f64, wt: f64, x1: f64, xn: f64, xt: f64, x4: f64) -> f64 {
    ((-0.5 * (3.0 - g) * wn * wn + 0.5 * (g - 1.0) * wt * wt) * x1 + (g - 1.0) * x4)
        + ((3.0 - g) * wn * xn - (g - 1.0) * wt * xt)
}

/// (15) the tangential-momentum row of A_n times x: −w_a w_b x1 + (w_b x_a + w_a x_b), with
/// (a, b) = (n, t) for A_x's third row and (t, n) for A_y's second (2D).
pub fn c2_ac(wa: f64, wb: f64, x1: f64, xa: f64, xb: f64) -> f64 {
    -(wa * wb) * x1 + (wb * xa + wa * xb)
}

/// (15) the energy row of A_n times x (2D).
#[allow(clippy::too_many_arguments)]
pub fn c2_ae(g: f64, wn: f64, wt: f64, w4: f64, x1: f64, xn: f64, xt: f64, x4: f64) -> f64 {
    ((-g * wn * w4 + (g - 1.0) * wn * (wn * wn + wt * wt)) * x1 + g * wn * x4)
        + ((g * w4 - 0.5 * (g - 1.0) * (3.0 * wn * wn + wt * wt)) * xn - (g - 1.0) * wn * wt * xt)
}

/// (17) the bottom-face average of a parent's quadrant: u − (s_x a + s_y b), with
/// a = (Δx/4) u_x and b = (Δy/4) u_y.
pub fn c2_bottom(u: f64, sx: f64, a: f64, sy: f64, b: f64) -> f64 {
    u - (sx * a + sy * b)
}

/// (17) the time-centred flux of a parent, f + (Δt/4) f_t.
pub fn c2_fc(f: f64, dt4: f64, ft: f64) -> f64 {
    f + dt4 * ft
}

/// (17) the flux through a quadrant's outer face, f_c − s f_d, with f_d = (Δ/4) ∂f/∂(the
/// other axis).
pub fn c2_face(fc: f64, s: f64, fd: f64) -> f64 {
    fc - s * fd
}

/// (18) a parent's share U − (s_x (Δt/Δx) F + s_y (Δt/Δy) G).
#[allow(clippy::too_many_arguments)]
pub fn c2_term(uq: f64, sx: f64, rx: f64, fq: f64, sy: f64, ry: f64, gq: f64) -> f64 {
    uq - (sx * (rx * fq) + sy * (ry * gq))
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
