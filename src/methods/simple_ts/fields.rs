//! Flow fields on the padded grid (spec §2.1): p, T, ρ, Γ = √T at cell centres, u on west
//! faces, v on south faces, all indexed like the cells (`i + j*NX`).
#![allow(non_snake_case)]

/// One set of primitive fields (an iterate or a time level).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fields {
    /// Velocity along x on the west face of each cell.
    pub u: Vec<f64>,
    /// Velocity along y on the south face of each cell.
    pub v: Vec<f64>,
    /// Pressure (units of p0).
    pub p: Vec<f64>,
    /// Temperature (units of T0).
    pub T: Vec<f64>,
    /// Density ρ = p/T (units of ρ0); 0 in solids.
    pub rho: Vec<f64>,
    /// Γ = √T, the hard-sphere viscosity/conductivity factor.
    pub Gam: Vec<f64>,
}

impl Fields {
    /// Fields of `n` stored cells, all zero.
    pub fn zeros(n: usize) -> Fields {
        Fields {
            u: vec![0.0; n],
            v: vec![0.0; n],
            p: vec![0.0; n],
            T: vec![0.0; n],
            rho: vec![0.0; n],
            Gam: vec![0.0; n],
        }
    }

    /// Number of stored cells.
    pub fn len(&self) -> usize {
        self.p.len()
    }

    /// True if there are no cells.
    pub fn is_empty(&self) -> bool {
        self.p.is_empty()
    }
}

/// The state of a run: time level n and the current loop-2 iterate k.
#[derive(Debug, Clone, PartialEq)]
pub struct State {
    /// Level n (start of the current time step).
    pub n: Fields,
    /// Current iterate (the newest values).
    pub k: Fields,
    /// Completed time steps.
    pub step: u64,
    /// Simulated time.
    pub time: f64,
}

impl State {
    /// A state with no arrays yet (a device backend's host copy before its first read-back).
    pub fn empty() -> State {
        State {
            n: Fields::zeros(0),
            k: Fields::zeros(0),
            step: 0,
            time: 0.0,
        }
    }

    /// Give both levels `n` stored cells (zeros) if they have none yet.
    pub fn allocate(&mut self, n: usize) {
        if self.k.is_empty() {
            self.k = Fields::zeros(n);
            self.n = Fields::zeros(n);
        }
    }
}
