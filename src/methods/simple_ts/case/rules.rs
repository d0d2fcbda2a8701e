//! Validation of a parsed SIMPLE-TS [`Case`]: every error names the JSON path, the value and
//! the range.
//!
//! Checks run in file order (name, gas, grid, bodies, boundaries, initial, time, solver,
//! probes, output) and the first failure is returned. Body checks build the padded [`Grid`]
//! to count covered cell centres with the same rule as
//! [`crate::methods::simple_ts::geometry::Geometry`] (centre strictly inside the rectangle).

use super::{Body, Defect};
use super::{
    BoundaryFace, Case, CompatSpec, Convection, ForcesReference, Interpolation, OuterFace, Side,
    SweepOrder, COMPAT_PRESET,
};
use crate::case::rules::{
    check_grid, check_label, check_name, check_output, check_time, extent, finite, int_range,
    invalid, non_negative, num, positive, speed,
};
use crate::error::ConfigError;
use crate::grid::Grid;

/// Stored indices `[a, b)` of the computed centres (`centres[1..=n]`) strictly inside `(lo, hi)`.
pub fn centre_range(centres: &[f64], n: usize, lo: f64, hi: f64) -> (usize, usize) {
    let c = &centres[1..=n];
    let a = c.partition_point(|&x| x <= lo);
    let b = c.partition_point(|&x| x < hi).max(a);
    (a + 1, b + 1)
}

impl Case {
    /// Check every value; the error names the JSON path, the value and the allowed range
    /// ([`validate`]).
    pub fn validate(&self) -> Result<(), ConfigError> {
        validate(self)
    }
}

/// Check every value of `case`.
pub fn validate(case: &Case) -> Result<(), ConfigError> {
    check_name(&case.name)?;
    check_gas(case)?;
    check_grid(&case.grid)?;
    let grid = Grid::new(&case.grid, false, false);
    for (k, body) in case.bodies.iter().enumerate() {
        check_body(k, body, &grid, case)?;
        let label = body.label(k);
        if !body.name.is_empty() {
            check_label(&format!("bodies[{k}].name"), &body.name)?;
        }
        if let Some(j) = (0..k).find(|&j| case.bodies[j].label(j) == label) {
            return Err(invalid(
                format!("bodies[{k}].name"),
                format!("{label:?}"),
                format!("must be unique among the bodies (bodies[{j}] is {label:?})"),
            ));
        }
    }
    check_boundaries(case)?;
    check_initial(case)?;
    check_time(&case.time)?;
    check_solver(case)?;
    check_probes(case, &grid)?;
    check_output(&case.time, &case.output)?;
    check_forces_reference(case, &grid)?;
    check_compat(case)
}

/// The solid body (index into `case.bodies`) whose rectangle holds the centre of stored cell
/// (i, j), the last one listed winning as in the geometry.
fn body_at(case: &Case, grid: &Grid, i: usize, j: usize) -> Option<usize> {
    let (xc, yc) = (grid.x_v[i], grid.y_v[j]);
    let inside = |b: &Body| xc > b.x[0] && xc < b.x[1] && yc > b.y[0] && yc < b.y[1];
    case.bodies.iter().rposition(inside)
}

/// `forces_reference`: positive numbers; a `cell` point inside the domain and in a fluid cell.
fn check_forces_reference(case: &Case, grid: &Grid) -> Result<(), ConfigError> {
    let Some(r) = &case.forces_reference else {
        return Ok(());
    };
    let p = "forces_reference";
    if let Some(l) = r.length() {
        positive(&format!("{p}.length"), l)?;
    }
    match r {
        ForcesReference::Inflow { .. } => Ok(()),
        ForcesReference::State { rho, u, .. } => {
            positive(&format!("{p}.rho"), *rho)?;
            positive(&format!("{p}.u"), *u)
        }
        ForcesReference::Cell { x, y, t, u, .. } => {
            positive(&format!("{p}.T"), *t)?;
            positive(&format!("{p}.u"), *u)?;
            finite(&format!("{p}.x"), *x)?;
            finite(&format!("{p}.y"), *y)?;
            let at = format!("(x, y) = ({}, {})", num(*x), num(*y));
            let i = crate::methods::simple_ts::probes::locate(&grid.x_f, grid.nx, *x);
            let j = crate::methods::simple_ts::probes::locate(&grid.y_f, grid.ny, *y);
            let (Some(i), Some(j)) = (i, j) else {
                return Err(invalid(p, at, "must lie inside the domain"));
            };
            match body_at(case, grid, i, j) {
                Some(m) => Err(invalid(
                    p,
                    at,
                    format!(
                        "must lie in a fluid cell (cell ({}, {}) is solid: bodies[{m}])",
                        i - 1,
                        j - 1
                    ),
                )),
                None => Ok(()),
            }
        }
    }
}

