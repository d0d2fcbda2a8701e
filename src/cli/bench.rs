//! `simplets bench`: timed iterations on one backend, with the per-kernel roofline on OpenCL.

use simplets::methods::simple_ts::case::SweepOrder;
use simplets::methods::simple_ts::solver::SimpleTs;

use super::bench_args::BenchArgs;
use super::{
    choice, device_failure, lean_option, load_simple_ts, resized, thread_pool, Backend, Failure,
    KernelForm,
};

/// `simplets bench`.
pub fn bench(args: BenchArgs) -> Result<(), Failure> {
    use anyhow::anyhow;
    // MPI first (a launcher's environment is all it needs), before any thread is started.
    let ranks = rank_set(&args)?;
    super::only_for(
        args.backend,
        &[
            ("--threads", args.threads.is_some(), Backend::Parallel),
            ("--device", args.device.is_some(), Backend::Opencl),
            ("--trace", args.trace.is_some(), Backend::Opencl),
            ("--width", args.width.is_some(), Backend::Opencl),
        ],
    )?;
    if let Some(path) = &args.json {
        simplets::output::atomic::check_writable(path, args.force)
            .map_err(|e| Failure::Input(e.into()))?;
    }
    let any = super::load_any(&args.case)?;
    if let (Some(set), Some(_)) = (&ranks, any.explicit_problem()) {
        let opencl = matches!(args.backend, Backend::Auto | Backend::Opencl);
        return super::bench_ranks::explicit(&args, &any, opencl, set);
    }
    if any.simple_ts().is_none() && ranks.is_some() {
        return Err(Failure::Input(anyhow!(
            "a decomposed bench (--thread-ranks, MPI) runs SIMPLE-TS and the explicit methods \
             (convection, SHLL) only"
        )));
    }
    if any.simple_ts().is_none() {
        let opts = super::explicit::BenchOpts {
            backend: args.backend,
            threads: args.threads,
            device: args.device.clone(),
            steps: args.steps,
            warmup: args.warmup,
            nx: args.nx,
            ny: args.ny,
            triad: args.triad,
            profile: !args.no_profile,
            json: args.json.as_deref(),
            force: args.force,
            csv: args.csv.as_deref(),
            kernel: args.kernel.into(),
        };
        return match any {
            simplets::methods::AnyCase::CeseEuler(_) => {
                let kernel = opts.kernel;
                super::cese::bench(&any, opts, kernel)
            }
            simplets::methods::AnyCase::BpEuler(_) => super::bp::bench(&any, opts),
            _ => super::explicit::bench(&any, opts),
        };
    }
    let mut case = resized(&load_simple_ts(&args.case, "bench")?, args.nx, args.ny)?;
    if let Some(scheme) = args.scheme {
        case.scheme = scheme;
    }
    case.solver.max_iters = args.iters;
    case.solver.eps_v = 0.0;
    case.solver.eps_p = 0.0;
    case.solver.eps_t = 0.0;
    if args.gpu_order {
        case.solver.order = SweepOrder::Gpu;
    }
    let opencl = matches!(args.backend, Backend::Auto | Backend::Opencl);
    if let Some(set) = &ranks {
        return super::bench_ranks::simple_ts(&args, case, opencl, set);
    }
    let fused = args.kernel == KernelForm::Fused
        && simplets::methods::simple_ts::opencl::fused::supports(&case);
    let form = opencl.then_some(match (fused, args.lean) {
        (false, _) => "phase",
        // The lean storage is its own form for the counts: it reads other arrays and computes
        // ρ and Γ (none counted yet, so its roofline columns stay empty rather than wrong).
        (true, true) => "fused-lean",
        (true, false) => "fused",
    });
    let mut spec = simplets::bench::Spec {
        warmup: args.warmup,
        steps: args.steps,
        profile: !args.no_profile,
        form,
        form_source: form.map(simplets::bench::trace::form_source),
        scheme: case.scheme.to_string(),
        order: format!("{:?}", case.solver.order).to_lowercase(),
        iters_per_step: case.solver.max_iters,
        host_bytes_per_cell: simplets::methods::simple_ts::numbers::host_bytes_per_cell(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        git: Some(simplets::output::manifest::GIT_DESCRIBE)
            .filter(|s| !s.is_empty())
            .unwrap_or("unknown")
            .to_string(),
        ..Default::default()
    };
    if opencl {
        let dev = simplets::device::select_device(args.device.as_deref())
            .map_err(|e| Failure::Input(e.into()))?;
        // The triad first, while the device memory is still free.
        if args.triad > 0 {
            let n = args.triad as usize * (1 << 20) / 8;
            let bw = simplets::device::bandwidth::triad_bandwidth(&dev, n, 5)
                .map_err(|e| Failure::Run(e.into()))?;
            spec.triad = Some(bw);
        }
        spec.device = Some(dev);
    }
    if args.backend == Backend::Parallel {
        thread_pool(args.threads)?;
        spec.threads = Some(
            args.threads
                .map_or_else(rayon::current_num_threads, |n| n as usize),
        );
    }
    if !opencl && args.triad > 0 {
        // The host's bandwidth on the backend's threads: the roofline of a CPU figure.
        let threads = spec.threads.unwrap_or(1);
        let bw = simplets::bench::host::triad_bandwidth(threads, args.triad as usize, 5)
            .map_err(|e| Failure::Run(anyhow!(e)))?;
        spec.triad = Some(bw);
        spec.host_traffic_per_stored_cell = simplets::bench::host::phase_traffic(
            simplets::bench::counts::embedded(),
            &spec.scheme,
            case.solver.sweeps(),
        );
    }
    let backend = if opencl {
        Backend::Opencl
    } else {
        args.backend
    };
    let mut choice = choice(backend, args.device.clone(), true);
    choice.kernel = args.kernel.into();
    choice.lean = lean_option(args.lean, args.kernel)?;
    choice.decomposition = args.width.map(|w| (w, args.rows.unwrap_or(usize::MAX)));
    // Unless it traces a step, bench reads back only the residual maxima.
    choice.no_read_back = args.trace.is_none();
    let setup = std::time::Instant::now();
    let built = simplets::methods::simple_ts::solver::build_backend(&case, &choice)
        .map_err(device_failure)?;
    let mut solver = SimpleTs::new(built);
    spec.setup_seconds = Some(setup.elapsed().as_secs_f64());
    let report = simplets::bench::run(&mut solver, &case.common(), &spec)
        .map_err(|e| Failure::Run(e.into()))?;
    if let (Some(dir), Some(form)) = (&args.trace, form) {
        simplets::bench::trace::trace_step(solver.backend(), &case, form, dir)
            .map_err(|e| Failure::Run(anyhow!(e)))?;
    }
    print!("{}", simplets::bench::render(&report));
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report).expect("report serialises");
        simplets::output::atomic::write_atomic(path, text.as_bytes(), args.force)
            .map_err(|e| Failure::Run(e.into()))?;
        println!("{}", path.display());
    }
    Ok(())
}

