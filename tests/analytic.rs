//! Integration tests of the serial reference against analytic solutions and conservation
//! (issue 2, item 7 (a)–(d)). Each tolerance is a named constant with its reason.

mod common;

use simplets::methods::simple_ts::backend::Backend as Solver;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, Scheme, Side};
use simplets::methods::simple_ts::reference::Reference;

fn load(name: &str) -> Case {
    Case::from_file(&common::config(name)).unwrap_or_else(|e| panic!("{e}"))
}

fn run(r: &mut Reference, steps: u64) {
    for _ in 0..steps {
        r.step().unwrap_or_else(|e| panic!("{e}"));
    }
}

/// (a) Couette: the discrete slip condition at half a cell is exact for a linear profile, so
/// the only departures from the first-order slip solution are viscous heating (T rises by
/// ~8e-4, Γ = √T by ~4e-4) and the leftover transient (< 1e-9 after 800 steps). 1 % of U is
/// the bound; the measured error is ~1e-4.
const COUETTE_TOL: f64 = 0.01;

#[test]
fn couette_slip_profile_and_wall_slip_match_first_order_solution() {
    let case = load("couette_slip.json");
    let (uw_s, uw_n) = match (&case.boundaries.south, &case.boundaries.north) {
        (Side::Wall { velocity: a, .. }, Side::Wall { velocity: b, .. }) => (*a, *b),
        _ => panic!("couette case needs wall sides"),
    };
    let (h, kn, sigma) = (
        case.grid.y[1] - case.grid.y[0],
        case.gas.kn,
        case.gas.sigma_u,
    );
    let du = uw_n - uw_s;
    // u(y) = u_mid + G (y − H/2), G = ΔU / (H + 2 σ Kn) (ρ = 1 at the walls to O(1e-3)).
    let gr = du / (h + 2.0 * sigma * kn);
    let u_mid = 0.5 * (uw_n + uw_s);
    let mut r = Reference::new(&case);
    run(&mut r, case.time.n_steps());
    let g = r.p.grid.clone();
    let k = &r.state().unwrap().k;
    let mut worst: f64 = 0.0;
    for j in 1..=g.ny {
        let ua = u_mid + gr * (g.y_v[j] - 0.5 * h);
        worst = worst.max((k.u[g.idx(2, j)] - ua).abs() / du);
    }
    assert!(worst < COUETTE_TOL, "profile error {worst:.3e} of U");
    // Wall slip velocity: gas velocity extrapolated to y = 0 minus the wall velocity.
    let (u1, u2) = (k.u[g.idx(2, 1)], k.u[g.idx(2, 2)]);
    let u_gas = u1 - (u2 - u1) * (g.y_v[1] - g.y_f[1]) / (g.y_v[2] - g.y_v[1]);
    let slip = u_gas - uw_s;
    let slip_a = sigma * kn * gr;
    let rel = (slip - slip_a).abs() / slip_a;
    eprintln!("couette: profile error {worst:.3e} U, slip {slip:.6e} vs {slip_a:.6e} ({rel:.3e})");
    assert!(
        rel < COUETTE_TOL,
        "slip velocity {slip} vs analytic {slip_a}: {rel:.3e}"
    );
}

/// (b) Slip channel: the analytic solution neglects inertia and expansion cooling; at
/// L/H = 50 these are O(Re·H/L) ≈ 0.3 %, the y-resolution error of 12 cells is O(h²) ≈ 0.1 %.
/// Measured: p within 0.5 % (largest at the outlet), ṁ within 0.3 %; bound 2 % (the issue's).
const CHANNEL_TOL: f64 = 0.02;

