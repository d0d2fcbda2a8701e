//! One run of a square study ([`run_square`]): its start (the case's initial state with an
//! optional kick, or a coarser run's final state carried to its grid), the march, the samples
//! of its averaging window ([`Window`]) and the numbers measured from them ([`SquareRun`]).

use std::time::{Duration, Instant};

use super::analysis::{
    normal_shock_pressure_ratio, recirculation_length, shock_position, strouhal, window_drift,
};
use super::centreline::Centreline;
use super::plan::study_label;
use super::spec::Averaging;
use crate::error::ValidateError;
use crate::grid::Grid;
use crate::methods::simple_ts::backend::Backend as Solver;
use crate::methods::simple_ts::case::{Body, Case};
use crate::methods::simple_ts::fields::State;
use crate::methods::simple_ts::forces::{BodyForce, Forces};
use crate::methods::simple_ts::geometry::Geometry;
use crate::validate::Backend;

/// Measured numbers of one run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SquareRun {
    /// Scheme and grid, e.g. `implicit-upwind h=1/10`.
    pub label: String,
    /// The solver that marched it (`reference`, `opencl:NVIDIA H200`).
    pub solver: String,
    /// Cell width.
    pub h: f64,
    /// Time steps taken.
    pub steps: u64,
    /// Loop-2 iterations in all.
    pub iters: u64,
    /// Steps that stopped at max_iters.
    pub unconverged: u64,
    /// Loop-2 iterations in the averaging window.
    pub iters_window: u64,
    /// Time-averaged C_d and its pressure and viscous parts.
    pub cd: f64,
    /// Pressure part of C_d.
    pub cd_p: f64,
    /// Viscous part of C_d.
    pub cd_v: f64,
    /// Time-averaged C_l.
    pub cl: f64,
    /// Largest |C_l − mean| in the window.
    pub cl_amp: f64,
    /// |mean C_d of the second half of the window − first half| / |C_d|.
    pub drift: f64,
    /// Supersonic inflow: the stand-off of each sample of the window (from that sample's
    /// centreline; NaN where no shock is found), in the order of `history`.
    #[serde(default)]
    pub standoffs: Vec<f64>,
    /// |mean stand-off of the second half of the window − first half| / stand-off: the
    /// stand-off's steadiness, as `drift` is C_d's. C_d alone does not show it: a warm-started
    /// h = 1/40 whose C_d had settled to 0.03 % still had its stand-off 0.84 % short
    /// (`validation/confined_square/README.md`, "History").
    #[serde(default)]
    pub standoff_drift: Option<f64>,
    /// Strouhal number of the lift (when it oscillates).
    pub st: Option<f64>,
    /// The samples of the window: (t, C_d, C_l).
    pub history: Vec<(f64, f64, f64)>,
    /// Time-averaged centreline.
    pub line: Centreline,
    /// Shock stand-off distance (supersonic inflow only).
    pub standoff: Option<f64>,
    /// Distances from the front face to where the centreline pressure crosses 10 % and 90 %
    /// of the free-stream to normal-shock rise (the shock's foot and top; supersonic only).
    /// Noted, not asserted: they show how the shock's profile changes with the grid.
    pub shock_10_90: Option<(f64, f64)>,
    /// Recirculation length.
    pub recirc: Option<f64>,
    /// Wall seconds.
    pub wall_s: f64,
    /// Where a warm-started run began: the run whose final state it was carried from and its
    /// end time (`implicit-upwind h=1/40 at t = 15`); `None`: the case's initial state.
    #[serde(default)]
    pub start: Option<String>,
}

/// The final state of a run, to warm-start the run on the grid refined by two (`prolong`).
pub struct Start {
    /// Label of the run that ended here.
    pub label: String,
    /// Its final state.
    pub state: crate::methods::simple_ts::fields::State,
    /// Its grid.
    pub grid: Grid,
    /// Its geometry.
    pub geo: Geometry,
}

