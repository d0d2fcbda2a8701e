//! Forces of the gas on each body, from the current iterate (any backend: only the state is
//! read).
//!
//! Every computed fluid cell next to a solid cell of body `b` adds the face between them:
//!
//! * pressure, `F_p = −A ∮ p n dS`, with p of the adjacent fluid cell and `n` the body's
//!   outward normal (A = 1/(γ Ma²), the momentum equation's pressure coefficient);
//! * tangential viscous stress, `τ = B √T_s (q_1 − q_s)/(h/2)` (B the viscous coefficient,
//!   h the fluid cell's width normal to the face): on horizontal faces q = u (x-force), on
//!   vertical faces q = v (y-force). `q_1` is the staggered velocity on each of the fluid cell's
//!   two faces along the wall, `q_s` its wall gas value from the slip closed form (42) and
//!   `T_s` the wall gas temperature (43), both from [`crate::methods::simple_ts::reference::bc`]
//!   (`u_wall_gas`, `v_wall_gas`, `T_wall_gas`, so no-slip and adiabatic walls follow too);
//!   the two faces' stresses are averaged over the cell's face length.
//!
//! Normal viscous stresses (∂u/∂x on vertical faces, ∂v/∂y on horizontal ones) are neglected.
//! Forces are in the momentum equation's units ρ0 V_th² L (per unit depth). Coefficients are
//! `C = F / (½ ρ_ref u_ref² L)`: by default with the inflow state of the first inflow side
//! (west, east, south, north) and `L` the body's height `y1 − y0`; without an inflow side the
//! denominator is 1 and the "coefficients" are the raw total forces. The case's
//! `forces_reference` can give the state as numbers, or as ρ = p/T of one fluid cell at each
//! sample (the authors' C++ code's drag normalisation), and `L`.

use crate::grid::Grid;
use crate::methods::simple_ts::case::{Case, ForcesReference};
use crate::methods::simple_ts::fields::Fields;
use crate::methods::simple_ts::geometry::{Geometry, Ghost};
use crate::methods::simple_ts::physics::Constants;
use crate::methods::simple_ts::reference::bc::{u_wall_gas, v_wall_gas, T_wall_gas};
use crate::methods::simple_ts::reference::density::face_densities;
use crate::methods::simple_ts::reference::plain::Plain;
use crate::methods::simple_ts::reference::{Ctx, Explicit, Fluxes, Pseudo};

/// Pressure and viscous force components on one body.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BodyForce {
    /// Pressure force along x.
    pub fx_p: f64,
    /// Viscous (shear) force along x.
    pub fx_v: f64,
    /// Pressure force along y.
    pub fy_p: f64,
    /// Viscous (shear) force along y.
    pub fy_v: f64,
}

impl BodyForce {
    /// Total x-force.
    pub fn fx(&self) -> f64 {
        self.fx_p + self.fx_v
    }
    /// Total y-force.
    pub fn fy(&self) -> f64 {
        self.fy_p + self.fy_v
    }
}

/// Force integration for the bodies of one case.
#[derive(Debug, Clone)]
pub struct Forces {
    c: Constants,
    tvd: bool,
    dt: f64,
    flux: Fluxes,
    /// Body labels (`name`, or `body<k>` when empty).
    pub names: Vec<String>,
    /// Denominator of the coefficients per body: ½ ρ_ref u_ref² L, or 1 without a reference
    /// state (with a reference cell: of the last [`Forces::compute`]).
    pub scale: Vec<f64>,
    /// True if the coefficients are normalised (an inflow side or a `forces_reference`).
    pub normalised: bool,
    /// Reference length of each body.
    length: Vec<f64>,
    /// A reference cell: its stored index, and T and u that turn its p into ½ ρ u².
    cell: Option<(usize, f64, f64)>,
}

/// Density and speed of the first inflow side, if any.
pub fn inflow_state(geo: &Geometry) -> Option<(f64, f64)> {
    geo.sides.iter().find_map(|s| match *s {
        Ghost::Inflow { u, v, p, t, .. } => Some((p / t, u.hypot(v))),
        _ => None,
    })
}

