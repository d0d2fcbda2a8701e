//! Unit tests of [`super::validate`]: one valid case and a table of single-value mutations.

use serde_json::{json, Value};

use crate::error::ConfigError;
use crate::methods::simple_ts::case::Case;

/// A valid case: 20×10 cells of 0.1, one 3×3-cell square, supersonic inflow.
fn base() -> Value {
    json!({
        "name": "unit-case_1.0",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 20, "ny": 10, "x": [0.0, 2.0], "y": [0.0, 1.0] },
        "bodies": [ { "x": [0.5, 0.8], "y": [0.3, 0.6] } ],
        "boundaries": {
            "west": { "kind": "inflow", "mach": 2.43 },
            "east": { "kind": "outflow" },
            "south": { "kind": "wall", "velocity": 2.2 },
            "north": { "kind": "wall" }
        },
        "time": { "dt": 0.01, "steps": 10 }
    })
}

/// Set the value at a JSON pointer, creating the last key of an object if needed.
fn set(v: &mut Value, pointer: &str, new: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let parent = if parent.is_empty() {
        &mut *v
    } else {
        v.pointer_mut(parent).unwrap()
    };
    match parent {
        Value::Object(m) => {
            m.insert(key.to_string(), new);
        }
        Value::Array(a) => {
            let k: usize = key.parse().unwrap();
            if k == a.len() {
                a.push(new);
            } else {
                a[k] = new;
            }
        }
        _ => panic!("{pointer}: parent is not a container"),
    }
}

fn parse(v: &Value) -> Result<Case, ConfigError> {
    Case::from_json(&serde_json::to_string_pretty(v).unwrap(), "test.json")
}

fn invalid_path(r: Result<Case, ConfigError>) -> String {
    match r {
        Err(ConfigError::Invalid { path, .. }) => path,
        other => panic!("expected ConfigError::Invalid, got {other:?}"),
    }
}

#[test]
fn base_case_is_valid() {
    let case = parse(&base()).unwrap();
    assert_eq!(case.time.n_steps(), 10);
}

#[test]
fn limits_are_inclusive_where_documented() {
    let mut v = base();
    set(&mut v, "/gas/kn", json!(10.0));
    set(&mut v, "/gas/sigma_u", json!(0.0));
    set(&mut v, "/gas/sigma_t", json!(0.0));
    set(
        &mut v,
        "/solver",
        json!({ "max_iters": 100000, "inner_sweeps": 100 }),
    );
    set(&mut v, "/output", json!({ "interval": 0 }));
    parse(&v).unwrap();
    let mut v = base();
    set(&mut v, "/bodies", json!([]));
    set(&mut v, "/grid/nx", json!(3));
    set(&mut v, "/grid/ny", json!(3));
    parse(&v).unwrap();
}

#[test]
fn non_uniform_faces_and_end_time_are_accepted() {
    let mut v = base();
    let mut f: Vec<f64> = (0..=20).map(|k| 2.0 * (k as f64 / 20.0).powi(2)).collect();
    f[20] = 2.0 * (1.0 + 1e-13);
    set(&mut v, "/grid/x_faces", json!(f));
    set(&mut v, "/bodies/0/x", json!([1.0, 1.5]));
    set(&mut v, "/time", json!({ "dt": 0.01, "end_time": 0.1 }));
    let case = parse(&v).unwrap();
    assert_eq!(case.time.n_steps(), 10);
}

#[test]
fn inflow_by_components_on_every_side() {
    for (side, inflow) in [
        ("west", json!({ "kind": "inflow", "u": 1.0, "v": 0.3 })),
        ("east", json!({ "kind": "inflow", "u": -1.0 })),
        ("south", json!({ "kind": "inflow", "v": 0.5, "u": 0.1 })),
        ("north", json!({ "kind": "inflow", "mach": 0.5 })),
    ] {
        let mut v = base();
        set(&mut v, "/boundaries/west", json!({ "kind": "outflow" }));
        set(&mut v, &format!("/boundaries/{side}"), inflow);
        parse(&v).unwrap_or_else(|e| panic!("{side}: {e}"));
    }
}

