//! Measured memory bandwidth of a device: the STREAM triad (`cl/common/triad.cl`), timed with
//! OpenCL profiling events, best of several runs. `simplets bench` reports kernel traffic as a
//! percentage of this figure (and of the datasheet figure where known).

use super::program::build;
use super::runtime::Runtime;
use super::select::DeviceInfo;
use super::source::{Defines, Source, TRIAD};
use crate::error::DeviceError;

/// Bytes moved per triad element: two reads and one write of a double.
pub const TRIAD_BYTES_PER_ELEMENT: u64 = 24;

/// Triad bandwidth on `device` with `n` doubles per array (3 arrays), in bytes per second:
/// the best of `repeats` timed runs after one warm-up.
pub fn triad_bandwidth(device: &DeviceInfo, n: usize, repeats: usize) -> Result<f64, DeviceError> {
    let src = Source::new().with(TRIAD).assemble();
    let defs = Defines::new()
        .int("CFG_NXT", 1)
        .int("CFG_NYT", 1)
        .int("CFG_NTRIAD", n as i64);
    let mut rt = Runtime::new(build(device, &src, &defs, None)?);
    let ones = vec![1.0; n];
    rt.real("ta", &ones)?;
    rt.real("tb", &ones)?;
    rt.real("tc", &ones)?;
    rt.bind("triad")?;
    rt.set_profiling(true)?;
    rt.time_kernel("triad", n)?;
    let mut best = f64::MAX;
    for _ in 0..repeats.max(1) {
        best = best.min(rt.time_kernel("triad", n)?);
    }
    let mut check = vec![0.0; 4];
    rt.read("ta", &mut check)?;
    assert!(
        check.iter().all(|&x| x == 4.0),
        "triad result wrong: {check:?}"
    );
    Ok(TRIAD_BYTES_PER_ELEMENT as f64 * n as f64 / best.max(1e-12))
}
