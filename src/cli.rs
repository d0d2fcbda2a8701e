//! Command line (clap derive): `simplets run`, `check`, `bench`, `validate` and `devices`.
//!
//! Failures are split by who must act: [`Failure::Input`] (exit status 2) for a bad command
//! line, an unreadable or invalid case file or an existing output without `--force`;
//! [`Failure::Run`] (exit status 1) for divergence, solver or write errors;
//! [`Failure::Interrupted`] (exit status 3) for a run stopped by SIGTERM/SIGINT after writing a
//! checkpoint. An unusable `--restart` checkpoint (missing, corrupt, another case) is bad
//! input.

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::{Parser, Subcommand, ValueEnum};
use simplets::check::CaseNumbers;
use simplets::config::Case;
use simplets::error::{OutputError, RunError};
use simplets::io::checkpoint::{check_header, read_header};
use simplets::io::series::NcLayout;
use simplets::run::{interrupt_on_signals, run_case, RunOptions};
use simplets::solver::Solver;

/// Exit status documentation, shown at the end of `--help`.
const EXIT_STATUS: &str = "Exit status:
  0  success
  1  run failure: divergence, solver or write error (the output keeps the last good state)
  2  bad input: command line, unreadable or invalid case file, output exists without --force,
     restart checkpoint missing, corrupt or written for another case or grid
  3  interrupted by SIGTERM/SIGINT: checkpoint written, resume with --restart

Logging: RUST_LOG=debug|info|warn (default info), on stderr.";

/// SIMPLE-TS solver for unsteady, viscous, compressible, heat-conductive 2D gas flow.
#[derive(Debug, Parser)]
#[command(name = "simplets", version, about, after_help = EXIT_STATUS)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a case and write <OUT>/<name>.nc (NetCDF-4, CF-1.8).
    #[command(after_help = EXIT_STATUS)]
    Run(RunArgs),
    /// Validate a case and print its derived numbers (cells, Kn, Re, CFL, memory).
    #[command(after_help = EXIT_STATUS)]
    Check {
        /// Case file (JSON).
        case: PathBuf,
        /// Resize the case first, as `bench --nx`.
        #[arg(long, value_name = "NX", value_parser = clap::value_parser!(u64).range(1..))]
        nx: Option<u64>,
        /// Resize the case first, as `bench --ny`.
        #[arg(long, value_name = "NY", value_parser = clap::value_parser!(u64).range(1..))]
        ny: Option<u64>,
    },
    /// Time loop-2 iterations of a case on a backend (no output): one warm-up step, then
    /// STEPS timed steps; prints cell-iterations per second.
    #[command(after_help = EXIT_STATUS)]
    Bench(BenchArgs),
    /// Compile the OpenCL kernels of a case ahead (both forms) into the kernel cache, e.g. on a
    /// login node or before a batch job; allocates no field buffers.
    #[command(after_help = EXIT_STATUS)]
    BuildKernels {
        /// Case file (JSON).
        case: PathBuf,
        /// OpenCL device (index or name substring).
        #[arg(long, value_name = "SEL")]
        device: Option<String>,
        /// Resize the case first, as `bench --nx` (the kernels depend on the grid size).
        #[arg(long, value_name = "NX", value_parser = clap::value_parser!(u64).range(1..))]
        nx: Option<u64>,
        /// Resize the case first, as `bench --ny`.
        #[arg(long, value_name = "NY", value_parser = clap::value_parser!(u64).range(1..))]
        ny: Option<u64>,
        /// Override the case's scheme, as `bench --scheme`.
        #[arg(long, value_name = "SCHEME", value_parser = parse_scheme)]
        scheme: Option<simplets::config::Scheme>,
        /// Only this form (default: both).
        #[arg(long, value_enum)]
        kernel: Option<KernelForm>,
    },
    /// List every OpenCL platform and device (type, compute units, memory, fp64, driver).
    #[command(after_help = EXIT_STATUS)]
    Devices,
    /// Run validation cases against analytic references: print a table (case, metric,
    /// value, reference, tolerance, pass/fail), write validation/report/<case>.md with PNG
    /// plots, exit 1 if any metric fails.
    #[command(after_help = EXIT_STATUS)]
    Validate(ValidateArgs),
    /// Draw PNGs of an output next to it: every field of a snapshot (Mach number with
    /// streamlines), residuals, forces and probes over time; several parts of a split series
    /// are joined. Prints the PNG paths.
    #[command(after_help = EXIT_STATUS)]
    Plot {
        /// The output (<name>.nc), or the parts of a split series (<name>.0001.nc …).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Snapshot index over the (joined) files; negative counts from the end (default:
        /// the last). The field PNGs are then named <stem>.<field>.step<STEP>.png.
        #[arg(long, value_name = "N", allow_negative_numbers = true)]
        snapshot: Option<i64>,
        /// Folder of the PNGs (default: next to the first file).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// Only these pictures, comma-separated (field names, mach, residuals, forces, probes).
        #[arg(long, value_name = "LIST", value_delimiter = ',')]
        only: Option<Vec<String>>,
        /// Replace existing PNGs.
        #[arg(long)]
        force: bool,
    },
}

