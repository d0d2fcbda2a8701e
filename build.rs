//! Build script: records the code version for the run manifest (`src/output/manifest.rs`).
//!
//! - `SIMPLETS_GIT_DESCRIBE`: `git describe --tags --always --dirty` of the source tree, or
//!   empty when there is no git (a source tarball).
//! - `SIMPLETS_RUSTC_VERSION`: `rustc --version` of the compiler cargo uses.
//!
//! The script reruns when the commit changes (HEAD, the branch ref or packed refs, those that
//! exist) and when the sources change (so `-dirty` follows edits of `src/`, `cl/` and the
//! manifests). Git runs with `GIT_OPTIONAL_LOCKS=0`, so it never rewrites the index (which
//! would rerun the script).

use std::process::Command;

/// stdout of `git args`, trimmed; `None` if git is missing or fails.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

fn main() {
    let describe = git(&["describe", "--tags", "--always", "--dirty"]).unwrap_or_default();
    println!("cargo:rustc-env=SIMPLETS_GIT_DESCRIBE={describe}");
    let rustc = std::env::var("RUSTC")
        .ok()
        .and_then(|r| Command::new(r).arg("--version").output().ok())
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    println!("cargo:rustc-env=SIMPLETS_RUSTC_VERSION={rustc}");
    for path in ["build.rs", "Cargo.toml", "Cargo.lock", "src", "cl"] {
        println!("cargo:rerun-if-changed={path}");
    }
    // Only files that exist: cargo reruns the script every build for a missing one.
    let mut git_files = Vec::new();
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        git_files.push(format!("{dir}/HEAD"));
    }
    if let Some(common) = git(&["rev-parse", "--git-common-dir"]) {
        git_files.push(format!("{common}/packed-refs"));
        if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
            git_files.push(format!("{common}/{branch}"));
        }
    }
    for f in git_files {
        if std::path::Path::new(&f).exists() {
            println!("cargo:rerun-if-changed={f}");
        }
    }
}
