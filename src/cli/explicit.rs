//! The commands for the explicit methods (convection and SHLL; CE/SE through `cli/cese.rs`): `check`, `bench`,
//! `build-kernels` and `run --dump-kernel` on a case whose method is not SIMPLE-TS.

use std::io::Write;
use std::path::Path;

use anyhow::anyhow;
use simplets::bench::counts::{Counts, FormCounts, KernelCount, SchemeCounts};
use simplets::methods::explicit::numbers::{flops_per_cell, stage_bytes, FORM};
use simplets::methods::explicit::opencl::{defines, device_defines, is_gpu, source, Stage};
use simplets::methods::explicit::solver::Explicit;
use simplets::methods::explicit::Problem;
use simplets::methods::AnyCase;

use super::{choice, device_failure, thread_pool, Backend, Failure};

/// The case with its grid set to `nx` × `ny` cells over the same domain (each defaulting to
/// the case's).
pub fn resized(case: &AnyCase, nx: Option<u64>, ny: Option<u64>) -> Result<AnyCase, Failure> {
    if let AnyCase::BpEuler(b) = case {
        // --nx/--ny are the node counts ni, nj.
        let mut b = b.clone();
        b.resize(nx.map(|n| n as usize), ny.map(|n| n as usize))
            .map_err(|e| Failure::Input(e.into()))?;
        let text = serde_json::to_string(&b).expect("a case serialises");
        return AnyCase::from_json(&text, "--nx/--ny").map_err(|e| Failure::Input(e.into()));
    }
    let mut c = case.clone();
    let grid = match &mut c {
        AnyCase::SimpleTs(_) | AnyCase::BpEuler(_) => unreachable!("explicit cases only"),
        AnyCase::Convection(c) => &mut c.grid,
        AnyCase::ShllEuler(c) => &mut c.grid,
        AnyCase::ShllShallowWater(c) => &mut c.grid,
        AnyCase::ShllConvectionDiffusion(c) => &mut c.grid,
        AnyCase::CeseEuler(c) => &mut c.grid,
    };
    if let Some(n) = nx {
        grid.nx = n as usize;
    }
    if let Some(n) = ny {
        grid.ny = n as usize;
    }
    let text = match &c {
        AnyCase::Convection(c) => serde_json::to_string(c),
        AnyCase::ShllEuler(c) => serde_json::to_string(c),
        AnyCase::ShllShallowWater(c) => serde_json::to_string(c),
        AnyCase::ShllConvectionDiffusion(c) => serde_json::to_string(c),
        AnyCase::CeseEuler(c) => serde_json::to_string(c),
        AnyCase::SimpleTs(_) | AnyCase::BpEuler(_) => unreachable!("explicit cases only"),
    }
    .expect("a case serialises");
    // Validate the resized case as a file would be.
    AnyCase::from_json(&text, "--nx/--ny").map_err(|e| Failure::Input(e.into()))
}

fn problem(case: &AnyCase) -> Problem {
    case.explicit_problem().expect("an explicit case")
}

/// `simplets check` of an explicit case, already resized and found to fit the host.
pub fn check(case: &AnyCase) {
    if let AnyCase::BpEuler(b) = case {
        let g = b.node_grid();
        let t = simplets::methods::bp::tables::Tables::new(&g);
        println!(
            "case        {} (bp_euler, SCREE, boundaries: {})",
            b.name,
            match b.scheme.boundaries {
                simplets::methods::bp::tables::BoundaryForm::Tables => "branch-free tables",
                simplets::methods::bp::tables::BoundaryForm::Ranges =>
                    "interior arithmetic, boundary ranges",
                simplets::methods::bp::tables::BoundaryForm::Ghost =>
                    "ghost nodes, interior stencils",
            }
        );
        println!(
            "grid        {} x {} nodes ({} cells), {}; {}",
            g.ni,
            g.nj,
            g.nci() * g.ncj(),
            match &b.grid {
                simplets::methods::bp::case::BpGrid::Bump { .. } => "bump channel".to_string(),
                simplets::methods::bp::case::BpGrid::Wedge { .. } => "wedge duct".to_string(),
                simplets::methods::bp::case::BpGrid::Cascade { .. } =>
                    "turbine cascade, periodic sides".to_string(),
                simplets::methods::bp::case::BpGrid::File { path, .. } => format!("file {path}"),
            },
            if b.scheme.boundaries == simplets::methods::bp::tables::BoundaryForm::Ghost {
                format!(
                    "{} x {} padded nodes with the ghost layer",
                    g.ni + 2,
                    g.nj + 2
                )
            } else {
                format!("tables {:.0} B per node", t.bytes_per_node())
            }
        );
        println!(
            "time        at most {} steps, stop below max |drho|/rho0 = {:e}; CFL {}, smoothing {}",
            b.time.steps, b.time.tolerance, b.scheme.cfl, b.scheme.smooth
        );
        return;
    }
    let p = problem(case);
    print!("{}", simplets::methods::explicit::numbers::render(&p));
}

