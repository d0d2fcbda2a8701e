//! The run driver ([`run_case`]) with mock SIMPLE-TS backends behind the solver seam:
//! schedule, steady stop, divergence guard, refusal to overwrite, checkpoints and restarts,
//! split output, read-backs, side files and the manifest.
#![cfg(feature = "netcdf")]

mod common;

use std::path::PathBuf;
use std::sync::Arc;

use simplets::error::{OutputError, RunError};
use simplets::methods::simple_ts::backend::Backend;
use simplets::methods::simple_ts::case::Case;
use simplets::methods::simple_ts::fields::{Fields, State};
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::simple_ts::side::{FORCES_HEADER, PROBES_HEADER};
use simplets::methods::simple_ts::solver::{saved_names, SimpleTs};
use simplets::run::status::Progress;
use simplets::run::{RunOptions, RunSummary};
use simplets::solver::{Residuals, StepReport};

/// Run `case` on the SIMPLE-TS backend `b` through the solver seam.
fn run_case(case: &Case, b: impl Backend, o: &RunOptions) -> Result<RunSummary, RunError> {
    simplets::run::run_case(&case.common(), &mut SimpleTs::new(Box::new(b)), o)
}

/// The state in checkpoint `path` of `case`.
fn load_checkpoint(path: &std::path::Path, case: &Case) -> State {
    let p = Problem::new(case);
    let s = simplets::output::checkpoint::load_checkpoint(
        path,
        &case.common(),
        &p.grid,
        &saved_names(),
    )
    .unwrap();
    let mut a = s.arrays.into_iter();
    let mut level = || Fields {
        u: a.next().unwrap(),
        v: a.next().unwrap(),
        p: a.next().unwrap(),
        T: a.next().unwrap(),
        rho: a.next().unwrap(),
        Gam: a.next().unwrap(),
    };
    let n = level();
    let k = level();
    State {
        n,
        k,
        step: s.step,
        time: s.time,
    }
}

/// A solver whose fields evolve trivially: every step adds 1 to p in all cells.
struct Mock {
    p: Arc<Problem>,
    state: State,
    dt: f64,
    calls: u64,
    /// Step at which p of stored cell (3, 2) becomes NaN (a solver that does not notice).
    nan_at: Option<u64>,
    /// Step that diverges: rolled back and reported, as the real backends do.
    diverge_at: Option<u64>,
    /// Step from which the mock reports a steady step (1 iteration, zero residuals).
    steady_from: Option<u64>,
    /// Residual du to report.
    du: f64,
}

impl Mock {
    fn new(case: &Case) -> Mock {
        let p = Arc::new(Problem::new(case));
        let mut f = Fields::zeros(p.grid.len());
        f.p.fill(1.0);
        f.T.fill(1.0);
        f.rho.fill(1.0);
        f.u.fill(0.5);
        let state = State {
            n: f.clone(),
            k: f,
            step: 0,
            time: 0.0,
        };
        Mock {
            p,
            state,
            dt: case.time.dt,
            calls: 0,
            nan_at: None,
            diverge_at: None,
            steady_from: None,
            du: 1e-3,
        }
    }
}

impl Backend for Mock {
    fn name(&self) -> String {
        "mock".into()
    }
    fn problem(&self) -> &Arc<Problem> {
        &self.p
    }
    fn step(&mut self) -> Result<StepReport, RunError> {
        self.calls += 1;
        if self.diverge_at == Some(self.state.step + 1) {
            return Err(RunError::Diverged {
                step: self.state.step + 1,
                iter: 2,
                field: "T",
                i: 1,
                j: 0,
                value: f64::NAN,
            });
        }
        let st = &mut self.state;
        st.n = st.k.clone();
        st.step += 1;
        st.time = st.step as f64 * self.dt;
        st.k.p.iter_mut().for_each(|p| *p += 1.0);
        if self.nan_at == Some(st.step) {
            let ij = self.p.grid.idx(3, 2);
            st.k.p[ij] = f64::NAN;
        }
        if self.steady_from.is_some_and(|s| st.step >= s) {
            return Ok(StepReport {
                iters: 1,
                res: Residuals::default(),
                converged: true,
                steady: None,
            });
        }
        let res = Residuals([self.du, 1e-4, 1e-5, 1e-6]);
        Ok(StepReport {
            iters: 3,
            res,
            converged: true,
            steady: None,
        })
    }
    fn clock(&self) -> (u64, f64) {
        (self.state.step, self.state.time)
    }
    fn state(&mut self) -> Result<&State, RunError> {
        Ok(&self.state)
    }
    fn restore(&mut self, state: State) -> Result<(), RunError> {
        self.state = state;
        Ok(())
    }
}

