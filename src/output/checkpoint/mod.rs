//! Restart checkpoints: the complete state of a run ([`Saved`]: the named arrays of the
//! method's [`Layout::saved`](crate::solver::Layout::saved)) in one binary file,
//! `<out>/<name>.ckpt-<step>`.
//!
//! Layout (all numbers little-endian):
//!
//! ```text
//! SIMPLETS-CHECKPOINT 1\n                     magic line with the format version
//! {"format":1,"simplets_version":..,...}\n     header: one JSON line (see CheckpointHeader)
//! step: u64, time: f64                         payload: 16 bytes, then
//! one array per header name, `cells` f64 each  (padded storage; SIMPLE-TS: n.u n.v n.p n.T
//!                                              n.rho n.Gam, then k.u … k.Gam)
//! checksum: u64                                FNV-1a 64 of every byte before it
//! ```
//!
//! The step and time in the payload are authoritative (the header repeats them for people).
//! The header carries the full case JSON and [`case_hash`], a 64-bit FNV-1a hash of the case's
//! physics: everything except the name, `description`, `time.steps`, `time.end_time`,
//! `time.stop_at_steady_state`, `output`, `solver.divergence_limit` and a `method` that is
//! the default, which do not change the computed states. The loop-2/3 controls (`max_iters`, tolerances, `inner_sweeps`, `order`)
//! stay in the hash: they change the answer. [`load_checkpoint`] refuses a file of another grid
//! or hash, a truncated file and a checksum mismatch, each with a one-line error.
//!
//! Files are written atomically (`.tmp`, fsync, rename). After each write the checkpoints of
//! the case are rotated: the one just written and the newest one of an earlier step are kept,
//! every other `<name>.ckpt-<step>` in the directory is removed.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::atomic::AtomicFile;
use crate::case::Common;
use crate::error::{CheckpointError, OutputError};
use crate::grid::Grid;
use crate::solver::Saved;

/// Format version written and read.
pub const FORMAT_VERSION: u32 = 1;
/// First line of every checkpoint.
pub const MAGIC: &[u8] = b"SIMPLETS-CHECKPOINT 1\n";
const MAGIC_PREFIX: &[u8] = b"SIMPLETS-CHECKPOINT ";
/// Longest header line accepted (the case JSON of a case with many bodies stays far below).
const MAX_HEADER: u64 = 16 << 20;

/// The JSON header line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckpointHeader {
    /// [`FORMAT_VERSION`].
    pub format: u32,
    /// Version of the simplets that wrote it.
    pub simplets_version: String,
    /// Completed time steps (the payload's value).
    pub step: u64,
    /// Simulated time (informative; the payload holds the exact bits).
    pub time: f64,
    /// Scheme, e.g. `implicit-upwind`.
    pub scheme: String,
    /// Computed cells along x.
    pub nx: usize,
    /// Computed cells along y.
    pub ny: usize,
    /// Stored cells per array (padded grid).
    pub cells: usize,
    /// [`case_hash`] as 16 hex digits.
    pub case_hash: String,
    /// Array names in payload order (the method's `Layout::saved`).
    pub arrays: Vec<String>,
    /// Payload bytes between the header line and the checksum: 16 + 8 × cells × arrays.
    pub payload_bytes: u64,
    /// The complete case.
    pub case: Value,
    /// Split NetCDF output (`output.snapshots_per_file`): the number of the part that holds
    /// the newest snapshot at this step, so that a restart continues with the next part.
    /// Absent for single-file output and in checkpoints of older versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nc_part: Option<u32>,
}

/// 64-bit FNV-1a.
#[derive(Debug, Clone, Copy)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Feed bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// The hash so far.
    pub fn value(&self) -> u64 {
        self.0
    }
}

/// FNV-1a 64 of `bytes`.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.update(bytes);
    h.value()
}

/// The case as JSON without the fields that do not change the computed states (module docs).
fn physics_value(case: &Value) -> Value {
    let mut v = case.clone();
    if let Value::Object(m) = &mut v {
        for key in ["name", "description", "output"] {
            m.remove(key);
        }
        if m.get("method").and_then(Value::as_str) == Some(crate::case::Method::default().name()) {
            m.remove("method");
        }
        if let Some(Value::Object(t)) = m.get_mut("time") {
            for key in ["steps", "end_time", "stop_at_steady_state"] {
                t.remove(key);
            }
        }
        if let Some(Value::Object(s)) = m.get_mut("solver") {
            s.remove("divergence_limit");
        }
    }
    v
}

/// JSON text with object keys sorted, independent of serde_json's map feature.
fn canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (n, k) in keys.into_iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                canonical(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (n, x) in a.iter().enumerate() {
                if n > 0 {
                    out.push(',');
                }
                canonical(x, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// 64-bit FNV-1a hash of the case's physics (see the module docs for what is left out).
pub fn case_hash(case: &Value) -> u64 {
    let mut s = String::new();
    canonical(&physics_value(case), &mut s);
    fnv1a64(s.as_bytes())
}

/// JSON paths where `a` and `b` differ (objects descend, other values compare whole).
fn differing_paths(a: &Value, b: &Value, prefix: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
            keys.sort();
            keys.dedup();
            for k in keys {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                match (x.get(k), y.get(k)) {
                    (Some(p), Some(q)) => differing_paths(p, q, &path, out),
                    _ => out.push(path),
                }
            }
        }
        _ if a != b => out.push(prefix.to_string()),
        _ => {}
    }
}

/// `<out_dir>/<name>.ckpt-<step>`.
pub fn checkpoint_path(out_dir: &Path, case_name: &str, step: u64) -> PathBuf {
    out_dir.join(format!("{case_name}.ckpt-{step}"))
}

/// The checkpoints of `case_name` in `out_dir`, by increasing step.
pub fn list_checkpoints(out_dir: &Path, case_name: &str) -> Vec<(u64, PathBuf)> {
    let prefix = format!("{case_name}.ckpt-");
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(out_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let rest = name.strip_prefix(&prefix)?;
            if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((rest.parse().ok()?, e.path()))
        })
        .collect();
    found.sort();
    found
}

/// Keep the checkpoint of `step` and the newest one before it; remove every other checkpoint
/// of `case_name` in `out_dir`. Returns the removed files.
pub fn rotate(out_dir: &Path, case_name: &str, step: u64) -> Result<Vec<PathBuf>, OutputError> {
    let all = list_checkpoints(out_dir, case_name);
    let previous = all.iter().map(|c| c.0).filter(|&s| s < step).max();
    let mut removed = Vec::new();
    for (s, path) in all {
        if s == step || Some(s) == previous {
            continue;
        }
        std::fs::remove_file(&path).map_err(|e| OutputError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        removed.push(path);
    }
    Ok(removed)
}

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
    super::space::ensure(&path, &path, 0, header.payload_bytes + (1 << 16))?;
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

#[cfg(test)]
mod tests;
