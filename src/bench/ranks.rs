//! `simplets bench --thread-ranks N`: a decomposed SIMPLE-TS or explicit-method run whose
//! ranks are threads of one process (`decomp::threads`), all on one device, so that the cost
//! of the halo exchange can be measured on a machine without MPI (one GPU shared by the ranks:
//! the exchange cost is visible, the scaling is not). Per rank: the timed iterations (SIMPLE-TS:
//! loop-2 iterations; the explicit methods: steps), Mcell-it/s of its owned fluid cells, and the
//! halo traffic and time per iteration from [`HaloStats`]; for all ranks together the
//! aggregate Mcell-it/s; beside the measured exchange time a model of it ([`ExchangeModel`]).
//!
//! Every rank steps its own engine (`Ranks::local`, `ExplicitRanks::local_mut`): the exchanges
//! and the merged maxima inside a step keep the ranks in step, so no rank needs rank 0's
//! orders.

use serde::Serialize;

use crate::decomp::{Comm, Decomposition, HaloStats, EAST, NORTH, SOUTH, WEST};
use crate::error::RunError;
use crate::methods::simple_ts::geometry::FLUID;
use crate::methods::simple_ts::problem::Problem;
use crate::methods::simple_ts::ranks::Ranks;

/// The exchange cost model: every exchanged byte crosses the host–device link twice (the
/// strips sent are read from the device, the strips received are written to it; as many
/// bytes arrive as leave), every device read or write batch and every message costs one
/// latency, and every residual reduction one more.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ExchangeModel {
    /// Host–device bandwidth, GB/s (PCIe 4.0 x16 about 25 in practice, 5.0 about 50).
    pub link_gbs: f64,
    /// Latency per transfer batch, message or reduction, µs.
    pub latency_us: f64,
}

impl ExchangeModel {
    /// Modelled seconds of one iteration's exchanges: `bytes` sent, `batches` device read and
    /// write batches, `messages` messages and `reductions` reductions.
    pub fn seconds(&self, bytes: f64, batches: f64, messages: f64, reductions: f64) -> f64 {
        2.0 * bytes / (self.link_gbs * 1e9)
            + (batches + messages + reductions) * self.latency_us * 1e-6
    }
}

/// The timed part of one rank (read back on rank 0 when it comes from another MPI rank).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct RankBench {
    /// The rank.
    pub rank: usize,
    /// Owned stored columns of the whole grid.
    pub columns: [usize; 2],
    /// Owned stored rows.
    pub rows: [usize; 2],
    /// Owned fluid cells.
    pub fluid_cells: u64,
    /// Loop-2 iterations timed.
    pub iterations: u64,
    /// Wall seconds of the timed steps.
    pub seconds: f64,
    /// Owned fluid cells × iterations per second, millions.
    pub mcell_its: f64,
    /// Wall ms per iteration.
    pub ms_per_iteration: f64,
    /// Halo exchanges per iteration.
    pub exchanges_per_iteration: f64,
    /// Halo bytes sent per iteration (as many are received).
    pub halo_bytes_per_iteration: f64,
    /// Messages sent per iteration.
    pub messages_per_iteration: f64,
    /// Wall ms per iteration in the exchanges (strips read, messages, strips written, the
    /// wait for the neighbours).
    pub halo_ms_per_iteration: f64,
    /// Wall ms per iteration in the residual reductions over all ranks.
    pub reduce_ms_per_iteration: f64,
    /// The model's ms per iteration for the exchanges and reductions.
    pub model_ms_per_iteration: f64,
}

/// Time `steps` steps of this rank after `warmup` untimed ones (collective: every rank of the
/// run calls it with the same numbers). `pb` is the whole problem.
pub fn run_rank(
    r: &mut Ranks,
    pb: &Problem,
    warmup: u64,
    steps: u64,
    model: ExchangeModel,
) -> Result<RankBench, RunError> {
    let dec: Decomposition = r.decomposition().clone();
    let win = dec.window(r.comm().rank());
    let nxt = pb.grid.nxt;
    let fluid_cells = win
        .own_y
        .clone()
        .flat_map(|j| win.own_x.clone().map(move |i| i + j * nxt))
        .filter(|&k| pb.geo.cell[k] == FLUID)
        .count() as u64;
    let comm = std::sync::Arc::clone(r.comm());
    let timing = Timing {
        dec: &dec,
        fluid_cells,
        warmup,
        steps,
        model,
    };
    time_rank(comm.as_ref(), &timing, &mut |n| {
        let mut iterations = 0;
        for _ in 0..n {
            iterations += u64::from(r.local().step()?.iters);
        }
        Ok((iterations, r.halo_stats()))
    })
}

