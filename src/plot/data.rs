//! A simplets output read generically: whatever 2D fields on `(time, y, x)` and per-step
//! series on `steps` the file holds, on cell centres or faces.
//!
//! The centre grid is the one of `fluid_mask` (else the dimensions `y_c`, `x_c`); a field
//! dimension one longer than the centre one is a face dimension, and such fields are
//! averaged to the centres. Cell edges come from a coordinate of length n + 1 (`x_f`,
//! `y_f`), else from the centres. A file is taken as a simplets output when it has a
//! `case_json` global attribute or a `title` starting with "simplets", a `time` dimension,
//! the centre coordinates, and at least one field.

use std::path::PathBuf;

#[cfg(feature = "netcdf")]
use super::PlotError;

/// A 2D field variable of the file.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldVar {
    /// Variable name (`p`, `T`, `rho`, `u`, `v`, …).
    pub name: String,
    /// Its `long_name` attribute (the name if absent).
    pub long_name: String,
    /// Its `units` attribute (empty if absent).
    pub units: String,
    /// Located on the x-faces (one more column than the centres).
    pub x_face: bool,
    /// Located on the y-faces (one more row than the centres).
    pub y_face: bool,
}

/// A field of one snapshot on the cell centres (`ny × nx`, x fastest).
#[derive(Debug, Clone)]
pub struct Field {
    /// What it is.
    pub var: FieldVar,
    /// Values at the centres (face values averaged).
    pub values: Vec<f64>,
}

/// Where a snapshot of a (joined) output lies.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRef {
    /// Index of the file among the joined parts.
    pub part: usize,
    /// Index on the file's `time` dimension.
    pub index: usize,
    /// Completed time steps (`step`; the joined index if absent).
    pub step: i64,
    /// Non-dimensional time (`time`; NaN if absent).
    pub time: f64,
}

/// The per-step series (`steps` dimension), concatenated over the parts.
#[derive(Debug, Clone, Default)]
pub struct Series {
    /// `series_step`.
    pub step: Vec<f64>,
    /// `series_time`.
    pub time: Vec<f64>,
    /// `series_iterations` (empty if absent).
    pub iterations: Vec<f64>,
    /// Every other variable on `steps` (the residuals): name, long_name, values.
    pub residuals: Vec<(String, String, Vec<f64>)>,
}

/// An output: one file or the joined parts of a split series.
#[derive(Debug, Clone)]
pub struct Output {
    /// The files, in order.
    pub paths: Vec<PathBuf>,
    /// Case name (`case_json` → `name`, else from `title`).
    pub case_name: String,
    /// Global attribute `method` (default "SIMPLE-TS").
    pub method: String,
    /// Global attribute `scheme`.
    pub scheme: String,
    /// Global attribute `backend`.
    pub backend: String,
    /// Ratio of specific heats (`case_json` → `gas.gamma`, default 5/3).
    pub gamma: f64,
    /// Centre columns.
    pub nx: usize,
    /// Centre rows.
    pub ny: usize,
    /// Cell edges in x (nx + 1).
    pub x_edges: Vec<f64>,
    /// Cell edges in y (ny + 1).
    pub y_edges: Vec<f64>,
    /// Cell centres in x (nx).
    pub x_c: Vec<f64>,
    /// Cell centres in y (ny).
    pub y_c: Vec<f64>,
    /// Solid cells (`fluid_mask == 0`), `ny × nx`.
    pub solid: Vec<bool>,
    /// Every snapshot, in order.
    pub snapshots: Vec<SnapshotRef>,
    /// Per-step series.
    pub series: Series,
    /// The 2D fields, in the file's order.
    pub fields: Vec<FieldVar>,
}

/// Cell edges from centres: midpoints, the ends extrapolated by half a cell.
pub fn edges_from_centres(c: &[f64]) -> Vec<f64> {
    match c.len() {
        0 => vec![0.0, 1.0],
        1 => vec![c[0] - 0.5, c[0] + 0.5],
        n => {
            let mut e = Vec::with_capacity(n + 1);
            e.push(c[0] - 0.5 * (c[1] - c[0]));
            e.extend(c.windows(2).map(|w| 0.5 * (w[0] + w[1])));
            e.push(c[n - 1] + 0.5 * (c[n - 1] - c[n - 2]));
            e
        }
    }
}

