//! The lid-driven cavity at Re = 100 and 400 against Ghia, Ghia & Shin (1982), Tables I and
//! II: u along the vertical centreline and v along the horizontal centreline. Source, metric,
//! grids and tolerances are in `validation/cavity/README.md`.

use std::path::Path;

use super::{host_copy, load_variant, Backend, CaseReport, Check, Plot, Row, Series};
use crate::error::ValidateError;
use crate::methods::simple_ts::backend::Backend as Solver;
use crate::methods::simple_ts::case::{Case, Side};
use crate::methods::simple_ts::physics::{mach_of_speed, Constants};
use crate::methods::simple_ts::reference::Reference;
use crate::run::STEADY_TOL;

/// Largest deviation from Ghia's centreline velocities, in units of the lid speed: full
/// variant (the 2 %).
const GHIA_TOL: f64 = 0.02;
/// The Reynolds numbers of the full variant (`re<Re>.json`) and of the quick one
/// (`re<Re>.quick.json`, Re = 100 only: Re = 400 needs a finer grid and ~10⁵ steps, README).
const STEMS: [&[&str]; 2] = [&["re100", "re400"], &["re100"]];
/// Steady state: max |∂u/∂t| · L / U² over all faces, measured over one check interval, below
/// this (README: the remaining transient is then ≪ the tolerance).
const STEADY_RATE: f64 = 1e-5;
/// The Reynolds number of a case must match its Ghia column to this relative accuracy.
const RE_MATCH: f64 = 1e-3;
/// Published points excluded from the pass/fail metric (table, column, coordinate), with the
/// reason in the README; their deviation is still reported.
const SUSPECT: [(&str, &str, f64); 1] = [("v", "re400", 0.9063)];

/// A reference table: a header of column names and rows of numbers.
struct Table {
    path: String,
    header: Vec<String>,
    rows: Vec<Vec<f64>>,
}

impl Table {
    /// Read a CSV file: `#` lines are comments, the first other line is the header.
    fn read(path: &Path) -> Result<Table, ValidateError> {
        let name = path.display().to_string();
        let err = |reason: String| ValidateError::Data {
            path: name.clone(),
            reason,
        };
        let text = std::fs::read_to_string(path).map_err(|e| err(e.to_string()))?;
        let mut lines = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
        let header: Vec<String> = match lines.next() {
            Some((_, h)) => h.split(',').map(|c| c.trim().to_string()).collect(),
            None => return Err(err("no header line".into())),
        };
        let mut rows = vec![];
        for (n, l) in lines {
            let row = l
                .split(',')
                .map(|c| c.trim().parse::<f64>())
                .collect::<Result<Vec<f64>, _>>()
                .map_err(|e| err(format!("line {}: {e}", n + 1)))?;
            if row.len() != header.len() {
                return Err(err(format!(
                    "line {}: {} values, the header has {}",
                    n + 1,
                    row.len(),
                    header.len()
                )));
            }
            rows.push(row);
        }
        Ok(Table {
            path: name,
            header,
            rows,
        })
    }

    /// The values of column `name`.
    fn column(&self, name: &str) -> Result<Vec<f64>, ValidateError> {
        let k = self
            .header
            .iter()
            .position(|h| h == name)
            .ok_or_else(|| ValidateError::Data {
                path: self.path.clone(),
                reason: format!("no column {name:?} (columns: {})", self.header.join(", ")),
            })?;
        Ok(self.rows.iter().map(|r| r[k]).collect())
    }
}

/// Linear interpolation of the polyline (xs, ys) (xs increasing) at x, clamped to its ends.
fn interp(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let k = xs.partition_point(|&a| a <= x).clamp(1, xs.len() - 1);
    let w = (x - xs[k - 1]) / (xs[k] - xs[k - 1]);
    ys[k - 1] + w * (ys[k] - ys[k - 1])
}

/// Tangential velocity of a wall side (0 for any other side).
fn wall_velocity(side: &Side) -> f64 {
    match side {
        Side::Wall { velocity, .. } => *velocity,
        _ => 0.0,
    }
}