/// One line per run for the report.
pub(super) fn run_note(r: &SquareRun) -> String {
    let opt = |v: Option<f64>| v.map_or("–".to_string(), |v| format!("{v:.4}"));
    format!(
        "{}: C_d = {:.4} (pressure {:.4}, viscous {:.4}), C_l = {:.2e} ± {:.2e}, drift {:.1e}{}, \
         St = {}, stand-off = {}{}, recirculation = {}; {} steps, {} loop-2 iterations \
         ({} in the window, {} steps at max_iters), {:.1} s{}",
        r.label,
        r.cd,
        r.cd_p,
        r.cd_v,
        r.cl,
        r.cl_amp,
        r.drift,
        r.standoff_drift
            .map_or(String::new(), |d| format!(" (stand-off {d:.1e})")),
        opt(r.st),
        opt(r.standoff),
        r.shock_10_90.map_or(String::new(), |(a, b)| format!(
            " (shock 10 % / 90 % of the rise at {a:.4} / {b:.4})"
        )),
        opt(r.recirc),
        r.steps,
        r.iters,
        r.iters_window,
        r.unconverged,
        r.wall_s,
        r.start
            .as_ref()
            .map_or(String::new(), |f| format!("; warm start from {f}"))
    )
}

/// Inflow speed, Mach number and p of the case's west inflow.
pub(super) fn inflow(case: &Case) -> (f64, f64, f64, f64) {
    let g = case.gas.gamma;
    let u = case.boundaries.west.inflow_u(g).unwrap_or(0.0);
    let (p, t) = match case.boundaries.west {
        crate::methods::simple_ts::case::Side::Inflow { p, t, .. } => (p, t),
        _ => (1.0, 1.0),
    };
    (u, u / (g * t / 2.0).sqrt(), p, t)
}

/// How often a running square run logs its progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(60);

/// Run `case` on a solver of `bk` and average as `avg` says: from the case's initial state,
/// or, given `from`, from that run's final state carried to this grid. With `keep`, also
/// return the final state (to warm-start a finer run).
pub fn run_square(
    case: &Case,
    bk: &Backend,
    avg: Averaging,
    from: Option<&Start>,
    keep: bool,
) -> Result<(SquareRun, Option<Start>), ValidateError> {
    let start = Instant::now();
    let body = case
        .bodies
        .first()
        .cloned()
        .ok_or_else(|| ValidateError::Report {
            path: case.name.clone(),
            reason: "the case has no body".into(),
        })?;
    let run_err = |source| ValidateError::Run {
        case: case.name.clone(),
        source,
    };
    let mut s = bk.solver(case)?;
    let solver = s.name();
    let g = s.grid().clone();
    let geo = s.geometry().clone();
    let (u_in, mach, p_in, _) = inflow(case);
    if let Some(f) = from {
        warm_start(s.as_mut(), case, f, (&g, &geo))?;
    } else if avg.kick != 0.0 {
        kick(s.as_mut(), case, &body, avg.kick, u_in, (&g, &geo))?;
    }
    let n = case.time.n_steps();
    let first = ((avg.from * n as f64).floor() as u64).clamp(1, n);
    let every = ((n - first + 1) / avg.samples.max(1)).max(1);
    let mut window = Window::new(case, (&g, &geo), &body, mach, p_in);
    let (mut iters, mut unconverged, mut iters_window) = (0u64, 0u64, 0u64);
    // A long run (the h = 1/80 levels take tens of minutes on a GPU) says where it is once a
    // minute, so that a batch log shows progress and the time left.
    let label = study_label(case, from.is_some());
    let mut next_note = PROGRESS_EVERY;
    for step in 1..=n {
        let rep = s.step().map_err(run_err)?;
        iters += u64::from(rep.iters);
        let t = start.elapsed();
        if t >= next_note {
            next_note = t + PROGRESS_EVERY;
            let left = t.as_secs_f64() * (n - step) as f64 / step as f64;
            log::info!(
                "{}: {label}: step {step} of {n}, {iters} loop-2 iterations, {:.0} s, \
                 about {left:.0} s left",
                case.name,
                t.as_secs_f64()
            );
        }
        unconverged += u64::from(!rep.converged);
        if step >= first {
            iters_window += u64::from(rep.iters);
        }
        if step >= first && (n - step) % every == 0 {
            let st = s.state().map_err(run_err)?;
            window.sample((&g, &geo), st, &case.name, &label);
        }
    }
    let h = g.hx[1];
    let m = window.measure(case, &body, h, (u_in, mach, p_in));
    let end = if keep {
        Some(Start {
            label: label.clone(),
            state: s.state().map_err(run_err)?.clone(),
            grid: g.clone(),
            geo: geo.clone(),
        })
    } else {
        None
    };
    let run = SquareRun {
        label,
        solver,
        h,
        steps: n,
        iters,
        unconverged,
        iters_window,
        cd: m.cd,
        cd_p: m.cd_p,
        cd_v: m.cd_v,
        cl: m.cl,
        cl_amp: m.cl_amp,
        drift: m.drift,
        standoffs: m.standoffs,
        standoff_drift: m.standoff_drift,
        st: m.st,
        history: m.history,
        line: m.line,
        standoff: m.standoff,
        shock_10_90: m.shock_10_90,
        recirc: m.recirc,
        wall_s: start.elapsed().as_secs_f64(),
        start: from.map(|f| format!("{} at t = {}", f.label, f.state.time)),
    };
    Ok((run, end))
}

