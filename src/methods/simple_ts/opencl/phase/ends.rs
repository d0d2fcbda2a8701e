//! The end of a loop-2 iteration in the phase form beyond the default copies
//! (`cl/simple_ts/kernels/ends.cl`): the outer faces of the west and east ghost columns
//! (`outer_face: "mass_balance"`, compat `east_outer_face_copy`) and the authors' C++ order of
//! the end rules that the compat switches reproduce, each launch the twin of a step of
//! `reference/iterate.rs` in its order. The wall switches are `-D` defines of the fragments
//! ([`defines`]), compiled out when off.

use super::{OpenCl, RED_WG};
use crate::device::{Defines, Runtime};
use crate::error::DeviceError;
use crate::methods::simple_ts::case::Defect;
use crate::methods::simple_ts::geometry::EastOuter;
use crate::methods::simple_ts::problem::Problem;

/// The kernels of `kernels/ends.cl`.
pub(super) const KERNELS: [&str; 6] = [
    "lagged_ghosts",
    "densities",
    "mass_fluxes",
    "corner_slots",
    "apply_outer",
    "reduce_first",
];

/// What the end of a loop-2 iteration runs for a problem.
#[derive(Debug, Clone, Copy)]
pub(super) struct Ends {
    /// Compat `lagged_ghost_state`: ghost ρ, Γ from their p, T before the copies.
    lagged: bool,
    /// Compat `face_density_before_end_rules`: ρu, ρv before the face copies, fluxes after.
    early: bool,
    /// Compat `corner_slip_ghosts`: slot values written into convex corners' wall faces.
    slots: bool,
    /// Compat `steady_test_first_sweep`: the first sweep's maxima reduced for the C++ test.
    pub(super) first: bool,
    /// Work-items of `apply_outer` (the longer of the west and east row lists; 0: none).
    outer: usize,
}

impl Ends {
    /// The end of an iteration in the default order: the correction's copies in one launch,
    /// `fluxes` alone after the reduction (no compat switch reorders it, no outer faces).
    pub(super) fn plain(&self) -> bool {
        !self.lagged && !self.early && !self.slots && self.outer == 0
    }

    /// The end of iteration of `p`.
    pub(super) fn new(p: &Problem) -> Ends {
        let c = p.geo.compat;
        let gh = &p.ghosts;
        Ends {
            lagged: c.has(Defect::LaggedGhostState),
            early: c.has(Defect::FaceDensityBeforeEndRules),
            slots: c.has(Defect::CornerSlipGhosts),
            first: c.has(Defect::SteadyTestFirstSweep),
            outer: gh.west_balance.len().max(gh.east_rows.len()),
        }
    }

    /// Create the buffers the kernels of `ends.cl` and the switched fragments read: the east
    /// outer face (velocity, density, flux; one value per row where the east side stores it,
    /// zero elsewhere as in the reference), the row lists of `apply_outer`, and the first
    /// sweep's residuals and partial maxima (one value unless the switch is on).
    pub(super) fn upload(
        &self,
        rt: &mut Runtime,
        p: &Problem,
        n: usize,
        red_groups: usize,
    ) -> Result<(), DeviceError> {
        let gh = &p.ghosts;
        let rows = if gh.east_rows.is_empty() {
            0
        } else {
            p.grid.nyt
        };
        for name in ["u_xe", "rho_u_xe", "fx_xe"] {
            rt.real_zeros(name, rows)?;
        }
        let ints = |v: &[usize]| v.iter().map(|&j| j as i32).collect::<Vec<_>>();
        rt.int("west_rows", &ints(&gh.west_balance))?;
        rt.int("east_rows", &ints(&gh.east_rows))?;
        for name in ["res_p1", "res_t1"] {
            rt.real_zeros(name, if self.first { n } else { 0 })?;
        }
        for name in ["part_p1", "part_t1"] {
            rt.real_zeros(name, 2 * red_groups)?;
        }
        Ok(())
    }
}

/// The `-D` defines of the switched fragments and of `ends.cl`, added to `d`.
pub(super) fn defines(d: Defines, p: &Problem) -> Defines {
    let c = p.geo.compat;
    let on = |x: Defect| i64::from(c.has(x));
    let gh = &p.ghosts;
    d.int("CFG_COMPAT_GAMMA3", on(Defect::CornerGammaThreeTerms))
        .int("CFG_COMPAT_SLOTS", on(Defect::CornerSlipGhosts))
        .int(
            "CFG_COMPAT_ADIABATIC_LAG",
            on(Defect::AdiabaticWallAsLaggedValue),
        )
        .int("CFG_COMPAT_STEADY_FIRST", on(Defect::SteadyTestFirstSweep))
        .int("CFG_EAST_OUTER", i64::from(!gh.east_rows.is_empty()))
        .int(
            "CFG_EAST_BALANCE",
            i64::from(gh.east_outer == EastOuter::Balance),
        )
        .int("CFG_N_WEST_BALANCE", gh.west_balance.len() as i64)
        .int("CFG_N_EAST_OUTER", gh.east_rows.len() as i64)
}

impl OpenCl {
    /// The end of a loop-2 iteration up to the residual reduction: the ghost cells (compat:
    /// ρ, Γ lagged), [compat: the face densities and the corner slots], the face copies;
    /// without those switches the ghosts and the faces in one launch.
    pub(super) fn queue_before_reduce(&self) -> Result<(), DeviceError> {
        let e = self.ends;
        if !e.lagged && !e.early {
            return self.copies("end_copies");
        }
        self.copies(if e.lagged { "lagged_ghosts" } else { "ghosts" })?;
        if e.early {
            self.run("densities")?;
            if e.slots {
                self.run("corner_slots")?;
            }
        }
        self.copies("faces")
    }

    /// The end of a loop-2 iteration after the residual reduction (which reads Fx and Fy
    /// as the u and v residuals): the face densities and fluxes in the order the switches
    /// ask for, then the outer faces.
    pub(super) fn queue_after_reduce(&self) -> Result<(), DeviceError> {
        let e = self.ends;
        if e.early {
            self.run("mass_fluxes")?;
        } else if e.slots {
            // The slot values need this iteration's face densities; the densities of the
            // wall faces do not depend on the velocities they hold.
            self.run("fluxes")?;
            self.run("corner_slots")?;
            self.run("mass_fluxes")?;
        } else {
            self.run("fluxes")?;
        }
        self.outer()
    }

    /// ρu, ρv, Fx, Fy and the outer faces of the current iterate (the reference's
    /// `update_fluxes` then `apply_outer`).
    pub(super) fn fluxes(&self) -> Result<(), DeviceError> {
        self.run("fluxes")?;
        self.outer()
    }

    /// The outer faces of the ghost columns and their fluxes, where the case has them.
    fn outer(&self) -> Result<(), DeviceError> {
        if self.ends.outer > 0 {
            self.rt.launch("apply_outer", self.ends.outer, None)?;
        }
        Ok(())
    }

    /// The reduction of the first sweep's maxima (compat `steady_test_first_sweep`).
    pub(super) fn reduce_first(&self) -> Result<(), DeviceError> {
        if self.ends.first {
            self.rt
                .launch("reduce_first", RED_WG * self.red_groups, Some(RED_WG))?;
        }
        Ok(())
    }
}
