//! The two paths through every kernel (spec §5.6) and the alias tables of the fused form.
//!
//! - **Fast path.** A kernel evaluates a point (a cell with its west u-face and south v-face)
//!   on the fast path when every stored cell within [`FAST_RADIUS`] of it, in both directions,
//!   is a computed fluid cell whose u- and v-faces (west, east, south, north) are all solved
//!   faces. Every stencil of the fragments then sees only fluid and solved faces, so the class
//!   tests fold to constants (`FASTP` in `cl/simple_ts/fields.cl`) and the result is bit-identical to
//!   the boundary path's. [`fast_mask`] is the host's table of such points.
//! - **Aliases.** The fused form does not fill copy ghosts or copy/periodic faces after its
//!   launch. On the boundary path it reads each of them from the value it copies instead
//!   ([`Aliases`]), so one launch leaves a consistent iterate and the host applies the copies
//!   only when it downloads the fields.

use crate::grid::Grid;
use crate::methods::simple_ts::geometry::{Geometry, FLUID, F_SOLVED};
use crate::methods::simple_ts::reference::bc::Ghosts;

/// Half-width of the box that must be plain fluid around a fast-path point. The widest
/// stencil of the fragments reaches two cells and three faces from the point (TVD face
/// densities of a neighbouring face); 4 leaves a cell to spare.
pub const FAST_RADIUS: usize = 4;

/// 1 where the kernels may take the fast path, 0 where they take the boundary path; one entry
/// per stored cell.
pub fn fast_mask(g: &Grid, geo: &Geometry) -> Vec<i32> {
    let (nxt, nyt) = (g.nxt, g.nyt);
    let solved = |f: &[u8], k: Option<usize>| k.is_some_and(|k| f[k] == F_SOLVED);
    // Plain: a fluid cell all four of whose faces are solved.
    let mut plain = vec![false; g.len()];
    for j in 0..nyt {
        for i in 0..nxt {
            let k = g.idx(i, j);
            let east = (i + 1 < nxt).then(|| g.idx(i + 1, j));
            let north = (j + 1 < nyt).then(|| g.idx(i, j + 1));
            plain[k] = geo.cell[k] == FLUID
                && solved(&geo.u_face, Some(k))
                && solved(&geo.v_face, Some(k))
                && solved(&geo.u_face, east)
                && solved(&geo.v_face, north);
        }
    }
    // Erode by FAST_RADIUS along x, then along y; a box leaving storage is not plain.
    let r = FAST_RADIUS;
    let erode = |src: &[bool], along_x: bool| {
        let mut out = vec![false; src.len()];
        for j in 0..nyt {
            for i in 0..nxt {
                let (c, n) = if along_x { (i, nxt) } else { (j, nyt) };
                if c < r || c + r >= n {
                    continue;
                }
                out[g.idx(i, j)] = (c - r..=c + r).all(|m| {
                    let k = if along_x { g.idx(m, j) } else { g.idx(i, m) };
                    src[k]
                });
            }
        }
        out
    };
    let box_plain = erode(&erode(&plain, true), false);
    box_plain.into_iter().map(i32::from).collect()
}

/// For every stored cell and face, the stored index whose value it holds (itself, except for
/// copy ghosts and copy/periodic faces, which name the computed cell or face at the end of
/// their copy chain).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Aliases {
    /// Cells (p, T, ρ, Γ).
    pub cells: Vec<i32>,
    /// u-faces.
    pub u: Vec<i32>,
    /// v-faces.
    pub v: Vec<i32>,
}

impl Aliases {
    /// The alias tables of `ghosts` for `n` stored cells.
    ///
    /// The reference applies its copy lists in order, and every copy reads either a computed
    /// value or an entry earlier in its list (x-side ghosts before the corners that copy
    /// them), so following a chain to its end gives the value the reference stores.
    pub fn new(n: usize, ghosts: &Ghosts) -> Aliases {
        let table = |pairs: &mut dyn Iterator<Item = (usize, usize)>| {
            // Built as i32 directly: no full-size usize table on the host.
            let mut a: Vec<i32> = (0..n).map(|k| k as i32).collect();
            for (dst, src) in pairs {
                // Earlier entries are already resolved: one step reaches the chain's end.
                a[dst] = a[src];
            }
            a
        };
        let cells = table(
            &mut ghosts
                .cells
                .iter()
                .filter_map(|&(d, r)| r.copy_of().map(|s| (d, s))),
        );
        Aliases {
            cells,
            u: table(&mut ghosts.u_copies.iter().copied()),
            v: table(&mut ghosts.v_copies.iter().copied()),
        }
    }
}