/// Each row: JSON pointer, new value, expected path in the error.
#[test]
fn every_bad_value_names_its_path() {
    let table: Vec<(&str, Value, &str)> = vec![
        ("/name", json!(""), "name"),
        ("/name", json!("a b"), "name"),
        ("/name", json!("x/y"), "name"),
        ("/gas/kn", json!(0.0), "gas.kn"),
        ("/gas/kn", json!(10.5), "gas.kn"),
        ("/gas/gamma", json!(1.0), "gas.gamma"),
        ("/gas/gamma", json!(3.0), "gas.gamma"),
        ("/gas/pr", json!(0.0), "gas.pr"),
        ("/gas/sigma_u", json!(-1.0), "gas.sigma_u"),
        ("/gas/sigma_t", json!(-0.1), "gas.sigma_t"),
        ("/grid/nx", json!(2), "grid.nx"),
        ("/grid/ny", json!(1_000_001), "grid.ny"),
        (
            "/grid",
            json!({ "nx": 1_000_000, "ny": 2001, "x": [0, 1], "y": [0, 1] }),
            "grid.nx*grid.ny",
        ),
        ("/grid/x", json!([1.0, 1.0]), "grid.x"),
        ("/grid/y", json!([1.0, 0.0]), "grid.y"),
        ("/grid/x_faces", json!([0.0, 1.0, 2.0]), "grid.x_faces"),
        (
            "/grid/y_faces",
            json!([0.0, 0.1, 0.1, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]),
            "grid.y_faces[2]",
        ),
        (
            "/grid/y_faces",
            json!([0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.01]),
            "grid.y_faces[10]",
        ),
        (
            "/grid/y_faces",
            json!([0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]),
            "grid.y_faces[0]",
        ),
        ("/bodies/0/x", json!([0.8, 0.5]), "bodies[0].x"),
        ("/bodies/0/x", json!([0.5, 0.6]), "bodies[0].x"),
        // Next to an open side (west inflow); on a wall side it is allowed (see below).
        ("/bodies/0/x", json!([0.0, 0.5]), "bodies[0].x"),
        ("/bodies/0/x", json!([1.5, 2.5]), "bodies[0].x"),
        ("/bodies/0/x", json!([3.0, 4.0]), "bodies[0].x"),
        ("/bodies/0/T_wall", json!(0.0), "bodies[0].T_wall"),
        ("/bodies/0/sigma_u", json!(-1.0), "bodies[0].sigma_u"),
        ("/bodies/0/sigma_t", json!(-0.5), "bodies[0].sigma_t"),
        (
            "/boundaries/north/sigma_u",
            json!(-1.0),
            "boundaries.north.sigma_u",
        ),
        (
            "/boundaries/north/sigma_t",
            json!(-1.0),
            "boundaries.north.sigma_t",
        ),
        (
            "/boundaries/south",
            json!({ "kind": "outflow", "boundary_face": "solved" }),
            "boundaries.south.boundary_face",
        ),
        (
            "/boundaries/north",
            json!({ "kind": "pressure", "p": 1.0, "outer_face": "mass_balance" }),
            "boundaries.north.outer_face",
        ),
        (
            "/boundaries/east",
            json!({ "kind": "outflow", "outer_face": "mass_balance" }),
            "boundaries.east.outer_face",
        ),
        (
            "/forces_reference",
            json!({ "kind": "cell", "x": 0.65, "y": 0.45, "T": 1.0, "u": 1.0 }),
            "forces_reference",
        ),
        (
            "/forces_reference",
            json!({ "kind": "cell", "x": 2.5, "y": 0.45, "T": 1.0, "u": 1.0 }),
            "forces_reference",
        ),
        (
            "/forces_reference",
            json!({ "kind": "cell", "x": 0.1, "y": 0.1, "T": 0.0, "u": 1.0 }),
            "forces_reference.T",
        ),
        (
            "/forces_reference",
            json!({ "kind": "state", "rho": 0.0, "u": 1.0 }),
            "forces_reference.rho",
        ),
        (
            "/forces_reference",
            json!({ "kind": "state", "rho": 1.0, "u": -1.0 }),
            "forces_reference.u",
        ),
        (
            "/forces_reference",
            json!({ "kind": "inflow", "length": 0.0 }),
            "forces_reference.length",
        ),
        ("/compat", json!("simple_ts"), "compat"),
        (
            "/compat",
            json!(["swapped_u_wall_flags", "nope"]),
            "compat[]",
        ),
        (
            "/bodies/1",
            json!({ "x": [1.2, 1.5], "y": [0.3, 0.35] }),
            "bodies[1].y",
        ),
        (
            "/boundaries/west",
            json!({ "kind": "periodic" }),
            "boundaries.east.kind",
        ),
        (
            "/boundaries/north",
            json!({ "kind": "periodic" }),
            "boundaries.south.kind",
        ),
        ("/boundaries/west/u", json!(1.0), "boundaries.west"),
        (
            "/boundaries/west",
            json!({ "kind": "inflow" }),
            "boundaries.west",
        ),
        (
            "/boundaries/west",
            json!({ "kind": "inflow", "u": -1.0 }),
            "boundaries.west.u",
        ),
        (
            "/boundaries/east",
            json!({ "kind": "inflow", "u": 1.0 }),
            "boundaries.east.u",
        ),
        ("/boundaries/west/p", json!(0.0), "boundaries.west.p"),
        ("/boundaries/west/T", json!(-1.0), "boundaries.west.T"),
        ("/boundaries/west/mach", json!(0.0), "boundaries.west.mach"),
        (
            "/boundaries/south",
            json!({ "kind": "inflow", "v": -1.0 }),
            "boundaries.south.v",
        ),
        (
            "/boundaries/north",
            json!({ "kind": "inflow", "v": 1.0 }),
            "boundaries.north.v",
        ),
        (
            "/boundaries/north",
            json!({ "kind": "inflow", "v": -1.0, "mach": 1.0 }),
            "boundaries.north.v",
        ),
        (
            "/boundaries/east",
            json!({ "kind": "pressure", "p": 0.0 }),
            "boundaries.east.p",
        ),
        (
            "/boundaries/east",
            json!({ "kind": "pressure", "p": 1.0, "T": 0.0 }),
            "boundaries.east.T",
        ),
        ("/boundaries/north/T", json!(0.0), "boundaries.north.T"),
        ("/initial", json!({ "p": 0.0 }), "initial.p"),
        ("/initial", json!({ "T": -2.0 }), "initial.T"),
        ("/initial", json!({ "p_east": -1.0 }), "initial.p_east"),
        ("/time/dt", json!(0.0), "time.dt"),
        ("/time/steps", json!(0), "time.steps"),
        ("/time/end_time", json!(1.0), "time"),
        ("/time", json!({ "dt": 0.1 }), "time"),
        (
            "/time",
            json!({ "dt": 0.1, "end_time": -1.0 }),
            "time.end_time",
        ),
        ("/solver", json!({ "max_iters": 0 }), "solver.max_iters"),
        (
            "/solver",
            json!({ "max_iters": 100_001 }),
            "solver.max_iters",
        ),
        ("/solver", json!({ "eps_v": 0.0 }), "solver.eps_v"),
        ("/solver", json!({ "eps_p": -1e-9 }), "solver.eps_p"),
        ("/solver", json!({ "eps_T": 0.0 }), "solver.eps_T"),
        (
            "/solver",
            json!({ "inner_sweeps": 0 }),
            "solver.inner_sweeps",
        ),
        (
            "/solver",
            json!({ "inner_sweeps": 101 }),
            "solver.inner_sweeps",
        ),
        (
            "/solver",
            json!({ "divergence_limit": 0.0 }),
            "solver.divergence_limit",
        ),
    ];
    for (pointer, value, want) in table {
        let mut v = base();
        set(&mut v, pointer, value.clone());
        let got = invalid_path(parse(&v));
        assert_eq!(got, want, "mutation {pointer} = {value}");
    }
}

