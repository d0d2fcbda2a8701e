//! The case files of the three SHLL methods (`shll_euler`, `shll_shallow_water`,
//! `shll_convection_diffusion`): each its own schema with `deny_unknown_fields`, built from the
//! shared grid and output sections and the explicit sections of
//! [`crate::methods::explicit::case`]; and the [`Problem`] each one discretises to.
//!
//! Units are those of the case: SHLL is written for any consistent non-dimensional (or SI)
//! set; the configs use ρ, p of order 1 (Euler), metres and seconds (shallow water).

use serde::{Deserialize, Serialize};

use crate::case::rules::{finite, invalid, non_negative, num, positive};
use crate::case::{GridSpec, Method, OutputSpec};
use crate::error::ConfigError;
use crate::grid::Grid;
use crate::methods::explicit::case::{
    check_boundaries, check_grid, check_name, check_time, common, parse_for, sides, time_rule,
    Boundaries, ExplicitTime, Rect, Region, ScalarInitial, ScalarState,
};
use crate::methods::explicit::{fill, solid_mask, Flux, Limiter, Mesh, Numerics, Problem, System};

/// Face reconstruction (and with it the time integration).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Reconstruction {
    /// Cell values, forward Euler: the paper's first order in space and time.
    #[default]
    FirstOrder,
    /// MUSCL with a limiter, SSP-RK2 (second order).
    Muscl,
}

/// The numerics of an SHLL case.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scheme {
    /// `shll` (default), `hll` or `rusanov`.
    #[serde(default)]
    pub flux: Flux,
    /// `first_order` (default) or `muscl`.
    #[serde(default)]
    pub reconstruction: Reconstruction,
    /// `minmod` (default) or `van_leer` (MUSCL only).
    #[serde(default)]
    pub limiter: Limiter,
    /// Clamp χ to [−1, 1] (default true, spec §3.3; false reproduces the paper's formula).
    #[serde(default = "yes")]
    pub clamp_chi: bool,
    /// SHLL dissipation coefficient D (default 1; D < 1 is not monotone, spec §3.3).
    #[serde(default = "one")]
    pub dissipation: f64,
}

fn yes() -> bool {
    true
}

fn one() -> f64 {
    1.0
}

impl Default for Scheme {
    fn default() -> Self {
        Scheme {
            flux: Flux::Shll,
            reconstruction: Reconstruction::FirstOrder,
            limiter: Limiter::Minmod,
            clamp_chi: true,
            dissipation: 1.0,
        }
    }
}

impl Scheme {
    /// The numerics it selects.
    pub fn numerics(&self) -> Numerics {
        Numerics {
            flux: self.flux,
            muscl: self.reconstruction == Reconstruction::Muscl,
            limiter: self.limiter,
            clamp_chi: self.clamp_chi,
            d: self.dissipation,
        }
    }

    fn check(&self) -> Result<(), ConfigError> {
        let d = self.dissipation;
        if !(d > 0.0 && d <= 1.0) {
            return Err(invalid("scheme.dissipation", num(d), "must be in (0, 1]"));
        }
        if d < 1.0 {
            log::warn!(
                "scheme.dissipation = {d} < 1: the scheme is not monotone (seed 002 spec §3.3)"
            );
        }
        Ok(())
    }

    /// Ghost layers: 2 for MUSCL.
    pub fn ghosts(&self) -> usize {
        if self.reconstruction == Reconstruction::Muscl {
            2
        } else {
            1
        }
    }
}

/// Largest CFL number accepted by the SHLL methods.
pub const MAX_CFL: f64 = 1.0;

/// Gas of the Euler method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gas {
    /// Ratio of specific heats γ (default 1.4).
    #[serde(default = "gamma_air")]
    pub gamma: f64,
}

fn gamma_air() -> f64 {
    1.4
}

/// A primitive Euler state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EulerState {
    /// Density.
    pub rho: f64,
    /// Velocity x-component.
    #[serde(default)]
    pub u: f64,
    /// Velocity y-component.
    #[serde(default)]
    pub v: f64,
    /// Pressure.
    pub p: f64,
}

