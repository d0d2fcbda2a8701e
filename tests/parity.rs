//! The OpenCL backend against the serial reference in the GPU order (one T/p sweep per loop-2
//! iteration) and, for the phase kernels, the C++ order (several sweeps), on PoCL in CI: every
//! fragment is a bit-exact twin of the reference, so both forms reproduce it bit for bit (the
//! README's promise): every comparison here allows no difference at all.
//!
//! The programs come from the shared kernel cache (`tests/common`); tests that can use the
//! same program (same case, scheme and fused work-group width) do, so a run with an empty
//! cache builds each distinct program once.

mod common;

use common::{cl_lock, cl_options, diff, diff_state};
use simplets::methods::simple_ts::backend::Backend as Solver;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, SweepOrder};
use simplets::methods::simple_ts::opencl::phase::{OpenCl, OpenClOptions};
use simplets::methods::simple_ts::reference::Reference;

/// The parity case ([`common::body_case`]) with `convection` and `interpolation`.
fn case(convection: Convection, interpolation: Interpolation) -> Case {
    common::body_case(convection, interpolation)
}

#[test]
fn opencl_matches_reference_in_all_four_schemes() {
    let _g = cl_lock();
    for convection in [Convection::Implicit, Convection::Explicit] {
        for interpolation in [Interpolation::Upwind, Interpolation::Tvd] {
            let c = case(convection, interpolation);
            let mut r = Reference::new(&c);
            let nxt = r.p.grid.nxt;
            let mut d = OpenCl::new(&c, &cl_options()).unwrap();
            // One loop-2 iteration.
            r.begin_step();
            r.iterate();
            d.begin_step().unwrap();
            d.iterate().unwrap();
            let e1 = diff(&r.state.k, &d.state().unwrap().k, nxt);
            // 50 time steps from a fresh start (the program from the cache).
            let mut r = Reference::new(&c);
            let mut d = OpenCl::new(&c, &cl_options()).unwrap();
            for _ in 0..50 {
                let a = r.step().unwrap();
                let b = d.step().unwrap();
                assert_eq!(
                    a.iters, b.iters,
                    "{}: loop-2 iteration counts differ",
                    c.scheme
                );
            }
            let st = d.state().unwrap();
            let e50 = diff_state(&r.state, st, nxt);
            eprintln!("{}: 1 iteration {e1}, 50 steps {e50}", c.scheme);
            assert!(e1.same(), "{}: 1 iteration: {e1}", c.scheme);
            assert!(e50.same(), "{}: 50 steps: {e50}", c.scheme);
        }
    }
}

/// The C++ order (loop 3 with `inner_sweeps` T/p sweeps) on the phase kernels: the later
/// sweeps read the previous one through `tp_sweep`, with the ghosts refreshed in between, as
/// the reference's loop 3 does. Two and three sweeps, implicit upwind and explicit TVD, 30
/// steps: bit for bit, with equal loop-2 iteration counts; the fused form refuses three
/// sweeps (it runs one or two: the next test).
#[test]
fn opencl_runs_the_cpp_order_with_several_sweeps() {
    let _g = cl_lock();
    for (convection, interpolation, sweeps) in [
        (Convection::Implicit, Interpolation::Upwind, 2),
        (Convection::Explicit, Interpolation::Tvd, 3),
    ] {
        let mut c = case(convection, interpolation);
        c.solver.order = SweepOrder::Cpp;
        c.solver.inner_sweeps = sweeps;
        let mut r = Reference::new(&c);
        let nxt = r.p.grid.nxt;
        let mut d = OpenCl::new(&c, &cl_options()).unwrap();
        let mut iters = 0;
        for _ in 0..30 {
            let a = r.step().unwrap();
            let b = d.step().unwrap();
            assert_eq!(a.iters, b.iters, "{}: loop-2 iteration counts", c.scheme);
            iters += a.iters;
        }
        let st = d.state().unwrap();
        let e = diff_state(&r.state, st, nxt);
        eprintln!(
            "{} with {sweeps} sweeps: 30 steps ({iters} loop-2 iterations) {e}",
            c.scheme
        );
        assert!(e.same(), "{}: {e}", c.scheme);
        // One sweep is another iteration: the test would see a difference.
        let mut one = c.clone();
        one.solver.order = SweepOrder::Gpu;
        let mut g = Reference::new(&one);
        for _ in 0..30 {
            g.step().unwrap();
        }
        assert!(!diff(&r.state.k, &g.state.k, nxt).same());
        if sweeps > 2 {
            let refused =
                simplets::methods::simple_ts::opencl::fused::Fused::new(&c, &cl_options(), None);
            assert!(
                matches!(
                    refused,
                    Err(simplets::error::DeviceError::FusedUnsupported { .. })
                ),
                "the fused form runs one or two sweeps"
            );
        }
    }
}

