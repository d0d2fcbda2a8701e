//! The `bp_euler` side of `bench` (fixed steps: the convergence stop is not applied; the
//! roofline from the analytic model of `methods/bp/numbers.rs`; both boundary forms, the
//! branch-free tables and the ranges, one after the other), `build-kernels` and
//! `run --dump-kernel`.

use std::path::Path;

use anyhow::anyhow;

use simplets::bench::counts::{Counts, FormCounts, KernelCount, SchemeCounts};
use simplets::methods::bp::case::Case;
use simplets::methods::bp::numbers::{form_name, kernels, HOST_BYTES_PER_NODE};
use simplets::methods::bp::opencl::{defines, source, RED};
use simplets::methods::bp::solver::BpSolver;
use simplets::methods::bp::tables::BoundaryForm;
use simplets::methods::AnyCase;

use super::explicit::{report_out, resized, write_kernel, BenchOpts};
use super::{device_failure, Backend, Failure};

/// The work-group the host rounds every launch up to but `smooth` and `reduce` (`RED`).
const WG: usize = 128;

/// The model of the kernels of `ni` × `nj` nodes as bench counts per launched work-item (the
/// launches are rounded up to whole work-groups; the extra items do no work).
pub fn counts(name: &str, scheme: &str, ni: usize, nj: usize, form: BoundaryForm) -> Counts {
    let mut map = std::collections::BTreeMap::new();
    for m in kernels(ni, nj, form) {
        let wg = if matches!(
            m.name,
            "smooth" | "reduce" | "smooth_interior" | "smooth_edge"
        ) {
            RED
        } else {
            WG
        };
        let per_item = m.units as f64 / m.units.div_ceil(wg).max(1) as f64 / wg as f64;
        let (read, written) = (m.read * per_item, m.written * per_item);
        map.insert(
            m.name.to_string(),
            KernelCount {
                unit: "item".into(),
                launches: 1,
                flops: m.flops * per_item,
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
            },
        );
    }
    let mut schemes = std::collections::BTreeMap::new();
    schemes.insert(
        scheme.to_string(),
        SchemeCounts {
            stored_cells: (ni * nj) as u64,
            fluid_cells: (ni * nj) as u64,
            kernels: map,
        },
    );
    let mut forms = std::collections::BTreeMap::new();
    forms.insert(
        form_name(form).to_string(),
        FormCounts {
            source_hash: String::new(),
            schemes,
        },
    );
    Counts {
        method: "analytic model of the bp_euler kernels (src/methods/bp/numbers.rs)".into(),
        case: name.to_string(),
        forms,
    }
}

