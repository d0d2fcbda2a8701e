//! `simplets run`: a case on a backend, writing the NetCDF series, the side CSV files, the
//! manifest and checkpoints.

use std::path::PathBuf;

use std::sync::atomic::Ordering;

use anyhow::anyhow;
use simplets::output::checkpoint::{check_header, read_header};
use simplets::output::series::NcLayout;
use simplets::run::{interrupt_on_signals, run_case, RunOptions};

use super::{
    choice, default_case, device_failure, lean_option, load_any, only_for, resolve_auto,
    thread_pool, Backend, Failure, KernelForm, MAX_THREADS,
};

/// Arguments of `simplets run`.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// Case file (JSON); default: configs/default.json.
    pub case: Option<PathBuf>,
    /// Output directory.
    #[arg(long, default_value = "out")]
    pub out: PathBuf,
    /// Overwrite an existing output file.
    #[arg(long)]
    pub force: bool,
    /// Run N time steps instead of the case's.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub steps: Option<u64>,
    /// Solver backend; `auto`: OpenCL on the first fp64 GPU if there is one, else the serial
    /// reference (on CPU-only machines the reference is the faster choice).
    #[arg(long, value_enum, default_value_t = Backend::Auto)]
    pub backend: Backend,
    /// Threads of the `parallel` backend (default: rayon's, one per core).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: Option<u32>,
    /// OpenCL device: index in `simplets devices` or a name substring (default: the first
    /// fp64 GPU, else a CPU device).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Compile the kernels from source even if a cached binary exists (honest build timings).
    #[arg(long)]
    pub no_kernel_cache: bool,
    /// OpenCL loop-2 form: `phase` kernels (default; fastest today) or the paper's `fused`
    /// one-kernel y-sweep. CE/SE: `phase` launches the two half steps separately, `fused`
    /// runs both in one launch.
    #[arg(long, value_enum)]
    pub kernel: Option<KernelForm>,
    /// With `--kernel fused`: lean storage. ρ and Γ are computed where they are read and the
    /// geometry is one packed word per cell: about 100 B per cell for the implicit schemes
    /// instead of 200, bit-identical results (not for periodic sides).
    #[arg(long)]
    pub lean: bool,
    /// Write the assembled OpenCL source of this case to FILE and exit.
    #[arg(long, value_name = "FILE")]
    pub dump_kernel: Option<PathBuf>,
    /// Write <OUT>/<name>.ckpt-<step> every N steps and at the end (the last two are kept).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub checkpoint_every: Option<u64>,
    /// Continue from a checkpoint up to the case's total steps (or --steps N, counted from
    /// step 0); output goes to <OUT>/<name>.s<step>.nc, or to the next part of split output.
    #[arg(long, value_name = "FILE")]
    pub restart: Option<PathBuf>,
    /// Under MPI (`mpirun -n N simplets run …`, a build with the feature `mpi`): ranks along x
    /// (default: all ranks along the longer axis; with --ranks-y alone, N / ranks-y).
    #[arg(long, value_name = "PX", value_parser = clap::value_parser!(u32).range(1..))]
    pub ranks_x: Option<u32>,
    /// Under MPI: ranks along y.
    #[arg(long, value_name = "PY", value_parser = clap::value_parser!(u32).range(1..))]
    pub ranks_y: Option<u32>,
    /// Split the NetCDF output into <OUT>/<name>.0001.nc, .0002.nc, … of at most N snapshots
    /// each (overrides output.snapshots_per_file; 0: one file).
    #[arg(long, value_name = "N")]
    pub split_every: Option<u64>,
}

