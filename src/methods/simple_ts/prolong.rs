//! Grid sequencing: a state carried from a grid to the same domain refined by two in x and y,
//! to start a steady run on the fine grid from the developed flow of the coarse one (the
//! warm-started finest level of a validation grid study, `docs/decisions.md`).
//!
//! Each coarse cell splits into four fine cells, which take its p and T (injection), so that
//! the mass Σ ρ V is the same on both grids to rounding. A fine u face on a coarse u face takes
//! that face's velocity, and one in the middle of a coarse cell the mean of the cell's two u
//! faces; likewise v. The mass flux through every coarse face is therefore kept too. Faces the
//! fine geometry fixes (walls, inflow) and the ghost cells and faces then get what the fine
//! grid's boundary conditions give, as in a fresh initial state.

use crate::grid::Grid;
use crate::methods::simple_ts::fields::{Fields, State};
use crate::methods::simple_ts::geometry::{Geometry, F_FIXED, F_NONE, SOLID};
use crate::methods::simple_ts::reference::bc::Ghosts;

/// The coarse stored index (column or row) a fine stored index lies in: ghosts to ghosts,
/// computed cells 2c − 1 and 2c to c.
fn parent(fine: usize, n_fine: usize, n_coarse: usize) -> usize {
    match fine {
        0 => 0,
        f if f == n_fine + 1 => n_coarse + 1,
        f => f.div_ceil(2),
    }
}

/// The coarse faces a fine face (west face of stored column `fine`) interpolates: one face
/// where the two coincide (odd `fine`, and the ghosts), two where the fine face cuts a coarse
/// cell in half.
fn face_parents(fine: usize, n_fine: usize, n_coarse: usize) -> (usize, usize) {
    if fine == 0 || fine % 2 == 1 {
        let c = parent(fine, n_fine, n_coarse);
        (c, c)
    } else {
        (fine / 2, fine / 2 + 1)
    }
}

/// Check that `fine` is `coarse` refined by two: twice the cells, and every coarse face
/// coordinate also a fine one.
fn check_refined(coarse: &Grid, fine: &Grid) -> Result<(), String> {
    if fine.nx != 2 * coarse.nx || fine.ny != 2 * coarse.ny {
        return Err(format!(
            "the fine grid ({} × {}) is not the coarse one ({} × {}) refined by 2",
            fine.nx, fine.ny, coarse.nx, coarse.ny
        ));
    }
    let same = |a: f64, b: f64, scale: f64| (a - b).abs() <= 1e-12 * scale.max(1.0);
    let span = |f: &[f64]| f[f.len() - 1].abs() + f[0].abs();
    for i in 1..=coarse.nx + 1 {
        if !same(coarse.x_f[i], fine.x_f[2 * i - 1], span(&coarse.x_f)) {
            return Err(format!("coarse x face {i} is not a fine face"));
        }
    }
    for j in 1..=coarse.ny + 1 {
        if !same(coarse.y_f[j], fine.y_f[2 * j - 1], span(&coarse.y_f)) {
            return Err(format!("coarse y face {j} is not a fine face"));
        }
    }
    Ok(())
}

/// The grid and geometry of a state.
pub type On<'a> = (&'a Grid, &'a Geometry);

