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
    /// Whether the form checks loop 2 on the device (`cl/simple_ts/kernels/gate.cl`): then
    /// [`step`] queues iterations in batches through [`DeviceLoop::enqueue_iteration`] and
    /// reads [`DeviceLoop::read_control`] once per batch.
    fn device_control(&self) -> bool {
        false
    }
    /// Queue one loop-2 iteration ending with the device-side check (gated: a no-op once the
    /// check has stopped the step).
    fn enqueue_iteration(&mut self) -> Result<(), DeviceError> {
        unreachable!("only forms with device_control queue iterations")
    }
    /// The device's loop-2 control record (blocking read).
    fn read_control(&mut self) -> Result<Control, DeviceError> {
        unreachable!("only forms with device_control have a control record")
    }
    /// Loop-2 iterations of the previous step: the size of the next step's first batch.
    fn batch_hint(&mut self) -> &mut u32 {
        unreachable!("only forms with device_control batch iterations")
    }
    /// The C++ code's steady test of the step's last iteration (compat
    /// `steady_test_first_sweep`, checked on the device), `None` where the case does not ask
    /// for it.
    fn cpp_steady(&self, _c: &Control) -> Option<bool> {
        None
    }
}

/// The device's loop-2 control record after a batch (`gate.cl`: `ctl`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Control {
    /// 0 running, 1 converged, 2 diverged.
    pub stop: u8,
    /// Iterations checked (the one that stopped the step included).
    pub iters: u32,
    /// The diverged field (0 u, 1 v, 2 p, 3 T).
    pub field: usize,
    /// Maxima of |Δu|, |Δv|, |Δp|, |ΔT| of the last checked iteration, with stored indices.
    pub max: [MaxAt; 4],
    /// The last checked iteration passes the C++ code's steady test (written only with compat
    /// `steady_test_first_sweep`).
    pub steady: bool,
}

impl Control {
    /// Decode the `ctl` buffer (gate.cl's layout).
    pub fn from_ctl(c: &[f64]) -> Control {
        let at = |f: usize| (c[3 + f], c[7 + f] as usize);
        Control {
            stop: c[0] as u8,
            iters: c[1] as u32,
            field: c[2] as usize,
            max: [at(0), at(1), at(2), at(3)],
            steady: c.get(16).is_some_and(|&s| s != 0.0),
        }
    }
}

const FIELDS: [&str; 4] = ["u", "v", "p", "T"];

/// The error of a diverged loop-2 iteration `iter`: field `field` with `(value, at)`.
fn diverged(step: u64, iter: u32, field: usize, (value, at): MaxAt, nx: usize) -> RunError {
    RunError::Diverged {
        step,
        iter,
        field: FIELDS[field],
        i: (at % nx) as i64 - 1,
        j: (at / nx) as i64 - 1,
        value,
    }
}

/// One time step: loop 2 until the tolerances hold or `spec.max_iters`; NaN/Inf or a residual
/// above the divergence limit rolls back and names the step, field and cell.
pub fn step<S: DeviceLoop>(s: &mut S, spec: &SolverSpec) -> Result<StepReport, RunError> {
    if s.device_control() {
        return step_batched(s, spec);
    }
    s.begin_step()?;
    let mut report = StepReport::default();
    for iter in 1..=spec.max_iters {
        let max = s.iterate()?;
        let [du, dv, dp, dt] = max;
        for (field, &(value, _)) in max.iter().enumerate() {
            if !value.is_finite() || value > spec.divergence_limit {
                s.rollback()?;
                let nx = s.nxt();
                return Err(diverged(*s.steps_mut() + 1, iter, field, max[field], nx));
            }
        }
        report.iters = iter;
        report.res = Residuals([du.0, dv.0, dp.0, dt.0]);
        if du.0 <= spec.eps_v && dv.0 <= spec.eps_v && dp.0 <= spec.eps_p && dt.0 <= spec.eps_t {
            report.converged = true;
            break;
        }
    }
    *s.steps_mut() += 1;
    Ok(report)
}

