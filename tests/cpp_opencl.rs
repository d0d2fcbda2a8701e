//! The authors' C++ rules (issue 16) on the OpenCL phase form, on PoCL in CI: the outer faces
//! from the ghost cells' mass balance and every compat switch give the reference's bits (no
//! difference allowed on any field of either level), on the authors' straight channel and on
//! a small channel with two bodies whose convex corners and adiabatic wall trigger the wall
//! switches. The fused form runs the mass-balance outer faces too (full and lean storage) and
//! refuses compat in one line (it does not carry the C++ code's defects).
//!
//! Six programs (compat on the straight channel; compat, the default mode, and the default
//! mode fused in full and lean storage and in the C++ order's two sweeps on the body channel)
//! come from the shared kernel cache (`tests/common`).

mod common;

use common::{cl_lock, cl_options, diff_state, root};
use simplets::methods::simple_ts::backend::Backend;
use simplets::methods::simple_ts::case::{Case, Defect};
use simplets::methods::simple_ts::opencl::{
    fused,
    phase::{OpenCl, OpenClOptions},
};
use simplets::methods::simple_ts::reference::Reference;

/// The authors' straight channel (`configs/cpp/channel_straight.json`, every switch on) for
/// `steps` steps.
fn straight(steps: u64) -> Case {
    let path = root().join("configs/cpp/channel_straight.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["time"]["steps"] = steps.into();
    v["time"]["stop_at_steady_state"] = false.into();
    Case::from_json(&v.to_string(), "channel_straight.json").unwrap()
}

/// A short pressure-driven slip channel with a mass-balance west outer face, a
/// zero-gradient outlet temperature and warm walls (so the copied ghost temperature changes),
/// a block on its floor (convex corners, slip with jump) and a floating adiabatic block;
/// `compat` is the case's `compat` field (or none: then the GPU order, the outlet's T fixed and
/// its outer face from the mass balance too; in compat mode the east outer face is the copy of
/// `east_outer_face_copy`, which a balance would override). `rest`: the inlet pressure and the wall
/// temperatures equal the gas's, which stays at rest (the driven case's program).
fn bodies(compat: Option<serde_json::Value>, rest: bool) -> Case {
    let (p_west, t_wall) = if rest {
        (1.0, [1.0, 1.0])
    } else {
        (1.5, [1.2, 1.3])
    };
    let mut v = serde_json::json!({
        "name": "cpp-opencl",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 40, "ny": 10, "x": [0.0, 4.0], "y": [0.0, 1.0] },
        "bodies": [
            { "name": "block", "x": [1.5, 2.5], "y": [0.0, 0.3], "wall": "slip" },
            { "name": "warm", "x": [3.0, 3.4], "y": [0.5, 0.8], "wall": "adiabatic" }
        ],
        "boundaries": {
            "west": { "kind": "pressure", "p": p_west, "outer_face": "mass_balance" },
            "east": { "kind": "pressure", "p": 1.0, "temperature": "zero_gradient" },
            "south": { "kind": "wall", "wall": "slip", "T": t_wall[0], "thermal": "fixed" },
            "north": { "kind": "wall", "wall": "slip", "T": t_wall[1] }
        },
        "initial": { "p": 1.0 },
        "scheme": { "convection": "implicit", "interpolation": "upwind" },
        "time": { "dt": 0.02, "steps": 30 },
        "solver": { "max_iters": 4, "order": "cpp", "inner_sweeps": 2 }
    });
    match compat {
        Some(c) => v["compat"] = c,
        None => {
            // Both forms: the GPU order, and the outlet's T fixed (the fused kernel reads a
            // copied ghost's p and T through one alias).
            v["solver"]["order"] = "gpu".into();
            v["boundaries"]["east"] =
                serde_json::json!({ "kind": "pressure", "p": 1.0, "outer_face": "mass_balance" });
        }
    }
    Case::from_json(&v.to_string(), "cpp-opencl").unwrap()
}

/// `steps` steps of `case` on the reference and on the phase form: the states bit for bit
/// after every step, with equal loop-2 iteration counts and equal C++ steady flags.
fn phase_matches_reference(case: &Case, steps: usize) {
    let mut r = Reference::new(case);
    let nxt = r.p.grid.nxt;
    let mut d = OpenCl::new(case, &cl_options()).unwrap();
    for s in 1..=steps {
        let a = r.step().unwrap();
        let b = d.step().unwrap();
        assert_eq!(
            (a.iters, a.steady),
            (b.iters, b.steady),
            "{}: step {s}: loop-2 iterations and steady flag",
            case.name
        );
        let e = diff_state(&r.state, d.state().unwrap(), nxt);
        assert!(e.same(), "{}: step {s}: {e}", case.name);
    }
}

/// The straight channel in compat mode (every switch, mass-balance ends, the outlet's
/// zero-gradient temperature): 60 steps bit for bit.
#[test]
fn straight_channel_in_compat_mode_is_bit_identical() {
    let _g = cl_lock();
    phase_matches_reference(&straight(60), 60);
}

