//! The commands for CE/SE (`cese_euler`): `check`, `bench`, `build-kernels` and
//! `run --dump-kernel`, the counterparts of `cli/explicit.rs` for a method with its own
//! problem and kernels (two forms: split half steps and one fused launch).

use std::path::Path;

use anyhow::anyhow;
use simplets::bench::counts::{Counts, FormCounts, KernelCount, SchemeCounts};
use simplets::methods::cese::numbers::{flops_per_point, render, step_bytes};
use simplets::methods::cese::opencl::{
    defines, device_defines, grid_groups, groups, groups2, source, work_group, Form, Sweep,
};
use simplets::methods::cese::solver::Cese;
use simplets::methods::cese::Problem;
use simplets::methods::{AnyCase, KernelForm};

use super::explicit::{resized, BenchOpts};
use super::{device_failure, Backend, Failure};

/// The problem of a CE/SE case.
pub fn problem(case: &AnyCase) -> Problem {
    match case {
        AnyCase::CeseEuler(c) => c.problem(),
        _ => unreachable!("a cese_euler case"),
    }
}

/// `simplets check` of a CE/SE case, already resized and found to fit the host.
pub fn check(case: &AnyCase) {
    print!("{}", render(&problem(case)));
}

/// `run --dump-kernel FILE` of a CE/SE case.
pub fn dump_kernel(case: &AnyCase, file: &Path, force: bool) -> Result<(), Failure> {
    let p = problem(case);
    let text = format!(
        "/* simplets {}: case {}, CE/SE kernels ({}), build options: split {}; fused {} */\n{}",
        env!("CARGO_PKG_VERSION"),
        p.common.name,
        p.label(),
        defines(&p, Form::Split, Sweep::default_env()).to_options(),
        defines(&p, Form::Fused, Sweep::default_env()).to_options(),
        source()
    );
    simplets::output::atomic::write_atomic(file, text.as_bytes(), force).map_err(|e| match e {
        simplets::error::OutputError::Exists { .. }
        | simplets::error::OutputError::NotAFile { .. } => Failure::Input(e.into()),
        e => Failure::Run(e.into()),
    })?;
    println!("{}", file.display());
    Ok(())
}

/// `simplets build-kernels` of a CE/SE case: its one program (both forms are kernels of it).
pub fn build_kernels(
    case: &AnyCase,
    device: Option<&str>,
    nx: Option<u64>,
    ny: Option<u64>,
) -> Result<(), Failure> {
    let p = problem(&resized(case, nx, ny)?);
    let dev = simplets::device::select_device(device).map_err(|e| Failure::Input(e.into()))?;
    simplets::device::require_fp64(&dev).map_err(|e| Failure::Input(e.into()))?;
    let dir = simplets::device::KernelCache::default_dir().ok_or_else(|| {
        Failure::Input(anyhow!(
            "no kernel cache directory: set SIMPLETS_KERNEL_CACHE"
        ))
    })?;
    let cache = simplets::device::KernelCache::new(dir);
    // The forms differ in their group counts (`CFG_NGROUPS`): one program each.
    let sw = Sweep::on(&p, &dev);
    for form in [Form::Split, Form::Fused] {
        let built = simplets::device::build_cached(
            &dev,
            &source(),
            &device_defines(&p, &dev, form, sw),
            None,
            Some(&cache),
        )
        .map_err(|e| Failure::Run(e.into()))?;
        println!(
            "kernels for {} on {} cached in {}: {} {:.2} s ({})",
            p.common.name,
            dev.name,
            cache.dir().display(),
            form.name(),
            built.build_seconds(),
            built.cache_status()
        );
    }
    Ok(())
}

fn count(flops: f64, read: f64, written: f64) -> KernelCount {
    KernelCount {
        unit: "item".into(),
        launches: 1,
        flops,
        add: 0.0,
        sub: 0.0,
        mul: 0.0,
        div: 0.0,
        sqrt: 0.0,
        other: 0.0,
        bytes_read: read,
        bytes_written: written,
        bytes_accessed: read + written,
        reads: Default::default(),
        writes: Default::default(),
    }
}

/// Work-items of a launch over `n` points (rounded up to whole work-groups).
fn items(p: &Problem, n: [usize; 2]) -> f64 {
    let (lx, ly) = work_group(p.mesh.dims);
    (n[0].div_ceil(lx) * lx * n[1].div_ceil(ly) * ly) as f64
}