/// The C++ order's two sweeps in the fused kernel (the second sweep a row behind the first,
/// from local rings, one more halo column): bit for bit with the reference over 30 steps, with
/// equal loop-2 iteration counts, in full and lean storage, on decompositions whose subdomain
/// edges cut through the body (W = 8 leaves 2 owned columns beside the 3 + 3 halo).
#[test]
fn fused_kernel_runs_the_cpp_order_with_two_sweeps() {
    use simplets::methods::simple_ts::opencl::fused::Fused;
    let _g = cl_lock();
    for (convection, interpolation, dec, lean) in [
        (
            Convection::Implicit,
            Interpolation::Upwind,
            (8usize, 5usize),
            false,
        ),
        (Convection::Explicit, Interpolation::Tvd, (16, 3), true),
    ] {
        let mut c = case(convection, interpolation);
        c.solver.order = SweepOrder::Cpp;
        c.solver.inner_sweeps = 2;
        let mut r = Reference::new(&c);
        let nxt = r.p.grid.nxt;
        let opts = OpenClOptions {
            lean,
            ..cl_options()
        };
        let mut d = Fused::new(&c, &opts, Some(dec)).unwrap();
        assert_eq!(d.decomposition().halo, 3);
        let mut iters = 0;
        for step in 0..30 {
            let a = r.step().unwrap();
            let b = d.step().unwrap();
            assert_eq!(
                a.iters, b.iters,
                "{} step {step}: loop-2 iteration counts",
                c.scheme
            );
            iters += a.iters;
        }
        let e = diff_state(&r.state, d.state().unwrap(), nxt);
        eprintln!(
            "fused C++ order {} W={} rows={} lean={lean}: 30 steps ({iters} loop-2 iterations) {e}",
            c.scheme, dec.0, dec.1
        );
        assert!(e.same(), "{} lean={lean}: {e}", c.scheme);
    }
}

/// The work-group size of the phase kernels (`SIMPLETS_PHASE_WG`; GPUs get 128) does not
/// change the bits: sizes that divide no row or the grid (48, 7) give the reference's state
/// in the C++ order, with the same loop-2 counts. The variable is set and removed under the
/// OpenCL lock, which every test of this binary that builds a solver holds.
#[test]
fn phase_work_group_size_does_not_change_the_bits() {
    let _g = cl_lock();
    let mut c = case(Convection::Implicit, Interpolation::Upwind);
    c.solver.order = SweepOrder::Cpp;
    c.solver.inner_sweeps = 2;
    for wg in ["48", "7"] {
        std::env::set_var(
            simplets::methods::simple_ts::opencl::phase::PHASE_WG_ENV,
            wg,
        );
        let d = OpenCl::new(&c, &cl_options());
        std::env::remove_var(simplets::methods::simple_ts::opencl::phase::PHASE_WG_ENV);
        let mut d = d.unwrap();
        let mut r = Reference::new(&c);
        let nxt = r.p.grid.nxt;
        for _ in 0..20 {
            let a = r.step().unwrap();
            let b = d.step().unwrap();
            assert_eq!(
                a.iters, b.iters,
                "work-groups of {wg}: loop-2 iteration counts"
            );
        }
        let e = diff_state(&r.state, d.state().unwrap(), nxt);
        assert!(e.same(), "work-groups of {wg}: {e}");
    }
    // A value that is no size the device takes is refused in one line naming the variable.
    for bad in ["abc", "-3", "100000000"] {
        std::env::set_var(
            simplets::methods::simple_ts::opencl::phase::PHASE_WG_ENV,
            bad,
        );
        let e = OpenCl::new(&c, &cl_options()).err();
        std::env::remove_var(simplets::methods::simple_ts::opencl::phase::PHASE_WG_ENV);
        let e = e.expect("refused").to_string();
        assert!(
            e.contains("SIMPLETS_PHASE_WG") && e.contains(bad) && !e.contains('\n'),
            "{bad}: {e}"
        );
    }
}