/// What [`time_rank`] times: the layout, the rank's owned fluid cells, the untimed and timed
/// steps and the exchange model.
pub struct Timing<'a> {
    /// The layout.
    pub dec: &'a Decomposition,
    /// This rank's owned fluid cells.
    pub fluid_cells: u64,
    /// Untimed steps first.
    pub warmup: u64,
    /// Timed steps.
    pub steps: u64,
    /// The exchange model.
    pub model: ExchangeModel,
}

/// Time this rank of `comm` (collective): `steps(n)` takes `n` steps (none: 0) and returns
/// their iterations and the rank's halo counters after them.
pub fn time_rank(
    comm: &dyn Comm,
    t: &Timing,
    steps: &mut dyn FnMut(u64) -> Result<(u64, HaloStats), RunError>,
) -> Result<RankBench, RunError> {
    let rank = comm.rank();
    let win = t.dec.window(rank);
    steps(t.warmup)?;
    comm.barrier();
    let before = steps(0)?.1;
    let start = std::time::Instant::now();
    let (iterations, after) = steps(t.steps)?;
    let seconds = start.elapsed().as_secs_f64();
    let d = diff(after, before);
    let it = iterations.max(1) as f64;
    // One device read batch and one write batch per stage that has neighbours.
    let stages = [[WEST, EAST], [SOUTH, NORTH]]
        .iter()
        .filter(|s| s.iter().any(|&side| win.neighbours[side].is_some()))
        .count() as f64;
    let (bytes, messages) = (d.bytes as f64 / it, d.messages as f64 / it);
    let exchanges = d.exchanges as f64 / it;
    let reductions = d.reductions as f64 / it;
    let fluid_cells = t.fluid_cells;
    Ok(RankBench {
        rank,
        columns: [win.own_x.start, win.own_x.end],
        rows: [win.own_y.start, win.own_y.end],
        fluid_cells,
        iterations,
        seconds,
        mcell_its: fluid_cells as f64 * iterations as f64 / seconds.max(1e-300) / 1e6,
        ms_per_iteration: 1e3 * seconds / it,
        exchanges_per_iteration: exchanges,
        halo_bytes_per_iteration: bytes,
        messages_per_iteration: messages,
        halo_ms_per_iteration: 1e3 * d.seconds / it,
        reduce_ms_per_iteration: 1e3 * d.reduce_seconds / it,
        model_ms_per_iteration: 1e3
            * t.model
                .seconds(bytes, 2.0 * stages * exchanges, messages, reductions),
    })
}

fn diff(a: HaloStats, b: HaloStats) -> HaloStats {
    HaloStats {
        exchanges: a.exchanges - b.exchanges,
        bytes: a.bytes - b.bytes,
        messages: a.messages - b.messages,
        seconds: a.seconds - b.seconds,
        reductions: a.reductions - b.reductions,
        reduce_seconds: a.reduce_seconds - b.reduce_seconds,
    }
}

/// A decomposed bench: every rank's numbers and the aggregate.
#[derive(Debug, Clone, Serialize)]
pub struct RanksReport {
    /// Case name.
    pub case: String,
    /// Backend of every rank.
    pub backend: String,
    /// `threads`: the ranks are threads of one process; `mpi`: the processes of an MPI job.
    pub transport: String,
    /// Ranks along x and y.
    pub ranks_x: usize,
    /// Ranks along y.
    pub ranks_y: usize,
    /// Computed cells of the whole grid along x and y.
    pub nx: usize,
    /// Computed cells along y.
    pub ny: usize,
    /// Fluid cells of the whole grid.
    pub fluid_cells: u64,
    /// What an iteration is: `loop-2 iteration` (SIMPLE-TS) or `step` (the explicit methods).
    pub iteration: String,
    /// Iterations timed (every rank takes the same).
    pub iterations: u64,
    /// The slowest rank's seconds (the run's).
    pub seconds: f64,
    /// Whole-grid fluid cells × iterations per second of the slowest rank, millions.
    pub mcell_its: f64,
    /// The slowest rank's ms per iteration.
    pub ms_per_iteration: f64,
    /// The largest halo ms per iteration of a rank, measured.
    pub halo_ms_per_iteration: f64,
    /// The largest modelled exchange ms per iteration of a rank.
    pub model_ms_per_iteration: f64,
    /// The model's parameters.
    pub model: ExchangeModel,
    /// OpenCL ranks: `overlapped` (each phase's or stage's interior computed while its halos
    /// travel) or `blocking` (the exchange after the whole phase or stage).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exchange: Option<String>,
    /// Every rank.
    pub each: Vec<RankBench>,
}

