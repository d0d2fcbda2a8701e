//! The side and wall options that express the authors' C++ cases (issue 16) on the serial
//! reference: each option against an equivalent older form bit for bit where one exists,
//! and against its defining property (a copied ghost value, a solved face, a reference
//! state) where none does.

use simplets::methods::simple_ts::backend::Backend;
use simplets::methods::simple_ts::case::Case;
use simplets::methods::simple_ts::forces::Forces;
use simplets::methods::simple_ts::reference::Reference;

/// A short slip channel with a block standing on its floor (the shape of the authors'
/// channel between two reservoirs), pressure-driven, `extra` merged into the JSON text.
fn channel(extra_sides: &str, extra: &str) -> Case {
    let text = format!(
        r#"{{
        "name": "cpp-sides",
        "gas": {{ "kn": 0.05 }},
        "grid": {{ "nx": 40, "ny": 10, "x": [0.0, 4.0], "y": [0.0, 1.0] }},
        "bodies": [ {{ "name": "block", "x": [1.5, 2.5], "y": [0.0, 0.3] }} ],
        "boundaries": {{
            "west": {{ "kind": "pressure", "p": 1.5 }},
            {extra_sides}
        }},
        "initial": {{ "p": 1.5, "p_east": 1.0 }},
        "time": {{ "dt": 0.05, "steps": 20 }},
        "solver": {{ "max_iters": 20 }}
        {extra}
    }}"#
    );
    Case::from_json(&text, "cpp-sides").unwrap()
}

const SLIP_WALLS: &str = r#""east": { "kind": "pressure", "p": 1.0 },
    "south": { "kind": "wall", "T": 1.1 },
    "north": { "kind": "wall" }"#;

fn run(case: &Case, steps: usize) -> Reference {
    let mut r = Reference::new(case);
    for _ in 0..steps {
        r.step().unwrap();
    }
    r
}

/// True if every field of the two iterates is bit-identical.
fn same(a: &Reference, b: &Reference) -> bool {
    let (x, y) = (&a.state.k, &b.state.k);
    [
        (&x.u, &y.u),
        (&x.v, &y.v),
        (&x.p, &y.p),
        (&x.T, &y.T),
        (&x.rho, &y.rho),
    ]
    .iter()
    .all(|(p, q)| {
        p.iter()
            .zip(q.iter())
            .all(|(s, t)| s.to_bits() == t.to_bits())
    })
}

/// Slip without jump (`"thermal": "fixed"` on slip walls and the body) is today's slip wall
/// with σ_T = 0, bit for bit: the jump (43) with σ_T = 0 returns the wall temperature
/// exactly. The jump itself changes the result (the test can fail).
#[test]
fn slip_without_jump_is_slip_with_zero_sigma_t() {
    let fixed = r#""east": { "kind": "pressure", "p": 1.0 },
    "south": { "kind": "wall", "T": 1.1, "thermal": "fixed" },
    "north": { "kind": "wall", "thermal": "fixed" }"#;
    let mut a = channel(fixed, "");
    a.bodies[0].thermal = Some(simplets::methods::simple_ts::case::Thermal::Fixed);
    let mut b = channel(SLIP_WALLS, "");
    b.gas.sigma_t = 0.0;
    let (ra, rb) = (run(&a, 20), run(&b, 20));
    assert!(same(&ra, &rb));
    let rc = run(&channel(SLIP_WALLS, ""), 20);
    assert!(!same(&ra, &rc));
}