/// The ranks of a decomposed bench: `--thread-ranks N`, or the ranks of the MPI job that
/// started this process (several, or one: the baseline of a scaling table); `None` for the
/// single-process bench. The options of a decomposed bench without one are refused.
fn rank_set(args: &BenchArgs) -> Result<Option<super::bench_ranks::RankSet>, Failure> {
    use super::bench_ranks::RankSet;
    use anyhow::anyhow;
    let world = super::ranks::world();
    match (world, args.thread_ranks) {
        (Some(_), Some(_)) => Err(Failure::Input(anyhow!(
            "--thread-ranks runs ranks as threads of one process: under an MPI launcher the \
             job's ranks are the ranks (drop --thread-ranks)"
        ))),
        (Some(w), None) => Ok(Some(RankSet::Mpi(w))),
        (None, _) if super::ranks::launched_with_several() => Err(Failure::Input(anyhow!(
            "started as one of several MPI ranks, but this simplets was built without the \
             feature `mpi` (cargo build --release --features mpi)"
        ))),
        (None, Some(n)) => Ok(Some(RankSet::Threads(n as usize))),
        (None, None) => {
            let given = [
                ("--ranks-x", args.ranks_x.is_some()),
                ("--ranks-y", args.ranks_y.is_some()),
                ("--link-gbs", args.link_gbs.is_some()),
                ("--latency-us", args.latency_us.is_some()),
                ("--halo-exchange", args.halo_exchange.is_some()),
            ];
            match given.iter().find(|g| g.1) {
                Some((flag, _)) => Err(Failure::Input(anyhow!(
                    "{flag} is for a decomposed bench: add --thread-ranks N, or start it \
                     under an MPI launcher"
                ))),
                None => Ok(None),
            }
        }
    }
}