fn case(steps: u64, interval: u64) -> Case {
    let json = format!(
        r#"{{
        "name": "mock",
        "gas": {{ "kn": 0.1 }},
        "grid": {{ "nx": 5, "ny": 4, "x": [0.0, 5.0], "y": [0.0, 4.0] }},
        "boundaries": {{
            "west": {{ "kind": "periodic" }}, "east": {{ "kind": "periodic" }},
            "south": {{ "kind": "wall" }}, "north": {{ "kind": "wall" }}
        }},
        "time": {{ "dt": 0.5, "steps": {steps} }},
        "output": {{ "interval": {interval} }}
    }}"#
    );
    Case::from_json(&json, "mock").unwrap()
}

fn opts(dir: &std::path::Path) -> RunOptions {
    RunOptions {
        out_dir: dir.join("out"),
        progress: Progress::Off,
        ..RunOptions::default()
    }
}

/// `step` values and p at stored cell (1, 1) of every snapshot in `path`.
fn read_steps(path: &std::path::Path) -> (Vec<i64>, Vec<f64>) {
    let f = common::open_nc(path);
    let steps = f
        .variable("step")
        .unwrap()
        .get_values::<i64, _>(..)
        .unwrap();
    let p = f.variable("p").unwrap().get_values::<f64, _>(..).unwrap();
    let per = 5 * 4;
    (steps, p.chunks(per).map(|c| c[0]).collect())
}

#[test]
fn writes_initial_every_interval_and_final() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(5, 2);
    let mut m = Mock::new(&c);
    let sum = run_case(&c, &mut m, &opts(dir.path())).unwrap();
    assert_eq!(
        (sum.steps, sum.iterations, sum.snapshots, sum.steady),
        (5, 15, 4, false)
    );
    assert_eq!(sum.output, dir.path().join("out/mock.nc"));
    assert!(sum.cell_iters_per_s > 0.0);
    let (steps, p) = read_steps(&sum.output);
    assert_eq!(steps, vec![0, 2, 4, 5]);
    assert_eq!(p, vec![1.0, 3.0, 5.0, 6.0]);
}

#[test]
fn interval_zero_and_steps_override() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(50, 0);
    let mut m = Mock::new(&c);
    let o = RunOptions {
        steps_override: Some(3),
        ..opts(dir.path())
    };
    let sum = run_case(&c, &mut m, &o).unwrap();
    assert_eq!(sum.steps, 3);
    assert_eq!(read_steps(&sum.output).0, vec![0, 3]);
}

#[test]
fn stops_at_steady_state() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = case(10, 0);
    c.time.stop_at_steady_state = true;
    let mut m = Mock::new(&c);
    m.steady_from = Some(4);
    let sum = run_case(&c, &mut m, &opts(dir.path())).unwrap();
    assert!(sum.steady);
    assert_eq!((sum.steps, m.calls), (4, 4));
    assert_eq!(read_steps(&sum.output).0, vec![0, 4]);
}

