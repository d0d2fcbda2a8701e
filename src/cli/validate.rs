//! `simplets validate`: the validation cases against analytic and published references.

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use simplets::methods::simple_ts::case::Case;
use simplets::methods::simple_ts::solver::build_backend;

use super::{
    choice, device_failure, only_for, resolve_auto, thread_pool, Backend, Failure, KernelForm,
    MAX_THREADS,
};

/// Arguments of `simplets validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// A case of validation/ (couette_heat, channel_kn, authors_cpp, grid_convergence, budgets, cavity,
    /// confined_square, square_low_speed; the explicit methods: riemann_euler,
    /// isentropic_vortex, dam_break_1d, dam_break_2d, convection, shock_bubble,
    /// conservation) or `all`.
    #[arg(default_value = "all")]
    pub case: String,
    /// The coarse variants (`<stem>.quick.json`), as run in CI.
    #[arg(long)]
    pub quick: bool,
    /// Solver backend the cases march on; `auto`: OpenCL on an fp64 GPU, else the reference.
    /// Every run is analysed on the host from the backend's final state.
    #[arg(long, value_enum, default_value_t = Backend::Reference)]
    pub backend: Backend,
    /// OpenCL device: index in `simplets devices` or a name substring.
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// OpenCL loop-2 form: `phase` kernels (default) or the fused one-kernel y-sweep.
    #[arg(long, value_enum)]
    pub kernel: Option<KernelForm>,
    /// Threads of the `parallel` backend (default: rayon's, one per core).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: Option<u32>,
    /// Report directory. Default: validation/report when run in the repository (the cases'
    /// validation/ is in the current directory), else ./validation-report, so that a build
    /// never writes into its source tree; /quick below either for --quick, so that a smoke
    /// run never replaces the full reports.
    #[arg(long, value_name = "DIR")]
    pub report_dir: Option<PathBuf>,
    /// Run up to N runs of a grid study at once, each on its own thread and solver (the
    /// confined squares: levels and schemes). On a GPU the small levels are launch-bound and
    /// share the device well; results do not depend on N.
    #[arg(long, value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u32).range(1..=64))]
    pub jobs: u32,
    /// Keep each finished run of the confined-square grid studies in DIR and take runs found
    /// there instead of running them again (same case, scheme, grid, Δt and backend kind), so
    /// that a study longer than one batch job or device lease is finished over several.
    #[arg(long, value_name = "DIR")]
    pub cache: Option<PathBuf>,
    /// Run only the study runs FILTER names, into --cache, and write no report; a later run
    /// without it assembles the study from the cache. FILTER: comma-separated terms, each a
    /// run's label, scheme, grid or tag (`h=1/80`, `implicit-tvd`, `h=1/5,h=1/10`, `warm`).
    /// A warm-started run also runs the run it starts from (its final state is not cached).
    #[arg(long, value_name = "FILTER", requires = "cache")]
    pub only_runs: Option<String>,
    /// Take every run of the grid studies from --cache and run none of them: a run missing
    /// there is an error naming it (exit 2). Assembles the committed GPU reports on any
    /// machine, in seconds (`--backend opencl --cache validation/cache`). The other cases
    /// are not cached and run as usual.
    #[arg(long, requires = "cache", conflicts_with = "only_runs")]
    pub cache_only: bool,
}