/// σ given on every wall equals the same σ given for the gas, bit for bit; σ on one wall
/// only differs from both.
#[test]
fn sigma_per_wall_overrides_the_gas() {
    let own = r#""east": { "kind": "pressure", "p": 1.0 },
    "south": { "kind": "wall", "T": 1.1, "sigma_u": 0.8, "sigma_t": 1.7 },
    "north": { "kind": "wall", "sigma_u": 0.8, "sigma_t": 1.7 }"#;
    let mut a = channel(own, "");
    a.bodies[0].sigma_u = Some(0.8);
    a.bodies[0].sigma_t = Some(1.7);
    let mut b = channel(SLIP_WALLS, "");
    b.gas.sigma_u = 0.8;
    b.gas.sigma_t = 1.7;
    let (ra, rb) = (run(&a, 10), run(&b, 10));
    assert!(same(&ra, &rb));
    let mut c = a.clone();
    c.bodies[0].sigma_u = None;
    assert!(!same(&run(&c, 10), &ra));
}

/// No slip on the body alone: the gas next to it takes the body's velocity (0), so the
/// u-faces just above the block's top are slower than with slip.
#[test]
fn slip_off_on_one_body() {
    let mut a = channel(SLIP_WALLS, "");
    a.bodies[0].slip = Some(false);
    let (ra, rb) = (run(&a, 20), run(&channel(SLIP_WALLS, ""), 20));
    let g = ra.p.grid.clone();
    // Row 4 (y 0.35) is the first fluid row above the block (rows 1..=3); column 20 is over it.
    let ij = g.idx(20, 4);
    let (ua, ub) = (ra.state.k.u[ij], rb.state.k.u[ij]);
    assert!(ua > 0.0 && ua < ub, "no slip {ua}, slip {ub}");
}

/// A pressure side with `"temperature": "zero_gradient"`: the ghost column keeps the side's p
/// and copies T from the last computed column; a fixed-T side keeps T.
#[test]
fn pressure_side_with_zero_gradient_temperature() {
    let sides = r#""east": { "kind": "pressure", "p": 1.0, "T": 1.0, "temperature": "zero_gradient" },
    "south": { "kind": "wall", "T": 1.3, "thermal": "fixed" },
    "north": { "kind": "wall", "T": 1.3, "thermal": "fixed" }"#;
    let r = run(&channel(sides, ""), 20);
    let (g, k) = (&r.p.grid, &r.state.k);
    let mut warmed = 0;
    for j in 1..=g.ny {
        let (gh, src) = (g.idx(g.nx + 1, j), g.idx(g.nx, j));
        assert_eq!(k.T[gh].to_bits(), k.T[src].to_bits(), "row {j}");
        assert_eq!(k.p[gh], 1.0);
        assert_eq!(k.rho[gh], 1.0 / k.T[gh]);
        warmed += usize::from(k.T[gh] > 1.0 + 1e-6);
        // The west side keeps its given T.
        assert_eq!(k.T[g.idx(0, j)], 1.0);
    }
    assert!(warmed > 0, "the hot walls warm the outlet column");
}

