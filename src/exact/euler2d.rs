//! 2D Euler state types shared by the smooth 2D exact solutions ([`super::vortex`],
//! [`super::density_wave`]): primitive (ρ, u, v, p), conserved (ρ, ρu, ρv, E) with
//! E = p/(γ−1) + ½ρ(u² + v²) the total energy per unit volume (seed 002's U), and the fluxes.

/// Primitive 2D Euler state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prim2 {
    /// Density ρ.
    pub rho: f64,
    /// x-velocity u.
    pub u: f64,
    /// y-velocity v.
    pub v: f64,
    /// Pressure p.
    pub p: f64,
}

/// Conserved 2D Euler state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cons2 {
    /// Density ρ.
    pub rho: f64,
    /// x-momentum ρu.
    pub mom_x: f64,
    /// y-momentum ρv.
    pub mom_y: f64,
    /// Total energy per unit volume E.
    pub energy: f64,
}

impl Prim2 {
    /// Conserved variables for ratio of specific heats `gamma`.
    pub fn to_cons(&self, gamma: f64) -> Cons2 {
        Cons2 {
            rho: self.rho,
            mom_x: self.rho * self.u,
            mom_y: self.rho * self.v,
            energy: self.p / (gamma - 1.0) + 0.5 * self.rho * (self.u * self.u + self.v * self.v),
        }
    }

    /// x-flux F = (ρu, ρu² + p, ρuv, u(E + p)).
    pub fn flux_x(&self, gamma: f64) -> Cons2 {
        let e = self.to_cons(gamma).energy;
        Cons2 {
            rho: self.rho * self.u,
            mom_x: self.rho * self.u * self.u + self.p,
            mom_y: self.rho * self.u * self.v,
            energy: self.u * (e + self.p),
        }
    }

    /// y-flux G = (ρv, ρuv, ρv² + p, v(E + p)).
    pub fn flux_y(&self, gamma: f64) -> Cons2 {
        let e = self.to_cons(gamma).energy;
        Cons2 {
            rho: self.rho * self.v,
            mom_x: self.rho * self.u * self.v,
            mom_y: self.rho * self.v * self.v + self.p,
            energy: self.v * (e + self.p),
        }
    }
}

impl Cons2 {
    /// The four components as an array (ρ, ρu, ρv, E).
    pub fn to_array(self) -> [f64; 4] {
        [self.rho, self.mom_x, self.mom_y, self.energy]
    }

    /// From an array (ρ, ρu, ρv, E).
    pub fn from_array(a: [f64; 4]) -> Self {
        Cons2 {
            rho: a[0],
            mom_x: a[1],
            mom_y: a[2],
            energy: a[3],
        }
    }

    /// Primitive variables for ratio of specific heats `gamma` (ρ must be > 0).
    pub fn to_prim(&self, gamma: f64) -> Prim2 {
        let (u, v) = (self.mom_x / self.rho, self.mom_y / self.rho);
        let p = (gamma - 1.0) * (self.energy - 0.5 * (self.mom_x * u + self.mom_y * v));
        Prim2 {
            rho: self.rho,
            u,
            v,
            p,
        }
    }
}
