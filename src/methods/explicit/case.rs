//! Case sections shared by the explicit methods (convection and the three SHLL methods): the
//! time rule (a CFL number or a fixed Δt, steps or an end time), sides, rectangles and regions
//! of the initial state, and their value rules. Each method's own case type
//! (`methods/<method>/case.rs`) puts them together with `deny_unknown_fields`.

use serde::{Deserialize, Serialize};

use crate::case::rules::{extent, invalid, num, positive};
use crate::case::GridSpec;
use crate::error::ConfigError;

/// Time rule of an explicit method: give exactly one of `cfl` and `dt`, and exactly one of
/// `steps` and `end_time`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplicitTime {
    /// Courant number: Δt = cfl / max over cells of the method's rate (docs/method/shll.md
    /// eq. 20–21), from the state at the start of each step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cfl: Option<f64>,
    /// A fixed time step instead of `cfl`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dt: Option<f64>,
    /// Number of time steps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// End time: with `cfl`, the last step is shortened to land on it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_time: Option<f64>,
    /// With `cfl` and `end_time`: stop after this many steps even if the end time is not
    /// reached (a guard against a run whose Δt collapses).
    #[serde(default = "default_max_steps")]
    pub max_steps: u64,
}

fn default_max_steps() -> u64 {
    10_000_000
}

/// Boundary condition of one side, with the method's state type `S` for an inflow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Side<S> {
    /// A slip wall: ghosts mirror the cells, normal momentum reversed (SHLL methods only).
    Reflective,
    /// Zero gradient: ghosts copy the nearest cell.
    Outflow,
    /// A fixed state in the ghosts.
    Inflow {
        /// The state.
        state: S,
    },
    /// Periodic: must be set on both opposite sides.
    Periodic,
}

/// The four sides; `south` and `north` are absent in 1D (ny = 1) and required in 2D.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Boundaries<S> {
    /// x = x_start.
    pub west: Side<S>,
    /// x = x_end.
    pub east: Side<S>,
    /// y = y_start (2D only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub south: Option<Side<S>>,
    /// y = y_end (2D only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub north: Option<Side<S>>,
}

/// An axis-aligned rectangle `[x0, x1] × [y0, y1]` (a wall, a region).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rect {
    /// x extent.
    pub x: [f64; 2],
    /// y extent.
    pub y: [f64; 2],
}

/// A disc of radius `r` centred at (`x`, `y`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Circle {
    /// Centre x.
    pub x: f64,
    /// Centre y.
    pub y: f64,
    /// Radius.
    pub r: f64,
}

/// A part of the domain given another initial state: the cells whose centres lie in the
/// closed rectangle (`x`, `y`: each defaults to the whole extent) or strictly inside the
/// `circle`. Later regions overwrite earlier ones.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "S: Deserialize<'de>"))]
pub struct Region<S> {
    /// x extent (closed; default: the domain's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<[f64; 2]>,
    /// y extent (closed; default: the domain's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<[f64; 2]>,
    /// A disc instead of a rectangle.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub circle: Option<Circle>,
    /// The state inside.
    pub state: S,
}

/// Relative tolerance of the closed-interval test of region bounds against cell centres, in
/// cell widths: a centre that lies on a bound up to round-off (the seed 003 top hats put
/// bounds exactly on nodes) is inside.
pub const REGION_TOL: f64 = 1e-9;

impl<S> Region<S> {
    /// True if the cell centre (x, y) with widths (dx, dy) is in the region.
    pub fn contains(&self, x: f64, y: f64, dx: f64, dy: f64) -> bool {
        if let Some(c) = &self.circle {
            return (x - c.x).powi(2) + (y - c.y).powi(2) < c.r * c.r;
        }
        let inside = |e: Option<[f64; 2]>, v: f64, h: f64| match e {
            None => true,
            Some(e) => v >= e[0] - REGION_TOL * h && v <= e[1] + REGION_TOL * h,
        };
        inside(self.x, x, dx) && inside(self.y, y, dy)
    }

