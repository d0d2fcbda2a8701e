//! Reading a checkpoint: the header alone ([`read_header`], cheap), the checks against a
//! case and grid ([`check_header`]), and the whole state ([`load_checkpoint`]), each refusal
//! a one-line error.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use super::hash::{case_hash, differing_paths, fnv1a64, physics_value};
use super::{CheckpointHeader, FORMAT_VERSION, MAGIC, MAGIC_PREFIX, MAX_HEADER};
use crate::case::Common;
use crate::error::CheckpointError;
use crate::grid::Grid;
use crate::solver::Saved;

fn corrupt(path: &Path, detail: impl Into<String>) -> CheckpointError {
    CheckpointError::Corrupt {
        path: path.display().to_string(),
        detail: detail.into(),
    }
}

/// Parse the magic and header lines at the start of `bytes`; returns the header and the offset
/// of the payload.
fn parse_head(bytes: &[u8], path: &Path) -> Result<(CheckpointHeader, usize), CheckpointError> {
    let p = path.display().to_string();
    if !bytes.starts_with(MAGIC_PREFIX) {
        return Err(CheckpointError::NotACheckpoint { path: p });
    }
    let first = bytes.iter().position(|&b| b == b'\n');
    if first.map(|e| &bytes[..=e]) != Some(MAGIC) {
        let end = first.unwrap_or(bytes.len()).min(64);
        let found = String::from_utf8_lossy(&bytes[MAGIC_PREFIX.len()..end]).into_owned();
        return Err(CheckpointError::Version {
            path: p,
            found,
            supported: FORMAT_VERSION,
        });
    }
    let start = MAGIC.len();
    let end = bytes[start..]
        .iter()
        .position(|&b| b == b'\n')
        .map(|e| start + e)
        .ok_or_else(|| corrupt(path, "truncated in the header line"))?;
    let header: CheckpointHeader = serde_json::from_slice(&bytes[start..end])
        .map_err(|e| corrupt(path, format!("bad header line: {e}")))?;
    if header.format != FORMAT_VERSION {
        return Err(CheckpointError::Version {
            path: p,
            found: header.format.to_string(),
            supported: FORMAT_VERSION,
        });
    }
    let words = (header.cells as u64).checked_mul(header.arrays.len() as u64);
    if header.arrays.is_empty()
        || words.and_then(|w| w.checked_mul(8)).map(|b| b + 16) != Some(header.payload_bytes)
    {
        return Err(corrupt(
            path,
            "header arrays or payload size do not match the format",
        ));
    }
    Ok((header, end + 1))
}

/// Read only the magic and header lines of `path` (cheap; for checks before a solver exists).
pub fn read_header(path: &Path) -> Result<CheckpointHeader, CheckpointError> {
    let io = |e: std::io::Error| CheckpointError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    };
    let mut r = BufReader::new(std::fs::File::open(path).map_err(io)?);
    let mut head = Vec::new();
    (&mut r)
        .take(MAGIC.len() as u64)
        .read_until(b'\n', &mut head)
        .map_err(io)?;
    if head.as_slice() == MAGIC {
        r.take(MAX_HEADER)
            .read_until(b'\n', &mut head)
            .map_err(io)?;
    }
    parse_head(&head, path).map(|(h, _)| h)
}

/// Refuse a header written for another grid (`nx` × `ny` computed cells) or another case's
/// physics.
pub fn check_header(
    header: &CheckpointHeader,
    path: &Path,
    case: &Common,
    (nx, ny): (usize, usize),
) -> Result<(), CheckpointError> {
    let p = path.display().to_string();
    if (header.nx, header.ny) != (nx, ny) {
        return Err(CheckpointError::Grid {
            path: p,
            ckpt_nx: header.nx,
            ckpt_ny: header.ny,
            nx,
            ny,
        });
    }
    let hash = format!("{:016x}", case_hash(&case.json));
    if header.case_hash != hash {
        let mut differ = Vec::new();
        differing_paths(
            &physics_value(&header.case),
            &physics_value(&case.json),
            "",
            &mut differ,
        );
        let differs = match differ.len() {
            0 => "boundaries/gas/grid/bodies/scheme/solver".to_string(),
            n if n > 6 => format!("{} and {} more", differ[..6].join(", "), n - 6),
            _ => differ.join(", "),
        };
        return Err(CheckpointError::Case {
            path: p,
            ckpt_hash: header.case_hash.clone(),
            hash,
            differs,
        });
    }
    Ok(())
}

/// Load the state in `path` for `case` on `grid` with the arrays `names`, refusing a file of
/// another grid, case or method, a truncated file or a checksum mismatch.
pub fn load_checkpoint(
    path: &Path,
    case: &Common,
    grid: &Grid,
    names: &[String],
) -> Result<Saved, CheckpointError> {
    let bytes = std::fs::read(path).map_err(|e| CheckpointError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    let (header, off) = parse_head(&bytes, path)?;
    let expected = off as u64 + header.payload_bytes + 8;
    if bytes.len() as u64 != expected {
        let what = if (bytes.len() as u64) < expected {
            "truncated"
        } else {
            "trailing data"
        };
        return Err(corrupt(
            path,
            format!(
                "{what}: {} bytes, the header implies {expected}",
                bytes.len()
            ),
        ));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().expect("invariant: 8-byte tail"));
    let computed = fnv1a64(body);
    if stored != computed {
        return Err(corrupt(
            path,
            format!("checksum mismatch (stored {stored:016x}, computed {computed:016x})"),
        ));
    }
    check_header(&header, path, case, (grid.nx, grid.ny))?;
    if header.arrays != names || header.cells != grid.len() {
        return Err(corrupt(
            path,
            format!(
                "holds the arrays {:?} of {} cells, this run needs {names:?} of {}",
                header.arrays,
                header.cells,
                grid.len()
            ),
        ));
    }
    let mut words = body[off..]
        .chunks_exact(8)
        .map(|c| c.try_into().expect("invariant: 8-byte chunk"));
    let mut next = || words.next().expect("invariant: payload length checked");
    let step = u64::from_le_bytes(next());
    let time = f64::from_le_bytes(next());
    let arrays = (0..names.len())
        .map(|_| {
            (0..header.cells)
                .map(|_| f64::from_le_bytes(next()))
                .collect()
        })
        .collect();
    Ok(Saved { step, time, arrays })
}
