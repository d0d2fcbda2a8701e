//! Round trip of [`NcWriter`] through the netcdf crate, on a generic layout (the SIMPLE-TS
//! variables, declared here by hand: the writer knows no method).

use ::netcdf::AttributeValue;

use super::*;
use crate::case::{Method, OutputSpec, TimeSpec};
use crate::solver::{Place, ResidualSpec, Variable};

/// 6×5 cells, non-uniform x faces, a 2×2-cell body (columns 3, 4, rows 2, 3).
pub(crate) fn small_case() -> Common {
    let json = serde_json::json!({
        "name": "nc-roundtrip",
        "description": "writer test",
        "grid": { "nx": 6, "ny": 5, "x": [0.0, 6.0], "y": [0.0, 5.0],
                  "x_faces": [0.0, 0.5, 1.5, 3.0, 4.0, 5.0, 6.0] },
        "time": { "dt": 0.01, "steps": 2 }
    });
    Common {
        name: "nc-roundtrip".into(),
        description: "writer test".into(),
        method: Method::SimpleTs,
        scheme: "implicit-tvd".into(),
        grid: serde_json::from_value(json["grid"].clone()).unwrap(),
        time: serde_json::from_value::<TimeSpec>(json["time"].clone()).unwrap(),
        output: OutputSpec::default(),
        divergence_limit: 1e6,
        json,
    }
}

fn layout(case: &Common) -> Layout {
    let grid = Grid::new(&case.grid, false, false);
    let v = |name, long_name, place| Variable {
        name,
        long_name,
        place,
        guarded: true,
    };
    let mut mask = vec![1i8; 30];
    for k in [6 + 2, 6 + 3, 12 + 2, 12 + 3] {
        mask[k] = 0;
    }
    Layout {
        method: Method::SimpleTs,
        grid,
        variables: vec![
            v("p", "pressure / p0", Place::Cell),
            v("T", "temperature / T0", Place::Cell),
            v("rho", "density / rho0", Place::Cell),
            v("u", "velocity on x-faces / V_th", Place::XFace),
            v("v", "velocity on y-faces / V_th", Place::YFace),
        ],
        residuals: vec![ResidualSpec {
            name: "res_u",
            short: "du",
            variable: 3,
            long_name: "max |du|",
        }],
        mask,
        work_cells: 26,
        units: "non-dimensional",
        time_unit: "time / (L / V_th)",
        side: vec![],
        saved: vec![],
        aux: None,
    }
}

/// Variable `id` at stored (i, j) of snapshot `s`: every value distinct and easy to decode.
fn val(id: usize, i: usize, j: usize, s: usize) -> f64 {
    (1000 * id + 100 * j + i) as f64 + 0.25 * s as f64
}

fn arrays(g: &Grid, s: usize) -> Vec<Vec<f64>> {
    (0..5)
        .map(|id| {
            let mut a = vec![0.0; g.len()];
            for j in 0..g.nyt {
                for i in 0..g.nxt {
                    a[g.idx(i, j)] = val(id, i, j, s);
                }
            }
            a
        })
        .collect()
}

fn append(w: &mut NcWriter, g: &Grid, s: usize, iterations: u32) -> Result<(), OutputError> {
    let a = arrays(g, s);
    let snap = Snapshot {
        step: 10 * s as u64,
        time: 0.5 * s as f64,
        arrays: a.iter().map(Vec::as_slice).collect(),
    };
    w.append(&snap, iterations)
}

fn str_attr(f: &::netcdf::File, name: &str) -> String {
    match f.attribute(name).unwrap().value().unwrap() {
        AttributeValue::Str(s) => s,
        other => panic!("{name}: {other:?}"),
    }
}

fn var_str_attr(f: &::netcdf::File, var: &str, name: &str) -> String {
    match f
        .variable(var)
        .unwrap()
        .attribute_value(name)
        .unwrap()
        .unwrap()
    {
        AttributeValue::Str(s) => s,
        other => panic!("{var}.{name}: {other:?}"),
    }
}

fn write(path: &Path, force: bool, case: &Common) -> Result<PathBuf, OutputError> {
    let l = layout(case);
    let mut w = NcWriter::create(path, force, case, &l, "mock")?;
    append(&mut w, &l.grid, 0, 0)?;
    append(&mut w, &l.grid, 1, 7)?;
    assert_eq!(w.snapshots(), 2);
    w.finish()
}

