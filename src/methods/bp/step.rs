//! One step of the Brandvik–Pullan scheme (seed 001 §4), serial: `set_secondary`,
//! `apply_bconds`, `calc_fluxes`, `calc_changes` (local time steps), `sum_changes` with SCREE
//! (2Δⁿ − Δⁿ⁻¹, §4.4) through the sum table, and `smooth` through the smooth table. Every
//! node and face runs the same formula; the boundaries are in the tables (§5), periodic
//! seams included, except the inlet and outlet conditions, which touch only their node
//! columns.

use super::formulas::{bp_avg, bp_blend, bp_change, bp_rate, bp_res, bp_scree, bp_speed, bp_sum};

use super::ghost::Ghost;
use super::grid::NodeGrid;
use super::loops::{each, each2, face, max_over};
use super::start::{initial, Start};
use super::tables::{BoundaryForm, Edges, Tables};
use super::{Flow, Numerics};

/// The inlet condition of one inlet node (§4.7), shared by every backend (it needs `powf`,
/// which OpenCL does not round correctly, so the device backends take its result from the
/// host): the density relaxed towards the node's interior update `rho_node` from the last
/// relaxed value `rho_last` and capped below ρ0, and the isentropic state at that density
/// and the inlet angle. Returns (relaxed density, state). A supersonic inlet
/// ([`Flow::p_inlet`]) takes the fixed free-stream state whatever the interior does.
pub fn inlet_state(flow: &Flow, num: &Numerics, rho_node: f64, rho_last: f64) -> (f64, [f64; 4]) {
    if let Some(p) = flow.p_inlet {
        let w = flow.isentropic(p);
        return (w[0], w);
    }
    let rho0 = flow.rho0();
    let r = (num.rfin * rho_node + (1.0 - num.rfin) * rho_last).min(0.9999 * rho0);
    let p = flow.p0 * (r / rho0).powf(flow.gamma);
    let mut w = flow.isentropic(p);
    // The isentropic state at p has density r up to round-off; keep r exactly.
    let scale = r / w[0];
    for c in &mut w {
        *c *= scale;
    }
    (r, w)
}

/// The state of a run: conserved variables at the nodes and the scheme's memory.
#[derive(Debug, Clone)]
pub struct Bp {
    /// The grid.
    pub g: NodeGrid,
    /// The branch-free tables.
    pub t: Tables,
    /// The boundary rows of the ranges form.
    pub edges: Edges,
    /// Tables or ranges (the same bits), or ghost nodes (another discretisation).
    pub form: BoundaryForm,
    /// The padded grid and work arrays of the ghost form (built on its first step).
    pub ghost: Option<Box<Ghost>>,
    /// Gas and boundary data.
    pub flow: Flow,
    /// CFL, smoothing, inlet relaxation.
    pub num: Numerics,
    /// (ρ, ρu, ρv, ρE) per node.
    pub w: Vec<[f64; 4]>,
    /// The cell changes of the previous step (SCREE's Δⁿ⁻¹).
    pub prev: Vec<[f64; 4]>,
    /// Completed steps.
    pub step: u64,
    /// The inlet density of the last step per inlet node (relaxed, §4.7).
    rho_in: Vec<f64>,
    /// (u, v, p, H) per node.
    sec: Vec<[f64; 4]>,
    fi: Vec<[f64; 4]>,
    fj: Vec<[f64; 4]>,
    cells: Vec<[f64; 4]>,
    /// Loops on rayon's threads (the `parallel` backend; the same per-item code, so
    /// bit-identical).
    pub parallel: bool,
}

impl Bp {
    /// A run on `g` (walls at j = 0 and nj − 1 but its periodic seams) started from the
    /// uniform isentropic state at the exit pressure.
    pub fn new(g: NodeGrid, flow: Flow, num: Numerics) -> Bp {
        Bp::start(g, flow, num, Start::Uniform)
    }

