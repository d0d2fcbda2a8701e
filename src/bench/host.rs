//! The roofline of the CPU backends in `simplets bench`: a STREAM triad on the backend's own
//! threads, and the traffic the SIMPLE-TS phases must stream per cell-iteration, so that a
//! CPU figure comes with its memory bound as a GPU figure does; and the process's host peak
//! resident memory ([`peak_resident_bytes`]).

use rayon::prelude::*;
use serde::Serialize;

use super::counts::Counts;

/// Elements per task of the triad (64 KiB of each array).
const CHUNK: usize = 8192;

/// Best-of-`reps` STREAM triad bandwidth (a = b + s·c over three arrays of `mib` MiB, 24 B
/// per element counted, as STREAM does) on `threads` threads, in B/s. The arrays are first
/// written by the same threads, so their pages lie where those threads run.
pub fn triad_bandwidth(threads: usize, mib: usize, reps: usize) -> Result<f64, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| format!("host triad: {e}"))?;
    let n = (mib << 20) / 8;
    Ok(pool.install(|| {
        let fill = |v: f64| {
            let mut a = Vec::with_capacity(n);
            (0..n).into_par_iter().map(|_| v).collect_into_vec(&mut a);
            a
        };
        let (mut a, b, c) = (fill(0.0), fill(1.0), fill(2.0));
        let mut best = f64::INFINITY;
        for _ in 0..reps.max(1) {
            let t = std::time::Instant::now();
            a.par_chunks_mut(CHUNK)
                .zip(b.par_chunks(CHUNK))
                .zip(c.par_chunks(CHUNK))
                .for_each(|((a, b), c)| {
                    for ((a, b), c) in a.iter_mut().zip(b).zip(c) {
                        *a = b + 3.0 * c;
                    }
                });
            best = best.min(t.elapsed().as_secs_f64());
        }
        // Keep the result observable so the loop is not optimised away.
        std::hint::black_box(&a);
        24.0 * n as f64 / best.max(1e-12)
    }))
}

/// Compulsory bytes per stored cell of one loop-2 iteration of the phase form for `scheme`
/// with `sweeps` T/p sweeps (`pseudo`, `tp`, `sweeps − 1` × `tp_sweep`, `correct`, `fluxes`,
/// `reduce_all`: each one work-item per stored cell; the boundary lists are negligible). The
/// reference runs the same phases over the same arrays, so its loops stream at least this.
/// `None` where the counts lack a kernel.
pub fn phase_traffic(counts: &Counts, scheme: &str, sweeps: u32) -> Option<f64> {
    let k = |name: &str| counts.kernel("phase", scheme, name).map(|c| c.bytes());
    let once = ["pseudo", "tp", "correct", "fluxes", "reduce_all"]
        .iter()
        .map(|n| k(n))
        .sum::<Option<f64>>()?;
    let later = if sweeps > 1 {
        f64::from(sweeps - 1) * k("tp_sweep")?
    } else {
        0.0
    };
    Some(once + later)
}

/// A `kB` field of `/proc/self/status` (`VmHWM`, `VmRSS`, …) in bytes.
fn status_bytes(status: &str, field: &str) -> Option<u64> {
    let rest = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))?;
    let kb: u64 = rest.trim().strip_suffix("kB")?.trim().parse().ok()?;
    Some(kb * 1024)
}

/// The process's peak resident set size so far (`VmHWM` of `/proc/self/status`), bytes;
/// `None` where that is unreadable (not Linux). On a CPU OpenCL device the device buffers
/// are host memory and count in it.
pub fn peak_resident_bytes() -> Option<u64> {
    status_bytes(&std::fs::read_to_string("/proc/self/status").ok()?, "VmHWM")
}

/// The host peak of a run ([`peak_resident_bytes`] at its end) per cell.
#[derive(Debug, Clone, Serialize)]
pub struct HostPeak {
    /// Peak resident bytes of the process (`VmHWM`).
    pub bytes: u64,
    /// Bytes per stored cell.
    pub per_stored_cell: f64,
    /// Bytes per fluid cell (control volume).
    pub per_fluid_cell: f64,
    /// On a CPU OpenCL device, whose buffers are host memory: the peak less the device
    /// buffers, bytes per stored cell.
    pub per_stored_cell_less_buffers: Option<f64>,
}

