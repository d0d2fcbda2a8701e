//! The `"grid"` section of a `bp_euler` case: an analytic generator (bump channel, wedge
//! duct, turbine cascade) or a grid file ([`super::gridfile`]).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::cascade::Cascade;
use super::grid::{NodeGrid, WEDGE_H, WEDGE_X0, WEDGE_X1};
use super::gridfile::{self, GridFile};
use crate::case::rules::{invalid, num};
use crate::error::ConfigError;

/// The grid generator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum BpGrid {
    /// The channel x ∈ [−1, 2], height 1, with a circular-arc bump of relative `thickness`
    /// on its lower wall over [0, 1] (0: a straight channel); ni × nj nodes.
    Bump {
        /// Nodes streamwise.
        ni: usize,
        /// Nodes across.
        nj: usize,
        /// Bump height / chord.
        thickness: f64,
    },
    /// The duct x ∈ [−0.5, 1], height 1.5, whose lower wall turns up by `angle` at x = 0
    /// ([`NodeGrid::wedge`]); ni × nj nodes.
    Wedge {
        /// Nodes streamwise.
        ni: usize,
        /// Nodes across.
        nj: usize,
        /// Wedge angle θ, degrees.
        angle: f64,
    },
    /// The turbine cascade H-grid with periodic sides ([`Cascade`]): one blade passage, axial
    /// chord 1, the leading edge at x = 0; ni × nj nodes.
    Cascade {
        /// Nodes streamwise.
        ni: usize,
        /// Nodes across the passage.
        nj: usize,
        /// Blade pitch, axial chords.
        pitch: f64,
        /// Inlet metal angle χ1 (camber line at the leading edge), degrees from the x axis.
        inlet_metal_angle: f64,
        /// Exit metal angle χ2, degrees.
        exit_metal_angle: f64,
        /// Largest pitchwise blade thickness, axial chords.
        thickness: f64,
    },
    /// Nodes and periodic pairs from a grid file ([`super::gridfile`]); `path` relative to
    /// the case file (resolved when the case is read).
    File {
        /// The grid file.
        path: String,
        /// The file's content, read when the case is.
        #[serde(skip)]
        data: Option<Arc<GridFile>>,
    },
}

impl BpGrid {
    /// (ni, nj) (of a file grid: the file's; (0, 0) before it is read).
    pub fn nodes(&self) -> (usize, usize) {
        match self {
            BpGrid::Bump { ni, nj, .. }
            | BpGrid::Wedge { ni, nj, .. }
            | BpGrid::Cascade { ni, nj, .. } => (*ni, *nj),
            BpGrid::File { data, .. } => data.as_ref().map_or((0, 0), |d| (d.ni, d.nj)),
        }
    }

    /// Read a file grid's file: `path` relative to the directory of `source` (the case
    /// file's path) becomes absolute, so a case written back out (the manifest, `--nx`)
    /// reads the same file from anywhere.
    pub fn load(&mut self, source: &str) -> Result<(), ConfigError> {
        let BpGrid::File { path, data } = self else {
            return Ok(());
        };
        let given = std::path::Path::new(path.as_str());
        let full = if given.is_absolute() {
            given.to_path_buf()
        } else {
            std::path::Path::new(source)
                .parent()
                .unwrap_or(std::path::Path::new(""))
                .join(given)
        };
        let shown = full.display().to_string();
        let abs = std::fs::canonicalize(&full)
            .map_err(|e| invalid("grid.path", &shown, format!("cannot read: {e}")))?;
        *data = Some(Arc::new(gridfile::load(&abs, &shown)?));
        *path = abs.display().to_string();
        Ok(())
    }

