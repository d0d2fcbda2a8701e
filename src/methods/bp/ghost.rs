//! The ghost-cell form of the step (`"boundaries": "ghost"`, issue 19's comparison with the
//! report's branch-free tables): the node grid padded with one layer of ghost nodes on every
//! side, filled before the interior kernels, then every real node and every face and cell of
//! the padded grid runs the interior stencils (½ on every face, ¼ of four cells, ¼ of four
//! neighbours) with no tables and no boundary branches. A different discretisation of the
//! boundaries from the tables (no zero wall flux, no one-sided wall smoothing), so not their
//! bits; the reference and parallel loops share this row code and are bit-identical.
//!
//! Padded node (p, q) is real node (p − 1, q − 1). The ghost fill, in this order:
//! - **inlet and exit columns** (p = 0, ni + 1; real rows): a copy of the boundary node's
//!   state and secondary variables after its condition (the inlet state, the exit pressure),
//!   so a supersonic exit extrapolates at zero gradient;
//! - **wall rows** (q = 0, nj + 1; every p, corners included): the mirror of the node two rows
//!   in (q = 2, nj − 1) across the wall line at the wall node of the same p: ρ and ρE copied,
//!   the momentum m ← m − 2(m·n)n with n the unit wall normal there (u, v the same way; p and
//!   H copied). n is normal to the chord between the wall's neighbours p − 1 and p + 1
//!   (one-sided at the ends).
//!
//! Ghost positions follow the same rules (the columns extrapolated linearly, the rows
//! mirrored across the wall line), so the ghost cells mirror the real ones. The periodic
//! grids of the cascade are not served by this form (the case refuses them).

use super::formulas::{bp_avg, bp_blend, bp_change, bp_rate, bp_res, bp_scree, bp_speed, bp_sum};
use super::grid::NodeGrid;
use super::loops::{each, each2, face, max_over};
use super::Flow;
use super::Numerics;

/// The padded grid, its wall normals and the padded work arrays.
#[derive(Debug, Clone)]
pub struct Ghost {
    /// The padded grid, (ni + 2) × (nj + 2) nodes.
    pub g: NodeGrid,
    /// Unit wall normals per padded column: the lower wall's, then the upper wall's.
    pub normal: Vec<[f64; 2]>,
    /// Padded node states and secondary variables.
    pub w: Vec<[f64; 4]>,
    sec: Vec<[f64; 4]>,
    fi: Vec<[f64; 4]>,
    fj: Vec<[f64; 4]>,
    cells: Vec<[f64; 4]>,
    /// SCREE's Δⁿ⁻¹ of every padded cell.
    pub prev: Vec<[f64; 4]>,
}

/// The mirror of `v` (a vector) across the line of unit normal `n`: v − 2(v·n)n.
pub fn mirror(v: [f64; 2], n: [f64; 2]) -> [f64; 2] {
    let d = v[0] * n[0] + v[1] * n[1];
    [v[0] - 2.0 * d * n[0], v[1] - 2.0 * d * n[1]]
}

/// The ghost of a state: ρ and ρE kept, the momentum mirrored across the wall.
pub fn mirror_state(w: [f64; 4], n: [f64; 2]) -> [f64; 4] {
    let m = mirror([w[1], w[2]], n);
    [w[0], m[0], m[1], w[3]]
}