/// Arguments of `simplets validate`.
#[derive(Debug, clap::Args)]
pub struct ValidateArgs {
    /// A case of validation/ (couette_heat, channel_kn, grid_convergence, budgets, cavity,
    /// confined_square, square_low_speed) or `all`.
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
    /// OpenCL loop-2 form: `phase` kernels or the fused one-kernel y-sweep.
    #[arg(long, value_enum, default_value_t = KernelForm::Phase)]
    pub kernel: KernelForm,
    /// Report directory (default: validation/report next to the validation/ cases, and
    /// validation/report/quick for --quick, so that a smoke run never replaces the full
    /// reports).
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
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// OpenCL device: index in `simplets devices` or a name substring (default: the first
    /// fp64 GPU, else a CPU device).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Compile the kernels from source even if a cached binary exists (honest build timings).
    #[arg(long)]
    pub no_kernel_cache: bool,
    /// OpenCL loop-2 form: `phase` kernels (default; fastest today) or the paper's `fused`
    /// one-kernel y-sweep.
    #[arg(long, value_enum, default_value_t = KernelForm::Phase)]
    pub kernel: KernelForm,
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
    /// Split the NetCDF output into <OUT>/<name>.0001.nc, .0002.nc, … of at most N snapshots
    /// each (overrides output.snapshots_per_file; 0: one file).
    #[arg(long, value_name = "N")]
    pub split_every: Option<u64>,
}

