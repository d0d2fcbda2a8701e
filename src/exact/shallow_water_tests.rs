//! Tests of the shallow-water exact solutions: Stoker's jump, Ritter's closed form, conservation.

use super::*;

const G: f64 = 9.81;

/// Jump conditions across a shock of speed s from state w1 (behind) to w2 (ahead):
/// F(w2) − F(w1) = s (U(w2) − U(w1)), relative to the flux scale.
fn assert_jump(w1: SwState, w2: SwState, s: f64) {
    let (u1, u2, f1, f2) = (w1.to_cons(), w2.to_cons(), w1.flux(G), w2.flux(G));
    for k in 0..2 {
        let scale = f1[k].abs() + f2[k].abs() + s.abs() * (u1[k].abs() + u2[k].abs());
        let r = f2[k] - f1[k] - s * (u2[k] - u1[k]);
        assert!(
            r.abs() <= 1e-12 * scale,
            "jump [{k}]: residual {r} of scale {scale}"
        );
    }
}

#[test]
fn stoker_intermediate_state_satisfies_the_jump_relation_and_the_riemann_invariant() {
    for (hl, hr) in [
        (1.0, 0.5),
        (10.0, 1.0),
        (0.005, 0.001),
        (1.0, 1e-4),
        (2.0, 1.999),
    ] {
        let sol = stoker(hl, hr, G).unwrap();
        let SwPattern::Wet { h, u, left, right } = sol.pattern() else {
            panic!()
        };
        assert_eq!((left, right), (WaveKind::Rarefaction, WaveKind::Shock));
        let s = *sol.breakpoints().last().unwrap();
        assert_jump(SwState::new(h, u), SwState::new(hr, 0.0), s);
        // Left Riemann invariant u + 2√(gh) across the rarefaction.
        let inv = 2.0 * (G * hl).sqrt();
        assert!((u + 2.0 * (G * h).sqrt() - inv).abs() <= 1e-12 * inv);
        assert!(hr < h && h < hl);
    }
}

#[test]
fn stoker_matches_the_swashes_equation_for_c_m_and_its_shock_speed() {
    // SWASHES (Delestre et al. 2013), dam break on a wet domain: c_m = √(g h_m) solves
    // −8 g h_r c_m² (√(g h_l) − c_m)² + (c_m² − g h_r)² (c_m² + g h_r) = 0, and the jump is at
    // x_C = x0 + t · 2 c_m² (√(g h_l) − c_m)/(c_m² − g h_r); the fan tail at x0 + t(2√(g h_l) − 3c_m).
    for (hl, hr) in [(0.005, 0.001), (10.0, 1.0), (1.0, 0.1)] {
        let sol = stoker(hl, hr, G).unwrap();
        let hm = sol.star().unwrap().h;
        let c2 = G * hm;
        let (gl, gr) = (G * hl, G * hr);
        let cm = c2.sqrt();
        let terms = [
            8.0 * gr * c2 * (gl.sqrt() - cm).powi(2),
            (c2 - gr).powi(2) * (c2 + gr),
        ];
        assert!((terms[1] - terms[0]).abs() <= 1e-13 * terms[0], "{terms:?}");
        let b = sol.breakpoints();
        let shock = 2.0 * c2 * (gl.sqrt() - cm) / (c2 - gr);
        assert!((b[2] - shock).abs() <= 1e-12 * shock, "{b:?} vs {shock}");
        assert!((b[1] - (2.0 * gl.sqrt() - 3.0 * cm)).abs() <= 1e-13 * gl.sqrt());
        assert!((b[0] + gl.sqrt()).abs() <= 1e-15 * gl.sqrt());
    }
}

#[test]
fn ritter_front_moves_at_twice_the_celerity_and_matches_the_general_solver() {
    let h0 = 2.0;
    let c0 = (G * h0).sqrt();
    let sol = solve_sw(SwState::new(h0, 0.0), SwState::DRY, G).unwrap();
    assert_eq!(sol.pattern(), SwPattern::DryRight { front: 2.0 * c0 });
    assert_eq!(sol.breakpoints(), vec![-c0, 2.0 * c0]);
    for k in 0..=40 {
        let xi = -1.5 * c0 + 4.0 * c0 * k as f64 / 40.0;
        let (a, b) = (ritter(h0, G, xi).unwrap(), sol.sample(xi));
        assert!(
            (a.h - b.h).abs() <= 1e-14 * h0 && (a.u - b.u).abs() <= 1e-14 * c0,
            "{xi}"
        );
    }
    // Depth at the dam stays 4h0/9 and the velocity there is 2c0/3 (Ritter).
    let at_dam = ritter(h0, G, 0.0).unwrap();
    assert!((at_dam.h - 4.0 * h0 / 9.0).abs() < 1e-15 && (at_dam.u - 2.0 * c0 / 3.0).abs() < 1e-14);
    assert_eq!(ritter(h0, G, 2.0 * c0).unwrap(), SwState::DRY);
}