/// Phase kernels rebound to a second program of the same source in the same context
/// (`BuiltProgram::sibling`, `Runtime::rebind_from`: how a register cap reaches single kernels
/// on NVIDIA, `phase/regs.rs`) give the reference's bits in the C++ order with the second
/// sweep's instances; a sibling whose `pseudo` is broken shows that the rebound kernels are the
/// ones that run. `SIMPLETS_PHASE_REGS` off NVIDIA, or naming another kernel, is refused in one
/// line naming the variable.
#[test]
fn phase_kernels_from_a_sibling_program_give_the_same_bits() {
    use simplets::methods::simple_ts::opencl::phase::{source, PHASE_REGS_ENV};
    let _g = cl_lock();
    let mut c = case(Convection::Implicit, Interpolation::Tvd);
    c.solver.order = SweepOrder::Cpp;
    c.solver.inner_sweeps = 2;
    let all = ["pseudo", "tp", "tp_o", "tp_sweep", "correct", "fluxes"];
    let rebound = |src: &str| {
        let mut d = OpenCl::new(&c, &cl_options()).unwrap();
        let rt = Solver::runtime_mut(&mut d).unwrap();
        let sibling = rt.program().sibling(src, "-D CFG_SIBLING=1", None).unwrap();
        rt.rebind_from(sibling, &all).unwrap();
        d
    };
    let mut d = rebound(&source());
    let mut r = Reference::new(&c);
    let nxt = r.p.grid.nxt;
    for _ in 0..20 {
        let a = r.step().unwrap();
        let b = d.step().unwrap();
        assert_eq!(a.iters, b.iters, "loop-2 iteration counts");
    }
    let e = diff_state(&r.state, d.state().unwrap(), nxt);
    assert!(e.same(), "rebound kernels: {e}");
    // The same with û doubled in the sibling's `pseudo`: the state must differ.
    let broken = source().replace(
        "U_HAT_D_U(i, j, u_hat[k], d_u[k]);",
        "{ U_HAT_D_U(i, j, u_hat[k], d_u[k]); u_hat[k] *= 2.0; }",
    );
    assert_ne!(broken, source(), "the mutation must apply");
    let mut m = rebound(&broken);
    let mut r = Reference::new(&c);
    for _ in 0..3 {
        r.step().unwrap();
        let _ = m.step();
    }
    if let Ok(st) = m.state() {
        assert!(
            !diff_state(&r.state, st, nxt).same(),
            "the sibling's kernel did not run"
        );
    }
    for bad in ["pseudo=64", "copy_hat=64"] {
        std::env::set_var(PHASE_REGS_ENV, bad);
        let e = OpenCl::new(&c, &cl_options()).err();
        std::env::remove_var(PHASE_REGS_ENV);
        let e = e.expect("refused").to_string();
        assert!(
            e.contains(PHASE_REGS_ENV) && e.contains(bad) && !e.contains('\n'),
            "{bad}: {e}"
        );
    }
}

/// Periodic sides (Couette) and pressure sides (slip channel) exercise the copy lists, the
/// periodic seam and the solved boundary faces.
#[test]
fn opencl_matches_reference_with_periodic_and_pressure_sides() {
    let _g = cl_lock();
    for (name, steps) in [("couette_slip.json", 30), ("channel_slip.json", 10)] {
        let mut c = Case::from_file(&common::config(name)).unwrap();
        c.solver.order = SweepOrder::Gpu;
        c.solver.max_iters = 10;
        let mut r = Reference::new(&c);
        let nxt = r.p.grid.nxt;
        let mut d = OpenCl::new(&c, &cl_options()).unwrap();
        for _ in 0..steps {
            let (a, b) = (r.step().unwrap(), d.step().unwrap());
            assert_eq!(a.iters, b.iters, "{name}: loop-2 iteration counts");
        }
        let st = d.state().unwrap();
        let e = diff_state(&r.state, st, nxt);
        eprintln!("{name}: {steps} steps {e}");
        assert!(e.same(), "{name}: {e}");
    }
}