/// Arguments of `simplets bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Case file (JSON).
    pub case: PathBuf,
    /// Solver backend.
    #[arg(long, value_enum, default_value_t = Backend::Opencl)]
    pub backend: Backend,
    /// Threads of the `parallel` backend (default: rayon's, one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub threads: Option<u32>,
    /// OpenCL device (index or name substring).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Timed time steps.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub steps: u64,
    /// Untimed warm-up steps before the timed ones.
    #[arg(long, default_value_t = 1)]
    pub warmup: u64,
    /// Loop-2 iterations per step (overrides solver.max_iters; tolerances are set to 0 so
    /// every step does exactly this many).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    pub iters: u32,
    /// Resize the case to NX computed columns at its own spacing, repeating its bodies with
    /// the period of its domain (with --ny; e.g. confined_square at 4032 × 4000: 20 squares).
    #[arg(long, value_name = "NX", value_parser = clap::value_parser!(u64).range(1..))]
    pub nx: Option<u64>,
    /// Resize the case to NY computed rows (see --nx).
    #[arg(long, value_name = "NY", value_parser = clap::value_parser!(u64).range(1..))]
    pub ny: Option<u64>,
    /// Run the GPU order (one T/p sweep per loop-2 iteration, the paper's kernels) on every
    /// backend; without it each backend runs the case's `solver.order`.
    #[arg(long)]
    pub gpu_order: bool,
    /// Override the case's scheme: implicit-upwind, implicit-tvd, explicit-upwind or
    /// explicit-tvd.
    #[arg(long, value_name = "SCHEME", value_parser = parse_scheme)]
    pub scheme: Option<simplets::config::Scheme>,
    /// OpenCL backends: measure the device's memory bandwidth first (STREAM triad over 3 ×
    /// MIB MiB arrays); the per-kernel roofline uses it. 0: skip.
    #[arg(long, value_name = "MIB", default_value_t = 128)]
    pub triad: usize,
    /// OpenCL backends: skip the second, profiled pass (no per-kernel table).
    #[arg(long)]
    pub no_profile: bool,
    /// Write everything measured as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// OpenCL backends: after the bench, write a kernel-count trace of one more step into
    /// DIR (input of scripts/count_kernels.py).
    #[arg(long, value_name = "DIR")]
    pub trace: Option<PathBuf>,
    /// OpenCL loop-2 form: `phase` kernels (default; fastest today) or the paper's `fused`
    /// one-kernel y-sweep.
    #[arg(long, value_enum, default_value_t = KernelForm::Phase)]
    pub kernel: KernelForm,
    /// With `--kernel fused`: lean storage. ρ and Γ are computed where they are read and the
    /// geometry is one packed word per cell: about 100 B per cell for the implicit schemes
    /// instead of 200, bit-identical results (not for periodic sides).
    #[arg(long)]
    pub lean: bool,
    /// OpenCL fused kernel: work-group width W (power of two, halo included).
    #[arg(long, value_name = "W")]
    pub width: Option<usize>,
    /// OpenCL fused kernel: rows per subdomain (Ny_sub; with --width).
    #[arg(long, value_name = "ROWS")]
    pub rows: Option<usize>,
}

/// OpenCL loop-2 forms (both bit-identical to the reference; the fused one runs the GPU order
/// only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KernelForm {
    /// Jacobi phase kernels (cl/kernels/jacobi.cl).
    Phase,
    /// One fused loop-2 kernel marching work-group subdomains along y (spec §5.3).
    Fused,
}

/// Solver backends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Backend {
    /// OpenCL if an fp64 GPU is present, else the reference.
    Auto,
    /// The serial reference solver.
    Reference,
    /// The reference with row-parallel loops on rayon's threads (CPU; bit-identical to
    /// `reference`; `--threads N`).
    Parallel,
    /// OpenCL (reproduces `reference` in the case's `solver.order`; the fused form needs
    /// `order: gpu`).
    Opencl,
}

/// A failed command, classified for the exit status.
#[derive(Debug)]
pub enum Failure {
    /// Bad input: exit status 2.
    Input(anyhow::Error),
    /// Run failure: exit status 1.
    Run(anyhow::Error),
    /// Stopped by SIGTERM/SIGINT with a checkpoint: exit status 3.
    Interrupted(anyhow::Error),
}

impl Failure {
    /// Process exit status.
    pub fn code(&self) -> u8 {
        match self {
            Failure::Input(_) => 2,
            Failure::Run(_) => 1,
            Failure::Interrupted(_) => 3,
        }
    }

    /// The error as one line (anyhow's context chain joined with ": ").
    pub fn one_line(&self) -> String {
        let (Failure::Input(e) | Failure::Run(e) | Failure::Interrupted(e)) = self;
        format!("{e:#}").replace('\n', " ")
    }
}

/// `--lean` applies to the fused kernel only.
fn lean_option(lean: bool, kernel: KernelForm) -> Result<bool, Failure> {
    if lean && kernel != KernelForm::Fused {
        return Err(Failure::Input(anyhow!(
            "--lean is a storage layout of the fused kernel: add --kernel fused"
        )));
    }
    Ok(lean)
}