    /// Value rules: finite extents (start ≤ end), a positive radius, not both shapes.
    pub fn check(&self, path: &str) -> Result<(), ConfigError> {
        if self.circle.is_some() && (self.x.is_some() || self.y.is_some()) {
            return Err(invalid(
                path,
                "circle with x or y",
                "give either a circle or x/y extents",
            ));
        }
        if let Some(c) = &self.circle {
            crate::case::rules::finite(&format!("{path}.circle.x"), c.x)?;
            crate::case::rules::finite(&format!("{path}.circle.y"), c.y)?;
            positive(&format!("{path}.circle.r"), c.r)?;
        }
        for (axis, e) in [("x", self.x), ("y", self.y)] {
            if let Some(e) = e {
                closed_extent(&format!("{path}.{axis}"), e)?;
            }
        }
        Ok(())
    }
}

/// A closed extent: finite, start ≤ end.
pub fn closed_extent(path: &str, e: [f64; 2]) -> Result<(), ConfigError> {
    if e[0].is_finite() && e[1].is_finite() && e[0] <= e[1] {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!("[{}, {}]", num(e[0]), num(e[1])),
            "must be finite with start <= end",
        ))
    }
}

/// Largest number of stored values of one run (variables × stored cells): the kernels index
/// with 32-bit ints.
pub const MAX_STORED: u64 = i32::MAX as u64;

/// `grid` of an explicit method: uniform cells (no face coordinates), nx ≥ 2, ny = 1 (1D:
/// nx up to [`crate::case::rules::MAX_CELLS`]) or ny ≥ 2 (2D: each axis up to
/// [`crate::case::rules::MAX_CELLS_AXIS`]).
pub fn check_grid(g: &GridSpec) -> Result<(), ConfigError> {
    use crate::case::rules::{int_range, MAX_CELLS, MAX_CELLS_AXIS};
    let nx_max = if g.ny == 1 {
        MAX_CELLS
    } else {
        MAX_CELLS_AXIS as u64
    };
    int_range("grid.nx", g.nx as u64, 2, nx_max)?;
    int_range("grid.ny", g.ny as u64, 1, MAX_CELLS_AXIS as u64)?;
    let cells = g.nx as u64 * g.ny as u64;
    if cells > MAX_CELLS {
        return Err(invalid(
            "grid.nx*grid.ny",
            cells,
            format!("must be at most {MAX_CELLS}"),
        ));
    }
    // Four variables (Euler) with two ghost layers: the largest storage of any method.
    let stored = 4 * (g.nx as u64 + 4) * if g.ny == 1 { 1 } else { g.ny as u64 + 4 };
    if stored > MAX_STORED {
        return Err(invalid(
            "grid.nx*grid.ny",
            cells,
            format!(
                "must keep 4 variables with ghosts within {MAX_STORED} values (32-bit indices)"
            ),
        ));
    }
    extent("grid.x", g.x)?;
    extent("grid.y", g.y)?;
    if g.x_faces.is_some() {
        return Err(invalid(
            "grid.x_faces",
            "given",
            "explicit methods use uniform cells: remove x_faces",
        ));
    }
    if g.y_faces.is_some() {
        return Err(invalid(
            "grid.y_faces",
            "given",
            "explicit methods use uniform cells: remove y_faces",
        ));
    }
    Ok(())
}

/// `time`: one of `cfl` (in (0, `max_cfl`]) and `dt`, one of `steps` and `end_time`.
pub fn check_time(t: &ExplicitTime, max_cfl: f64) -> Result<(), ConfigError> {
    match (t.cfl, t.dt) {
        (Some(_), Some(_)) => {
            return Err(invalid(
                "time",
                "both cfl and dt",
                "give exactly one of cfl and dt",
            ))
        }
        (None, None) => {
            return Err(invalid(
                "time",
                "neither cfl nor dt",
                "give exactly one of cfl and dt",
            ))
        }
        (Some(c), None) => {
            if !(c > 0.0 && c <= max_cfl) {
                return Err(invalid(
                    "time.cfl",
                    num(c),
                    format!("must be in (0, {}]", num(max_cfl)),
                ));
            }
        }
        (None, Some(dt)) => positive("time.dt", dt)?,
    }
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
        (Some(_), None) => Ok(()),
        (None, Some(e)) => {
            positive("time.end_time", e)?;
            if t.max_steps == 0 {
                return Err(invalid("time.max_steps", 0, "must be >= 1"));
            }
            Ok(())
        }
    }
}