/// The side and wall options of the authors' C++ cases (issue 16) on the OpenCL backends, bit
/// for bit: a channel with a block on its floor, slip without jump on the walls, no slip with
/// jump and its own σ on the block, zero-gradient T on the east pressure side (phase form, C++
/// order with 2 sweeps; the fused form refuses a ghost that copies only T); a square with
/// walls of three conditions and a solved outflow face (phase form, GPU order; the fused form
/// refuses the solved outflow face), the same with a copied face (phase and fused forms), with
/// a zero-gradient-pressure inflow (phase form), and that with compat `swapped_u_wall_flags`
/// in the C++ order (phase form); the channel with compat `stale_ghosts_in_loop3` too (phase
/// form).
#[test]
fn opencl_matches_reference_with_the_cpp_side_options() {
    use simplets::methods::simple_ts::opencl::fused::Fused;
    let _g = cl_lock();
    let channel = r#"{
        "name": "cpp-channel",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 40, "ny": 10, "x": [0.0, 4.0], "y": [0.0, 1.0] },
        "bodies": [ { "x": [1.5, 2.5], "y": [0.0, 0.3], "slip": false, "thermal": "jump",
                      "sigma_t": 1.7, "T_wall": 1.2 } ],
        "boundaries": {
            "west": { "kind": "pressure", "p": 1.5 },
            "east": { "kind": "pressure", "p": 1.0, "temperature": "zero_gradient" },
            "south": { "kind": "wall", "thermal": "fixed", "T": 1.1, "sigma_u": 0.9 },
            "north": { "kind": "wall", "thermal": "fixed" }
        },
        "initial": { "p": 1.5, "p_east": 1.0 },
        "time": { "dt": 0.05, "steps": 30 },
        "solver": { "max_iters": 20, "inner_sweeps": 2 }
    }"#;
    let square = r#"{
        "name": "cpp-square",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 37, "ny": 19, "x": [0.0, 7.4], "y": [0.0, 3.8] },
        "bodies": [ { "x": [2.0, 3.0], "y": [1.4, 2.4], "thermal": "fixed", "sigma_u": 0.7 } ],
        "boundaries": {
            "west": { "kind": "inflow", "mach": 1.5, "pressure": "PRESSURE" },
            "east": { "kind": "outflow", "boundary_face": "solved" },
            "south": { "kind": "wall", "wall": "no_slip", "thermal": "jump", "velocity": 0.3 },
            "north": { "kind": "wall", "wall": "adiabatic", "slip": true }
        },
        "initial": { "u": 1.0 },
        "time": { "dt": 0.01, "steps": 30 },
        "solver": { "max_iters": 5, "order": "gpu" }
    }"#;
    // The last case adds compat swapped_u_wall_flags (C++ order, implicit upwind).
    let compat = square.replace("PRESSURE", "zero_gradient").replace(
        r#""order": "gpu" }"#,
        r#""order": "cpp" }, "compat": ["swapped_u_wall_flags"]"#,
    );
    // The fused form refuses a solved outflow face (docs/decisions.md): it runs the square's
    // walls with the default copied face.
    let copied = square
        .replace("PRESSURE", "fixed")
        .replace(r#", "boundary_face": "solved""#, "");
    // The channel again with compat stale_ghosts_in_loop3 (its east T is copied) and
    // swapped_u_wall_flags (its block has vertical faces).
    let channel_compat = channel.replace(
        r#""solver": { "max_iters": 20, "inner_sweeps": 2 }"#,
        r#""solver": { "max_iters": 20, "inner_sweeps": 2 },
        "compat": ["swapped_u_wall_flags", "stale_ghosts_in_loop3"]"#,
    );
    let cases = [
        (channel.to_string(), false),
        (channel_compat, false),
        (square.replace("PRESSURE", "fixed"), false),
        (copied, true),
        (square.replace("PRESSURE", "zero_gradient"), false),
        (compat, false),
    ];
    for (n, (text, fused)) in cases.into_iter().enumerate() {
        let mut c = Case::from_json(&text, "cpp").unwrap();
        c.name = format!("{}-{n}", c.name);
        let mut r = Reference::new(&c);
        let mut d = OpenCl::new(&c, &cl_options()).unwrap();
        let mut f = fused.then(|| Fused::new(&c, &cl_options(), None).unwrap());
        if !fused {
            assert!(Fused::new(&c, &cl_options(), None).is_err());
        }
        for _ in 0..30 {
            let a = r.step().unwrap();
            assert_eq!(a.iters, d.step().unwrap().iters, "{}", c.name);
            if let Some(f) = f.as_mut() {
                assert_eq!(a.iters, f.step().unwrap().iters, "{}", c.name);
            }
        }
        let nxt = r.grid().nxt;
        let e = diff_state(&r.state, d.state().unwrap(), nxt);
        let ef = f
            .as_mut()
            .map(|f| diff_state(&r.state, f.state().unwrap(), nxt));
        let fused = ef.map_or("refused".to_string(), |e| e.to_string());
        eprintln!("{}: 30 steps, phase {e}, fused {fused}", c.name);
        assert!(e.same(), "{} phase: {e}", c.name);
        assert!(ef.is_none_or(|e| e.same()), "{} fused: {fused}", c.name);
    }
}

