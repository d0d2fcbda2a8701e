//! The value rules every case shares: names, grid, time, output cadence and point probes,
//! and the helpers the methods' own rules use. Every error names the JSON path, the value and
//! the allowed range.

use super::{GridSpec, OutputSpec, TimeSpec, MAX_PARTS};
use crate::error::ConfigError;

/// Largest number of computed cells along one axis.
pub const MAX_CELLS_AXIS: usize = 1_000_000;
/// Largest number of computed cells in total (nx·ny).
pub const MAX_CELLS: u64 = 2_000_000_000;
/// Relative tolerance for the first/last face coordinate against the domain extent.
const FACE_END_TOL: f64 = 1e-12;

/// A [`ConfigError::Invalid`] naming the JSON path, the value and what is allowed.
pub fn invalid(
    path: impl Into<String>,
    value: impl ToString,
    allowed: impl Into<String>,
) -> ConfigError {
    ConfigError::Invalid {
        path: path.into(),
        value: value.to_string(),
        allowed: allowed.into(),
    }
}

/// `{:?}` prints f64 with an exponent when useful and always round-trips.
pub fn num(v: f64) -> String {
    format!("{v:?}")
}

/// `v` must be finite.
pub fn finite(path: &str, v: f64) -> Result<(), ConfigError> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(invalid(path, num(v), "must be a finite number"))
    }
}

/// A speed (a velocity component or a Mach number): finite, and its square too, since the
/// equations square velocities (kinetic energy, |V|²); beyond that the solver would only
/// overflow.
pub fn speed(path: &str, v: f64) -> Result<(), ConfigError> {
    if (v * v).is_finite() {
        Ok(())
    } else {
        Err(invalid(
            path,
            num(v),
            "must be finite with a finite square (|value| < 1e154)",
        ))
    }
}

/// `v` must be finite and > 0.
pub fn positive(path: &str, v: f64) -> Result<(), ConfigError> {
    if v > 0.0 && v.is_finite() {
        Ok(())
    } else {
        Err(invalid(path, num(v), "must be finite and > 0"))
    }
}

/// `v` must be finite and >= 0.
pub fn non_negative(path: &str, v: f64) -> Result<(), ConfigError> {
    if v >= 0.0 && v.is_finite() {
        Ok(())
    } else {
        Err(invalid(path, num(v), "must be finite and >= 0"))
    }
}

/// `v` must lie in `[lo, hi]`.
pub fn int_range(path: &str, v: u64, lo: u64, hi: u64) -> Result<(), ConfigError> {
    if (lo..=hi).contains(&v) {
        Ok(())
    } else {
        Err(invalid(path, v, format!("must be in [{lo}, {hi}]")))
    }
}

/// An extent `[start, end]` must be finite with start < end.
pub fn extent(path: &str, e: [f64; 2]) -> Result<(), ConfigError> {
    if e[0].is_finite() && e[1].is_finite() && e[0] < e[1] {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!("[{}, {}]", num(e[0]), num(e[1])),
            "must be finite with start < end",
        ))
    }
}

/// The case name: the output file stem.
pub fn check_name(name: &str) -> Result<(), ConfigError> {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if name.is_empty() || !name.chars().all(ok) || name == "." || name == ".." {
        return Err(invalid(
            "name",
            format!("{name:?}"),
            "must be non-empty and use only letters, digits, '_', '.' and '-'",
        ));
    }
    Ok(())
}

/// A label that becomes a CSV column or row key (a probe's or a body's name): non-empty, at
/// most 64 characters of letters, digits, '_', '.' and '-', so that no comma, quote or newline
/// can break the file's columns.
pub fn check_label(path: &str, name: &str) -> Result<(), ConfigError> {
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-');
    if name.is_empty() || name.len() > 64 || !name.chars().all(ok) {
        return Err(invalid(
            path,
            format!("{name:?}"),
            "must be 1 to 64 letters, digits, '_', '.' and '-'",
        ));
    }
    Ok(())
}

/// `grid`: cell counts within the limits, extents, optional face coordinates.
pub fn check_grid(g: &GridSpec) -> Result<(), ConfigError> {
    int_range("grid.nx", g.nx as u64, 3, MAX_CELLS_AXIS as u64)?;
    int_range("grid.ny", g.ny as u64, 3, MAX_CELLS_AXIS as u64)?;
    let cells = g.nx as u64 * g.ny as u64;
    if cells > MAX_CELLS {
        return Err(invalid(
            "grid.nx*grid.ny",
            cells,
            format!("must be at most {MAX_CELLS}"),
        ));
    }
    extent("grid.x", g.x)?;
    extent("grid.y", g.y)?;
    if let Some(f) = &g.x_faces {
        faces("grid.x_faces", f, g.nx, g.x)?;
    }
    if let Some(f) = &g.y_faces {
        faces("grid.y_faces", f, g.ny, g.y)?;
    }
    Ok(())
}

