//! Room for the next write: a run checks it before each snapshot and checkpoint, so that a
//! filling disk stops the run while the files can still be closed cleanly. (A NetCDF-4 file
//! whose write fails half-way is usually unreadable afterwards: HDF5 rewrites its metadata at
//! close. Stopping one snapshot early keeps every snapshot written so far.)
//!
//! The room is the smaller of the free space of the file system holding the file (what an
//! unprivileged user may use, `statvfs` `f_bavail`) and what the file-size limit (`ulimit -f`)
//! leaves the file. Disk quotas are not visible here; a write that fails anyway still keeps
//! the unfinished file ([`AtomicFile::keep_partial`](super::atomic::AtomicFile::keep_partial)).

use std::path::Path;

use crate::error::OutputError;

/// Extra room asked for beyond the bytes to be written, at least: what HDF5 adds for metadata
/// and writes at close (tens of KiB for our files), with a margin. One eighth of the write is
/// added on top (chunk rounding).
pub const MARGIN_BYTES: u64 = 256 << 10;

/// Bytes the file `path` (existing or not, `size` bytes so far) may still grow by, and what
/// sets that; `None` where neither limit can be read.
pub fn room(path: &Path, size: u64) -> Option<(u64, &'static str)> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let disk = free_bytes(dir).map(|b| (b, "free space"));
    let limit =
        file_size_limit().map(|l| (l.saturating_sub(size), "the file-size limit (ulimit -f)"));
    match (disk, limit) {
        (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
        (a, b) => a.or(b),
    }
}

/// Refuse to write `bytes` more to `path` (now `size` bytes) when there is no room for them
/// and the margin ([`MARGIN_BYTES`] and an eighth of `bytes`): [`OutputError::NoSpace`] names
/// the file (`name`), the need and the room.
pub fn ensure(path: &Path, name: &Path, size: u64, bytes: u64) -> Result<(), OutputError> {
    let needed = bytes.saturating_add(bytes / 8).saturating_add(MARGIN_BYTES);
    match room(path, size) {
        Some((room, what)) if room < needed => Err(OutputError::NoSpace {
            path: name.display().to_string(),
            needed_bytes: needed,
            room_bytes: room,
            limit: what,
        }),
        _ => Ok(()),
    }
}

/// Free bytes for unprivileged users on the file system of `dir`.
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    // SAFETY: `c` is a valid NUL-terminated path, `st` a plain C struct statvfs fills in.
    unsafe {
        let mut st: libc::statvfs = std::mem::zeroed();
        if libc::statvfs(c.as_ptr(), &mut st) != 0 {
            return None;
        }
        Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
    }
}

/// The soft file-size limit in bytes (`None`: unlimited or unreadable).
fn file_size_limit() -> Option<u64> {
    // SAFETY: getrlimit fills in a plain C struct.
    unsafe {
        let mut r: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_FSIZE, &mut r) != 0 || r.rlim_cur == libc::RLIM_INFINITY {
            return None;
        }
        Some(r.rlim_cur as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_is_the_free_space_here_and_a_huge_write_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.nc");
        let (room, _) = room(&p, 0).expect("statvfs works on a temporary directory");
        assert!(room > 0);
        ensure(&p, &p, 0, 1).unwrap();
        let e = ensure(&p, &p, 0, u64::MAX / 4).unwrap_err();
        assert!(matches!(e, OutputError::NoSpace { .. }), "{e}");
        let msg = e.to_string();
        assert!(msg.contains("a.nc") && msg.contains("free space"), "{msg}");
    }
}
