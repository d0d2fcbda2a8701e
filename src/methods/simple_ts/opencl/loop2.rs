//! What both OpenCL forms share on the host: merging per-work-group residual maxima, one
//! time step (loop 2 until the tolerances of spec §4 hold, with the divergence guard), and the
//! [`Solver`](crate::solver::Solver) methods that do not depend on the form.

use crate::error::{DeviceError, RunError};
use crate::methods::simple_ts::case::SolverSpec;
use crate::solver::{Residuals, StepReport};

/// A residual maximum and the stored index where it occurs.
pub type MaxAt = (f64, usize);

/// Merge `cand` into `cur` with the reference's rule (`pressure::MaxAt::see`): NaN wins, then
/// the larger value, ties keep the smaller index.
pub fn merge(cur: &mut MaxAt, cand: MaxAt) {
    let (d, k) = cand;
    let take = if d.is_nan() || cur.0.is_nan() {
        d.is_nan() && (!cur.0.is_nan() || k < cur.1)
    } else {
        d > cur.0 || (d == cur.0 && k < cur.1)
    };
    if take {
        *cur = cand;
    }
}

/// A device backend seen by [`step`].
pub trait DeviceLoop {
    /// Level n := iterate k, t += Δt, explicit convective terms.
    fn begin_step(&mut self) -> Result<(), DeviceError>;
    /// One loop-2 iteration: the maxima of |Δu|, |Δv|, |Δp|, |ΔT| with their stored indices.
    fn iterate(&mut self) -> Result<[MaxAt; 4], DeviceError>;
    /// Back to level n (the last good state) after a failed iteration.
    fn rollback(&mut self) -> Result<(), DeviceError>;
    /// Stored columns (to turn an index into a cell).
    fn nxt(&self) -> usize;
    /// Completed time steps, advanced by [`step`].
    fn steps_mut(&mut self) -> &mut u64;
}

/// One time step: loop 2 until the tolerances hold or `spec.max_iters`; NaN/Inf or a residual
/// above the divergence limit rolls back and names the step, field and cell.
pub fn step<S: DeviceLoop>(s: &mut S, spec: &SolverSpec) -> Result<StepReport, RunError> {
    s.begin_step()?;
    let mut report = StepReport::default();
    for iter in 1..=spec.max_iters {
        let [du, dv, dp, dt] = s.iterate()?;
        for (field, (value, at)) in [("u", du), ("v", dv), ("p", dp), ("T", dt)] {
            if !value.is_finite() || value > spec.divergence_limit {
                s.rollback()?;
                let nx = s.nxt();
                return Err(RunError::Diverged {
                    step: *s.steps_mut() + 1,
                    iter,
                    field,
                    i: (at % nx) as i64 - 1,
                    j: (at / nx) as i64 - 1,
                    value,
                });
            }
        }
        let res = Residuals {
            du: du.0,
            dv: dv.0,
            dp: dp.0,
            dt: dt.0,
        };
        report.iters = iter;
        report.res = res;
        if res.du <= spec.eps_v
            && res.dv <= spec.eps_v
            && res.dp <= spec.eps_p
            && res.dt <= spec.eps_t
        {
            report.converged = true;
            break;
        }
    }
    *s.steps_mut() += 1;
    Ok(report)
}

/// Read one set of six field buffers (`names` in [`Fields`](crate::methods::simple_ts::fields::Fields) order:
/// u, v, p, T, ρ, Γ) into `f`.
pub fn read_fields(
    rt: &crate::device::Runtime,
    names: &[&str],
    f: &mut crate::methods::simple_ts::fields::Fields,
) -> Result<(), DeviceError> {
    let dst = [
        &mut f.u, &mut f.v, &mut f.p, &mut f.T, &mut f.rho, &mut f.Gam,
    ];
    for (name, d) in names.iter().zip(dst) {
        rt.read(name, d)?;
    }
    Ok(())
}

