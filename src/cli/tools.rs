//! The small commands: `check`, `devices`, `build-kernels`, and `run --dump-kernel`.

use std::path::{Path, PathBuf};

use anyhow::anyhow;
use simplets::methods::simple_ts::case::Scheme;
use simplets::methods::simple_ts::numbers::CaseNumbers;
use simplets::methods::simple_ts::opencl::{fused, phase};
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::AnyCase;

use super::{
    choice, device_failure, load_any, load_simple_ts, only_for, parse_scheme, resized,
    resolve_auto, Backend, Failure, KernelForm,
};

/// Arguments of `simplets check`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Case file (JSON).
    pub case: PathBuf,
    /// Resize the case first, as `bench --nx`.
    #[arg(long, value_name = "NX", value_parser = clap::value_parser!(u64).range(1..))]
    pub nx: Option<u64>,
    /// Resize the case first, as `bench --ny`.
    #[arg(long, value_name = "NY", value_parser = clap::value_parser!(u64).range(1..))]
    pub ny: Option<u64>,
    /// The backend `run` would use, whose memory needs are checked against the host (and, for
    /// OpenCL, the device); `auto` resolves as in `run`.
    #[arg(long, value_enum, default_value_t = Backend::Auto)]
    pub backend: Backend,
    /// OpenCL device: index in `simplets devices` or a name substring.
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// OpenCL loop-2 form whose device footprint is checked (default: phase).
    #[arg(long, value_enum)]
    pub kernel: Option<KernelForm>,
}

/// Arguments of `simplets build-kernels`.
#[derive(Debug, clap::Args)]
pub struct BuildKernelsArgs {
    /// Case file (JSON).
    pub case: PathBuf,
    /// OpenCL device (index or name substring).
    #[arg(long, value_name = "SEL")]
    pub device: Option<String>,
    /// Resize the case first, as `bench --nx` (the kernels depend on the grid size).
    #[arg(long, value_name = "NX", value_parser = clap::value_parser!(u64).range(1..))]
    pub nx: Option<u64>,
    /// Resize the case first, as `bench --ny`.
    #[arg(long, value_name = "NY", value_parser = clap::value_parser!(u64).range(1..))]
    pub ny: Option<u64>,
    /// Override the case's scheme, as `bench --scheme`.
    #[arg(long, value_name = "SCHEME", value_parser = parse_scheme)]
    pub scheme: Option<Scheme>,
    /// Only this form (default: both).
    #[arg(long, value_enum)]
    pub kernel: Option<KernelForm>,
    /// The fused form's lean storage (`--kernel fused --lean` of run and bench).
    #[arg(long)]
    pub lean: bool,
    /// The GPU order (one T/p sweep), as `bench --gpu-order`: the fused program depends on
    /// the sweeps.
    #[arg(long)]
    pub gpu_order: bool,
}

/// `simplets check`.
pub fn check(args: CheckArgs) -> Result<(), Failure> {
    let any = load_any(&args.case)?;
    let backend = resolve_auto(args.backend, args.device.as_deref());
    only_for(
        backend,
        &[
            ("--device", args.device.is_some(), Backend::Opencl),
            ("--kernel", args.kernel.is_some(), Backend::Opencl),
        ],
    )?;
    let mut ch = choice(backend, args.device.clone(), false);
    ch.kernel = args.kernel.unwrap_or(KernelForm::Phase).into();
    // What `run` with the same flags would refuse before allocating is refused here (for an
    // explicit case before its numbers, which need its initial state).
    match any {
        AnyCase::SimpleTs(c) => {
            let case = resized(&c, args.nx, args.ny)?;
            print!("{}", CaseNumbers::new(&case).render(&case));
            simplets::methods::check_fits(&AnyCase::SimpleTs(case), &ch).map_err(device_failure)?;
        }
        other => {
            if args.kernel.is_some() {
                return Err(Failure::Input(anyhow!(
                    "--kernel applies to method simple_ts only (this case is {})",
                    other.method()
                )));
            }
            let case = super::explicit::resized(&other, args.nx, args.ny)?;
            simplets::methods::check_fits(&case, &ch).map_err(device_failure)?;
            if matches!(case, AnyCase::CeseEuler(_)) {
                super::cese::check(&case);
            } else {
                super::explicit::check(&case);
            }
        }
    }
    let budget = simplets::host::available().map_or("unknown".into(), |m| {
        format!("{} ({})", simplets::text::bytes(m.bytes as f64), m.limit)
    });
    println!(
        "fits        the {} backend: host memory available {budget}",
        format!("{backend:?}").to_lowercase()
    );
    Ok(())
}

