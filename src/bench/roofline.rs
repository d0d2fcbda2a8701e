//! Per-kernel rows of `simplets bench`: profiled device time per kernel combined with the
//! counted bytes and flops of that kernel ([`super::counts`]), the datasheet peaks and the
//! triad bandwidth of the same run, giving GB/s, GFLOP/s, % of each peak and of the kernel's
//! roofline bound.

use super::{counts, datasheet, GridInfo, KernelRow};
use crate::device::Profile;

/// Per-kernel rows from a profile of `iters` iterations.
#[allow(clippy::too_many_arguments)]
pub fn kernel_rows(
    profile: &Profile,
    iters: u64,
    grid: &GridInfo,
    form: &str,
    scheme: &str,
    counts: &counts::Counts,
    peak: Option<&datasheet::Peak>,
    triad: Option<f64>,
) -> Vec<KernelRow> {
    let it = iters.max(1) as f64;
    let fluid = grid.fluid_cells.max(1) as f64;
    let total_s: f64 = profile.values().map(|c| c.seconds).sum();
    let mut rows: Vec<KernelRow> = profile
        .iter()
        .map(|(name, c)| {
            let mut r = KernelRow {
                name: name.clone(),
                launches_per_iter: c.launches as f64 / it,
                seconds_per_iter: c.seconds / it,
                share_pct: 100.0 * c.seconds / total_s.max(1e-300),
                mcell_its: fluid / (c.seconds / it).max(1e-300) / 1e6,
                ..KernelRow::default()
            };
            // Compulsory (bytes, flops) of everything this kernel did in the profiled pass.
            let work = if name == crate::device::runtime::COPY {
                Some((16.0 * c.items as f64, 0.0))
            } else if name == crate::device::runtime::READ {
                None // host transfers: no device-memory roofline
            } else {
                counts.kernel(form, scheme, name).map(|k| {
                    let units = if k.unit == "item" {
                        c.items as f64
                    } else {
                        c.launches as f64 * grid.stored_cells as f64
                    };
                    (k.bytes() * units, k.flops * units)
                })
            };
            if let Some((bytes, flops)) = work {
                r.counted = true;
                r.bytes_per_cell = bytes / (fluid * it);
                r.flops_per_cell = flops / (fluid * it);
                r.intensity = flops / bytes.max(1e-300);
                r.gbs = bytes / c.seconds.max(1e-300) / 1e9;
                r.gflops = flops / c.seconds.max(1e-300) / 1e9;
                let bw_ds = peak.and_then(|p| p.bandwidth_gbs);
                let fp = peak.and_then(|p| p.fp64_gflops);
                r.pct_bw_datasheet = bw_ds.map(|b| 100.0 * r.gbs / b);
                r.pct_bw_triad = triad.map(|b| 100.0 * r.gbs * 1e9 / b);
                r.pct_fp64 = fp.map(|f| 100.0 * r.gflops / f);
                // Roofline: the least time the counted work can take on this device.
                let t_mem = triad.map(|b| bytes / b);
                let t_fp = fp.map(|f| flops / (f * 1e9));
                let (t_bound, by) = match (t_mem, t_fp) {
                    (Some(m), Some(f)) if f > m => (Some(f), Some("fp64")),
                    (Some(m), _) => (Some(m), Some("bandwidth")),
                    (None, Some(f)) => (Some(f), Some("fp64")),
                    (None, None) => (None, None),
                };
                if let Some(t) = t_bound.filter(|t| *t > 0.0) {
                    r.bound_mcell_its = Some(fluid * it / t / 1e6);
                    r.bound_by = by;
                    r.pct_of_bound = Some(100.0 * t / c.seconds.max(1e-300));
                }
            }
            r
        })
        .collect();
    rows.sort_by(|a, b| b.seconds_per_iter.total_cmp(&a.seconds_per_iter));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_turn_counts_into_rates_and_bounds() {
        use crate::device::CommandTime;
        let grid = GridInfo {
            nx: 8,
            ny: 8,
            stored_cells: 100,
            fluid_cells: 50,
        };
        let mut kernels = std::collections::BTreeMap::new();
        let k = |unit: &str, flops: f64, bytes: f64| counts::KernelCount {
            unit: unit.into(),
            launches: 1,
            flops,
            add: flops,
            sub: 0.0,
            mul: 0.0,
            div: 0.0,
            sqrt: 0.0,
            other: 0.0,
            bytes_read: bytes,
            bytes_written: 0.0,
            bytes_accessed: bytes,
            reads: Default::default(),
            writes: Default::default(),
        };
        kernels.insert("a".to_string(), k("item", 1.0, 40.0));
        kernels.insert("b".to_string(), k("cell", 1000.0, 8.0));
        let mut schemes = std::collections::BTreeMap::new();
        schemes.insert(
            "implicit-upwind".to_string(),
            counts::SchemeCounts {
                stored_cells: 100,
                fluid_cells: 50,
                kernels,
            },
        );
        let mut forms = std::collections::BTreeMap::new();
        forms.insert(
            "phase".to_string(),
            counts::FormCounts {
                source_hash: String::new(),
                schemes,
            },
        );
        let counts = counts::Counts {
            method: String::new(),
            case: String::new(),
            forms,
        };
        let mut p = Profile::new();
        // a: 2 iterations × 1 launch over 100 items, 1 µs each.
        p.insert(
            "a".into(),
            CommandTime {
                launches: 2,
                items: 200,
                grouped: false,
                seconds: 2e-6,
            },
        );
        p.insert(
            "b".into(),
            CommandTime {
                launches: 2,
                items: 2 * 64,
                grouped: true,
                seconds: 4e-6,
            },
        );
        let peak = datasheet::Peak {
            board: "x".into(),
            fp64_gflops: Some(1000.0),
            bandwidth_gbs: Some(10_000.0),
            source: "datasheet",
        };
        let rows = kernel_rows(
            &p,
            2,
            &grid,
            "phase",
            "implicit-upwind",
            &counts,
            Some(&peak),
            Some(5e12),
        );
        let a = rows.iter().find(|r| r.name == "a").unwrap();
        // 200 items × 40 B over 2 iterations of 50 fluid cells: 80 B per fluid cell-iteration.
        assert!((a.bytes_per_cell - 80.0).abs() < 1e-9);
        assert!((a.gbs - 200.0 * 40.0 / 2e-6 / 1e9).abs() < 1e-6);
        assert_eq!(a.bound_by, Some("bandwidth"));
        // Bound time 8000 B / 5e12 B/s = 1.6 ns of 2 µs.
        assert!((a.pct_of_bound.unwrap() - 100.0 * 1.6e-9 / 2e-6).abs() < 1e-9);
        let b = rows.iter().find(|r| r.name == "b").unwrap();
        // Per stored cell: 2 launches × 100 cells × 1000 flops / (2 × 50) = 2000 per fluid cell.
        assert!((b.flops_per_cell - 2000.0).abs() < 1e-9);
        assert_eq!(b.bound_by, Some("fp64"));
        assert_eq!(rows[0].name, "b");
    }
}