/// ∫ (h, hu) over [−L, L] at t against L(U_L + U_R) + t(F_L − F_R).
fn assert_conserves(sol: &SwSolution, l: SwState, r: SwState, t: f64, half: f64) {
    let avg = sol.cell_average(-half, half, t, 0.0).unwrap();
    let (ul, ur, fl, fr) = (l.to_cons(), r.to_cons(), l.flux(G), r.flux(G));
    for k in 0..2 {
        let expect = half * (ul[k] + ur[k]) + t * (fl[k] - fr[k]);
        let scale = half * (ul[k].abs() + ur[k].abs()) + t * (fl[k].abs() + fr[k].abs());
        let got = 2.0 * half * avg[k];
        assert!(
            (got - expect).abs() <= 1e-12 * scale,
            "[{k}] {got} vs {expect}"
        );
    }
}

#[test]
fn profiles_conserve_mass_and_momentum() {
    let cases = [
        (SwState::new(1.0, 0.0), SwState::new(0.1, 0.0)), // Stoker
        (SwState::new(1.0, 0.0), SwState::DRY),           // Ritter
        (SwState::DRY, SwState::new(1.0, -0.5)),          // dry left
        (SwState::new(1.0, -7.0), SwState::new(1.0, 7.0)), // dry bed generated
        (SwState::new(1.0, 2.0), SwState::new(0.5, -1.0)), // two shocks
        (SwState::new(1.0, -1.0), SwState::new(2.0, 1.0)), // two rarefactions
    ];
    for (l, r) in cases {
        let sol = solve_sw(l, r, G).unwrap();
        let b = sol.breakpoints();
        let reach = b[0].abs().max(b[b.len() - 1].abs());
        assert_conserves(&sol, l, r, 0.7, 1.1 * reach * 0.7 + 0.1);
    }
}

#[test]
fn two_rarefactions_give_the_closed_form_depth() {
    // Both waves rarefactions: h* = (½(a_L + a_R) − ¼(u_R − u_L))²/g exactly.
    let (l, r) = (SwState::new(1.0, -1.0), SwState::new(1.0, 1.0));
    let sol = solve_sw(l, r, G).unwrap();
    let star = sol.star().unwrap();
    let expect = (G.sqrt() - 0.5).powi(2) / G;
    assert!((star.h - expect).abs() <= 1e-15 * expect && star.u.abs() < 1e-15);
}

#[test]
fn dry_bed_is_generated_beyond_the_depth_positivity_condition() {
    let (l, r) = (SwState::new(1.0, -7.0), SwState::new(1.0, 7.0));
    let sol = solve_sw(l, r, G).unwrap();
    let a = G.sqrt();
    assert_eq!(
        sol.pattern(),
        SwPattern::DryGenerated {
            left_front: -7.0 + 2.0 * a,
            right_front: 7.0 - 2.0 * a
        }
    );
    assert_eq!(sol.sample(0.0), SwState::DRY);
    assert!(sol.sample(-7.0 + 2.0 * a - 1e-9).h < 1e-18);
}

#[test]
fn invalid_input_gives_errors() {
    let ok = SwState::new(1.0, 0.0);
    assert!(solve_sw(ok, ok, 0.0).is_err());
    assert!(solve_sw(SwState::new(-1.0, 0.0), ok, G).is_err());
    assert!(solve_sw(ok, SwState::new(1.0, f64::NAN), G).is_err());
    assert!(stoker(1.0, 1.0, G).is_err());
    assert!(stoker(1.0, 0.0, G).is_err());
    assert!(ritter(0.0, G, 0.0).is_err());
    let sol = solve_sw(ok, ok, G).unwrap();
    assert!(sol.cell_average(0.0, 0.0, 1.0, 0.0).is_err());
}
