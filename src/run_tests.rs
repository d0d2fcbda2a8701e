//! [`run_case`] with mock solvers: schedule, steady stop, divergence guard, refusal to overwrite.

use super::*;
use crate::error::OutputError;
use crate::geometry::Geometry;
use crate::solver::Residuals;

/// A solver whose fields evolve trivially: every step adds 1 to p in all cells.
struct Mock {
    grid: Grid,
    geom: Geometry,
    state: State,
    dt: f64,
    calls: u64,
    /// Step at which p of stored cell (3, 2) becomes NaN.
    nan_at: Option<u64>,
    /// Step from which the mock reports a steady step (1 iteration, zero residuals).
    steady_from: Option<u64>,
    /// Residual du to report.
    du: f64,
}

impl Mock {
    fn new(case: &Case) -> Mock {
        let grid = Grid::new(&case.grid, false, false);
        let geom = Geometry::new(case, &grid);
        let mut f = Fields::zeros(grid.len());
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
            grid,
            geom,
            state,
            dt: case.time.dt,
            calls: 0,
            nan_at: None,
            steady_from: None,
            du: 1e-3,
        }
    }
}

impl Solver for Mock {
    fn name(&self) -> String {
        "mock".into()
    }
    fn grid(&self) -> &Grid {
        &self.grid
    }
    fn geometry(&self) -> &Geometry {
        &self.geom
    }
    fn step(&mut self) -> Result<StepReport, RunError> {
        self.calls += 1;
        let st = &mut self.state;
        st.n = st.k.clone();
        st.step += 1;
        st.time = st.step as f64 * self.dt;
        st.k.p.iter_mut().for_each(|p| *p += 1.0);
        if self.nan_at == Some(st.step) {
            let ij = self.grid.idx(3, 2);
            st.k.p[ij] = f64::NAN;
        }
        if self.steady_from.is_some_and(|s| st.step >= s) {
            return Ok(StepReport {
                iters: 1,
                res: Residuals::default(),
                converged: true,
            });
        }
        let res = Residuals {
            du: self.du,
            dv: 1e-4,
            dp: 1e-5,
            dt: 1e-6,
        };
        Ok(StepReport {
            iters: 3,
            res,
            converged: true,
        })
    }
    fn state(&mut self) -> &State {
        &self.state
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
    let f = ::netcdf::open(path).unwrap();
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

#[test]
fn nan_keeps_the_file_with_the_last_good_state() {
    for (interval, want) in [(1, vec![0, 1, 2]), (0, vec![0, 2]), (2, vec![0, 2])] {
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
                assert_eq!((*step, *iter, *field, *i, *j), (3, 3, "p", 2, 1));
                assert!(value.is_nan());
            }
            other => panic!("{other:?}"),
        }
        assert!(err.to_string().contains("step 3"), "{err}");
        let (steps, p) = read_steps(&dir.path().join("out/mock.nc"));
        assert_eq!(steps, want, "interval {interval}");
        assert_eq!(*p.last().unwrap(), 3.0);
        assert!(!dir.path().join("out/mock.nc.tmp").exists());
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
    run_case(&c, &mut m, &o).unwrap();
}

fn ckpt_steps(dir: &std::path::Path) -> Vec<u64> {
    crate::io::checkpoint::list_checkpoints(dir, "mock")
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
    let st = crate::io::checkpoint::load_checkpoint(&ckpt, &c).unwrap();
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
    let st = crate::io::checkpoint::load_checkpoint(&o.out_dir.join("mock.ckpt-4"), &c).unwrap();
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
    let f = ::netcdf::open(&sum.output).unwrap();
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
    c.bodies.push(crate::config::Body {
        name: "b".into(),
        x: [1.2, 3.8],
        y: [1.2, 2.8],
        u_wall: 0.0,
        v_wall: 0.0,
        t_wall: 1.0,
        wall: crate::config::WallBc::Slip,
    });
    c.output.probes.push(crate::config::Probe {
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