/// Read the stored rows `rows` (j ranges; `nxt` values per row) of one set of six field
/// buffers into the same positions of `f`; other rows of `f` are left as they are.
pub fn read_rows(
    rt: &crate::device::Runtime,
    names: &[&str],
    f: &mut crate::methods::simple_ts::fields::Fields,
    rows: &[std::ops::Range<usize>],
    nxt: usize,
) -> Result<(), DeviceError> {
    let dst = [
        &mut f.u, &mut f.v, &mut f.p, &mut f.T, &mut f.rho, &mut f.Gam,
    ];
    for (name, d) in names.iter().zip(dst) {
        let nyt = d.len() / nxt;
        for r in rows {
            let (a, b) = (r.start.min(nyt), r.end.min(nyt));
            if a < b {
                rt.read_at(name, a * nxt, &mut d[a * nxt..b * nxt])?;
            }
        }
    }
    Ok(())
}

/// The run-manifest record of an OpenCL program: its device, form and build.
pub fn info(
    built: &crate::device::BuiltProgram,
    form: &str,
    dec: Option<&super::subdomains::Decomposition>,
) -> crate::solver::SolverInfo {
    use crate::solver::{DecompositionRecord, DeviceRecord, KernelRecord, SolverInfo};
    let d = built.device();
    SolverInfo {
        device: Some(DeviceRecord {
            name: d.name.clone(),
            vendor: d.vendor.clone(),
            device_type: d.device_type.clone(),
            platform: d.platform_name.clone(),
            opencl_version: d.platform_version.clone(),
            opencl_c_version: d.opencl_c_version.trim().to_string(),
            driver_version: d.driver_version.clone(),
        }),
        kernels: Some(KernelRecord {
            form: form.to_string(),
            decomposition: dec.map(|d| DecompositionRecord {
                width: d.width,
                cols: d.cols,
                rows: d.rows,
                groups: d.groups(),
            }),
            build_options: built.options().to_string(),
            cache_key: built.cache_key().to_string(),
            cache: built.cache_status().to_string(),
            build_seconds: built.build_seconds(),
        }),
    }
}

/// Overwrite one set of six field buffers from `f` (the inverse of [`read_fields`]).
pub fn write_fields(
    rt: &mut crate::device::Runtime,
    names: &[&str],
    f: &crate::methods::simple_ts::fields::Fields,
) -> Result<(), DeviceError> {
    let src = [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam];
    for (name, s) in names.iter().zip(src) {
        rt.write(name, s)?;
    }
    Ok(())
}

/// The [`Solver`](crate::solver::Solver) methods both OpenCL forms implement alike, for use
/// inside each form's `impl Solver`. The form provides the fields `case`, `grid`, `geom`,
/// `host`, `rt` and `dirty`, [`DeviceLoop`], and `download(&mut self)`, which reads every
/// field back into `host`.
macro_rules! shared_solver_methods {
    () => {
        fn grid(&self) -> &$crate::grid::Grid {
            &self.grid
        }

        fn geometry(&self) -> &$crate::methods::simple_ts::geometry::Geometry {
            &self.geom
        }

        fn step(&mut self) -> Result<$crate::solver::StepReport, $crate::error::RunError> {
            let spec = self.case.solver.clone();
            $crate::methods::simple_ts::opencl::loop2::step(self, &spec)
        }

        fn clock(&self) -> (u64, f64) {
            (self.host.step, self.host.time)
        }

        fn state(&mut self) -> &$crate::methods::simple_ts::fields::State {
            if self.dirty {
                if let Err(e) = self.download() {
                    log::error!("reading fields back from the device failed: {e}");
                }
            }
            &self.host
        }

        fn runtime(&self) -> Option<&$crate::device::Runtime> {
            Some(&self.rt)
        }

        fn runtime_mut(&mut self) -> Option<&mut $crate::device::Runtime> {
            Some(&mut self.rt)
        }
    };
}
pub(crate) use shared_solver_methods;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_follows_the_reference_rule() {
        let mut m = (0.0, 0);
        merge(&mut m, (1.0, 7));
        merge(&mut m, (1.0, 9)); // tie: smaller index kept
        assert_eq!(m, (1.0, 7));
        merge(&mut m, (1.0, 3));
        assert_eq!(m, (1.0, 3));
        merge(&mut m, (f64::NAN, 20)); // NaN wins
        merge(&mut m, (5.0, 1));
        assert!(m.0.is_nan() && m.1 == 20);
        merge(&mut m, (f64::NAN, 2)); // first NaN by index
        assert_eq!(m.1, 2);
    }
}