/// Run the parsed command line.
pub fn execute(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Run(args) => run(args),
        Command::Check { case, nx, ny } => check(&case, nx, ny),
        Command::Devices => devices(),
        Command::BuildKernels {
            case,
            device,
            nx,
            ny,
            scheme,
            kernel,
        } => {
            let mut c = load(&case)?;
            if nx.is_some() || ny.is_some() {
                c = resized(&c, nx, ny)?;
            }
            if let Some(s) = scheme {
                c.scheme = s;
            }
            build_kernels(&c, device.as_deref(), kernel)
        }
        Command::Bench(args) => bench(args),
        Command::Validate(args) => validate(args),
        Command::Plot {
            files,
            snapshot,
            out,
            only,
            force,
        } => {
            let opts = simplets::plot::PlotOptions {
                snapshot,
                out_dir: out,
                only,
                force,
            };
            match simplets::plot::plot(&files, &opts) {
                Ok(written) => {
                    written.iter().for_each(|p| println!("{}", p.display()));
                    Ok(())
                }
                Err(e) if e.is_input() => Err(Failure::Input(e.into())),
                Err(e) => Err(Failure::Run(e.into())),
            }
        }
    }
}

fn load(path: &Path) -> Result<Case, Failure> {
    log::debug!("reading case {}", path.display());
    Case::from_file(path).map_err(|e| Failure::Input(e.into()))
}

/// `configs/default.json` in the current directory, else in the source tree.
fn default_case() -> Result<PathBuf, Failure> {
    let rel = Path::new("configs/default.json");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(rel);
    [rel.to_path_buf(), src.clone()]
        .into_iter()
        .find(|p| p.is_file())
        .ok_or_else(|| {
            Failure::Input(anyhow!(
                "no CASE given and {} not found in the current directory or {}",
                rel.display(),
                src.parent()
                    .map_or(src.clone(), Path::to_path_buf)
                    .display()
            ))
        })
}

fn run(args: RunArgs) -> Result<(), Failure> {
    let path = match args.case {
        Some(p) => p,
        None => default_case()?,
    };
    let case = load(&path)?;
    if let Some(file) = &args.dump_kernel {
        let r = simplets::reference::Reference::new(&case);
        let defines = simplets::gpu::solver::defines(&r, &r.ghosts);
        let (form, source) =
            if args.kernel == KernelForm::Phase || !simplets::gpu::fused::supports(&case) {
                ("phase kernels", simplets::gpu::solver::source())
            } else {
                (
                    "fused loop-2 kernel; the device adds -D DEV_W, DEV_COLS, DEV_HALO",
                    simplets::gpu::fused::source(),
                )
            };
        let text = format!(
            "/* simplets {}: case {}, {form}, build options: {} */\n{source}",
            env!("CARGO_PKG_VERSION"),
            case.name,
            defines.to_options(),
        );
        simplets::device::dump_kernel(file, &text).map_err(|e| Failure::Run(e.into()))?;
        println!("{}", file.display());
        return Ok(());
    }
    // Refuse a bad checkpoint or an existing output before building the solver (which may
    // allocate gigabytes).
    let restart = match &args.restart {
        Some(ckpt) => {
            let header = read_header(ckpt).map_err(|e| Failure::Input(e.into()))?;
            check_header(&header, ckpt, &case).map_err(|e| Failure::Input(e.into()))?;
            Some((header.step, header.nc_part))
        }
        None => None,
    };
    let per_file = args.split_every.unwrap_or(case.output.snapshots_per_file);
    NcLayout::new(&args.out, &case.name, restart, per_file)
        .check_writable(args.force)
        .map_err(|e| Failure::Input(e.into()))?;
    let interrupt = interrupt_on_signals()
        .map_err(|e| Failure::Run(anyhow!("cannot install the SIGTERM/SIGINT handler: {e}")))?;
    let opts = RunOptions {
        out_dir: args.out,
        force: args.force,
        steps_override: args.steps,
        snapshots_per_file: args.split_every,
        checkpoint_every: args.checkpoint_every,
        restart: args.restart,
        interrupt: Some(interrupt),
        ..RunOptions::default()
    };
    let backend = resolve_auto(args.backend, args.device.as_deref());
    let mut solver: Box<dyn Solver> = match backend {
        Backend::Auto | Backend::Reference => Box::new(simplets::reference::Reference::new(&case)),
        Backend::Parallel => parallel_solver(&case, args.threads)?,
        Backend::Opencl => {
            let cl = simplets::gpu::solver::OpenClOptions {
                device: args.device.clone(),
                cache: if args.no_kernel_cache {
                    None
                } else {
                    simplets::device::KernelCache::default_dir()
                        .map(simplets::device::KernelCache::new)
                },
                log_dir: Some(opts.out_dir.clone()),
                lean: lean_option(args.lean, args.kernel)?,
            };
            std::fs::create_dir_all(&opts.out_dir).map_err(|e| {
                Failure::Run(anyhow!("cannot create {}: {e}", opts.out_dir.display()))
            })?;
            opencl_solver(&case, &cl, args.kernel == KernelForm::Phase, None)?
        }
    };
    match run_case(&case, solver.as_mut(), &opts) {
        Ok(summary) => {
            for path in &summary.outputs {
                println!("{}", path.display());
            }
            Ok(())
        }
        Err(e @ (RunError::Output(OutputError::Exists { .. }) | RunError::Checkpoint(_))) => {
            Err(Failure::Input(e.into()))
        }
        Err(e @ RunError::Interrupted { .. }) => Err(Failure::Interrupted(e.into())),
        Err(e) => Err(Failure::Run(e.into())),
    }
}

