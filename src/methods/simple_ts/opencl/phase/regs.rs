//! Register caps for single phase kernels on NVIDIA. A cap on the whole program does not pay:
//! at 64 registers `pseudo` ran 31 % faster but `tp` and `tp_sweep` 44–52 % slower (run 40,
//! H100, 4032 × 4000). So the kernels named here are built once more, in a program of their
//! own with `-cl-nv-maxrregcount=N` in the same context (`BuiltProgram::sibling`), and their
//! instances take those kernels (`Runtime::rebind_from`): the same source and arguments,
//! another register allocation, the same bits (contraction stays off either way).

use std::collections::BTreeMap;

use crate::device::{DeviceInfo, KernelCache, Runtime};
use crate::error::DeviceError;

/// Environment variable of the per-kernel register caps: `kernel=N,…` (`N` 0: the main
/// program's build), replacing [`NV_CAPS`]; empty: none. NVIDIA only.
pub const PHASE_REGS_ENV: &str = "SIMPLETS_PHASE_REGS";

/// The caps of the phase form on NVIDIA unless [`PHASE_REGS_ENV`] says: `pseudo` at 64
/// registers (run 40: 1821 → 1264 µs per iteration on an H100 at 4032 × 4000, 31 → 45 % of its
/// bandwidth bound).
pub const NV_CAPS: [(&str, u32); 1] = [("pseudo", 64)];

/// Kernels that may take a cap: the whole-grid kernels of loop 2.
const CAPPABLE: [&str; 5] = ["pseudo", "tp", "tp_sweep", "correct", "fluxes"];

/// The register caps for `dev` (kernel, registers; none off NVIDIA without the variable); a
/// bad value is refused in one line naming the variable.
pub(super) fn caps(dev: &DeviceInfo) -> Result<Vec<(String, u32)>, DeviceError> {
    let nvidia = dev.is_nvidia();
    parse(
        std::env::var(PHASE_REGS_ENV).ok().as_deref(),
        nvidia,
        &dev.name,
    )
}

/// [`caps`] from the variable's value `v` on a device named `name`.
fn parse(v: Option<&str>, nvidia: bool, name: &str) -> Result<Vec<(String, u32)>, DeviceError> {
    let bad = |value: &str, reason: String| DeviceError::BadBuildOption {
        var: PHASE_REGS_ENV,
        value: value.to_string(),
        reason,
    };
    let Some(v) = v else {
        let own = NV_CAPS.iter().map(|&(k, n)| (k.to_string(), n));
        return Ok(if nvidia { own.collect() } else { Vec::new() });
    };
    if !nvidia && !v.trim().is_empty() {
        return Err(bad(
            v,
            format!("register caps need an NVIDIA device, not {name}"),
        ));
    }
    let mut out = Vec::new();
    for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let parsed = item.split_once('=').and_then(|(k, n)| {
            let k = k.trim();
            let n = n.trim().parse::<u32>().ok()?;
            (CAPPABLE.contains(&k) && (n == 0 || (16..=255).contains(&n)))
                .then(|| (k.to_string(), n))
        });
        match parsed {
            Some(c) => out.push(c),
            None => {
                return Err(bad(
                    v,
                    format!(
                        "kernel=N pairs, the kernel one of {} and N 16 to 255 (0: no cap)",
                        CAPPABLE.join(", ")
                    ),
                ))
            }
        }
    }
    Ok(out)
}

/// Build one program per distinct cap of `caps` from `source` beside `rt`'s and bind the
/// capped kernels' instances (the kernel and its `_o` twin where bound) to it.
pub(super) fn apply(
    rt: &mut Runtime,
    source: &str,
    caps: &[(String, u32)],
    cache: Option<&KernelCache>,
) -> Result<(), DeviceError> {
    let mut by_cap: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    for (k, n) in caps.iter().filter(|c| c.1 > 0) {
        by_cap.entry(*n).or_default().push(k.clone());
    }
    for (n, kernels) in by_cap {
        let program = rt
            .program()
            .sibling(source, &format!("-cl-nv-maxrregcount={n}"), cache)?;
        let instances: Vec<String> = kernels
            .iter()
            .flat_map(|k| [k.clone(), format!("{k}_o")])
            .filter(|i| rt.bindings().contains_key(i))
            .collect();
        let names: Vec<&str> = instances.iter().map(String::as_str).collect();
        rt.rebind_from(program, &names)?;
        log::info!(
            "phase kernels {} built apart with at most {n} registers",
            kernels.join(", ")
        );
    }
    Ok(())
}

/// The caps as a detail line: `pseudo 64` (empty: none).
pub(super) fn describe(caps: &[(String, u32)]) -> String {
    caps.iter()
        .filter(|c| c.1 > 0)
        .map(|(k, n)| format!("{k} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_come_from_the_variable_or_the_nvidia_default() {
        let own: Vec<(String, u32)> = NV_CAPS.iter().map(|&(k, n)| (k.into(), n)).collect();
        assert_eq!(parse(None, true, "gpu").unwrap(), own);
        assert!(parse(None, false, "cpu").unwrap().is_empty());
        assert!(parse(Some(""), true, "gpu").unwrap().is_empty());
        assert_eq!(
            parse(Some(" pseudo=80, tp = 0 ,tp_sweep=96"), true, "gpu").unwrap(),
            vec![
                ("pseudo".into(), 80),
                ("tp".into(), 0),
                ("tp_sweep".into(), 96)
            ]
        );
        assert_eq!(
            describe(&[("pseudo".into(), 80), ("tp".into(), 0)]),
            "pseudo 80"
        );
        for bad in [
            "copy_hat=64",
            "pseudo=8",
            "pseudo",
            "pseudo=x",
            "pseudo=300",
        ] {
            let e = parse(Some(bad), true, "gpu").unwrap_err().to_string();
            assert!(
                e.contains(PHASE_REGS_ENV) && e.contains("kernel=N"),
                "{bad}: {e}"
            );
        }
        let e = parse(Some("pseudo=64"), false, "pocl")
            .unwrap_err()
            .to_string();
        assert!(e.contains("NVIDIA") && e.contains("pocl"), "{e}");
    }
}