/// `simplets validate`.
pub fn validate(args: ValidateArgs) -> Result<(), Failure> {
    use simplets::validate::{backend_text, default_root, run_case_on, table, write_report, CASES};
    let backend = resolve_auto(args.backend, args.device.as_deref());
    only_for(
        backend,
        &[
            ("--threads", args.threads.is_some(), Backend::Parallel),
            ("--device", args.device.is_some(), Backend::Opencl),
            ("--kernel", args.kernel.is_some(), Backend::Opencl),
        ],
    )?;
    thread_pool(args.threads)?;
    if backend == Backend::Opencl {
        // A device that does not exist or lacks fp64 is bad input (exit 2), found before any
        // case runs.
        let dev = simplets::device::select_device(args.device.as_deref())
            .map_err(|e| Failure::Input(e.into()))?;
        simplets::device::require_fp64(&dev).map_err(|e| Failure::Input(e.into()))?;
    }
    let mut base = choice(backend, args.device.clone(), true);
    // The explicit methods' cases build their solvers with the same choice.
    let explicit_choice = base.clone();
    base.kernel = args.kernel.unwrap_or(KernelForm::Phase).into();
    let jobs = args.jobs as usize;
    // With several jobs and no --device, worker k runs on the k-th fp64 GPU (round robin).
    // Runs that share a GPU get separate OpenCL contexts, which the driver time-slices.
    let gpus: Vec<String> = if backend == Backend::Opencl && args.device.is_none() && jobs > 1 {
        simplets::device::list_devices()
            .map_err(|e| Failure::Input(e.into()))?
            .iter()
            .enumerate()
            .filter(|(_, d)| d.fp64 && d.device_type == "GPU")
            .map(|(k, _)| k.to_string())
            .collect()
    } else {
        vec![]
    };
    if backend == Backend::Opencl && jobs > gpus.len().max(1) {
        let on = match gpus.len() {
            0 => "one OpenCL device".to_string(),
            n => format!("{n} GPU(s)"),
        };
        log::warn!(
            "--jobs {jobs} on {on}: runs that share a device each get an OpenCL context, \
             which a GPU driver time-slices (8 at once on one H200 ran about 17 times slower \
             each, docs/runs/ run 19); on a GPU use --jobs at most the number of GPUs"
        );
    }
    // The same solver factory as `simplets run`, called once per run of a case.
    let bk = simplets::validate::Backend::new(move |case: &Case| {
        let mut c = base.clone();
        if !gpus.is_empty() {
            c.device = Some(gpus[simplets::validate::worker() % gpus.len()].clone());
        }
        build_backend(case, &c).map_err(|e| device_failure(e).one_line())
    })
    .with_jobs(jobs)
    .with_cache(args.cache.clone().map(|dir| {
        simplets::validate::RunCache {
            dir,
            kind: match backend {
                Backend::Parallel => "parallel",
                Backend::Opencl => "opencl",
                Backend::Auto | Backend::Reference => "reference",
            }
            .into(),
        }
    }))
    .with_only(args.only_runs.clone())
    .with_cache_only(args.cache_only)
    .with_choice(explicit_choice);
    let names: Vec<&str> = if args.case == "all" {
        CASES.to_vec()
    } else if CASES.contains(&args.case.as_str()) {
        vec![args.case.as_str()]
    } else {
        return Err(Failure::Input(anyhow!(
            "unknown validation case {:?}: expected one of {} or all",
            args.case,
            CASES.join(", ")
        )));
    };
    // The cases are read from ./validation in the repository, else from the source tree the
    // binary was built from; reports go next to them only in the first case.
    let (root, reports) = if Path::new("validation").is_dir() {
        (
            PathBuf::from("."),
            PathBuf::from("validation").join("report"),
        )
    } else {
        let root = default_root();
        if !root.join("validation").is_dir() {
            return Err(Failure::Input(anyhow!(
                "validation cases not found: no ./validation here and none in the source tree \
                 {} (run simplets validate in the repository)",
                root.display()
            )));
        }
        (root, PathBuf::from("validation-report"))
    };
    // The committed reports are the full variants: a `--quick` smoke run must not overwrite
    // them, so its reports go one level down unless a directory is given.
    let out = args.report_dir.unwrap_or_else(|| {
        if args.quick {
            reports.join("quick")
        } else {
            reports
        }
    });
    let mut rows = vec![];
    for name in names {
        let rep = match run_case_on(&root, name, args.quick, &bk) {
            Ok(rep) => rep,
            Err(e @ simplets::error::ValidateError::Partial { total, .. }) => {
                if total > 0 {
                    println!("{e}");
                }
                continue;
            }
            Err(
                e @ (simplets::error::ValidateError::Config(_)
                | simplets::error::ValidateError::NoRunMatches { .. }
                | simplets::error::ValidateError::NotCached { .. }),
            ) => return Err(Failure::Input(e.into())),
            Err(e) => return Err(Failure::Run(e.into())),
        };
        let path = write_report(&rep, &out).map_err(|e| Failure::Run(e.into()))?;
        log::info!("{name}: {:.1} s, report {}", rep.seconds, path.display());
        rows.extend(rep.rows);
    }
    println!("backend: {}", backend_text(&bk.names()));
    print!("{}", table(&rows));
    let failed = rows.iter().filter(|r| !r.pass).count();
    if failed > 0 {
        return Err(Failure::Run(anyhow!(
            "{failed} of {} validation metrics failed",
            rows.len()
        )));
    }
    Ok(())
}