/// `auto`: OpenCL when an fp64 GPU is present or a device is named, else the reference.
fn resolve_auto(backend: Backend, device: Option<&str>) -> Backend {
    match backend {
        Backend::Auto => {
            let gpu = simplets::device::list_devices()
                .map(|l| l.iter().any(|d| d.fp64 && d.device_type == "GPU"))
                .unwrap_or(false);
            if gpu || device.is_some() {
                Backend::Opencl
            } else {
                Backend::Reference
            }
        }
        b => b,
    }
}

/// The OpenCL solver for a case: the phase kernels, or the fused one-kernel form where it
/// applies (no periodic sides yet) and `--kernel fused` asks for it.
fn opencl_solver(
    case: &simplets::config::Case,
    cl: &simplets::gpu::solver::OpenClOptions,
    phase: bool,
    dec: Option<(usize, usize)>,
) -> Result<Box<dyn Solver>, Failure> {
    use simplets::error::DeviceError as D;
    let fail = |e: D| match e {
        // What the user chose does not fit the device: bad input (exit 2).
        D::NoDevice { .. }
        | D::NoFp64 { .. }
        | D::OutOfMemory { .. }
        | D::LocalMemTooSmall { .. }
        | D::WorkGroupTooLarge { .. }
        | D::BadBuildOption { .. }
        | D::FusedUnsupported { .. } => Failure::Input(e.into()),
        _ => Failure::Run(e.into()),
    };
    let unsupported = simplets::gpu::fused::unsupported(case);
    if phase || unsupported.is_some() {
        if let (false, Some(what)) = (phase, unsupported) {
            log::warn!("the fused kernel does not support {what}: using the phase kernels");
        }
        let s = simplets::gpu::solver::OpenCl::new(case, cl).map_err(fail)?;
        Ok(Box::new(s))
    } else {
        let s = simplets::gpu::fused::Fused::new(case, cl, dec).map_err(fail)?;
        Ok(Box::new(s))
    }
}

/// The `parallel` backend on rayon's global pool, with `threads` threads if given.
fn parallel_solver(
    case: &simplets::config::Case,
    threads: Option<u32>,
) -> Result<Box<dyn Solver>, Failure> {
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build_global()
            .map_err(|e| Failure::Run(anyhow!("cannot start {n} rayon threads: {e}")))?;
    }
    Ok(Box::new(simplets::reference::Reference::new_parallel(case)))
}

/// The case resized to `nx` × `ny` (each defaulting to the case's) by tiling its domain.
fn resized(case: &Case, nx: Option<u64>, ny: Option<u64>) -> Result<Case, Failure> {
    let nx = nx.map_or(case.grid.nx, |n| n as usize);
    let ny = ny.map_or(case.grid.ny, |n| n as usize);
    simplets::bench::tile_case(case, nx, ny).map_err(|e| Failure::Input(anyhow!(e)))
}