/// An inflow with `"pressure": "zero_gradient"`: the ghost column keeps u, v, T and copies p
/// from the first computed column; the solved outflow face (`"boundary_face": "solved"`)
/// differs from its neighbour, where a copied one equals it.
#[test]
fn inflow_with_zero_gradient_pressure_and_solved_outflow_face() {
    let text = r#"{
        "name": "square",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 30, "ny": 20, "x": [0.0, 3.0], "y": [0.0, 2.0] },
        "bodies": [ { "x": [0.8, 1.2], "y": [0.8, 1.2] } ],
        "boundaries": {
            "west": { "kind": "inflow", "u": 0.8, "T": 1.0, "p": 1.0, "pressure": "zero_gradient" },
            "east": { "kind": "outflow", "boundary_face": "solved" },
            "south": { "kind": "wall", "wall": "no_slip" },
            "north": { "kind": "wall", "wall": "no_slip" }
        },
        "initial": { "u": 0.8 },
        "time": { "dt": 0.01, "steps": 10 },
        "solver": { "max_iters": 20 }
    }"#;
    let c = Case::from_json(text, "square").unwrap();
    let r = run(&c, 10);
    let (g, k) = (&r.p.grid, &r.state.k);
    let (mut moved, mut solved) = (0, 0);
    for j in 1..=g.ny {
        let (gh, src) = (g.idx(0, j), g.idx(1, j));
        assert_eq!(k.p[gh].to_bits(), k.p[src].to_bits(), "row {j}");
        assert_eq!(k.T[gh], 1.0);
        assert_eq!(k.u[g.idx(1, j)], 0.8);
        moved += usize::from((k.p[gh] - 1.0).abs() > 1e-6);
        let (bf, inner) = (k.u[g.idx(g.nx + 1, j)], k.u[g.idx(g.nx, j)]);
        solved += usize::from(bf != inner);
        // The ghost cells beyond the outflow copy the last column.
        assert_eq!(k.p[g.idx(g.nx + 1, j)], k.p[g.idx(g.nx, j)]);
    }
    assert!(moved > 0 && solved > 0, "moved {moved}, solved {solved}");
    let mut copied = c.clone();
    copied.boundaries.east = Case::from_json(
        &text.replace(
            r#""boundary_face": "solved""#,
            r#""boundary_face": "copied""#,
        ),
        "square",
    )
    .unwrap()
    .boundaries
    .east;
    let r = run(&copied, 10);
    let (g, k) = (&r.p.grid, &r.state.k);
    for j in 1..=g.ny {
        assert_eq!(k.u[g.idx(g.nx + 1, j)], k.u[g.idx(g.nx, j)]);
    }
}