#[test]
fn non_finite_values_are_rejected() {
    let case = parse(&base()).unwrap();
    let mut c = case.clone();
    c.gas.pr = f64::NAN;
    assert_eq!(invalid_path(c.validate().map(|_| c.clone())), "gas.pr");
    let mut c = case.clone();
    c.time.dt = f64::INFINITY;
    assert_eq!(invalid_path(c.validate().map(|_| c.clone())), "time.dt");
    let mut c = case.clone();
    c.grid.x = [0.0, f64::NAN];
    assert_eq!(invalid_path(c.validate().map(|_| c.clone())), "grid.x");
    let mut c = case.clone();
    c.solver.divergence_limit = f64::NAN;
    assert_eq!(
        invalid_path(c.validate().map(|_| c.clone())),
        "solver.divergence_limit"
    );
}

#[test]
fn invalid_message_is_one_line_with_value_and_range() {
    let mut v = base();
    set(&mut v, "/grid/nx", json!(2));
    let msg = parse(&v).unwrap_err().to_string();
    assert_eq!(msg, "grid.nx = 2: must be in [3, 1000000]");
    set(&mut v, "/grid/nx", json!(20));
    set(&mut v, "/gas/kn", json!(-1e-7));
    let msg = parse(&v).unwrap_err().to_string();
    assert_eq!(msg, "gas.kn = -1e-7: must be in (0, 10]");
}

