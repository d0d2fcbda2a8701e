//! The command line with the explicit methods: a field of another method is one `error:`
//! line naming the field and the method (exit 2); a CFL run with an end time stops there and
//! writes its NetCDF output; `check` and `--dump-kernel` work for every method.

use std::process::Command;

fn simplets() -> Command {
    Command::new(env!("CARGO_BIN_EXE_simplets"))
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const SOD: &str = r#"{"name":"sod","method":"shll_euler",
  "grid":{"nx":50,"ny":1,"x":[0,1],"y":[0,0.02]},
  "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"outflow"}},
  "initial":{"state":{"rho":0.125,"p":0.1},"regions":[{"x":[0,0.5],"state":{"rho":1,"p":1}}]},
  "time":{"cfl":0.5,"end_time":0.2},"output":{"interval":0}}"#;

/// A SIMPLE-TS field (`gas.kn`) in a `shll_euler` case: one line, naming the field and the
/// method, exit status 2.
#[test]
fn a_field_of_another_method_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let bad = SOD.replace(
        r#""method":"shll_euler","#,
        r#""method":"shll_euler","solver":{"max_iters":3},"#,
    );
    let p = write(dir.path(), "bad.json", &bad);
    let out = simplets().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .lines()
        .find(|l| l.starts_with("error:"))
        .expect("an error line");
    assert!(line.contains("unknown field `solver`"), "{line}");
    assert!(line.contains("not of method shll_euler"), "{line}");
    // A shallow-water field in a convection case.
    let bad = r#"{"name":"c","method":"convection","velocity":[1,0],"water":{"gravity":9.81},
      "grid":{"nx":10,"ny":1,"x":[0,1],"y":[0,0.1]},
      "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"}},
      "initial":{"value":1},"time":{"cfl":0.5,"steps":3}}"#;
    let p = write(dir.path(), "bad2.json", bad);
    let out = simplets().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unknown field `water`") && err.contains("method convection"),
        "{err}"
    );
}

/// Bad values name their JSON path: an unstable fixed Δt of convection, a reflective side of
/// a scalar method, south/north in 1D.
#[test]
fn bad_values_name_their_path() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            r#"{"name":"c","method":"convection","velocity":[1,0],
              "grid":{"nx":10,"ny":1,"x":[0,1],"y":[0,0.1]},
              "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"}},
              "initial":{"value":1},"time":{"dt":0.5,"steps":3}}"#,
            "time.dt",
        ),
        (
            r#"{"name":"c","method":"convection","velocity":[1,0],
              "grid":{"nx":10,"ny":1,"x":[0,1],"y":[0,0.1]},
              "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"outflow"}},
              "initial":{"value":1},"time":{"dt":0.05,"steps":3}}"#,
            "boundaries.west.kind",
        ),
        (
            &SOD.replace(
                r#""east":{"kind":"outflow"}"#,
                r#""east":{"kind":"outflow"},"south":{"kind":"outflow"}"#,
            ),
            "boundaries",
        ),
        (&SOD.replace(r#""cfl":0.5"#, r#""cfl":1.5"#), "time.cfl"),
    ];
    for (k, (text, path)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("b{k}.json"), text);
        let out = simplets().arg("check").arg(&p).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{path}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            err.lines().filter(|l| l.starts_with("error:")).count(),
            1,
            "{err}"
        );
        assert!(err.contains(&format!("error: {path}")), "{path}: {err}");
    }
}

/// `run` of a CFL case with an end time stops there (the last step clipped) and writes the
/// NetCDF output with the primitive variables; `check` prints the time step; the dumped
/// kernel names its defines.
#[test]
fn run_check_and_dump_kernel() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "sod.json", SOD);
    let out = simplets().arg("check").arg(&p).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("CFL 0.5") && text.contains("(1D)"), "{text}");
    let out_dir = dir.path().join("out");
    let out = simplets()
        .args(["run", "--backend", "reference", "--out"])
        .arg(&out_dir)
        .arg(&p)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let manifest = std::fs::read_to_string(out_dir.join("sod.manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert!(out_dir.join("sod.nc").is_file());
    // 50 cells, CFL 0.5, to t = 0.2: 41 steps (not the 10^7 cap of time.max_steps).
    let steps = m["steps"].as_u64().expect("steps in the manifest");
    assert!((30..60).contains(&steps), "{steps} steps");
    let k = dir.path().join("k.cl");
    let out = simplets()
        .args(["run", "--dump-kernel"])
        .arg(&k)
        .arg(&p)
        .output()
        .unwrap();
    assert!(out.status.success());
    let src = std::fs::read_to_string(&k).unwrap();
    assert!(src.contains("-D CFG_SYS=1") && src.contains("__kernel void stage_fe"));
}

/// A bad value of a stage tuning variable is refused in one line naming it, with status 2 and
/// nothing written, by `run --dump-kernel` and `build-kernels` as by the solver itself.
#[test]
fn bad_stage_variables_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "e2.json",
        &SOD.replace(r#""nx":50,"ny":1"#, r#""nx":40,"ny":20"#)
            .replace(r#""y":[0,0.02]"#, r#""y":[0,0.5]"#)
            .replace(
                r#""east":{"kind":"outflow"}}"#,
                r#""east":{"kind":"outflow"},"south":{"kind":"reflective"},"north":{"kind":"reflective"}}"#,
            ),
    );
    let k = dir.path().join("k.cl");
    for (var, value) in [
        ("SIMPLETS_EXPLICIT_STAGE", "tiles"),
        ("SIMPLETS_STRIP_PREFETCH", "2"),
        // The dumped source is a GPU's, the strip: rows of items only.
        ("SIMPLETS_EXPLICIT_SHAPE", "32x4x4"),
    ] {
        // Exit 2 with one line naming the variable.
        let refused = |cmd: &mut std::process::Command| {
            let out = cmd.env(var, value).env_remove("RUST_LOG").output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{var}: {err}");
            assert!(
                err.contains(var) && err.trim().lines().count() == 1,
                "{err}"
            );
        };
        refused(simplets().args(["run", "--dump-kernel"]).arg(&k).arg(&p));
        assert!(!k.exists(), "{var}: a kernel was written");
        if var != "SIMPLETS_EXPLICIT_SHAPE" {
            refused(
                simplets()
                    .env("SIMPLETS_KERNEL_CACHE", dir.path().join("cache"))
                    .arg("build-kernels")
                    .arg(&p),
            );
        }
    }
}