impl RanksReport {
    /// The report of ranks `each` (in rank order) on the whole problem `pb`.
    pub fn new(
        pb: &Problem,
        dec: &Decomposition,
        backend: String,
        model: ExchangeModel,
        each: Vec<RankBench>,
    ) -> RanksReport {
        let what = (
            pb.case.name.clone(),
            pb.grid.nx,
            pb.grid.ny,
            "loop-2 iteration",
        );
        RanksReport::of(what, dec, backend, model, each)
    }

    /// The report of ranks `each` (in rank order) on case `name` of `nx × ny` cells, whose
    /// iterations are `iteration`s.
    pub fn of(
        (name, nx, ny, iteration): (String, usize, usize, &str),
        dec: &Decomposition,
        backend: String,
        model: ExchangeModel,
        each: Vec<RankBench>,
    ) -> RanksReport {
        let fluid_cells: u64 = each.iter().map(|r| r.fluid_cells).sum();
        let seconds = each.iter().map(|r| r.seconds).fold(0.0, f64::max);
        let iterations = each.first().map_or(0, |r| r.iterations);
        let most = |f: fn(&RankBench) -> f64| each.iter().map(f).fold(0.0, f64::max);
        RanksReport {
            case: name,
            backend,
            transport: "threads".to_string(),
            ranks_x: dec.px,
            ranks_y: dec.py,
            nx,
            ny,
            fluid_cells,
            iteration: iteration.to_string(),
            iterations,
            seconds,
            mcell_its: fluid_cells as f64 * iterations as f64 / seconds.max(1e-300) / 1e6,
            ms_per_iteration: 1e3 * seconds / iterations.max(1) as f64,
            halo_ms_per_iteration: most(|r| r.halo_ms_per_iteration),
            model_ms_per_iteration: most(|r| r.model_ms_per_iteration),
            model,
            exchange: None,
            each,
        }
    }

    /// The report as text: one line for the run, one per rank.
    pub fn render(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "bench {} on {} x {} {} ranks{}, {} {} x {} ({} fluid cells): {} {}s in \
             {:.3} s: {:.3} ms/{it}, {:.2} Mcell-it/s aggregate; exchange {:.3} ms/{it} \
             measured, {:.3} modelled ({} GB/s link, {} µs latency)",
            self.backend,
            self.ranks_x,
            self.ranks_y,
            if self.transport == "mpi" {
                "MPI"
            } else {
                "thread"
            },
            self.exchange
                .as_ref()
                .map_or(String::new(), |e| format!(" ({e} exchange)")),
            self.case,
            self.nx,
            self.ny,
            self.fluid_cells,
            self.iterations,
            self.iteration,
            self.seconds,
            self.ms_per_iteration,
            self.mcell_its,
            self.halo_ms_per_iteration,
            self.model_ms_per_iteration,
            self.model.link_gbs,
            self.model.latency_us,
            it = if self.iteration == "step" {
                "step"
            } else {
                "iteration"
            },
        );
        let _ = writeln!(
            s,
            "{:>4} {:>13} {:>13} {:>10} {:>9} {:>10} {:>9} {:>11} {:>8} {:>9} {:>9} {:>9}",
            "rank",
            "columns",
            "rows",
            "fluid",
            "ms/it",
            "Mcell-it/s",
            "exch/it",
            "halo B/it",
            "msg/it",
            "halo ms",
            "reduce ms",
            "model ms"
        );
        for r in &self.each {
            let _ = writeln!(
                s,
                "{:>4} {:>13} {:>13} {:>10} {:>9.3} {:>10.2} {:>9.1} {:>11.0} {:>8.1} {:>9.3} \
                 {:>9.3} {:>9.3}",
                r.rank,
                format!("{}..{}", r.columns[0], r.columns[1]),
                format!("{}..{}", r.rows[0], r.rows[1]),
                r.fluid_cells,
                r.ms_per_iteration,
                r.mcell_its,
                r.exchanges_per_iteration,
                r.halo_bytes_per_iteration,
                r.messages_per_iteration,
                r.halo_ms_per_iteration,
                r.reduce_ms_per_iteration,
                r.model_ms_per_iteration,
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_is_link_time_plus_latencies() {
        let m = ExchangeModel {
            link_gbs: 10.0,
            latency_us: 5.0,
        };
        // 1 MB each way at 10 GB/s: 0.2 ms; 4 latencies: 0.02 ms.
        let t = m.seconds(1e6, 2.0, 1.0, 1.0);
        assert!((t - 2.2e-4).abs() < 1e-12, "{t}");
    }
}