/// `forces_reference`: a `state` gives ½ ρ u² L with the given L; a `cell` reads ρ = p/T of
/// its cell at each sample; `inflow` is the default.
#[test]
fn forces_reference_kinds() {
    let base = r#"{
        "name": "square",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 30, "ny": 20, "x": [0.0, 3.0], "y": [0.0, 2.0] },
        "bodies": [ { "x": [0.8, 1.2], "y": [0.8, 1.2] } ],
        "boundaries": {
            "west": { "kind": "inflow", "u": 0.8, "p": 1.2, "T": 1.5 },
            "east": { "kind": "outflow" },
            "south": { "kind": "wall" },
            "north": { "kind": "wall" }
        },
        "time": { "dt": 0.01, "steps": 3 }
        REF
    }"#;
    let with = |r: &str| Case::from_json(&base.replace("REF", r), "square").unwrap();
    let plain = with("");
    let r = run(&plain, 3);
    let (g, geo, k) = (&r.p.grid, &r.p.geo, &r.state.k);
    let mut f = Forces::new(&plain, g, geo);
    let force = f.compute(g, geo, k)[0];
    assert!((f.scale[0] - 0.5 * (1.2 / 1.5) * 0.64 * 0.4).abs() < 1e-15);
    let inflow = with(r#", "forces_reference": { "kind": "inflow" }"#);
    assert_eq!(Forces::new(&inflow, g, geo).scale, f.scale);
    let state =
        with(r#", "forces_reference": { "kind": "state", "rho": 2.0, "u": 3.0, "length": 1.0 }"#);
    assert_eq!(Forces::new(&state, g, geo).scale, vec![9.0]);
    let cell = with(
        r#", "forces_reference": { "kind": "cell", "x": 0.05, "y": 1.85, "T": 1.0, "u": 2.0 }"#,
    );
    let mut fc = Forces::new(&cell, g, geo);
    assert_eq!(
        fc.compute(g, geo, k)[0],
        force,
        "the forces do not depend on it"
    );
    let p = k.p[g.idx(1, 19)];
    assert_eq!(fc.scale[0], 0.5 * (p / 1.0) * (2.0 * 2.0) * (1.2 - 0.8));
}

/// Compat `swapped_u_wall_flags` changes only the u-CVs next to a vertical wall: a channel
/// whose only walls are its floor and ceiling is bit-identical with and without it, and a
/// square in a channel is not (its front and back faces are vertical walls).
#[test]
fn swapped_u_wall_flags_act_only_next_to_vertical_walls() {
    let mut plain = channel(SLIP_WALLS, "");
    plain.bodies.clear();
    let mut compat = plain.clone();
    compat.compat = Some(simplets::methods::simple_ts::case::CompatSpec::List(vec![
        "swapped_u_wall_flags".into(),
    ]));
    compat.validate().unwrap();
    assert!(same(&run(&plain, 20), &run(&compat, 20)));
    let with_block = channel(SLIP_WALLS, "");
    let mut compat = with_block.clone();
    compat.compat = Some(simplets::methods::simple_ts::case::CompatSpec::Preset(
        "simple_ts_cpp".into(),
    ));
    compat.validate().expect("every switch is implemented");
    compat.compat = Some(simplets::methods::simple_ts::case::CompatSpec::List(vec![
        "swapped_u_wall_flags".into(),
    ]));
    compat.validate().unwrap();
    let (a, b) = (run(&with_block, 20), run(&compat, 20));
    assert!(!same(&a, &b));
    // The u-face just upstream of the block's west face (block columns 16..=25, rows 1..=3):
    // the C++ branch drops a_W u(i−1) there, so the gas in front of the block is slower.
    let g = &a.p.grid;
    let f = g.idx(15, 2);
    assert!(
        b.state.k.u[f] < a.state.k.u[f],
        "{} vs {}",
        b.state.k.u[f],
        a.state.k.u[f]
    );
}

/// Compat `stale_ghosts_in_loop3` keeps the copied ghost p and T of loop 3 at their values of
/// the previous loop-2 iteration: without copied ghosts (both ends fixed) it changes nothing,
/// bit for bit; with the outlet's T copied it changes the result.
#[test]
fn stale_ghosts_act_only_on_copied_ghosts() {
    let stale = |mut c: Case| {
        c.compat = Some(simplets::methods::simple_ts::case::CompatSpec::List(vec![
            "stale_ghosts_in_loop3".into(),
        ]));
        c.validate().unwrap();
        c
    };
    let fixed = channel(SLIP_WALLS, "");
    assert!(same(&run(&fixed, 20), &run(&stale(fixed.clone()), 20)));
    let copied_t = r#""east": { "kind": "pressure", "p": 1.0, "temperature": "zero_gradient" },
    "south": { "kind": "wall", "T": 1.3, "thermal": "fixed" },
    "north": { "kind": "wall", "T": 1.3, "thermal": "fixed" }"#;
    let copied = channel(copied_t, "");
    assert!(!same(&run(&copied, 20), &run(&stale(copied.clone()), 20)));
}

/// The authors' cases in `configs/cpp/` are valid cases, and the two channels have the C++
/// code's solved region: its mask (`shared/reference/authors-cpp/*/mask_vol_inf_fb.npy`) has
/// 3980 (A1) and 8740 (A2) gas cells in rows 1..=Ny−3, columns 1..=Nx−3; A2's blocks cover
/// computed columns 41..=240 (x 0 .. 10).
#[test]
fn authors_cases_load_with_the_cpp_solved_region() {
    use simplets::methods::simple_ts::geometry::{Geometry, SOLID};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/cpp");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_some_and(|x| x == "json") {
            Case::from_file(&path).unwrap();
            n += 1;
        }
    }
    assert_eq!(n, 5);
    for (file, fluid) in [
        ("channel_straight.json", 3980),
        ("channel_reservoirs.json", 8740),
    ] {
        let c = Case::from_file(&dir.join(file)).unwrap();
        let g = simplets::grid::Grid::new(&c.grid, false, false);
        let geo = Geometry::new(&c, &g);
        assert_eq!(geo.n_fluid, fluid, "{file}");
        if file == "channel_reservoirs.json" {
            let solid_cols: Vec<usize> = (1..=g.nx)
                .filter(|&i| geo.cell[g.idx(i, 1)] == SOLID)
                .collect();
            assert_eq!((solid_cols[0], *solid_cols.last().unwrap()), (41, 240));
            assert_eq!(solid_cols.len(), 200);
        }
    }
}