/// A step the backend reports as diverged (after rolling back, as the real backends do) keeps
/// the state before it as the last snapshot, whatever the interval.
#[test]
fn divergence_keeps_the_file_with_the_last_good_state() {
    for (interval, want) in [(1, vec![0, 1, 2]), (0, vec![0, 2]), (2, vec![0, 2])] {
        let dir = tempfile::tempdir().unwrap();
        let c = case(10, interval);
        let mut m = Mock::new(&c);
        m.diverge_at = Some(3);
        let err = run_case(&c, &mut m, &opts(dir.path())).unwrap_err();
        assert!(
            matches!(
                err,
                RunError::Diverged {
                    step: 3,
                    field: "T",
                    ..
                }
            ),
            "{err:?}"
        );
        assert!(err.to_string().contains("step 3"), "{err}");
        let (steps, p) = read_steps(&dir.path().join("out/mock.nc"));
        assert_eq!(steps, want, "interval {interval}");
        assert_eq!(*p.last().unwrap(), 3.0);
        assert!(!dir.path().join("out/mock.nc.tmp").exists());
        let v = manifest(&dir.path().join("out/mock.manifest.json"));
        assert!(v["status"]
            .as_str()
            .unwrap()
            .starts_with("diverged at step 3"));
        assert_eq!(v["steps"], 2);
    }
}

/// A NaN field that the backend did not notice is found when the fields are next read back
/// (a snapshot): in the step that made it, level n is the last good state; later, only the
/// snapshots already written are kept.
#[test]
fn nan_field_is_found_at_the_next_read_back() {
    for (interval, at, want) in [(1, 3, vec![0, 1, 2]), (2, 4, vec![0, 2]), (0, 10, vec![0])] {
        let dir = tempfile::tempdir().unwrap();
        let c = case(10, interval);
        let mut m = Mock::new(&c);
        m.nan_at = Some(3);
        let err = run_case(&c, &mut m, &opts(dir.path())).unwrap_err();
        match &err {
            RunError::Diverged {
                step,
                iter,
                field,
                i,
                j,
                value,
            } => {
                assert_eq!((*step, *iter, *field, *i, *j), (at, 3, "p", 2, 1));
                assert!(value.is_nan());
            }
            other => panic!("{other:?}"),
        }
        let (steps, p) = read_steps(&dir.path().join("out/mock.nc"));
        assert_eq!(steps, want, "interval {interval}");
        assert!(p.iter().all(|p| p.is_finite()));
        assert_eq!(m.calls, at);
    }
}

#[test]
fn residual_above_limit_is_divergence() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = case(10, 0);
    c.solver.divergence_limit = 1e-2;
    let mut m = Mock::new(&c);
    m.du = 0.5;
    let err = run_case(&c, &mut m, &opts(dir.path())).unwrap_err();
    assert!(
        matches!(
            err,
            RunError::Diverged {
                step: 1,
                field: "du",
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(read_steps(&dir.path().join("out/mock.nc")).0, vec![0]);
}

#[test]
fn existing_output_is_refused_before_any_step() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out/mock.nc");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, b"keep me").unwrap();
    let c = case(3, 1);
    let mut m = Mock::new(&c);
    let err = run_case(&c, &mut m, &opts(dir.path())).unwrap_err();
    assert!(
        matches!(err, RunError::Output(OutputError::Exists { .. })),
        "{err:?}"
    );
    assert_eq!(m.calls, 0);
    assert_eq!(std::fs::read(&path).unwrap(), b"keep me");
    let o = RunOptions {
        force: true,
        ..opts(dir.path())
    };
    run_case(&c, &mut m, &o).unwrap();
    assert_eq!(read_steps(&path).0, vec![0, 1, 2, 3]);
}

/// Status lines instead of a bar change nothing a run writes.
#[test]
fn status_lines_mode_runs() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(3, 0);
    let mut m = Mock::new(&c);
    let o = RunOptions {
        progress: Progress::Lines,
        status_every_steps: 1,
        ..opts(dir.path())
    };
    let sum = run_case(&c, &mut m, &o).unwrap();
    assert_eq!((sum.steps, sum.iterations, m.calls), (3, 9, 3));
    assert_eq!(read_steps(&sum.output), (vec![0, 3], vec![1.0, 4.0]));
}

