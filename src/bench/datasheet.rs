//! Peak FP64 rate and memory bandwidth of known devices, for the roofline of `simplets bench`.
//!
//! GPU figures are the vendors' datasheet numbers: the **vector** FP64 rate (not the tensor-
//! or matrix-core rate, which OpenCL kernels cannot use) with FMA counted as two operations,
//! and the peak memory bandwidth. Devices are matched by the name OpenCL reports (and, where
//! one name covers several boards, by compute units). For a CPU device the FP64 peak is an
//! estimate: cores × clock × FP64 lanes of its vector ISA (read from the PoCL device name) ×
//! 2 (FMA) × 2 (FMA units per core assumed); its bandwidth is unknown, and the bench uses the
//! triad it measures in the same run. The kernels are built with `FP_CONTRACT OFF`, so they
//! cannot issue FMAs: half of the FP64 peak is the practical compute ceiling for them.

use serde::Serialize;

use crate::device::DeviceInfo;

/// Peak figures of a device.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Peak {
    /// Board the figures are for (`NVIDIA H200 SXM`, …) or a description of the estimate.
    pub board: String,
    /// FP64 peak, GFLOP/s (vector units, FMA = 2 operations); `None`: unknown.
    pub fp64_gflops: Option<f64>,
    /// Peak memory bandwidth, GB/s (10⁹ B/s); `None`: unknown.
    pub bandwidth_gbs: Option<f64>,
    /// `datasheet`, `estimate` or `unknown`.
    pub source: &'static str,
}

/// One datasheet entry: every name fragment must occur in the device name (case-insensitive)
/// and none of `not`; `cus`: required compute units, when the name alone is ambiguous.
struct Entry {
    all: &'static [&'static str],
    not: &'static [&'static str],
    cus: Option<u32>,
    board: &'static str,
    fp64_tflops: f64,
    bandwidth_tbs: f64,
}

/// Datasheet entries, most specific first. FP64 = vector (non-tensor) TFLOP/s; bandwidth in
/// TB/s. AMD's OpenCL reports a GPU by its gfx target, and an MI250X/MI250 as two devices (one
/// per GCD), each with half the board's figures.
const TABLE: &[Entry] = &[
    Entry {
        all: &["H200", "NVL"],
        not: &[],
        cus: None,
        board: "NVIDIA H200 NVL",
        fp64_tflops: 30.0,
        bandwidth_tbs: 4.8,
    },
    Entry {
        all: &["GH200"],
        not: &[],
        cus: None,
        board: "NVIDIA GH200 (96 GB HBM3)",
        fp64_tflops: 34.0,
        bandwidth_tbs: 4.0,
    },
    Entry {
        all: &["H200"],
        not: &[],
        cus: None,
        board: "NVIDIA H200 SXM",
        fp64_tflops: 34.0,
        bandwidth_tbs: 4.8,
    },
    Entry {
        all: &["H100", "NVL"],
        not: &[],
        cus: None,
        board: "NVIDIA H100 NVL",
        fp64_tflops: 30.0,
        bandwidth_tbs: 3.9,
    },
    Entry {
        all: &["H100", "PCIe"],
        not: &[],
        cus: None,
        board: "NVIDIA H100 PCIe",
        fp64_tflops: 26.0,
        bandwidth_tbs: 2.0,
    },
    Entry {
        all: &["H100"],
        not: &[],
        cus: None,
        board: "NVIDIA H100 SXM5",
        fp64_tflops: 34.0,
        bandwidth_tbs: 3.35,
    },
    Entry {
        all: &["A100", "80GB", "PCIe"],
        not: &[],
        cus: None,
        board: "NVIDIA A100 80GB PCIe",
        fp64_tflops: 9.7,
        bandwidth_tbs: 1.935,
    },
    Entry {
        all: &["A100", "80GB"],
        not: &[],
        cus: None,
        board: "NVIDIA A100 SXM4 80GB",
        fp64_tflops: 9.7,
        bandwidth_tbs: 2.039,
    },
    Entry {
        all: &["A100"],
        not: &[],
        cus: None,
        board: "NVIDIA A100 40GB",
        fp64_tflops: 9.7,
        bandwidth_tbs: 1.555,
    },
    Entry {
        all: &["V100S"],
        not: &[],
        cus: None,
        board: "NVIDIA V100S PCIe",
        fp64_tflops: 8.2,
        bandwidth_tbs: 1.134,
    },
    Entry {
        all: &["V100", "SXM"],
        not: &[],
        cus: None,
        board: "NVIDIA V100 SXM2",
        fp64_tflops: 7.8,
        bandwidth_tbs: 0.9,
    },
    Entry {
        all: &["V100"],
        not: &[],
        cus: None,
        board: "NVIDIA V100 PCIe",
        fp64_tflops: 7.0,
        bandwidth_tbs: 0.9,
    },
    Entry {
        all: &["gfx942"],
        not: &[],
        cus: Some(304),
        board: "AMD Instinct MI300X",
        fp64_tflops: 81.7,
        bandwidth_tbs: 5.3,
    },
    Entry {
        all: &["gfx942"],
        not: &[],
        cus: Some(228),
        board: "AMD Instinct MI300A",
        fp64_tflops: 61.3,
        bandwidth_tbs: 5.3,
    },
    Entry {
        all: &["gfx90a"],
        not: &[],
        cus: Some(110),
        board: "AMD Instinct MI250X, one GCD",
        fp64_tflops: 23.95,
        bandwidth_tbs: 1.6384,
    },
    Entry {
        all: &["gfx90a"],
        not: &[],
        cus: Some(104),
        board: "AMD Instinct MI250 GCD or MI210",
        fp64_tflops: 22.6,
        bandwidth_tbs: 1.6384,
    },
    Entry {
        all: &["gfx908"],
        not: &[],
        cus: None,
        board: "AMD Instinct MI100",
        fp64_tflops: 11.5,
        bandwidth_tbs: 1.2288,
    },
    Entry {
        all: &["Max 1550"],
        not: &[],
        cus: None,
        board: "Intel Data Center GPU Max 1550",
        fp64_tflops: 52.0,
        bandwidth_tbs: 3.2768,
    },
];

