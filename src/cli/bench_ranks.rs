//! `simplets bench --thread-ranks N` for the explicit methods (convection and the SHLL
//! methods): the case on N ranks that are threads of this process, every rank on one device
//! (OpenCL) or sharing the cores, timed per rank with the halo traffic and time per step
//! (`simplets::bench::ranks`). A rank that fails ends the process with its rank and reason in
//! one line (the others may be waiting for it).

use std::sync::Arc;

use anyhow::anyhow;
use simplets::bench::ranks::{time_rank, ExchangeModel, RanksReport, Timing};
use simplets::decomp::{Comm, Decomposition, ThreadComm};
use simplets::methods::explicit::{ranks as xranks, Bc};
use simplets::methods::AnyCase;

use super::bench_args::BenchArgs;
use super::{choice, thread_pool, Backend, Failure};

/// The explicit case `any` on `n` thread ranks (`opencl`: every rank on the one device chosen
/// here), `--steps` timed steps after `--warmup` (the end time lifted, as in `bench`).
pub fn explicit(args: &BenchArgs, any: &AnyCase, opencl: bool, n: usize) -> Result<(), Failure> {
    let bad = |x: f64| !(x.is_finite() && x > 0.0);
    if bad(args.link_gbs) || bad(args.latency_us) {
        return Err(Failure::Input(anyhow!(
            "--link-gbs and --latency-us must be positive numbers"
        )));
    }
    let mut p = super::explicit::resized(any, args.nx, args.ny)?
        .explicit_problem()
        .expect("an explicit case");
    p.t_end = f64::INFINITY;
    let periodic = |a: usize| matches!(p.sides[a], Bc::Periodic);
    let m = p.mesh;
    let dec = Decomposition::choose_layers(
        m.nx,
        m.ny,
        n,
        (args.ranks_x, args.ranks_y),
        (periodic(0), m.dims == 2 && periodic(2)),
        xranks::layers(&p),
    )
    .map_err(|e| Failure::Input(anyhow!(e)))?;
    let backend = if opencl {
        Backend::Opencl
    } else {
        args.backend
    };
    let mut choice = choice(backend, args.device.clone(), true);
    if opencl {
        // Every rank on the one device chosen here (not one GPU per rank).
        let dev = simplets::device::select_device(args.device.as_deref())
            .map_err(|e| Failure::Input(e.into()))?;
        let list = simplets::device::list_devices().map_err(|e| Failure::Input(e.into()))?;
        let at = list.iter().position(|d| *d == dev).unwrap_or(0);
        choice.device = Some(at.to_string());
    }
    if args.backend == Backend::Parallel {
        thread_pool(args.threads)?;
    }
    let model = ExchangeModel {
        link_gbs: args.link_gbs,
        latency_us: args.latency_us,
    };
    let (warmup, steps) = (args.warmup, args.steps);
    let pb = Arc::new(p);
    let threads: Vec<_> = ThreadComm::group(dec.ranks())
        .into_iter()
        .map(|c| {
            let (pb, dec, choice) = (Arc::clone(&pb), dec.clone(), choice.clone());
            std::thread::spawn(move || {
                let comm: Arc<dyn Comm> = Arc::new(c);
                let (rank, size) = (comm.rank(), comm.size());
                let fail = |e: &dyn std::fmt::Display| -> ! {
                    eprintln!("simplets: rank {rank} of {size} failed: {e}");
                    std::process::exit(1)
                };
                let fluid_cells = owned_fluid(&pb, &dec, rank);
                let mut r = xranks::build(pb, dec.clone(), Arc::clone(&comm), &choice)
                    .unwrap_or_else(|e| fail(&e));
                let name = r.local().backend_name();
                let halo = Arc::clone(r.halo());
                let timing = Timing {
                    dec: &dec,
                    fluid_cells,
                    warmup,
                    steps,
                    model,
                };
                let b = time_rank(comm.as_ref(), &timing, &mut |n| {
                    for _ in 0..n {
                        r.local_mut().step_rank()?;
                    }
                    Ok((n, halo.stats()))
                })
                .unwrap_or_else(|e| fail(&e));
                (name, b)
            })
        })
        .collect();
    let mut each = Vec::new();
    let mut name = String::new();
    for t in threads {
        let (n, b) = t
            .join()
            .map_err(|_| Failure::Run(anyhow!("a rank thread panicked")))?;
        name = n;
        each.push(b);
    }
    let what = (pb.common.name.clone(), m.nx, m.ny, "step");
    let report = RanksReport::of(what, &dec, name, model, each);
    print!("{}", report.render());
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report).expect("report serialises");
        simplets::output::atomic::write_atomic(path, text.as_bytes(), args.force)
            .map_err(|e| Failure::Run(e.into()))?;
        println!("{}", path.display());
    }
    Ok(())
}

/// The computed cells of rank `rank`'s block that are not solid.
fn owned_fluid(p: &simplets::methods::explicit::Problem, dec: &Decomposition, rank: usize) -> u64 {
    let (cols, rows) = xranks::owned(&p.mesh, &dec.window(rank));
    rows.flat_map(|j| cols.clone().map(move |i| p.mesh.idx(i, j)))
        .filter(|&k| !p.is_solid(k))
        .count() as u64
}
