//! The authors' C++ channels (`authors_cpp`, issue 16): the straight slip channel (A1) and the
//! shipped channel between two reservoirs (A2) of `configs/cpp/`, run to steady state in compat
//! mode and in the default mode, against the numbers of the authors' SIMPLE-TS code
//! (`shared/reference/authors-cpp`, copied into the README with their source).

use std::path::Path;

use crate::error::ValidateError;
use crate::methods::simple_ts::case::Case;
use crate::methods::simple_ts::reference::iterate::IterInfo;
use crate::methods::simple_ts::reference::Reference;
use crate::validate::{load_variant, Backend, CaseReport, Check, Row};

/// The mass flow, centreline and temperature extremes, relative (the 1e-8).
const CPP_TOL: f64 = 1e-8;

/// The authors' numbers of one channel (`summary.json`, `centreline.csv` of
/// `shared/reference/authors-cpp/<case>/`).
struct CppChannel {
    /// Case file stem in `validation/authors_cpp/`.
    stem: &'static str,
    /// Label in the report.
    label: &'static str,
    /// Steps to the C++ code's steady state.
    steps: u64,
    /// Mass flow min and max over the u-faces 1 ..= Nx − 1.
    mass: [f64; 2],
    /// p min and max on the centreline (mean of the two rows beside it), computed columns.
    centre_p: [f64; 2],
    /// T min and max there.
    centre_t: [f64; 2],
    /// T min and max over the gas cells (ghost columns included).
    gas_t: [f64; 2],
    /// Centreline y.
    y: f64,
    /// Default mode: largest relative mass-flow difference from the C++ code (a bound; README).
    default_bound: f64,
}

const CHANNELS: [CppChannel; 2] = [
    CppChannel {
        stem: "channel_straight",
        label: "A1 straight",
        steps: 19598,
        mass: [0.586801774304736, 0.586801775423005],
        centre_p: [1.02585835306647, 2.99477703602993],
        centre_t: [0.865083204390744, 0.999315229438497],
        gas_t: [0.8650832043907438, 1.0011909801938426],
        y: 0.5,
        default_bound: 3e-9,
    },
    CppChannel {
        stem: "channel_reservoirs",
        label: "A2 reservoirs",
        steps: 37197,
        mass: [0.524581322474048, 0.524581322928083],
        centre_p: [0.934556881484149, 2.99967394860399],
        centre_t: [0.880022650853281, 0.999957702286149],
        gas_t: [0.8800226508532802, 1.0331745705311421],
        y: 0.525,
        default_bound: 2e-3,
    },
];

/// What one run gives.
struct Measured {
    steps: u64,
    mass: [f64; 2],
    centre_p: [f64; 2],
    centre_t: [f64; 2],
    gas_t: [f64; 2],
    last: IterInfo,
}

/// `authors_cpp`: A1 in compat mode (quick), A1 and A2 in compat and default mode (full).
pub(in crate::validate) fn authors_cpp(
    dir: &Path,
    quick: bool,
    rep: &mut CaseReport,
    bk: &Backend,
) -> Result<(), ValidateError> {
    let n = if quick { 1 } else { CHANNELS.len() };
    for ch in &CHANNELS[..n] {
        let case = load_variant(dir, ch.stem, false)?;
        // The measurements read the reference's face fluxes (the east outer face's among
        // them): this case always runs on the reference (the OpenCL phase form gives the same
        // bits, tests/cpp_opencl.rs).
        bk.record("reference".into());
        let m = measure(&case, ch)?;
        let name = rep.case.clone();
        let l = ch.label;
        let rel = |a: f64, b: f64| a / b - 1.0;
        let mut rows = vec![Row::new(
            &name,
            &format!("{l}, compat: steps to steady state"),
            m.steps as f64,
            ch.steps as f64,
            1.0,
            Check::Absolute,
        )];
        for (what, ours, cpp) in [
            ("mass flow min", m.mass[0], ch.mass[0]),
            ("mass flow max", m.mass[1], ch.mass[1]),
            ("centreline p min", m.centre_p[0], ch.centre_p[0]),
            ("centreline p max", m.centre_p[1], ch.centre_p[1]),
            ("centreline T min", m.centre_t[0], ch.centre_t[0]),
            ("centreline T max", m.centre_t[1], ch.centre_t[1]),
            ("gas T min", m.gas_t[0], ch.gas_t[0]),
            ("gas T max", m.gas_t[1], ch.gas_t[1]),
        ] {
            rows.push(Row::new(
                &name,
                &format!("{l}, compat: {what}, rel. difference from the C++ code"),
                (ours / cpp - 1.0).abs(),
                CPP_TOL,
                CPP_TOL,
                Check::AtMost,
            ));
        }
        rep.rows.extend(rows);
        rep.notes.push(format!(
            "{l}, compat: steady after {} steps (C++ {}); relative to the C++ code: mass flow \
             {:+.3e} … {:+.3e}, gas T {:+.3e} … {:+.3e}; last step's max|Δu| {:.3e}, max|Δv| \
             {:.3e}, first sweep's max|Δp| {:.3e}, max|ΔT| {:.3e}; mass flow {:.10} … {:.10} \
             (C++ {:.10} … {:.10}).",
            m.steps,
            ch.steps,
            rel(m.mass[0], ch.mass[0]),
            rel(m.mass[1], ch.mass[1]),
            rel(m.gas_t[0], ch.gas_t[0]),
            rel(m.gas_t[1], ch.gas_t[1]),
            m.last.du.value,
            m.last.dv.value,
            m.last.dp_first.value,
            m.last.dt_first.value,
            m.mass[0],
            m.mass[1],
            ch.mass[0],
            ch.mass[1],
        ));
        if quick {
            continue;
        }
        // The corrected method on the same case: how far it is from the C++ code.
        let mut v = serde_json::to_value(&case).expect("a case serialises");
        v.as_object_mut().expect("an object").remove("compat");
        let plain = Case::from_json(&v.to_string(), ch.stem)?;
        let d = measure(&plain, ch)?;
        let diff = [0, 1]
            .iter()
            .map(|&k| (d.mass[k] / ch.mass[k] - 1.0).abs())
            .fold(0.0, f64::max);
        rep.rows.push(Row::new(
            &name,
            &format!("{l}, default: mass flow max rel. difference from the C++ code"),
            diff,
            ch.default_bound,
            ch.default_bound,
            Check::AtMost,
        ));
        rep.notes.push(format!(
            "{l}, default (no compat): steady after {} steps; mass flow {:.10} … {:.10} (max \
             rel. difference from the C++ code {diff:.3e}); T {:.10} … {:.10} (C++ {:.10} … \
             {:.10}).",
            d.steps, d.mass[0], d.mass[1], d.gas_t[0], d.gas_t[1], ch.gas_t[0], ch.gas_t[1],
        ));
    }
    Ok(())
}