fn ckpt_steps(dir: &std::path::Path) -> Vec<u64> {
    simplets::output::checkpoint::list_checkpoints(dir, "mock")
        .into_iter()
        .map(|c| c.0)
        .collect()
}

#[test]
fn checkpoints_on_schedule_and_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(10, 0);
    let mut m = Mock::new(&c);
    let o = RunOptions {
        checkpoint_every: Some(4),
        steps_override: Some(7),
        ..opts(dir.path())
    };
    run_case(&c, &mut m, &o).unwrap();
    // 4 and the end (7); 4 is kept as the one before the last.
    assert_eq!(ckpt_steps(&o.out_dir), vec![4, 7]);
}

#[test]
fn restart_continues_into_a_new_segment() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(10, 3);
    let mut m = Mock::new(&c);
    let o = RunOptions {
        checkpoint_every: Some(2),
        steps_override: Some(4),
        ..opts(dir.path())
    };
    run_case(&c, &mut m, &o).unwrap();
    let first = std::fs::read(o.out_dir.join("mock.nc")).unwrap();
    let mut m2 = Mock::new(&c);
    let o2 = RunOptions {
        restart: Some(o.out_dir.join("mock.ckpt-4")),
        ..opts(dir.path())
    };
    let sum = run_case(&c, &mut m2, &o2).unwrap();
    assert_eq!((sum.steps, m2.calls), (6, 6));
    assert_eq!(sum.output, o.out_dir.join("mock.s4.nc"));
    // Absolute schedule: restart state, multiples of 3, the end.
    let (steps, p) = read_steps(&sum.output);
    assert_eq!(steps, vec![4, 6, 9, 10]);
    assert_eq!(p, vec![5.0, 7.0, 10.0, 11.0]);
    assert_eq!(std::fs::read(o.out_dir.join("mock.nc")).unwrap(), first);
    assert!(o.out_dir.join("mock.s4.manifest.json").is_file());
}

#[test]
fn interrupt_writes_checkpoint_snapshot_and_manifest() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(10, 0);
    let mut m = Mock::new(&c);
    let flag = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let o = RunOptions {
        interrupt: Some(flag),
        ..opts(dir.path())
    };
    let err = run_case(&c, &mut m, &o).unwrap_err();
    let ckpt = o.out_dir.join("mock.ckpt-1");
    match &err {
        RunError::Interrupted { step, checkpoint } => {
            assert_eq!((*step, checkpoint), (1, &ckpt));
        }
        other => panic!("{other:?}"),
    }
    assert!(err.to_string().contains("--restart"), "{err}");
    assert_eq!(read_steps(&o.out_dir.join("mock.nc")).0, vec![0, 1]);
    let manifest = std::fs::read_to_string(o.out_dir.join("mock.manifest.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(v["status"], "interrupted");
    let st = load_checkpoint(&ckpt, &c);
    assert_eq!(st, m.state);
}

#[test]
fn divergence_keeps_the_last_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(10, 0);
    let mut m = Mock::new(&c);
    m.nan_at = Some(5);
    let o = RunOptions {
        checkpoint_every: Some(2),
        ..opts(dir.path())
    };
    run_case(&c, &mut m, &o).unwrap_err();
    assert_eq!(ckpt_steps(&o.out_dir), vec![2, 4]);
    let st = load_checkpoint(&o.out_dir.join("mock.ckpt-4"), &c);
    assert!(st.k.p.iter().all(|p| p.is_finite()));
}

#[test]
fn restart_of_another_case_is_refused_before_any_step() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(3, 0);
    let mut m = Mock::new(&c);
    let o = RunOptions {
        checkpoint_every: Some(3),
        ..opts(dir.path())
    };
    run_case(&c, &mut m, &o).unwrap();
    let mut other = c.clone();
    other.gas.kn = 0.2;
    let mut m2 = Mock::new(&other);
    let o2 = RunOptions {
        restart: Some(o.out_dir.join("mock.ckpt-3")),
        ..opts(dir.path())
    };
    let err = run_case(&other, &mut m2, &o2).unwrap_err();
    assert!(matches!(err, RunError::Checkpoint(_)), "{err:?}");
    assert_eq!(m2.calls, 0);
    assert!(!o.out_dir.join("mock.s3.nc").exists());
}