impl Ghost {
    /// The padded grid of `g` (a duct: walls at j = 0 and nj − 1).
    pub fn new(g: &NodeGrid) -> Ghost {
        let (ni, nj) = (g.ni, g.nj);
        let (pi, pj) = (ni + 2, nj + 2);
        let at = |p: usize, q: usize| p + q * pi;
        let mut x = vec![0.0; pi * pj];
        let mut y = vec![0.0; pi * pj];
        for j in 0..nj {
            for i in 0..ni {
                x[at(i + 1, j + 1)] = g.x[i + j * ni];
                y[at(i + 1, j + 1)] = g.y[i + j * ni];
            }
        }
        for q in 1..=nj {
            for (p, b, c) in [(0, 1, 2), (pi - 1, pi - 2, pi - 3)] {
                x[at(p, q)] = 2.0 * x[at(b, q)] - x[at(c, q)];
                y[at(p, q)] = 2.0 * y[at(b, q)] - y[at(c, q)];
            }
        }
        let mut normal = vec![[0.0; 2]; 2 * pi];
        for (side, q, inner) in [(0, 1, 2), (1, pj - 2, pj - 3)] {
            for p in 0..pi {
                let (a, b) = (p.saturating_sub(1), (p + 1).min(pi - 1));
                let (tx, ty) = (x[at(b, q)] - x[at(a, q)], y[at(b, q)] - y[at(a, q)]);
                let l = (tx * tx + ty * ty).sqrt();
                let n = [-ty / l, tx / l];
                normal[p + side * pi] = n;
                let d = mirror(
                    [x[at(p, inner)] - x[at(p, q)], y[at(p, inner)] - y[at(p, q)]],
                    n,
                );
                let o = if side == 0 { 0 } else { pj - 1 };
                x[at(p, o)] = x[at(p, q)] + d[0];
                y[at(p, o)] = y[at(p, q)] + d[1];
            }
        }
        let gp = NodeGrid::new(pi, pj, x, y);
        let nc = gp.nci() * gp.ncj();
        Ghost {
            normal,
            w: vec![[0.0; 4]; pi * pj],
            sec: vec![[0.0; 4]; pi * pj],
            fi: vec![[0.0; 4]; pi * gp.ncj()],
            fj: vec![[0.0; 4]; gp.nci() * pj],
            cells: vec![[0.0; 4]; nc],
            prev: vec![[0.0; 4]; nc],
            g: gp,
        }
    }

    /// Fill the ghost nodes from the real ones (`w`, `sec` after the boundary conditions).
    fn fill(&mut self, w: &[[f64; 4]], sec: &[[f64; 4]]) {
        let (pi, pj) = (self.g.ni, self.g.nj);
        let ni = pi - 2;
        for q in 1..pj - 1 {
            let r = (q - 1) * ni;
            self.w[q * pi + 1..q * pi + 1 + ni].copy_from_slice(&w[r..r + ni]);
            self.sec[q * pi + 1..q * pi + 1 + ni].copy_from_slice(&sec[r..r + ni]);
            for (p, b) in [(0, 1), (pi - 1, pi - 2)] {
                self.w[p + q * pi] = self.w[b + q * pi];
                self.sec[p + q * pi] = self.sec[b + q * pi];
            }
        }
        for (side, o, inner) in [(0, 0, 2), (1, pj - 1, pj - 3)] {
            for p in 0..pi {
                let n = self.normal[p + side * pi];
                let (s, k) = (p + inner * pi, p + o * pi);
                self.w[k] = mirror_state(self.w[s], n);
                let v = mirror([self.sec[s][0], self.sec[s][1]], n);
                self.sec[k] = [v[0], v[1], self.sec[s][2], self.sec[s][3]];
            }
        }
    }

