//! The `cese_euler` case file: its own schema (`deny_unknown_fields`) from the shared grid,
//! time and output sections and the explicit methods' sides and regions, and the
//! [`Problem`] it discretises to.
//!
//! ```json
//! { "name": "cese_sod", "method": "cese_euler", "gas": { "gamma": 1.4 },
//!   "scheme": { "alpha": 2 },
//!   "grid": { "nx": 4000, "ny": 1, "x": [0, 2], "y": [0, 1] },
//!   "boundaries": { "west": { "kind": "outflow" }, "east": { "kind": "outflow" } },
//!   "initial": { "state": { "rho": 0.125, "p": 0.1 },
//!                "regions": [ { "x": [0, 1], "state": { "rho": 1, "p": 1 } } ] },
//!   "time": { "cfl": 0.8, "end_time": 0.4 } }
//! ```
//!
//! `grid.ny = 1` is a 1D run (3 variables); `ny ≥ 2` a 2D run. The initial derivatives are
//! zero (the thesis) unless a smooth density wave asks for its exact ones.

use serde::{Deserialize, Serialize};

use super::{Bc, Consts, Mesh, Problem, MAX_ALPHA};
use crate::case::rules::{finite, invalid, num, positive};
use crate::case::{GridSpec, Method, OutputSpec};
use crate::error::ConfigError;
use crate::grid::Grid;
use crate::methods::explicit::case::{
    check_boundaries, check_grid, check_name, check_time, common, parse_for, time_rule, Boundaries,
    ExplicitTime, Region, Side,
};
use crate::methods::shll::case::{EulerState, Gas};

/// Largest CFL number: the scheme is stable up to 1 (seed 000 §3.6).
pub const MAX_CFL: f64 = 1.0;

/// The numerics of a CE/SE case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scheme {
    /// α of the weighted average W0 (default 2, the thesis); an integer 0 … 8 (0: the
    /// central c-scheme derivative).
    #[serde(default = "alpha_default")]
    pub alpha: i32,
}

fn alpha_default() -> i32 {
    2
}

impl Default for Scheme {
    fn default() -> Self {
        Scheme {
            alpha: alpha_default(),
        }
    }
}

/// A sinusoidal density perturbation added to the state of the cells it covers:
/// ρ ← ρ + A sin(k_x x + k_y y + φ), at the underlying velocity and pressure (Shu–Osher's
/// entropy wave, the smooth 2D density wave).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DensityWave {
    /// Amplitude A.
    pub amplitude: f64,
    /// Wavenumbers (k_x, k_y), radians per unit length (k_y ignored in 1D).
    pub k: [f64; 2],
    /// Phase φ (default 0).
    #[serde(default)]
    pub phase: f64,
    /// x extent (open at its start, closed at its end, as the thesis' 0.2 < x ≤ 2; default:
    /// the whole domain).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<[f64; 2]>,
    /// Start with the exact derivatives of the wave (default false: zero, as the thesis).
    #[serde(default)]
    pub exact_derivatives: bool,
}

/// Initial state: the background, then `regions` in order, then the density wave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Initial {
    /// Background state.
    pub state: EulerState,
    /// Regions of other states (closed rectangles or discs, later ones win).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<Region<EulerState>>,
    /// A density wave on top.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub density_wave: Option<DensityWave>,
}

/// A `cese_euler` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"cese_euler"`.
    pub method: Method,
    /// Gas.
    #[serde(default = "default_gas")]
    pub gas: Gas,
    /// Uniform grid; ny = 1 is a 1D run. The integer mesh points are the cell centres.
    pub grid: GridSpec,
    /// Numerics.
    #[serde(default)]
    pub scheme: Scheme,
    /// Sides: `outflow` (the thesis' non-reflective copy), `reflective`, `inflow`,
    /// `periodic`.
    pub boundaries: Boundaries<EulerState>,
    /// Initial state.
    pub initial: Initial,
    /// Time rule.
    pub time: ExplicitTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn default_gas() -> Gas {
    Gas { gamma: 1.4 }
}

fn check_state(path: &str, s: &EulerState) -> Result<(), ConfigError> {
    positive(&format!("{path}.rho"), s.rho)?;
    positive(&format!("{path}.p"), s.p)?;
    finite(&format!("{path}.u"), s.u)?;
    finite(&format!("{path}.v"), s.v)
}

/// The primitive state of a 1D or 2D point, with `v` dropped in 1D.
fn conserved(s: &EulerState, gamma: f64, dims: usize) -> [f64; 4] {
    let c = s.conserved(gamma);
    if dims == 1 {
        // (ρ, ρu, E) with v = 0.
        let e = s.p / (gamma - 1.0) + 0.5 * s.rho * (s.u * s.u);
        [c[0], c[1], e, 0.0]
    } else {
        c
    }
}

impl Case {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<Case, ConfigError> {
        let c: Case = parse_for(text, source, Method::CeseEuler)?;
        c.validate()?;
        Ok(c)
    }

    fn dims(&self) -> usize {
        if self.grid.ny == 1 {
            1
        } else {
            2
        }
    }

