//! The roofline of the CPU backends in `simplets bench`: a STREAM triad on the backend's own
//! threads, and the traffic the SIMPLE-TS phases must stream per cell-iteration, so that a
//! CPU figure comes with its memory bound as a GPU figure does.

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
    fn triad_measures_a_positive_bandwidth() {
        let bw = triad_bandwidth(1, 4, 2).unwrap();
        assert!(bw.is_finite() && bw > 1e8, "{bw}");
    }
}