/// [`step`] with the loop-2 control on the device: the same iterations, guard and stop, with
/// one host round trip per batch of iterations instead of one per iteration. The first batch
/// is as long as the previous step's loop 2 (at least 1); a step that needs more queues
/// batches of half the iterations done so far. Iterations queued after the stop are no-ops
/// on the device, so the state and the report are those of the per-iteration loop
/// (`tests/parity.rs` checks both forms against the reference).
fn step_batched<S: DeviceLoop>(s: &mut S, spec: &SolverSpec) -> Result<StepReport, RunError> {
    s.begin_step()?;
    let max_iters = spec.max_iters.max(1);
    let mut queued = 0u32;
    let mut batch = (*s.batch_hint()).clamp(1, max_iters);
    let c = loop {
        for _ in 0..batch {
            s.enqueue_iteration()?;
        }
        queued += batch;
        let c = s.read_control()?;
        if c.stop != 0 || queued >= max_iters {
            break c;
        }
        batch = (queued / 2).clamp(1, max_iters - queued);
    };
    if c.stop == 2 {
        s.rollback()?;
        let nx = s.nxt();
        return Err(diverged(
            *s.steps_mut() + 1,
            c.iters,
            c.field,
            c.max[c.field],
            nx,
        ));
    }
    *s.batch_hint() = c.iters;
    *s.steps_mut() += 1;
    Ok(StepReport {
        iters: c.iters,
        res: Residuals(c.max.map(|m| m.0)),
        converged: c.stop == 1,
        steady: s.cpp_steady(&c),
    })
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
    // One blocking read per field and range: the same reads queued without blocking and
    // waited for once (an event wait) made the main job's per-step forces slower on an H100,
    // 0.22–0.25 s against 0.11–0.17 s for 400 steps (run 62).
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
    let dec = dec.map(|d| crate::solver::DecompositionRecord {
        width: d.width,
        cols: d.cols,
        rows: d.rows,
        groups: d.groups(),
    });
    crate::solver::SolverInfo::opencl(built, form, dec)
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

/// Stored rows per chunk of the initial upload: about 8 MiB per field, so the host holds a
/// few MiB at a time however large the grid.
fn chunk_rows(nxt: usize) -> usize {
    ((1 << 20) / nxt.max(1)).max(1)
}

/// Create the field buffers of every set in `sets` (names in
/// [`Fields`](crate::methods::simple_ts::fields::Fields) order: u, v, p, T, ρ, Γ; a set may
/// name fewer) and fill them with the initial state of `p`, computed and written in row
/// chunks.
pub fn upload_initial(
    rt: &mut crate::device::Runtime,
    p: &crate::methods::simple_ts::problem::Problem,
    sets: &[&[&str]],
) -> Result<(), DeviceError> {
    let (nxt, nyt, n) = (p.grid.nxt, p.grid.nyt, p.grid.len());
    for set in sets {
        for name in set.iter() {
            rt.real_zeros(name, n)?;
        }
    }
    let step = chunk_rows(nxt);
    for j0 in (0..nyt).step_by(step) {
        let rows = j0..(j0 + step).min(nyt);
        let f = p.initial_rows(rows);
        let arrays = [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam];
        for set in sets {
            for (name, a) in set.iter().zip(arrays) {
                rt.write_at(name, j0 * nxt, a)?;
            }
        }
    }
    Ok(())
}

/// The [`Backend`](crate::methods::simple_ts::backend::Backend) methods both OpenCL forms
/// implement alike, for use inside each form's `impl Backend`. The form provides the fields
/// `p` (the problem), `host`, `rt`, `dirty` and `n`, [`DeviceLoop`], and `download(&mut self)`,
/// which reads every field back into `host`.
macro_rules! shared_backend_methods {
    () => {
        fn problem(&self) -> &std::sync::Arc<$crate::methods::simple_ts::problem::Problem> {
            &self.p
        }

        fn step(&mut self) -> Result<$crate::solver::StepReport, $crate::error::RunError> {
            let spec = self.p.case.solver.clone();
            $crate::methods::simple_ts::opencl::loop2::step(self, &spec)
        }

        fn clock(&self) -> (u64, f64) {
            (self.host.step, self.host.time)
        }

        fn state(
            &mut self,
        ) -> Result<&$crate::methods::simple_ts::fields::State, $crate::error::RunError> {
            if self.dirty {
                self.download()?;
            }
            Ok(&self.host)
        }

        fn runtime(&self) -> Option<&$crate::device::Runtime> {
            Some(&self.rt)
        }

        fn runtime_mut(&mut self) -> Option<&mut $crate::device::Runtime> {
            Some(&mut self.rt)
        }
    };
}
pub(crate) use shared_backend_methods;

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