#[test]
fn round_trip_dims_coordinates_attributes_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out/a.nc");
    let case = small_case();
    assert_eq!(write(&path, false, &case).unwrap(), path);
    assert!(!super::super::atomic::tmp_path_of(&path).exists());

    let f = ::netcdf::open(&path).unwrap();
    let g = Grid::new(&case.grid, false, false);
    for (d, n) in [("time", 2), ("x_c", 6), ("y_c", 5), ("x_f", 7), ("y_f", 6)] {
        assert_eq!(f.dimension_len(d), Some(n), "{d}");
    }
    assert!(f.dimension("time").unwrap().is_unlimited());
    let get = |name: &str| f.variable(name).unwrap().get_values::<f64, _>(..).unwrap();
    assert_eq!(get("x_f"), vec![0.0, 0.5, 1.5, 3.0, 4.0, 5.0, 6.0]);
    assert_eq!(get("x_c"), vec![0.25, 1.0, 2.25, 3.5, 4.5, 5.5]);
    assert_eq!(get("y_c"), g.y_v[1..=5].to_vec());
    assert_eq!(get("y_f"), g.y_f[1..=6].to_vec());
    assert_eq!(get("time"), vec![0.0, 0.5]);
    let step = f
        .variable("step")
        .unwrap()
        .get_values::<i64, _>(..)
        .unwrap();
    assert_eq!(step, vec![0, 10]);
    let it = f
        .variable("iterations")
        .unwrap()
        .get_values::<i32, _>(..)
        .unwrap();
    assert_eq!(it, vec![0, 7]);

    let dims = |name: &str| -> Vec<String> {
        f.variable(name)
            .unwrap()
            .dimensions()
            .iter()
            .map(|d| d.name())
            .collect()
    };
    assert_eq!(dims("p"), ["time", "y_c", "x_c"]);
    assert_eq!(dims("u"), ["time", "y_c", "x_f"]);
    assert_eq!(dims("v"), ["time", "y_f", "x_c"]);
    assert_eq!(dims("fluid_mask"), ["y_c", "x_c"]);

    // Staggered values: u at stored i = 1..=7 of rows 1..=5, v at rows 1..=6 of columns 1..=6.
    for (name, id, ni, nj) in [
        ("p", 0, 6, 5),
        ("T", 1, 6, 5),
        ("rho", 2, 6, 5),
        ("u", 3, 7, 5),
        ("v", 4, 6, 6),
    ] {
        let data = get(name);
        assert_eq!(data.len(), 2 * ni * nj, "{name}");
        for s in 0..2 {
            for j in 0..nj {
                for i in 0..ni {
                    let got = data[(s * nj + j) * ni + i];
                    assert_eq!(got, val(id, i + 1, j + 1, s), "{name}[{s},{j},{i}]");
                }
            }
        }
    }
    let mask = f
        .variable("fluid_mask")
        .unwrap()
        .get_values::<i8, _>(..)
        .unwrap();
    let solid: Vec<usize> = (0..30).filter(|&k| mask[k] == 0).collect();
    // Body columns 3, 4 (0-based 2, 3), rows 2, 3 (0-based 1, 2).
    assert_eq!(solid, vec![6 + 2, 6 + 3, 12 + 2, 12 + 3]);

    assert_eq!(str_attr(&f, "Conventions"), "CF-1.8");
    assert_eq!(str_attr(&f, "scheme"), "implicit-tvd");
    assert_eq!(str_attr(&f, "backend"), "mock");
    assert_eq!(str_attr(&f, "simplets_version"), env!("CARGO_PKG_VERSION"));
    assert!(str_attr(&f, "history").contains("created by simplets"));
    assert!(str_attr(&f, "title").contains("nc-roundtrip"));
    let back: serde_json::Value = serde_json::from_str(&str_attr(&f, "case_json")).unwrap();
    assert_eq!(back, case.json);
    assert_eq!(str_attr(&f, "method"), "simple_ts");
    for v in [
        "time",
        "x_c",
        "y_c",
        "x_f",
        "y_f",
        "p",
        "T",
        "rho",
        "u",
        "v",
        "fluid_mask",
        "step",
    ] {
        assert_eq!(var_str_attr(&f, v, "units"), "1", "{v}");
        assert!(!var_str_attr(&f, v, "long_name").is_empty(), "{v}");
    }
    assert!(var_str_attr(&f, "p", "long_name").contains("p0"));
    assert!(var_str_attr(&f, "u", "long_name").contains("V_th"));
}

#[test]
fn existing_file_is_refused_without_force_and_replaced_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("b.nc");
    std::fs::write(&path, b"not a netcdf file").unwrap();
    let case = small_case();
    let err = write(&path, false, &case).unwrap_err();
    assert!(matches!(err, OutputError::Exists { .. }), "{err:?}");
    assert_eq!(std::fs::read(&path).unwrap(), b"not a netcdf file");
    assert!(!super::super::atomic::tmp_path_of(&path).exists());
    write(&path, true, &case).unwrap();
    let f = ::netcdf::open(&path).unwrap();
    assert_eq!(f.dimension_len("time"), Some(2));
}

#[test]
fn unfinished_writer_leaves_no_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.nc");
    let case = small_case();
    let l = layout(&case);
    let mut w = NcWriter::create(&path, false, &case, &l, "mock").unwrap();
    append(&mut w, &l.grid, 0, 0).unwrap();
    drop(w);
    assert!(!path.exists());
    assert!(!super::super::atomic::tmp_path_of(&path).exists());
}

#[test]
fn utc_timestamp_is_iso8601() {
    let s = crate::text::utc_now();
    assert_eq!(s.len(), 20, "{s}");
    assert!(
        s.starts_with("20") && s.ends_with('Z') && &s[10..11] == "T",
        "{s}"
    );
}
