//! The host machine's memory: how much a run may still allocate before the allocator aborts
//! the process (which would lose the run with a backtrace instead of one line).
//!
//! The budget is the smallest of what Linux reports as available (`MemAvailable` of
//! `/proc/meminfo`: free memory plus what the kernel can reclaim without swapping), the room
//! left under the memory limit of the process's cgroup and of each of its ancestors (cgroup v2
//! `memory.max` − `memory.current`, or v1 `memory.limit_in_bytes` − `memory.usage_in_bytes`:
//! what a batch scheduler such as Slurm grants a job), and the address-space limit
//! (`ulimit -v`). Sources that do not exist (another OS, no cgroup limit) are skipped; with
//! none, the budget is unknown and nothing is refused.

use std::path::{Path, PathBuf};

/// Memory a run may allocate, and the limit that sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostMemory {
    /// Bytes.
    pub bytes: u64,
    /// What sets it: `MemAvailable`, `cgroup memory.max of /slurm/…`, `ulimit -v`.
    pub limit: String,
}

/// The host's memory budget now (see the module docs), `None` where no source is readable.
pub fn available() -> Option<HostMemory> {
    let read = |p: &Path| std::fs::read_to_string(p).ok();
    let mut all = vec![];
    if let Some(kb) = read(Path::new("/proc/meminfo")).and_then(|t| mem_available_kib(&t)) {
        all.push(HostMemory {
            bytes: kb.saturating_mul(1024),
            limit: "MemAvailable".into(),
        });
    }
    if let Some(cg) = read(Path::new("/proc/self/cgroup")) {
        all.extend(cgroup_room(&cg, Path::new("/sys/fs/cgroup"), &read));
    }
    if let Some(b) = read(Path::new("/proc/self/limits")).and_then(|t| address_space_limit(&t)) {
        all.push(HostMemory {
            bytes: b,
            limit: "ulimit -v".into(),
        });
    }
    all.into_iter().min_by_key(|m| m.bytes)
}

/// `MemAvailable` in KiB from the text of `/proc/meminfo`.
pub fn mem_available_kib(meminfo: &str) -> Option<u64> {
    meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
}

/// The soft address-space limit in bytes from the text of `/proc/self/limits` (`None` when
/// unlimited).
pub fn address_space_limit(limits: &str) -> Option<u64> {
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let soft = line["Max address space".len()..]
        .split_whitespace()
        .next()?;
    soft.parse().ok()
}

/// Room under the memory limits of the cgroups in `proc_cgroup` (the text of
/// `/proc/self/cgroup`) and their ancestors below `root`, read with `read`: one entry per
/// limited cgroup.
pub fn cgroup_room(
    proc_cgroup: &str,
    root: &Path,
    read: &dyn Fn(&Path) -> Option<String>,
) -> Vec<HostMemory> {
    let num = |p: PathBuf| -> Option<u64> { read(&p)?.trim().parse().ok() };
    let mut out = vec![];
    for line in proc_cgroup.lines() {
        let mut f = line.splitn(3, ':');
        let (Some(_), Some(ctrl), Some(path)) = (f.next(), f.next(), f.next()) else {
            continue;
        };
        // v2: "0::/path" under root; v1: "N:memory:/path" under root/memory (also when
        // listed with other controllers, "N:cpu,memory:/path").
        let (base, max, cur) = if ctrl.is_empty() {
            (root.to_path_buf(), "memory.max", "memory.current")
        } else if ctrl.split(',').any(|c| c == "memory") {
            (
                root.join("memory"),
                "memory.limit_in_bytes",
                "memory.usage_in_bytes",
            )
        } else {
            continue;
        };
        let mut dir = base.join(path.trim_start_matches('/'));
        loop {
            // v2 writes "max" for no limit (not a number); v1 a huge number near 2^63.
            if let (Some(limit), Some(used)) = (num(dir.join(max)), num(dir.join(cur))) {
                if limit < 1 << 60 {
                    let rel = dir.strip_prefix(&base).unwrap_or(&dir);
                    out.push(HostMemory {
                        bytes: limit.saturating_sub(used),
                        limit: format!("cgroup {max} of /{}", rel.display()),
                    });
                }
            }
            if dir == base || !dir.pop() {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn meminfo_and_limits_are_parsed() {
        let m = "MemTotal:       24600000 kB\nMemFree:  100 kB\nMemAvailable:   22000000 kB\n";
        assert_eq!(mem_available_kib(m), Some(22_000_000));
        assert_eq!(mem_available_kib("MemTotal: 5 kB\n"), None);
        let l = "Limit                     Soft Limit           Hard Limit           Units\n\
                 Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(address_space_limit(l), None);
        let l = l.replace(
            "unlimited            unlimited",
            "8589934592           unlimited",
        );
        assert_eq!(address_space_limit(&l), Some(8 << 30));
    }

    #[test]
    fn cgroup_limits_of_the_group_and_its_ancestors_count() {
        let files: HashMap<&str, &str> = [
            ("/cg/slurm/job_7/memory.max", "4294967296\n"),
            ("/cg/slurm/job_7/memory.current", "1073741824\n"),
            ("/cg/slurm/memory.max", "max\n"),
            ("/cg/slurm/memory.current", "9\n"),
            ("/cg/memory/batch/memory.limit_in_bytes", "2147483648\n"),
            ("/cg/memory/batch/memory.usage_in_bytes", "1000\n"),
            ("/cg/memory/memory.limit_in_bytes", "9223372036854771712\n"),
            ("/cg/memory/memory.usage_in_bytes", "1000\n"),
        ]
        .into_iter()
        .collect();
        let read = |p: &Path| files.get(p.to_str().unwrap()).map(|s| s.to_string());
        let v2 = cgroup_room("0::/slurm/job_7\n", Path::new("/cg"), &read);
        assert_eq!(
            v2,
            vec![HostMemory {
                bytes: 3 << 30,
                limit: "cgroup memory.max of /slurm/job_7".into()
            }]
        );
        let v1 = cgroup_room("4:cpu,memory:/batch\n3:pids:/x\n", Path::new("/cg"), &read);
        assert_eq!(v1.len(), 1);
        assert_eq!(v1[0].bytes, (2 << 30) - 1000);
        assert!(cgroup_room("0::/other\n", Path::new("/cg"), &read).is_empty());
    }

    #[test]
    fn this_machine_reports_a_budget() {
        // Linux (CI and every supported host) has /proc/meminfo.
        let m = available().expect("a memory budget on Linux");
        assert!(m.bytes > 0, "{m:?}");
    }
}