    /// The rest of a step after the boundary conditions: the ghost fill, then the interior
    /// stencils everywhere. `w`, `sec` are the real nodes' (updated in place), `prev` the real
    /// cells' SCREE memory (read and written back, so checkpoints hold it); returns the
    /// largest |Δρ|/ρ0 of the real nodes.
    #[allow(clippy::too_many_arguments)]
    pub fn step(
        &mut self,
        par: bool,
        flow: &Flow,
        num: &Numerics,
        first: bool,
        w: &mut [[f64; 4]],
        sec: &[[f64; 4]],
        prev: &mut [[f64; 4]],
    ) -> f64 {
        self.fill(w, sec);
        let (pi, pj) = (self.g.ni, self.g.nj);
        let (ni, nj, nc) = (pi - 2, pj - 2, pi - 1);
        for j in 0..nj - 1 {
            let (r, s) = (j * (ni - 1), 1 + (j + 1) * nc);
            self.prev[s..s + ni - 1].copy_from_slice(&prev[r..r + ni - 1]);
        }
        let Ghost {
            g,
            w: gw,
            sec: gs,
            fi,
            fj,
            cells,
            prev: gprev,
            ..
        } = self;
        let (w_, s_) = (&*gw, &*gs);
        each(par, fi, |f, out| {
            *out = face(w_, s_, f, f + pi, g.dli[f], 0.5);
        });
        each(par, fj, |f, out| {
            let a = f % nc + (f / nc) * pi;
            *out = face(w_, s_, a, a + 1, g.dlj[f], 0.5);
        });
        let gamma = flow.gamma;
        let (fi_, fj_) = (&*fi, &*fj);
        each2(par, cells, gprev, |c, eff, last| {
            let (i, j) = (c % nc, c / nc);
            let mut s: f64 = 0.0;
            for k in [
                i + j * pi,
                i + 1 + j * pi,
                i + 1 + (j + 1) * pi,
                i + (j + 1) * pi,
            ] {
                let q = &s_[k];
                s = s.max(bp_speed(gamma, w_[k][0], q[0], q[1], q[2]));
            }
            let r = bp_rate(num.cfl, g.dmin[c], s, g.area[c]);
            let (a, b) = (fi_[i + j * pi], fi_[i + 1 + j * pi]);
            let (d, u) = (fj_[c], fj_[i + (j + 1) * nc]);
            // A ghost cell (the padded ring) has no SCREE memory: its change is taken as if
            // each step were the first, so a checkpoint (the real cells' memory) restores the
            // run exactly.
            let ghost = i == 0 || i == nc - 1 || j == 0 || j == pj - 2;
            for v in 0..4 {
                let dn = bp_change(r, a[v], b[v], d[v], u[v]);
                let old = if first || ghost { dn } else { last[v] };
                eff[v] = bp_scree(dn, old);
                last[v] = dn;
            }
        });
        // Sum and smoothing on the real nodes only (real index k, padded n).
        let pad = |k: usize| (k % ni + 1) + (k / ni + 1) * pi;
        let cells_ = &*cells;
        let mut tmp = gw.clone();
        {
            let mut real: Vec<[f64; 4]> = w.to_vec();
            each(par, &mut real, |k, node| {
                let (p, q) = (k % ni + 1, k / ni + 1);
                let c = p + (q - 1) * nc;
                let ix = [c - 1, c, c + nc - 1, c + nc].map(|c| &cells_[c]);
                for (v, x) in node.iter_mut().enumerate() {
                    *x = bp_sum(*x, ix[0][v], ix[1][v], ix[2][v], ix[3][v]);
                }
            });
            for (k, node) in real.into_iter().enumerate() {
                tmp[pad(k)] = node;
            }
        }
        let rho0 = flow.rho0();
        let sf = num.smooth * num.cfl;
        let tmp = &tmp;
        let one = |k: usize, node: &mut [f64; 4]| -> f64 {
            let n = pad(k);
            let before = node[0];
            let ix = [n - 1, n + 1, n - pi, n + pi].map(|m| &tmp[m]);
            for (v, x) in node.iter_mut().enumerate() {
                let avg = bp_avg(
                    0.25, 0.25, 0.25, 0.25, ix[0][v], ix[1][v], ix[2][v], ix[3][v],
                );
                *x = bp_blend(sf, tmp[n][v], avg);
            }
            bp_res(rho0, node[0], before)
        };
        let res = max_over(par, w, one);
        for j in 0..nj - 1 {
            let (r, s) = (j * (ni - 1), 1 + (j + 1) * nc);
            prev[r..r + ni - 1].copy_from_slice(&gprev[s..s + ni - 1]);
        }
        res
    }
}
