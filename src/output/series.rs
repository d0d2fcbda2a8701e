//! The NetCDF time series of a run: one file, or split into numbered parts for long runs.
//!
//! With `output.snapshots_per_file = N` (or `--split-every N`) snapshots go to
//! `<name>.0001.nc`, `<name>.0002.nc`, … with at most N snapshots each. Every part is a
//! complete CF file (coordinates, attributes, the fluid mask, global attribute `part`), written
//! as `.tmp` and renamed as soon as it holds N snapshots, so finished parts can be read while
//! the run goes on. A part's per-step series (`steps` dimension) holds the steps after the
//! previous part's last snapshot up to its own last one (the first part: from the run's first
//! step), so the parts together hold every snapshot and every series entry once, in order.
//!
//! A restarted run continues the numbering instead of writing a `.s<step>` segment: the
//! checkpoint records the part that held its newest snapshot (`nc_part`); the restart writes
//! the next part, or that part itself if it was never finished (a run killed without a
//! checkpoint at exit). Its first snapshot is the restart state, as for segments.
//!
//! Overwrite rules: without `force`, the run is refused before the first step if any part it
//! could write (its first part number or a later one) exists. With `force`, parts are replaced
//! as they are renamed, and at the end every part of the name numbered after the last one
//! written (left from an earlier, longer run) is removed, so the set on disk is consistent.

use std::path::{Path, PathBuf};

use super::NcWriter;
use crate::case::Common;
use crate::error::OutputError;
use crate::solver::{Layout, Snapshot, StepReport};

pub use crate::case::MAX_PARTS;

/// `<out_dir>/<name>.<part:04>.nc`.
pub fn part_path(out_dir: &Path, case_name: &str, part: u32) -> PathBuf {
    out_dir.join(format!("{case_name}.{part:04}.nc"))
}

/// The parts `<name>.<digits>.nc` in `out_dir`, by increasing number.
pub fn list_parts(out_dir: &Path, case_name: &str) -> Vec<(u32, PathBuf)> {
    let prefix = format!("{case_name}.");
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(out_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let num = name.strip_prefix(&prefix)?.strip_suffix(".nc")?;
            if num.len() < 4 || !num.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((num.parse().ok()?, e.path()))
        })
        .collect();
    found.sort();
    found
}

/// Where the NetCDF output of a run (segment) goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NcLayout {
    /// One file.
    Single(PathBuf),
    /// Numbered parts of `name` in `dir`, from `first` on, at most `per_file` snapshots each.
    Split {
        /// Output directory.
        dir: PathBuf,
        /// Case name (the parts' stem).
        name: String,
        /// Number of the first part this run writes.
        first: u32,
        /// Snapshots per part (≥ 1).
        per_file: u64,
    },
}

impl NcLayout {
    /// The layout of a run of `case_name` into `out_dir` with `per_file` snapshots per file
    /// (0: one file). `restart` is the checkpoint's step and recorded part
    /// ([`CheckpointHeader::nc_part`](super::checkpoint::CheckpointHeader::nc_part)); a
    /// single file is then the segment `<name>.s<step>.nc`. A split restart continues after
    /// the recorded part if that part exists, else writes it; without a record (a checkpoint
    /// of single-file output) it continues after the highest part on disk.
    pub fn new(
        out_dir: &Path,
        case_name: &str,
        restart: Option<(u64, Option<u32>)>,
        per_file: u64,
    ) -> NcLayout {
        if per_file == 0 {
            let step = restart.map(|r| r.0);
            return NcLayout::Single(super::segment_output_path(out_dir, case_name, step));
        }
        let first = match restart {
            None => 1,
            Some((_, Some(p))) if !part_path(out_dir, case_name, p).exists() => p,
            Some((_, Some(p))) => p + 1,
            Some((_, None)) => list_parts(out_dir, case_name).last().map_or(1, |l| l.0 + 1),
        };
        NcLayout::Split {
            dir: out_dir.to_path_buf(),
            name: case_name.to_string(),
            first,
            per_file,
        }
    }

    /// The first file the run writes.
    pub fn first_path(&self) -> PathBuf {
        match self {
            NcLayout::Single(p) => p.clone(),
            NcLayout::Split {
                dir, name, first, ..
            } => part_path(dir, name, *first),
        }
    }

    /// Refuse, unless `force`, if a file the run could write exists: the single file, or any
    /// part numbered from the first one on.
    pub fn check_writable(&self, force: bool) -> Result<(), OutputError> {
        match self {
            NcLayout::Single(p) => super::atomic::check_writable(p, force),
            NcLayout::Split {
                dir, name, first, ..
            } => match list_parts(dir, name).into_iter().find(|p| p.0 >= *first) {
                Some((_, path)) if !force => Err(OutputError::Exists {
                    path: path.display().to_string(),
                }),
                _ => Ok(()),
            },
        }
    }
}

/// Writes the snapshots and per-step series of a run into its [`NcLayout`].
pub struct NcSeries<'a> {
    files: NcLayout,
    force: bool,
    case: &'a Common,
    layout: &'a Layout,
    backend: String,
    /// The open part (or the single file).
    open: Option<NcWriter>,
    /// Number of the next part to open.
    next: u32,
    /// Files finished so far.
    done: Vec<PathBuf>,
    snapshots: usize,
    last_step: Option<u64>,
    last_part: Option<u32>,
}

