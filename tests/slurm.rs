//! `scripts/slurm/run.sbatch`: what it resubmits after an interrupted run, run with bash
//! against a stand-in `simplets` (exits with the status asked for, writes the checkpoint asked
//! for) and a stand-in `sbatch` that records its arguments.

use std::path::Path;
use std::process::Command;

/// Run the script in `dir` with the stand-ins; the stand-in run exits `status` after creating
/// the checkpoint `ckpt` (if any). Returns the job's exit status and the recorded sbatch call.
fn job(dir: &Path, status: i32, ckpt: Option<&str>, restart: Option<&str>) -> (i32, String) {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let fake = format!(
        "#!/usr/bin/env bash\n\
         case \"$1\" in\n\
         --version) echo 'simplets 0';;\n\
         devices) echo '0  Stand-in GPU  GPU  yes  80 GiB';;\n\
         run) echo \"$@\" > \"{dir}/run-args\"; {touch} exit {status};;\n\
         esac\n",
        dir = dir.display(),
        touch = ckpt.map_or(String::new(), |c| format!("mkdir -p out; touch out/{c};")),
    );
    let sbatch = format!(
        "#!/usr/bin/env bash\necho \"$@\" > \"{}/sbatch-args\"\n",
        dir.display()
    );
    for (name, text) in [("simplets", fake), ("sbatch", sbatch)] {
        let p = bin.join(name);
        std::fs::write(&p, text).unwrap();
        Command::new("chmod").arg("+x").arg(&p).status().unwrap();
    }
    std::fs::write(dir.join("case.json"), r#"{ "name": "job-case" }"#).unwrap();
    let _ = std::fs::remove_file(dir.join("sbatch-args"));
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm/run.sbatch");
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let mut cmd = Command::new("bash");
    cmd.arg(&script)
        .current_dir(dir)
        .env("PATH", path)
        .env("CASE", "case.json")
        .env("SIMPLETS", bin.join("simplets"))
        .env("SELF", &script)
        .env_remove("SLURM_SUBMIT_DIR")
        .env_remove("RESTART")
        .env_remove("RESUBMITS");
    if let Some(r) = restart {
        cmd.env("RESTART", r);
    }
    let out = cmd.output().unwrap();
    let sb = std::fs::read_to_string(dir.join("sbatch-args")).unwrap_or_default();
    (out.status.code().unwrap(), sb)
}

#[test]
fn an_interrupted_run_is_resubmitted_from_its_newest_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let (code, sb) = job(dir.path(), 3, Some("job-case.ckpt-500"), None);
    assert_eq!(code, 0);
    assert!(sb.contains("RESTART=out/job-case.ckpt-500,"), "{sb}");
    assert!(sb.contains("RESUBMITS=1,"), "{sb}");
}

#[test]
fn a_run_interrupted_during_set_up_is_resubmitted_from_the_start() {
    // Exit 3 before any checkpoint (the signal came during the kernel build).
    let dir = tempfile::tempdir().unwrap();
    let (code, sb) = job(dir.path(), 3, None, None);
    assert_eq!(code, 0);
    assert!(sb.contains("RESTART=,"), "{sb}");
    // Restarted from a checkpoint and interrupted in set-up again: the same checkpoint.
    let dir = tempfile::tempdir().unwrap();
    let (code, sb) = job(dir.path(), 3, None, Some("old/job-case.ckpt-40"));
    assert_eq!(code, 0);
    assert!(sb.contains("RESTART=old/job-case.ckpt-40,"), "{sb}");
    let args = std::fs::read_to_string(dir.path().join("run-args")).unwrap();
    assert!(args.contains("--restart old/job-case.ckpt-40"), "{args}");
}

#[test]
fn a_finished_or_failed_run_is_not_resubmitted() {
    for status in [0, 1, 2] {
        let dir = tempfile::tempdir().unwrap();
        let (code, sb) = job(dir.path(), status, None, None);
        assert_eq!(code, status);
        assert!(sb.is_empty(), "status {status}: {sb}");
    }
}