/// u along the vertical line x = xc: linear in x between the two u-face columns around xc,
/// at every cell-centre row, closed by the wall velocities at y_start and y_end.
fn u_profile(r: &Reference, xc: f64) -> (Vec<f64>, Vec<f64>) {
    let g = &r.p.grid;
    let b = &r.p.case.boundaries;
    let xf = &g.x_f[1..=g.nx + 1];
    let i = xf.partition_point(|&a| a <= xc).clamp(1, g.nx); // xf[i-1] <= xc < xf[i]
    let w = (xc - xf[i - 1]) / (xf[i] - xf[i - 1]);
    let (mut ys, mut us) = (vec![g.y_f[1]], vec![wall_velocity(&b.south)]);
    for j in 1..=g.ny {
        let (a, c) = (r.state.k.u[g.idx(i, j)], r.state.k.u[g.idx(i + 1, j)]);
        ys.push(g.y_v[j]);
        us.push(a + w * (c - a));
    }
    ys.push(g.y_f[g.ny + 1]);
    us.push(wall_velocity(&b.north));
    (ys, us)
}

/// v along the horizontal line y = yc, as [`u_profile`] with the axes swapped.
fn v_profile(r: &Reference, yc: f64) -> (Vec<f64>, Vec<f64>) {
    let g = &r.p.grid;
    let b = &r.p.case.boundaries;
    let yf = &g.y_f[1..=g.ny + 1];
    let j = yf.partition_point(|&a| a <= yc).clamp(1, g.ny);
    let w = (yc - yf[j - 1]) / (yf[j] - yf[j - 1]);
    let (mut xs, mut vs) = (vec![g.x_f[1]], vec![wall_velocity(&b.west)]);
    for i in 1..=g.nx {
        let (a, c) = (r.state.k.v[g.idx(i, j)], r.state.k.v[g.idx(i, j + 1)]);
        xs.push(g.x_v[i]);
        vs.push(a + w * (c - a));
    }
    xs.push(g.x_f[g.nx + 1]);
    vs.push(wall_velocity(&b.east));
    (xs, vs)
}

/// Largest change of u and v over all faces between two states.
fn max_change(
    a: &crate::methods::simple_ts::fields::Fields,
    b: &crate::methods::simple_ts::fields::Fields,
) -> f64 {
    let d = |x: &[f64], y: &[f64]| {
        x.iter()
            .zip(y)
            .fold(0.0f64, |m, (p, q)| m.max((p - q).abs()))
    };
    d(&a.u, &b.u).max(d(&a.v, &b.v))
}

/// How a cavity run ended.
struct Steady {
    /// max |∂u/∂t| L/U² over the last check interval (0 if the one-step test stopped it).
    rate: f64,
    /// True if [`STEADY_RATE`] (or the solver's own one-step steady test) was met.
    reached: bool,
    /// Loop-2 iterations over the whole run.
    iters: u64,
}

/// March `s` until max |∂u/∂t| L/U² over one check interval (one lid transit time L/U) is
/// below [`STEADY_RATE`], or the one-step steady test of `simplets run` holds, or the case's
/// end time.
fn march_steady(
    s: &mut dyn Solver,
    case: &Case,
    u_lid: f64,
    len: f64,
) -> Result<Steady, ValidateError> {
    let dt = case.time.dt;
    let every = ((len / u_lid / dt).ceil() as u64).max(1);
    let run_err = |source| ValidateError::Run {
        case: case.name.clone(),
        source,
    };
    let mut last = s.state().map_err(run_err)?.k.clone();
    let (mut rate, mut iters) = (f64::INFINITY, 0u64);
    let start = std::time::Instant::now();
    for n in 1..=case.time.n_steps() {
        let rep = s.step().map_err(run_err)?;
        iters += u64::from(rep.iters);
        if rep.iters == 1 && rep.res.max() < STEADY_TOL {
            return Ok(Steady {
                rate: 0.0,
                reached: true,
                iters,
            });
        }
        if n % every == 0 {
            let k = &s.state().map_err(run_err)?.k;
            rate = max_change(k, &last) / u_lid / (every as f64 * dt * u_lid / len);
            log::debug!(
                "{}: step {n}, t U/L = {:.1}, max|du/dt| L/U^2 = {rate:.3e}, loop-2 iterations {}, {:.1} s",
                case.name,
                n as f64 * dt * u_lid / len,
                rep.iters,
                start.elapsed().as_secs_f64()
            );
            if rate < STEADY_RATE {
                return Ok(Steady {
                    rate,
                    reached: true,
                    iters,
                });
            }
            last.clone_from(k);
        }
    }
    Ok(Steady {
        rate,
        reached: false,
        iters,
    })
}

/// One centreline comparison: (max deviation over the judged points, the excluded points with
/// their deviations, our dense profile, Ghia's points), all in units of U.
type Compared = (f64, Vec<(f64, f64)>, Vec<(f64, f64)>, Vec<(f64, f64)>);

