//! The `simplets` binary: bad input gives one `error:` line and a non-zero exit, nothing is
//! overwritten, `check` prints the derived numbers; a few run the solver end to end (output,
//! divergence, SIGTERM and restart). The binary runs with the tests' shared kernel cache
//! (`tests/common`).

mod common;

use std::path::Path;
use std::process::Output;

const VALID: &str = r#"{
    "name": "cli-case",
    "gas": { "kn": 0.05 },
    "grid": { "nx": 20, "ny": 10, "x": [0.0, 2.0], "y": [0.0, 1.0] },
    "bodies": [ { "x": [0.5, 0.8], "y": [0.3, 0.6] } ],
    "boundaries": {
        "west": { "kind": "inflow", "mach": 2.43 },
        "east": { "kind": "outflow" },
        "south": { "kind": "wall" },
        "north": { "kind": "wall" }
    },
    "time": { "dt": 0.01, "steps": 3 }
}"#;

fn simplets(args: &[&str], cwd: &Path) -> Output {
    common::simplets()
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run simplets")
}

/// Whether a run failed for want of an OpenCL runtime: then the test is skipped outside CI
/// and fails in CI ([`common::skip`]).
fn no_opencl(test: &str, out: &Output) -> bool {
    let err = String::from_utf8_lossy(&out.stderr);
    let missing = err.contains("no OpenCL platform");
    if missing {
        common::skip(test, err.trim());
    }
    missing
}

/// Exit status `code` and exactly one stderr line, starting with `error:`; returns that line.
fn one_error_line(out: &Output, code: i32) -> String {
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "stderr: {err}");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 1, "stderr: {err}");
    assert!(lines[0].starts_with("error: "), "stderr: {err}");
    lines[0].to_string()
}

fn write_case(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn missing_case_file() {
    let dir = tempfile::tempdir().unwrap();
    for cmd in ["check", "run"] {
        let line = one_error_line(&simplets(&[cmd, "nope.json"], dir.path()), 2);
        assert!(line.contains("nope.json"), "{line}");
    }
}

#[test]
fn malformed_json() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_case(
        dir.path(),
        "bad.json",
        "{ \"name\": \"x\",\n  \"gas\": { \"kn\": 0.05 ",
    );
    let line = one_error_line(&simplets(&["check", &p], dir.path()), 2);
    assert!(line.contains("bad.json:2:"), "{line}");
}

#[test]
fn unknown_field_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let text = VALID.replace("\"nx\": 20", "\"nx\": 20, \"nz\": 4");
    let p = write_case(dir.path(), "unknown.json", &text);
    for cmd in ["check", "run"] {
        let line = one_error_line(&simplets(&[cmd, &p], dir.path()), 2);
        assert!(line.contains("unknown field `nz`"), "{line}");
    }
}

#[test]
fn out_of_range_value_names_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_case(
        dir.path(),
        "range.json",
        &VALID.replace("\"kn\": 0.05", "\"kn\": 50.0"),
    );
    let line = one_error_line(&simplets(&["check", &p], dir.path()), 2);
    assert!(line.contains("gas.kn = 50.0"), "{line}");
    let p = write_case(
        dir.path(),
        "body.json",
        &VALID.replace("[0.5, 0.8]", "[0.0, 0.8]"),
    );
    let line = one_error_line(&simplets(&["run", &p], dir.path()), 2);
    assert!(line.contains("bodies[0].x"), "{line}");
}

#[test]
fn bad_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let line = one_error_line(&simplets(&["run", "--bogus"], dir.path()), 2);
    assert!(line.contains("--bogus"), "{line}");
    one_error_line(&simplets(&["run", "--steps", "zero"], dir.path()), 2);
    one_error_line(&simplets(&["run", "--backend", "cuda"], dir.path()), 2);
    one_error_line(&simplets(&["frobnicate"], dir.path()), 2);
    one_error_line(&simplets(&[], dir.path()), 2);
}

