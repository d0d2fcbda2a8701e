//! Line-by-line CSV output with the atomic-file rule: lines go to `<path>.tmp` as they are
//! produced (buffered), [`CsvWriter::finish`] flushes and renames it to `<path>`; dropping an
//! unfinished writer removes the temporary file. The existence check (`--force`) happens at
//! [`CsvWriter::create`], before the first step.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::atomic::AtomicFile;
use crate::error::OutputError;

/// A CSV file written line by line into its temporary name.
#[derive(Debug)]
pub struct CsvWriter {
    // Field order matters: the file is closed before `atomic` removes an unfinished tmp file.
    out: BufWriter<File>,
    atomic: AtomicFile,
}

fn io_err(path: &Path, e: std::io::Error) -> OutputError {
    OutputError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

impl CsvWriter {
    /// Create `<path>.tmp` and write the `header` line (column names, comma-separated).
    pub fn create(path: &Path, force: bool, header: &str) -> Result<CsvWriter, OutputError> {
        let atomic = AtomicFile::prepare(path, force)?;
        let file = File::create(atomic.tmp_path()).map_err(|e| io_err(atomic.tmp_path(), e))?;
        let mut w = CsvWriter {
            out: BufWriter::new(file),
            atomic,
        };
        w.line(header)?;
        Ok(w)
    }

    /// Append one line (without its newline).
    pub fn line(&mut self, text: &str) -> Result<(), OutputError> {
        writeln!(self.out, "{text}").map_err(|e| io_err(self.atomic.tmp_path(), e))
    }

    /// Flush, close and rename to the final name; returns that name.
    pub fn finish(self) -> Result<PathBuf, OutputError> {
        let CsvWriter { out, atomic } = self;
        let file = out
            .into_inner()
            .map_err(|e| io_err(atomic.tmp_path(), e.into_error()))?;
        file.sync_all().map_err(|e| io_err(atomic.tmp_path(), e))?;
        drop(file);
        atomic.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_appear_only_after_finish_and_existing_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        let mut w = CsvWriter::create(&p, false, "a,b").unwrap();
        w.line("1,2").unwrap();
        assert!(!p.exists());
        assert_eq!(w.finish().unwrap(), p);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a,b\n1,2\n");
        assert!(matches!(
            CsvWriter::create(&p, false, "a"),
            Err(OutputError::Exists { .. })
        ));
        let w = CsvWriter::create(&p, true, "c").unwrap();
        drop(w);
        assert!(!dir.path().join("a.csv.tmp").exists());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a,b\n1,2\n");
    }
}
