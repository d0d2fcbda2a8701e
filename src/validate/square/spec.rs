//! What each confined-square study runs and asserts: the schemes, the sampling of a run
//! ([`Averaging`]), the grid levels and grid sequencing ([`Study`], [`Warm`]), the bounds
//! ([`Tolerances`]), and the two studies ([`SUPERSONIC`], [`LOW_SPEED`]).

use crate::methods::simple_ts::case::{Convection, Interpolation};

/// The four schemes, in report order.
pub const SCHEMES: [(Convection, Interpolation); 4] = [
    (Convection::Implicit, Interpolation::Upwind),
    (Convection::Implicit, Interpolation::Tvd),
    (Convection::Explicit, Interpolation::Upwind),
    (Convection::Explicit, Interpolation::Tvd),
];

/// Short name of a scheme: `implicit-upwind` etc.
pub fn scheme_name(s: (Convection, Interpolation)) -> String {
    format!("{:?}-{:?}", s.0, s.1).to_lowercase()
}

/// How one run is sampled.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Averaging {
    /// The averaging window starts after this fraction of the steps.
    pub from: f64,
    /// About this many samples in the window (every step if the window is shorter).
    pub samples: u64,
    /// Initial v = kick × u_in on the v-faces within 3 L behind the body and 1.5 L of its
    /// centreline (0: none). It breaks
    /// the mirror symmetry, so that shedding starts from it rather than from round-off.
    pub kick: f64,
}

/// Grid sequencing of a steady study (`docs/decisions.md`): the finest level starts from the
/// final state of the level below it, carried to its grid (`prolong`), and runs for
/// `duration` instead of from the initial state to the case's end time. To show that the start
/// does not change the metrics, the level below the finest is also run that way (warm from the
/// level below it) and compared with its own cold run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Warm {
    /// Simulated time of a warm-started run.
    pub duration: f64,
}

/// What one case studies; the grid, Δt and the grid-study scheme come from the case file.
#[derive(Debug, Clone, Copy)]
pub struct Study {
    /// Case file stem in the case directory.
    pub stem: &'static str,
    /// Refinement factors of the grid levels relative to the case file (full, quick), at
    /// least two, each twice the previous.
    pub levels: [&'static [u32]; 2],
    /// Δt divisor of each level (full, quick): its refinement factor, or more where the finer
    /// grid needs a smaller step for loop 2 to converge (README).
    pub dt_div: [&'static [u32]; 2],
    /// The level (index into `levels`) on which the four schemes run (full, quick).
    pub scheme_level: [usize; 2],
    /// Sampling of every run (full, quick).
    pub avg: [Averaging; 2],
    /// Tolerances and references (full, quick).
    pub tol: [Tolerances; 2],
    /// Grid sequencing of the finest level (full, quick); `None`: every level starts cold.
    pub warm: [Option<Warm>; 2],
}

/// The bounds a study asserts; README explains each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerances {
    /// Relative change of C_d between the two finest grids.
    pub cd_change: f64,
    /// Relative change of the stand-off distance / recirculation length between the two
    /// finest grids.
    pub length_change: f64,
    /// Relative change of the Strouhal number between the two finest grids.
    pub st_change: f64,
    /// Largest spread (max − min)/mean of C_d over the four schemes (f64::INFINITY: noted,
    /// not asserted).
    pub cd_spread: f64,
    /// Largest relative C_d difference of implicit and explicit convection with the same
    /// interpolation.
    pub pair: f64,
    /// Largest C_d drift over the averaging window of a steady case (f64::INFINITY: the case
    /// is not steady).
    pub drift: f64,
    /// Largest stand-off drift over the averaging window of a supersonic case (a run's
    /// `SquareRun::standoff_drift`; f64::INFINITY: not asserted).
    pub standoff_drift: f64,
    /// Published band of the finest-grid C_d: (low, high); NaN: none.
    pub cd_band: (f64, f64),
    /// Published band of the Strouhal number; NaN: none.
    pub st_band: (f64, f64),
    /// Band of the finest-grid recirculation length (or stand-off); NaN: none.
    pub length_band: (f64, f64),
    /// Largest relative difference of C_d and of the length metric between the warm- and
    /// the cold-started run of the level below the finest (with [`Study::warm`]).
    pub warm: (f64, f64),
}

/// The supersonic confined square (M = 2.43, Kn = 0.05): grid levels h = 1/5 … 1/80 (quick:
/// 1/2, 1/4), implicit upwind, schemes on h = 1/20 (quick: 1/4). Δt ∝ h down to 1/20, half
/// that from 1/40 on (README: loop 2 diverged on 1/40 at Δt ∝ h).
pub const SUPERSONIC: Study = Study {
    stem: "case",
    levels: [&[1, 2, 4, 8, 16], &[1, 2]],
    dt_div: [&[1, 2, 4, 16, 32], &[1, 2]],
    scheme_level: [2, 1],
    avg: [Averaging {
        from: 0.75,
        samples: 50,
        kick: 0.0,
    }; 2],
    tol: [
        Tolerances {
            cd_change: 0.02,
            length_change: 0.03,
            st_change: f64::NAN,
            cd_spread: 0.03,
            pair: 5e-3,
            drift: 2e-3,
            standoff_drift: 1e-3,
            cd_band: (f64::NAN, f64::NAN),
            st_band: (f64::NAN, f64::NAN),
            length_band: (f64::NAN, f64::NAN),
            warm: (2e-3, 3e-3),
        },
        Tolerances {
            cd_change: 0.25,
            length_change: 0.30,
            st_change: f64::NAN,
            cd_spread: 0.10,
            pair: 5e-3,
            drift: 1e-2,
            standoff_drift: 5e-2,
            cd_band: (f64::NAN, f64::NAN),
            st_band: (f64::NAN, f64::NAN),
            length_band: (f64::NAN, f64::NAN),
            warm: (f64::NAN, f64::NAN),
        },
    ],
    warm: [Some(Warm { duration: 15.0 }), None],
};

/// The low-speed confined square (M = 0.1, Kn = 0.00194, Re ≈ 85): grid levels h = 1/5 …
/// 1/80 (quick: 1/2, 1/4), implicit TVD, schemes on h = 1/5 (quick: 1/2).
pub const LOW_SPEED: Study = Study {
    stem: "case",
    levels: [&[1, 2, 4, 8, 16], &[1, 2]],
    dt_div: [&[1, 2, 4, 8, 16], &[1, 2]],
    scheme_level: [0, 0],
    avg: [
        Averaging {
            from: 0.6,
            samples: 400,
            kick: 0.5,
        },
        Averaging {
            from: 0.6,
            samples: 100,
            kick: 0.0,
        },
    ],
    tol: [
        Tolerances {
            cd_change: 0.02,
            length_change: 0.12,
            st_change: 0.02,
            cd_spread: f64::INFINITY,
            pair: 0.01,
            drift: f64::INFINITY,
            standoff_drift: f64::INFINITY,
            cd_band: (1.40, 1.85),
            st_band: (0.12, 0.17),
            length_band: (f64::NAN, f64::NAN),
            warm: (f64::NAN, f64::NAN),
        },
        Tolerances {
            cd_change: 0.30,
            length_change: 0.50,
            st_change: 0.30,
            cd_spread: f64::INFINITY,
            pair: 0.02,
            drift: f64::INFINITY,
            standoff_drift: f64::INFINITY,
            cd_band: (f64::NAN, f64::NAN),
            st_band: (f64::NAN, f64::NAN),
            length_band: (0.5, 5.0),
            warm: (f64::NAN, f64::NAN),
        },
    ],
    warm: [None, None],
};