#[test]
fn existing_output_is_left_untouched_without_force() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_case(dir.path(), "case.json", VALID);
    let out = dir.path().join("results");
    std::fs::create_dir_all(&out).unwrap();
    let nc = out.join("cli-case.nc");
    let bytes = b"\x89HDF\r\n\x1a\nprecious earlier result".to_vec();
    std::fs::write(&nc, &bytes).unwrap();
    let o = simplets(&["run", &p, "--out", "results", "--steps", "2"], dir.path());
    let line = one_error_line(&o, 2);
    assert!(
        line.contains("--force") && line.contains("cli-case.nc"),
        "{line}"
    );
    assert_eq!(std::fs::read(&nc).unwrap(), bytes);
    assert!(!out.join("cli-case.nc.tmp").exists());
}

#[test]
fn check_prints_derived_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_case(dir.path(), "case.json", VALID);
    let o = simplets(&["check", &p], dir.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8_lossy(&o.stdout);
    for want in [
        "200 computed cells",
        "191 fluid",
        "Re 80.",
        "Mach 2.43",
        "C_T2",
        "CFL",
        "memory",
    ] {
        assert!(text.contains(want), "missing {want:?} in\n{text}");
    }
}

#[test]
fn default_case_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/default.json");
    let o = simplets(&["check", &p.display().to_string()], dir.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn help_documents_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    for args in [&["--help"][..], &["run", "--help"][..]] {
        let o = simplets(args, dir.path());
        assert_eq!(o.status.code(), Some(0));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(
            text.contains("Exit status")
                && text.contains("2  bad input")
                && text.contains("3  interrupted by SIGTERM/SIGINT"),
            "{text}"
        );
    }
}

/// The solver end to end: `run` writes `<out>/<name>.nc` with the initial and final states,
/// refuses a second run, and replaces the file with `--force`.
#[test]
fn run_writes_netcdf_and_force_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_case(dir.path(), "case.json", VALID);
    let o = simplets(&["run", &p, "--out", "res", "--steps", "2"], dir.path());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let nc = dir.path().join("res/cli-case.nc");
    let first = std::fs::read(&nc).unwrap();
    assert_eq!(&first[1..4], b"HDF", "NetCDF-4 is an HDF5 file");
    let again = simplets(&["run", &p, "--out", "res", "--steps", "2"], dir.path());
    one_error_line(&again, 2);
    assert_eq!(std::fs::read(&nc).unwrap(), first);
    let forced = simplets(
        &["run", &p, "--out", "res", "--steps", "1", "--force"],
        dir.path(),
    );
    assert!(forced.status.success());
    assert!(!dir.path().join("res/cli-case.nc.tmp").exists());
}