/// `boundaries`: south/north present exactly in 2D, periodic on both opposite sides or
/// neither, and (when `reflective` is false) no reflective side.
pub fn check_boundaries<S>(
    b: &Boundaries<S>,
    dims: usize,
    reflective: bool,
) -> Result<(), ConfigError> {
    match (dims, &b.south, &b.north) {
        (1, None, None) | (2, Some(_), Some(_)) => {}
        (1, _, _) => {
            return Err(invalid(
                "boundaries",
                "south or north given",
                "a 1D case (grid.ny = 1) has only west and east sides",
            ))
        }
        _ => {
            return Err(invalid(
                "boundaries",
                "south or north missing",
                "a 2D case needs all four sides",
            ))
        }
    }
    let periodic = |s: &Side<S>| matches!(s, Side::Periodic);
    if periodic(&b.west) != periodic(&b.east) {
        return Err(invalid(
            "boundaries.west/east",
            "periodic on one side only",
            "periodic must be set on both west and east",
        ));
    }
    if let (Some(s), Some(n)) = (&b.south, &b.north) {
        if periodic(s) != periodic(n) {
            return Err(invalid(
                "boundaries.south/north",
                "periodic on one side only",
                "periodic must be set on both south and north",
            ));
        }
    }
    if !reflective {
        let sides = [
            ("west", Some(&b.west)),
            ("east", Some(&b.east)),
            ("south", b.south.as_ref()),
            ("north", b.north.as_ref()),
        ];
        for (name, s) in sides {
            if let Some(Side::Reflective) = s {
                return Err(invalid(
                    format!("boundaries.{name}.kind"),
                    "\"reflective\"",
                    "a scalar method has inflow, outflow and periodic sides",
                ));
            }
        }
    }
    Ok(())
}

/// `name`, the output stem (the shared rule).
pub use crate::case::rules::check_name;

/// Parse the case text of `method` into `T`; an unknown field's message says that it does
/// not belong to that method (one line).
pub fn parse_for<T: serde::de::DeserializeOwned>(
    text: &str,
    source: &str,
    method: crate::case::Method,
) -> Result<T, ConfigError> {
    crate::case::parse_json(text, source).map_err(|e| match e {
        ConfigError::Parse {
            source_name,
            line,
            column,
            message,
        } if message.contains("unknown field") => ConfigError::Parse {
            source_name,
            line,
            column,
            message: format!("{message} (a field of another method, not of method {method})"),
        },
        e => e,
    })
}

/// A scalar state: the transported value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalarState {
    /// The value.
    pub value: f64,
}

/// A Gaussian bump `amplitude·exp(−|x − centre|²/(2σ²))` added to the background.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gaussian {
    /// Centre (x, y) (y ignored in 1D).
    pub centre: [f64; 2],
    /// Width σ.
    pub sigma: f64,
    /// Amplitude.
    pub amplitude: f64,
}

/// Initial scalar field: the background `value`, then `regions` in order, plus an optional
/// Gaussian.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScalarInitial {
    /// Background value.
    pub value: f64,
    /// Regions of other values (top hats).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<Region<ScalarState>>,
    /// A Gaussian bump added everywhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gaussian: Option<Gaussian>,
}