    /// A run on `g` started as `start` says.
    pub fn start(g: NodeGrid, flow: Flow, num: Numerics, start: Start) -> Bp {
        let t = Tables::new(&g);
        let (nn, nc) = (g.ni * g.nj, g.nci() * g.ncj());
        let w = initial(start, &g, &flow);
        Bp {
            edges: Edges::new(&t, g.ni, g.nj),
            form: BoundaryForm::Tables,
            ghost: None,
            rho_in: (0..g.nj).map(|j| w[j * g.ni][0]).collect(),
            w,
            prev: vec![[0.0; 4]; nc],
            step: 0,
            sec: vec![[0.0; 4]; nn],
            fi: vec![[0.0; 4]; g.ni * g.ncj()],
            fj: vec![[0.0; 4]; g.nci() * g.nj],
            cells: vec![[0.0; 4]; nc],
            parallel: false,
            g,
            t,
            flow,
            num,
        }
    }

    /// The relaxed inlet density per inlet node (checkpoints).
    pub fn rho_inlet(&self) -> &[f64] {
        &self.rho_in
    }

    /// Replace the relaxed inlet density (a restore).
    pub fn set_rho_inlet(&mut self, r: &[f64]) {
        self.rho_in.copy_from_slice(r);
    }

    /// (u, v, p, H) of a node state.
    pub fn secondary(&self, w: &[f64; 4]) -> [f64; 4] {
        self.flow.secondary(w)
    }

    /// Inlet: stagnation p0, T0 and the flow angle with the density relaxed towards the
    /// interior update (capped below ρ0), or the fixed supersonic state; outlet: the exit
    /// static pressure (§4.7), or nothing at a supersonic exit.
    fn apply_bconds(&mut self) {
        let f = self.flow;
        let ni = self.g.ni;
        for j in 0..self.g.nj {
            let k = j * ni;
            let (r, w) = inlet_state(&f, &self.num, self.w[k][0], self.rho_in[j]);
            self.rho_in[j] = r;
            self.w[k] = w;
            self.sec[k] = self.secondary(&self.w[k]);
            if !f.free_exit {
                let o = ni - 1 + j * ni;
                self.sec[o][2] = f.p_exit;
            }
        }
    }