    /// The value rules of the generators (a file's are checked as it is read).
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (ni, nj) = self.nodes();
        if let BpGrid::File { data: None, .. } = self {
            return Err(invalid(
                "grid.path",
                "(not read)",
                "the grid file was not read",
            ));
        }
        if !(3..=100_000).contains(&ni) {
            return Err(invalid("grid.ni", ni, "must be in [3, 100000]"));
        }
        if !(4..=100_000).contains(&nj) {
            return Err(invalid(
                "grid.nj",
                nj,
                "must be in [4, 100000] (the wall smoothing reaches two nodes in)",
            ));
        }
        match *self {
            BpGrid::Bump { thickness, .. } => {
                if !(0.0..=0.3).contains(&thickness) {
                    return Err(invalid(
                        "grid.thickness",
                        num(thickness),
                        "must be in [0, 0.3]",
                    ));
                }
            }
            BpGrid::Wedge { angle, .. } => {
                if !(0.0..=30.0).contains(&angle) {
                    return Err(invalid(
                        "grid.angle",
                        num(angle),
                        "must be in [0, 30] degrees",
                    ));
                }
            }
            BpGrid::Cascade {
                pitch,
                inlet_metal_angle,
                exit_metal_angle,
                thickness,
                ..
            } => {
                if ni < 9 {
                    return Err(invalid(
                        "grid.ni",
                        ni,
                        "must be at least 9 for a cascade (cells upstream, on and downstream of the blade)",
                    ));
                }
                if !(pitch > 0.05 && pitch <= 10.0) {
                    return Err(invalid(
                        "grid.pitch",
                        num(pitch),
                        "must be in (0.05, 10] axial chords",
                    ));
                }
                for (name, a) in [
                    ("grid.inlet_metal_angle", inlet_metal_angle),
                    ("grid.exit_metal_angle", exit_metal_angle),
                ] {
                    if a.is_nan() || a.abs() >= 80.0 {
                        return Err(invalid(name, num(a), "must be in (-80, 80) degrees"));
                    }
                }
                if !(thickness >= 0.0 && thickness < 0.8 * pitch) {
                    return Err(invalid(
                        "grid.thickness",
                        num(thickness),
                        format!("must be in [0, 0.8·pitch = {}) axial chords", 0.8 * pitch),
                    ));
                }
            }
            BpGrid::File { .. } => {}
        }
        Ok(())
    }

    /// The node grid.
    pub fn node_grid(&self) -> NodeGrid {
        match self {
            BpGrid::Bump { ni, nj, thickness } => NodeGrid::bump(*ni, *nj, *thickness),
            BpGrid::Wedge { ni, nj, angle } => NodeGrid::wedge(*ni, *nj, angle.to_radians()),
            BpGrid::Cascade { .. } => self.cascade().expect("a cascade").grid(),
            BpGrid::File { data, .. } => data.as_ref().expect("the grid file is read").grid(),
        }
    }

    /// The cascade's geometry (angles in radians).
    pub fn cascade(&self) -> Option<Cascade> {
        match *self {
            BpGrid::Cascade {
                ni,
                nj,
                pitch,
                inlet_metal_angle,
                exit_metal_angle,
                thickness,
            } => Some(Cascade {
                ni,
                nj,
                pitch,
                chi1: inlet_metal_angle.to_radians(),
                chi2: exit_metal_angle.to_radians(),
                thickness,
            }),
            _ => None,
        }
    }

    /// The bounding box of the nodes ([x0, x1], [y0, y1]).
    pub fn bbox(&self) -> ([f64; 2], [f64; 2]) {
        match self {
            BpGrid::Bump { .. } => ([-1.0, 2.0], [0.0, 1.0]),
            BpGrid::Wedge { .. } => ([WEDGE_X0, WEDGE_X1], [0.0, WEDGE_H]),
            BpGrid::Cascade { .. } | BpGrid::File { .. } => self.node_grid().bbox(),
        }
    }

    /// Resize a generated grid (command-line `--nx`, `--ny`); a file's grid cannot be.
    pub fn resize(&mut self, n_i: Option<usize>, n_j: Option<usize>) -> Result<(), ConfigError> {
        let (ni, nj) = match self {
            BpGrid::Bump { ni, nj, .. }
            | BpGrid::Wedge { ni, nj, .. }
            | BpGrid::Cascade { ni, nj, .. } => (ni, nj),
            BpGrid::File { .. } => {
                if n_i.is_some() || n_j.is_some() {
                    return Err(invalid(
                        "grid.kind",
                        "file",
                        "--nx/--ny cannot resize a grid read from a file",
                    ));
                }
                return Ok(());
            }
        };
        if let Some(n) = n_i {
            *ni = n;
        }
        if let Some(n) = n_j {
            *nj = n;
        }
        Ok(())
    }
}