fn compare(
    table: &Table,
    axis: &str,
    col: &str,
    coord: &str,
    ours: (Vec<f64>, Vec<f64>),
    u_lid: f64,
) -> Result<Compared, ValidateError> {
    let (xs, vs) = ours;
    let (pos, refs) = (table.column(coord)?, table.column(col)?);
    let (mut worst, mut excluded, mut pts) = (0.0f64, vec![], vec![]);
    for (&x, &g) in pos.iter().zip(&refs) {
        let dev = (interp(&xs, &vs, x) / u_lid - g).abs();
        pts.push((x, g));
        let suspect = SUSPECT
            .iter()
            .any(|&(a, c, at)| a == axis && c == col && (at - x).abs() < 1e-9);
        if suspect {
            excluded.push((x, dev));
        } else {
            worst = worst.max(dev);
        }
    }
    let dense = xs.iter().zip(&vs).map(|(&x, &v)| (x, v / u_lid)).collect();
    Ok((worst, excluded, dense, pts))
}

/// `cavity`: the centreline profiles at each Reynolds number against Ghia, Ghia & Shin.
pub(super) fn cavity(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let u_tab = Table::read(&dir.join("ghia1982_u.csv"))?;
    let v_tab = Table::read(&dir.join("ghia1982_v.csv"))?;
    for &stem in STEMS[usize::from(quick)] {
        reynolds(dir, stem, quick, (&u_tab, &v_tab), rep, bk)?;
    }
    Ok(())
}

/// One Reynolds number, case file `<stem>` (Ghia's column `stem`): its rows, notes and plots.
fn reynolds(
    dir: &Path,
    stem: &str,
    quick: bool,
    (u_tab, v_tab): (&Table, &Table),
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let name = rep.case.clone();
    let case = load_variant(dir, stem, quick)?;
    let b = &case.boundaries;
    let u_lid = wall_velocity(&b.north);
    let c = Constants::new(&case.gas);
    let (t_ref, p_ref) = (case.initial.t, case.initial.p);
    let len = case.grid.x[1] - case.grid.x[0];
    let re = p_ref / t_ref * u_lid * len / (c.b * t_ref.sqrt());
    let nominal: f64 = stem[2..].parse().unwrap_or(f64::NAN);
    if (re / nominal - 1.0).abs() > RE_MATCH {
        return Err(ValidateError::Data {
            path: dir.join(format!("{stem}.json")).display().to_string(),
            reason: format!("the case has Re = {re:.4}, Ghia's column {stem} is Re = {nominal}"),
        });
    }
    let start = std::time::Instant::now();
    let mut s = bk.solver(&case)?;
    let st = march_steady(s.as_mut(), &case, u_lid, len)?;
    let r = host_copy(&case, s.as_mut())?;
    let secs = start.elapsed().as_secs_f64();
    let g = &r.p.grid;
    let xc = 0.5 * (case.grid.x[0] + case.grid.x[1]);
    let yc = 0.5 * (case.grid.y[0] + case.grid.y[1]);
    let (u_dev, u_ex, u_ours, u_ghia) = compare(u_tab, "u", stem, "y", u_profile(&r, xc), u_lid)?;
    let (v_dev, v_ex, v_ours, v_ghia) = compare(v_tab, "v", stem, "x", v_profile(&r, yc), u_lid)?;
    let tag = format!("Re={nominal}");
    rep.rows.push(Row::new(
        &name,
        &format!("{tag}: u(x=0.5) max |u-u_Ghia|/U"),
        u_dev,
        0.0,
        GHIA_TOL,
        Check::Absolute,
    ));
    rep.rows.push(Row::new(
        &name,
        &format!("{tag}: v(y=0.5) max |v-v_Ghia|/U"),
        v_dev,
        0.0,
        GHIA_TOL,
        Check::Absolute,
    ));
    rep.rows.push(Row::new(
        &name,
        &format!("{tag}: max|du/dt| L/U^2 at stop"),
        st.rate,
        STEADY_RATE,
        STEADY_RATE,
        Check::AtMost,
    ));
    let (rho_lo, rho_hi, mach_max) = extremes(&r, c.gamma);
    rep.notes.push(format!(
        "{tag}: {} × {} cells, {}; lid Mach {:.4} (largest cell Mach {mach_max:.4}), Re = {re:.3}; \
         {} steps of Δt = {} (t U/L = {:.1}), {} loop-2 iterations, max|∂u/∂t| L/U² = {:.2e}{}; \
         ρ from {rho_lo:.5} to {rho_hi:.5}; {secs:.1} s.",
        g.nx,
        g.ny,
        case.scheme,
        mach_of_speed(u_lid, t_ref, c.gamma),
        r.state.step,
        case.time.dt,
        r.state.time * u_lid / len,
        st.iters,
        st.rate,
        if st.reached { "" } else { " (NOT steady by the end time)" },
    ));
    for (axis, ex) in [("u", &u_ex), ("v", &v_ex)] {
        for (x, dev) in ex {
            rep.notes.push(format!(
                "{tag}: Ghia's {axis} at {x} is excluded from the metric (README); our deviation \
                 there is {dev:.4} U."
            ));
        }
    }
    for (axis, ours, ghia) in [("u", u_ours, u_ghia), ("v", v_ours, v_ghia)] {
        rep.plots
            .push(profile_plot(axis, nominal, (g.nx, g.ny), ours, ghia));
    }
    log::info!(
        "cavity {stem}: {} steps, max|du/dt| L/U^2 = {:.2e}, u dev {u_dev:.4}, v dev {v_dev:.4}, {secs:.1} s",
        r.state.step,
        st.rate
    );
    Ok(())
}