/// `simplets bench` of a `bp_euler` case: the branch-free tables, the ranges form (the same
/// bits: the comparison of spec §10 items 2–3), then the ghost form (issue 19's ghost-cell
/// comparison; ducts only, so a periodic grid skips it with a note), one report each.
/// `--json PATH` writes one file per form, the form's name before the extension
/// (`b.tables.json`, `b.ranges.json`, `b.ghost.json`); `--csv` appends one line per form.
pub fn bench(case: &AnyCase, o: BenchOpts) -> Result<(), Failure> {
    let AnyCase::BpEuler(c) = resized(case, o.nx, o.ny)? else {
        unreachable!("a bp_euler case")
    };
    let opencl = matches!(o.backend, Backend::Auto | Backend::Opencl);
    let mut ch = None;
    for form in [
        BoundaryForm::Tables,
        BoundaryForm::Ranges,
        BoundaryForm::Ghost,
    ] {
        let mut c = c.clone();
        c.scheme.boundaries = form;
        if form == BoundaryForm::Ghost && c.node_grid().periodic.iter().any(|&p| p) {
            println!(
                "bench: the ghost form serves ducts only; {} has periodic sides, skipped",
                c.name
            );
            continue;
        }
        let common = c.common();
        let (ni, nj) = (common.grid.nx, common.grid.ny);
        let mut spec = simplets::bench::Spec {
            warmup: o.warmup,
            steps: o.steps,
            profile: o.profile,
            form: opencl.then_some(form_name(form)),
            form_source: None,
            scheme: common.scheme.clone(),
            order: form.name().into(),
            iters_per_step: 1,
            host_bytes_per_cell: HOST_BYTES_PER_NODE,
            command: std::env::args().collect::<Vec<_>>().join(" "),
            git: Some(simplets::output::manifest::GIT_DESCRIBE)
                .filter(|s| !s.is_empty())
                .unwrap_or("unknown")
                .to_string(),
            counts: Some(counts(&common.name, &common.scheme, ni, nj, form)),
            ..Default::default()
        };
        // The machine (device, triad, threads) once, for both forms.
        match &ch {
            None => {
                let m = super::explicit::bench_machine(&mut spec, &o, opencl)?;
                ch = Some((m, spec.clone()));
            }
            Some((_, first)) => {
                spec.device = first.device.clone();
                spec.triad = first.triad;
                spec.threads = first.threads;
            }
        }
        let choice = &ch.as_ref().expect("the machine is set up").0;
        let setup = std::time::Instant::now();
        let mut solver = BpSolver::new(&c, choice).map_err(device_failure)?;
        spec.setup_seconds = Some(setup.elapsed().as_secs_f64());
        let report = simplets::bench::run(&mut solver, &common, &spec)
            .map_err(|e| Failure::Run(e.into()))?;
        let json = o.json.map(|p| {
            let ext = p
                .extension()
                .map_or(String::new(), |e| format!(".{}", e.to_string_lossy()));
            let stem = p
                .file_stem()
                .map_or("bench".into(), |s| s.to_string_lossy());
            p.with_file_name(format!("{stem}.{}{ext}", form.name()))
        });
        report_out(
            &report,
            &common,
            &BenchOpts {
                json: json.as_deref(),
                ..o.clone()
            },
        )?;
    }
    Ok(())
}

/// The `-D` defines of a case.
fn case_defines(c: &Case) -> simplets::device::Defines {
    defines(
        &c.node_grid(),
        &c.flow(),
        &c.numerics(),
        c.scheme.boundaries,
    )
}

/// `run --dump-kernel FILE` of a `bp_euler` case.
pub fn dump_kernel(c: &Case, file: &Path, force: bool) -> Result<(), Failure> {
    let text = format!(
        "/* simplets {}: case {}, bp_euler step kernels, build options: {} */\n{}",
        env!("CARGO_PKG_VERSION"),
        c.name,
        case_defines(c).to_options(),
        source()
    );
    write_kernel(file, &text, force)
}

/// `simplets build-kernels` of a (resized) `bp_euler` case: its programs (both boundary forms)
/// into the kernel cache.
pub fn build_kernels(case: &AnyCase, device: Option<&str>) -> Result<(), Failure> {
    let AnyCase::BpEuler(c) = case else {
        unreachable!("a bp_euler case")
    };
    let dev = simplets::device::select_device(device).map_err(|e| Failure::Input(e.into()))?;
    simplets::device::require_fp64(&dev).map_err(|e| Failure::Input(e.into()))?;
    let dir = simplets::device::KernelCache::default_dir().ok_or_else(|| {
        Failure::Input(anyhow!(
            "no kernel cache directory: set SIMPLETS_KERNEL_CACHE"
        ))
    })?;
    let cache = simplets::device::KernelCache::new(dir);
    // Every boundary form `bench` runs (their defines differ in the smoothing's work-group
    // count; the ghost form's are the tables').
    for form in [
        BoundaryForm::Tables,
        BoundaryForm::Ranges,
        BoundaryForm::Ghost,
    ] {
        let mut c = c.clone();
        c.scheme.boundaries = form;
        let built =
            simplets::device::build_cached(&dev, &source(), &case_defines(&c), None, Some(&cache))
                .map_err(|e| Failure::Run(e.into()))?;
        println!(
            "kernels for {} on {} cached in {}: bp {} {:.2} s ({})",
            c.name,
            dev.name,
            cache.dir().display(),
            form.name(),
            built.build_seconds(),
            built.cache_status()
        );
    }
    Ok(())
}