impl EulerState {
    /// Conserved (ρ, ρu, ρv, E).
    pub fn conserved(&self, gamma: f64) -> [f64; 4] {
        let (r, u, v) = (self.rho, self.u, self.v);
        [
            r,
            r * u,
            r * v,
            self.p / (gamma - 1.0) + 0.5 * r * (u * u + v * v),
        ]
    }

    fn check(&self, path: &str) -> Result<(), ConfigError> {
        positive(&format!("{path}.rho"), self.rho)?;
        positive(&format!("{path}.p"), self.p)?;
        finite(&format!("{path}.u"), self.u)?;
        finite(&format!("{path}.v"), self.v)
    }
}

/// Shu's isentropic vortex on the background state (which must have ρ = p = 1; its velocity
/// is the free stream): exact cell averages (`exact::vortex`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vortex {
    /// Strength β.
    pub beta: f64,
    /// Centre at t = 0.
    pub centre: [f64; 2],
}

/// Initial state of the Euler method: the background, then `regions` in order (or a vortex).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EulerInitial {
    /// Background state.
    pub state: EulerState,
    /// Regions of other states (shock tubes, bubbles, post-shock gas).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<Region<EulerState>>,
    /// An isentropic vortex instead of regions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vortex: Option<Vortex>,
}

/// A `shll_euler` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EulerCase {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"shll_euler"`.
    pub method: Method,
    /// Gas.
    #[serde(default = "default_gas")]
    pub gas: Gas,
    /// Uniform grid; ny = 1 is a 1D run.
    pub grid: GridSpec,
    /// Numerics.
    #[serde(default)]
    pub scheme: Scheme,
    /// Sides.
    pub boundaries: Boundaries<EulerState>,
    /// Internal walls: cells whose centres lie strictly inside are solid (reflective faces).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<Rect>,
    /// Initial state.
    pub initial: EulerInitial,
    /// Time rule.
    pub time: ExplicitTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn default_gas() -> Gas {
    Gas { gamma: 1.4 }
}

/// Water of the shallow-water method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Water {
    /// Gravity g (default 9.81).
    #[serde(default = "gravity")]
    pub gravity: f64,
    /// Depth below which a cell is dry: no velocity (default 1e-6).
    #[serde(default = "dry_depth")]
    pub dry_depth: f64,
}

fn gravity() -> f64 {
    9.81
}

fn dry_depth() -> f64 {
    1e-6
}

/// A shallow-water state.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwState {
    /// Depth h ≥ 0.
    pub h: f64,
    /// Velocity x-component.
    #[serde(default)]
    pub u: f64,
    /// Velocity y-component.
    #[serde(default)]
    pub v: f64,
}

impl SwState {
    /// Conserved (φ, φu, φv), φ = g h.
    pub fn conserved(&self, g: f64) -> [f64; 4] {
        let phi = g * self.h;
        [phi, phi * self.u, phi * self.v, 0.0]
    }

    fn check(&self, path: &str) -> Result<(), ConfigError> {
        non_negative(&format!("{path}.h"), self.h)?;
        finite(&format!("{path}.u"), self.u)?;
        finite(&format!("{path}.v"), self.v)
    }
}

/// Initial state of the shallow-water method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SwInitial {
    /// Background state.
    pub state: SwState,
    /// Regions of other states (the reservoir of a dam break).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub regions: Vec<Region<SwState>>,
}

/// A `shll_shallow_water` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShallowWaterCase {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"shll_shallow_water"`.
    pub method: Method,
    /// Gravity and dry threshold.
    #[serde(default = "default_water")]
    pub water: Water,
    /// Uniform grid; ny = 1 is a 1D run.
    pub grid: GridSpec,
    /// Numerics.
    #[serde(default)]
    pub scheme: Scheme,
    /// Sides.
    pub boundaries: Boundaries<SwState>,
    /// Internal walls (the dam).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub walls: Vec<Rect>,
    /// Initial state.
    pub initial: SwInitial,
    /// Time rule.
    pub time: ExplicitTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn default_water() -> Water {
    Water {
        gravity: gravity(),
        dry_depth: dry_depth(),
    }
}