/// Work-items of the fused kernels (W per group).
fn sweep_items(p: &Problem, sw: Sweep) -> f64 {
    let (gx, gy) = grid_groups(p, Form::Fused, sw);
    (gx * gy * sw.w) as f64
}

/// The analytic model of `p`'s kernels in `form` ([`simplets::methods::cese::numbers`]) as
/// bench counts per work-item: a step's compulsory bytes and flops spread over the items of
/// its launches (split: half of each to `half_a` and `half_b`).
pub fn counts(p: &Problem, form: Form, sw: Sweep) -> Counts {
    let m = &p.mesh;
    let pts = (m.nx * m.ny) as f64;
    let fl = flops_per_point(p, form, sw) * pts;
    let (r, w) = step_bytes(p, form);
    let (r, w) = (r * pts, w * pts);
    let out = items(p, [m.nx, m.ny]);
    let mut kernels = std::collections::BTreeMap::new();
    match form {
        Form::Split => {
            let half = if m.dims == 2 {
                [m.nx + 1, m.ny + 1]
            } else {
                [m.nx + 1, 1]
            };
            let hi = items(p, half);
            kernels.insert(
                "half_a".into(),
                count(fl / 2.0 / hi, r / 2.0 / hi, w / 2.0 / hi),
            );
            kernels.insert(
                "half_b".into(),
                count(fl / 2.0 / out, r / 2.0 / out, w / 2.0 / out),
            );
        }
        Form::Fused => {
            let name = if m.dims == 2 { "fused_2d" } else { "fused_1d" };
            let n = sweep_items(p, sw);
            kernels.insert(name.into(), count(fl / n, r / n, w / n));
        }
    }
    // The reductions: 16 B per partial read, spread over their work-items.
    let (ng, ng2) = (groups(p, form, sw) as f64, groups2(p, form, sw) as f64);
    kernels.insert(
        "reduce".into(),
        count(0.0, 16.0 * ng / (256.0 * ng2), 16.0 / 256.0),
    );
    kernels.insert(
        "finish".into(),
        count(0.0, 16.0 * ng2 / 256.0, 32.0 / 256.0),
    );
    let mut schemes = std::collections::BTreeMap::new();
    schemes.insert(
        p.common.scheme.clone(),
        SchemeCounts {
            stored_cells: m.ns as u64,
            fluid_cells: p.points(),
            kernels,
        },
    );
    let mut forms = std::collections::BTreeMap::new();
    forms.insert(
        form.name().to_string(),
        FormCounts {
            source_hash: String::new(),
            schemes,
        },
    );
    Counts {
        method: "analytic model of the CE/SE kernels (src/methods/cese/numbers.rs)".into(),
        case: p.common.name.clone(),
        forms,
    }
}

/// `simplets bench` of a CE/SE case: fixed steps (the end time is lifted), the roofline from
/// the analytic model, `--kernel fused` for the fused form; one CSV line as the explicit
/// methods write it.
pub fn bench(case: &AnyCase, o: BenchOpts, kernel: KernelForm) -> Result<(), Failure> {
    let mut p = problem(&resized(case, o.nx, o.ny)?);
    p.t_end = f64::INFINITY;
    let opencl = matches!(o.backend, Backend::Auto | Backend::Opencl);
    let form = Form::of(kernel);
    let mut spec = simplets::bench::Spec {
        warmup: o.warmup,
        steps: o.steps,
        profile: o.profile,
        form: opencl.then_some(form.name()),
        form_source: None,
        scheme: p.common.scheme.clone(),
        order: format!("{}D", p.mesh.dims),
        iters_per_step: 1,
        host_bytes_per_cell: 8 * 4 * p.mesh.planes as u64,
        command: std::env::args().collect::<Vec<_>>().join(" "),
        git: Some(simplets::output::manifest::GIT_DESCRIBE)
            .filter(|s| !s.is_empty())
            .unwrap_or("unknown")
            .to_string(),
        ..Default::default()
    };
    let mut ch = super::explicit::bench_machine(&mut spec, &o, opencl)?;
    ch.kernel = kernel;
    let common = p.common.clone();
    let setup = std::time::Instant::now();
    let mut solver = Cese::new(p, &ch).map_err(device_failure)?;
    spec.setup_seconds = Some(setup.elapsed().as_secs_f64());
    // The counts of the shape the kernels were built with.
    spec.counts = Some(counts(solver.problem(), form, solver.sweep()));
    let report =
        simplets::bench::run(&mut solver, &common, &spec).map_err(|e| Failure::Run(e.into()))?;
    super::explicit::report_out(&report, &common, &o)
}