impl Forces {
    /// Set up for `case` on `grid` with classes `geo`.
    pub fn new(case: &Case, grid: &Grid, geo: &Geometry) -> Forces {
        let n = grid.len();
        let reference = case.forces_reference.as_ref();
        let cell = reference.and_then(|r| reference_cell(r, grid));
        let q = match reference {
            Some(ForcesReference::State { rho, u, .. }) => Some(0.5 * rho * u * u),
            // Replaced at every sample; 1 until the first.
            Some(ForcesReference::Cell { .. }) => Some(1.0),
            _ => inflow_state(geo)
                .map(|(rho, u)| 0.5 * rho * u * u)
                .filter(|q| *q > 0.0),
        };
        let length: Vec<f64> = case
            .bodies
            .iter()
            .map(|b| {
                reference
                    .and_then(|r| r.length())
                    .unwrap_or(b.y[1] - b.y[0])
            })
            .collect();
        let names = case
            .bodies
            .iter()
            .enumerate()
            .map(|(k, b)| b.label(k))
            .collect();
        let scale = length.iter().map(|l| q.map_or(1.0, |q| q * l)).collect();
        Forces {
            c: Constants::new(&case.gas),
            tvd: case.scheme.interpolation == crate::methods::simple_ts::case::Interpolation::Tvd,
            dt: case.time.dt,
            flux: Fluxes {
                rho_u: vec![0.0; n],
                rho_v: vec![0.0; n],
                Fx: vec![0.0; n],
                Fy: vec![0.0; n],
                ..Fluxes::default()
            },
            names,
            scale,
            normalised: q.is_some(),
            length,
            cell,
        }
    }

    /// The stored row of the reference cell, if the coefficients read one.
    pub fn reference_row(&self, g: &Grid) -> Option<usize> {
        self.cell.map(|(c, _, _)| c / g.nxt)
    }

    /// Forces on every body (case order) for the fields `k`.
    pub fn compute(&mut self, g: &Grid, geo: &Geometry, k: &Fields) -> Vec<BodyForce> {
        let nb = self.names.len();
        let mut out = vec![BodyForce::default(); nb];
        if nb == 0 {
            return out;
        }
        if let Some((c, t, u)) = self.cell {
            let q = 0.5 * (k.p[c] / t) * (u * u);
            for (s, l) in self.scale.iter_mut().zip(&self.length) {
                *s = q * l;
            }
        }
        let (ps, ex, pl) = (Pseudo::default(), Explicit::default(), Plain::default());
        let ctx = |f| Ctx {
            g,
            geo,
            c: &self.c,
            k,
            n: k,
            f,
            ps: &ps,
            ex: &ex,
            dt: self.dt,
            tvd: self.tvd,
            explicit: false,
            par: false,
            pl: &pl,
        };
        let (mut flux, none) = (std::mem::take(&mut self.flux), Fluxes::default());
        face_densities(&ctx(&none), &mut flux);
        self.flux = flux;
        let x = ctx(&self.flux);
        let (a, b) = (self.c.a, self.c.b);
        let body = |s: usize| {
            let w = geo.wall_of[s] as usize;
            (geo.solid(s) && w < nb).then_some(w)
        };
        for j in 1..=g.ny {
            for i in 1..=g.nx {
                let ij = g.idx(i, j);
                if !geo.fluid(ij) {
                    continue;
                }
                let p = k.p[ij];
                // Vertical faces (west, east): pressure along x, shear along y from v.
                for (si, sign) in [(i - 1, 1.0), (i + 1, -1.0)] {
                    let Some(bi) = body(g.idx(si, j)) else {
                        continue;
                    };
                    let half = 0.5 * g.hx[i];
                    out[bi].fx_p -= sign * a * p * g.hy[j];
                    let mu = b * T_wall_gas(&x, i, j, si, j, half).sqrt();
                    let tau = |fj: usize| {
                        mu * (k.v[g.idx(i, fj)] - v_wall_gas(&x, i, fj, si, j, half)) / half
                    };
                    let t = 0.5 * (tau(j) + tau(j + 1));
                    out[bi].fy_v += t * g.hy[j];
                }
                // Horizontal faces (south, north): pressure along y, shear along x from u.
                for (sj, sign) in [(j - 1, 1.0), (j + 1, -1.0)] {
                    let Some(bi) = body(g.idx(i, sj)) else {
                        continue;
                    };
                    let half = 0.5 * g.hy[j];
                    out[bi].fy_p -= sign * a * p * g.hx[i];
                    let mu = b * T_wall_gas(&x, i, j, i, sj, half).sqrt();
                    let tau = |fi: usize| {
                        mu * (k.u[g.idx(fi, j)] - u_wall_gas(&x, fi, j, i, sj, half)) / half
                    };
                    let t = 0.5 * (tau(i) + tau(i + 1));
                    out[bi].fx_v += t * g.hx[i];
                }
            }
        }
        out
    }
}