#[test]
fn unknown_field_is_a_one_line_parse_error_naming_it() {
    let mut v = base();
    set(&mut v, "/grid/nz", json!(3));
    let err = parse(&v).unwrap_err();
    assert!(matches!(err, ConfigError::Parse { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(msg.starts_with("test.json:"), "{msg}");
    assert!(msg.contains("unknown field `nz`"), "{msg}");
    assert!(!msg.contains('\n'), "{msg}");
}

#[test]
fn wrong_type_and_bad_json_are_parse_errors_with_position() {
    let err = Case::from_json("{\"name\": 3}", "a.json").unwrap_err();
    assert!(matches!(err, ConfigError::Parse { line: 1, .. }), "{err:?}");
    let err = Case::from_json("{\n  \"name\": \"x\",,\n}", "b.json").unwrap_err();
    assert!(matches!(err, ConfigError::Parse { line: 2, .. }), "{err:?}");
}

#[test]
fn output_cadence_and_splitting() {
    let case = parse(&base()).unwrap();
    let o = &case.output;
    assert_eq!(
        (o.forces_every, o.probes_every, o.snapshots_per_file),
        (1, 1, 0)
    );
    let mut v = base();
    let out = json!({ "forces_every": 0, "probes_every": 7, "snapshots_per_file": 3 });
    set(&mut v, "/output", out);
    let o = parse(&v).unwrap().output;
    assert_eq!(
        (o.forces_every, o.probes_every, o.snapshots_per_file),
        (0, 7, 3)
    );
    // 100 000 steps with a snapshot each: 100 002 snapshots need 11 per file for 9999 files.
    set(&mut v, "/time/steps", json!(100_000));
    set(
        &mut v,
        "/output",
        json!({ "interval": 1, "snapshots_per_file": 10 }),
    );
    let err = parse(&v).unwrap_err().to_string();
    assert!(
        err.starts_with("output.snapshots_per_file = 10: must be at least 11"),
        "{err}"
    );
    set(&mut v, "/output/snapshots_per_file", json!(11));
    parse(&v).unwrap();
    set(&mut v, "/output/splits", json!(2));
    assert!(matches!(parse(&v), Err(ConfigError::Parse { .. })));
}

#[test]
fn probes_are_validated_with_json_paths() {
    let mut v = base();
    let ok = json!({ "name": "wake", "x": 1.2, "y": 0.45 });
    set(&mut v, "/output", json!({ "probes": [ok.clone()] }));
    assert_eq!(parse(&v).unwrap().output.probes[0].name, "wake");
    let bad = [
        (
            json!({ "name": "a", "x": 2.5, "y": 0.5 }),
            "output.probes[1].x",
        ),
        (
            json!({ "name": "a", "x": 1.0, "y": -0.1 }),
            "output.probes[1].y",
        ),
        (
            json!({ "name": "a b", "x": 1.0, "y": 0.5 }),
            "output.probes[1].name",
        ),
        (
            json!({ "name": "wake", "x": 1.0, "y": 0.5 }),
            "output.probes[1].name",
        ),
        // Inside the body [0.5, 0.8] × [0.3, 0.6].
        (
            json!({ "name": "in", "x": 0.62, "y": 0.41 }),
            "output.probes[1]",
        ),
    ];
    for (probe, path) in bad {
        let mut v = base();
        set(&mut v, "/output", json!({ "probes": [ok.clone(), probe] }));
        assert_eq!(invalid_path(parse(&v)), path);
    }
    let mut v = base();
    set(
        &mut v,
        "/output",
        json!({ "probes": [{ "name": "a", "x": 1.0 }] }),
    );
    assert!(matches!(parse(&v), Err(ConfigError::Parse { .. })));
}

#[test]
fn unknown_fields_are_refused_on_every_side_kind() {
    // Unit variants of a tagged enum would let these pass: each kind must name the field.
    let sides = [
        json!({ "kind": "outflow", "p": -5 }),
        json!({ "kind": "periodic", "T": 2 }),
        json!({ "kind": "wall", "rho": 1 }),
        json!({ "kind": "inflow", "mach": 2.0, "rho": 1 }),
        json!({ "kind": "pressure", "p": 1.0, "u": 0 }),
    ];
    for side in sides {
        let mut v = base();
        set(&mut v, "/boundaries/east", side.clone());
        let err = parse(&v).unwrap_err();
        assert!(matches!(err, ConfigError::Parse { .. }), "{side}: {err:?}");
        let msg = err.to_string();
        assert!(msg.contains("unknown field"), "{side}: {msg}");
    }
    // The same kinds without the extra field are accepted (the periodic pair on both sides).
    let mut v = base();
    set(&mut v, "/boundaries/south", json!({ "kind": "periodic" }));
    set(&mut v, "/boundaries/north", json!({ "kind": "periodic" }));
    parse(&v).unwrap();
}

#[test]
fn body_names_are_csv_safe_and_unique() {
    let with = |names: &[&str]| {
        let mut v = base();
        let bodies: Vec<Value> = names
            .iter()
            .enumerate()
            .map(|(k, n)| {
                let x0 = 0.2 + 0.4 * k as f64;
                json!({ "name": n, "x": [x0, x0 + 0.3], "y": [0.3, 0.6] })
            })
            .collect();
        set(&mut v, "/bodies", Value::Array(bodies));
        parse(&v)
    };
    with(&["front", "rear"]).unwrap();
    with(&["", ""]).unwrap();
    for (names, path) in [
        (&["a,b", "c"][..], "bodies[0].name"),
        (&["ok", "two\nlines"][..], "bodies[1].name"),
        (&["ok", "quote\""][..], "bodies[1].name"),
        (&["same", "same"][..], "bodies[1].name"),
        // An empty name becomes body<k>: a body named body1 clashes with it.
        (&["body1", ""][..], "bodies[1].name"),
    ] {
        assert_eq!(invalid_path(with(names)), path, "{names:?}");
    }
    let long = "x".repeat(65);
    assert_eq!(invalid_path(with(&[&long])), "bodies[0].name");
}

/// The C++ side options: slip and temperature condition per wall, σ per wall, a body standing
/// on a wall side, zero-gradient T on a pressure side and p on an inflow, a solved outflow
/// face, a forces reference. All are accepted, and each resolves as documented.
#[test]
fn cpp_side_options_are_accepted_and_resolved() {
    use crate::methods::simple_ts::case::{Side, Thermal};
    let mut v = base();
    set(
        &mut v,
        "/bodies/0",
        json!({ "x": [0.5, 0.8], "y": [0.0, 0.6], "slip": false, "thermal": "jump",
                "sigma_t": 1.5 }),
    );
    set(
        &mut v,
        "/boundaries/west",
        json!({ "kind": "inflow", "mach": 2.43, "pressure": "zero_gradient" }),
    );
    set(
        &mut v,
        "/boundaries/east",
        json!({ "kind": "outflow", "boundary_face": "solved" }),
    );
    set(
        &mut v,
        "/boundaries/north",
        json!({ "kind": "wall", "wall": "slip", "thermal": "fixed", "sigma_u": 0.9 }),
    );
    set(
        &mut v,
        "/forces_reference",
        json!({ "kind": "cell", "x": 0.05, "y": 0.95, "T": 1.0, "u": 2.0, "length": 1.0 }),
    );
    let c = parse(&v).unwrap();
    let b = c.bodies[0].condition(&c.gas);
    assert!(!b.slip);
    assert_eq!(b.thermal, Thermal::Jump);
    assert_eq!((b.sigma_u, b.sigma_t), (c.gas.sigma_u, 1.5));
    let (_, _, n) = c.boundaries.north.wall_condition(&c.gas).unwrap();
    assert!(n.slip);
    assert_eq!(n.thermal, Thermal::Fixed);
    assert_eq!((n.sigma_u, n.sigma_t), (0.9, c.gas.sigma_t));
    let (_, _, s) = c.boundaries.south.wall_condition(&c.gas).unwrap();
    assert_eq!((s.slip, s.thermal), (true, Thermal::Jump));
    // A pressure side with zero-gradient T.
    set(
        &mut v,
        "/boundaries/east",
        json!({ "kind": "pressure", "p": 1.0, "temperature": "zero_gradient" }),
    );
    let c = parse(&v).unwrap();
    assert!(matches!(c.boundaries.east, Side::Pressure { .. }));
}

/// `compat` with an implemented switch is accepted on a case the C++ code can run (implicit
/// upwind, the C++ sweep order, no periodic side) and refused, naming `compat`, otherwise.
#[test]
fn compat_needs_a_case_the_cpp_code_can_run() {
    let mut v = base();
    set(&mut v, "/compat", json!(["swapped_u_wall_flags"]));
    let c = parse(&v).unwrap();
    assert!(c
        .compat()
        .has(crate::methods::simple_ts::case::Defect::SwappedUWallFlags));
    for (pointer, value) in [
        ("/scheme", json!({ "interpolation": "tvd" })),
        ("/scheme", json!({ "convection": "explicit" })),
        ("/solver", json!({ "order": "gpu" })),
    ] {
        let mut w = v.clone();
        set(&mut w, pointer, value.clone());
        assert_eq!(invalid_path(parse(&w)), "compat", "{pointer} = {value}");
    }
    let mut w = v.clone();
    set(&mut w, "/bodies", json!([]));
    set(&mut w, "/boundaries/west", json!({ "kind": "periodic" }));
    set(&mut w, "/boundaries/east", json!({ "kind": "periodic" }));
    assert_eq!(invalid_path(parse(&w)), "compat");
}

/// A case without the new options serialises as before: none of their keys appear, so the
/// JSON recorded in outputs (and every hash of it) is unchanged.
#[test]
fn default_options_are_not_serialised() {
    let c = parse(&base()).unwrap();
    let text = serde_json::to_string(&c).unwrap();
    for key in [
        "forces_reference",
        "compat",
        "slip",
        "thermal",
        "pressure",
        "temperature",
        "boundary_face",
        "outer_face",
    ] {
        let key = format!("\"{key}\":");
        assert!(!text.contains(&key), "{key} in {text}");
    }
    // σ only in the gas.
    assert_eq!(text.matches("sigma_u").count(), 1, "{text}");
    assert_eq!(text.matches("sigma_t").count(), 1, "{text}");
}