/// `--split-every N` writes numbered parts of at most N snapshots (stdout names each); an
/// existing part is refused (exit 2, one line) until `--force`, which also removes parts left
/// over from a longer earlier run.
#[test]
fn split_every_writes_parts_and_refuses_existing_ones() {
    let dir = tempfile::tempdir().unwrap();
    let text = VALID.replace(
        "\"steps\": 3",
        "\"steps\": 4 }, \"output\": { \"interval\": 1",
    );
    let p = write_case(dir.path(), "case.json", &text);
    let run = |extra: &[&str]| {
        let mut args = vec!["run", p.as_str(), "--out", "res", "--split-every", "2"];
        args.extend_from_slice(extra);
        simplets(&args, dir.path())
    };
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let part = |k: u32| dir.path().join(format!("res/cli-case.{k:04}.nc"));
    let listed: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(
        listed,
        [
            "res/cli-case.0001.nc",
            "res/cli-case.0002.nc",
            "res/cli-case.0003.nc"
        ]
    );
    assert!(!dir.path().join("res/cli-case.nc").exists());
    let third = std::fs::read(part(3)).unwrap();
    let line = one_error_line(&run(&[]), 2);
    assert!(
        line.contains("cli-case.0001.nc") && line.contains("--force"),
        "{line}"
    );
    assert_eq!(std::fs::read(part(3)).unwrap(), third);
    let o = run(&["--force", "--steps", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(part(2).is_file() && !part(3).exists());
    let manifest = std::fs::read_to_string(dir.path().join("res/cli-case.manifest.json")).unwrap();
    assert!(manifest.contains("cli-case.0002.nc"), "{manifest}");
}

/// A time step far beyond stability diverges: exit 1, one line naming step, field and cell,
/// and the output file keeps the last good state.
#[test]
fn diverging_run_stops_with_a_message_and_keeps_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let text = VALID.replace("\"dt\": 0.01, \"steps\": 3", "\"dt\": 5.0, \"steps\": 50");
    let p = write_case(dir.path(), "case.json", &text);
    let o = simplets(&["run", &p, "--out", "res"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    // Info/warn log lines precede it on stderr; the error itself is the last, single line.
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    let line = err.lines().last().unwrap_or_default();
    assert!(
        line.starts_with("error: ") && err.matches("error: ").count() == 1,
        "{err}"
    );
    assert!(
        line.contains("diverged at step") && line.contains("cell (i="),
        "{line}"
    );
    assert!(dir.path().join("res/cli-case.nc").is_file());
    let manifest = std::fs::read_to_string(dir.path().join("res/cli-case.manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert!(m["status"].as_str().unwrap().starts_with("diverged"), "{m}");
}

/// `devices` lists the OpenCL devices (PoCL on CI), or says clearly in one line that there
/// are none (then the test is skipped, and fails in CI).
#[test]
fn devices_lists_opencl_devices() {
    let dir = tempfile::tempdir().unwrap();
    let o = simplets(&["devices"], dir.path());
    if !o.status.success() {
        let line = one_error_line(&o, 1);
        assert!(line.contains("OpenCL"), "{line}");
        return common::skip("devices_lists_opencl_devices", &line);
    }
    let out = String::from_utf8_lossy(&o.stdout);
    let d = simplets::device::select_device(None).expect("the default device");
    assert!(out.lines().count() >= 2, "{out}");
    assert!(out.contains(&d.name), "{} not listed:\n{out}", d.name);
}

fn coarse_case() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("configs/confined_square_coarse.json")
        .display()
        .to_string()
}

/// Checkpoints of the coarse square in `dir`, by step.
fn checkpoints(dir: &Path) -> Vec<(u64, std::path::PathBuf)> {
    simplets::output::checkpoint::list_checkpoints(dir, "confined_square_coarse")
}

/// SIGTERM mid-run: exit 3 with one error line naming the checkpoint, the NetCDF file and the
/// manifest are finished; `--restart` of that checkpoint completes with exit 0 into a new
/// segment; a restart into a different case exits 2 with one line.
#[test]
fn sigterm_writes_a_checkpoint_and_restart_completes() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("res");
    let case = coarse_case();
    let mut child = common::simplets()
        .args(["run", &case, "--out", "res", "--steps", "2000"])
        .args(["--checkpoint-every", "5"])
        .current_dir(dir.path())
        .env("RUST_LOG", "warn")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn simplets");
    // The handler is installed before the first step: wait for the first checkpoint.
    let t0 = Instant::now();
    while checkpoints(&out).is_empty() && t0.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!checkpoints(&out).is_empty(), "no checkpoint within 20 s");
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t0.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            panic!("simplets did not stop within 30 s of SIGTERM");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(3), "stderr: {err}");
    let line = err.lines().last().unwrap_or_default();
    assert!(
        line.starts_with("error: interrupted after step") && line.contains("--restart"),
        "{err}"
    );
    let (step, ckpt) = checkpoints(&out).pop().unwrap();
    assert!(step < 2000);
    assert!(line.contains(&format!("ckpt-{step}")), "{line}");
    assert!(checkpoints(&out).len() <= 2);
    assert!(out.join("confined_square_coarse.nc").is_file());
    let manifest =
        std::fs::read_to_string(out.join("confined_square_coarse.manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(m["status"], "interrupted");
    let ckpt = ckpt.display().to_string();

    // Restart: 3 more steps (--steps counts from step 0).
    let total = (step + 3).to_string();
    let o = simplets(
        &[
            "run",
            &case,
            "--out",
            "res",
            "--restart",
            &ckpt,
            "--steps",
            &total,
        ],
        dir.path(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let seg = out.join(format!("confined_square_coarse.s{step}.nc"));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        seg.strip_prefix(dir.path()).unwrap().display().to_string()
    );
    assert!(seg.is_file());

    // Restart into a different case: exit 2, one line, nothing written.
    let text = std::fs::read_to_string(&case)
        .unwrap()
        .replace("\"kn\": 0.05", "\"kn\": 0.1");
    let other = write_case(dir.path(), "other.json", &text);
    let o = simplets(
        &["run", &other, "--out", "res", "--restart", &ckpt, "--force"],
        dir.path(),
    );
    let line = one_error_line(&o, 2);
    assert!(
        line.contains("was written for a different case") && line.contains("gas.kn"),
        "{line}"
    );
    // A missing checkpoint is bad input too.
    let o = simplets(
        &["run", &case, "--out", "res", "--restart", "nope.ckpt-1"],
        dir.path(),
    );
    let line = one_error_line(&o, 2);
    assert!(line.contains("nope.ckpt-1"), "{line}");
}

/// A grid too large for the OpenCL device is refused before anything is allocated, naming the
/// bytes needed and available (exit 2).
#[test]
fn grid_too_large_for_the_device_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let text = VALID.replace("\"nx\": 20, \"ny\": 10", "\"nx\": 100000, \"ny\": 20000");
    let p = write_case(dir.path(), "big.json", &text);
    let o = simplets(
        &["run", &p, "--backend", "opencl", "--out", "res"],
        dir.path(),
    );
    if no_opencl("grid_too_large_for_the_device_is_refused", &o) {
        return;
    }
    let line = one_error_line(&o, 2);
    assert!(line.contains("needs") || line.contains("needed"), "{line}");
    assert!(line.contains("global memory"), "{line}");
    assert!(!dir.path().join("res/cli-case.nc").exists());
}

/// `build-kernels` compiles into the kernel cache; a second call finds everything cached.
/// (The periodic Couette case builds only the phase form, which is quick on PoCL; a cache of
/// its own, empty at first: the build is the point.)
#[test]
fn build_kernels_fills_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let case = common::config("couette_slip.json");
    let run = || {
        common::simplets()
            .args(["build-kernels", case.to_str().unwrap()])
            .env(simplets::device::cache::CACHE_ENV, dir.path())
            .output()
            .unwrap()
    };
    let first = run();
    if no_opencl("build_kernels_fills_the_cache", &first) {
        return;
    }
    assert!(
        first.status.success(),
        "{}",
        String::from_utf8_lossy(&first.stderr)
    );
    assert!(std::fs::read_dir(dir.path()).unwrap().count() >= 1);
    let second = String::from_utf8_lossy(&run().stdout).to_string();
    assert!(
        second.contains("phase 0.00 s") && second.contains("not applicable"),
        "{second}"
    );
}

/// `build-kernels` refuses, in one line naming the flag (exit 2, no build, no device needed),
/// the lean storage without the fused form and the SIMPLE-TS flags on another method's case.
#[test]
fn build_kernels_refuses_flags_that_do_not_apply() {
    let dir = tempfile::tempdir().unwrap();
    let sts = common::config("default.json");
    let shll = common::config("shll_dam_break.json");
    for (case, flag, extra) in [
        (&sts, "--lean", None),
        (&sts, "--lean", Some(["--kernel", "phase"])),
        (&shll, "--lean", None),
        (&shll, "--gpu-order", None),
    ] {
        let mut args = vec!["build-kernels", case.to_str().unwrap(), flag];
        args.extend(extra.iter().flatten());
        let o = simplets(&args, dir.path());
        let line = one_error_line(&o, 2);
        assert!(line.contains(flag), "{args:?}: {line}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}

/// Extra build options that would change floating-point results are refused with one line
/// naming the variable (exit 2), before anything is compiled or written.
#[test]
fn value_changing_build_options_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = write_case(dir.path(), "case.json", VALID);
    let o = common::simplets()
        .args(["run", &p, "--backend", "opencl", "--out", "res"])
        .current_dir(dir.path())
        .env(
            "SIMPLETS_CL_OPTIONS",
            "-cl-nv-maxrregcount=128 -cl-fast-relaxed-math",
        )
        .output()
        .expect("run simplets");
    if no_opencl("value_changing_build_options_are_refused", &o) {
        return;
    }
    let line = one_error_line(&o, 2);
    assert!(line.contains("SIMPLETS_CL_OPTIONS"), "{line}");
    assert!(line.contains("-cl-fast-relaxed-math"), "{line}");
    assert!(!dir.path().join("res/cli-case.nc").exists());
}

/// `validate --cache`: a study run in two parts (`--only-runs` first, the rest later) gives
/// the same metrics, digit for digit, as the study run in one go; the stored runs are taken
/// from the cache, and `--only-runs` writes no report and exits 0. Also `--jobs 2`: the
/// results do not depend on how many runs go at once.
#[test]
fn validate_cache_assembles_a_study_from_stored_runs() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    let (cache, one, two) = (cwd.join("cache"), cwd.join("one"), cwd.join("two"));
    let path = |p: &Path| p.display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["validate", "confined_square", "--quick"];
        args.extend_from_slice(extra);
        let out = simplets(&args, cwd);
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        assert!(
            out.status.success(),
            "{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        text
    };
    let whole = run(&["--report-dir", &path(&one)]);
    let part = run(&[
        "--cache",
        &path(&cache),
        "--only-runs",
        "h=1/4",
        "--jobs",
        "2",
    ]);
    assert!(part.contains("ran 4 of the study's 5 runs"), "{part}");
    assert!(!cwd.join("validation").exists());
    let stored = std::fs::read_dir(cache.join("confined_square"))
        .unwrap()
        .count();
    assert_eq!(stored, 4, "one file per run on h = 1/4 (the four schemes)");
    let rest = run(&["--cache", &path(&cache), "--report-dir", &path(&two)]);
    assert!(rest.contains("(cached "), "{rest}");
    let rows = |d: &Path| {
        std::fs::read_to_string(d.join("confined_square.csv"))
            .unwrap()
            .lines()
            .skip(1)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&one), rows(&two));
    let stored = std::fs::read_dir(cache.join("confined_square"))
        .unwrap()
        .count();
    assert_eq!(stored, 5, "the run on h = 1/2 joined the cache");
    assert!(whole.contains("confined_square"));
}

/// `--only-runs` needs `--cache`, and must name a run (bad input: exit 2, one line).
#[test]
fn only_runs_needs_a_cache() {
    let dir = tempfile::tempdir().unwrap();
    let out = simplets(
        &[
            "validate",
            "confined_square",
            "--quick",
            "--only-runs",
            "h=1/4",
        ],
        dir.path(),
    );
    let line = one_error_line(&out, 2);
    assert!(line.contains("--cache"), "{line}");
    // A filter that names no run (h=1/4 is not h=1/40, and there is no h=1/8 level) is bad
    // input naming the filter and the study's runs; nothing is run or stored.
    let cache = dir.path().join("cache").display().to_string();
    let out = simplets(
        &[
            "validate",
            "confined_square",
            "--quick",
            "--cache",
            &cache,
            "--only-runs",
            "h=1/8",
        ],
        dir.path(),
    );
    let line = one_error_line(&out, 2);
    assert!(
        line.contains("\"h=1/8\"") && line.contains("implicit-upwind h=1/4"),
        "{line}"
    );
    assert!(!dir.path().join("cache").exists());
}

/// A `--quick` run without `--report-dir` writes under validation/report/quick, never over the
/// committed full report of the same case in validation/report.
#[test]
fn quick_validation_never_replaces_the_full_report() {
    let dir = tempfile::tempdir().unwrap();
    let cwd = dir.path();
    let case = Path::new(env!("CARGO_MANIFEST_DIR")).join("validation/couette_heat");
    let to = cwd.join("validation/couette_heat");
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&case).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let full = cwd.join("validation/report/couette_heat.md");
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(&full, "the full report").unwrap();
    let out = simplets(&["validate", "couette_heat", "--quick"], cwd);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&full).unwrap(), "the full report");
    let quick = std::fs::read_to_string(cwd.join("validation/report/quick/couette_heat.md"));
    assert!(quick.unwrap().contains("quick"));
}