/// `"outer_face": "mass_balance"` on both pressure sides: after every iteration the outer
/// faces close the mass balance of their ghost cells, (ρ − ρⁿ)V/Δt + Σ out F = 0 to
/// round-off; the `parallel` backend gives the same bits; the west outer face is no longer a
/// copy of the boundary face, so the result differs from the zero-gradient outer faces.
#[test]
fn mass_balance_outer_faces_close_the_ghost_cells() {
    const BALANCED: &str = r#""east": { "kind": "pressure", "p": 1.0, "T": 1.0,
        "temperature": "zero_gradient", "outer_face": "mass_balance" },
    "south": { "kind": "wall" },
    "north": { "kind": "wall" }"#;
    let mut v: serde_json::Value = serde_json::to_value(channel(BALANCED, "")).unwrap();
    v["boundaries"]["west"]["outer_face"] = "mass_balance".into();
    let case = Case::from_json(&v.to_string(), "balanced").unwrap();
    let r = run(&case, 20);
    let (g, k, n, f) = (&r.p.grid, &r.state.k, &r.state.n, &r.flux);
    assert_eq!(f.u_xe.len(), g.nyt);
    for j in 1..=g.ny {
        for (i, outer) in [(0, -f.Fx[g.idx(0, j)]), (g.nx + 1, f.Fx_xe[j])] {
            let ij = g.idx(i, j);
            let up = ij + g.nxt;
            let west = if i == 0 { f.Fx[ij + 1] } else { -f.Fx[ij] };
            let storage = (k.rho[ij] - n.rho[ij]) * g.hx[i] * g.hy[j] / r.dt;
            let res = storage + outer + west + (f.Fy[up] - f.Fy[ij]);
            let scale = f.Fx[ij].abs().max(f.Fx[ij + 1].abs());
            assert!(
                res.abs() <= 1e-13 * scale,
                "({i}, {j}): {res:e} of {scale:e}"
            );
        }
    }
    assert!(k.u[g.idx(0, 5)] != k.u[g.idx(1, 5)]);
    let mut par = Reference::new_parallel(&case);
    for _ in 0..20 {
        par.step().unwrap();
    }
    assert!(same(&r, &par));
    assert!(par.flux.u_xe == r.flux.u_xe);
    // Zero-gradient outer faces differ.
    let mut z = v.clone();
    for s in ["west", "east"] {
        z["boundaries"][s]
            .as_object_mut()
            .unwrap()
            .remove("outer_face");
    }
    let plain = Case::from_json(&z.to_string(), "plain").unwrap();
    assert!(!same(&r, &run(&plain, 20)));
}

/// Decomposed runs refuse what only runs on one process, naming it in one line; every
/// single-process backend runs it (the OpenCL phase form: tests/cpp_opencl.rs).
#[test]
fn decomposed_runs_refuse_single_process_options() {
    let mut v: serde_json::Value = serde_json::to_value(channel(SLIP_WALLS, "")).unwrap();
    v["boundaries"]["east"]["outer_face"] = "mass_balance".into();
    let case = Case::from_json(&v.to_string(), "balanced").unwrap();
    assert_eq!(
        case.single_process_only().as_deref(),
        Some("boundaries.east.outer_face = mass_balance")
    );
    let mut c = serde_json::to_value(channel(SLIP_WALLS, "")).unwrap();
    c["compat"] = serde_json::json!(["lagged_ghost_state"]);
    c["solver"]["order"] = "cpp".into();
    let case = Case::from_json(&c.to_string(), "lagged").unwrap();
    assert_eq!(
        case.single_process_only().as_deref(),
        Some("compat lagged_ghost_state")
    );
    c["compat"] = serde_json::json!(["swapped_u_wall_flags", "stale_ghosts_in_loop3"]);
    let case = Case::from_json(&c.to_string(), "on ranks").unwrap();
    assert_eq!(case.single_process_only(), None);
}