#[test]
fn per_step_series_has_every_step_and_its_residuals() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(5, 0);
    let mut m = Mock::new(&c);
    let sum = run_case(&c, &mut m, &opts(dir.path())).unwrap();
    let f = common::open_nc(&sum.output);
    assert_eq!(f.dimension("steps").unwrap().len(), 5);
    assert_eq!(f.dimension("time").unwrap().len(), 2);
    let get = |n: &str| f.variable(n).unwrap().get_values::<f64, _>(..).unwrap();
    let steps = f.variable("series_step").unwrap();
    assert_eq!(steps.get_values::<i64, _>(..).unwrap(), vec![1, 2, 3, 4, 5]);
    let iters = f.variable("series_iterations").unwrap();
    assert_eq!(iters.get_values::<i32, _>(..).unwrap(), vec![3; 5]);
    assert_eq!(get("series_time"), vec![0.5, 1.0, 1.5, 2.0, 2.5]);
    assert_eq!(get("res_u"), vec![1e-3; 5]);
    assert_eq!(get("res_v"), vec![1e-4; 5]);
    assert_eq!(get("res_p"), vec![1e-5; 5]);
    assert_eq!(get("res_T"), vec![1e-6; 5]);
}

#[test]
fn forces_and_probes_csv_have_a_line_per_step() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = case(3, 0);
    c.bodies.push(simplets::methods::simple_ts::case::Body {
        name: "b".into(),
        x: [1.2, 3.8],
        y: [1.2, 2.8],
        u_wall: 0.0,
        v_wall: 0.0,
        t_wall: 1.0,
        wall: simplets::methods::simple_ts::case::WallBc::Slip,
        slip: None,
        thermal: None,
        sigma_u: None,
        sigma_t: None,
    });
    c.output.probes.push(simplets::case::Probe {
        name: "p0".into(),
        x: 0.5,
        y: 0.5,
    });
    c.validate().unwrap();
    let mut m = Mock::new(&c);
    run_case(&c, &mut m, &opts(dir.path())).unwrap();
    let forces = std::fs::read_to_string(dir.path().join("out/mock.forces.csv")).unwrap();
    let lines: Vec<&str> = forces.lines().collect();
    assert_eq!(lines[0], FORCES_HEADER);
    assert_eq!(lines.len(), 4);
    assert!(lines[1].starts_with("1,5e-1,b,"), "{}", lines[1]);
    // Uniform p and T in the mock: no pressure force; no inflow: scale 1.
    let cols: Vec<f64> = lines[3]
        .split(',')
        .skip(3)
        .map(|x| x.parse().unwrap())
        .collect();
    assert!(
        cols[0].abs() < 1e-12 && cols[2].abs() < 1e-12,
        "{}",
        lines[3]
    );
    assert_eq!(cols[6], 1.0);
    let probes = std::fs::read_to_string(dir.path().join("out/mock.probes.csv")).unwrap();
    let lines: Vec<&str> = probes.lines().collect();
    assert_eq!(lines[0], PROBES_HEADER);
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[2], "2,1e0,p0,5e-1,5e-1,3e0,1e0,1e0,5e-1,0e0");
    assert!(!dir.path().join("out/mock.forces.csv.tmp").exists());
}