/// Average a field on `(ly, lx)` points to the `ny × nx` centres (`lx = nx + 1` on x-faces,
/// `ly = ny + 1` on y-faces).
pub fn to_centres(f: &[f64], var: &FieldVar, nx: usize, ny: usize) -> Vec<f64> {
    let lx = nx + usize::from(var.x_face);
    let mut out = Vec::with_capacity(nx * ny);
    for j in 0..ny {
        for i in 0..nx {
            let at = |jj: usize, ii: usize| f[jj * lx + ii];
            let v = match (var.x_face, var.y_face) {
                (false, false) => at(j, i),
                (true, false) => 0.5 * (at(j, i) + at(j, i + 1)),
                (false, true) => 0.5 * (at(j, i) + at(j + 1, i)),
                (true, true) => 0.25 * (at(j, i) + at(j, i + 1) + at(j + 1, i) + at(j + 1, i + 1)),
            };
            out.push(v);
        }
    }
    out
}

impl Output {
    /// Domain extent: (x0, x1, y0, y1).
    pub fn bounds(&self) -> (f64, f64, f64, f64) {
        (
            self.x_edges[0],
            self.x_edges[self.nx],
            self.y_edges[0],
            self.y_edges[self.ny],
        )
    }
}

#[cfg(feature = "netcdf")]
mod read {
    use std::path::{Path, PathBuf};

    use ::netcdf::{AttributeValue, File};

    use super::*;