fn contains(hay: &str, needle: &str) -> bool {
    hay.to_lowercase().contains(&needle.to_lowercase())
}

/// FP64 lanes of the vector ISA named in a PoCL CPU device name (`cpu-skylake-avx512-…`,
/// `pthread-haswell-…`, `cpu-znver3-…`); `None` if not recognised.
fn cpu_lanes(name: &str) -> Option<u32> {
    let n = name.to_lowercase();
    if n.contains("avx512") || n.contains("znver4") || n.contains("sapphirerapids") {
        Some(8)
    } else if ["haswell", "broadwell", "skylake", "znver", "avx2", "zen"]
        .iter()
        .any(|k| n.contains(k))
    {
        Some(4)
    } else {
        None
    }
}

/// Peak figures of `dev`: the datasheet entry matching its name, else a CPU estimate, else
/// unknown.
pub fn peak_of(dev: &DeviceInfo) -> Peak {
    peak_of_name(
        &dev.name,
        &dev.device_type,
        dev.compute_units,
        dev.max_clock_mhz,
    )
}

/// [`peak_of`] from the device's name, type (`GPU`, `CPU`), compute units and clock (MHz).
pub fn peak_of_name(name: &str, device_type: &str, cus: u32, mhz: u32) -> Peak {
    let hit = TABLE.iter().find(|e| {
        e.all.iter().all(|k| contains(name, k))
            && !e.not.iter().any(|k| contains(name, k))
            && e.cus.map_or(true, |c| c == cus)
    });
    if let Some(e) = hit {
        return Peak {
            board: e.board.to_string(),
            // Tera to giga, rounded to 0.1 (2.039 TB/s is 2039 GB/s, not 2039.0000000000002).
            fp64_gflops: Some((e.fp64_tflops * 1e4).round() / 10.0),
            bandwidth_gbs: Some((e.bandwidth_tbs * 1e4).round() / 10.0),
            source: "datasheet",
        };
    }
    if device_type == "CPU" {
        if let Some(lanes) = cpu_lanes(name) {
            let per_cycle = lanes * 2 * 2;
            return Peak {
                board: format!(
                    "{cus} cores × {mhz} MHz × {per_cycle} FP64 flop/cycle ({lanes} lanes, FMA, \
                     2 FMA units assumed)"
                ),
                fp64_gflops: Some(f64::from(cus) * f64::from(mhz) * f64::from(per_cycle) * 1e-3),
                bandwidth_gbs: None,
                source: "estimate",
            };
        }
    }
    Peak {
        board: format!("{name} (not in the datasheet table)"),
        fp64_gflops: None,
        bandwidth_gbs: None,
        source: "unknown",
    }
}