impl HostPeak {
    /// `bytes` over `stored` and `fluid` cells; `buffers`: device buffer bytes that are host
    /// memory too (CPU OpenCL device).
    pub fn new(bytes: u64, stored: u64, fluid: u64, buffers: Option<u64>) -> HostPeak {
        let per = |b: u64, n: u64| b as f64 / n.max(1) as f64;
        HostPeak {
            bytes,
            per_stored_cell: per(bytes, stored),
            per_fluid_cell: per(bytes, fluid),
            per_stored_cell_less_buffers: buffers.map(|d| per(bytes.saturating_sub(d), stored)),
        }
    }
}

/// A CPU backend's rate against its memory bound.
#[derive(Debug, Clone, Serialize)]
pub struct HostTraffic {
    /// Compulsory bytes per fluid cell-iteration ([`phase_traffic`]).
    pub bytes_per_cell: f64,
    /// The rate of the run times those bytes, GB/s.
    pub gbs: f64,
    /// That as % of the triad of this run.
    pub pct_triad: f64,
    /// Triad / bytes: the rate the bandwidth allows, 10⁶ fluid cell-it/s.
    pub bound_mcell_its: f64,
}

impl HostTraffic {
    /// The traffic of a run at `mcell_its` streaming `bytes_per_cell`, against `triad` B/s.
    pub fn new(bytes_per_cell: f64, mcell_its: f64, triad: f64) -> HostTraffic {
        let gbs = mcell_its * bytes_per_cell / 1e3;
        HostTraffic {
            bytes_per_cell,
            gbs,
            pct_triad: 100.0 * gbs * 1e9 / triad.max(1e-300),
            bound_mcell_its: triad / bytes_per_cell.max(1e-300) / 1e6,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traffic_counts_one_tp_sweep_per_later_sweep() {
        let c = super::super::counts::embedded();
        let one = phase_traffic(c, "implicit-upwind", 1).unwrap();
        let two = phase_traffic(c, "implicit-upwind", 2).unwrap();
        let sweep = c
            .kernel("phase", "implicit-upwind", "tp_sweep")
            .unwrap()
            .bytes();
        assert!(
            (two - one - sweep).abs() < 1e-9 && one > 300.0,
            "{one} {two}"
        );
        assert!(phase_traffic(c, "no-such-scheme", 1).is_none());
    }

    #[test]
    fn traffic_is_the_rate_times_the_bytes() {
        let t = HostTraffic::new(500.0, 20.0, 40e9);
        assert!((t.gbs - 10.0).abs() < 1e-12);
        assert!((t.pct_triad - 25.0).abs() < 1e-9);
        assert!((t.bound_mcell_its - 80.0).abs() < 1e-9);
    }

    #[test]
    fn status_fields_parse_in_bytes() {
        let s = "Name:\tx\nVmHWM:\t  1234 kB\nVmRSS:\t  1000 kB\n";
        assert_eq!(status_bytes(s, "VmHWM"), Some(1234 * 1024));
        assert_eq!(status_bytes(s, "VmRSS"), Some(1000 * 1024));
        assert_eq!(status_bytes(s, "VmPeak"), None);
    }

    /// The peak is readable on Linux and grows when more than it is touched at once.
    #[cfg(target_os = "linux")]
    #[test]
    fn peak_resident_grows_after_touching_memory() {
        let rss = || {
            let s = std::fs::read_to_string("/proc/self/status").unwrap();
            status_bytes(&s, "VmRSS").unwrap()
        };
        let before = peak_resident_bytes().expect("VmHWM on Linux");
        assert!(before > 0);
        // Enough to pass the old peak by 64 MiB whatever is resident now.
        let n = (before.saturating_sub(rss()) + (64 << 20)) as usize;
        let v = vec![1u8; n];
        std::hint::black_box(&v);
        let after = peak_resident_bytes().unwrap();
        drop(v);
        assert!(after >= before + (32 << 20), "{before} → {after}");
    }

    #[test]
    fn host_peak_divides_by_the_cells() {
        let h = HostPeak::new(1000, 10, 8, Some(400));
        assert_eq!(h.per_stored_cell, 100.0);
        assert_eq!(h.per_fluid_cell, 125.0);
        assert_eq!(h.per_stored_cell_less_buffers, Some(60.0));
        assert_eq!(
            HostPeak::new(1, 1, 1, None).per_stored_cell_less_buffers,
            None
        );
    }

    #[test]
    fn triad_measures_a_positive_bandwidth() {
        let bw = triad_bandwidth(1, 4, 2).unwrap();
        assert!(bw.is_finite() && bw > 1e8, "{bw}");
    }
}