/// Transport coefficients of the convection–diffusion method.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transport {
    /// Velocity (c_x, c_y).
    pub velocity: [f64; 2],
    /// Diffusion coefficient ν ≥ 0.
    pub diffusivity: f64,
    /// Numerical speed a per axis of the SHLL split (default |c|: exact upwinding; must be
    /// ≥ |c|).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed: Option<[f64; 2]>,
}

/// A `shll_convection_diffusion` case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransportCase {
    /// Case name (output stem).
    pub name: String,
    /// Free text.
    #[serde(default)]
    pub description: String,
    /// `"shll_convection_diffusion"`.
    pub method: Method,
    /// Velocity, diffusivity, numerical speed.
    pub transport: Transport,
    /// Uniform grid; ny = 1 is a 1D run.
    pub grid: GridSpec,
    /// Numerics.
    #[serde(default)]
    pub scheme: Scheme,
    /// Sides (inflow, outflow, periodic).
    pub boundaries: Boundaries<ScalarState>,
    /// Initial field.
    pub initial: ScalarInitial,
    /// Time rule.
    pub time: ExplicitTime,
    /// Output controls.
    #[serde(default)]
    pub output: OutputSpec,
}

fn dims(g: &GridSpec) -> usize {
    if g.ny == 1 {
        1
    } else {
        2
    }
}

fn periodic<S>(b: &Boundaries<S>) -> (bool, bool) {
    use crate::methods::explicit::case::Side;
    (
        matches!(b.west, Side::Periodic),
        matches!(b.south, Some(Side::Periodic)),
    )
}

fn check_method(m: Method, want: Method) -> Result<(), ConfigError> {
    if m == want {
        Ok(())
    } else {
        Err(invalid("method", m, format!("must be {want}")))
    }
}

fn check_walls(walls: &[Rect]) -> Result<(), ConfigError> {
    for (k, w) in walls.iter().enumerate() {
        crate::methods::explicit::case::closed_extent(&format!("walls[{k}].x"), w.x)?;
        crate::methods::explicit::case::closed_extent(&format!("walls[{k}].y"), w.y)?;
    }
    Ok(())
}

impl EulerCase {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<EulerCase, ConfigError> {
        let c: EulerCase = parse_for(text, source, Method::ShllEuler)?;
        c.validate()?;
        Ok(c)
    }