/// `compat`: known switch names, and a case the C++ code can run (implicit upwind, the C++
/// sweep order, no periodic side).
fn check_compat(case: &Case) -> Result<(), ConfigError> {
    let Some(spec) = &case.compat else {
        return Ok(());
    };
    if let Err(bad) = spec.switches() {
        let names: Vec<_> = Defect::ALL.iter().map(|d| d.name()).collect();
        let what = match spec {
            CompatSpec::Preset(_) => "compat",
            CompatSpec::List(_) => "compat[]",
        };
        return Err(invalid(
            what,
            format!("{bad:?}"),
            format!(
                "must be \"{COMPAT_PRESET}\" or a list of: {}",
                names.join(", ")
            ),
        ));
    }
    let implemented: Vec<&str> = Defect::IMPLEMENTED.iter().map(|d| d.name()).collect();
    let missing: Vec<&str> = case
        .compat()
        .names()
        .into_iter()
        .filter(|n| !implemented.contains(n))
        .collect();
    if !missing.is_empty() {
        let value = match spec {
            CompatSpec::Preset(p) => format!("{p:?}"),
            CompatSpec::List(_) => format!("{:?}", missing[0]),
        };
        return Err(invalid(
            "compat",
            value,
            format!(
                "not implemented yet: {} (implemented: {}; docs/authors-cpp-defects.md)",
                missing.join(", "),
                implemented.join(", ")
            ),
        ));
    }
    let s = &case.scheme;
    if s.convection != Convection::Implicit || s.interpolation != Interpolation::Upwind {
        return Err(invalid(
            "compat",
            s.to_string(),
            "needs scheme implicit-upwind: the C++ code has only implicit first-order upwind",
        ));
    }
    if case.solver.order != SweepOrder::Cpp {
        return Err(invalid(
            "compat",
            "solver.order = gpu",
            "needs solver.order = cpp: the C++ code runs solver.inner_sweeps Jacobi sweeps",
        ));
    }
    let b = &case.boundaries;
    if [&b.west, &b.east, &b.south, &b.north]
        .iter()
        .any(|s| matches!(s, Side::Periodic {}))
    {
        return Err(invalid(
            "compat",
            "a periodic side",
            "periodic sides are not reproduced",
        ));
    }
    Ok(())
}