/// `run --dump-kernel FILE` of an explicit case.
pub fn dump_kernel(case: &AnyCase, file: &Path, force: bool) -> Result<(), Failure> {
    let p = problem(case);
    // The stage of a GPU: no device is looked up to dump the source.
    let st = Stage::checked(&p, true, None).map_err(|e| Failure::Input(e.into()))?;
    let text = format!(
        "/* simplets {}: case {}, explicit stage kernels ({}), build options: {} */\n{}",
        env!("CARGO_PKG_VERSION"),
        p.common.name,
        p.num.label(),
        defines(&p, &st).to_options(),
        source()
    );
    write_kernel(file, &text, force)
}

/// Write a dumped kernel source to `file` and print its path.
pub fn write_kernel(file: &Path, text: &str, force: bool) -> Result<(), Failure> {
    simplets::output::atomic::write_atomic(file, text.as_bytes(), force).map_err(|e| match e {
        simplets::error::OutputError::Exists { .. }
        | simplets::error::OutputError::NotAFile { .. } => Failure::Input(e.into()),
        e => Failure::Run(e.into()),
    })?;
    println!("{}", file.display());
    Ok(())
}

/// `simplets build-kernels` of an explicit case: its one program into the kernel cache.
pub fn build_kernels(
    case: &AnyCase,
    device: Option<&str>,
    nx: Option<u64>,
    ny: Option<u64>,
) -> Result<(), Failure> {
    let p = problem(&resized(case, nx, ny)?);
    let dev = simplets::device::select_device(device).map_err(|e| Failure::Input(e.into()))?;
    simplets::device::require_fp64(&dev).map_err(|e| Failure::Input(e.into()))?;
    let st = Stage::checked(&p, is_gpu(&dev), None).map_err(|e| Failure::Input(e.into()))?;
    let dir = simplets::device::KernelCache::default_dir().ok_or_else(|| {
        Failure::Input(anyhow!(
            "no kernel cache directory: set SIMPLETS_KERNEL_CACHE"
        ))
    })?;
    let cache = simplets::device::KernelCache::new(dir);
    let built = simplets::device::build_cached(
        &dev,
        &source(),
        &device_defines(&p, &dev, &st),
        None,
        Some(&cache),
    )
    .map_err(|e| Failure::Run(e.into()))?;
    println!(
        "kernels for {} on {} cached in {}: explicit {:.2} s ({})",
        p.common.name,
        dev.name,
        cache.dir().display(),
        built.build_seconds(),
        built.cache_status()
    );
    Ok(())
}