/// The smallest and largest density and the largest cell Mach number of the state of `r`.
fn extremes(r: &Reference, gamma: f64) -> (f64, f64, f64) {
    let g = &r.p.grid;
    let (mut rho_lo, mut rho_hi, mut mach_max) = (f64::MAX, f64::MIN, 0.0f64);
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let p = g.idx(i, j);
            rho_lo = rho_lo.min(r.state.k.rho[p]);
            rho_hi = rho_hi.max(r.state.k.rho[p]);
            let uc = 0.5 * (r.state.k.u[p] + r.state.k.u[p + 1]);
            let vc = 0.5 * (r.state.k.v[p] + r.state.k.v[p + g.nxt]);
            let m = mach_of_speed((uc * uc + vc * vc).sqrt(), r.state.k.T[p], gamma);
            mach_max = mach_max.max(m);
        }
    }
    (rho_lo, rho_hi, mach_max)
}

/// The `axis` profile (u along the vertical centreline, v along the horizontal one) at
/// Reynolds number `nominal` on an `nx × ny` grid: ours against Ghia's points.
fn profile_plot(
    axis: &str,
    nominal: f64,
    (nx, ny): (usize, usize),
    ours: Vec<(f64, f64)>,
    ghia: Vec<(f64, f64)>,
) -> Plot {
    let line = if axis == "u" {
        "y / L at x = L/2"
    } else {
        "x / L at y = L/2"
    };
    Plot {
        name: format!("{axis}_re{nominal}"),
        title: format!(
            "{axis} / U along the {} centreline, Re = {nominal}",
            if axis == "u" {
                "vertical"
            } else {
                "horizontal"
            }
        ),
        x: line.into(),
        y: format!("{axis} / U_lid"),
        series: vec![
            Series {
                label: format!("simplets ({nx} × {ny}, linear between nodes)"),
                points: ours,
                line: true,
            },
            Series {
                label: "Ghia, Ghia & Shin (1982)".into(),
                points: ghia,
                line: false,
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_is_linear_and_clamped() {
        let xs = [0.0, 0.5, 1.0];
        let ys = [0.0, 1.0, 3.0];
        assert_eq!(interp(&xs, &ys, 0.25), 0.5);
        assert_eq!(interp(&xs, &ys, 0.75), 2.0);
        assert_eq!(interp(&xs, &ys, 1.0), 3.0);
        assert_eq!(interp(&xs, &ys, 0.0), 0.0);
    }

    #[test]
    fn ghia_tables_parse() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("validation/cavity");
        let u = Table::read(&dir.join("ghia1982_u.csv")).unwrap();
        let v = Table::read(&dir.join("ghia1982_v.csv")).unwrap();
        assert_eq!((u.rows.len(), v.rows.len()), (17, 17));
        let (y, u100, u400) = (
            u.column("y").unwrap(),
            u.column("re100").unwrap(),
            u.column("re400").unwrap(),
        );
        // Spot values of Table I quoted in the README.
        let at = |ys: &[f64], vs: &[f64], y0: f64| vs[ys.iter().position(|&a| a == y0).unwrap()];
        assert_eq!(at(&y, &u100, 0.0547), -0.03717);
        assert_eq!(at(&y, &u100, 0.4531), -0.21090);
        assert_eq!(at(&y, &u400, 0.2813), -0.32726);
        assert!(v.column("re1000").is_err());
    }
}