/// The fused one-kernel loop 2 (spec §5.3) against the reference: every scheme with a
/// decomposition whose subdomain edges cut through the body, and three decompositions
/// (W work-items incl. the 2+2 halo, Ny_sub rows) for one scheme. Fully Jacobi: results must
/// not depend on W or Ny_sub. (Each W is a separate kernel build, slow on PoCL: hence six
/// builds, each reused for both checks via `restore`, and by the tests below through the
/// kernel cache.)
#[test]
fn fused_kernel_matches_reference_for_any_decomposition() {
    use simplets::methods::simple_ts::opencl::fused::Fused;
    let _g = cl_lock();
    let mut runs = Vec::new();
    for convection in [Convection::Implicit, Convection::Explicit] {
        for interpolation in [Interpolation::Upwind, Interpolation::Tvd] {
            runs.push((convection, interpolation, (8usize, 5usize)));
        }
    }
    runs.push((Convection::Implicit, Interpolation::Tvd, (16, 3)));
    runs.push((Convection::Implicit, Interpolation::Tvd, (64, 30)));
    for (convection, interpolation, dec) in runs {
        let c = case(convection, interpolation);
        let r0 = Reference::new(&c);
        let mut r1 = Reference::new(&c);
        r1.begin_step();
        r1.iterate();
        let nxt = r0.p.grid.nxt;
        let mut r50 = Reference::new(&c);
        let mut iters = Vec::new();
        for _ in 0..50 {
            iters.push(r50.step().unwrap().iters);
        }
        let mut d = Fused::new(&c, &cl_options(), Some(dec)).unwrap();
        d.begin_step().unwrap();
        d.iterate().unwrap();
        let e1 = diff(&r1.state.k, &d.state().unwrap().k, nxt);
        d.restore(r0.state.clone()).unwrap();
        for (step, want) in iters.iter().enumerate() {
            let got = d.step().unwrap().iters;
            assert_eq!(
                got, *want,
                "{} {dec:?}: loop-2 iterations of step {step}",
                c.scheme
            );
        }
        let st = d.state().unwrap();
        let e50 = diff_state(&r50.state, st, nxt);
        eprintln!(
            "fused {} W={} rows={}: 1 iteration {e1}, 50 steps {e50}",
            c.scheme, dec.0, dec.1
        );
        assert!(e1.same(), "{} {dec:?}: 1 iteration: {e1}", c.scheme);
        assert!(e50.same(), "{} {dec:?}: 50 steps: {e50}", c.scheme);
    }
}

/// The fused kernel's lean storage (ρ and Γ computed where read, packed geometry) gives the
/// reference's fields bit for bit: ρ = p/T and Γ = √T are correctly rounded in OpenCL, as in
/// Rust, and every backend stores exactly those values.
#[test]
fn lean_fused_storage_is_bit_identical() {
    use simplets::methods::simple_ts::opencl::fused::Fused;
    let _g = cl_lock();
    let opts = OpenClOptions {
        lean: true,
        ..cl_options()
    };
    for (convection, interpolation, dec) in [
        (Convection::Explicit, Interpolation::Tvd, (8usize, 5usize)),
        (Convection::Implicit, Interpolation::Upwind, (16, 3)),
    ] {
        let c = case(convection, interpolation);
        let mut r = Reference::new(&c);
        let nxt = r.p.grid.nxt;
        for _ in 0..20 {
            r.step().unwrap();
        }
        let mut d = Fused::new(&c, &opts, Some(dec)).unwrap();
        for _ in 0..20 {
            d.step().unwrap();
        }
        let st = d.state().unwrap();
        let e = diff_state(&r.state, st, nxt);
        eprintln!(
            "lean fused {} W={} rows={}: 20 steps {e}",
            c.scheme, dec.0, dec.1
        );
        assert!(e.same(), "{}: {e}", c.scheme);
    }
}

