//! `simplets bench` pieces on an OpenCL device (PoCL in CI): per-kernel profiling, the device
//! memory of both forms, the embedded kernel counts, and the counting replay of a traced step
//! (needs g++ and python3: a CI run without them fails). The programs come from the shared
//! kernel cache (`tests/common`); every test builds the [`BUILT`] schemes only.

mod common;

use std::collections::BTreeSet;
use std::process::Command;

use common::{cl_lock, cl_options, root};
use simplets::bench::{self, counts};
use simplets::methods::simple_ts::backend::Backend as Solver;
use simplets::methods::simple_ts::case::{Case, Convection, Interpolation};
use simplets::methods::simple_ts::opencl::phase::{OpenCl, OpenClOptions};

const SCHEMES: [(Convection, Interpolation); 4] = [
    (Convection::Implicit, Interpolation::Upwind),
    (Convection::Implicit, Interpolation::Tvd),
    (Convection::Explicit, Interpolation::Upwind),
    (Convection::Explicit, Interpolation::Tvd),
];

/// The schemes whose kernels these tests build (each build of the fused form takes 30 s to
/// 2 min on PoCL, the lean one longest): one implicit and one explicit, one upwind and one TVD. The storage and the set
/// of launched kernels depend on the convection only (explicit adds C_u, C_v, C_T and the
/// `convective` kernel); the interpolation changes what a kernel computes, not which runs.
const BUILT: [(Convection, Interpolation); 2] = [
    (Convection::Implicit, Interpolation::Upwind),
    (Convection::Explicit, Interpolation::Tvd),
];

/// The parity case ([`common::body_case`]: a body, slip walls, one moving and one hot,
/// inflow and outflow: the sides and walls of the kernel-count case
/// `scripts/kernel_count/case.json`, so the same kernels run) with `scheme`, two loop-2
/// iterations per step. Its programs are those `tests/parity.rs` builds: from the cache.
fn case(convection: Convection, interpolation: Interpolation) -> Case {
    let mut c = common::body_case(convection, interpolation);
    assert_eq!(c.bodies.len(), 1);
    c.solver.max_iters = 2;
    c.solver.eps_v = 0.0;
    c.solver.eps_p = 0.0;
    c.solver.eps_t = 0.0;
    c
}

/// The fused form with the work-group width `tests/parity.rs` builds for this scheme and
/// storage (lean implicit: 16; else 8), several work-groups in both directions.
fn fused(c: &Case, lean: bool) -> simplets::methods::simple_ts::opencl::fused::Fused {
    let opts = OpenClOptions {
        lean,
        ..cl_options()
    };
    let dec = if lean && c.scheme.convection == Convection::Implicit {
        (16, 3)
    } else {
        (8, 5)
    };
    simplets::methods::simple_ts::opencl::fused::Fused::new(c, &opts, Some(dec)).unwrap()
}

/// The per-cell buffers of each form are what `simplets check` reports, in every scheme.
#[test]
fn device_memory_matches_the_reported_bytes_per_cell() {
    let _g = cl_lock();
    for (conv, interp) in BUILT {
        let c = case(conv, interp);
        let explicit = conv == Convection::Explicit;
        let phase = OpenCl::new(&c, &cl_options()).unwrap();
        let f = fused(&c, false);
        let fl = fused(&c, true);
        for (form, s, expect) in [
            (
                "phase",
                &phase as &dyn Solver,
                simplets::methods::simple_ts::opencl::phase::device_bytes(
                    phase.grid().len() as u64,
                    explicit,
                    c.solver.sweeps(),
                )
                .0,
            ),
            (
                "fused",
                &f as &dyn Solver,
                simplets::methods::simple_ts::opencl::fused::device_bytes(
                    f.grid().len() as u64,
                    explicit,
                    false,
                )
                .0,
            ),
            (
                "fused --lean",
                &fl as &dyn Solver,
                simplets::methods::simple_ts::opencl::fused::device_bytes(
                    fl.grid().len() as u64,
                    explicit,
                    true,
                )
                .0,
            ),
        ] {
            let rt = s.runtime().unwrap();
            let n = s.grid().len();
            let per_cell: usize = rt
                .buffers()
                .iter()
                .filter(|(_, _, len)| *len == n)
                .map(|(_, elem, len)| elem * len)
                .sum();
            assert_eq!(per_cell as u64, expect, "{form} {}", c.scheme);
            // Everything else is O(nx + ny): metrics, walls, copy lists, partial maxima.
            assert!(
                rt.bytes() - expect < 64 * ((n as f64).sqrt() as u64) * 8,
                "{form}"
            );
        }
    }
}

