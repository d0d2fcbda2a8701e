//! Tests of the oblique-shock relations against NACA 1135 values and seed 001's wedge table.

use super::*;

const G: f64 = 1.4;

fn weak(m: f64, theta_deg: f64) -> ObliqueShock {
    ObliqueShock::new(m, theta_deg.to_radians(), G, Branch::Weak).unwrap()
}

/// |x − printed| ≤ half a unit of the last printed digit (+1 % for round-off).
fn near(x: f64, printed: f64, ulp: f64) -> bool {
    (x - printed).abs() <= 0.505 * ulp
}

#[test]
fn naca_1135_values_at_mach_2_and_3() {
    // M1 = 2, θ = 10°: β = 39.31°, p2/p1 = 1.7066, ρ2/ρ1 = 1.4584, T2/T1 = 1.1702, M2 = 1.6405,
    // strong β = 83.70° (NACA 1135 chart 2 and the standard oblique-shock tables).
    let s = weak(2.0, 10.0);
    assert!(near(s.beta.to_degrees(), 39.31, 0.01), "{s:?}");
    assert!(near(s.pressure_ratio, 1.7066, 1e-4), "{s:?}");
    assert!(near(s.density_ratio, 1.4584, 1e-4), "{s:?}");
    assert!(near(s.temperature_ratio, 1.1702, 1e-4), "{s:?}");
    assert!(near(s.mach2, 1.6405, 1e-4), "{s:?}");
    let strong = ObliqueShock::new(2.0, 10f64.to_radians(), G, Branch::Strong).unwrap();
    assert!(near(strong.beta.to_degrees(), 83.70, 0.01) && strong.mach2 < 1.0);
    // M1 = 3, θ = 20°: β = 37.76°, p2/p1 = 3.771, M2 = 1.994 (standard oblique-shock tables).
    let s = weak(3.0, 20.0);
    assert!(near(s.beta.to_degrees(), 37.76, 0.01) && near(s.pressure_ratio, 3.771, 1e-3));
    assert!(near(s.mach2, 1.994, 1e-3), "{s:?}");
    // Maximum deflection at M1 = 2: 22.97° at β = 64.67°.
    let (tm, bm) = max_deflection(2.0, G).unwrap();
    assert!(near(tm.to_degrees(), 22.97, 0.01) && near(bm.to_degrees(), 64.67, 0.01));
}

#[test]
fn brandvik_pullan_wedge_at_mach_1_6_matches_seed_001() {
    // Seed 001 §6: θ = 5° → β = 44.1°, p2/p1 = 1.28, M2 = 1.43; 8° → 48.0°, 1.48, 1.32;
    // 10° → 51.1°, 1.64, 1.24. θ_max(1.6) = 14.65°.
    for (th, beta, p, m2) in [
        (5.0, 44.1, 1.28, 1.43),
        (8.0, 48.0, 1.48, 1.32),
        (10.0, 51.1, 1.64, 1.24),
    ] {
        let s = weak(1.6, th);
        assert!(near(s.beta.to_degrees(), beta, 0.1), "{th}: {s:?}");
        assert!(
            near(s.pressure_ratio, p, 0.01) && near(s.mach2, m2, 0.01),
            "{th}: {s:?}"
        );
    }
    assert!(near(
        max_deflection(1.6, G).unwrap().0.to_degrees(),
        14.65,
        0.01
    ));
}

#[test]
fn normal_shock_table_at_mach_2() {
    // NACA 1135 normal-shock table, M = 2: 4.5000, 2.6667, 1.6875, 0.72087, M2 = 0.57735.
    let [p, rho, t, p0, m2] = normal_shock(2.0, G).unwrap();
    assert!(near(p, 4.5, 1e-4) && near(rho, 2.6667, 1e-4) && near(t, 1.6875, 1e-4));
    assert!(near(p0, 0.72087, 1e-5) && near(m2, 0.57735, 1e-5));
    // The strong branch at θ = 0 is this normal shock; the weak one is the Mach wave.
    let s = ObliqueShock::new(2.0, 0.0, G, Branch::Strong).unwrap();
    assert!(
        (s.beta - std::f64::consts::FRAC_PI_2).abs() < 1e-12
            && (s.pressure_ratio - 4.5).abs() < 1e-12
    );
    let w = weak(2.0, 0.0);
    assert!((w.beta - 30f64.to_radians()).abs() < 1e-12 && (w.pressure_ratio - 1.0).abs() < 1e-12);
    assert!((w.mach2 - 2.0).abs() < 1e-10);
}

#[test]
fn shock_angles_solve_the_theta_beta_mach_relation_to_round_off() {
    for m in [1.2, 1.6, 2.0, 5.0, 20.0] {
        let (tm, bm) = max_deflection(m, G).unwrap();
        // θ_max is a maximum: a fine scan of θ(β) does not exceed it.
        let mu = (1.0 / m).asin();
        let scan = (0..=20000)
            .map(|k| {
                deflection(
                    m,
                    mu + (std::f64::consts::FRAC_PI_2 - mu) * k as f64 / 20000.0,
                    G,
                )
            })
            .fold(0.0, f64::max);
        assert!(scan <= tm + 1e-14 && tm - scan < 1e-8, "M = {m}");
        for frac in [0.1, 0.5, 0.9, 0.999] {
            for branch in [Branch::Weak, Branch::Strong] {
                let b = shock_angle(m, frac * tm, G, branch).unwrap();
                assert!(
                    (deflection(m, b, G) - frac * tm).abs() < 1e-14,
                    "M = {m}, {frac}"
                );
                assert!((branch == Branch::Weak) == (b < bm));
            }
        }
        let at_max = shock_angle(m, tm, G, Branch::Weak).unwrap();
        assert!((at_max - bm).abs() < 1e-6);
    }
}

#[test]
fn detached_and_invalid_input_gives_errors() {
    let r = ObliqueShock::new(1.6, 15f64.to_radians(), G, Branch::Weak);
    assert!(matches!(r, Err(ExactError::Detached { .. })), "{r:?}");
    assert!(ObliqueShock::new(0.9, 0.1, G, Branch::Weak).is_err());
    assert!(ObliqueShock::new(2.0, -0.1, G, Branch::Weak).is_err());
    assert!(ObliqueShock::new(2.0, 0.1, 1.0, Branch::Weak).is_err());
    assert!(ObliqueShock::new(2.0, f64::NAN, G, Branch::Weak).is_err());
    assert!(normal_shock(0.5, G).is_err());
}
