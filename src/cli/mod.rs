//! Command line (clap derive): `simplets run`, `check`, `bench`, `build-kernels`, `devices`,
//! `validate` and `plot`, one file per command group.
//!
//! Failures are split by who must act: [`Failure::Input`] (exit status 2) for a bad command
//! line, an unreadable or invalid case file or an existing output without `--force`;
//! [`Failure::Run`] (exit status 1) for divergence, solver or write errors;
//! [`Failure::Interrupted`] (exit status 3) for a run stopped by SIGTERM/SIGINT after writing a
//! checkpoint. An unusable `--restart` checkpoint (missing, corrupt, another case) is bad
//! input.

mod bench;
mod bench_args;
mod bench_ranks;
mod bp;
mod cese;
mod explicit;
mod plot;
mod ranks;
mod run;
mod tools;
mod validate;

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use clap::{Parser, Subcommand, ValueEnum};
use simplets::error::DeviceError;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation, Scheme};
use simplets::methods::{AnyCase, BackendChoice, BackendKind};

/// Exit status documentation, shown at the end of `--help`.
const EXIT_STATUS: &str = "Exit status:
  0  success
  1  run failure: divergence, solver or write error (the output keeps the last good state)
  2  bad input: command line, unreadable or invalid case file, output exists without --force,
     restart checkpoint missing, corrupt or written for another case or grid
  3  interrupted by SIGTERM/SIGINT: checkpoint written, resume with --restart

Logging: RUST_LOG=debug|info|warn (default info), on stderr.";

/// Most threads `--threads` accepts.
const MAX_THREADS: u32 = 4096;

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
    Run(run::RunArgs),
    /// Validate a case and print its derived numbers (cells, Kn, Re, CFL, memory).
    #[command(after_help = EXIT_STATUS)]
    Check(tools::CheckArgs),
    /// Time loop-2 iterations of a case on a backend (no output): one warm-up step, then
    /// STEPS timed steps; prints cell-iterations per second.
    #[command(after_help = EXIT_STATUS)]
    Bench(bench_args::BenchArgs),
    /// Compile the OpenCL kernels of a case ahead (both forms) into the kernel cache, e.g. on a
    /// login node or before a batch job; allocates no field buffers.
    #[command(after_help = EXIT_STATUS)]
    BuildKernels(tools::BuildKernelsArgs),
    /// List every OpenCL platform and device (type, compute units, memory, fp64, driver).
    #[command(after_help = EXIT_STATUS)]
    Devices,
    /// Run validation cases against analytic references: print a table (case, metric,
    /// value, reference, tolerance, pass/fail), write validation/report/<case>.md with PNG
    /// plots, exit 1 if any metric fails.
    #[command(after_help = EXIT_STATUS)]
    Validate(validate::ValidateArgs),
    /// Draw PNGs of an output next to it: every field of a snapshot (Mach number with
    /// streamlines), residuals, forces and probes over time; several parts of a split series
    /// are joined. Prints the PNG paths.
    #[command(after_help = EXIT_STATUS)]
    Plot(plot::PlotArgs),
}

/// OpenCL loop-2 forms (both bit-identical to the reference; the fused one runs one or two T/p
/// sweeps per iteration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KernelForm {
    /// Jacobi phase kernels (cl/simple_ts/kernels/jacobi.cl).
    Phase,
    /// One fused loop-2 kernel marching work-group subdomains along y (spec §5.3).
    Fused,
}

