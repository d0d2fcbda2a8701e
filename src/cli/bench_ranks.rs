//! `simplets bench` of a decomposed run for SIMPLE-TS and the explicit methods (convection and
//! the SHLL methods): with `--thread-ranks N` the case on N ranks that are threads of this
//! process, every rank on one device (OpenCL) or sharing the cores; under an MPI launcher
//! (`mpirun -n N simplets bench …`, feature `mpi`) on the job's ranks, each on its node-local
//! GPU or its node's cores. Timed per rank with the halo traffic and time per iteration
//! (`simplets::bench::ranks`); rank 0 gathers every rank's numbers and prints and writes the
//! report. A rank that fails ends the process with its rank and reason in one line (the
//! others may be waiting for it).

use std::sync::Arc;

use anyhow::anyhow;
use simplets::bench::ranks::{run_rank, time_rank, ExchangeModel, RankBench, RanksReport, Timing};
use simplets::decomp::{Comm, Decomposition, ThreadComm};
use simplets::methods::explicit::{ranks as xranks, Bc};
use simplets::methods::simple_ts::case::Case;
use simplets::methods::simple_ts::geometry::{Ghost, EAST, NORTH, SOUTH, WEST};
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::{AnyCase, BackendChoice};

use super::bench_args::{BenchArgs, HaloExchange};
use super::{choice, thread_pool, Backend, Failure, KernelForm};

/// Where the ranks of a decomposed bench run.
pub enum RankSet {
    /// N threads of this process (`--thread-ranks N`), all on one device.
    Threads(usize),
    /// This process as one rank of an MPI job.
    Mpi(Arc<dyn Comm>),
}

impl RankSet {
    /// Ranks in all.
    fn size(&self) -> usize {
        match self {
            RankSet::Threads(n) => *n,
            RankSet::Mpi(w) => w.size(),
        }
    }
}

/// What every rank of a bench gives back: its backend's name and its timings, one per timed
/// exchange mode.
type RankResult = (String, Vec<RankBench>);

/// What rank 0 collects: the backend's name and every rank's timings, in rank order.
type Gathered = (String, Vec<Vec<RankBench>>);

/// Run `body` on every rank of `set`: as threads, or this process's rank of the MPI job. The
/// caller of the threads, or MPI rank 0, gets the backend name and every rank's timings in
/// rank order; the other MPI ranks get `None`.
fn each_rank<F>(set: &RankSet, body: F) -> Result<Option<Gathered>, Failure>
where
    F: Fn(Arc<dyn Comm>) -> RankResult + Send + Sync + 'static,
{
    match set {
        RankSet::Threads(n) => {
            let body = Arc::new(body);
            let threads: Vec<_> = ThreadComm::group(*n)
                .into_iter()
                .map(|c| {
                    let body = Arc::clone(&body);
                    std::thread::spawn(move || body(Arc::new(c)))
                })
                .collect();
            join_ranks(threads).map(Some)
        }
        RankSet::Mpi(w) => {
            let (name, mine) = body(Arc::clone(w));
            let text = serde_json::to_string(&mine).expect("invariant: timings serialise");
            let all = simplets::methods::simple_ts::ranks::gather_text(w.as_ref(), &text);
            if !w.is_root() {
                return Ok(None);
            }
            let each = all
                .iter()
                .map(|t| serde_json::from_str(t))
                .collect::<Result<Vec<Vec<RankBench>>, _>>()
                .map_err(|e| Failure::Run(anyhow!("a rank's timings did not arrive whole: {e}")))?;
            Ok(Some((name, each)))
        }
    }
}

/// SIMPLE-TS `case` on the ranks of `set` (`simplets::bench::ranks`).
pub fn simple_ts(args: &BenchArgs, case: Case, opencl: bool, set: &RankSet) -> Result<(), Failure> {
    if args.kernel == KernelForm::Fused || args.lean || args.width.is_some() {
        return Err(Failure::Input(anyhow!(
            "a decomposed bench runs the phase kernels (the fused kernel does not run on \
             ranks): drop --kernel fused, --lean and --width"
        )));
    }
    let model = exchange_model(args)?;
    let pb = Arc::new(Problem::new(&case));
    let periodic = |a: usize, b: usize| {
        [a, b]
            .iter()
            .any(|&s| matches!(pb.geo.sides[s], Ghost::Periodic))
    };
    let dec = Decomposition::choose(
        case.grid.nx,
        case.grid.ny,
        set.size(),
        args.ranks_x,
        args.ranks_y,
        (periodic(WEST, EAST), periodic(SOUTH, NORTH)),
    )
    .map_err(|e| Failure::Input(anyhow!(e)))?;
    let choice = rank_choice(args, opencl, set)?;
    let (warmup, steps) = (args.warmup, args.steps);
    let out = Reports::new(
        args,
        opencl,
        set,
        simplets::methods::simple_ts::opencl::phase::OVERLAP_BY_DEFAULT,
    )?;
    let (whole, layout, timed) = (Arc::clone(&pb), dec.clone(), out.modes.clone());
    let per = each_rank(set, move |comm| {
        let (rank, size) = (comm.rank(), comm.size());
        let fail = |e: &dyn std::fmt::Display| -> ! { rank_failed(rank, size, e) };
        let mut r = simplets::methods::simple_ts::ranks::build(
            Arc::clone(&whole),
            layout.clone(),
            comm,
            &choice,
        )
        .unwrap_or_else(|e| fail(&e));
        let name = simplets::methods::simple_ts::backend::Backend::name(r.local());
        let mut each = Vec::new();
        for &mode in &timed {
            if let Some(on) = mode {
                simplets::methods::simple_ts::backend::Backend::set_overlap(&mut r, on);
            }
            let b = run_rank(&mut r, &whole, warmup, steps, model).unwrap_or_else(|e| fail(&e));
            each.push(b);
        }
        (name, each)
    })?;
    out.write(args, per, |each, name| {
        RanksReport::new(&pb, &dec, name, model, each)
    })
}