/// Non-uniform face coordinates: n + 1 increasing values from one end of the extent to the other.
pub fn faces(path: &str, f: &[f64], n: usize, ext: [f64; 2]) -> Result<(), ConfigError> {
    if f.len() != n + 1 {
        return Err(invalid(
            path,
            format!("{} values", f.len()),
            format!("must have n + 1 = {} values", n + 1),
        ));
    }
    for (k, &x) in f.iter().enumerate() {
        finite(&format!("{path}[{k}]"), x)?;
        if k > 0 && x <= f[k - 1] {
            return Err(invalid(
                format!("{path}[{k}]"),
                num(x),
                format!(
                    "must be strictly increasing (previous value {})",
                    num(f[k - 1])
                ),
            ));
        }
    }
    let tol = FACE_END_TOL * ext[0].abs().max(ext[1].abs()).max(ext[1] - ext[0]);
    for (k, want) in [(0, ext[0]), (n, ext[1])] {
        if (f[k] - want).abs() > tol {
            return Err(invalid(
                format!("{path}[{k}]"),
                num(f[k]),
                format!(
                    "must equal the domain extent {} (within 1e-12 relative)",
                    num(want)
                ),
            ));
        }
    }
    Ok(())
}

/// `time`: Δt > 0 and exactly one of `steps` and `end_time`.
pub fn check_time(t: &TimeSpec) -> Result<(), ConfigError> {
    positive("time.dt", t.dt)?;
    match (t.steps, t.end_time) {
        (Some(_), Some(_)) => Err(invalid(
            "time",
            "both steps and end_time",
            "give exactly one of steps and end_time",
        )),
        (None, None) => Err(invalid(
            "time",
            "neither steps nor end_time",
            "give exactly one of steps and end_time",
        )),
        (Some(0), None) => Err(invalid("time.steps", 0, "must be >= 1")),
        (Some(n), None) if !(t.dt * n as f64).is_finite() => Err(invalid(
            "time.dt",
            num(t.dt),
            format!("dt × steps ({n}) overflows: the end time must be finite"),
        )),
        (Some(_), None) => Ok(()),
        (None, Some(e)) => positive("time.end_time", e),
    }
}

/// `output.snapshots_per_file`: the snapshots of the case's steps must fit in
/// [`MAX_PARTS`] files, so that part names keep four digits
/// and sort in time order.
pub fn check_output(time: &TimeSpec, o: &OutputSpec) -> Result<(), ConfigError> {
    if o.snapshots_per_file == 0 {
        return Ok(());
    }
    let max = MAX_PARTS;
    // The initial state, one per interval and the final state.
    let regular = time.n_steps().checked_div(o.interval).unwrap_or(0);
    let snapshots = regular.saturating_add(2);
    let min = snapshots.div_ceil(max);
    if o.snapshots_per_file < min {
        return Err(invalid(
            "output.snapshots_per_file",
            o.snapshots_per_file,
            format!(
                "must be at least {min} (or 0 for one file): the case writes up to \
                 {snapshots} snapshots and at most {max} files are numbered"
            ),
        ));
    }
    Ok(())
}

/// `output.probes`: valid unique names and points inside the domain `grid`. Whether a point
/// lies in a fluid cell is the method's rule.
pub fn check_probes(probes: &[super::Probe], grid: &GridSpec) -> Result<(), ConfigError> {
    for (k, pr) in probes.iter().enumerate() {
        let p = format!("output.probes[{k}]");
        check_label(&format!("{p}.name"), &pr.name)?;
        if probes[..k].iter().any(|q| q.name == pr.name) {
            return Err(invalid(
                format!("{p}.name"),
                format!("{:?}", pr.name),
                "must be unique among output.probes",
            ));
        }
        for (axis, v, e) in [("x", pr.x, grid.x), ("y", pr.y, grid.y)] {
            if !(v.is_finite() && v >= e[0] && v <= e[1]) {
                return Err(invalid(
                    format!("{p}.{axis}"),
                    num(v),
                    format!("must be inside the domain [{}, {}]", num(e[0]), num(e[1])),
                ));
            }
        }
    }
    Ok(())
}
