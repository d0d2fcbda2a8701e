//! Checkpoint files of a case in an output directory: their names, the list by step, and the
//! rotation after each write.

use std::path::{Path, PathBuf};

use crate::error::OutputError;

/// `<out_dir>/<name>.ckpt-<step>`.
pub fn checkpoint_path(out_dir: &Path, case_name: &str, step: u64) -> PathBuf {
    out_dir.join(format!("{case_name}.ckpt-{step}"))
}

/// The checkpoints of `case_name` in `out_dir`, by increasing step.
pub fn list_checkpoints(out_dir: &Path, case_name: &str) -> Vec<(u64, PathBuf)> {
    let prefix = format!("{case_name}.ckpt-");
    let mut found: Vec<(u64, PathBuf)> = std::fs::read_dir(out_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let rest = name.strip_prefix(&prefix)?;
            if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((rest.parse().ok()?, e.path()))
        })
        .collect();
    found.sort();
    found
}

/// Keep the checkpoint of `step` and the newest one before it; remove every other checkpoint
/// of `case_name` in `out_dir`. Returns the removed files.
pub fn rotate(out_dir: &Path, case_name: &str, step: u64) -> Result<Vec<PathBuf>, OutputError> {
    let all = list_checkpoints(out_dir, case_name);
    let previous = all.iter().map(|c| c.0).filter(|&s| s < step).max();
    let mut removed = Vec::new();
    for (s, path) in all {
        if s == step || Some(s) == previous {
            continue;
        }
        std::fs::remove_file(&path).map_err(|e| OutputError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        removed.push(path);
    }
    Ok(removed)
}