/// The datasheet table as Markdown (board, FP64 TFLOP/s, TB/s): docs/PERFORMANCE.md.
pub fn table_markdown() -> String {
    let mut s = String::from("| board | matched by | FP64 vector TFLOP/s | bandwidth TB/s |\n");
    s.push_str("|---|---|---|---|\n");
    for e in TABLE {
        let cus = e.cus.map_or(String::new(), |c| format!(", {c} CUs"));
        s.push_str(&format!(
            "| {} | `{}`{cus} | {} | {} |\n",
            e.board,
            e.all.join("` + `"),
            e.fp64_tflops,
            e.bandwidth_tbs
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_boards_match_by_name() {
        let h200 = peak_of_name("NVIDIA H200", "GPU", 132, 1980);
        assert_eq!(h200.board, "NVIDIA H200 SXM");
        assert_eq!(h200.bandwidth_gbs, Some(4800.0));
        assert_eq!(h200.fp64_gflops, Some(34_000.0));
        // 132 SMs × 1.98 GHz × 64 FP64 FMA lanes × 2 = 33.45 TFLOP/s: the datasheet's 34.
        assert!((132.0 * 1.98 * 128.0 / 1e3 - 34.0f64).abs() < 0.6);
        assert_eq!(
            peak_of_name("NVIDIA H200 NVL", "GPU", 132, 1785).board,
            "NVIDIA H200 NVL"
        );
        assert_eq!(
            peak_of_name("NVIDIA H100 80GB HBM3", "GPU", 132, 1980).board,
            "NVIDIA H100 SXM5"
        );
        assert_eq!(
            peak_of_name("NVIDIA H100 PCIe", "GPU", 114, 1755).board,
            "NVIDIA H100 PCIe"
        );
        assert_eq!(
            peak_of_name("NVIDIA A100-SXM4-80GB", "GPU", 108, 1410).bandwidth_gbs,
            Some(2039.0)
        );
        assert_eq!(
            peak_of_name("gfx90a:sramecc+:xnack-", "GPU", 110, 1700).board,
            "AMD Instinct MI250X, one GCD"
        );
        assert_eq!(
            peak_of_name("gfx942", "GPU", 304, 2100).board,
            "AMD Instinct MI300X"
        );
    }

    #[test]
    fn cpus_are_estimated_and_unknown_gpus_say_so() {
        let p = peak_of_name("cpu-skylake-avx512-Intel(R) Xeon(R)", "CPU", 16, 2100);
        assert_eq!(p.source, "estimate");
        assert_eq!(p.fp64_gflops, Some(16.0 * 2100.0 * 32.0 * 1e-3));
        assert_eq!(p.bandwidth_gbs, None);
        let p = peak_of_name("cpu-haswell-Intel", "CPU", 4, 3000);
        assert_eq!(p.fp64_gflops, Some(4.0 * 3.0 * 16.0));
        let u = peak_of_name("Some Future GPU", "GPU", 10, 1000);
        assert_eq!((u.source, u.fp64_gflops), ("unknown", None));
    }

    #[test]
    fn markdown_lists_every_entry() {
        let t = table_markdown();
        assert_eq!(t.lines().count(), TABLE.len() + 2);
        assert!(t.contains("| NVIDIA H200 SXM | `H200` | 34 | 4.8 |"), "{t}");
    }
}