    /// Value rules (file order); the first failure names its JSON path.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        check_method(self.method, Method::ShllEuler)?;
        let g = self.gas.gamma;
        if !(g > 1.0 && g < 3.0) {
            return Err(invalid("gas.gamma", num(g), "must be in (1, 3)"));
        }
        check_grid(&self.grid)?;
        self.scheme.check()?;
        check_boundaries(&self.boundaries, dims(&self.grid), true)?;
        for (name, s) in [
            ("west", Some(&self.boundaries.west)),
            ("east", Some(&self.boundaries.east)),
            ("south", self.boundaries.south.as_ref()),
            ("north", self.boundaries.north.as_ref()),
        ] {
            if let Some(crate::methods::explicit::case::Side::Inflow { state }) = s {
                state.check(&format!("boundaries.{name}.state"))?;
            }
        }
        check_walls(&self.walls)?;
        self.initial.state.check("initial.state")?;
        for (k, r) in self.initial.regions.iter().enumerate() {
            r.check(&format!("initial.regions[{k}]"))?;
            r.state.check(&format!("initial.regions[{k}].state"))?;
        }
        if let Some(v) = &self.initial.vortex {
            non_negative("initial.vortex.beta", v.beta)?;
            let s = &self.initial.state;
            if s.rho != 1.0 || s.p != 1.0 {
                return Err(invalid(
                    "initial.state",
                    format!("rho = {}, p = {}", num(s.rho), num(s.p)),
                    "the vortex is defined on rho = p = 1",
                ));
            }
            if !self.initial.regions.is_empty() {
                return Err(invalid(
                    "initial.vortex",
                    "with regions",
                    "give a vortex or regions",
                ));
            }
        }
        check_time(&self.time, MAX_CFL)
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        let gamma = self.gas.gamma;
        let mesh = Mesh::new(&self.grid, self.scheme.ghosts());
        let (px, py) = periodic(&self.boundaries);
        let init = &self.initial;
        let vortex = init.vortex.map(|v| {
            let b = crate::exact::periodic::PeriodicBox {
                xmin: self.grid.x[0],
                ymin: self.grid.y[0],
                lx: self.grid.x[1] - self.grid.x[0],
                ly: self.grid.y[1] - self.grid.y[0],
            };
            crate::exact::vortex::IsentropicVortex::new(
                v.beta,
                gamma,
                (v.centre[0], v.centre[1]),
                (init.state.u, init.state.v),
                (px && py).then_some(b),
            )
            .expect("validated vortex")
        });
        let (dx, dy) = (mesh.dx, mesh.dy);
        let initial = fill(&mesh, 4, |x, y| {
            if let Some(v) = &vortex {
                let c = v
                    .cell_average(x - 0.5 * dx, x + 0.5 * dx, y - 0.5 * dy, y + 0.5 * dy, 0.0)
                    .expect("vortex cell average");
                return [c.rho, c.mom_x, c.mom_y, c.energy];
            }
            let mut s = init.state;
            for r in &init.regions {
                if r.contains(x, y, dx, dy) {
                    s = r.state;
                }
            }
            s.conserved(gamma)
        });
        let (rule, t_end, steps) = time_rule(&self.time, None);
        let num = self.scheme.numerics();
        Problem {
            method: Method::ShllEuler,
            system: System::Euler { gamma },
            num,
            sides: sides(&self.boundaries, |s| s.conserved(gamma).to_vec()),
            solid: solid_mask(&mesh, &self.walls),
            rule,
            t_end,
            total_steps: steps,
            initial,
            grid: Grid::new(&self.grid, px, py),
            common: self.common(),
            mesh,
        }
    }

    /// What the run driver and the output need.
    pub fn common(&self) -> crate::case::Common {
        let (rule, _, steps) = time_rule(&self.time, None);
        common(
            &self.name,
            &self.description,
            Method::ShllEuler,
            self.scheme.numerics().label(),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}

impl ShallowWaterCase {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<ShallowWaterCase, ConfigError> {
        let c: ShallowWaterCase = parse_for(text, source, Method::ShllShallowWater)?;
        c.validate()?;
        Ok(c)
    }

    /// Value rules (file order).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        check_method(self.method, Method::ShllShallowWater)?;
        positive("water.gravity", self.water.gravity)?;
        non_negative("water.dry_depth", self.water.dry_depth)?;
        check_grid(&self.grid)?;
        self.scheme.check()?;
        check_boundaries(&self.boundaries, dims(&self.grid), true)?;
        for (name, s) in [
            ("west", Some(&self.boundaries.west)),
            ("east", Some(&self.boundaries.east)),
            ("south", self.boundaries.south.as_ref()),
            ("north", self.boundaries.north.as_ref()),
        ] {
            if let Some(crate::methods::explicit::case::Side::Inflow { state }) = s {
                state.check(&format!("boundaries.{name}.state"))?;
            }
        }
        check_walls(&self.walls)?;
        self.initial.state.check("initial.state")?;
        for (k, r) in self.initial.regions.iter().enumerate() {
            r.check(&format!("initial.regions[{k}]"))?;
            r.state.check(&format!("initial.regions[{k}].state"))?;
        }
        check_time(&self.time, MAX_CFL)
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        let g = self.water.gravity;
        let mesh = Mesh::new(&self.grid, self.scheme.ghosts());
        let (px, py) = periodic(&self.boundaries);
        let (dx, dy) = (mesh.dx, mesh.dy);
        let initial = fill(&mesh, 3, |x, y| {
            let mut s = self.initial.state;
            for r in &self.initial.regions {
                if r.contains(x, y, dx, dy) {
                    s = r.state;
                }
            }
            s.conserved(g)
        });
        let (rule, t_end, steps) = time_rule(&self.time, None);
        Problem {
            method: Method::ShllShallowWater,
            system: System::ShallowWater {
                g,
                phi_dry: g * self.water.dry_depth,
            },
            num: self.scheme.numerics(),
            sides: sides(&self.boundaries, |s| s.conserved(g)[..3].to_vec()),
            solid: solid_mask(&mesh, &self.walls),
            rule,
            t_end,
            total_steps: steps,
            initial,
            grid: Grid::new(&self.grid, px, py),
            common: self.common(),
            mesh,
        }
    }

    /// What the run driver and the output need.
    pub fn common(&self) -> crate::case::Common {
        let (rule, _, steps) = time_rule(&self.time, None);
        common(
            &self.name,
            &self.description,
            Method::ShllShallowWater,
            self.scheme.numerics().label(),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}

impl TransportCase {
    /// Parse and validate.
    pub fn from_json(text: &str, source: &str) -> Result<TransportCase, ConfigError> {
        let c: TransportCase = parse_for(text, source, Method::ShllConvectionDiffusion)?;
        c.validate()?;
        Ok(c)
    }

    /// The numerical speeds (a_x, a_y): given, or |c|.
    pub fn speeds(&self) -> [f64; 2] {
        let c = self.transport.velocity;
        self.transport.speed.unwrap_or([c[0].abs(), c[1].abs()])
    }

    /// Value rules (file order).
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_name(&self.name)?;
        check_method(self.method, Method::ShllConvectionDiffusion)?;
        let t = &self.transport;
        finite("transport.velocity[0]", t.velocity[0])?;
        finite("transport.velocity[1]", t.velocity[1])?;
        non_negative("transport.diffusivity", t.diffusivity)?;
        let a = self.speeds();
        for (ax, &aa) in a.iter().enumerate() {
            if !(aa.is_finite() && aa >= t.velocity[ax].abs()) {
                return Err(invalid(
                    format!("transport.speed[{ax}]"),
                    num(aa),
                    format!(
                        "must be finite and >= |velocity[{ax}]| = {}",
                        num(t.velocity[ax].abs())
                    ),
                ));
            }
        }
        check_grid(&self.grid)?;
        if self.grid.ny == 1 && t.velocity[1] != 0.0 {
            return Err(invalid(
                "transport.velocity[1]",
                num(t.velocity[1]),
                "must be 0 in 1D (grid.ny = 1)",
            ));
        }
        self.scheme.check()?;
        check_boundaries(&self.boundaries, dims(&self.grid), false)?;
        self.initial.check()?;
        check_time(&self.time, MAX_CFL)
    }

    /// The discretised problem.
    pub fn problem(&self) -> Problem {
        let mesh = Mesh::new(&self.grid, self.scheme.ghosts());
        let (px, py) = periodic(&self.boundaries);
        let (dx, dy, d) = (mesh.dx, mesh.dy, mesh.dims);
        let initial = fill(&mesh, 1, |x, y| {
            [self.initial.at(x, y, dx, dy, d), 0.0, 0.0, 0.0]
        });
        let (rule, t_end, steps) = time_rule(&self.time, None);
        Problem {
            method: Method::ShllConvectionDiffusion,
            system: System::Transport {
                c: self.transport.velocity,
                a: self.speeds(),
                nu: self.transport.diffusivity,
            },
            num: self.scheme.numerics(),
            sides: sides(&self.boundaries, |s| vec![s.value]),
            solid: None,
            rule,
            t_end,
            total_steps: steps,
            initial,
            grid: Grid::new(&self.grid, px, py),
            common: self.common(),
            mesh,
        }
    }

    /// What the run driver and the output need.
    pub fn common(&self) -> crate::case::Common {
        let (rule, _, steps) = time_rule(&self.time, None);
        common(
            &self.name,
            &self.description,
            Method::ShllConvectionDiffusion,
            self.scheme.numerics().label(),
            &self.grid,
            rule,
            steps,
            &self.output,
            serde_json::to_value(self).expect("a case serialises"),
        )
    }
}
