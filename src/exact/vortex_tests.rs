//! Tests of the isentropic vortex: a steady Euler solution in its own frame, advected exactly.

use super::*;

/// Fourth-order central difference of f at s with step h.
fn d4(f: &dyn Fn(f64) -> [f64; 4], s: f64, h: f64) -> [f64; 4] {
    let (a, b, c, d) = (f(s - 2.0 * h), f(s - h), f(s + h), f(s + 2.0 * h));
    let mut out = [0.0; 4];
    for k in 0..4 {
        out[k] = (a[k] - 8.0 * b[k] + 8.0 * c[k] - d[k]) / (12.0 * h);
    }
    out
}

/// Residual ∂U/∂t + ∂F/∂x + ∂G/∂y of the exact solution at (x, y, t), by finite differences.
fn euler_residual(v: &IsentropicVortex, x: f64, y: f64, t: f64) -> [f64; 4] {
    let g = v.gamma;
    let h = 1e-3;
    let dt = d4(&|s| v.point(x, y, s).to_cons(g).to_array(), t, h);
    let dfx = d4(&|s| v.point(s, y, t).flux_x(g).to_array(), x, h);
    let dgy = d4(&|s| v.point(x, s, t).flux_y(g).to_array(), y, h);
    [0, 1, 2, 3].map(|k| dt[k] + dfx[k] + dgy[k])
}

/// Residual bound: the O(h⁴) truncation error of `d4` with h = 1e-3 and its O(ε/h) round-off are
/// both ~1e-11 here; the requirement is 1e-6.
const FD_TOL: f64 = 1e-9;

#[test]
fn the_vortex_is_a_steady_euler_solution_in_its_own_frame() {
    let v = IsentropicVortex::new(5.0, 1.4, (0.0, 0.0), (0.0, 0.0), None).unwrap();
    let mut worst: f64 = 0.0;
    for i in 0..13 {
        for j in 0..13 {
            let (x, y) = (-3.0 + 0.5 * i as f64, -3.0 + 0.5 * j as f64 + 0.1);
            // Steady: ∂F/∂x + ∂G/∂y = 0 (momentum balance ρ(V·∇)V + ∇p = 0 among them).
            for r in euler_residual(&v, x, y, 0.7) {
                worst = worst.max(r.abs());
            }
            let dt = d4(&|s| v.point(x, y, s).to_cons(1.4).to_array(), 0.7, 1e-3);
            assert!(dt.iter().all(|d| d.abs() < 1e-12));
        }
    }
    assert!(worst < FD_TOL, "largest Euler residual {worst}");
}

#[test]
fn the_advected_vortex_solves_the_unsteady_euler_equations_on_the_periodic_box() {
    let v = IsentropicVortex::new(5.0, 1.4, (9.0, 9.0), (1.0, -0.5), None).unwrap();
    let v = IsentropicVortex {
        domain: Some(PeriodicBox::new(0.0, 0.0, 20.0, 20.0).unwrap()),
        ..v
    };
    let t = 13.3; // the centre (22.3, 2.35) has wrapped through x = 20 to (2.3, 2.35)
    let (xc, yc) = v.centre_at(t);
    assert!(
        (xc - 2.3).abs() < 1e-14 && (yc - 2.35).abs() < 1e-14,
        "{xc} {yc}"
    );
    let mut worst: f64 = 0.0;
    for k in 0..40 {
        let (x, y) = (0.5 * k as f64 + 0.05, 2.0 - 0.3 * k as f64 + 0.05);
        for r in euler_residual(&v, x.rem_euclid(20.0), y.rem_euclid(20.0), t) {
            worst = worst.max(r.abs());
        }
    }
    assert!(worst < FD_TOL, "largest Euler residual {worst}");
}