fn manifest(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// Counts the driver's read-backs. With `poison`, `iterate_rows` returns a copy of the state
/// whose other rows of the iterate, and level n, are NaN: what a device backend's host copy
/// may hold, so anything read outside the requested rows shows up in the output.
struct Counting<S: Backend> {
    inner: S,
    full: u64,
    rows: u64,
    poison: bool,
    poisoned: Option<State>,
}

impl<S: Backend> Counting<S> {
    fn new(inner: S, poison: bool) -> Self {
        Counting {
            inner,
            full: 0,
            rows: 0,
            poison,
            poisoned: None,
        }
    }
}

impl<S: Backend> Backend for Counting<S> {
    fn name(&self) -> String {
        self.inner.name()
    }
    fn problem(&self) -> &Arc<Problem> {
        self.inner.problem()
    }
    fn step(&mut self) -> Result<StepReport, RunError> {
        self.inner.step()
    }
    fn clock(&self) -> (u64, f64) {
        self.inner.clock()
    }
    fn state(&mut self) -> Result<&State, RunError> {
        self.full += 1;
        self.inner.state()
    }
    fn iterate_rows(&mut self, rows: &[std::ops::Range<usize>]) -> Result<&State, RunError> {
        self.rows += 1;
        if !self.poison {
            return self.inner.iterate_rows(rows);
        }
        let nxt = self.inner.grid().nxt;
        let mut st = self.inner.state()?.clone();
        let k = &mut st.k;
        for f in [
            &mut k.u, &mut k.v, &mut k.p, &mut k.T, &mut k.rho, &mut k.Gam,
        ] {
            for (j, row) in f.chunks_mut(nxt).enumerate() {
                if !rows.iter().any(|r| r.contains(&j)) {
                    row.fill(f64::NAN);
                }
            }
        }
        let n = &mut st.n;
        for f in [
            &mut n.u, &mut n.v, &mut n.p, &mut n.T, &mut n.rho, &mut n.Gam,
        ] {
            f.fill(f64::NAN);
        }
        Ok(self.poisoned.insert(st))
    }
    fn restore(&mut self, state: State) -> Result<(), RunError> {
        self.inner.restore(state)
    }
}

/// Between output steps the driver reads nothing back: all rows of the iterate for the
/// initial state and for each snapshot, both levels only for checkpoints (after which the
/// snapshot of the same step needs no transfer on a device backend).
#[test]
fn fields_are_read_back_only_for_output() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(20, 5);
    let mut w = Counting::new(Mock::new(&c), true);
    let sum = run_case(&c, &mut w, &opts(dir.path())).unwrap();
    assert_eq!((w.full, w.rows, w.inner.calls), (0, 5, 20));
    assert_eq!(sum.timings.readbacks, 5);
    let (steps, p) = read_steps(&sum.output);
    assert_eq!(steps, vec![0, 5, 10, 15, 20]);
    assert_eq!(p, vec![1.0, 6.0, 11.0, 16.0, 21.0]);
    let v = manifest(&dir.path().join("out/mock.manifest.json"));
    assert_eq!(v["timings"]["readbacks"], 5);
    let dir = tempfile::tempdir().unwrap();
    let mut w = Counting::new(Mock::new(&c), true);
    let o = RunOptions {
        checkpoint_every: Some(10),
        ..opts(dir.path())
    };
    run_case(&c, &mut w, &o).unwrap();
    assert_eq!((w.full, w.rows), (2, 5));
}

/// A small supersonic case with a body and two probes for the reference solver.
fn body_case(steps: u64) -> Case {
    let json = format!(
        r#"{{
        "name": "mock",
        "gas": {{ "kn": 0.05 }},
        "grid": {{ "nx": 24, "ny": 16, "x": [0.0, 2.4], "y": [0.0, 1.6] }},
        "bodies": [ {{ "name": "sq", "x": [0.6, 1.0], "y": [0.6, 1.0] }} ],
        "boundaries": {{
            "west": {{ "kind": "inflow", "mach": 2.0 }}, "east": {{ "kind": "outflow" }},
            "south": {{ "kind": "wall" }}, "north": {{ "kind": "wall" }}
        }},
        "initial": {{ "u": 1.8 }},
        "scheme": {{ "interpolation": "tvd" }},
        "time": {{ "dt": 0.01, "steps": {steps} }},
        "solver": {{ "max_iters": 4 }},
        "output": {{ "interval": 0, "forces_every": 2, "probes_every": 3,
                    "probes": [ {{ "name": "up", "x": 0.3, "y": 0.15 }},
                                {{ "name": "wake", "x": 1.9, "y": 1.45 }} ] }}
    }}"#
    );
    Case::from_json(&json, "body").unwrap()
}