/// `output.probes`: the shared rules, and each point in a fluid cell.
fn check_probes(case: &Case, grid: &Grid) -> Result<(), ConfigError> {
    crate::case::rules::check_probes(&case.output.probes, &case.grid)?;
    for (k, pr) in case.output.probes.iter().enumerate() {
        let p = format!("output.probes[{k}]");
        let i = crate::methods::simple_ts::probes::locate(&grid.x_f, grid.nx, pr.x);
        let j = crate::methods::simple_ts::probes::locate(&grid.y_f, grid.ny, pr.y);
        if let (Some(i), Some(j)) = (i, j) {
            let (xc, yc) = (grid.x_v[i], grid.y_v[j]);
            let inside = |b: &Body| xc > b.x[0] && xc < b.x[1] && yc > b.y[0] && yc < b.y[1];
            if let Some(m) = case.bodies.iter().rposition(inside) {
                return Err(invalid(
                    p,
                    format!("(x, y) = ({}, {})", num(pr.x), num(pr.y)),
                    format!(
                        "must lie in a fluid cell (cell ({}, {}) is solid: bodies[{m}])",
                        i - 1,
                        j - 1
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn check_gas(case: &Case) -> Result<(), ConfigError> {
    let g = &case.gas;
    if !(g.kn > 0.0 && g.kn <= 10.0) {
        return Err(invalid("gas.kn", num(g.kn), "must be in (0, 10]"));
    }
    if !(g.gamma > 1.0 && g.gamma < 3.0) {
        return Err(invalid("gas.gamma", num(g.gamma), "must be in (1, 3)"));
    }
    positive("gas.pr", g.pr)?;
    non_negative("gas.sigma_u", g.sigma_u)?;
    non_negative("gas.sigma_t", g.sigma_t)
}

/// A wall's optional σ overrides: finite and >= 0.
fn check_sigmas(p: &str, sigma_u: Option<f64>, sigma_t: Option<f64>) -> Result<(), ConfigError> {
    if let Some(s) = sigma_u {
        non_negative(&format!("{p}.sigma_u"), s)?;
    }
    if let Some(s) = sigma_t {
        non_negative(&format!("{p}.sigma_t"), s)?;
    }
    Ok(())
}

fn check_body(k: usize, b: &Body, grid: &Grid, case: &Case) -> Result<(), ConfigError> {
    let p = format!("bodies[{k}]");
    for (axis, e) in [("x", b.x), ("y", b.y)] {
        extent(&format!("{p}.{axis}"), e)?;
    }
    speed(&format!("{p}.u_wall"), b.u_wall)?;
    speed(&format!("{p}.v_wall"), b.v_wall)?;
    positive(&format!("{p}.T_wall"), b.t_wall)?;
    check_sigmas(&p, b.sigma_u, b.sigma_t)?;
    let wall = |s: &Side| matches!(s, Side::Wall { .. });
    let sides = &case.boundaries;
    let axes = [
        (
            "x",
            b.x,
            &grid.x_v,
            grid.nx,
            "column",
            [wall(&sides.west), wall(&sides.east)],
        ),
        (
            "y",
            b.y,
            &grid.y_v,
            grid.ny,
            "row",
            [wall(&sides.south), wall(&sides.north)],
        ),
    ];
    for (axis, e, centres, n, what, walls) in axes {
        let path = format!("{p}.{axis}");
        let value = format!("[{}, {}]", num(e[0]), num(e[1]));
        let (a, z) = centre_range(centres, n, e[0], e[1]);
        if z - a < 2 {
            return Err(invalid(
                path,
                value,
                format!(
                    "must contain at least 2 cell centres along {axis} (contains {})",
                    z - a
                ),
            ));
        }
        // A body may stand on a wall side (a block on a channel wall), not next to an open one.
        if (a == 1 && !walls[0]) || (z == n + 1 && !walls[1]) {
            let side = if a == 1 && !walls[0] { 1 } else { n };
            return Err(invalid(
                path,
                value,
                format!(
                    "must leave a fluid cell between the body and an open domain side \
                     (covers {what} {side} of 1..={n})"
                ),
            ));
        }
    }
    Ok(())
}

fn kind(s: &Side) -> &'static str {
    match s {
        Side::Wall { .. } => "wall",
        Side::Inflow { .. } => "inflow",
        Side::Outflow { .. } => "outflow",
        Side::Pressure { .. } => "pressure",
        Side::Periodic {} => "periodic",
    }
}

fn check_boundaries(case: &Case) -> Result<(), ConfigError> {
    let b = &case.boundaries;
    for (a, sa, z, sz) in [
        ("west", &b.west, "east", &b.east),
        ("south", &b.south, "north", &b.north),
    ] {
        let (pa, pz) = (
            matches!(sa, Side::Periodic {}),
            matches!(sz, Side::Periodic {}),
        );
        if pa != pz {
            let (bad, other, s) = if pa { (z, a, sz) } else { (a, z, sa) };
            return Err(invalid(
                format!("boundaries.{bad}.kind"),
                kind(s),
                format!("must be periodic because boundaries.{other} is periodic"),
            ));
        }
    }
    for (name, side) in [
        ("west", &b.west),
        ("east", &b.east),
        ("south", &b.south),
        ("north", &b.north),
    ] {
        check_side(name, side)?;
    }
    Ok(())
}

fn check_side(name: &str, side: &Side) -> Result<(), ConfigError> {
    let p = format!("boundaries.{name}");
    let x_side = name == "west" || name == "east";
    let outer = |o: &OuterFace| {
        if o.is_zero_gradient() || x_side {
            Ok(())
        } else {
            Err(invalid(
                format!("{p}.outer_face"),
                "mass_balance",
                "only the west and east sides have outer faces",
            ))
        }
    };
    match side {
        Side::Wall {
            velocity,
            t,
            sigma_u,
            sigma_t,
            ..
        } => {
            speed(&format!("{p}.velocity"), *velocity)?;
            positive(&format!("{p}.T"), *t)?;
            check_sigmas(&p, *sigma_u, *sigma_t)
        }
        Side::Pressure {
            p: pr,
            t,
            outer_face,
            ..
        } => {
            positive(&format!("{p}.p"), *pr)?;
            positive(&format!("{p}.T"), *t)?;
            outer(outer_face)
        }
        Side::Inflow {
            u,
            mach,
            v,
            p: pr,
            t,
            ..
        } => {
            check_inflow(name, &p, *u, *mach, *v)?;
            positive(&format!("{p}.p"), *pr)?;
            positive(&format!("{p}.T"), *t)
        }
        Side::Outflow {
            boundary_face,
            outer_face,
        } => {
            if !x_side && *boundary_face == BoundaryFace::Solved {
                return Err(invalid(
                    format!("{p}.boundary_face"),
                    "solved",
                    "only on the west and east sides",
                ));
            }
            if x_side
                && *outer_face == OuterFace::MassBalance
                && *boundary_face == BoundaryFace::Copied
            {
                return Err(invalid(
                    format!("{p}.outer_face"),
                    "mass_balance",
                    "needs boundary_face = solved (a copied boundary face is not a solution \
                     of the momentum equation)",
                ));
            }
            outer(outer_face)
        }
        Side::Periodic {} => Ok(()),
    }
}

/// Inflow velocity: on west/east `u` is the normal component and exactly one of `u` and `mach`
/// is given; on south/north `v` is normal, `u` tangential, and `mach` replaces `v` (which must
/// then be 0). Component inflow must point into the domain.
fn check_inflow(
    name: &str,
    p: &str,
    u: Option<f64>,
    mach: Option<f64>,
    v: f64,
) -> Result<(), ConfigError> {
    let x_normal = name == "west" || name == "east";
    let inward = if name == "west" || name == "south" {
        1.0
    } else {
        -1.0
    };
    if let Some(u) = u {
        speed(&format!("{p}.u"), u)?;
    }
    speed(&format!("{p}.v"), v)?;
    if let Some(m) = mach {
        positive(&format!("{p}.mach"), m)?;
        speed(&format!("{p}.mach"), m)?;
    }
    let sign = if inward > 0.0 { "> 0" } else { "< 0" };
    if x_normal {
        match (u, mach) {
            (Some(_), Some(_)) | (None, None) => {
                let value = if u.is_some() {
                    "both u and mach"
                } else {
                    "neither u nor mach"
                };
                return Err(invalid(p, value, "give exactly one of u and mach"));
            }
            (Some(u), None) if u * inward <= 0.0 => {
                return Err(invalid(
                    format!("{p}.u"),
                    num(u),
                    format!("must be {sign} (inflow into the domain through the {name} side)"),
                ));
            }
            _ => {}
        }
    } else if mach.is_some() && v != 0.0 {
        return Err(invalid(
            format!("{p}.v"),
            num(v),
            "must be 0 or omitted when mach is given",
        ));
    } else if mach.is_none() && v * inward <= 0.0 {
        return Err(invalid(
            format!("{p}.v"),
            num(v),
            format!(
                "must be {sign} (inflow into the domain through the {name} side), or give mach"
            ),
        ));
    }
    Ok(())
}

fn check_initial(case: &Case) -> Result<(), ConfigError> {
    let i = &case.initial;
    speed("initial.u", i.u)?;
    speed("initial.v", i.v)?;
    positive("initial.p", i.p)?;
    if let Some(pe) = i.p_east {
        positive("initial.p_east", pe)?;
    }
    positive("initial.T", i.t)
}

fn check_solver(case: &Case) -> Result<(), ConfigError> {
    let s = &case.solver;
    int_range("solver.max_iters", s.max_iters.into(), 1, 100_000)?;
    positive("solver.eps_v", s.eps_v)?;
    positive("solver.eps_p", s.eps_p)?;
    positive("solver.eps_T", s.eps_t)?;
    int_range("solver.inner_sweeps", s.inner_sweeps.into(), 1, 100)?;
    if s.divergence_limit > 0.0 {
        Ok(())
    } else {
        Err(invalid(
            "solver.divergence_limit",
            num(s.divergence_limit),
            "must be > 0",
        ))
    }
}
