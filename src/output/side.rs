//! Per-step CSV files next to the NetCDF output, one per [`SideSpec`] of the method's layout
//! (SIMPLE-TS: `<stem>.forces.csv` and `<stem>.probes.csv`), written every `every` steps
//! (absolute step numbers; 0 turns a file off). The method computes the lines
//! ([`Solver::side_lines`](crate::solver::Solver::side_lines)); this module decides when a
//! file is due and streams its lines into `<file>.tmp`, renamed at the end.

use std::path::Path;

use super::csv::CsvWriter;
use crate::error::OutputError;
use crate::solver::SideSpec;

/// The CSV writers of one run segment, in the layout's order (`None`: turned off).
pub struct SideFiles {
    files: Vec<Option<(CsvWriter, u64)>>,
}

impl SideFiles {
    /// Create the CSV files `<stem>.<suffix>.csv` of `specs` in `out_dir` (refused if present
    /// unless `force`).
    pub fn create(
        specs: &[SideSpec],
        out_dir: &Path,
        force: bool,
        stem: &str,
    ) -> Result<SideFiles, OutputError> {
        let mut files = Vec::with_capacity(specs.len());
        for s in specs {
            files.push(if s.every == 0 {
                None
            } else {
                let path = out_dir.join(format!("{stem}.{}.csv", s.suffix));
                Some((CsvWriter::create(&path, force, s.header)?, s.every))
            });
        }
        Ok(SideFiles { files })
    }

    /// Which files are due at absolute step `step`.
    pub fn due(&self, step: u64) -> Vec<bool> {
        self.files
            .iter()
            .map(|f| f.as_ref().is_some_and(|(_, every)| step % every == 0))
            .collect()
    }

    /// Stream `lines[k]` into file k: written through to the temporary file before this
    /// returns (one write per file and step), so a run killed later keeps them.
    pub fn record(&mut self, lines: &[Vec<String>]) -> Result<(), OutputError> {
        for (file, lines) in self.files.iter_mut().zip(lines) {
            if let (Some((w, _)), false) = (file, lines.is_empty()) {
                for l in lines {
                    w.line(l)?;
                }
                w.flush()?;
            }
        }
        Ok(())
    }

    /// Flush and rename the files.
    pub fn finish(self) -> Result<(), OutputError> {
        for (w, _) in self.files.into_iter().flatten() {
            let p = w.finish()?;
            log::info!("wrote {}", p.display());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_due_on_their_cadence_and_stream_their_lines() {
        let dir = tempfile::tempdir().unwrap();
        let specs = [
            SideSpec {
                suffix: "a",
                header: "step,x",
                every: 2,
            },
            SideSpec {
                suffix: "b",
                header: "step,y",
                every: 0,
            },
            SideSpec {
                suffix: "c",
                header: "step,z",
                every: 3,
            },
        ];
        let mut s = SideFiles::create(&specs, dir.path(), false, "run").unwrap();
        assert_eq!(s.due(6), vec![true, false, true]);
        assert_eq!(s.due(4), vec![true, false, false]);
        s.record(&[vec!["6,1".into()], vec![], vec!["6,3".into()]])
            .unwrap();
        let read = |n: &str| std::fs::read_to_string(dir.path().join(n)).unwrap();
        // Streamed: the step is in the temporary file before the run ends.
        assert_eq!(read("run.a.csv.tmp"), "step,x\n6,1\n");
        s.finish().unwrap();
        assert_eq!(read("run.a.csv"), "step,x\n6,1\n");
        assert_eq!(read("run.c.csv"), "step,z\n6,3\n");
        assert!(!dir.path().join("run.b.csv").exists());
        assert!(matches!(
            SideFiles::create(&specs, dir.path(), false, "run"),
            Err(OutputError::Exists { .. })
        ));
    }
}