/// The profiled pass sees every launch: one `pseudo`, `tp`, `correct` and device-side
/// `check` per iteration, the buffer copies of each step, and one read of the loop-2 control
/// per batch of iterations: after the first step a step's loop 2 is one batch.
/// (Explicit, for the `convective` kernel; TVD, to share the program of [`BUILT`].)
#[test]
fn profiling_accumulates_every_command() {
    let _g = cl_lock();
    let c = case(Convection::Explicit, Interpolation::Tvd);
    assert!(BUILT.contains(&(c.scheme.convection, c.scheme.interpolation)));
    let mut s = OpenCl::new(&c, &cl_options()).unwrap();
    // The first step learns the batch size (several reads while it grows).
    s.step().unwrap();
    s.runtime_mut().unwrap().set_profiling(true).unwrap();
    for _ in 0..2 {
        s.step().unwrap();
    }
    let p = s.runtime().unwrap().profile().unwrap();
    let iters = 2 * u64::from(c.solver.max_iters);
    assert_eq!(p["pseudo"].launches, iters);
    assert_eq!(p["tp"].launches, iters);
    assert_eq!(p["correct"].launches, iters);
    assert_eq!(p["check"].launches, iters);
    assert_eq!(p["convective"].launches, 2);
    assert_eq!(p["pseudo"].items, iters * s.grid().len() as u64);
    assert!(p["reduce_all"].grouped && !p["pseudo"].grouped);
    // 6 copies n := k per step; `tp` writes the whole of p_new, T_new, so no copy starts
    // loop 3.
    assert_eq!(p[simplets::device::runtime::COPY].launches, 2 * 6);
    assert_eq!(p[simplets::device::runtime::READ].launches, 2);
    assert!(p.values().all(|t| t.seconds >= 0.0) && p["tp"].seconds > 0.0);
    // Off again: nothing more is recorded, and the results stay those of the reference.
    let rt = s.runtime_mut().unwrap();
    rt.set_profiling(false).unwrap();
    s.step().unwrap();
    assert!(s.runtime().unwrap().profile().unwrap().is_empty());
}

/// The counts compiled into the binary are those of today's kernel sources, cover every
/// scheme of both forms and every kernel either form launches (built for the [`BUILT`]
/// schemes). Fails after a change to cl/: run scripts/count-kernels.sh.
#[test]
fn embedded_counts_are_current_and_complete() {
    let _g = cl_lock();
    let counts = counts::embedded();
    for form in ["phase", "fused"] {
        assert!(
            counts.is_current(form, &bench::trace::form_source(form)),
            "src/bench/counts.json was counted from another {form} kernel source: run \
             scripts/count-kernels.sh"
        );
    }
    for (conv, interp) in SCHEMES {
        let c = case(conv, interp);
        let scheme = c.scheme.to_string();
        for form in ["phase", "fused"] {
            assert!(
                counts.forms[form].schemes.contains_key(&scheme),
                "{form}: no counts for {scheme}"
            );
        }
        // Sanity of the counts themselves (the EoS step of `correct` by hand: a fluid cell reads
        // p_new and T_new and writes p, T, ρ = p/T and Γ = √T, the only division and square
        // root of the kernel; every work-item reads its cell class and writes both residuals).
        let cor = counts.kernel("phase", &scheme, "correct").unwrap();
        let sc = &counts.forms["phase"].schemes[&scheme];
        let fluid = sc.fluid_cells as f64 / sc.stored_cells as f64;
        assert_eq!(cor.unit, "item");
        assert!((cor.div - fluid).abs() < 1e-12 && (cor.sqrt - fluid).abs() < 1e-12);
        for f in ["p", "t", "rho", "gam"] {
            assert!((cor.writes[f] - 8.0 * fluid).abs() < 1e-9, "{f}: {cor:?}");
        }
        assert!((cor.reads["cell"] - 4.0).abs() < 1e-9, "{cor:?}");
        for f in ["fx", "fy"] {
            assert!((cor.writes[f] - 8.0).abs() < 1e-9, "{f}: {cor:?}");
        }
        assert!(cor.bytes_accessed >= cor.bytes() - 1e-9);
        if !BUILT.contains(&(conv, interp)) {
            continue;
        }
        let phase: Box<dyn Solver> = Box::new(OpenCl::new(&c, &cl_options()).unwrap());
        let f: Box<dyn Solver> = Box::new(fused(&c, false));
        for (form, mut s) in [("phase", phase), ("fused", f)] {
            s.runtime_mut().unwrap().set_profiling(true).unwrap();
            s.step().unwrap();
            let launched: BTreeSet<String> = s
                .runtime()
                .unwrap()
                .profile()
                .unwrap()
                .into_keys()
                .filter(|k| !k.starts_with('('))
                .collect();
            for k in &launched {
                let n = counts.kernel(form, &scheme, k);
                assert!(n.is_some(), "{form} {scheme}: no counts for kernel {k}");
            }
        }
    }
}