impl<'a> NcSeries<'a> {
    /// Check the overwrite rules and open the first file.
    pub fn create(
        files: NcLayout,
        force: bool,
        case: &'a Common,
        layout: &'a Layout,
        backend: &str,
    ) -> Result<NcSeries<'a>, OutputError> {
        files.check_writable(force)?;
        let next = match &files {
            NcLayout::Single(_) => 0,
            NcLayout::Split { first, .. } => *first,
        };
        let mut s = NcSeries {
            files,
            force,
            case,
            layout,
            backend: backend.to_string(),
            open: None,
            next,
            done: Vec::new(),
            snapshots: 0,
            last_step: None,
            last_part: None,
        };
        s.writer()?;
        Ok(s)
    }

    /// The open file, opening the next part if none is open.
    fn writer(&mut self) -> Result<&mut NcWriter, OutputError> {
        if self.open.is_none() {
            let (path, part) = match &self.files {
                NcLayout::Single(p) => (p.clone(), None),
                NcLayout::Split { dir, name, .. } => {
                    (part_path(dir, name, self.next), Some(self.next))
                }
            };
            let mut w = NcWriter::create(&path, self.force, self.case, self.layout, &self.backend)?;
            if let Some(p) = part {
                w.set_part(p)?;
                log::debug!("writing part {}", path.display());
            }
            self.open = Some(w);
        }
        Ok(self
            .open
            .as_mut()
            .expect("invariant: a file was just opened"))
    }

    /// Append a snapshot; a part that is full afterwards is finished.
    pub fn append(&mut self, s: &Snapshot, iterations: u32) -> Result<(), OutputError> {
        let w = self.writer()?;
        w.append(s, iterations)?;
        let in_file = w.snapshots() as u64;
        self.snapshots += 1;
        self.last_step = Some(s.step);
        if let NcLayout::Split { per_file, .. } = self.files {
            self.last_part = Some(self.next);
            if in_file >= per_file {
                self.close()?;
            }
        }
        Ok(())
    }

    /// Append one per-step series entry (to the open part, opening the next one if needed).
    pub fn append_step(
        &mut self,
        step: u64,
        time: f64,
        rep: &StepReport,
    ) -> Result<(), OutputError> {
        self.writer()?.append_step(step, time, rep)
    }

    /// Finish the open file under its final name.
    fn close(&mut self) -> Result<(), OutputError> {
        if let Some(w) = self.open.take() {
            let path = w.finish()?;
            log::info!("wrote {}", path.display());
            self.done.push(path);
            self.next += 1;
        }
        Ok(())
    }

    /// Snapshots written so far (all parts).
    pub fn snapshots(&self) -> usize {
        self.snapshots
    }

    /// Step of the newest snapshot.
    pub fn last_step(&self) -> Option<u64> {
        self.last_step
    }

    /// The part holding the newest snapshot (split output only), for the checkpoint header.
    pub fn last_part(&self) -> Option<u32> {
        self.last_part
    }

    /// Finish the open file; returns every file written, in order. With `force`, parts of the
    /// name numbered after the last one written are removed (left by an earlier run).
    pub fn finish(mut self) -> Result<Vec<PathBuf>, OutputError> {
        self.close()?;
        if let (true, NcLayout::Split { dir, name, .. }) = (self.force, &self.files) {
            for (num, path) in list_parts(dir, name) {
                if num >= self.next {
                    std::fs::remove_file(&path).map_err(|e| OutputError::Io {
                        path: path.display().to_string(),
                        message: e.to_string(),
                    })?;
                    log::info!("removed {} (left by an earlier run)", path.display());
                }
            }
        }
        Ok(self.done)
    }
}

#[cfg(all(test, feature = "netcdf"))]
mod tests {
    use super::*;

    #[test]
    fn parts_are_numbered_and_listed_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        assert_eq!(part_path(d, "a", 7), d.join("a.0007.nc"));
        for n in [
            "a.0002.nc",
            "a.0010.nc",
            "a.0001.nc",
            "a.nc",
            "a.s4.nc",
            "ab.0003.nc",
        ] {
            std::fs::write(d.join(n), b"").unwrap();
        }
        let nums: Vec<u32> = list_parts(d, "a").into_iter().map(|p| p.0).collect();
        assert_eq!(nums, vec![1, 2, 10]);
    }

    #[test]
    fn a_restart_continues_after_the_recorded_part() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let first = |r| match NcLayout::new(d, "a", r, 5) {
            NcLayout::Split { first, .. } => first,
            other => panic!("{other:?}"),
        };
        assert_eq!(first(None), 1);
        // Part 2 was never finished (killed): the restart writes it.
        assert_eq!(first(Some((40, Some(2)))), 2);
        std::fs::write(d.join("a.0002.nc"), b"").unwrap();
        assert_eq!(first(Some((40, Some(2)))), 3);
        // No record: after the highest part on disk.
        assert_eq!(first(Some((40, None))), 3);
        assert_eq!(
            NcLayout::new(d, "a", Some((40, Some(2))), 0),
            NcLayout::Single(d.join("a.s40.nc"))
        );
        // Refused without force if the first part or a later one exists.
        std::fs::write(d.join("a.0004.nc"), b"").unwrap();
        let l = NcLayout::new(d, "a", Some((40, Some(2))), 5);
        assert!(
            matches!(l.check_writable(false), Err(OutputError::Exists { path }) if path.ends_with("a.0004.nc"))
        );
        l.check_writable(true).unwrap();
        let l = NcLayout::new(d, "a", Some((90, Some(4))), 5);
        l.check_writable(false).unwrap();
    }
}
