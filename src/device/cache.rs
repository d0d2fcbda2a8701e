//! Kernel binary cache (PyFR-style): a built program's binary is stored under a key made of the
//! device, its driver, the options and the assembled source, and reused on the next run.
//!
//! The directory is `$SIMPLETS_KERNEL_CACHE`, else `$XDG_CACHE_HOME/simplets/kernels`, else
//! `~/.cache/simplets/kernels`. `--no-kernel-cache` disables it for honest build timings. A
//! binary the driver rejects is ignored and rebuilt from source.

use std::path::{Path, PathBuf};

use super::select::DeviceInfo;

/// Environment variable naming the cache directory.
pub const CACHE_ENV: &str = "SIMPLETS_KERNEL_CACHE";

/// A directory of cached program binaries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelCache {
    dir: PathBuf,
}

/// FNV-1a, 64 bit: a stable hash (std's hasher may change between Rust releases).
pub fn fnv1a64(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in *part {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        // Separator so ("ab", "c") and ("a", "bc") differ.
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl KernelCache {
    /// A cache in `dir` (created on first store).
    pub fn new(dir: impl Into<PathBuf>) -> KernelCache {
        KernelCache { dir: dir.into() }
    }

    /// The default cache directory, if a home or cache directory is known.
    pub fn default_dir() -> Option<PathBuf> {
        let env = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        env(CACHE_ENV)
            .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("simplets/kernels")))
            .or_else(|| env("HOME").map(|d| d.join(".cache/simplets/kernels")))
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Cache key of a build: device identity and driver, options, source.
    pub fn key(device: &DeviceInfo, source: &str, options: &str) -> String {
        let h = fnv1a64(&[
            device.platform_name.as_bytes(),
            device.platform_version.as_bytes(),
            device.name.as_bytes(),
            device.vendor.as_bytes(),
            device.driver_version.as_bytes(),
            device.opencl_c_version.as_bytes(),
            options.as_bytes(),
            source.as_bytes(),
        ]);
        format!("{h:016x}")
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.bin"))
    }

    /// The cached binary for `key`, if any.
    pub fn load(&self, key: &str) -> Option<Vec<u8>> {
        std::fs::read(self.path(key)).ok().filter(|b| !b.is_empty())
    }

    /// Store a binary (tmp + rename, so a concurrent reader never sees half a file). Failures
    /// are logged, not returned: the cache is an optimisation.
    pub fn store(&self, key: &str, binary: &[u8]) {
        // One tmp name per store call: threads of one process (`validate --jobs`) may store
        // the same key at once.
        static STORES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = STORES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let path = self.path(key);
        let tmp = self
            .dir
            .join(format!("{key}.bin.{}.{n}.tmp", std::process::id()));
        let result = std::fs::create_dir_all(&self.dir)
            .and_then(|()| std::fs::write(&tmp, binary))
            .and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            log::warn!("kernel cache: cannot store {}: {e}", path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_stable_and_separates_parts() {
        // Reference value of FNV-1a 64 of "a" followed by the separator byte 0xff.
        assert_eq!(fnv1a64(&[]), 0xcbf2_9ce4_8422_2325);
        assert_ne!(fnv1a64(&[b"ab", b"c"]), fnv1a64(&[b"a", b"bc"]));
        assert_eq!(fnv1a64(&[b"x"]), fnv1a64(&[b"x"]));
    }

    #[test]
    fn store_and_load_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let c = KernelCache::new(dir.path().join("k"));
        assert_eq!(c.load("abc"), None);
        c.store("abc", b"\x7fELF binary");
        assert_eq!(c.load("abc").unwrap(), b"\x7fELF binary");
        assert_eq!(
            std::fs::read_dir(c.dir()).unwrap().count(),
            1,
            "no tmp left behind"
        );
    }
}
