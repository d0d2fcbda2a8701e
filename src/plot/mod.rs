//! `simplets plot`: PNG pictures of a NetCDF output, drawn in Rust with plotters (no Python).
//!
//! For the chosen snapshot (default: the last) one picture per 2D field found in the file
//! (every variable on `(time, y, x)`, face-located ones averaged to the cell centres), plus
//! the Mach number with streamlines when `u`, `v` and `T` exist; and, independent of the
//! snapshot, the per-step series (residuals and loop-2 iterations), and the force
//! coefficients and probes over time from `<stem>.forces.csv` / `<stem>.probes.csv` when
//! those files lie next to the output. The file is read generically: the layout is whatever
//! the writer put there (`src/io/netcdf.rs` for SIMPLE-TS), so new methods and fields are
//! plotted without changes here.
//!
//! Pictures are written next to the (first) file as `<stem>.<what>.png`, each via
//! `<path>.tmp` and rename ([`crate::output::atomic`]); an existing PNG is refused unless
//! `force`. With an explicit snapshot the field pictures are named
//! `<stem>.<what>.step<STEP>.png` and the series (which do not depend on the snapshot) are
//! left out unless named in [`PlotOptions::only`].
//!
//! Several paths are joined into one output (the parts `<name>.0001.nc`, `<name>.0002.nc`,
//! … of a split series, sorted by name): snapshot indices count over the joined set and
//! the series are concatenated.
//!
//! Reading needs the `netcdf` feature; without it [`plot`] fails with
//! [`PlotError::NoNetCdf`]. The drawing code is always compiled (and type-checked), but
//! unused without the reader.
#![cfg_attr(not(feature = "netcdf"), allow(dead_code))]

mod colour;
mod csv;
mod data;
mod draw;
mod font;
mod stream;

use std::path::{Path, PathBuf};

pub use colour::ColourMap;
pub use data::{Field, FieldVar, Output, Series, SnapshotRef};
pub use draw::{field_image_size, field_plot_area, series_image_size, FIELD_WIDTH, SERIES_WIDTH};
pub use stream::streamlines;

/// What to plot and where.
#[derive(Debug, Clone, Default)]
pub struct PlotOptions {
    /// Snapshot index over the (joined) output; negative counts from the end (-1: the last).
    /// `None`: the last, and the pictures carry no step in their names.
    pub snapshot: Option<i64>,
    /// Folder of the PNGs (default: the folder of the first file).
    pub out_dir: Option<PathBuf>,
    /// Only these pictures (field names, `mach`, `residuals`, `forces`, `probes`);
    /// `None`: all that apply.
    pub only: Option<Vec<String>>,
    /// Replace existing PNGs.
    pub force: bool,
}

/// A failed `plot`. [`PlotError::is_input`] tells bad input (exit status 2) from a write
/// failure (exit status 1).
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// No file given.
    #[error("no output file given (simplets plot OUT.nc [OUT.0002.nc …])")]
    NoFiles,
    /// A file does not exist.
    #[error("{path}: no such file")]
    Missing {
        /// The path as given.
        path: String,
    },
    /// A file could not be opened or read as NetCDF.
    #[error("{path}: cannot read as NetCDF: {message}")]
    Read {
        /// The file.
        path: String,
        /// The library's message.
        message: String,
    },
    /// A NetCDF file that is not a simplets output, or parts that do not belong together.
    #[error("{path}: not a simplets output: {reason}")]
    NotSimplets {
        /// The file.
        path: String,
        /// What is missing or inconsistent.
        reason: String,
    },
    /// The snapshot index is outside the file (or the joined set).
    #[error("snapshot {index} out of range: {what} holds {count} snapshot(s) (0 to {last}, or -{count} to -1)", last = .count.saturating_sub(1))]
    Snapshot {
        /// The index asked for.
        index: i64,
        /// Snapshots there are.
        count: usize,
        /// The file or set.
        what: String,
    },
    /// `--only` names a picture that this output cannot give.
    #[error("unknown plot {name:?} (this output gives: {known})")]
    UnknownPlot {
        /// The name asked for.
        name: String,
        /// The names available.
        known: String,
    },
    /// A forces or probes CSV next to the file is malformed.
    #[error("{path}: {message}")]
    Csv {
        /// The CSV file.
        path: String,
        /// What is wrong, with the line number.
        message: String,
    },
    /// A PNG exists and `force` is not set.
    #[error("{path} exists; use --force to replace it")]
    Exists {
        /// The PNG.
        path: String,
    },
    /// Built without the `netcdf` feature.
    #[error("this simplets was built without the `netcdf` feature and cannot read NetCDF; rebuild with default features or --features static-netcdf")]
    NoNetCdf,
    /// Drawing or writing a PNG failed.
    #[error("cannot write {path}: {message}")]
    Write {
        /// The PNG.
        path: String,
        /// What failed.
        message: String,
    },
}