/// `simplets run`.
pub fn run(args: RunArgs) -> Result<(), Failure> {
    let path = match args.case.clone() {
        Some(p) => p,
        None => default_case()?,
    };
    // MPI first (a launcher's environment is all it needs), before any thread is started.
    let world = super::ranks::world();
    let case = load_any(&path)?;
    if let Some(file) = &args.dump_kernel {
        return super::tools::dump_kernel(&case, file, args.kernel, args.force);
    }
    // The handler first: the OpenCL platform (PoCL, LLVM) installs SIGTERM handlers of its
    // own when it is first looked up, and one installed after them would chain to them.
    let interrupt = interrupt_on_signals()
        .map_err(|e| Failure::Run(anyhow!("cannot install the SIGTERM/SIGINT handler: {e}")))?;
    let backend = resolve_auto(args.backend, args.device.as_deref());
    only_for(
        backend,
        &[
            ("--threads", args.threads.is_some(), Backend::Parallel),
            ("--device", args.device.is_some(), Backend::Opencl),
            ("--no-kernel-cache", args.no_kernel_cache, Backend::Opencl),
            ("--kernel", args.kernel.is_some(), Backend::Opencl),
        ],
    )?;
    let kernel = args.kernel.unwrap_or(KernelForm::Phase);
    let lean = lean_option(args.lean, kernel)?;
    let common = case.common();
    if args.out.exists() && !args.out.is_dir() {
        return Err(Failure::Input(anyhow!(
            "--out {}: not a directory",
            args.out.display()
        )));
    }
    // Refuse a bad checkpoint or an existing output before building the solver (which may
    // allocate gigabytes).
    let restart = match &args.restart {
        Some(ckpt) => {
            let header = read_header(ckpt).map_err(|e| Failure::Input(e.into()))?;
            let dims = (common.grid.nx, common.grid.ny);
            check_header(&header, ckpt, &common, dims).map_err(|e| Failure::Input(e.into()))?;
            Some((header.step, header.nc_part))
        }
        None => None,
    };
    let per_file = args.split_every.unwrap_or(common.output.snapshots_per_file);
    NcLayout::new(&args.out, &common.name, restart, per_file)
        .check_writable(args.force)
        .map_err(|e| Failure::Input(e.into()))?;
    let opts = RunOptions {
        out_dir: args.out.clone(),
        force: args.force,
        steps_override: args.steps,
        snapshots_per_file: args.split_every,
        checkpoint_every: args.checkpoint_every,
        restart: args.restart.clone(),
        interrupt: Some(interrupt),
        ..RunOptions::default()
    };
    thread_pool(args.threads)?;
    let mut choice = choice(backend, args.device.clone(), !args.no_kernel_cache);
    choice.kernel = kernel.into();
    choice.lean = lean;
    if backend == Backend::Opencl {
        choice.log_dir = Some(opts.out_dir.clone());
        std::fs::create_dir_all(&opts.out_dir)
            .map_err(|e| Failure::Run(anyhow!("cannot create {}: {e}", opts.out_dir.display())))?;
    }
    // A signal during set-up (the kernel build takes seconds to minutes) stops the run after
    // its first step like any other; should the set-up fail while a signal is pending (a
    // runtime whose compiler does not survive the signal), that is still an interruption:
    // exit 3, nothing written, so that a batch script resubmits instead of losing the job.
    let interrupted = || {
        opts.interrupt
            .as_ref()
            .is_some_and(|f| f.load(Ordering::SeqCst))
    };
    if let Some(comm) = world {
        if comm.size() > 1 || backend != Backend::Opencl {
            let layout = (
                args.ranks_x.map(|x| x as usize),
                args.ranks_y.map(|y| y as usize),
            );
            return super::ranks::run(comm, &case, &choice, &opts, layout);
        }
    } else if super::ranks::launched_with_several() {
        return Err(Failure::Input(anyhow!(
            "started as one of several MPI ranks, but this simplets was built without the \
             feature `mpi` (cargo build --release --features mpi)"
        )));
    } else if args.ranks_x.is_some() || args.ranks_y.is_some() {
        return Err(Failure::Input(anyhow!(
            "--ranks-x/--ranks-y need an MPI launch (mpirun -n N simplets run …)"
        )));
    }
    let mut solver = simplets::methods::build(&case, &choice).map_err(|e| {
        if interrupted() {
            Failure::Interrupted(anyhow!(
                "interrupted during set-up before any step ({e}); nothing was written: run again"
            ))
        } else {
            device_failure(e)
        }
    })?;
    if interrupted() {
        // Stopped before the first step: the run's files are not created yet.
        return Err(Failure::Interrupted(anyhow!(
            "interrupted during set-up before any step; nothing was written: run again"
        )));
    }
    super::outcome(run_case(&common, solver.as_mut(), &opts))
}