/// The stored index, T and u of a `cell` reference (`None` for the other kinds). The case
/// rules put the point inside the domain.
fn reference_cell(r: &ForcesReference, g: &Grid) -> Option<(usize, f64, f64)> {
    use crate::methods::simple_ts::probes::locate;
    match *r {
        ForcesReference::Cell { x, y, t, u, .. } => {
            let i = locate(&g.x_f, g.nx, x)?;
            let j = locate(&g.y_f, g.ny, y)?;
            Some((g.idx(i, j), t, u))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::simple_ts::backend::Backend;
    use crate::methods::simple_ts::reference::Reference;

    fn square(steps: u64) -> Case {
        let json = format!(
            r#"{{
            "name": "sq",
            "gas": {{ "kn": 0.05 }},
            "grid": {{ "nx": 30, "ny": 20, "x": [0.0, 3.0], "y": [0.0, 2.0] }},
            "bodies": [ {{ "name": "sq", "x": [0.8, 1.2], "y": [0.8, 1.2] }} ],
            "boundaries": {{
                "west": {{ "kind": "inflow", "mach": 2.43 }},
                "east": {{ "kind": "outflow" }},
                "south": {{ "kind": "wall" }},
                "north": {{ "kind": "wall" }}
            }},
            "time": {{ "dt": 0.01, "steps": {steps} }}
        }}"#
        );
        Case::from_json(&json, "test").unwrap()
    }

    #[test]
    fn uniform_pressure_at_rest_gives_no_force() {
        let case = square(1);
        let g = Grid::new(&case.grid, false, false);
        let geo = Geometry::new(&case, &g);
        let mut f = Fields::zeros(g.len());
        f.p.fill(1.7);
        f.T.fill(1.0);
        f.rho.fill(1.7);
        f.Gam.fill(1.0);
        let mut forces = Forces::new(&case, &g, &geo);
        let r = forces.compute(&g, &geo, &f)[0];
        assert!(r.fx_p.abs() < 1e-14 && r.fy_p.abs() < 1e-14, "{r:?}");
        assert_eq!((r.fx_v, r.fy_v), (0.0, 0.0));
        // 0.4 × 0.4 square on a 0.1 grid: 4 cells a side.
        assert_eq!(forces.names, vec!["sq".to_string()]);
        let u = crate::methods::simple_ts::physics::speed_of_mach(2.43, case.gas.gamma);
        assert!((forces.scale[0] - 0.5 * u * u * 0.4).abs() < 1e-12);
        // One face alone carries −A p L.
        let c = Constants::new(&case.gas);
        let mut f2 = f.clone();
        for j in 1..=g.ny {
            for i in 1..=g.nx {
                if g.x_v[i] < 0.8 {
                    f2.p[g.idx(i, j)] = 2.7;
                }
            }
        }
        let r = forces.compute(&g, &geo, &f2)[0];
        assert!((r.fx_p - c.a * 1.0 * 0.4).abs() < 1e-12, "{r:?}");
    }

    #[test]
    fn supersonic_square_has_positive_drag() {
        let case = square(5);
        let mut s = Reference::new(&case);
        for _ in 0..5 {
            s.step().unwrap();
        }
        let g = s.grid().clone();
        let geo = s.geometry().clone();
        let k = s.state().unwrap().k.clone();
        let mut forces = Forces::new(&case, &g, &geo);
        let r = forces.compute(&g, &geo, &k)[0];
        assert!(r.fx_p > 0.0 && r.fx_v > 0.0, "{r:?}");
        assert!(r.fy().abs() < 1e-3 * r.fx(), "symmetric: {r:?}");
    }
}
