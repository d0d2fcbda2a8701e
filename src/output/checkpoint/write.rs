//! Writing a checkpoint ([`write_checkpoint`]): magic, header, payload and checksum through a
//! hashing writer into a temporary file, fsync, rename, then rotation.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::files::{checkpoint_path, rotate};
use super::hash::{case_hash, Fnv1a};
use super::{CheckpointHeader, FORMAT_VERSION, MAGIC};
use crate::case::Common;
use crate::error::OutputError;
use crate::grid::Grid;
use crate::output::atomic::AtomicFile;
use crate::solver::Saved;

/// A writer that hashes what passes through.
struct Hashing<W: Write> {
    inner: W,
    hash: Fnv1a,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hash.update(&buf[..n]);
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Write the state `saved` (arrays named `names`) of `case` on `grid` to
/// `<out_dir>/<name>.ckpt-<step>` atomically (replacing a file of the same step), then
/// [`rotate`]. `nc_part` is recorded in the header ([`CheckpointHeader::nc_part`]). Returns the
/// checkpoint's path.
pub fn write_checkpoint(
    out_dir: &Path,
    case: &Common,
    grid: &Grid,
    saved: &Saved,
    names: &[String],
    nc_part: Option<u32>,
) -> Result<PathBuf, OutputError> {
    let path = checkpoint_path(out_dir, &case.name, saved.step);
    let cells = grid.len();
    assert!(
        saved.arrays.len() == names.len() && saved.arrays.iter().all(|a| a.len() == cells),
        "a saved state has one padded array per name"
    );
    let header = CheckpointHeader {
        format: FORMAT_VERSION,
        simplets_version: env!("CARGO_PKG_VERSION").to_string(),
        step: saved.step,
        time: saved.time,
        scheme: case.scheme.clone(),
        nx: grid.nx,
        ny: grid.ny,
        cells,
        case_hash: format!("{:016x}", case_hash(&case.json)),
        arrays: names.to_vec(),
        payload_bytes: 16 + 8 * (cells * names.len()) as u64,
        case: case.json.clone(),
        nc_part,
    };
    // A checkpoint that cannot be completed is not started (the older ones stay).
    crate::output::space::ensure(&path, &path, 0, header.payload_bytes + (1 << 16))?;
    let atomic = AtomicFile::prepare(&path, true)?;
    let io = |e: std::io::Error| OutputError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let file = std::fs::File::create(atomic.tmp_path()).map_err(io)?;
    let mut w = Hashing {
        inner: BufWriter::with_capacity(1 << 20, file),
        hash: Fnv1a::default(),
    };
    let line = serde_json::to_string(&header).expect("invariant: the header serialises");
    w.write_all(MAGIC).map_err(io)?;
    w.write_all(line.as_bytes()).map_err(io)?;
    w.write_all(b"\n").map_err(io)?;
    w.write_all(&saved.step.to_le_bytes()).map_err(io)?;
    w.write_all(&saved.time.to_le_bytes()).map_err(io)?;
    for a in &saved.arrays {
        for x in a {
            w.write_all(&x.to_le_bytes()).map_err(io)?;
        }
    }
    let sum = w.hash.value();
    let mut inner = w.inner;
    inner.write_all(&sum.to_le_bytes()).map_err(io)?;
    let file = inner.into_inner().map_err(|e| io(e.into_error()))?;
    file.sync_all().map_err(io)?;
    drop(file);
    let path = atomic.commit()?;
    match rotate(out_dir, &case.name, saved.step) {
        Ok(removed) => {
            for p in removed {
                log::debug!("removed old checkpoint {}", p.display());
            }
        }
        Err(e) => log::warn!("could not remove an old checkpoint: {e}"),
    }
    Ok(path)
}