impl PlotError {
    /// Bad input (a missing or foreign file, a bad index, an existing PNG): exit status 2.
    /// Only [`PlotError::Write`] is a failure of the command itself (exit status 1).
    pub fn is_input(&self) -> bool {
        !matches!(self, PlotError::Write { .. })
    }
}

/// `<name>` of `<dir>/<name>.nc` or of a part `<dir>/<name>.0001.nc` (four or more digits).
pub fn output_stem(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name.strip_suffix(".nc").unwrap_or(&name);
    match stem.rsplit_once('.') {
        Some((head, num))
            if !head.is_empty() && num.len() >= 4 && num.bytes().all(|b| b.is_ascii_digit()) =>
        {
            head.to_string()
        }
        _ => stem.to_string(),
    }
}

/// Write the PNGs of the output `paths` (one file, or the parts of a split series) and
/// return their paths, in the order: fields, Mach, residuals, forces, probes.
pub fn plot(paths: &[PathBuf], opts: &PlotOptions) -> Result<Vec<PathBuf>, PlotError> {
    if paths.is_empty() {
        return Err(PlotError::NoFiles);
    }
    for p in paths {
        if !p.is_file() {
            return Err(PlotError::Missing {
                path: p.display().to_string(),
            });
        }
    }
    plot_files(paths, opts)
}

#[cfg(not(feature = "netcdf"))]
fn plot_files(_paths: &[PathBuf], _opts: &PlotOptions) -> Result<Vec<PathBuf>, PlotError> {
    Err(PlotError::NoNetCdf)
}

