//! Kernel binary cache (PyFR-style): a built program's binary is stored under a key made of the
//! device, its driver, the options and the assembled source, and reused on the next run.
//!
//! The directory is `$SIMPLETS_KERNEL_CACHE`, else `$XDG_CACHE_HOME/simplets/kernels`, else
//! `~/.cache/simplets/kernels`. `--no-kernel-cache` disables it for honest build timings.
//!
//! Each entry carries a magic line, its length and an FNV-1a checksum of the binary: a
//! truncated or altered entry is ignored (and removed) and the program is rebuilt from source,
//! so a damaged cache never reaches the driver. A binary the driver rejects is ignored too.
//! The checksum guards against damage, not against an attacker: a cache directory shared
//! between users is a trust boundary (its binaries are native code run on the device), so
//! point `SIMPLETS_KERNEL_CACHE` only at a directory that only trusted users can write.

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

    /// The cached binary for `key`, if an intact entry exists. A damaged entry (wrong magic,
    /// length or checksum) is removed and `None` returned, so the caller rebuilds.
    pub fn load(&self, key: &str) -> Option<Vec<u8>> {
        let path = self.path(key);
        let bytes = std::fs::read(&path).ok()?;
        match unwrap_entry(&bytes) {
            Some(b) => Some(b.to_vec()),
            None => {
                log::warn!(
                    "kernel cache: {} is damaged (length or checksum): rebuilding",
                    path.display()
                );
                let _ = std::fs::remove_file(&path);
                None
            }
        }
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
            .and_then(|()| std::fs::write(&tmp, wrap_entry(binary)))
            .and_then(|()| std::fs::rename(&tmp, &path));
        if let Err(e) = result {
            let _ = std::fs::remove_file(&tmp);
            log::warn!("kernel cache: cannot store {}: {e}", path.display());
        }
    }
}

/// First bytes of a cache entry.
const MAGIC: &[u8] = b"SIMPLETS-KERNEL-CACHE 1\n";

/// A cache entry: magic, length (u64 LE), FNV-1a 64 of the binary (u64 LE), the binary.
fn wrap_entry(binary: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(MAGIC.len() + 16 + binary.len());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(binary.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a64(&[binary]).to_le_bytes());
    out.extend_from_slice(binary);
    out
}

/// The binary of an intact, non-empty entry.
fn unwrap_entry(bytes: &[u8]) -> Option<&[u8]> {
    let rest = bytes.strip_prefix(MAGIC)?;
    let (len, rest) = rest.split_at_checked(8)?;
    let (sum, binary) = rest.split_at_checked(8)?;
    let len = u64::from_le_bytes(len.try_into().ok()?);
    let sum = u64::from_le_bytes(sum.try_into().ok()?);
    (len == binary.len() as u64 && !binary.is_empty() && sum == fnv1a64(&[binary]))
        .then_some(binary)
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

    /// An entry round-trips; a truncated, extended or bit-flipped one is refused (and
    /// removed by `load`).
    #[test]
    fn damaged_entries_are_refused_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let cache = KernelCache::new(dir.path().join("k"));
        cache.store("abc", b"binary bytes");
        assert_eq!(cache.load("abc").unwrap(), b"binary bytes");
        let path = cache.path("abc");
        let good = std::fs::read(&path).unwrap();
        let mut flipped = good.clone();
        *flipped.last_mut().unwrap() ^= 1;
        for bad in [
            good[..good.len() - 3].to_vec(),
            [good.clone(), b"x".to_vec()].concat(),
            flipped,
            b"binary bytes".to_vec(),
        ] {
            std::fs::write(&path, &bad).unwrap();
            assert!(cache.load("abc").is_none());
            assert!(!path.exists(), "a damaged entry is removed");
        }
        assert!(cache.load("missing").is_none());
    }
}