fn count(unit: &str, flops: f64, read: f64, written: f64) -> KernelCount {
    KernelCount {
        unit: unit.into(),
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

/// The analytic model of `p`'s kernels with the stage launch `st` as bench counts, per
/// work-item of each launch (a stage work-item updates up to `st.rpi` cells; the launch is
/// rounded up to whole work-groups).
pub fn counts(p: &Problem, st: &Stage) -> Counts {
    let m = &p.mesh;
    let g = st.global(p);
    let items = (g[0] * g[1]) as f64;
    let per_item = (m.nx * m.ny) as f64 / items;
    let fl = flops_per_cell(p, st) * per_item;
    let mut kernels = std::collections::BTreeMap::new();
    let (r, w) = stage_bytes(p, st, false);
    kernels.insert(
        "stage_fe".into(),
        count("item", fl, r * per_item, w * per_item),
    );
    let (r, w) = stage_bytes(p, st, true);
    let fl2 = fl + 2.0 * p.nv() as f64 * per_item;
    kernels.insert(
        "stage_rk2".into(),
        count("item", fl2, r * per_item, w * per_item),
    );
    // Ghost kernels: each item reads and writes nv values on two sides.
    let g = 8.0 * p.nv() as f64 * 2.0;
    kernels.insert("ghosts_x".into(), count("item", 0.0, g, g));
    kernels.insert("ghosts_2d".into(), count("item", 0.0, g, g));
    // The reductions: 16 B per partial read, spread over their work-items.
    let (ng, ng2) = (st.groups(p) as f64, st.groups2(p) as f64);
    kernels.insert(
        "reduce".into(),
        count("item", 0.0, 16.0 * ng / (256.0 * ng2), 16.0 / 256.0),
    );
    kernels.insert(
        "finish".into(),
        count("item", 0.0, 16.0 * ng2 / 256.0, 32.0 / 256.0),
    );
    let mut schemes = std::collections::BTreeMap::new();
    schemes.insert(
        p.common.scheme.clone(),
        SchemeCounts {
            stored_cells: m.ns as u64,
            fluid_cells: p.fluid_cells(),
            kernels,
        },
    );
    let mut forms = std::collections::BTreeMap::new();
    forms.insert(
        FORM.to_string(),
        FormCounts {
            source_hash: String::new(),
            schemes,
        },
    );
    Counts {
        method: "analytic model of the explicit kernels (src/methods/explicit/numbers.rs)".into(),
        case: p.common.name.clone(),
        forms,
    }
}

/// What `bench` needs of its arguments for an explicit case.
#[derive(Clone)]
pub struct BenchOpts<'a> {
    /// Backend.
    pub backend: Backend,
    /// Parallel threads.
    pub threads: Option<u32>,
    /// OpenCL device.
    pub device: Option<String>,
    /// Timed steps.
    pub steps: u64,
    /// Warm-up steps.
    pub warmup: u64,
    /// Grid override.
    pub nx: Option<u64>,
    /// Grid override.
    pub ny: Option<u64>,
    /// Triad MiB (0: none).
    pub triad: u64,
    /// Profiled pass.
    pub profile: bool,
    /// JSON output.
    pub json: Option<&'a Path>,
    /// Overwrite the JSON file.
    pub force: bool,
    /// CSV line appended here.
    pub csv: Option<&'a Path>,
    /// Kernel form (CE/SE: `fused` for the fused half steps).
    pub kernel: simplets::methods::KernelForm,
}

/// `simplets bench` of an explicit case: fixed steps (the end time is lifted), the roofline
/// from the analytic model, and optionally one CSV line for the tables of
/// `scripts/gpu-explicit.sh`.
pub fn bench(case: &AnyCase, o: BenchOpts) -> Result<(), Failure> {
    let mut p = problem(&resized(case, o.nx, o.ny)?);
    // Fixed step counts: a CFL case with an end time would stop advancing at it.
    p.t_end = f64::INFINITY;
    let opencl = matches!(o.backend, Backend::Auto | Backend::Opencl);
    let mut spec = simplets::bench::Spec {
        warmup: o.warmup,
        steps: o.steps,
        profile: o.profile,
        form: opencl.then_some(FORM),
        form_source: None,
        scheme: p.common.scheme.clone(),
        order: p.method.to_string(),
        iters_per_step: 1,
        host_bytes_per_cell: simplets::methods::explicit::numbers::host_bytes_per_cell(&p),
        command: std::env::args().collect::<Vec<_>>().join(" "),
        git: Some(simplets::output::manifest::GIT_DESCRIBE)
            .filter(|s| !s.is_empty())
            .unwrap_or("unknown")
            .to_string(),
        ..Default::default()
    };
    let ch = bench_machine(&mut spec, &o, opencl)?;
    // The kernels' model for the stage launch of the device the bench runs on.
    let st = match &spec.device {
        Some(dev) => Stage::on(&p, dev, None),
        None => Stage::new(&p, true, None),
    };
    spec.counts = Some(counts(&p, &st));
    let common = p.common.clone();
    let setup = std::time::Instant::now();
    let mut solver = Explicit::new(p, &ch).map_err(device_failure)?;
    spec.setup_seconds = Some(setup.elapsed().as_secs_f64());
    let report =
        simplets::bench::run(&mut solver, &common, &spec).map_err(|e| Failure::Run(e.into()))?;
    report_out(&report, &common, &o)
}

/// The machine side of a bench of the explicit methods, CE/SE and bp_euler: the OpenCL
/// device and the triad bandwidth (`--triad`) into `spec`, or the `parallel` backend's thread
/// pool; the backend choice the solver is built with.
pub fn bench_machine(
    spec: &mut simplets::bench::Spec,
    o: &BenchOpts,
    opencl: bool,
) -> Result<simplets::methods::BackendChoice, Failure> {
    if opencl {
        let dev = simplets::device::select_device(o.device.as_deref())
            .map_err(|e| Failure::Input(e.into()))?;
        if o.triad > 0 {
            let n = o.triad as usize * (1 << 20) / 8;
            let bw = simplets::device::bandwidth::triad_bandwidth(&dev, n, 5)
                .map_err(|e| Failure::Run(e.into()))?;
            spec.triad = Some(bw);
        }
        spec.device = Some(dev);
    }
    if o.backend == Backend::Parallel {
        thread_pool(o.threads)?;
        spec.threads = Some(
            o.threads
                .map_or_else(rayon::current_num_threads, |n| n as usize),
        );
    }
    let backend = if opencl { Backend::Opencl } else { o.backend };
    Ok(choice(backend, o.device.clone(), true))
}

/// Print a bench report, write its JSON and append its CSV line where asked.
pub fn report_out(
    report: &simplets::bench::Report,
    common: &simplets::case::Common,
    o: &BenchOpts,
) -> Result<(), Failure> {
    print!("{}", simplets::bench::render(report));
    if let Some(path) = o.json {
        let text = serde_json::to_string_pretty(report).expect("report serialises");
        simplets::output::atomic::write_atomic(path, text.as_bytes(), o.force)
            .map_err(|e| Failure::Run(e.into()))?;
        println!("{}", path.display());
    }
    if let Some(path) = o.csv {
        let cells = (report.grid.nx * report.grid.ny) as f64;
        let ns = 1e9 * report.seconds / (cells * report.steps.max(1) as f64);
        let line = format!(
            "{},{},{},{},{},{},{},{:.6e},{:.4},{},{}\n",
            report.case,
            common.method,
            report.grid.nx,
            report.grid.ny,
            report.backend.replace(',', ";"),
            report.threads.unwrap_or(1),
            report.steps,
            report.seconds,
            ns,
            report
                .pct_of_bound_total
                .map_or(String::new(), |x| format!("{x:.1}")),
            report
                .device_ms_per_iteration
                .map_or(String::new(), |x| format!("{x:.6}")),
        );
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .and_then(|mut f| f.write_all(line.as_bytes()))
            .map_err(|e| Failure::Run(anyhow!("cannot append to {}: {e}", path.display())))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use simplets::methods::explicit::opencl::StageForm;

    fn problem(walls: &str) -> Problem {
        let json = format!(
            r#"{{"name":"s","method":"shll_euler","grid":{{"nx":300,"ny":40,"x":[0,3],"y":[0,1]}},
            "boundaries":{{"west":{{"kind":"outflow"}},"east":{{"kind":"outflow"}},
            "south":{{"kind":"outflow"}},"north":{{"kind":"outflow"}}}},{walls}
            "initial":{{"state":{{"rho":1,"p":1}}}},"time":{{"cfl":0.5,"steps":1}}}}"#
        );
        AnyCase::from_json(&json, "<test>")
            .unwrap()
            .explicit_problem()
            .unwrap()
    }

    /// The stage's bytes per computed cell in the bench counts: the state read and written
    /// (64 B for Euler), and the 4 B of the mask in the groups that read it: all of them in
    /// the tile, only the walled groups' share in the strip.
    #[test]
    fn stage_bytes_count_the_mask_where_it_is_read() {
        let per_cell = |p: &Problem, st: &Stage| {
            let g = st.global(p);
            let per_item = (p.mesh.nx * p.mesh.ny) as f64 / (g[0] * g[1]) as f64;
            let k = &counts(p, st).forms[FORM].schemes[&p.common.scheme].kernels["stage_fe"];
            (k.bytes_read + k.bytes_written) / per_item
        };
        let strip = |p: &Problem| Stage::new(p, true, Some(StageForm::Strip));
        let tile = |p: &Problem| Stage::new(p, true, Some(StageForm::Tile));
        let open = problem("");
        assert_eq!(per_cell(&open, &strip(&open)), 64.0);
        assert_eq!(per_cell(&open, &tile(&open)), 64.0);
        // A wall in the middle strip of three (126 columns each): its groups and their
        // neighbours' halo columns do not reach the others.
        let walled = problem(r#""walls":[{"x":[1.4,1.6],"y":[0.4,0.6]}],"#);
        let st = strip(&walled);
        let share = st.walled_share(&walled);
        assert!(share > 0.0 && share < 0.5, "{share}");
        assert!((per_cell(&walled, &st) - (64.0 + 4.0 * share)).abs() < 1e-12);
        assert_eq!(per_cell(&walled, &tile(&walled)), 68.0);
    }
}
