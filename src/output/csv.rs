//! Line-by-line CSV output with the atomic-file rule: lines go to `<path>.tmp` as they are
//! produced (buffered until [`CsvWriter::flush`], which the run calls after every step that
//! wrote lines, so a killed run leaves every finished step in the temporary file),
//! [`CsvWriter::finish`] flushes and renames it to `<path>`; dropping an
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

    /// Hand the lines written so far to the operating system (a process killed later loses
    /// none of them).
    pub fn flush(&mut self) -> Result<(), OutputError> {
        self.out
            .flush()
            .map_err(|e| io_err(self.atomic.tmp_path(), e))
    }

    /// Flush, close and rename to the final name; returns that name.
    pub fn finish(self) -> Result<PathBuf, OutputError> {
        let CsvWriter { out, atomic } = self;
        let tmp = atomic.tmp_path().to_path_buf();
        let done = out
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|file| file.sync_all());
        match done {
            Ok(()) => atomic.commit(),
            // Every step flushed before is in the file: keep it under the partial name.
            Err(e) => Err(match atomic.keep_partial() {
                Some(kept) => OutputError::Partial {
                    message: io_err(&tmp, e).to_string(),
                    kept: kept.display().to_string(),
                },
                None => io_err(&tmp, e),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flushed_lines_are_in_the_tmp_file_and_existing_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.csv");
        let mut w = CsvWriter::create(&p, false, "a,b").unwrap();
        w.line("1,2").unwrap();
        w.flush().unwrap();
        let tmp = dir.path().join("a.csv.tmp");
        assert_eq!(std::fs::read_to_string(&tmp).unwrap(), "a,b\n1,2\n");
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