/// The iterate `coarse.k` on `(gc, geo_c)`, carried to `(gf, geo)`, the same domain refined by
/// two; both time levels of the result hold it, at the coarse state's time, step 0. Errors:
/// grids that are not a refinement by two, or a body that does not lie on coarse faces (a fine
/// cell whose solid/fluid class differs from its coarse cell's).
pub fn prolong(coarse: &State, (gc, geo_c): On, (gf, geo): On) -> Result<State, String> {
    check_refined(gc, gf)?;
    let c = &coarse.k;
    let mut f = Fields::zeros(gf.len());
    let solid_c = |i, j| geo_c.cell[gc.idx(i, j)] == SOLID;
    for jf in 0..gf.nyt {
        let jc = parent(jf, gf.ny, gc.ny);
        let (jv0, jv1) = face_parents(jf, gf.ny, gc.ny);
        for i_f in 0..gf.nxt {
            let ic = parent(i_f, gf.nx, gc.nx);
            let (iu0, iu1) = face_parents(i_f, gf.nx, gc.nx);
            let (ij, cc) = (gf.idx(i_f, jf), gc.idx(ic, jc));
            let solid = geo.cell[ij] == SOLID;
            let computed = (1..=gf.nx).contains(&i_f) && (1..=gf.ny).contains(&jf);
            if computed && solid != solid_c(ic, jc) {
                return Err(format!(
                    "fine cell ({i_f}, {jf}) and its coarse cell ({ic}, {jc}) differ in \
                     solid/fluid: the bodies must lie on coarse faces"
                ));
            }
            f.p[ij] = c.p[cc];
            f.T[ij] = c.T[cc];
            f.rho[ij] = c.rho[cc];
            f.Gam[ij] = c.Gam[cc];
            f.u[ij] = match geo.u_face[ij] {
                F_FIXED => geo.u_fixed[ij],
                F_NONE => 0.0,
                _ => 0.5 * (c.u[gc.idx(iu0, jc)] + c.u[gc.idx(iu1, jc)]),
            };
            f.v[ij] = match geo.v_face[ij] {
                F_FIXED => geo.v_fixed[ij],
                F_NONE => 0.0,
                _ => 0.5 * (c.v[gc.idx(ic, jv0)] + c.v[gc.idx(ic, jv1)]),
            };
        }
    }
    let ghosts = Ghosts::new(gf, geo);
    ghosts.apply_cells(&mut f);
    ghosts.apply_faces(&mut f);
    Ok(State {
        n: f.clone(),
        k: f,
        step: 0,
        time: coarse.time,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::simple_ts::backend::Backend;
    use crate::methods::simple_ts::case::Case;
    use crate::methods::simple_ts::reference::Reference;

    fn case(nx: usize, ny: usize) -> Case {
        let text = format!(
            r#"{{
            "name": "t", "gas": {{ "kn": 0.05 }},
            "grid": {{ "nx": {nx}, "ny": {ny}, "x": [0.0, 8.0], "y": [0.0, 4.0] }},
            "bodies": [ {{ "name": "sq", "x": [3.0, 4.0], "y": [1.5, 2.5], "T_wall": 1.0,
                          "wall": "slip" }} ],
            "boundaries": {{
                "west": {{ "kind": "inflow", "mach": 2.0, "p": 1.0, "T": 1.0 }},
                "east": {{ "kind": "outflow" }},
                "south": {{ "kind": "wall", "velocity": 1.8257, "T": 1.0, "wall": "slip" }},
                "north": {{ "kind": "wall", "velocity": 1.8257, "T": 1.0, "wall": "slip" }} }},
            "initial": {{ "u": 1.8257, "p": 1.0, "T": 1.0 }},
            "time": {{ "dt": 0.02, "steps": 30 }} }}"#
        );
        serde_json::from_str(&text).expect("test case")
    }

    /// Σ ρ V over fluid cells, and the mass flux ρ_upwind u h_y through coarse u face (i, j)
    /// (on the fine grid: the sum over the two fine faces on it).
    fn mass(s: &mut Reference) -> f64 {
        let (g, geo) = (s.grid().clone(), s.geometry().clone());
        let k = &s.state().unwrap().k;
        let mut m = 0.0;
        for j in 1..=g.ny {
            for i in 1..=g.nx {
                let ij = g.idx(i, j);
                if geo.fluid(ij) {
                    m += k.rho[ij] * g.hx[i] * g.hy[j];
                }
            }
        }
        m
    }

    #[test]
    fn a_developed_state_keeps_its_mass_and_face_velocities() {
        let mut coarse = Reference::new(&case(16, 8));
        for _ in 0..30 {
            coarse.step().expect("coarse step");
        }
        let fine_case = case(32, 16);
        let mut fine = Reference::new(&fine_case);
        let (gc, gf) = (coarse.grid().clone(), fine.grid().clone());
        let (geo_c, geo) = (coarse.geometry().clone(), fine.geometry().clone());
        let st = prolong(coarse.state().unwrap(), (&gc, &geo_c), (&gf, &geo)).expect("prolong");
        assert_eq!(st.time, coarse.state().unwrap().time);
        assert_eq!(st.n, st.k);
        // Injection: the mass is the coarse mass to rounding.
        let m_c = mass(&mut coarse);
        fine.restore(st.clone()).expect("restore");
        let m_f = mass(&mut fine);
        assert!((m_f - m_c).abs() <= 1e-13 * m_c, "{m_f} vs {m_c}");
        // Coinciding faces keep the coarse velocity; a face in the middle of a coarse cell is
        // the mean of that cell's two faces (where both are solved).
        let c = &coarse.state().unwrap().k;
        let (mut same, mut mid) = (0, 0);
        for jc in 1..=gc.ny {
            for ic in 1..=gc.nx {
                let jf = 2 * jc - 1;
                let (a, b) = (gf.idx(2 * ic - 1, jf), gf.idx(2 * ic, jf));
                if geo.u_face[a] == crate::methods::simple_ts::geometry::F_SOLVED {
                    assert_eq!(st.k.u[a], c.u[gc.idx(ic, jc)]);
                    same += 1;
                }
                if geo.u_face[b] == crate::methods::simple_ts::geometry::F_SOLVED {
                    let want = 0.5 * (c.u[gc.idx(ic, jc)] + c.u[gc.idx(ic + 1, jc)]);
                    assert_eq!(st.k.u[b], want);
                    mid += 1;
                }
            }
        }
        assert!(same > 50 && mid > 50, "{same} {mid}");
        // The fine run goes on from there.
        for _ in 0..5 {
            let r = fine.step().expect("fine step from the prolonged state");
            assert!(r.converged);
        }
    }

    #[test]
    fn grids_that_are_not_a_refinement_by_two_are_refused() {
        let try_prolong = |c: (usize, usize), f: (usize, usize)| {
            let mut coarse = Reference::new(&case(c.0, c.1));
            let fine = Reference::new(&case(f.0, f.1));
            let (gc, geo_c) = (coarse.grid().clone(), coarse.geometry().clone());
            prolong(
                coarse.state().unwrap(),
                (&gc, &geo_c),
                (fine.grid(), fine.geometry()),
            )
            .unwrap_err()
        };
        let e = try_prolong((16, 8), (24, 16));
        assert!(e.contains("refined by 2"), "{e}");
        // A body that does not lie on coarse faces (x = 3 is a fine face only).
        let e = try_prolong((4, 8), (8, 16));
        assert!(e.contains("bodies must lie on coarse faces"), "{e}");
    }
}