#[cfg(feature = "netcdf")]
fn plot_files(paths: &[PathBuf], opts: &PlotOptions) -> Result<Vec<PathBuf>, PlotError> {
    use rayon::prelude::*;

    let mut sorted = paths.to_vec();
    sorted.sort();
    sorted.dedup();
    let out = Output::open(&sorted)?;
    let count = out.snapshots.len();
    let what = if sorted.len() == 1 {
        sorted[0].display().to_string()
    } else {
        format!("the {} files joined", sorted.len())
    };
    let index = opts.snapshot.unwrap_or(-1);
    let k = resolve_index(index, count).ok_or_else(|| PlotError::Snapshot {
        index,
        count,
        what: what.clone(),
    })?;
    let snap = out.snapshots[k].clone();

    let first = &sorted[0];
    let src_dir = first
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let out_dir = opts.out_dir.clone().unwrap_or_else(|| src_dir.clone());
    let stem = output_stem(first);
    let forces_csv = src_dir.join(format!("{stem}.forces.csv"));
    let probes_csv = src_dir.join(format!("{stem}.probes.csv"));

    // What this output can give, in order.
    let has = |n: &str| out.fields.iter().any(|f| f.name == n);
    let mut fields: Vec<String> = out.fields.iter().map(|f| f.name.clone()).collect();
    if has("u") && has("v") && has("T") {
        fields.push("mach".into());
    }
    let mut series: Vec<&str> = Vec::new();
    if !out.series.step.is_empty() {
        series.push("residuals");
    }
    if forces_csv.is_file() {
        series.push("forces");
    }
    if probes_csv.is_file() {
        series.push("probes");
    }
    let (fields, series): (Vec<String>, Vec<&str>) = match &opts.only {
        Some(only) => {
            let known: Vec<&str> = fields
                .iter()
                .map(String::as_str)
                .chain(series.iter().copied())
                .collect();
            for name in only {
                if !known.contains(&name.as_str()) {
                    return Err(PlotError::UnknownPlot {
                        name: name.clone(),
                        known: known.join(", "),
                    });
                }
            }
            (
                fields.into_iter().filter(|f| only.contains(f)).collect(),
                series
                    .into_iter()
                    .filter(|s| only.iter().any(|o| o == s))
                    .collect(),
            )
        }
        None if opts.snapshot.is_some() => (fields, Vec::new()),
        None => (fields, series),
    };
    let tag = match opts.snapshot {
        Some(_) => format!(".step{}", snap.step),
        None => String::new(),
    };
    let png = |what: &str, tag: &str| out_dir.join(format!("{stem}.{what}{tag}.png"));

    // Refuse before drawing anything.
    let targets: Vec<PathBuf> = fields
        .iter()
        .map(|f| png(f, &tag))
        .chain(series.iter().map(|s| png(s, "")))
        .collect();
    for t in &targets {
        if !opts.force && t.exists() {
            return Err(PlotError::Exists {
                path: t.display().to_string(),
            });
        }
    }
    // Read what is drawn before anything is written, so bad input writes nothing.
    let values = if fields.is_empty() {
        Vec::new()
    } else {
        out.read_snapshot(&snap)?
    };
    let forces = match series.contains(&"forces") {
        true => Some(csv::Table::read(&forces_csv)?),
        false => None,
    };
    let probes = match series.contains(&"probes") {
        true => Some(csv::Table::read(&probes_csv)?),
        false => None,
    };
    std::fs::create_dir_all(&out_dir).map_err(|e| PlotError::Write {
        path: out_dir.display().to_string(),
        message: e.to_string(),
    })?;
    font::register();

    let mut jobs: Vec<Job> = fields
        .iter()
        .map(|f| Job::Field(f.clone(), png(f, &tag)))
        .collect();
    for s in &series {
        let path = png(s, "");
        jobs.push(match *s {
            "residuals" => Job::Residuals(path),
            "forces" => Job::Csv(path, "forces"),
            _ => Job::Csv(path, "probes"),
        });
    }
    let ctx = draw::Context::new(&out, &snap, &values);
    jobs.par_iter()
        .map(|job| {
            let (path, image) = match job {
                Job::Field(name, path) => (path, draw::field_picture(&ctx, name)),
                Job::Residuals(path) => (path, draw::residuals_picture(&out)),
                Job::Csv(path, "forces") => (
                    path,
                    draw::table_picture(&out, forces.as_ref().expect("read above"), true),
                ),
                Job::Csv(path, _) => (
                    path,
                    draw::table_picture(&out, probes.as_ref().expect("read above"), false),
                ),
            };
            let write_err = |message: String| PlotError::Write {
                path: path.display().to_string(),
                message,
            };
            let image = image.map_err(write_err)?;
            image.save(path, opts.force).map_err(write_err)?;
            Ok(path.clone())
        })
        .collect()
}

#[cfg(feature = "netcdf")]
enum Job {
    Field(String, PathBuf),
    Residuals(PathBuf),
    Csv(PathBuf, &'static str),
}

/// The index into `count` snapshots of `index` (negative: from the end).
pub fn resolve_index(index: i64, count: usize) -> Option<usize> {
    let n = i64::try_from(count).ok()?;
    let k = if index < 0 { n + index } else { index };
    (0..n).contains(&k).then_some(k as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_of_files_and_parts() {
        assert_eq!(output_stem(Path::new("out/default.nc")), "default");
        assert_eq!(output_stem(Path::new("out/default.0002.nc")), "default");
        assert_eq!(output_stem(Path::new("default.s400.nc")), "default.s400");
        assert_eq!(output_stem(Path::new("a.12.nc")), "a.12");
    }

    #[test]
    fn snapshot_indices_count_from_either_end() {
        assert_eq!(resolve_index(-1, 5), Some(4));
        assert_eq!(resolve_index(0, 5), Some(0));
        assert_eq!(resolve_index(-5, 5), Some(0));
        assert_eq!(resolve_index(5, 5), None);
        assert_eq!(resolve_index(-6, 5), None);
        assert_eq!(resolve_index(-1, 0), None);
    }
}