    /// Value rules (file order); the first failure names its JSON path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        if self.method != Method::CeseEuler {
            return Err(invalid(
                "method",
                self.method,
                format!("must be {}", Method::CeseEuler),
            ));
        }
        let g = self.gas.gamma;
        if !(g > 1.0 && g < 3.0) {
            return Err(invalid("gas.gamma", num(g), "must be in (1, 3)"));
        }
        check_grid(&self.grid)?;
        let a = self.scheme.alpha;
        if !(0..=MAX_ALPHA).contains(&a) {
            return Err(invalid(
                "scheme.alpha",
                a,
                format!(
                    "must be an integer in [0, {MAX_ALPHA}] (|x|^alpha is a product of \
                     alpha factors, the same bits on every backend)"
                ),
            ));
        }
        check_boundaries(&self.boundaries, self.dims(), true)?;
        for (name, s) in [
            ("west", Some(&self.boundaries.west)),
            ("east", Some(&self.boundaries.east)),
            ("south", self.boundaries.south.as_ref()),
            ("north", self.boundaries.north.as_ref()),
        ] {
            if let Some(Side::Inflow { state }) = s {
                check_state(&format!("boundaries.{name}.state"), state)?;
            }
        }
        check_state("initial.state", &self.initial.state)?;
        for (k, r) in self.initial.regions.iter().enumerate() {
            r.check(&format!("initial.regions[{k}]"))?;
            check_state(&format!("initial.regions[{k}].state"), &r.state)?;
        }
        if let Some(w) = &self.initial.density_wave {
            finite("initial.density_wave.amplitude", w.amplitude)?;
            finite("initial.density_wave.k[0]", w.k[0])?;
            finite("initial.density_wave.k[1]", w.k[1])?;
            finite("initial.density_wave.phase", w.phase)?;
            if let Some(x) = w.x {
                crate::methods::explicit::case::closed_extent("initial.density_wave.x", x)?;
            }
            // The smallest density it can make must stay positive.
            let floor = std::iter::once(self.initial.state.rho)
                .chain(self.initial.regions.iter().map(|r| r.state.rho))
                .fold(f64::INFINITY, f64::min);
            if w.amplitude.abs() >= floor {
                return Err(invalid(
                    "initial.density_wave.amplitude",
                    num(w.amplitude),
                    format!(
                        "|amplitude| must be below the smallest density of the states ({})",
                        num(floor)
                    ),
                ));
            }
        }
        check_time(&self.time, MAX_CFL)
    }

    /// The sides as ghost rules.
    fn sides(&self) -> [Bc; 4] {
        let (g, d) = (self.gas.gamma, self.dims());
        let one = |s: Option<&Side<EulerState>>| match s {
            None | Some(Side::Outflow) => Bc::Outflow,
            Some(Side::Reflective) => Bc::Reflective,
            Some(Side::Periodic) => Bc::Periodic,
            Some(Side::Inflow { state }) => Bc::Inflow(conserved(state, g, d)),
        };
        let b = &self.boundaries;
        [
            one(Some(&b.west)),
            one(Some(&b.east)),
            one(b.south.as_ref()),
            one(b.north.as_ref()),
        ]
    }

    /// The conserved state and its x- and y-derivatives at the centre (x, y) of a cell of
    /// widths (dx, dy).
    pub fn initial_at(&self, x: f64, y: f64, dx: f64, dy: f64) -> [[f64; 4]; 3] {
        let (g, d) = (self.gas.gamma, self.dims());
        let init = &self.initial;
        let mut s = init.state;
        for r in &init.regions {
            if r.contains(x, y, dx, dy) {
                s = r.state;
            }
        }
        let mut grad = [[0.0; 4]; 2];
        if let Some(w) = &init.density_wave {
            let inside = w.x.map_or(true, |e| x > e[0] && x <= e[1]);
            if inside {
                let yy = if d == 2 { y } else { 0.0 };
                let ph = w.k[0] * x + w.k[1] * yy + w.phase;
                s.rho += w.amplitude * ph.sin();
                if w.exact_derivatives {
                    let c = w.amplitude * ph.cos();
                    let ke = 0.5 * (s.u * s.u + if d == 2 { s.v * s.v } else { 0.0 });
                    for (axis, kk) in [w.k[0], if d == 2 { w.k[1] } else { 0.0 }]
                        .into_iter()
                        .enumerate()
                    {
                        let r = c * kk;
                        grad[axis] = if d == 2 {
                            [r, r * s.u, r * s.v, r * ke]
                        } else {
                            [r, r * s.u, r * ke, 0.0]
                        };
                    }
                }
            }
        }
        [conserved(&s, g, d), grad[0], grad[1]]
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        let mesh = Mesh::new(&self.grid);
        let c = Consts::new(&mesh, self.gas.gamma, self.scheme.alpha);
        let mut q = vec![0.0; mesh.len()];
        let (nv, ns) = (mesh.nv, mesh.ns);
        for j in 0..mesh.ny {
            for i in 0..mesh.nx {
                let (x, y) = mesh.centre(i, j);
                let s = self.initial_at(x, y, mesh.dx, mesh.dy);
                let k = mesh.idx(i, j);
                for v in 0..nv {
                    q[v * ns + k] = s[0][v];
                    q[(nv + v) * ns + k] = s[1][v];
                    if mesh.dims == 2 {
                        q[(2 * nv + v) * ns + k] = s[2][v];
                    }
                }
            }
        }
        let sides = self.sides();
        let px = sides[0] == Bc::Periodic;
        let py = sides[2] == Bc::Periodic;
        let (rule, t_end, steps) = time_rule(&self.time, None);
        Problem {
            mesh,
            c,
            sides,
            rule,
            t_end,
            total_steps: steps,
            initial: q,
            grid: Grid::new(&self.grid, px, py),
            common: self.common(),
        }
    }

    /// What the run driver and the output need.
    pub fn common(&self) -> crate::case::Common {
        let (rule, _, steps) = time_rule(&self.time, None);
        common(
            &self.name,
            &self.description,
            Method::CeseEuler,
            format!("alpha-{}", self.scheme.alpha),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}
