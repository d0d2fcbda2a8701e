//! 1D Euler state types of an ideal gas with ratio of specific heats γ: primitive (ρ, u, p),
//! conserved (ρ, ρu, E) with E = p/(γ−1) + ½ρu² the total energy per unit volume, and the flux.

/// Primitive state (density ρ, velocity u, pressure p) of the 1D Euler equations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prim {
    /// Density ρ.
    pub rho: f64,
    /// Velocity u.
    pub u: f64,
    /// Pressure p.
    pub p: f64,
}

/// Conserved state (ρ, ρu, E) of the 1D Euler equations, E = p/(γ−1) + ½ρu² per unit volume.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cons {
    /// Density ρ.
    pub rho: f64,
    /// Momentum ρu.
    pub mom: f64,
    /// Total energy E per unit volume.
    pub energy: f64,
}

impl Prim {
    /// The state (ρ, u, p).
    pub const fn new(rho: f64, u: f64, p: f64) -> Self {
        Prim { rho, u, p }
    }

    /// The vacuum state ρ = u = p = 0.
    pub const VACUUM: Prim = Prim::new(0.0, 0.0, 0.0);

    /// True for vacuum (ρ = 0).
    pub fn is_vacuum(&self) -> bool {
        self.rho == 0.0
    }

    /// Sound speed a = √(γp/ρ) (0 in vacuum).
    pub fn sound_speed(&self, gamma: f64) -> f64 {
        if self.rho > 0.0 {
            (gamma * self.p / self.rho).sqrt()
        } else {
            0.0
        }
    }

    /// Conserved variables (ρ, ρu, p/(γ−1) + ½ρu²).
    pub fn to_cons(&self, gamma: f64) -> Cons {
        Cons {
            rho: self.rho,
            mom: self.rho * self.u,
            energy: self.p / (gamma - 1.0) + 0.5 * self.rho * self.u * self.u,
        }
    }

    /// Physical flux F(W) = (ρu, ρu² + p, u(E + p)).
    pub fn flux(&self, gamma: f64) -> Cons {
        let e = self.to_cons(gamma).energy;
        Cons {
            rho: self.rho * self.u,
            mom: self.rho * self.u * self.u + self.p,
            energy: self.u * (e + self.p),
        }
    }
}

impl Cons {
    /// Primitive variables; ρ = 0 gives [`Prim::VACUUM`].
    pub fn to_prim(&self, gamma: f64) -> Prim {
        if self.rho == 0.0 {
            return Prim::VACUUM;
        }
        let u = self.mom / self.rho;
        Prim::new(
            self.rho,
            u,
            (gamma - 1.0) * (self.energy - 0.5 * self.mom * u),
        )
    }

    pub(crate) fn to_array(self) -> [f64; 3] {
        [self.rho, self.mom, self.energy]
    }

    pub(crate) fn from_array(a: [f64; 3]) -> Self {
        Cons {
            rho: a[0],
            mom: a[1],
            energy: a[2],
        }
    }
}