/// Run `case` on the serial reference to its steady state (the case's own test: the C++ one
/// in compat) and measure it.
fn measure(case: &Case, ch: &CppChannel) -> Result<Measured, ValidateError> {
    let mut r = Reference::new(case);
    let mut last = IterInfo::default();
    let n = case.time.n_steps();
    let mut steps = n;
    for s in 1..=n {
        let rep = crate::methods::simple_ts::backend::Backend::step(&mut r).map_err(|source| {
            ValidateError::Run {
                case: case.name.clone(),
                source,
            }
        })?;
        last = r.last_iter;
        let steady = rep
            .steady
            .unwrap_or(rep.iters == 1 && rep.res.max() < crate::run::STEADY_TOL);
        if steady {
            steps = s;
            break;
        }
    }
    Ok(measured(&r, ch, steps, last))
}

/// The numbers of the C++ summary from the state of `r`.
fn measured(r: &Reference, ch: &CppChannel, steps: u64, last: IterInfo) -> Measured {
    let (g, geo, k, f) = (&r.p.grid, &r.p.geo, &r.state.k, &r.flux);
    // Σ_j ρ_upwind u hy over the rows with gas on both sides of each u-face 1 ..= nx + 1,
    // and the east outer face beyond the ghost column (the C++ face Nx − 1).
    let mut mass = [f64::INFINITY, f64::NEG_INFINITY];
    let see = |m: f64, a: &mut [f64; 2]| {
        a[0] = a[0].min(m);
        a[1] = a[1].max(m);
    };
    for i in 1..=g.nx + 1 {
        let m: f64 = (1..=g.ny)
            .filter(|&j| !geo.solid(g.idx(i - 1, j)) && !geo.solid(g.idx(i, j)))
            .map(|j| f.Fx[g.idx(i, j)])
            .sum();
        see(m, &mut mass);
    }
    if !f.Fx_xe.is_empty() {
        let m: f64 = (1..=g.ny)
            .filter(|&j| !geo.solid(g.idx(g.nx + 1, j)))
            .map(|j| f.Fx_xe[j])
            .sum();
        see(m, &mut mass);
    }
    // The rows whose centres lie just below and just above the centreline.
    let jc = (1..=g.ny).rev().find(|&j| g.y_v[j] < ch.y).unwrap_or(1);
    let (mut centre_p, mut centre_t) = (
        [f64::INFINITY, f64::NEG_INFINITY],
        [f64::INFINITY, f64::NEG_INFINITY],
    );
    for i in 1..=g.nx {
        let (a, b) = (g.idx(i, jc), g.idx(i, jc + 1));
        if geo.fluid(a) && geo.fluid(b) {
            see(0.5 * (k.p[a] + k.p[b]), &mut centre_p);
            see(0.5 * (k.T[a] + k.T[b]), &mut centre_t);
        }
    }
    let mut gas_t = [f64::INFINITY, f64::NEG_INFINITY];
    for j in 1..=g.ny {
        for i in 0..g.nxt {
            if !geo.solid(g.idx(i, j)) {
                see(k.T[g.idx(i, j)], &mut gas_t);
            }
        }
    }
    Measured {
        steps,
        mass,
        centre_p,
        centre_t,
        gas_t,
        last,
    }
}