/// `simplets bench` on the kernel-count case at 60 × 30 (implicit TVD, one step of one
/// iteration after `warmup` steps, no profile) with `extra` arguments; asserts it succeeds.
fn small_bench(warmup: &str, extra: &[&str]) -> std::process::Output {
    let case_path = root().join("scripts/kernel_count/case.json");
    let out = common::simplets()
        .args(["bench", case_path.to_str().unwrap()])
        .args(["--nx", "60", "--ny", "30", "--scheme", "implicit-tvd"])
        .args([
            "--warmup", warmup, "--steps", "1", "--iters", "1", "--triad", "0",
        ])
        .arg("--no-profile")
        .args(extra)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `simplets bench --trace` and the counting replay (scripts/count_kernels.py) on a tiny case:
/// the replay reproduces the device's buffers bit for bit (else the script fails) and counts
/// what the embedded counts say per work-item for a kernel whose work does not depend on the
/// grid size. Needs g++ (C++20) and python3: fails without them in CI, else says so and
/// skips.
#[test]
fn traced_step_replays_bit_for_bit_in_the_counting_build() {
    const TEST: &str = "traced_step_replays_bit_for_bit_in_the_counting_build";
    let _g = cl_lock();
    for tool in ["g++", "python3"] {
        if !common::have(tool) {
            return common::skip(TEST, &format!("the counting build needs {tool}"));
        }
    }
    let tmp = tempfile::tempdir().unwrap();
    let trace = tmp.path().join("trace");
    small_bench("3", &["--trace", trace.to_str().unwrap()]);
    let json = tmp.path().join("counts.json");
    let out = Command::new("python3")
        .arg(root().join("scripts/count_kernels.py"))
        .arg(&trace)
        .args(["--out", json.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let c: counts::Counts = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let sc = &c.forms["phase"].schemes["implicit-tvd"];
    // `correct` with the EoS step: a fluid cell's p/T and √T are its only division and square
    // root; it writes the residuals of u and v (in Fx, Fy), u, v and the new p, T, ρ, Γ.
    let cor = &sc.kernels["correct"];
    let fluid = sc.fluid_cells as f64 / sc.stored_cells as f64;
    assert!(
        (cor.div - fluid).abs() < 1e-12 && (cor.sqrt - fluid).abs() < 1e-12,
        "{cor:?}"
    );
    assert_eq!(
        cor.writes.keys().collect::<Vec<_>>(),
        ["fx", "fy", "gam", "p", "rho", "t", "u", "v"]
    );
    // The momentum kernel reads iterate k, level n, the fluxes and the classes, and writes û,
    // d_u, v̂, d_v only.
    let pseudo = &sc.kernels["pseudo"];
    assert_eq!(
        pseudo.writes.keys().collect::<Vec<_>>(),
        ["d_u", "d_v", "u_hat", "v_hat"]
    );
    assert!(pseudo.reads.contains_key("rho_n") && pseudo.reads.contains_key("fx"));
    assert!(pseudo.flops > 100.0 && pseudo.div > 10.0, "{pseudo:?}");
}

/// `simplets bench --json` records the set-up time and the host peak (VmHWM), and on a CPU
/// device (PoCL), whose buffers are host memory, the peak holds them and also appears without
/// them; the text says both.
#[test]
fn bench_records_setup_time_and_host_peak() {
    let _g = cl_lock();
    let tmp = tempfile::tempdir().unwrap();
    let json = tmp.path().join("bench.json");
    let out = small_bench("1", &["--json", json.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("host peak (VmHWM)") && text.contains("set-up of the backend: "),
        "{text}"
    );
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert!(r["setup_seconds"].as_f64().unwrap() > 0.0, "{r}");
    let peak = &r["host_peak"];
    let bytes = peak["bytes"].as_u64().unwrap();
    let buffers = r["memory"]["bytes"].as_u64().unwrap();
    let stored = r["grid"]["stored_cells"].as_f64().unwrap();
    assert!(bytes > buffers, "{peak}");
    assert!((peak["per_stored_cell"].as_f64().unwrap() - bytes as f64 / stored).abs() < 1e-6);
    if r["device"]["device_type"] == "CPU" {
        let less = peak["per_stored_cell_less_buffers"].as_f64().unwrap();
        assert!(
            (less - (bytes - buffers) as f64 / stored).abs() < 1e-6,
            "{peak}"
        );
    }
}