#[test]
fn entropy_is_one_everywhere_and_the_centre_state_is_shus() {
    let v = IsentropicVortex::shu();
    for (x, y) in [(5.0, 5.0), (4.3, 5.9), (1.0, 9.0), (7.7, 2.2)] {
        let w = v.point(x, y, 0.0);
        assert!((w.p / w.rho.powf(1.4) - 1.0).abs() < 1e-15);
    }
    // Centre: T = 1 − (γ−1)β²e/(8γπ²) = 0.754, ρ = T^2.5, no velocity perturbation.
    let c = v.point(5.0, 5.0, 0.0);
    let t_min = 1.0 - 0.4 * 25.0 * 1f64.exp() / (8.0 * 1.4 * PI * PI);
    assert!((c.p / c.rho - t_min).abs() < 1e-15 && (t_min - 0.754_08).abs() < 1e-5);
    assert_eq!((c.u, c.v), (1.0, 1.0));
}

#[test]
fn one_period_returns_the_initial_field_and_the_box_size_rule_holds() {
    let v = IsentropicVortex::shu();
    for (x, y) in [(5.0, 5.0), (0.3, 9.1), (6.2, 1.7)] {
        let (a, b) = (v.point(x, y, 0.0), v.point(x, y, 10.0));
        assert!((a.rho - b.rho).abs() < 1e-13 && (a.u - b.u).abs() < 1e-13);
    }
    // Shu's [0, 10]² leaves a 2.4e-5 velocity mismatch at the boundary.
    assert!(
        (v.truncation() - 2.44e-5).abs() < 0.01e-5,
        "{}",
        v.truncation()
    );
    let r = min_half_width(5.0, 1e-16).unwrap();
    let big = IsentropicVortex {
        domain: Some(PeriodicBox::new(0.0, 0.0, 2.0 * r, 2.0 * r).unwrap()),
        ..v
    };
    assert!(big.truncation() <= 1.0001e-16);
    assert!((r - 8.9).abs() < 0.1 && (min_half_width(5.0, 1e-10).unwrap() - 7.2).abs() < 0.1);
}

#[test]
fn cell_averages_agree_with_a_refined_rule_and_tend_to_point_values() {
    let v = IsentropicVortex::shu();
    for h in [0.5, 0.25, 0.1] {
        let (x0, y0) = (4.6, 4.85);
        let whole = v
            .cell_average(x0, x0 + h, y0, y0 + h, 0.0)
            .unwrap()
            .to_array();
        let mut parts = [0.0; 4];
        for (a, b) in [(0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5)] {
            let (xa, ya) = (x0 + a * h, y0 + b * h);
            let c = v
                .cell_average(xa, xa + h / 2.0, ya, ya + h / 2.0, 0.0)
                .unwrap();
            for (p, c) in parts.iter_mut().zip(c.to_array()) {
                *p += 0.25 * c;
            }
        }
        for k in 0..4 {
            assert!(
                (whole[k] - parts[k]).abs() < 1e-14,
                "h = {h}: {whole:?} vs {parts:?}"
            );
        }
    }
    let tiny = v
        .cell_average(5.3, 5.3 + 1e-6, 4.1, 4.1 + 1e-6, 0.0)
        .unwrap();
    let p = v.point(5.3 + 5e-7, 4.1 + 5e-7, 0.0).to_cons(1.4);
    assert!((tiny.rho - p.rho).abs() < 1e-13 && (tiny.energy - p.energy).abs() < 1e-13);
}

#[test]
fn invalid_vortex_input_is_refused() {
    assert!(IsentropicVortex::new(5.0, 1.0, (0.0, 0.0), (0.0, 0.0), None).is_err());
    assert!(IsentropicVortex::new(-1.0, 1.4, (0.0, 0.0), (0.0, 0.0), None).is_err());
    assert!(IsentropicVortex::new(11.0, 1.4, (0.0, 0.0), (0.0, 0.0), None).is_err());
    assert!(IsentropicVortex::new(5.0, 1.4, (f64::NAN, 0.0), (0.0, 0.0), None).is_err());
    assert!(IsentropicVortex::shu()
        .cell_average(1.0, 0.0, 0.0, 1.0, 0.0)
        .is_err());
    assert!(min_half_width(5.0, 0.0).is_err());
}