/// What the reports of a decomposed bench say besides the timings: the timed exchange modes
/// (`Some(overlap)` set on every rank, `None` the default), the default, whether the ranks ran
/// OpenCL, and where they ran.
struct Reports<'a> {
    modes: Vec<Option<bool>>,
    default: bool,
    opencl: bool,
    set: &'a RankSet,
}

impl<'a> Reports<'a> {
    /// The exchanges `--halo-exchange` times on the ranks of `set`, in order, and the one
    /// OpenCL ranks run unless told (`SIMPLETS_HALO_OVERLAP`, else the method's `by_default`;
    /// a bad value refused here).
    fn new(
        args: &BenchArgs,
        opencl: bool,
        set: &'a RankSet,
        by_default: bool,
    ) -> Result<Reports<'a>, Failure> {
        let env = simplets::device::overlap_setting().map_err(super::device_failure)?;
        let modes = match args.halo_exchange {
            None => vec![None],
            Some(HaloExchange::Overlapped) => vec![Some(true)],
            Some(HaloExchange::Blocking) => vec![Some(false)],
            Some(HaloExchange::Both) => vec![Some(false), Some(true)],
        };
        Ok(Reports {
            modes,
            default: opencl && env.unwrap_or(by_default),
            opencl,
            set,
        })
    }

    /// Rank 0's reports, one per timed mode (`make` builds one from the ranks' timings and the
    /// backend's name), printed and written; nothing on the other MPI ranks (`per` is `None`).
    fn write(
        &self,
        args: &BenchArgs,
        per: Option<Gathered>,
        make: impl Fn(Vec<RankBench>, String) -> RanksReport,
    ) -> Result<(), Failure> {
        let Some((name, mut per_rank)) = per else {
            return Ok(());
        };
        let mut reports = Vec::new();
        for mode in self.modes.iter().rev() {
            let each: Vec<_> = per_rank.iter_mut().filter_map(Vec::pop).collect();
            let mut report = make(each, name.clone());
            report.exchange = exchange_name(self.opencl, mode.unwrap_or(self.default));
            report.transport = transport(self.set);
            reports.insert(0, report);
        }
        reports_out(args, &reports)
    }
}

/// The report's name of the ranks' transport.
fn transport(set: &RankSet) -> String {
    match set {
        RankSet::Threads(_) => "threads".into(),
        RankSet::Mpi(_) => "mpi".into(),
    }
}

/// The report's name of the exchange (OpenCL ranks only).
fn exchange_name(opencl: bool, overlap: bool) -> Option<String> {
    opencl.then(|| if overlap { "overlapped" } else { "blocking" }.into())
}

/// The explicit case `any` on the ranks of `set`, `--steps` timed steps after `--warmup` (the
/// end time lifted, as in `bench`).
pub fn explicit(
    args: &BenchArgs,
    any: &AnyCase,
    opencl: bool,
    set: &RankSet,
) -> Result<(), Failure> {
    let model = exchange_model(args)?;
    let mut p = super::explicit::resized(any, args.nx, args.ny)?
        .explicit_problem()
        .expect("an explicit case");
    p.t_end = f64::INFINITY;
    let periodic = |a: usize| matches!(p.sides[a], Bc::Periodic);
    let m = p.mesh;
    let dec = Decomposition::choose_layers(
        m.nx,
        m.ny,
        set.size(),
        (args.ranks_x, args.ranks_y),
        (periodic(0), m.dims == 2 && periodic(2)),
        xranks::layers(&p),
    )
    .map_err(|e| Failure::Input(anyhow!(e)))?;
    let choice = rank_choice(args, opencl, set)?;
    let (warmup, steps) = (args.warmup, args.steps);
    let out = Reports::new(
        args,
        opencl,
        set,
        simplets::methods::explicit::opencl::OVERLAP_BY_DEFAULT,
    )?;
    let pb = Arc::new(p);
    let (whole, layout, timed) = (Arc::clone(&pb), dec.clone(), out.modes.clone());
    let per = each_rank(set, move |comm| {
        let (rank, size) = (comm.rank(), comm.size());
        let fail = |e: &dyn std::fmt::Display| -> ! { rank_failed(rank, size, e) };
        let fluid_cells = owned_fluid(&whole, &layout, rank);
        let mut r = xranks::build(
            Arc::clone(&whole),
            layout.clone(),
            Arc::clone(&comm),
            &choice,
        )
        .unwrap_or_else(|e| fail(&e));
        let name = r.local().backend_name();
        let halo = Arc::clone(r.halo());
        let timing = Timing {
            dec: &layout,
            fluid_cells,
            warmup,
            steps,
            model,
        };
        let mut each = Vec::new();
        for &mode in &timed {
            if let Some(on) = mode {
                r.local_mut().set_overlap(on);
            }
            let b = time_rank(comm.as_ref(), &timing, &mut |n| {
                for _ in 0..n {
                    r.local_mut().step_rank()?;
                }
                Ok((n, halo.stats()))
            })
            .unwrap_or_else(|e| fail(&e));
            each.push(b);
        }
        (name, each)
    })?;
    out.write(args, per, |each, name| {
        let what = (pb.common.name.clone(), m.nx, m.ny, "step");
        RanksReport::of(what, &dec, name, model, each)
    })
}