/// Forces and probes come every `forces_every` / `probes_every` steps, computed from their
/// rows alone: the same lines as from the whole state.
#[test]
fn forces_and_probes_follow_their_cadence_from_a_few_rows() {
    let c = body_case(6);
    let read = |dir: &std::path::Path, kind: &str| {
        std::fs::read_to_string(dir.join(format!("out/mock.{kind}.csv"))).unwrap()
    };
    let plain = tempfile::tempdir().unwrap();
    run_case(
        &c,
        &mut simplets::methods::simple_ts::reference::Reference::new(&c),
        &opts(plain.path()),
    )
    .unwrap();
    let rows = tempfile::tempdir().unwrap();
    let mut w = Counting::new(
        simplets::methods::simple_ts::reference::Reference::new(&c),
        true,
    );
    run_case(&c, &mut w, &opts(rows.path())).unwrap();
    // The initial state; steps 2 and 4 (forces), 3 (probes); 6 (both, then the final
    // snapshot).
    assert_eq!((w.full, w.rows), (0, 6));
    for kind in ["forces", "probes"] {
        assert_eq!(read(plain.path(), kind), read(rows.path(), kind), "{kind}");
    }
    let steps = |text: String| -> Vec<String> {
        text.lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    assert_eq!(steps(read(rows.path(), "forces")), ["2", "4", "6"]);
    assert_eq!(steps(read(rows.path(), "probes")), ["3", "3", "6", "6"]);
    assert!(!read(rows.path(), "forces").contains("NaN"));
}

/// Global attribute `part`, snapshot steps and series steps of one part.
fn read_part(path: &std::path::Path) -> (i32, Vec<i64>, Vec<i64>) {
    let f = common::open_nc(path);
    let part = match f.attribute("part").unwrap().value().unwrap() {
        ::netcdf::AttributeValue::Int(p) => p,
        other => panic!("{other:?}"),
    };
    for dim in ["x_c", "y_c", "x_f", "y_f"] {
        assert!(f.variable(dim).is_some(), "{dim}");
    }
    assert!(f.variable("fluid_mask").is_some());
    assert!(f.attribute("Conventions").is_some());
    let get = |v: &str| f.variable(v).unwrap().get_values::<i64, _>(..).unwrap();
    (part, get("step"), get("series_step"))
}

/// `snapshots_per_file` splits the series into complete files that together hold every
/// snapshot and every series entry once, in order; the overwrite rules apply to every part.
#[test]
fn split_output_rolls_over_into_complete_parts() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = case(10, 1);
    c.output.snapshots_per_file = 4;
    let sum = run_case(&c, &mut Mock::new(&c), &opts(dir.path())).unwrap();
    let out = dir.path().join("out");
    let names: Vec<PathBuf> = (1..=3)
        .map(|k| out.join(format!("mock.000{k}.nc")))
        .collect();
    assert_eq!(sum.outputs, names);
    assert_eq!((sum.output.clone(), sum.snapshots), (names[0].clone(), 11));
    assert!(!out.join("mock.nc").exists());
    let parts: Vec<_> = names.iter().map(|p| read_part(p)).collect();
    assert_eq!(parts[0], (1, vec![0, 1, 2, 3], vec![1, 2, 3]));
    assert_eq!(parts[1], (2, vec![4, 5, 6, 7], vec![4, 5, 6, 7]));
    assert_eq!(parts[2], (3, vec![8, 9, 10], vec![8, 9, 10]));
    let (_, p) = read_steps(&names[2]);
    assert_eq!(p, vec![9.0, 10.0, 11.0]);
    let v = manifest(&out.join("mock.manifest.json"));
    assert_eq!(v["outputs"].as_array().unwrap().len(), 3);
    // Refused without --force, before any step; nothing touched.
    let before = std::fs::read(&names[2]).unwrap();
    let mut m = Mock::new(&c);
    let err = run_case(&c, &mut m, &opts(dir.path())).unwrap_err();
    assert!(
        matches!(err, RunError::Output(OutputError::Exists { .. })),
        "{err:?}"
    );
    assert_eq!((m.calls, std::fs::read(&names[2]).unwrap()), (0, before));
    // With --force a shorter run replaces the set and removes the stale part.
    let o = RunOptions {
        force: true,
        steps_override: Some(5),
        ..opts(dir.path())
    };
    let sum = run_case(&c, &mut Mock::new(&c), &o).unwrap();
    assert_eq!(sum.outputs, names[..2].to_vec());
    assert_eq!(read_part(&names[1]), (2, vec![4, 5], vec![4, 5]));
    assert!(!names[2].exists());
}