    /// One step; returns the largest |Δρ|/ρ0 of the nodes over the whole step (the changes
    /// and the smoothing together: at steady state the smoothing balances the flux residual,
    /// so the cell changes alone do not go to zero).
    pub fn step(&mut self) -> f64 {
        let (ni, nc) = (self.g.ni, self.g.nci());
        let par = self.parallel;
        let flow = self.flow;
        {
            let w = &self.w;
            each(par, &mut self.sec, |k, s| *s = flow.secondary(&w[k]));
        }
        self.apply_bconds();
        if self.form == BoundaryForm::Ghost {
            let first = self.step == 0;
            let g = self
                .ghost
                .get_or_insert_with(|| Box::new(Ghost::new(&self.g)));
            let res = g.step(
                par,
                &flow,
                &self.num,
                first,
                &mut self.w,
                &self.sec,
                &mut self.prev,
            );
            self.step += 1;
            return res;
        }
        let Bp {
            g,
            t,
            num,
            w,
            prev,
            sec,
            fi,
            fj,
            cells,
            step,
            edges,
            form,
            ..
        } = self;
        let (nj, ranges) = (g.nj, *form == BoundaryForm::Ranges);
        let edges = &*edges;
        // The ranges form: interior rows by index arithmetic, the boundary ones from `edges`
        // in a loop of their own.
        let interior = |k: usize| !Edges::on(k % ni, k / ni, ni, nj);
        let (w_, sec_) = (&*w, &*sec);
        each(par, fi, |f, out| {
            let mul = if ranges { 0.5 } else { t.mul_i[f] };
            *out = face(w_, sec_, f, f + ni, g.dli[f], mul);
        });
        each(par, fj, |f, out| {
            let a = f % nc + (f / nc) * ni;
            let mul = if !ranges {
                t.mul_j[f]
            } else if f < nc {
                edges.mul_j[f]
            } else if f >= (nj - 1) * nc {
                edges.mul_j[f - (nj - 2) * nc]
            } else {
                0.5
            };
            *out = face(w_, sec_, a, a + 1, g.dlj[f], mul);
        });
        let gamma = flow.gamma;
        let first = *step == 0;
        let (fi_, fj_) = (&*fi, &*fj);
        each2(par, cells, prev, |c, eff, last| {
            let (i, j) = (c % nc, c / nc);
            // Local time step from the fastest of the cell's four nodes.
            let mut s: f64 = 0.0;
            for k in [
                i + j * ni,
                i + 1 + j * ni,
                i + 1 + (j + 1) * ni,
                i + (j + 1) * ni,
            ] {
                let q = &sec_[k];
                s = s.max(bp_speed(gamma, w_[k][0], q[0], q[1], q[2]));
            }
            let r = bp_rate(num.cfl, g.dmin[c], s, g.area[c]);
            let (a, b) = (fi_[i + j * ni], fi_[i + 1 + j * ni]);
            let (d, u) = (fj_[c], fj_[i + (j + 1) * nc]);
            for v in 0..4 {
                let dn = bp_change(r, a[v], b[v], d[v], u[v]);
                let old = if first { dn } else { last[v] };
                eff[v] = bp_scree(dn, old);
                last[v] = dn;
            }
        });
        let rho0 = flow.rho0();
        let mut tmp = w.clone();
        let cells_ = &*cells;
        let add = |node: &mut [f64; 4], row: [u32; 4]| {
            let ix = row.map(|c| &cells_[c as usize]);
            for (v, x) in node.iter_mut().enumerate() {
                *x = bp_sum(*x, ix[0][v], ix[1][v], ix[2][v], ix[3][v]);
            }
        };
        each(par, &mut tmp, |k, node| {
            if !ranges {
                add(node, t.sum[k]);
            } else if interior(k) {
                let (i, j) = (k % ni, k / ni);
                let c = |i: usize, j: usize| (i + j * nc) as u32;
                add(node, [c(i - 1, j - 1), c(i, j - 1), c(i - 1, j), c(i, j)]);
            }
        });
        if ranges {
            for (e, &k) in edges.nodes.iter().enumerate() {
                add(&mut tmp[k as usize], edges.sum[e]);
            }
        }
        let sf = num.smooth * num.cfl;
        let tmp = &tmp;
        let smooth = |k: usize, node: &mut [f64; 4], row: [u32; 4], wt: [f64; 4]| -> f64 {
            let before = node[0];
            let ix = row.map(|n| &tmp[n as usize]);
            for (v, x) in node.iter_mut().enumerate() {
                let avg = bp_avg(
                    wt[0], wt[1], wt[2], wt[3], ix[0][v], ix[1][v], ix[2][v], ix[3][v],
                );
                *x = bp_blend(sf, tmp[k][v], avg);
            }
            bp_res(rho0, node[0], before)
        };
        let one = |k: usize, node: &mut [f64; 4]| -> f64 {
            if !ranges {
                smooth(k, node, t.smooth_idx[k], t.smooth_w[k])
            } else if interior(k) {
                let (n, s) = (k as u32, ni as u32);
                smooth(k, node, [n - 1, n + 1, n - s, n + s], [0.25; 4])
            } else {
                0.0
            }
        };
        let mut res = max_over(par, w, one);
        if ranges {
            for (e, &k) in edges.nodes.iter().enumerate() {
                let k = k as usize;
                let r = smooth(k, &mut w[k], edges.smooth_idx[e], edges.smooth_w[e]);
                res = res.max(r);
            }
        }
        *step += 1;
        res
    }

    /// Mass flow through i-line `i` (per unit depth), from the node values.
    pub fn mass_flow(&self, i: usize) -> f64 {
        let ni = self.g.ni;
        (0..self.g.ncj())
            .map(|j| {
                let (a, b) = (&self.w[i + j * ni], &self.w[i + (j + 1) * ni]);
                let dl = self.g.dli[i + j * ni];
                0.5 * ((a[1] + b[1]) * dl[0] + (a[2] + b[2]) * dl[1])
            })
            .sum()
    }

    /// Entropy rise of a node, (p/p0)(ρ0/ρ)^γ − 1 (0 for isentropic flow from the inlet).
    pub fn entropy(&self, k: usize) -> f64 {
        let f = self.flow;
        let p = self.secondary(&self.w[k])[2];
        (p / f.p0) * (f.rho0() / self.w[k][0]).powf(f.gamma) - 1.0
    }

    /// Mach number of a node.
    pub fn mach(&self, k: usize) -> f64 {
        let s = self.secondary(&self.w[k]);
        s[0].hypot(s[1]) / (self.flow.gamma * s[2] / self.w[k][0]).sqrt()
    }
}