/// The computed cells of rank `rank`'s block that are not solid.
fn owned_fluid(p: &simplets::methods::explicit::Problem, dec: &Decomposition, rank: usize) -> u64 {
    let (cols, rows) = xranks::owned(&p.mesh, &dec.window(rank));
    rows.flat_map(|j| cols.clone().map(move |i| p.mesh.idx(i, j)))
        .filter(|&k| !p.is_solid(k))
        .count() as u64
}

/// The exchange model of `--link-gbs` and `--latency-us` (both positive).
fn exchange_model(args: &BenchArgs) -> Result<ExchangeModel, Failure> {
    let (link_gbs, latency_us) = (
        args.link_gbs.unwrap_or(25.0),
        args.latency_us.unwrap_or(10.0),
    );
    let bad = |x: f64| !(x.is_finite() && x > 0.0);
    if bad(link_gbs) || bad(latency_us) {
        return Err(Failure::Input(anyhow!(
            "--link-gbs and --latency-us must be positive numbers"
        )));
    }
    Ok(ExchangeModel {
        link_gbs,
        latency_us,
    })
}

/// The backend every rank runs, with the thread pool of `--threads` for `parallel`. On OpenCL
/// thread ranks all use the one device chosen here; MPI ranks the device `--device` names, else
/// their node-local rank's GPU (as `simplets run`).
fn rank_choice(args: &BenchArgs, opencl: bool, set: &RankSet) -> Result<BackendChoice, Failure> {
    let backend = if opencl {
        Backend::Opencl
    } else {
        args.backend
    };
    let mut choice = choice(backend, args.device.clone(), true);
    if opencl && matches!(set, RankSet::Threads(_)) {
        let dev = simplets::device::select_device(args.device.as_deref())
            .map_err(|e| Failure::Input(e.into()))?;
        let list = simplets::device::list_devices().map_err(|e| Failure::Input(e.into()))?;
        let at = list.iter().position(|d| *d == dev).unwrap_or(0);
        choice.device = Some(at.to_string());
    }
    if args.backend == Backend::Parallel {
        thread_pool(args.threads)?;
    }
    Ok(choice)
}

/// End the process for a rank that failed, naming it (the other ranks may be waiting for it).
fn rank_failed(rank: usize, size: usize, e: &dyn std::fmt::Display) -> ! {
    eprintln!("simplets: rank {rank} of {size} failed: {e}");
    std::process::exit(1)
}

/// The backend name and the per-rank results of the rank threads, in rank order.
fn join_ranks<B>(
    threads: Vec<std::thread::JoinHandle<(String, B)>>,
) -> Result<(String, Vec<B>), Failure> {
    let mut each = Vec::new();
    let mut name = String::new();
    for t in threads {
        let (n, b) = t
            .join()
            .map_err(|_| Failure::Run(anyhow!("a rank thread panicked")))?;
        name = n;
        each.push(b);
    }
    Ok((name, each))
}

/// Print one report or several (`--halo-exchange both`: in turn) and write `--json`
/// atomically (`--force` to overwrite): one report, or an object of the reports by their
/// exchange.
fn reports_out(args: &BenchArgs, reports: &[RanksReport]) -> Result<(), Failure> {
    for r in reports {
        print!("{}", r.render());
    }
    if let Some(path) = &args.json {
        let text = match reports {
            [one] => serde_json::to_string_pretty(one),
            _ => {
                let by: serde_json::Map<String, serde_json::Value> = reports
                    .iter()
                    .map(|r| {
                        let key = r.exchange.clone().unwrap_or_default();
                        (key, serde_json::to_value(r).expect("report serialises"))
                    })
                    .collect();
                serde_json::to_string_pretty(&by)
            }
        }
        .expect("report serialises");
        simplets::output::atomic::write_atomic(path, text.as_bytes(), args.force)
            .map_err(|e| Failure::Run(e.into()))?;
        println!("{}", path.display());
    }
    Ok(())
}