/// Compat switches that act only through copied ghosts or a stored east outer face change
/// nothing without them, bit for bit: `lagged_ghost_state` with both ends' p and T fixed,
/// `east_outer_face_copy` on a wall-bounded east side; `steady_test_first_sweep` changes only
/// the stop test, never the fields.
#[test]
fn ghost_switches_act_only_on_their_triggers() {
    let with = |c: &Case, names: &[&str]| {
        let mut v = serde_json::to_value(c).unwrap();
        v["compat"] = serde_json::json!(names);
        v["solver"]["order"] = "cpp".into();
        Case::from_json(&v.to_string(), "switched").unwrap()
    };
    let cpp = |c: &Case| {
        let mut v = serde_json::to_value(c).unwrap();
        v["solver"]["order"] = "cpp".into();
        Case::from_json(&v.to_string(), "cpp").unwrap()
    };
    let fixed = channel(SLIP_WALLS, "");
    let base = run(&cpp(&fixed), 20);
    for names in [&["lagged_ghost_state"][..], &["steady_test_first_sweep"]] {
        assert!(same(&base, &run(&with(&fixed, names), 20)), "{names:?}");
    }
    let closed = channel(
        r#""east": { "kind": "wall" }, "south": { "kind": "wall" }, "north": { "kind": "wall" }"#,
        "",
    );
    let copy = run(&with(&closed, &["east_outer_face_copy"]), 20);
    assert!(same(&run(&cpp(&closed), 20), &copy));
    // With the outlet's T copied the lag changes the result.
    let copied_t = r#""east": { "kind": "pressure", "p": 1.0, "temperature": "zero_gradient" },
    "south": { "kind": "wall", "T": 1.2, "thermal": "fixed" },
    "north": { "kind": "wall", "T": 1.3, "thermal": "fixed" }"#;
    let copied = channel(copied_t, "");
    let lagged = run(&with(&copied, &["lagged_ghost_state"]), 20);
    assert!(!same(&run(&cpp(&copied), 20), &lagged));
    // A stored copy of the solved east boundary face is read by that face's u-CV.
    let outer = run(&with(&copied, &["east_outer_face_copy"]), 20);
    assert_eq!(outer.flux.u_xe.len(), outer.p.grid.nyt);
    assert!(!same(&run(&cpp(&copied), 20), &outer));
}

/// Compat `corner_gamma_three_terms` acts only at convex body corners: a channel whose only
/// walls are its floor and ceiling is bit-identical with and without it, the channel with a
/// block on its floor is not. `adiabatic_wall_as_lagged_value` acts only on adiabatic walls.
#[test]
fn corner_gamma_and_adiabatic_switches_act_only_on_their_triggers() {
    let with = |c: &Case, names: &[&str]| {
        let mut v = serde_json::to_value(c).unwrap();
        if !names.is_empty() {
            v["compat"] = serde_json::json!(names);
        }
        v["solver"]["order"] = "cpp".into();
        Case::from_json(&v.to_string(), "switched").unwrap()
    };
    let block = channel(SLIP_WALLS, "");
    let mut v = serde_json::to_value(&block).unwrap();
    v["bodies"] = serde_json::json!([]);
    let plain = Case::from_json(&v.to_string(), "plain").unwrap();
    let gamma = ["corner_gamma_three_terms"];
    assert!(same(
        &run(&with(&plain, &[]), 10),
        &run(&with(&plain, &gamma), 10)
    ));
    assert!(!same(
        &run(&with(&block, &[]), 10),
        &run(&with(&block, &gamma), 10)
    ));
    let adiabatic = ["adiabatic_wall_as_lagged_value"];
    assert!(same(
        &run(&with(&block, &[]), 10),
        &run(&with(&block, &adiabatic), 10)
    ));
    v["bodies"] = serde_json::json!([{ "x": [1.5, 2.5], "y": [0.0, 0.3], "wall": "adiabatic" }]);
    let warm = Case::from_json(&v.to_string(), "adiabatic").unwrap();
    assert!(!same(
        &run(&with(&warm, &[]), 10),
        &run(&with(&warm, &adiabatic), 10)
    ));
}

