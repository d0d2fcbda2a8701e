//! Checkpoint round trip, refusals (grid, physics, arrays, truncation, corruption) and
//! rotation, on a generic state: named padded arrays of any method.

use std::path::{Path, PathBuf};

use super::*;
use crate::case::{Common, GridSpec, Method, OutputSpec, TimeSpec};
use crate::error::CheckpointError;
use crate::grid::Grid;
use crate::solver::Saved;

fn case_json(nx: usize, kn: f64, steps: u64) -> Value {
    serde_json::json!({
        "name": "ck",
        "gas": { "kn": kn },
        "grid": { "nx": nx, "ny": 4, "x": [0.0, 5.0], "y": [0.0, 4.0] },
        "time": { "dt": 0.5, "steps": steps },
        "solver": { "max_iters": 10, "divergence_limit": 1e6 }
    })
}

fn common(json: Value) -> Common {
    let grid: GridSpec = serde_json::from_value(json["grid"].clone()).unwrap();
    let time: TimeSpec = serde_json::from_value(json["time"].clone()).unwrap();
    Common {
        name: json["name"].as_str().unwrap().to_string(),
        description: String::new(),
        method: Method::SimpleTs,
        scheme: "implicit-upwind".into(),
        grid,
        time,
        output: OutputSpec::default(),
        divergence_limit: 1e6,
        json,
    }
}

fn case(nx: usize, kn: f64) -> Common {
    common(case_json(nx, kn, 10))
}

fn names() -> Vec<String> {
    ["n.a", "n.b", "k.a", "k.b"].map(String::from).to_vec()
}

/// A state with a distinct value in every entry (including awkward ones).
fn state(grid: &Grid, step: u64) -> Saved {
    let n = grid.len();
    let mut x = 0.1f64;
    let mut arrays: Vec<Vec<f64>> = (0..4)
        .map(|_| {
            (0..n)
                .map(|_| {
                    x = x * 1.000_001 + std::f64::consts::PI;
                    x
                })
                .collect()
        })
        .collect();
    arrays[0][0] = -0.0;
    arrays[1][1] = f64::MIN_POSITIVE / 3.0;
    Saved {
        step,
        time: step as f64 * 0.1,
        arrays,
    }
}

fn grid_of(c: &Common) -> Grid {
    Grid::new(&c.grid, true, false)
}

fn write(dir: &Path, c: &Common, g: &Grid, s: &Saved, part: Option<u32>) -> PathBuf {
    write_checkpoint(dir, c, g, s, &names(), part).unwrap()
}

fn load(path: &Path, c: &Common) -> Result<Saved, CheckpointError> {
    load_checkpoint(path, c, &grid_of(c), &names())
}

#[test]
fn round_trip_is_bit_exact() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(5, 0.1);
    let g = grid_of(&c);
    let st = state(&g, 7);
    let path = write(dir.path(), &c, &g, &st, None);
    assert_eq!(path, dir.path().join("ck.ckpt-7"));
    assert!(!dir.path().join("ck.ckpt-7.tmp").exists());
    let back = load(&path, &c).unwrap();
    assert_eq!(back, st);
    assert_eq!(back.arrays[0][0].to_bits(), (-0.0f64).to_bits());
    let h = read_header(&path).unwrap();
    assert_eq!((h.step, h.nx, h.ny, h.cells), (7, 5, 4, g.len()));
    assert_eq!(
        (h.scheme.as_str(), h.arrays.clone()),
        ("implicit-upwind", names())
    );
    assert_eq!(h.nc_part, None);
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.starts_with(MAGIC));
    assert!(!String::from_utf8_lossy(&bytes).contains("nc_part"));
    // The NetCDF part of split output is recorded for the restart.
    let path = write(dir.path(), &c, &g, &state(&g, 8), Some(3));
    assert_eq!(read_header(&path).unwrap().nc_part, Some(3));
    assert_eq!(load(&path, &c).unwrap().step, 8);
    // Another method's arrays (another layout) are refused.
    let other = ["n.a", "k.a"].map(String::from).to_vec();
    let err = load_checkpoint(&path, &c, &g, &other).unwrap_err();
    assert!(err.to_string().contains("holds the arrays"), "{err}");
}