/// `implicit-upwind` etc. as a [`simplets::config::Scheme`].
fn parse_scheme(s: &str) -> Result<simplets::config::Scheme, String> {
    use simplets::config::{Convection, Interpolation, Scheme};
    let (c, i) = s
        .split_once('-')
        .ok_or_else(|| format!("{s:?}: expected CONVECTION-INTERPOLATION, e.g. implicit-upwind"))?;
    let convection = match c {
        "implicit" => Convection::Implicit,
        "explicit" => Convection::Explicit,
        _ => return Err(format!("{c:?}: expected implicit or explicit")),
    };
    let interpolation = match i {
        "upwind" => Interpolation::Upwind,
        "tvd" => Interpolation::Tvd,
        _ => return Err(format!("{i:?}: expected upwind or tvd")),
    };
    Ok(Scheme {
        convection,
        interpolation,
    })
}

/// `git describe` of the build: `SIMPLETS_GIT` at compile time, else of the current directory
/// at run time, else `unknown`.
fn git_version() -> String {
    if let Some(v) = option_env!("SIMPLETS_GIT") {
        return v.to_string();
    }
    std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

fn bench(args: BenchArgs) -> Result<(), Failure> {
    let mut case = load(&args.case)?;
    if args.nx.is_some() || args.ny.is_some() {
        case = resized(&case, args.nx, args.ny)?;
    }
    if let Some(scheme) = args.scheme {
        case.scheme = scheme;
    }
    case.solver.max_iters = args.iters;
    case.solver.eps_v = 0.0;
    case.solver.eps_p = 0.0;
    case.solver.eps_t = 0.0;
    if args.gpu_order {
        case.solver.order = simplets::config::SweepOrder::Gpu;
    }
    let opencl = matches!(args.backend, Backend::Auto | Backend::Opencl);
    let mut spec = simplets::bench::Spec {
        warmup: args.warmup,
        steps: args.steps,
        profile: !args.no_profile,
        trace: args.trace.clone(),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        git: git_version(),
        ..Default::default()
    };
    if opencl {
        let dev = simplets::device::select_device(args.device.as_deref())
            .map_err(|e| Failure::Input(e.into()))?;
        // The triad first, while the device memory is still free.
        if args.triad > 0 {
            let n = args.triad * (1 << 20) / 8;
            let bw = simplets::device::bandwidth::triad_bandwidth(&dev, n, 5)
                .map_err(|e| Failure::Run(e.into()))?;
            spec.triad = Some(bw);
        }
        spec.device = Some(dev);
        let phase = args.kernel == KernelForm::Phase || !simplets::gpu::fused::supports(&case);
        // The lean storage is its own form for the counts: it reads other arrays and computes
        // ρ and Γ (none counted yet, so its roofline columns stay empty rather than wrong).
        spec.form = Some(if phase {
            "phase"
        } else if args.lean {
            "fused-lean"
        } else {
            "fused"
        });
    }
    let mut solver: Box<dyn Solver> = match args.backend {
        Backend::Reference => Box::new(simplets::reference::Reference::new(&case)),
        Backend::Parallel => {
            spec.threads = Some(
                args.threads
                    .map_or_else(rayon::current_num_threads, |n| n as usize),
            );
            parallel_solver(&case, args.threads)?
        }
        Backend::Auto | Backend::Opencl => {
            let cl = simplets::gpu::solver::OpenClOptions {
                device: args.device.clone(),
                cache: simplets::device::KernelCache::default_dir()
                    .map(simplets::device::KernelCache::new),
                log_dir: None,
                lean: lean_option(args.lean, args.kernel)?,
            };
            let dec = args.width.map(|w| (w, args.rows.unwrap_or(usize::MAX)));
            opencl_solver(&case, &cl, args.kernel == KernelForm::Phase, dec)?
        }
    };
    let report =
        simplets::bench::run(solver.as_mut(), &case, &spec).map_err(|e| Failure::Run(e.into()))?;
    print!("{}", simplets::bench::render(&report));
    if let Some(path) = &args.json {
        let text = serde_json::to_string_pretty(&report).expect("report serialises");
        simplets::io::atomic::write_atomic(path, text.as_bytes(), true)
            .map_err(|e| Failure::Run(e.into()))?;
        println!("{}", path.display());
    }
    Ok(())
}

fn validate(args: ValidateArgs) -> Result<(), Failure> {
    use simplets::validate::{backend_text, default_root, run_case_on, table, write_report, CASES};
    let backend = resolve_auto(args.backend, args.device.as_deref());
    if backend == Backend::Opencl {
        // A device that does not exist or lacks fp64 is bad input (exit 2), found before any
        // case runs.
        let dev = simplets::device::select_device(args.device.as_deref())
            .map_err(|e| Failure::Input(e.into()))?;
        simplets::device::require_fp64(&dev).map_err(|e| Failure::Input(e.into()))?;
    }
    let cl = simplets::gpu::solver::OpenClOptions {
        device: args.device.clone(),
        cache: simplets::device::KernelCache::default_dir().map(simplets::device::KernelCache::new),
        log_dir: None,
        lean: false,
    };
    let phase = args.kernel == KernelForm::Phase;
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
             each, device run 19); on a GPU use --jobs at most the number of GPUs"
        );
    }
    // The same solver factory as `simplets run`, called once per run of a case.
    let bk = simplets::validate::Backend::new(move |case: &Case| {
        let s = match backend {
            Backend::Auto | Backend::Reference => {
                Box::new(simplets::reference::Reference::new(case)) as Box<dyn Solver>
            }
            Backend::Parallel => parallel_solver(case, None).map_err(|f| f.one_line())?,
            Backend::Opencl => {
                let mut cl = cl.clone();
                if !gpus.is_empty() {
                    cl.device = Some(gpus[simplets::validate::worker() % gpus.len()].clone());
                }
                opencl_solver(case, &cl, phase, None).map_err(|f| f.one_line())?
            }
        };
        Ok(s)
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
    .with_cache_only(args.cache_only);
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
    let root = default_root();
    // The committed reports are the full variants: a `--quick` smoke run must not overwrite
    // them, so its reports go one level down unless a directory is given.
    let out = args.report_dir.unwrap_or_else(|| {
        let dir = root.join("validation").join("report");
        if args.quick {
            dir.join("quick")
        } else {
            dir
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

fn build_kernels(
    case: &simplets::config::Case,
    device: Option<&str>,
    only: Option<KernelForm>,
) -> Result<(), Failure> {
    let dev = simplets::device::select_device(device).map_err(|e| Failure::Input(e.into()))?;
    let dir = simplets::device::KernelCache::default_dir().ok_or_else(|| {
        Failure::Input(anyhow!(
            "no kernel cache directory: set SIMPLETS_KERNEL_CACHE"
        ))
    })?;
    let cache = simplets::device::KernelCache::new(dir);
    let forms = (
        only != Some(KernelForm::Fused),
        only != Some(KernelForm::Phase),
    );
    let (phase, fused) = simplets::gpu::fused::build_ahead(case, &dev, &cache, forms)
        .map_err(|e| Failure::Run(e.into()))?;
    let phase = phase.map_or("not asked for".to_string(), |s| format!("{s:.2} s"));
    let fused = match (forms.1, fused) {
        (false, _) => "not asked for".to_string(),
        (true, None) => "not applicable (periodic sides)".to_string(),
        (true, Some(s)) => format!("{s:.2} s"),
    };
    println!(
        "kernels for {} on {} cached in {}: phase {phase}, fused {fused} (0 s: already cached)",
        case.name,
        dev.name,
        cache.dir().display()
    );
    Ok(())
}

fn devices() -> Result<(), Failure> {
    let list = simplets::device::list_devices().map_err(|e| Failure::Run(e.into()))?;
    print!("{}", simplets::device::devices_table(&list));
    Ok(())
}

fn check(path: &Path, nx: Option<u64>, ny: Option<u64>) -> Result<(), Failure> {
    let mut case = load(path)?;
    if nx.is_some() || ny.is_some() {
        case = resized(&case, nx, ny)?;
    }
    print!("{}", CaseNumbers::new(&case).render(&case));
    Ok(())
}