/// The east outer face is not part of the state: a backend restored from a state (a
/// checkpoint) recomputes it from that state, and in the default mode continues bit for bit.
#[test]
fn restored_mass_balance_case_continues_bit_for_bit() {
    let mut v: serde_json::Value = serde_json::to_value(channel(SLIP_WALLS, "")).unwrap();
    for s in ["west", "east"] {
        v["boundaries"][s]["outer_face"] = "mass_balance".into();
    }
    v["boundaries"]["east"]["temperature"] = "zero_gradient".into();
    let case = Case::from_json(&v.to_string(), "balanced").unwrap();
    let mut a = run(&case, 10);
    let mut b = Reference::new(&case);
    b.restore(a.state.clone()).unwrap();
    assert!(a.flux.u_xe == b.flux.u_xe);
    for _ in 0..5 {
        a.step().unwrap();
        b.step().unwrap();
    }
    assert!(same(&a, &b));
    assert!(a.flux.u_xe == b.flux.u_xe);
}

/// Largest |a − b| over the fluid cells' p and T and every u, v of two iterates.
fn max_diff(a: &Reference, b: &Reference) -> f64 {
    let (x, y) = (&a.state.k, &b.state.k);
    [(&x.u, &y.u), (&x.v, &y.v), (&x.p, &y.p), (&x.T, &y.T)]
        .iter()
        .flat_map(|(p, q)| p.iter().zip(q.iter()).map(|(s, t)| (s - t).abs()))
        .fold(0.0, f64::max)
}

/// Compat `corner_slip_ghosts` acts at convex body corners: a channel whose only walls are its
/// floor and ceiling (no corners) agrees with and without it to round-off (the C++ form of the
/// near-wall dissipation sums the same terms in another order), and the block standing on the
/// floor (two convex corners) changes the result; the slot faces beside the block's top
/// corners hold the slip velocity of the face above them, the default keeps 0 there.
#[test]
fn corner_slip_ghosts_act_at_convex_corners() {
    use simplets::methods::simple_ts::case::CompatSpec;
    let mut plain = channel(SLIP_WALLS, "");
    plain.bodies.clear();
    let mut compat = plain.clone();
    compat.compat = Some(CompatSpec::List(vec!["corner_slip_ghosts".into()]));
    compat.validate().unwrap();
    let d = max_diff(&run(&plain, 20), &run(&compat, 20));
    assert!(d < 1e-13, "no corners: {d:e}");
    let with_block = channel(SLIP_WALLS, "");
    let mut compat = with_block.clone();
    compat.compat = Some(CompatSpec::List(vec!["corner_slip_ghosts".into()]));
    compat.validate().unwrap();
    let (a, b) = (run(&with_block, 20), run(&compat, 20));
    let d = max_diff(&a, &b);
    assert!(d > 1e-8, "corners: {d:e}");
    // Block columns 16..=25, rows 1..=3: its west wall face in the top row, u(16, 3), and the
    // east one, u(26, 3).
    let g = &b.p.grid;
    for i in [16, 26] {
        let (slot, above) = (g.idx(i, 3), g.idx(i, 4));
        assert_eq!(a.state.k.u[slot], 0.0);
        let (s, u) = (b.state.k.u[slot], b.state.k.u[above]);
        assert!(s != 0.0 && s.abs() < u.abs(), "slot {s} under {u}");
    }
}
