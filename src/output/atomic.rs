//! Atomic output files: write `<path>.tmp`, then rename it to `<path>`.
//!
//! A reader never sees a half-written file under the final name, and an existing output is
//! never replaced unless `force` is given. If the writer is dropped before [`AtomicFile::commit`]
//! (an error, a panic), the temporary file is removed.

use std::path::{Path, PathBuf};

use crate::error::OutputError;

/// The temporary name of `path`: `<path>.tmp`.
pub fn tmp_path_of(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(".tmp");
    PathBuf::from(s)
}

/// Fail with [`OutputError::NotAFile`] if `path` names anything but a regular file (or a
/// symbolic link), and with [`OutputError::Exists`] if it exists and `force` is false.
pub fn check_writable(path: &Path, force: bool) -> Result<(), OutputError> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.is_file() {
            return Err(OutputError::NotAFile {
                path: path.display().to_string(),
            });
        }
    }
    if !force && path.exists() {
        return Err(OutputError::Exists {
            path: path.display().to_string(),
        });
    }
    Ok(())
}

fn io_err(path: &Path, e: std::io::Error) -> OutputError {
    OutputError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// An output in progress: the caller writes [`AtomicFile::tmp_path`], then commits.
#[derive(Debug)]
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    force: bool,
    committed: bool,
}

impl AtomicFile {
    /// Reserve `path`: refuse if it exists (unless `force`), create its parent directory and
    /// remove a stale `<path>.tmp` left by an earlier crash.
    pub fn prepare(path: &Path, force: bool) -> Result<AtomicFile, OutputError> {
        check_writable(path, force)?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| io_err(dir, e))?;
        }
        let tmp = tmp_path_of(path);
        match std::fs::remove_file(&tmp) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(io_err(&tmp, e)),
            _ => {}
        }
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            force,
            committed: false,
        })
    }

    /// The final name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The temporary name to write to.
    pub fn tmp_path(&self) -> &Path {
        &self.tmp
    }

    /// Rename the temporary file to the final name (checking again that no file appeared there
    /// meanwhile unless `force`). Returns the final path.
    pub fn commit(mut self) -> Result<PathBuf, OutputError> {
        check_writable(&self.path, self.force)?;
        std::fs::rename(&self.tmp, &self.path).map_err(|e| io_err(&self.path, e))?;
        self.committed = true;
        Ok(self.path.clone())
    }
}

/// The name a file keeps when it could not be finished: `<stem>.partial.<ext>` (`a.nc` →
/// `a.partial.nc`, `a.forces.csv` → `a.forces.partial.csv`).
pub fn partial_path_of(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let partial = match name.rsplit_once('.') {
        Some((stem, ext)) => format!("{stem}.partial.{ext}"),
        None => format!("{name}.partial"),
    };
    path.with_file_name(partial)
}

impl AtomicFile {
    /// Keep what was written to the temporary file when it cannot be finished (a write failed,
    /// e.g. on a full disk): renamed to [`partial_path_of`] the final name, never to the final
    /// name itself, and never over an existing file (then the temporary file stays). Returns
    /// where it is, `None` if there is nothing to keep.
    pub fn keep_partial(mut self) -> Option<PathBuf> {
        if !self.tmp.exists() {
            return None;
        }
        // From here on the temporary file is never removed.
        self.committed = true;
        let partial = partial_path_of(&self.path);
        if partial.exists() || std::fs::rename(&self.tmp, &partial).is_err() {
            return Some(self.tmp.clone());
        }
        Some(partial)
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Write `bytes` to `path` atomically (for small text outputs such as manifests).
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<PathBuf, OutputError> {
    let f = AtomicFile::prepare(path, force)?;
    std::fs::write(f.tmp_path(), bytes).map_err(|e| io_err(f.tmp_path(), e))?;
    f.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_refuses_and_forces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/a.json");
        assert_eq!(write_atomic(&path, b"one", false).unwrap(), path);
        assert!(!tmp_path_of(&path).exists());
        let err = write_atomic(&path, b"two", false).unwrap_err();
        assert!(matches!(err, OutputError::Exists { .. }), "{err:?}");
        assert!(err.to_string().contains("--force"));
        assert_eq!(std::fs::read(&path).unwrap(), b"one");
        write_atomic(&path, b"three", true).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"three");
    }

    #[test]
    fn dropped_file_removes_tmp_and_keeps_old() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("b.nc");
        std::fs::write(&path, b"old").unwrap();
        let f = AtomicFile::prepare(&path, true).unwrap();
        std::fs::write(f.tmp_path(), b"partial").unwrap();
        drop(f);
        assert!(!tmp_path_of(&path).exists());
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
    }

    #[test]
    fn commit_refuses_a_file_that_appeared_meanwhile() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.nc");
        let f = AtomicFile::prepare(&path, false).unwrap();
        std::fs::write(f.tmp_path(), b"new").unwrap();
        std::fs::write(&path, b"other").unwrap();
        assert!(matches!(f.commit(), Err(OutputError::Exists { .. })));
        assert_eq!(std::fs::read(&path).unwrap(), b"other");
        assert!(!tmp_path_of(&path).exists());
    }
}
