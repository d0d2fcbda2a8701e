//! The shear-wave grid study (`grid_convergence`): the observed order of upwind and TVD
//! interpolation from the decay of an advected shear wave on refined grids.

use std::path::Path;

use crate::error::ValidateError;
use crate::methods::simple_ts::case::{Case, Interpolation};
use crate::methods::simple_ts::reference::Reference;
use crate::validate::{host_copy, load_variant, Backend, CaseReport, Check, Plot, Row, Series};

/// Observed orders: first order ±0.15, second order ±0.3 (van Leer clips at the extrema).
const ORDER_TOL: [f64; 2] = [0.15, 0.3];
/// Grid convergence: amplitude ε of the shear wave v = ε sin(2πx/L) (viscous heating
/// ∝ ε² stays below 1e-6 of T).
const WAVE_EPS: f64 = 1e-3;
/// Grid levels nx of the shear wave: full and quick.
const LEVELS: [&[usize]; 2] = [&[32, 64, 128, 256], &[32, 64, 128]];
/// TVD must beat upwind by this factor on the finest grid, or convection does not matter.
const CONVECTION_RATIO: f64 = 0.5;

/// Complex helpers for the shear-wave amplitude: (re, im).
fn cdiv(a: (f64, f64), b: (f64, f64)) -> (f64, f64) {
    let d = b.0 * b.0 + b.1 * b.1;
    ((a.0 * b.0 + a.1 * b.1) / d, (a.1 * b.0 - a.0 * b.1) / d)
}

/// Least-squares slope of log e against log h.
pub fn observed_order(h: &[f64], e: &[f64]) -> f64 {
    let n = h.len() as f64;
    let (lx, ly): (Vec<f64>, Vec<f64>) = h.iter().zip(e).map(|(h, e)| (h.ln(), e.ln())).unzip();
    let (mx, my) = (lx.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
    let sxy: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = lx.iter().map(|x| (x - mx) * (x - mx)).sum();
    sxy / sxx
}

/// Error of the shear wave v = ε sin(kx) advected by u = U and decaying: the first Fourier
/// amplitude of v against backward Euler applied to the exact spatial operator, over ε.
fn wave_error(
    base: &Case,
    nx: usize,
    scheme: Interpolation,
    bk: &Backend,
) -> Result<(f64, f64), ValidateError> {
    let mut case = base.clone();
    case.grid.nx = nx;
    case.scheme.interpolation = scheme;
    let mut r = Reference::new(&case);
    let len = case.grid.x[1] - case.grid.x[0];
    let kw = 2.0 * std::f64::consts::PI / len;
    {
        let g = &r.p.grid;
        for j in 0..g.nyt {
            for i in 0..g.nxt {
                r.state.k.v[g.idx(i, j)] = WAVE_EPS * (kw * (g.x_v[i] - case.grid.x[0])).sin();
            }
        }
    }
    r.p.ghosts.apply_faces(&mut r.state.k);
    r.state.n.clone_from(&r.state.k);
    let run_err = |source| ValidateError::Run {
        case: case.name.clone(),
        source,
    };
    let mut s = bk.solver(&case)?;
    s.restore(r.state.clone()).map_err(run_err)?;
    let n = case.time.n_steps();
    for _ in 0..n {
        s.step().map_err(run_err)?;
    }
    let r = host_copy(&case, s.as_mut())?;
    let g = &r.p.grid;
    let (mut re, mut im) = (0.0, 0.0);
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let ph = kw * (g.x_v[i] - case.grid.x[0]);
            let v = r.state.k.v[g.idx(i, j)];
            re += v * ph.cos();
            im -= v * ph.sin();
        }
    }
    let norm = 2.0 / (g.nx * g.ny) as f64;
    let a = (re * norm, im * norm);
    // da/dt = −(i k U + ν k²) a, a₀ = −i ε; backward Euler: a_n = a₀ / (1 + (ν k² + i k U) Δt)ⁿ.
    let nu = r.p.c.b * case.initial.t.sqrt() / (case.initial.p / case.initial.t);
    let z = (
        1.0 + nu * kw * kw * case.time.dt,
        kw * case.initial.u * case.time.dt,
    );
    let mut a_ref = (0.0, -WAVE_EPS);
    for _ in 0..n {
        a_ref = cdiv(a_ref, z);
    }
    let err = ((a.0 - a_ref.0).powi(2) + (a.1 - a_ref.1).powi(2)).sqrt() / WAVE_EPS;
    Ok((len / nx as f64, err))
}

/// `grid_convergence`: the observed orders of upwind and TVD on the shear wave, and TVD
/// against upwind on the finest grid.
pub(in crate::validate) fn grid_convergence(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let base = load_variant(dir, "case", quick)?;
    let levels = LEVELS[usize::from(quick)];
    let name = rep.case.clone();
    let mut series = vec![];
    let mut finest = [0.0; 2];
    for (s, (scheme, order)) in [(Interpolation::Upwind, 1.0), (Interpolation::Tvd, 2.0)]
        .into_iter()
        .enumerate()
    {
        let (mut hs, mut es) = (vec![], vec![]);
        for &nx in levels {
            let (h, e) = wave_error(&base, nx, scheme, bk)?;
            hs.push(h);
            es.push(e);
        }
        let p = observed_order(&hs, &es);
        finest[s] = *es.last().unwrap_or(&f64::NAN);
        rep.rows.push(Row::new(
            &name,
            &format!("{scheme:?} observed order"),
            p,
            order,
            ORDER_TOL[s],
            Check::Absolute,
        ));
        rep.notes.push(format!(
            "{scheme:?}: nx = {levels:?}, errors |a − a_ref|/ε = {}",
            es.iter()
                .map(|e| format!("{e:.3e}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        series.push(Series {
            label: format!("{scheme:?} error (log10)"),
            points: hs
                .iter()
                .zip(&es)
                .map(|(h, e)| (h.log10(), e.log10()))
                .collect(),
            line: false,
        });
        // The fitted line through the centroid with the observed slope.
        let n = hs.len() as f64;
        let mx = hs.iter().map(|h| h.log10()).sum::<f64>() / n;
        let my = es.iter().map(|e| e.log10()).sum::<f64>() / n;
        let ends = [hs[0].log10(), hs[hs.len() - 1].log10()];
        series.push(Series {
            label: format!("{scheme:?} least-squares fit, slope {p:.3}"),
            points: ends.iter().map(|&x| (x, my + p * (x - mx))).collect(),
            line: true,
        });
    }
    rep.rows.push(Row::new(
        &name,
        "TVD/upwind error, finest grid",
        finest[1] / finest[0],
        CONVECTION_RATIO,
        CONVECTION_RATIO,
        Check::AtMost,
    ));
    let c = crate::methods::simple_ts::physics::Constants::new(&base.gas);
    rep.notes.push(format!(
        "Cell Péclet number U h / ν on the levels: {}",
        levels
            .iter()
            .map(|&nx| format!(
                "{:.2}",
                base.initial.u * (base.grid.x[1] - base.grid.x[0]) / nx as f64 / c.b
            ))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    rep.plots.push(Plot {
        name: "order".into(),
        title: "Shear-wave amplitude error against cell width (log10–log10)".into(),
        x: "log10 h".into(),
        y: "log10 |a − a_ref| / ε".into(),
        series,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn observed_order_of_a_power_law() {
        let h = [0.1, 0.05, 0.025];
        let e: Vec<f64> = h.iter().map(|h: &f64| 3.0 * h.powf(1.7)).collect();
        assert!((super::observed_order(&h, &e) - 1.7).abs() < 1e-12);
    }
}