    fn read_err(path: &Path) -> impl Fn(::netcdf::Error) -> PlotError + '_ {
        move |e| PlotError::Read {
            path: path.display().to_string(),
            message: e.to_string(),
        }
    }

    fn not_simplets(path: &Path, reason: impl Into<String>) -> PlotError {
        PlotError::NotSimplets {
            path: path.display().to_string(),
            reason: reason.into(),
        }
    }

    fn global_str(file: &File, name: &str) -> Option<String> {
        match file.attribute(name)?.value().ok()? {
            AttributeValue::Str(s) => Some(s),
            _ => None,
        }
    }

    fn var_str(var: &::netcdf::Variable<'_>, name: &str) -> Option<String> {
        match var.attribute_value(name)?.ok()? {
            AttributeValue::Str(s) => Some(s),
            _ => None,
        }
    }

    fn values(file: &File, path: &Path, name: &str) -> Result<Option<Vec<f64>>, PlotError> {
        match file.variable(name) {
            Some(v) => v.get_values::<f64, _>(..).map(Some).map_err(read_err(path)),
            None => Ok(None),
        }
    }

    impl Output {
        /// Open `paths` (one file, or the parts of a split series in order) as one output.
        pub fn open(paths: &[PathBuf]) -> Result<Output, PlotError> {
            let mut out: Option<Output> = None;
            for (part, path) in paths.iter().enumerate() {
                let one = read_one(path, part)?;
                match &mut out {
                    None => out = Some(one),
                    Some(o) => o.join(one, path)?,
                }
            }
            out.ok_or(PlotError::NoFiles)
        }

        fn join(&mut self, other: Output, path: &Path) -> Result<(), PlotError> {
            let differs = |what: &str| {
                not_simplets(
                    path,
                    format!(
                        "{what} differs from {}: not a part of the same series",
                        self.paths[0].display()
                    ),
                )
            };
            if other.case_name != self.case_name {
                return Err(differs("the case name"));
            }
            if (other.nx, other.ny) != (self.nx, self.ny)
                || other.x_c != self.x_c
                || other.y_c != self.y_c
            {
                return Err(differs("the grid"));
            }
            if other.fields != self.fields {
                return Err(differs("the set of fields"));
            }
            let names = |s: &Series| s.residuals.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
            if !other.series.step.is_empty()
                && !self.series.step.is_empty()
                && names(&other.series) != names(&self.series)
            {
                return Err(differs("the set of series"));
            }
            self.paths.extend(other.paths);
            self.snapshots.extend(other.snapshots);
            let (s, o) = (&mut self.series, other.series);
            if s.step.is_empty() {
                s.residuals = o.residuals;
            } else {
                for (r, or) in s.residuals.iter_mut().zip(o.residuals) {
                    r.2.extend(or.2);
                }
            }
            s.step.extend(o.step);
            s.time.extend(o.time);
            s.iterations.extend(o.iterations);
            Ok(())
        }

        /// The fields of one snapshot, on the centres.
        pub fn read_snapshot(&self, snap: &SnapshotRef) -> Result<Vec<Field>, PlotError> {
            let path = &self.paths[snap.part];
            let file = ::netcdf::open(path).map_err(read_err(path))?;
            let mut out = Vec::with_capacity(self.fields.len());
            for var in &self.fields {
                let v = file
                    .variable(&var.name)
                    .ok_or_else(|| not_simplets(path, format!("no variable {}", var.name)))?;
                let lx = self.nx + usize::from(var.x_face);
                let ly = self.ny + usize::from(var.y_face);
                let raw = v
                    .get_values::<f64, _>(([snap.index, 0, 0], [1, ly, lx]))
                    .map_err(read_err(path))?;
                out.push(Field {
                    var: var.clone(),
                    values: to_centres(&raw, var, self.nx, self.ny),
                });
            }
            Ok(out)
        }
    }

    fn read_one(path: &Path, part: usize) -> Result<Output, PlotError> {
        let file = ::netcdf::open(path).map_err(read_err(path))?;
        let case_json = global_str(&file, "case_json");
        let title = global_str(&file, "title").unwrap_or_default();
        if case_json.is_none() && !title.starts_with("simplets") {
            return Err(not_simplets(
                path,
                "no case_json attribute and no simplets title",
            ));
        }
        let case: serde_json::Value = case_json
            .as_deref()
            .and_then(|s| serde_json::from_str(s).ok())
            .unwrap_or(serde_json::Value::Null);
        let case_name = case["name"]
            .as_str()
            .map(str::to_string)
            .unwrap_or_else(|| title.trim_start_matches("simplets case ").to_string());
        let gamma = case["gas"]["gamma"].as_f64().unwrap_or(5.0 / 3.0);
        let time_dim = file
            .dimension("time")
            .ok_or_else(|| not_simplets(path, "no time dimension"))?;
        let nt = time_dim.len();

        // The centre grid: the dimensions of fluid_mask, else y_c and x_c.
        let (ydim, xdim) = match file.variable("fluid_mask") {
            Some(m) if m.dimensions().len() == 2 => {
                (m.dimensions()[0].name(), m.dimensions()[1].name())
            }
            _ => ("y_c".to_string(), "x_c".to_string()),
        };
        let dim_len = |name: &str| {
            file.dimension_len(name)
                .ok_or_else(|| not_simplets(path, format!("no dimension {name}")))
        };
        let (ny, nx) = (dim_len(&ydim)?, dim_len(&xdim)?);
        if nx == 0 || ny == 0 {
            return Err(not_simplets(path, "an empty grid"));
        }
        let coord = |dim: &str, n: usize| -> Result<Vec<f64>, PlotError> {
            match values(&file, path, dim)? {
                Some(v) if v.len() == n => Ok(v),
                _ => Ok((0..n).map(|k| k as f64 + 0.5).collect()),
            }
        };
        let (x_c, y_c) = (coord(&xdim, nx)?, coord(&ydim, ny)?);
        // Edges: a coordinate of length n + 1 on the same axis (x_f, y_f), else midpoints.
        let edges = |dim: &str, centres: &[f64]| -> Result<Vec<f64>, PlotError> {
            let axis = &dim[..1];
            for v in file.variables() {
                let d = v.dimensions();
                let name = v.name();
                if d.len() == 1
                    && d[0].name() == name
                    && name != dim
                    && name.starts_with(axis)
                    && d[0].len() == centres.len() + 1
                {
                    return v.get_values::<f64, _>(..).map_err(read_err(path));
                }
            }
            Ok(edges_from_centres(centres))
        };
        let (x_edges, y_edges) = (edges(&xdim, &x_c)?, edges(&ydim, &y_c)?);
        let solid = match values(&file, path, "fluid_mask")? {
            Some(m) if m.len() == nx * ny => m.iter().map(|&v| v == 0.0).collect(),
            _ => vec![false; nx * ny],
        };

        let time = values(&file, path, "time")?.unwrap_or_else(|| vec![f64::NAN; nt]);
        let step = values(&file, path, "step")?;
        let snapshots = (0..nt)
            .map(|k| SnapshotRef {
                part,
                index: k,
                step: step.as_ref().map_or(k as i64, |s| s[k] as i64),
                time: time.get(k).copied().unwrap_or(f64::NAN),
            })
            .collect();

        let mut fields = Vec::new();
        let mut series = Series::default();
        for v in file.variables() {
            let d = v.dimensions();
            let name = v.name();
            if d.len() == 3 && d[0].name() == "time" {
                let (ly, lx) = (d[1].len(), d[2].len());
                let y_ok = ly == ny || ly == ny + 1;
                let x_ok = lx == nx || lx == nx + 1;
                if !(y_ok && x_ok) {
                    log::debug!(
                        "{name}: dimensions {ly} × {lx} not on the {ny} × {nx} grid; skipped"
                    );
                    continue;
                }
                fields.push(FieldVar {
                    long_name: var_str(&v, "long_name").unwrap_or_else(|| name.clone()),
                    units: var_str(&v, "units").unwrap_or_default(),
                    x_face: lx == nx + 1,
                    y_face: ly == ny + 1,
                    name,
                });
            } else if d.len() == 1 && d[0].name() == "steps" {
                let vals = v.get_values::<f64, _>(..).map_err(read_err(path))?;
                match name.as_str() {
                    "series_step" => series.step = vals,
                    "series_time" => series.time = vals,
                    "series_iterations" => series.iterations = vals,
                    _ => {
                        let ln = var_str(&v, "long_name").unwrap_or_else(|| name.clone());
                        series.residuals.push((name, ln, vals));
                    }
                }
            }
        }
        if fields.is_empty() {
            return Err(not_simplets(path, "no field on (time, y, x)"));
        }
        let n = series.residuals.first().map_or(0, |r| r.2.len());
        if series.step.len() != n {
            series.step = (0..n).map(|k| k as f64 + 1.0).collect();
        }
        Ok(Output {
            paths: vec![path.to_path_buf()],
            case_name,
            method: global_str(&file, "method").unwrap_or_else(|| "SIMPLE-TS".into()),
            scheme: global_str(&file, "scheme").unwrap_or_default(),
            backend: global_str(&file, "backend").unwrap_or_default(),
            gamma,
            nx,
            ny,
            x_edges,
            y_edges,
            x_c,
            y_c,
            solid,
            snapshots,
            series,
            fields,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faces_average_to_centres() {
        let var = |x_face, y_face| FieldVar {
            name: "f".into(),
            long_name: String::new(),
            units: String::new(),
            x_face,
            y_face,
        };
        // 2 × 3 centres; on x-faces 2 × 4, on y-faces 3 × 3.
        let xf = [0.0, 2.0, 4.0, 6.0, 10.0, 12.0, 14.0, 16.0];
        assert_eq!(
            to_centres(&xf, &var(true, false), 3, 2),
            vec![1.0, 3.0, 5.0, 11.0, 13.0, 15.0]
        );
        let yf = [0.0, 1.0, 2.0, 2.0, 3.0, 4.0, 4.0, 5.0, 6.0];
        assert_eq!(
            to_centres(&yf, &var(false, true), 3, 2),
            vec![1.0, 2.0, 3.0, 3.0, 4.0, 5.0]
        );
        assert_eq!(
            edges_from_centres(&[0.5, 1.5, 3.0]),
            vec![0.0, 1.0, 2.25, 3.75]
        );
    }
}