/// Restart on the OpenCL backends: 10 steps in one go equal 5 steps, a state read back to the
/// host, a fresh solver restored from it, and 5 more steps, bit for bit (both forms). The
/// fused program (W = 16, implicit TVD) is one the decomposition test builds (the rows per
/// subdomain are not a define), so it comes from the kernel cache.
#[test]
fn opencl_restart_from_a_host_state_is_bit_exact() {
    use simplets::methods::simple_ts::opencl::fused::Fused;
    let _g = cl_lock();
    let c = case(Convection::Implicit, Interpolation::Tvd);
    let opts = cl_options();
    let mut whole = OpenCl::new(&c, &opts).unwrap();
    for _ in 0..10 {
        whole.step().unwrap();
    }
    let mut first = OpenCl::new(&c, &opts).unwrap();
    for _ in 0..5 {
        first.step().unwrap();
    }
    let mid = first.state().unwrap().clone();
    let mut second = OpenCl::new(&c, &opts).unwrap();
    second.restore(mid.clone()).unwrap();
    for _ in 0..5 {
        second.step().unwrap();
    }
    let nxt = whole.grid().nxt;
    let a = whole.state().unwrap().clone();
    let e = diff_state(&a, second.state().unwrap(), nxt);
    assert!(e.same(), "phase restart: {e}");
    let mut fused = Fused::new(&c, &opts, Some((16, 7))).unwrap();
    fused.restore(mid).unwrap();
    for _ in 0..5 {
        fused.step().unwrap();
    }
    let e = diff_state(&a, fused.state().unwrap(), nxt);
    assert!(e.same(), "fused restart: {e}");
    let k = fused.info().kernels.unwrap();
    let d = k.decomposition.unwrap();
    assert_eq!((k.form.as_str(), d.width, d.rows), ("fused", 16, 7));
    assert_eq!(d.groups, fused.decomposition().groups());
    assert!(
        k.build_options.contains("-D DEV_W=16"),
        "{}",
        k.build_options
    );
}

/// `iterate_rows` reads back exactly the rows asked for, on both forms: after more steps
/// those rows equal the whole-state read of a twin solver and the other rows still hold the
/// last whole read. (W = 8, explicit TVD: the fused program of the decomposition test.)
#[test]
fn opencl_iterate_rows_reads_only_the_rows_asked_for() {
    use simplets::methods::simple_ts::opencl::fused::Fused;
    let _g = cl_lock();
    let c = case(Convection::Explicit, Interpolation::Tvd);
    let opts = cl_options();
    let mut twin = OpenCl::new(&c, &opts).unwrap();
    let solvers: [Box<dyn Solver>; 2] = [
        Box::new(OpenCl::new(&c, &opts).unwrap()),
        Box::new(Fused::new(&c, &opts, Some((8, 7))).unwrap()),
    ];
    for _ in 0..3 {
        twin.step().unwrap();
    }
    let old = twin.state().unwrap().clone();
    for _ in 0..3 {
        twin.step().unwrap();
    }
    let new = twin.state().unwrap().clone();
    let nxt = twin.grid().nxt;
    let rows = [2..5, 9..10, 19..21];
    for mut s in solvers {
        for _ in 0..3 {
            s.step().unwrap();
        }
        assert_eq!(s.state().unwrap().k, old.k);
        for _ in 0..3 {
            s.step().unwrap();
        }
        assert_eq!(s.clock(), (new.step, new.time));
        let st = s.iterate_rows(&rows).unwrap().clone();
        for (got, (now, before)) in [
            (&st.k.u, (&new.k.u, &old.k.u)),
            (&st.k.p, (&new.k.p, &old.k.p)),
            (&st.k.Gam, (&new.k.Gam, &old.k.Gam)),
        ] {
            for (j, row) in got.chunks(nxt).enumerate() {
                let want = if rows.iter().any(|r| r.contains(&j)) {
                    now
                } else {
                    before
                };
                assert_eq!(row, &want[j * nxt..(j + 1) * nxt], "{} row {j}", s.name());
            }
        }
        let name = s.name();
        assert_eq!(s.state().unwrap().k, new.k, "{name}");
    }
}