#[test]
fn slip_channel_pressure_and_mass_flow_match_arkilic_solution() {
    let case = load("channel_slip.json");
    let (p_in, p_out) = match (&case.boundaries.west, &case.boundaries.east) {
        (Side::Pressure { p: a, .. }, Side::Pressure { p: b, .. }) => (*a, *b),
        _ => panic!("channel case needs pressure sides"),
    };
    let (len, h) = (
        case.grid.x[1] - case.grid.x[0],
        case.grid.y[1] - case.grid.y[0],
    );
    // Outlet Knudsen number based on H: Kn_o = Kn (ρ_out = p_out / T = 1) × L / H.
    let kn_o = case.gas.kn / p_out / h;
    let s = case.gas.sigma_u;
    let pr = p_in / p_out;
    let p_exact = |xt: f64| {
        let a = 6.0 * s * kn_o;
        p_out
            * (-a
                + (a * a + (1.0 + 12.0 * s * kn_o) * xt + (pr + 12.0 * s * kn_o) * pr * (1.0 - xt))
                    .sqrt())
    };
    let mut r = Reference::new(&case);
    run(&mut r, case.time.n_steps());
    let c = r.p.c;
    // ṁ = A H³ p_o² / (24 B L) [(P² − 1) + 12 σ Kn_o (P − 1)] per unit depth, μ_eff = B/A.
    let mdot_exact = c.a * h.powi(3) * p_out * p_out / (24.0 * c.b * len)
        * ((pr * pr - 1.0) + 12.0 * s * kn_o * (pr - 1.0));
    let g = r.p.grid.clone();
    let jc = g.row_at(0.5 * (case.grid.y[0] + case.grid.y[1]));
    let mut p_err: f64 = 0.0;
    for i in 1..=g.nx {
        let xt = (g.x_v[i] - case.grid.x[0]) / len;
        let p = 0.5 * (r.state.k.p[g.idx(i, jc)] + r.state.k.p[g.idx(i, jc + 1)]);
        p_err = p_err.max((p / p_exact(xt) - 1.0).abs());
    }
    let mut m_err: f64 = 0.0;
    for i in [1, g.nx / 2, g.nx + 1] {
        let m: f64 = (1..=g.ny).map(|j| r.flux.Fx[g.idx(i, j)]).sum();
        m_err = m_err.max((m / mdot_exact - 1.0).abs());
    }
    eprintln!("channel: max p error {p_err:.3e}, mass-flow error {m_err:.3e}");
    assert!(p_err < CHANNEL_TOL, "centreline p error {p_err:.3e}");
    assert!(m_err < CHANNEL_TOL, "mass flow error {m_err:.3e}");
}

/// (c) Mass conservation at loop-2 convergence. Interior faces telescope exactly, so the global
/// imbalance is the sum of the pressure-equation residuals: round-off (~1e-16) with fixed
/// boundary fluxes, and ≈ Δt ρ h ε_V per solved boundary face with pressure sides. With the
/// tolerances below both are far under 1e-10 of the mass in the domain.
const MASS_TOL: f64 = 1e-10;

#[test]
fn mass_is_conserved_at_loop2_convergence() {
    for (name, eps_v, eps_p) in [
        ("confined_square_coarse.json", 1e-8, 1e-9),
        ("channel_slip.json", 1e-11, 1e-12),
    ] {
        let mut case = load(name);
        case.solver.max_iters = 1000;
        case.solver.eps_v = eps_v;
        case.solver.eps_p = eps_p;
        case.solver.eps_t = eps_p;
        let mut r = Reference::new(&case);
        for step in 0..10 {
            let rep = r.step().unwrap();
            assert!(
                rep.converged,
                "{name}: loop 2 did not converge in step {step}"
            );
            let b = r.mass_budget();
            let rel = (b.imbalance / b.mass).abs();
            assert!(
                rel < MASS_TOL,
                "{name} step {step}: relative imbalance {rel:.3e}"
            );
        }
    }
}