impl ScalarInitial {
    /// The value at (x, y) of a cell of widths (dx, dy); `dims` 1 ignores y.
    pub fn at(&self, x: f64, y: f64, dx: f64, dy: f64, dims: usize) -> f64 {
        let mut v = self.value;
        for r in &self.regions {
            if r.contains(x, y, dx, dy) {
                v = r.state.value;
            }
        }
        if let Some(g) = &self.gaussian {
            let ry = if dims == 2 { y - g.centre[1] } else { 0.0 };
            let r2 = (x - g.centre[0]).powi(2) + ry * ry;
            v += g.amplitude * (-r2 / (2.0 * g.sigma * g.sigma)).exp();
        }
        v
    }

    /// Value rules.
    pub fn check(&self) -> Result<(), ConfigError> {
        crate::case::rules::finite("initial.value", self.value)?;
        for (k, r) in self.regions.iter().enumerate() {
            r.check(&format!("initial.regions[{k}]"))?;
            crate::case::rules::finite(
                &format!("initial.regions[{k}].state.value"),
                r.state.value,
            )?;
        }
        if let Some(g) = &self.gaussian {
            positive("initial.gaussian.sigma", g.sigma)?;
            crate::case::rules::finite("initial.gaussian.amplitude", g.amplitude)?;
        }
        Ok(())
    }
}

/// The [`super::Bc`] of each side (west, east, south, north) with inflow states turned into
/// conserved ones by `cons`; south/north of a 1D case are outflow (never read).
pub fn sides<S>(b: &Boundaries<S>, cons: impl Fn(&S) -> Vec<f64>) -> [super::Bc; 4] {
    let one = |s: Option<&Side<S>>| match s {
        None | Some(Side::Outflow) => super::Bc::Outflow,
        Some(Side::Reflective) => super::Bc::Reflective,
        Some(Side::Periodic) => super::Bc::Periodic,
        Some(Side::Inflow { state }) => super::Bc::Inflow(cons(state)),
    };
    [
        one(Some(&b.west)),
        one(Some(&b.east)),
        one(b.south.as_ref()),
        one(b.north.as_ref()),
    ]
}

/// The step rule, end time and driver step count of `t` (`fixed_from_cfl`: a constant rate
/// for which a CFL number gives a fixed Δt, as linear convection has).
pub fn time_rule(t: &ExplicitTime, fixed_from_cfl: Option<f64>) -> (super::StepRule, f64, u64) {
    use super::StepRule;
    let rule = match (t.cfl, t.dt, fixed_from_cfl) {
        (Some(c), _, Some(rate)) => StepRule::Fixed(c / rate),
        (Some(c), _, None) => StepRule::Cfl(c),
        (None, Some(dt), _) => StepRule::Fixed(dt),
        (None, None, _) => StepRule::Cfl(1.0),
    };
    match (rule, t.steps, t.end_time) {
        (_, Some(n), _) => (rule, f64::INFINITY, n),
        (StepRule::Fixed(dt), None, Some(e)) => {
            (rule, f64::INFINITY, (e / dt - 1e-9).ceil().max(1.0) as u64)
        }
        (StepRule::Cfl(_), None, Some(e)) => (rule, e, t.max_steps),
        (_, None, None) => (rule, f64::INFINITY, 0),
    }
}

/// The shared [`crate::case::Common`] of an explicit case.
#[allow(clippy::too_many_arguments)]
pub fn common(
    name: &str,
    description: &str,
    method: crate::case::Method,
    scheme: String,
    grid: &GridSpec,
    rule: super::StepRule,
    steps: u64,
    output: &crate::case::OutputSpec,
    json: serde_json::Value,
) -> crate::case::Common {
    let dt = match rule {
        super::StepRule::Fixed(dt) => dt,
        // Not known before the first step (the state decides).
        super::StepRule::Cfl(_) => f64::NAN,
    };
    crate::case::Common {
        name: name.to_string(),
        description: description.to_string(),
        method,
        scheme,
        grid: grid.clone(),
        time: crate::case::TimeSpec {
            dt,
            steps: Some(steps),
            end_time: None,
            stop_at_steady_state: false,
        },
        output: output.clone(),
        // The positivity guard stops a run; residuals have no limit.
        divergence_limit: f64::MAX,
        json,
    }
}
