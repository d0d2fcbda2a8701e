//! The arguments of `simplets bench`, shared by the single-device bench (`bench.rs`) and the
//! thread-rank bench of the explicit methods (`bench_ranks.rs`).

use std::path::PathBuf;

use simplets::methods::simple_ts::case::Scheme;

use super::{parse_scheme, Backend, KernelForm, MAX_THREADS};

/// Arguments of `simplets bench`.
#[derive(Debug, clap::Args)]
pub struct BenchArgs {
    /// Case file (JSON).
    pub case: PathBuf,
    /// Solver backend.
    #[arg(long, value_enum, default_value_t = Backend::Opencl)]
    pub backend: Backend,
    /// Threads of the `parallel` backend (default: rayon's, one per core).
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: Option<u32>,
    /// OpenCL device (index or name substring).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Timed time steps.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub steps: u64,
    /// Untimed warm-up steps before the timed ones.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub warmup: u64,
    /// Loop-2 iterations per step (overrides solver.max_iters; tolerances are set to 0 so
    /// every step does exactly this many).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
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
    pub scheme: Option<Scheme>,
    /// Measure the memory bandwidth first (STREAM triad over 3 × MIB MiB arrays): the
    /// device's for OpenCL (the per-kernel roofline uses it), the host's on the backend's
    /// threads for `reference` and `parallel` (SIMPLE-TS: the "host roofline" line; make
    /// the arrays several times the last-level cache). 0: skip.
    #[arg(long, value_name = "MIB", default_value_t = 128,
          value_parser = clap::value_parser!(u64).range(0..=65_536))]
    pub triad: u64,
    /// OpenCL backends: skip the second, profiled pass (no per-kernel table).
    #[arg(long)]
    pub no_profile: bool,
    /// Write everything measured as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Overwrite an existing --json file.
    #[arg(long)]
    pub force: bool,
    /// OpenCL backends: after the bench, write a kernel-count trace of one more step into
    /// DIR (input of scripts/count_kernels.py).
    #[arg(long, value_name = "DIR")]
    pub trace: Option<PathBuf>,
    /// OpenCL loop-2 form: `phase` kernels (default; fastest today) or the paper's `fused`
    /// one-kernel y-sweep. CE/SE: `phase` launches the two half steps separately, `fused`
    /// runs both in one launch.
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
    #[arg(long, value_name = "ROWS", requires = "width")]
    pub rows: Option<usize>,
    /// SIMPLE-TS and the explicit methods: run the case decomposed among N ranks that are
    /// threads of this process, all on one device (OpenCL) or sharing the cores, and report
    /// per rank and in aggregate Mcell-it/s, the halo bytes and time per iteration (SIMPLE-TS:
    /// loop-2 iteration; explicit: step) and a model of the exchange cost (no MPI needed: the
    /// one-device exchange cost). Under an MPI launcher (`mpirun -n N simplets bench …`,
    /// feature `mpi`) the job's ranks are the ranks instead.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub thread_ranks: Option<u64>,
    /// A decomposed bench (--thread-ranks or MPI): ranks along x (default: all along the
    /// longer axis).
    #[arg(long, value_name = "PX")]
    pub ranks_x: Option<usize>,
    /// A decomposed bench: ranks along y.
    #[arg(long, value_name = "PY")]
    pub ranks_y: Option<usize>,
    /// A decomposed bench: host–device bandwidth of the exchange model, GB/s [default: 25].
    #[arg(long, value_name = "GBS")]
    pub link_gbs: Option<f64>,
    /// A decomposed bench: latency per transfer batch, message and reduction of the exchange
    /// model, µs [default: 10].
    #[arg(long, value_name = "US")]
    pub latency_us: Option<f64>,
    /// A decomposed bench on OpenCL: `overlapped` (each phase's or stage's interior computed
    /// while its halos travel), `blocking` (the exchange after the whole phase or stage) or
    /// `both` (blocking, then overlapped, in one run: two reports); default: SIMPLE-TS
    /// overlapped, the explicit methods blocking (SIMPLETS_HALO_OVERLAP=1 or 0 sets it).
    #[arg(long, value_enum, value_name = "MODE")]
    pub halo_exchange: Option<HaloExchange>,
    /// Explicit methods: append one CSV line (case, method, nx, ny, backend, threads, steps,
    /// seconds, ns per cell-step, % of the roofline bound, device ms per step) to FILE.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
}

/// How OpenCL thread ranks exchange their halos (`--halo-exchange`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HaloExchange {
    /// Each stage's frame first, its interior while the halos travel.
    Overlapped,
    /// The whole stage, then the exchange.
    Blocking,
    /// Blocking, then overlapped, timed in one run.
    Both,
}
