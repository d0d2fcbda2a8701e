//! Restart checkpoints: the complete state of a run ([`Saved`](crate::solver::Saved): the
//! named arrays of the method's [`Layout::saved`](crate::solver::Layout::saved)) in one binary
//! file, `<out>/<name>.ckpt-<step>`.
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
//!
//! The code: `hash.rs` (the case hash), `files.rs` (names, listing, rotation), `write.rs` and
//! `read.rs`.

mod files;
mod hash;
mod read;
mod write;

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use files::{checkpoint_path, list_checkpoints, rotate};
pub use hash::{case_hash, fnv1a64, Fnv1a};
pub use read::{check_header, load_checkpoint, read_header};
pub use write::write_checkpoint;

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

#[cfg(test)]
mod tests;