/// Put the final state of the run `f` on the grid of `case` (`prolong`) into `s`.
fn warm_start(
    s: &mut dyn Solver,
    case: &Case,
    f: &Start,
    (g, geo): (&Grid, &Geometry),
) -> Result<(), ValidateError> {
    let st = crate::methods::simple_ts::prolong::prolong(&f.state, (&f.grid, &f.geo), (g, geo))
        .map_err(|reason| ValidateError::Report {
            path: case.name.clone(),
            reason: format!("warm start from {}: {reason}", f.label),
        })?;
    s.restore(st).map_err(|source| ValidateError::Run {
        case: case.name.clone(),
        source,
    })
}

/// Set v = `kick` × `u_in` on the fluid v-faces within 3 L behind `body` and 1.5 L of its
/// centreline, at both time levels ([`Averaging::kick`]).
fn kick(
    s: &mut dyn Solver,
    case: &Case,
    body: &Body,
    kick: f64,
    u_in: f64,
    (g, geo): (&Grid, &Geometry),
) -> Result<(), ValidateError> {
    let run_err = |source| ValidateError::Run {
        case: case.name.clone(),
        source,
    };
    let mut st = s.state().map_err(run_err)?.clone();
    for j in 1..=g.ny + 1 {
        for i in 1..=g.nx {
            let ij = g.idx(i, j);
            let x = g.x_v[i];
            let below = g.idx(i, j - 1);
            let near = (g.y_f[j] - 0.5 * (body.y[0] + body.y[1])).abs() < 1.5;
            let behind = x > body.x[1] && x < body.x[1] + 3.0;
            if behind && near && geo.fluid(ij) && geo.fluid(below) {
                st.k.v[ij] = kick * u_in;
                st.n.v[ij] = kick * u_in;
            }
        }
    }
    s.restore(st).map_err(run_err)
}

/// The samples of a run's averaging window: body forces, the centreline and, with a
/// supersonic inflow, the stand-off of each sample.
struct Window {
    forces: Forces,
    /// The body's centreline y.
    yc: f64,
    /// The body's front face x.
    x_front: f64,
    /// The pressure half-way up the normal-shock rise: where the shock is (supersonic only).
    p_mid: Option<f64>,
    /// The sum of the sampled centrelines.
    line: Centreline,
    /// The sum of the sampled forces.
    sum: BodyForce,
    count: u64,
    /// Time, C_d, C_l and stand-off of each sample.
    ts: Vec<f64>,
    cds: Vec<f64>,
    cls: Vec<f64>,
    sos: Vec<f64>,
}

/// The numbers [`Window::measure`] takes from the samples ([`SquareRun`] has each).
struct Measured {
    cd: f64,
    cd_p: f64,
    cd_v: f64,
    cl: f64,
    cl_amp: f64,
    drift: f64,
    standoffs: Vec<f64>,
    standoff_drift: Option<f64>,
    st: Option<f64>,
    history: Vec<(f64, f64, f64)>,
    line: Centreline,
    standoff: Option<f64>,
    shock_10_90: Option<(f64, f64)>,
    recirc: Option<f64>,
}

impl Window {
    fn new(case: &Case, (g, geo): (&Grid, &Geometry), body: &Body, mach: f64, p_in: f64) -> Window {
        Window {
            forces: Forces::new(case, g, geo),
            yc: 0.5 * (body.y[0] + body.y[1]),
            x_front: body.x[0],
            p_mid: (mach > 1.0)
                .then(|| 0.5 * p_in * (1.0 + normal_shock_pressure_ratio(mach, case.gas.gamma))),
            line: Centreline::default(),
            sum: BodyForce::default(),
            count: 0,
            ts: vec![],
            cds: vec![],
            cls: vec![],
            sos: vec![],
        }
    }

