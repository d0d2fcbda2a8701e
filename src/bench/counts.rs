//! Counted FP64 operations and bytes per kernel (`src/bench/counts.json`), produced by the
//! counting build of the kernels (`scripts/count-kernels.sh`; method in docs/PERFORMANCE.md,
//! "How bytes and flops are counted").
//!
//! Each kernel's numbers are per **unit**: per work-item for kernels launched without a
//! work-group size (one work-item per cell, face or list entry), per stored cell for kernels
//! launched in work-groups that loop over cells (the reductions, the fused loop-2 kernel). The
//! bench multiplies them by the work-items or stored cells of its own run.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

/// The counts file compiled into the binary.
pub const COUNTS_JSON: &str = include_str!("counts.json");

/// Counts of one kernel, per unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelCount {
    /// `item` (per work-item) or `cell` (per stored cell).
    pub unit: String,
    /// Launches in the counted step.
    pub launches: u64,
    /// FP64 operations: add + sub + mul + div + sqrt.
    pub flops: f64,
    /// Additions.
    pub add: f64,
    /// Subtractions.
    pub sub: f64,
    /// Multiplications.
    pub mul: f64,
    /// Divisions.
    pub div: f64,
    /// Square roots.
    pub sqrt: f64,
    /// Comparisons, fabs, fmax, fmin, isnan (not counted as flops).
    pub other: f64,
    /// Compulsory bytes read: distinct elements whose first access was a read.
    pub bytes_read: f64,
    /// Compulsory bytes written: distinct elements written.
    pub bytes_written: f64,
    /// Bytes of every global load and store (no cache at all).
    pub bytes_accessed: f64,
    /// Compulsory bytes read per buffer.
    #[serde(default)]
    pub reads: BTreeMap<String, f64>,
    /// Compulsory bytes written per buffer.
    #[serde(default)]
    pub writes: BTreeMap<String, f64>,
}

impl KernelCount {
    /// Compulsory bytes (read + written).
    pub fn bytes(&self) -> f64 {
        self.bytes_read + self.bytes_written
    }
}

/// Counts of one scheme in one form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SchemeCounts {
    /// Stored cells of the count case.
    pub stored_cells: u64,
    /// Fluid cells of the count case.
    pub fluid_cells: u64,
    /// Kernel name → counts.
    pub kernels: BTreeMap<String, KernelCount>,
}

/// Counts of one OpenCL form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FormCounts {
    /// [`super::trace::source_hash`] of the assembled source that was counted.
    pub source_hash: String,
    /// Scheme (`implicit-upwind`, …) → counts.
    pub schemes: BTreeMap<String, SchemeCounts>,
}

/// `counts.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Counts {
    /// How the numbers were obtained.
    pub method: String,
    /// The case counted.
    pub case: String,
    /// Form (`phase`, `fused`) → counts.
    pub forms: BTreeMap<String, FormCounts>,
}

impl Counts {
    /// The counts of `kernel` in `form` and `scheme`, if counted.
    pub fn kernel(&self, form: &str, scheme: &str, kernel: &str) -> Option<&KernelCount> {
        self.forms
            .get(form)?
            .schemes
            .get(scheme)?
            .kernels
            .get(kernel)
    }

    /// True if `form` was counted from exactly `source` (the assembled kernel source).
    pub fn is_current(&self, form: &str, source: &str) -> bool {
        self.forms
            .get(form)
            .is_some_and(|f| f.source_hash == super::trace::source_hash(source))
    }
}

/// The embedded counts (parsed once).
pub fn embedded() -> &'static Counts {
    static C: OnceLock<Counts> = OnceLock::new();
    C.get_or_init(|| serde_json::from_str(COUNTS_JSON).expect("src/bench/counts.json parses"))
}