/// Walls a packed geometry word can name (11 bits).
pub const PACKED_WALLS: usize = 1 << 11;

/// The lean form's one geometry word per cell (`geo`, layout in `cl/simple_ts/fields.cl`): classes,
/// fast flag, alias offsets and wall record. Fails, naming the reason, when an alias is not a
/// neighbour within one cell (periodic sides) or there are more walls than 11 bits hold.
pub fn pack_geometry(
    g: &Grid,
    geo: &Geometry,
    fast: &[i32],
    alias: &Aliases,
) -> Result<Vec<i32>, String> {
    if geo.walls.len() > PACKED_WALLS {
        return Err(format!(
            "{} wall records, the packed geometry holds {PACKED_WALLS}",
            geo.walls.len()
        ));
    }
    let off = |k: usize, a: i32| -> Result<u32, String> {
        let (i, j) = ((k % g.nxt) as i64, (k / g.nxt) as i64);
        let a = a as usize;
        let (ai, aj) = ((a % g.nxt) as i64, (a / g.nxt) as i64);
        let (dx, dy) = (ai - i, aj - j);
        if dx.abs() > 1 || dy.abs() > 1 {
            return Err(format!(
                "cell ({i}, {j}) copies ({ai}, {aj}), more than one cell away (periodic side)"
            ));
        }
        Ok((dx + 1) as u32 | ((dy + 1) as u32) << 2)
    };
    let mut out = Vec::with_capacity(g.len());
    for (k, &f) in fast.iter().enumerate() {
        let wall = if geo.cell[k] == crate::methods::simple_ts::geometry::SOLID {
            u32::from(geo.wall_of[k])
        } else {
            0
        };
        let w = u32::from(geo.cell[k])
            | u32::from(geo.u_face[k]) << 2
            | u32::from(geo.v_face[k]) << 5
            | (f as u32 & 1) << 8
            | off(k, alias.cells[k])? << 9
            | off(k, alias.u[k])? << 13
            | off(k, alias.v[k])? << 17
            | wall << 21;
        out.push(w as i32);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::simple_ts::case::Case;
    use crate::methods::simple_ts::geometry::{F_COPY, F_PERIODIC, OPEN, SOLID};
    use crate::methods::simple_ts::reference::Reference;

    fn reference(name: &str) -> Reference {
        let path = format!("{}/configs/{name}", env!("CARGO_MANIFEST_DIR"));
        Reference::new(&Case::from_file(std::path::Path::new(&path)).unwrap())
    }

    /// No fast point lies within FAST_RADIUS of a solid, open or non-solved face, and every
    /// point farther than that from all of them is fast.
    #[test]
    fn fast_points_are_exactly_the_plain_interior() {
        let r = reference("confined_square.json");
        let (g, geo) = (&r.p.grid, &r.p.geo);
        let m = fast_mask(g, geo);
        let rad = FAST_RADIUS as i64;
        let mut fast = 0;
        for j in 0..g.nyt as i64 {
            for i in 0..g.nxt as i64 {
                let mut clean = true;
                for b in j - rad..=j + rad {
                    for a in i - rad..=i + rad {
                        if a < 0 || b < 0 || a >= g.nxt as i64 || b >= g.nyt as i64 {
                            clean = false;
                            continue;
                        }
                        let k = g.idx(a as usize, b as usize);
                        let east = (a + 1 < g.nxt as i64).then(|| k + 1);
                        let north = (b + 1 < g.nyt as i64).then(|| k + g.nxt);
                        clean &= geo.cell[k] == FLUID
                            && geo.u_face[k] == F_SOLVED
                            && geo.v_face[k] == F_SOLVED
                            && east.is_none_or(|e| geo.u_face[e] == F_SOLVED)
                            && north.is_none_or(|n| geo.v_face[n] == F_SOLVED)
                            && east.is_some()
                            && north.is_some();
                    }
                }
                let k = g.idx(i as usize, j as usize);
                assert_eq!(m[k] == 1, clean, "cell ({i}, {j})");
                fast += m[k];
            }
        }
        // The body and the channel walls leave most of the domain on the fast path.
        let n = (g.nx * g.ny) as i32;
        assert!(fast > n / 2 && fast < n, "{fast} fast of {n}");
        // Next to the body nothing is fast.
        for (k, &c) in geo.cell.iter().enumerate() {
            if c == SOLID || c == OPEN {
                assert_eq!(m[k], 0);
            }
        }
    }

    /// The packed word decodes to the classes, flag, aliases and wall record it packs (the
    /// kernel's decoding, written out in Rust).
    #[test]
    fn packed_geometry_decodes_to_its_parts() {
        let r = reference("confined_square.json");
        let (g, geo) = (&r.p.grid, &r.p.geo);
        let fast = fast_mask(g, geo);
        let a = Aliases::new(g.len(), &r.p.ghosts);
        let w = pack_geometry(g, geo, &fast, &a).unwrap();
        let off = |word: u32, sh: u32| {
            let dx = ((word >> sh) & 3) as i64 - 1;
            let dy = ((word >> (sh + 2)) & 3) as i64 - 1;
            dx + dy * g.nxt as i64
        };
        for (k, &x) in w.iter().enumerate() {
            let x = x as u32;
            assert_eq!((x & 3) as u8, geo.cell[k]);
            assert_eq!(((x >> 2) & 7) as u8, geo.u_face[k]);
            assert_eq!(((x >> 5) & 7) as u8, geo.v_face[k]);
            assert_eq!(((x >> 8) & 1) as i32, fast[k]);
            assert_eq!(k as i64 + off(x, 9), a.cells[k] as i64);
            assert_eq!(k as i64 + off(x, 13), a.u[k] as i64);
            assert_eq!(k as i64 + off(x, 17), a.v[k] as i64);
            if geo.cell[k] == SOLID {
                assert_eq!((x >> 21) as u16, geo.wall_of[k]);
            }
        }
        // Periodic sides copy across the domain: refused with the reason.
        let p = reference("couette_slip.json").p;
        let pf = fast_mask(&p.grid, &p.geo);
        let pa = Aliases::new(p.grid.len(), &p.ghosts);
        let e = pack_geometry(&p.grid, &p.geo, &pf, &pa).unwrap_err();
        assert!(e.contains("periodic"), "{e}");
    }

    /// Each alias names a cell or face that is computed, and copies resolve as the reference
    /// applies them.
    #[test]
    fn aliases_end_at_computed_values_like_the_reference() {
        for name in ["confined_square.json", "default.json", "couette_slip.json"] {
            let r = reference(name);
            let a = Aliases::new(r.p.grid.len(), &r.p.ghosts);
            let geo = &r.p.geo;
            for (k, &s) in a.u.iter().enumerate() {
                let c = geo.u_face[s as usize];
                assert!(
                    c != F_COPY && c != F_PERIODIC,
                    "u alias of {k} is a copy face"
                );
            }
            for (k, &s) in a.v.iter().enumerate() {
                let c = geo.v_face[s as usize];
                assert!(
                    c != F_COPY && c != F_PERIODIC,
                    "v alias of {k} is a copy face"
                );
            }
            // Scramble a state's copies, let the reference fill them, compare with aliases.
            let mut f = r.state.k.clone();
            for (k, x) in f.p.iter_mut().enumerate() {
                *x = 1.0 + k as f64;
            }
            for (k, x) in f.u.iter_mut().enumerate() {
                *x = 2.0 + k as f64;
            }
            for (k, x) in f.v.iter_mut().enumerate() {
                *x = 3.0 + k as f64;
            }
            let before = f.clone();
            r.p.ghosts.apply_cells(&mut f);
            r.p.ghosts.apply_faces(&mut f);
            let copied: Vec<usize> =
                r.p.ghosts
                    .cells
                    .iter()
                    .filter(|(_, rule)| rule.copy_of().is_some())
                    .map(|&(d, _)| d)
                    .collect();
            for &d in &copied {
                assert_eq!(f.p[d], before.p[a.cells[d] as usize], "{name}: cell {d}");
            }
            for &(d, _) in &r.p.ghosts.u_copies {
                assert_eq!(f.u[d], before.u[a.u[d] as usize], "{name}: u-face {d}");
            }
            for &(d, _) in &r.p.ghosts.v_copies {
                assert_eq!(f.v[d], before.v[a.v[d] as usize], "{name}: v-face {d}");
            }
        }
    }
}