    /// Add the state `st` (run `label` of case `name`) to the window.
    fn sample(&mut self, (g, geo): (&Grid, &Geometry), st: &State, name: &str, label: &str) {
        let f = self.forces.compute(g, geo, &st.k)[0];
        let c = Centreline::of(g, geo, &st.k, self.yc);
        let x_front = self.x_front;
        let so = self.p_mid.map(|pm| {
            shock_position(&c.x_p, &c.p, x_front, pm).map_or(f64::NAN, |xs| x_front - xs)
        });
        self.sos.extend(so);
        self.line.accumulate(&c);
        self.sum.fx_p += f.fx_p;
        self.sum.fx_v += f.fx_v;
        self.sum.fy_p += f.fy_p;
        self.sum.fy_v += f.fy_v;
        self.count += 1;
        let q = self.forces.scale[0];
        let (cd_i, cl_i) = (f.fx() / q, f.fy() / q);
        log::debug!(
            "{name}: {label}: t = {:.4}, C_d = {cd_i:.6}, C_l = {cl_i:.3e}, stand-off = {:.5}",
            st.time,
            so.unwrap_or(f64::NAN)
        );
        self.ts.push(st.time);
        self.cds.push(cd_i);
        self.cls.push(cl_i);
    }

    /// The time averages over the window and what is measured from them, on cells of width
    /// `h` around `body`, with the inflow's speed, Mach number and pressure.
    fn measure(
        self,
        case: &Case,
        body: &Body,
        h: f64,
        (u_in, mach, p_in): (f64, f64, f64),
    ) -> Measured {
        let Window {
            forces,
            p_mid,
            mut line,
            sum,
            count,
            ts,
            cds,
            cls,
            sos,
            ..
        } = self;
        let inv = 1.0 / count.max(1) as f64;
        line.scale(inv);
        let q = forces.scale[0];
        let cd = sum.fx() * inv / q;
        let cl = sum.fy() * inv / q;
        let drift = window_drift(&cds, cd).unwrap_or(0.0);
        let cl_amp = cls.iter().map(|c| (c - cl).abs()).fold(0.0, f64::max);
        let standoff = p_mid
            .and_then(|pm| shock_position(&line.x_p, &line.p, body.x[0], pm))
            .map(|xs| body.x[0] - xs);
        let standoff_drift = standoff.and_then(|d| window_drift(&sos, d));
        // The shock's foot and top: 10 % and 90 % of the rise (supersonic only).
        let shock_10_90 = p_mid.and_then(|_| {
            let rise = p_in * (normal_shock_pressure_ratio(mach, case.gas.gamma) - 1.0);
            let at = |f: f64| shock_position(&line.x_p, &line.p, body.x[0], p_in + f * rise);
            Some((body.x[0] - at(0.1)?, body.x[0] - at(0.9)?))
        });
        let recirc = recirculation_length(&line.x_u, &line.u, body.x[1], h);
        // Vortex shedding: a lift oscillation that is not decaying (the second half of the
        // window keeps at least half the amplitude of the first) and above 1e-3 C_d. A
        // decaying start-up transient of a steady flow has no Strouhal number.
        let amp = |v: &[f64]| v.iter().map(|c| (c - cl).abs()).fold(0.0, f64::max);
        let (a1, a2) = (amp(&cls[..cls.len() / 2]), amp(&cls[cls.len() / 2..]));
        let st = if a2 > 1e-3 * cd.abs() && a2 >= 0.5 * a1 {
            strouhal(&ts, &cls, body.y[1] - body.y[0], u_in)
        } else {
            None
        };
        Measured {
            cd,
            cd_p: sum.fx_p * inv / q,
            cd_v: sum.fx_v * inv / q,
            cl,
            cl_amp,
            drift,
            standoffs: sos,
            standoff_drift,
            st,
            history: ts
                .iter()
                .zip(&cds)
                .zip(&cls)
                .map(|((&t, &d), &l)| (t, d, l))
                .collect(),
            line,
            standoff,
            shock_10_90,
            recirc,
        }
    }
}