/// (d) The paper's supersonic case (coarse) in every scheme: 200 steps without NaN, mass
/// conserved to the loop-2 residual (bound derived below), and a bow shock: p ahead of the front face > 1.5 p_in
/// (the normal-shock stagnation pressure at M = 2.43, γ = 5/3 is ≈ 7.9 p_in).
#[test]
fn supersonic_square_runs_in_all_four_schemes_with_a_bow_shock() {
    let base = load("confined_square_coarse.json");
    let front = base.bodies[0].x[0];
    let yc = 0.5 * (base.bodies[0].y[0] + base.bodies[0].y[1]);
    for convection in [Convection::Implicit, Convection::Explicit] {
        for interpolation in [Interpolation::Upwind, Interpolation::Tvd] {
            let mut case = base.clone();
            case.scheme = Scheme {
                convection,
                interpolation,
            };
            case.solver.max_iters = 20;
            let mut r = Reference::new(&case);
            let mut worst_mass: f64 = 0.0;
            let height = case.grid.y[1] - case.grid.y[0];
            for _ in 0..200 {
                let rep = r.step().unwrap_or_else(|e| panic!("{}: {e}", case.scheme));
                let b = r.mass_budget();
                // Loop 2 may stop at max_iters: interior faces still telescope exactly, and the
                // only flux not taken from the final pressure solve is the outflow copy face,
                // whose u moved by at most du and whose upwind ρ = p/T by at most
                // dρ ≤ (dp + ρ dT)/T in the last iteration: |imbalance| ≤ Δt H (ρ du + |u| dρ).
                let k = &r.state.k;
                let fl = |v: &Vec<f64>, f: fn(f64, f64) -> f64, z| v.iter().cloned().fold(z, f);
                let (rho_max, u_max) = (fl(&k.rho, f64::max, 0.0), fl(&k.u, f64::max, 0.0));
                let t_min = fl(&k.T, f64::min, f64::MAX);
                let [du, _, dp, dt] = rep.res.0;
                let drho = (dp + rho_max * dt) / t_min;
                let bound = case.time.dt * height * (rho_max * du + u_max * drho) + 1e-13 * b.mass;
                assert!(
                    b.imbalance.abs() <= bound,
                    "{}: imbalance {:.3e} above the loop-2 bound {bound:.3e}",
                    case.scheme,
                    b.imbalance
                );
                worst_mass = worst_mass.max((b.imbalance / b.mass).abs());
            }
            let g = r.p.grid.clone();
            let k = &r.state().unwrap().k;
            assert!(k
                .p
                .iter()
                .chain(&k.T)
                .chain(&k.u)
                .chain(&k.v)
                .all(|x| x.is_finite()));
            let j = g.row_at(yc);
            let p_ahead = (1..=g.nx)
                .filter(|&i| g.x_v[i] < front)
                .map(|i| k.p[g.idx(i, j)])
                .fold(0.0, f64::max);
            eprintln!(
                "{}: max p ahead {p_ahead:.3}, worst mass imbalance {worst_mass:.2e}",
                case.scheme
            );
            assert!(
                p_ahead > 1.5,
                "{}: no bow shock, max p ahead {p_ahead}",
                case.scheme
            );
        }
    }
}

/// Spec §2.8/G14: `order: gpu` is the kernels' order, one T/p evaluation per loop-2
/// iteration, identical bit for bit to the C++ order with one inner sweep, and different from
/// the C++ default of two sweeps after the first iteration.
#[test]
fn gpu_order_is_one_inner_sweep() {
    let mut a = load("confined_square_coarse.json");
    a.solver.order = simplets::methods::simple_ts::case::SweepOrder::Gpu;
    a.solver.inner_sweeps = 7; // ignored in the GPU order
    let mut b = a.clone();
    b.solver.order = simplets::methods::simple_ts::case::SweepOrder::Cpp;
    b.solver.inner_sweeps = 1;
    let mut c = b.clone();
    c.solver.inner_sweeps = 2;
    let (mut ra, mut rb, mut rc) = (Reference::new(&a), Reference::new(&b), Reference::new(&c));
    for r in [&mut ra, &mut rb, &mut rc] {
        r.begin_step();
        r.iterate();
        r.iterate();
    }
    assert_eq!(ra.state.k, rb.state.k);
    assert_ne!(rb.state.k.p, rc.state.k.p);
}