impl From<KernelForm> for simplets::methods::KernelForm {
    fn from(k: KernelForm) -> Self {
        match k {
            KernelForm::Phase => simplets::methods::KernelForm::Phase,
            KernelForm::Fused => simplets::methods::KernelForm::Fused,
        }
    }
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
    /// OpenCL (reproduces `reference` in the case's `solver.order`; the fused form runs one or
    /// two T/p sweeps).
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

/// Run the parsed command line.
pub fn execute(cli: Cli) -> Result<(), Failure> {
    // Only `run` and `bench` split their work among MPI ranks; any other command would run N
    // times over.
    if !matches!(cli.command, Command::Run(_) | Command::Bench(_)) && ranks::launched_with_several()
    {
        return Err(Failure::Input(anyhow!(
            "only `simplets run` and `simplets bench` run on several MPI ranks; start this \
             command as one process"
        )));
    }
    match cli.command {
        Command::Run(args) => run::run(args),
        Command::Check(args) => tools::check(args),
        Command::Devices => tools::devices(),
        Command::BuildKernels(args) => tools::build_kernels(args),
        Command::Bench(args) => bench::bench(args),
        Command::Validate(args) => validate::validate(args),
        Command::Plot(args) => plot::plot(args),
    }
}

/// Read and validate a case file of any method.
fn load_any(path: &Path) -> Result<AnyCase, Failure> {
    log::debug!("reading case {}", path.display());
    AnyCase::load(path).map_err(|e| Failure::Input(e.into()))
}

/// Read a case file that must be a SIMPLE-TS case (`what` names the command that needs one).
fn load_simple_ts(path: &Path, what: &str) -> Result<Case, Failure> {
    match load_any(path)? {
        AnyCase::SimpleTs(c) => Ok(c),
        other => Err(Failure::Input(anyhow!(
            "{}: {what} needs a simple_ts case, this one is method {}",
            path.display(),
            other.method()
        ))),
    }
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

/// `--lean` applies to the fused kernel only.
fn lean_option(lean: bool, kernel: KernelForm) -> Result<bool, Failure> {
    if lean && kernel != KernelForm::Fused {
        return Err(Failure::Input(anyhow!(
            "--lean is a storage layout of the fused kernel: add --kernel fused"
        )));
    }
    Ok(lean)
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

/// The library's backend kind of a resolved CLI backend.
fn kind_of(backend: Backend) -> BackendKind {
    match backend {
        Backend::Auto | Backend::Reference => BackendKind::Reference,
        Backend::Parallel => BackendKind::Parallel,
        Backend::Opencl => BackendKind::OpenCl,
    }
}

/// Flags that only one backend reads are refused on another, naming the flag.
fn only_for(backend: Backend, flags: &[(&str, bool, Backend)]) -> Result<(), Failure> {
    for &(flag, given, needs) in flags {
        if given && backend != needs {
            return Err(Failure::Input(anyhow!(
                "{flag} applies to --backend {} only (this run uses {})",
                format!("{needs:?}").to_lowercase(),
                format!("{backend:?}").to_lowercase()
            )));
        }
    }
    Ok(())
}

/// The backend choice of a command: kind, device, kernel cache.
fn choice(backend: Backend, device: Option<String>, cache: bool) -> BackendChoice {
    BackendChoice {
        kind: kind_of(backend),
        device,
        cache: if cache {
            simplets::device::KernelCache::default_dir().map(simplets::device::KernelCache::new)
        } else {
            None
        },
        ..BackendChoice::default()
    }
}

/// A device error as a failure: what the user chose does not fit the device is bad input.
fn device_failure(e: DeviceError) -> Failure {
    use DeviceError as D;
    match e {
        D::NoDevice { .. }
        | D::NoFp64 { .. }
        | D::OutOfMemory { .. }
        | D::HostOutOfMemory { .. }
        | D::LocalMemTooSmall { .. }
        | D::WorkGroupTooLarge { .. }
        | D::BadBuildOption { .. }
        | D::FusedUnsupported { .. }
        | D::Unsupported(_) => Failure::Input(e.into()),
        _ => Failure::Run(e.into()),
    }
}

/// The `parallel` backend's global thread pool, with `threads` threads if given.
fn thread_pool(threads: Option<u32>) -> Result<(), Failure> {
    if let Some(n) = threads {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n as usize)
            .build_global()
            .map_err(|e| Failure::Run(anyhow!("cannot start {n} rayon threads: {e}")))?;
    }
    Ok(())
}

/// The case resized to `nx` × `ny` (each defaulting to the case's) by tiling its domain.
fn resized(case: &Case, nx: Option<u64>, ny: Option<u64>) -> Result<Case, Failure> {
    if nx.is_none() && ny.is_none() {
        return Ok(case.clone());
    }
    let nx = nx.map_or(case.grid.nx as u64, |n| n);
    let ny = ny.map_or(case.grid.ny as u64, |n| n);
    let max = simplets::case::rules::MAX_CELLS;
    if nx.saturating_mul(ny) > max {
        return Err(Failure::Input(anyhow!(
            "--nx × --ny = {} cells: at most {max}",
            nx.saturating_mul(ny)
        )));
    }
    simplets::methods::simple_ts::tile::tile_case(case, nx as usize, ny as usize)
        .map_err(|e| Failure::Input(anyhow!(e)))
}

/// `implicit-upwind` etc. as a [`Scheme`].
fn parse_scheme(s: &str) -> Result<Scheme, String> {
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

/// The exit of `run` for the run driver's result: the output files on stdout, or the failure.
fn outcome(
    result: Result<simplets::run::RunSummary, simplets::error::RunError>,
) -> Result<(), Failure> {
    match result {
        Ok(summary) => {
            for path in &summary.outputs {
                println!("{}", path.display());
            }
            Ok(())
        }
        Err(
            e @ (simplets::error::RunError::Output(simplets::error::OutputError::Exists { .. })
            | simplets::error::RunError::Checkpoint(_)),
        ) => Err(Failure::Input(e.into())),
        Err(e @ simplets::error::RunError::Interrupted { .. }) => {
            Err(Failure::Interrupted(e.into()))
        }
        Err(e) => Err(Failure::Run(e.into())),
    }
}
