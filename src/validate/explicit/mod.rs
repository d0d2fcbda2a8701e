//! Validation of the explicit methods (issue 18) against exact solutions: Euler Riemann
//! problems (Toro ch. 4, `exact::riemann`), Shu's isentropic vortex (orders 1 and 2), the
//! Ritter and Stoker dam breaks (`exact::shallow_water`), linear convection (seed 003's two
//! cases, the exact shift at ν = 1, the order on a smooth profile), the 2D partial dam break
//! and the seed 002 shock–bubble case (mass, positivity, pictures), and conservation to
//! round-off on periodic domains for every method.
//!
//! Each case reads its files from `validation/<case>/` (README: reference, metric,
//! tolerance and why) and refines or varies them here (grid levels, scheme). The runs march
//! on the backend the [`Backend`] was given ([`Backend::choice`]); the analysis reads the
//! conserved fields on the host.

mod euler;
mod shallow;
mod transport;

use std::path::Path;

use euler::{isentropic_vortex, riemann_euler, shock_bubble};
use shallow::{dam_break_1d, dam_break_2d};
use transport::{conservation, convection};

use super::{Backend, CaseReport};
use crate::error::ValidateError;
use crate::methods::explicit::solver::Explicit;
use crate::methods::explicit::Flux;
use crate::methods::shll::case::Reconstruction;
use crate::methods::AnyCase;
use crate::solver::Solver;

/// The explicit validation cases, in the order `validate all` runs them.
pub const CASES: [&str; 7] = [
    "riemann_euler",
    "isentropic_vortex",
    "dam_break_1d",
    "dam_break_2d",
    "convection",
    "shock_bubble",
    "conservation",
];

/// Run the explicit case `name` from `dir` into `rep`.
pub fn run(
    name: &str,
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    match name {
        "riemann_euler" => riemann_euler(dir, quick, rep, bk),
        "isentropic_vortex" => isentropic_vortex(dir, quick, rep, bk),
        "dam_break_1d" => dam_break_1d(dir, quick, rep, bk),
        "dam_break_2d" => dam_break_2d(dir, quick, rep, bk),
        "convection" => convection(dir, quick, rep, bk),
        "shock_bubble" => shock_bubble(dir, quick, rep, bk),
        "conservation" => conservation(dir, rep, bk),
        _ => Err(ValidateError::UnknownCase {
            name: name.into(),
            known: CASES.join(", "),
        }),
    }
}

pub(super) fn load(dir: &Path, file: &str) -> Result<AnyCase, ValidateError> {
    Ok(AnyCase::load(&dir.join(file))?)
}

/// `case` with `nx` × `ny` cells (ny `None`: unchanged).
pub(super) fn with_grid(case: &AnyCase, nx: usize, ny: Option<usize>) -> AnyCase {
    let mut c = case.clone();
    let g = match &mut c {
        AnyCase::Convection(c) => &mut c.grid,
        AnyCase::ShllEuler(c) => &mut c.grid,
        AnyCase::ShllShallowWater(c) => &mut c.grid,
        AnyCase::ShllConvectionDiffusion(c) => &mut c.grid,
        AnyCase::CeseEuler(c) => &mut c.grid,
        AnyCase::SimpleTs(c) => &mut c.grid,
        AnyCase::BpEuler(_) => unreachable!("no explicit validation case is bp_euler"),
    };
    g.nx = nx;
    if let Some(ny) = ny {
        g.ny = ny;
    }
    c
}

/// `case` (an SHLL Euler case) with another flux and reconstruction.
pub(super) fn with_scheme(case: &AnyCase, flux: Flux, rec: Reconstruction) -> AnyCase {
    let mut c = case.clone();
    if let AnyCase::ShllEuler(e) = &mut c {
        e.scheme.flux = flux;
        e.scheme.reconstruction = rec;
        if rec == Reconstruction::Muscl {
            e.scheme.limiter = crate::methods::explicit::Limiter::VanLeer;
        }
    }
    c
}

/// Build `case` on the backend and march it to its end (end time or step count).
pub(super) fn solve(bk: &Backend, case: &AnyCase) -> Result<Explicit, ValidateError> {
    let name = case.common().name;
    let p = case.explicit_problem().expect("an explicit case");
    let steps = p.total_steps;
    let mut s = Explicit::new(p, &bk.choice).map_err(|e| ValidateError::Backend {
        case: name.clone(),
        reason: e.to_string(),
    })?;
    bk.record(s.name());
    for _ in 0..steps {
        if s.finished() {
            break;
        }
        s.step().map_err(|source| ValidateError::Run {
            case: name.clone(),
            source,
        })?;
    }
    Ok(s)
}

pub(super) fn run_err(case: &str) -> impl Fn(crate::error::RunError) -> ValidateError + '_ {
    move |source| ValidateError::Run {
        case: case.into(),
        source,
    }
}

/// Least-squares slope of log e against log h.
pub(super) fn order(h: &[f64], e: &[f64]) -> f64 {
    super::cases::observed_order(h, e)
}

/// Cell centres of a 1D solver's computed cells.
pub(super) fn centres(s: &Explicit) -> Vec<f64> {
    let m = &s.problem().mesh;
    m.cols().map(|i| m.centre(i, m.j0()).0).collect()
}

/// Sums over the computed cells of each variable of a stored-layout state.
pub(super) fn interior_sums(p: &crate::methods::explicit::Problem, q: &[f64]) -> Vec<f64> {
    let m = &p.mesh;
    (0..p.nv())
        .map(|v| {
            m.rows()
                .flat_map(|j| m.cols().map(move |i| (i, j)))
                .map(|(i, j)| q[v * m.ns + m.idx(i, j)])
                .sum()
        })
        .collect()
}