#[test]
fn run_length_output_and_name_are_not_physics() {
    let c = case_json(5, 0.1, 10);
    let mut d = case_json(5, 0.1, 999);
    d["name"] = "other".into();
    d["description"] = "text".into();
    d["method"] = "simple_ts".into();
    d["output"] = serde_json::json!({ "interval": 3 });
    d["time"]["stop_at_steady_state"] = true.into();
    d["time"]["end_time"] = 3.0.into();
    d["solver"]["divergence_limit"] = 1.0.into();
    assert_eq!(case_hash(&c), case_hash(&d));
    d["solver"]["max_iters"] = 11.into();
    assert_ne!(case_hash(&c), case_hash(&d));
}

#[test]
fn refuses_another_grid() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(5, 0.1);
    let g = grid_of(&c);
    let path = write(dir.path(), &c, &g, &state(&g, 3), None);
    let err = load_checkpoint(&path, &case(6, 0.1), &grid_of(&case(6, 0.1)), &names()).unwrap_err();
    assert!(matches!(err, CheckpointError::Grid { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.ends_with("is for grid 5x4, this case has 6x4") && msg.contains("ck.ckpt-3"),
        "{msg}"
    );
    assert_eq!(
        check_header(&read_header(&path).unwrap(), &path, &case(6, 0.1), (6, 4)),
        Err(err)
    );
}

#[test]
fn refuses_another_kn_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(5, 0.1);
    let g = grid_of(&c);
    let path = write(dir.path(), &c, &g, &state(&g, 3), None);
    let err = load(&path, &case(5, 0.2)).unwrap_err();
    assert!(matches!(err, CheckpointError::Case { .. }), "{err:?}");
    let msg = err.to_string();
    assert!(
        msg.contains("was written for a different case") && msg.contains("gas.kn differ"),
        "{msg}"
    );
    assert!(!msg.contains('\n'));
}

#[test]
fn refuses_truncated_and_corrupt_files() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(5, 0.1);
    let g = grid_of(&c);
    let path = write(dir.path(), &c, &g, &state(&g, 3), None);
    let bytes = std::fs::read(&path).unwrap();
    let cut = dir.path().join("cut");
    std::fs::write(&cut, &bytes[..bytes.len() - 100]).unwrap();
    let err = load(&cut, &c).unwrap_err();
    assert!(matches!(err, CheckpointError::Corrupt { .. }), "{err:?}");
    assert!(err.to_string().contains("is corrupt: truncated"), "{err}");
    // Cut inside the header line.
    std::fs::write(&cut, &bytes[..MAGIC.len() + 20]).unwrap();
    let err = load(&cut, &c).unwrap_err();
    assert!(matches!(err, CheckpointError::Corrupt { .. }), "{err:?}");
    assert!(matches!(
        read_header(&cut),
        Err(CheckpointError::Corrupt { .. })
    ));
    // One flipped bit in the payload.
    let mut flipped = bytes.clone();
    let at = flipped.len() - 50;
    flipped[at] ^= 0x10;
    std::fs::write(&cut, &flipped).unwrap();
    let err = load(&cut, &c).unwrap_err();
    assert!(err.to_string().contains("checksum mismatch"), "{err}");
    // Not a checkpoint; another version.
    std::fs::write(&cut, b"{\"name\": 1}").unwrap();
    let err = load(&cut, &c).unwrap_err();
    assert!(
        matches!(err, CheckpointError::NotACheckpoint { .. }),
        "{err:?}"
    );
    std::fs::write(&cut, b"SIMPLETS-CHECKPOINT 9\n{}\n").unwrap();
    let err = load(&cut, &c).unwrap_err();
    assert!(
        matches!(err, CheckpointError::Version { ref found, .. } if found == "9"),
        "{err:?}"
    );
    let err = load(&dir.path().join("missing"), &c).unwrap_err();
    assert!(matches!(err, CheckpointError::Io { .. }), "{err:?}");
}

#[test]
fn rotation_keeps_the_last_two() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(5, 0.1);
    let g = grid_of(&c);
    // A stale checkpoint of a later step (an earlier, longer run) and another case's file.
    std::fs::write(dir.path().join("ck.ckpt-1000"), b"old").unwrap();
    std::fs::write(dir.path().join("ckx.ckpt-1"), b"other case").unwrap();
    for step in [6, 12, 18, 24] {
        write(dir.path(), &c, &g, &state(&g, step), None);
    }
    let left: Vec<u64> = list_checkpoints(dir.path(), "ck")
        .into_iter()
        .map(|c| c.0)
        .collect();
    assert_eq!(left, vec![18, 24]);
    assert!(dir.path().join("ckx.ckpt-1").exists());
    let files = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(files, 3, "no temporary files left");
}