/// The body channel with every switch on: bit for bit over 60 steps of up to four loop-2
/// iterations. Each switch acts on this case (the reference without it differs), so the
/// comparison would catch a kernel that ignores it.
#[test]
fn body_channel_in_compat_mode_is_bit_identical() {
    let _g = cl_lock();
    let all = bodies(Some("simple_ts_cpp".into()), false);
    let run = |c: &Case| {
        let mut r = Reference::new(c);
        for _ in 0..60 {
            r.step().unwrap();
        }
        r.state.k
    };
    let with_all = run(&all);
    for d in Defect::ALL {
        // The steady test changes no field; it is checked below.
        if d == Defect::SteadyTestFirstSweep {
            continue;
        }
        let names: Vec<_> = Defect::ALL
            .into_iter()
            .filter(|&x| x != d)
            .map(Defect::name)
            .collect();
        let without = run(&bodies(Some(serde_json::json!(names)), false));
        let differs = [
            (&with_all.u, &without.u),
            (&with_all.v, &without.v),
            (&with_all.p, &without.p),
            (&with_all.T, &without.T),
        ]
        .iter()
        .any(|(a, b)| {
            a.iter()
                .zip(b.iter())
                .any(|(x, y)| x.to_bits() != y.to_bits())
        });
        assert!(differs, "{} does not act on the test case", d.name());
    }
    phase_matches_reference(&all, 60);
}

/// Compat `steady_test_first_sweep` on the device: the gas at rest passes the C++ steady test
/// on the first step on both backends, the driven gas does not (checked step by step in
/// [`phase_matches_reference`]). Same program as the driven case.
#[test]
fn cpp_steady_test_runs_on_the_device() {
    let _g = cl_lock();
    let rest = bodies(Some("simple_ts_cpp".into()), true);
    let mut r = Reference::new(&rest);
    let mut d = OpenCl::new(&rest, &cl_options()).unwrap();
    let (a, b) = (r.step().unwrap(), d.step().unwrap());
    assert_eq!(a.steady, Some(true));
    assert_eq!(b.steady, Some(true));
    let driven = bodies(Some("simple_ts_cpp".into()), false);
    let mut d = OpenCl::new(&driven, &cl_options()).unwrap();
    assert_eq!(d.step().unwrap().steady, Some(false));
}

/// Mass-balance outer faces in the C++ order's two sweeps on the fused form (the authors'
/// channels without compat): bit for bit over 20 steps, with equal loop-2 counts.
#[test]
fn mass_balance_in_the_cpp_order_on_the_fused_form() {
    let _g = cl_lock();
    let mut case = bodies(None, false);
    case.solver.order = simplets::methods::simple_ts::case::SweepOrder::Cpp;
    case.solver.inner_sweeps = 2;
    assert_eq!(fused::unsupported(&case), None);
    let mut r = Reference::new(&case);
    let nxt = r.p.grid.nxt;
    let mut d = fused::Fused::new(&case, &cl_options(), Some((8, 4))).unwrap();
    for s in 1..=20 {
        assert_eq!(r.step().unwrap().iters, d.step().unwrap().iters, "step {s}");
    }
    let e = diff_state(&r.state, d.state().unwrap(), nxt);
    assert!(e.same(), "fused, C++ order: {e}");
}

/// Mass-balance outer faces at both ends in the default mode (GPU order, no compat): the
/// phase form, and the fused form in full and lean storage, bit for bit over 30 steps.
#[test]
fn mass_balance_in_the_default_mode_is_bit_identical() {
    let _g = cl_lock();
    let case = bodies(None, false);
    assert!(case.compat().is_empty() && case.mass_balance_side() == Some("west"));
    phase_matches_reference(&case, 30);
    assert_eq!(fused::unsupported(&case), None);
    for lean in [false, true] {
        let opts = OpenClOptions {
            lean,
            ..cl_options()
        };
        let mut r = Reference::new(&case);
        let nxt = r.p.grid.nxt;
        let mut d = fused::Fused::new(&case, &opts, Some((8, 4))).unwrap();
        for s in 1..=30 {
            let a = r.step().unwrap();
            let b = d.step().unwrap();
            assert_eq!(
                a.iters, b.iters,
                "fused (lean {lean}): step {s}: iterations"
            );
            let e = diff_state(&r.state, d.state().unwrap(), nxt);
            assert!(e.same(), "fused (lean {lean}): step {s}: {e}");
        }
    }
}

/// The fused form refuses compat with its reason, in one line: compat reproduces the C++
/// code's defects, which the fused kernel does not carry. No device needed.
#[test]
fn fused_form_refuses_compat_naming_the_reason() {
    let mut v = serde_json::to_value(bodies(Some("simple_ts_cpp".into()), false)).unwrap();
    v["boundaries"]["west"]
        .as_object_mut()
        .unwrap()
        .remove("outer_face");
    v["compat"] = serde_json::json!(["swapped_u_wall_flags"]);
    v["solver"]["inner_sweeps"] = 1.into();
    let case = Case::from_json(&v.to_string(), "one-sweep").unwrap();
    assert_eq!(case.solver.sweeps(), 1);
    let why = fused::unsupported(&case).expect("the fused form refuses compat");
    assert!(
        why.contains("compat") && why.contains("defects") && !why.contains('\n'),
        "{why}"
    );
}
