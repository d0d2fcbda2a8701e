//! The text table of a bench report.

use super::Report;

fn opt(v: Option<f64>, prec: usize) -> String {
    v.map_or("-".into(), |x| format!("{x:.prec$}"))
}

/// The human-readable report.
pub fn render(r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "bench {} {} {} fluid cells: {} steps, {} loop-2 iterations in {:.3} s: \
         {:.3} ms/iteration, {:.2} Mcell-it/s",
        r.backend,
        r.scheme,
        r.grid.fluid_cells,
        r.steps,
        r.iterations,
        r.seconds,
        r.ms_per_iteration,
        r.mcell_its
    );
    for (k, v) in &r.details {
        let _ = writeln!(s, "  {k}: {v}");
    }
    let m = &r.memory;
    let _ = writeln!(
        s,
        "memory ({}): {} = {:.1} B per stored cell, {:.1} B per fluid cell (CV)",
        m.source,
        crate::text::bytes(m.bytes as f64),
        m.per_stored_cell,
        m.per_fluid_cell
    );
    if let Some(h) = &r.host_peak {
        let less = h.per_stored_cell_less_buffers.map_or(String::new(), |b| {
            format!(" ({b:.1} B per stored cell less the device buffers, host memory here)")
        });
        let _ = writeln!(
            s,
            "host peak (VmHWM): {} = {:.1} B per stored cell, {:.1} B per fluid cell (CV){less}",
            crate::text::bytes(h.bytes as f64),
            h.per_stored_cell,
            h.per_fluid_cell
        );
    }
    if let Some(t) = r.setup_seconds {
        let _ = writeln!(
            s,
            "set-up of the backend: {t:.3} s (geometry; OpenCL: kernel build and uploads)"
        );
    }
    if let Some(p) = &r.peak {
        let _ = writeln!(
            s,
            "peak ({}): {}: FP64 {} GFLOP/s, bandwidth {} GB/s",
            p.source,
            p.board,
            opt(p.fp64_gflops, 0),
            opt(p.bandwidth_gbs, 0)
        );
    }
    if let Some(t) = r.triad_gbs {
        let ds = r
            .peak
            .as_ref()
            .and_then(|p| p.bandwidth_gbs)
            .map_or(String::new(), |b| {
                format!(" = {:.1} % of the datasheet", 100.0 * t / b)
            });
        let _ = writeln!(s, "triad bandwidth measured in this run: {t:.1} GB/s{ds}");
    }
    if let Some(h) = &r.host_traffic {
        let _ = writeln!(
            s,
            "host roofline: the phases' compulsory {:.0} B per fluid cell-iteration \
             (src/bench/counts.json) at {:.2} Mcell-it/s = {:.1} GB/s = {:.1} % of the triad \
             (bound {:.2} Mcell-it/s)",
            h.bytes_per_cell, r.mcell_its, h.gbs, h.pct_triad, h.bound_mcell_its
        );
    }
    if r.kernels.is_empty() {
        return s;
    }
    let _ = writeln!(
        s,
        "per kernel: device time from profiling events ({} iterations; profiled wall {} ms/it, \
         device busy {} ms/it); bytes and flops counted per fluid cell-iteration \
         (src/bench/counts.json{}):",
        r.iterations,
        opt(r.profiled_ms_per_iteration, 3),
        opt(r.device_ms_per_iteration, 3),
        match r.counts_current {
            Some(false) => ", STALE: counted from another kernel source",
            _ => "",
        }
    );
    let _ = writeln!(
        s,
        "{:<16} {:>7} {:>9} {:>6} {:>10} {:>7} {:>8} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>10} {:>6} {:>9}",
        "kernel",
        "calls/it",
        "µs/it",
        "share%",
        "Mcell-it/s",
        "B/cell",
        "flop/cell",
        "flop/B",
        "GB/s",
        "GFLOP/s",
        "%bwDS",
        "%triad",
        "%fp64",
        "bound Mc/s",
        "%bound",
        "bound by"
    );
    for k in &r.kernels {
        let c = |v: f64, p: usize| {
            if k.counted {
                format!("{v:.p$}")
            } else {
                "-".into()
            }
        };
        let _ = writeln!(
            s,
            "{:<16} {:>7.2} {:>9.1} {:>6.1} {:>10.1} {:>7} {:>8} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>10} {:>6} {:>9}",
            k.name,
            k.launches_per_iter,
            1e6 * k.seconds_per_iter,
            k.share_pct,
            k.mcell_its,
            c(k.bytes_per_cell, 1),
            c(k.flops_per_cell, 1),
            c(k.intensity, 2),
            c(k.gbs, 1),
            c(k.gflops, 1),
            opt(k.pct_bw_datasheet, 1),
            opt(k.pct_bw_triad, 1),
            opt(k.pct_fp64, 2),
            opt(k.bound_mcell_its, 1),
            opt(k.pct_of_bound, 1),
            k.bound_by.unwrap_or("-")
        );
    }
    if let Some(t) = r.pct_of_bound_total {
        let _ = writeln!(
            s,
            "counted kernels together: {t:.1} % of their roofline bound (bound time / device time)"
        );
    }
    s
}