/// A restart of split output continues with the part after the one holding the checkpoint's
/// snapshot; the parts of both runs hold the whole history in order.
#[test]
fn split_restart_continues_with_the_next_part() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(10, 1);
    let o = RunOptions {
        snapshots_per_file: Some(4),
        checkpoint_every: Some(6),
        steps_override: Some(6),
        ..opts(dir.path())
    };
    let sum = run_case(&c, &mut Mock::new(&c), &o).unwrap();
    assert_eq!(sum.outputs.len(), 2);
    let ckpt = o.out_dir.join("mock.ckpt-6");
    let header = simplets::output::checkpoint::read_header(&ckpt).unwrap();
    assert_eq!(header.nc_part, Some(2));
    let o2 = RunOptions {
        restart: Some(ckpt),
        steps_override: None,
        checkpoint_every: None,
        ..o.clone()
    };
    let sum = run_case(&c, &mut Mock::new(&c), &o2).unwrap();
    let part = |k: u32| o.out_dir.join(format!("mock.{k:04}.nc"));
    assert_eq!(sum.outputs, vec![part(3), part(4)]);
    assert_eq!(read_part(&part(3)), (3, vec![6, 7, 8, 9], vec![7, 8, 9]));
    assert_eq!(read_part(&part(4)), (4, vec![10], vec![10]));
    let all: Vec<i64> = (1..=4).flat_map(|k| read_part(&part(k)).1).collect();
    assert_eq!(all, vec![0, 1, 2, 3, 4, 5, 6, 6, 7, 8, 9, 10]);
    let series: Vec<i64> = (1..=4).flat_map(|k| read_part(&part(k)).2).collect();
    assert_eq!(series, (1..=10).collect::<Vec<i64>>());
    assert!(!o.out_dir.join("mock.s6.nc").exists());
    let v = manifest(&o.out_dir.join("mock.s6.manifest.json"));
    assert_eq!(v["outputs"].as_array().unwrap().len(), 2);
}

/// The manifest names the code, the compiler and where the time went; a CPU backend has no
/// device or kernel record.
#[test]
fn manifest_records_code_version_and_timings() {
    let dir = tempfile::tempdir().unwrap();
    let c = case(3, 0);
    run_case(&c, &mut Mock::new(&c), &opts(dir.path())).unwrap();
    let v = manifest(&dir.path().join("out/mock.manifest.json"));
    assert_eq!(
        v["code_version"],
        simplets::output::manifest::code_version()
    );
    assert!(v["rustc"].as_str().unwrap().starts_with("rustc "), "{v}");
    assert!(v["device"].is_null() && v["kernels"].is_null(), "{v}");
    for key in ["wall_s", "step_s", "readback_s", "output_s"] {
        assert!(v["timings"][key].as_f64().unwrap() >= 0.0, "{key}");
    }
    assert_eq!(v["timings"]["readbacks"], 2);
    assert_eq!(v["outputs"][0], v["output"]);
}