/// `simplets devices`.
pub fn devices() -> Result<(), Failure> {
    let list = simplets::device::list_devices().map_err(|e| Failure::Run(e.into()))?;
    print!("{}", simplets::device::devices_table(&list));
    Ok(())
}

/// `simplets build-kernels`.
pub fn build_kernels(args: BuildKernelsArgs) -> Result<(), Failure> {
    let any = load_any(&args.case)?;
    if any.simple_ts().is_none() {
        for (flag, set) in [
            ("--scheme", args.scheme.is_some()),
            ("--lean", args.lean),
            ("--gpu-order", args.gpu_order),
        ] {
            if set {
                return Err(Failure::Input(anyhow!(
                    "{flag} applies to SIMPLE-TS cases only; {} is another method",
                    args.case.display()
                )));
            }
        }
    }
    if matches!(any, AnyCase::CeseEuler(_)) {
        return super::cese::build_kernels(&any, args.device.as_deref(), args.nx, args.ny);
    }
    if matches!(any, AnyCase::BpEuler(_)) {
        let any = super::explicit::resized(&any, args.nx, args.ny)?;
        return super::bp::build_kernels(&any, args.device.as_deref());
    }
    if any.simple_ts().is_none() {
        return super::explicit::build_kernels(&any, args.device.as_deref(), args.nx, args.ny);
    }
    let mut case = resized(
        &load_simple_ts(&args.case, "build-kernels")?,
        args.nx,
        args.ny,
    )?;
    if let Some(s) = args.scheme {
        case.scheme = s;
    }
    if args.gpu_order {
        case.solver.order = simplets::methods::simple_ts::case::SweepOrder::Gpu;
    }
    let only = args.kernel;
    let lean = super::lean_option(args.lean, only.unwrap_or(KernelForm::Phase))?;
    let dev = simplets::device::select_device(args.device.as_deref())
        .map_err(|e| Failure::Input(e.into()))?;
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
    let (phase, fused) =
        fused::build_ahead(&case, &dev, &cache, forms, lean).map_err(|e| Failure::Run(e.into()))?;
    let phase = phase.map_or("not asked for".to_string(), |s| format!("{s:.2} s"));
    let fused = match (forms.1, fused) {
        (false, _) => "not asked for".to_string(),
        (true, None) => format!(
            "not applicable ({})",
            fused::unsupported(&case).unwrap_or_default()
        ),
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

/// `run --dump-kernel FILE`: the assembled OpenCL source of the case with its build options,
/// written atomically (an existing FILE only with `--force`, never a non-regular file).
pub fn dump_kernel(
    case: &AnyCase,
    file: &Path,
    kernel: Option<KernelForm>,
    force: bool,
) -> Result<(), Failure> {
    let case = match case {
        AnyCase::SimpleTs(c) => c,
        other @ AnyCase::CeseEuler(_) => return super::cese::dump_kernel(other, file, force),
        AnyCase::BpEuler(c) => return super::bp::dump_kernel(c, file, force),
        other => return super::explicit::dump_kernel(other, file, force),
    };
    let p = Problem::new(case);
    let defines = phase::defines(&p);
    let (form, source) = if kernel != Some(KernelForm::Fused) || !fused::supports(case) {
        ("phase kernels", phase::source())
    } else {
        (
            "fused loop-2 kernel; the device adds -D DEV_W, DEV_COLS, DEV_HALO, DEV_SWEEPS",
            fused::source(),
        )
    };
    let text = format!(
        "/* simplets {}: case {}, {form}, build options: {} */\n{source}",
        env!("CARGO_PKG_VERSION"),
        case.name,
        defines.to_options(),
    );
    simplets::output::atomic::write_atomic(file, text.as_bytes(), force).map_err(|e| match e {
        simplets::error::OutputError::Exists { .. }
        | simplets::error::OutputError::NotAFile { .. } => Failure::Input(e.into()),
        e => Failure::Run(e.into()),
    })?;
    println!("{}", file.display());
    Ok(())
}
