//! The branch-free boundary tables of seed 001 §5, built once on the host: with them the
//! node update and the smoothing are one formula for every node, walls, inlet, outlet and
//! corners included.
//!
//! - **Sum index** (§4.5): the four cells whose SCREE changes a node receives, ¼ each.
//!   Clamping the cell indices i−1, i and j−1, j into range repeats cells at the boundary,
//!   which gives exactly the report's weights: ½ + ½ on a side, the one cell four times at a
//!   corner.
//! - **Smooth index** (§4.6): four node indices and four weights. Interior
//!   (¼, ¼, ¼, ¼) over the i and j neighbours (i clamped at the inlet and outlet); a wall node
//!   (j = 0): (U(i−1) + U(i+1) + 2U(j+1) − U(j+2))/3, the upper wall its mirror image.
//! - **Flux multiplier** (§4.2): ½ on every face, 0 on the j-faces of the two walls, which
//!   makes their mass flux exactly zero and leaves the pressure force.
//! - **Periodic seams** (§4.7, the cascade): paired nodes of the j = 0 and nj − 1 lines are
//!   one node through the same rows, and seam faces keep their ½ ([`Tables::new`]).

use serde::{Deserialize, Serialize};

use super::grid::NodeGrid;

/// How the boundaries reach the step (`"scheme": { "boundaries": ... }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BoundaryForm {
    /// The report's branch-free index tables (§5): every node and face reads its row.
    #[default]
    Tables,
    /// Spec §10 items 2–3: interior nodes and faces by index arithmetic with the constant
    /// weights; only the boundary nodes and the j-boundary faces read compact rows
    /// ([`Edges`]), in their own loops (their own launches on a device). The same
    /// operations on the same operands as the tables, so the same bits.
    Ranges,
    /// One layer of ghost nodes on every side, filled before the interior kernels, then the
    /// interior stencils everywhere ([`super::ghost`]): another discretisation of the
    /// boundaries, for comparison with the tables.
    Ghost,
}

impl BoundaryForm {
    /// The name in the bench's form column and the solver's details.
    pub fn name(self) -> &'static str {
        match self {
            BoundaryForm::Tables => "tables",
            BoundaryForm::Ranges => "ranges",
            BoundaryForm::Ghost => "ghost",
        }
    }
}

/// The boundary rows of the ranges form: the nodes of the i = 0, ni − 1 and j = 0, nj − 1
/// lines (j = 0 and nj − 1 whole, then the inlet and exit columns between) with their
/// table rows, and the multipliers of the two j-boundary face lines.
#[derive(Debug, Clone, PartialEq)]
pub struct Edges {
    /// The boundary nodes.
    pub nodes: Vec<u32>,
    /// Their sum rows.
    pub sum: Vec<[u32; 4]>,
    /// Their smoothing nodes.
    pub smooth_idx: Vec<[u32; 4]>,
    /// Their smoothing weights.
    pub smooth_w: Vec<[f64; 4]>,
    /// The multipliers of the j = 0 faces, then of the j = nj − 1 faces.
    pub mul_j: Vec<f64>,
}

impl Edges {
    /// The boundary rows of `t` on a grid of `ni` × `nj` nodes.
    pub fn new(t: &Tables, ni: usize, nj: usize) -> Edges {
        let mut nodes: Vec<usize> = (0..ni).chain((nj - 1) * ni..nj * ni).collect();
        for j in 1..nj - 1 {
            nodes.push(j * ni);
            nodes.push(ni - 1 + j * ni);
        }
        let nc = ni - 1;
        Edges {
            sum: nodes.iter().map(|&k| t.sum[k]).collect(),
            smooth_idx: nodes.iter().map(|&k| t.smooth_idx[k]).collect(),
            smooth_w: nodes.iter().map(|&k| t.smooth_w[k]).collect(),
            mul_j: t.mul_j[..nc]
                .iter()
                .chain(&t.mul_j[(nj - 1) * nc..])
                .copied()
                .collect(),
            nodes: nodes.into_iter().map(|k| k as u32).collect(),
        }
    }

    /// Bytes of the rows per node of an `nn`-node grid (int32 indices, f64 weights and
    /// multipliers, as on the device).
    pub fn bytes_per_node(&self, nn: usize) -> f64 {
        let b = self.nodes.len() * (4 + 16 + 16 + 32) + self.mul_j.len() * 8;
        b as f64 / nn as f64
    }

    /// Whether node (i, j) of an `ni` × `nj` grid is a boundary node.
    pub fn on(i: usize, j: usize, ni: usize, nj: usize) -> bool {
        i == 0 || j == 0 || i == ni - 1 || j == nj - 1
    }
}

/// The precomputed index and weight tables of a grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Tables {
    /// Per node: the four cell indices of its change (`i + j·(ni − 1)`).
    pub sum: Vec<[u32; 4]>,
    /// Per node: the four node indices of its smoothing average.
    pub smooth_idx: Vec<[u32; 4]>,
    /// Per node: the four weights of its smoothing average (they sum to 1).
    pub smooth_w: Vec<[f64; 4]>,
    /// Per i-face: the mass-flux multiplier.
    pub mul_i: Vec<f64>,
    /// Per j-face: the mass-flux multiplier (0 on the walls).
    pub mul_j: Vec<f64>,
}

impl Tables {
    /// The tables of `g`: solid walls on the j = 0 and j = nj − 1 lines except where the
    /// grid's periodic pairs make a seam ([`NodeGrid::periodic`]).
    ///
    /// A periodic pair (i, 0) ~ (i, nj − 1) is one node (spec §4.7): both entries of the pair
    /// get the same sum and smoothing rows, written with the j = 0 indices, so the two copies
    /// stay bit-identical. Its sum row holds the cells below the seam (j = nj − 2) and above
    /// it (j = 0), ¼ each; its smoothing row reaches across the seam, (i, nj − 2) below and
    /// (i, 1) above. Where a neighbour along i is not periodic (a blade's leading or trailing
    /// edge, where the two blade surfaces part), that neighbour is two nodes, one on each
    /// surface, and the node is smoothed along i only: ½ per side, a split side ¼ + ¼ (four
    /// slots cannot hold the two i-sides, the split and the two j-neighbours).
    pub fn new(g: &NodeGrid) -> Tables {
        let (ni, nj, nc, ncj) = (g.ni, g.nj, g.nci(), g.ncj());
        let cell = |i: usize, j: usize| (i + j * nc) as u32;
        let node = |i: usize, j: usize| (i + j * ni) as u32;
        let mut sum = Vec::with_capacity(ni * nj);
        let mut smooth_idx = Vec::with_capacity(ni * nj);
        let mut smooth_w = Vec::with_capacity(ni * nj);
        for j in 0..nj {
            for i in 0..ni {
                let (ia, ib) = (i.saturating_sub(1), i.min(nc - 1));
                let (il, ir) = (i.saturating_sub(1), (i + 1).min(ni - 1));
                let edge = j == 0 || j == nj - 1;
                if edge && g.periodic[i] {
                    sum.push([
                        cell(ia, ncj - 1),
                        cell(ib, ncj - 1),
                        cell(ia, 0),
                        cell(ib, 0),
                    ]);
                    let (pl, pr) = (g.periodic[il], g.periodic[ir]);
                    if pl && pr {
                        smooth_idx.push([node(il, 0), node(ir, 0), node(i, nj - 2), node(i, 1)]);
                        smooth_w.push([0.25; 4]);
                    } else {
                        // One side, as (index, index, weight, weight): a periodic neighbour
                        // once at ½, a split one on both surfaces at ¼ each.
                        let side = |n: usize, p: bool| {
                            if p {
                                ([node(n, 0), node(n, 0)], [0.5, 0.0])
                            } else {
                                ([node(n, 0), node(n, nj - 1)], [0.25, 0.25])
                            }
                        };
                        let ((a, wa), (b, wb)) = (side(il, pl), side(ir, pr));
                        smooth_idx.push([a[0], a[1], b[0], b[1]]);
                        smooth_w.push([wa[0], wa[1], wb[0], wb[1]]);
                    }
                    continue;
                }
                let (ja, jb) = (j.saturating_sub(1), j.min(ncj - 1));
                sum.push([cell(ia, ja), cell(ib, ja), cell(ia, jb), cell(ib, jb)]);
                if edge {
                    let (j1, j2) = if j == 0 { (1, 2) } else { (nj - 2, nj - 3) };
                    smooth_idx.push([node(il, j), node(ir, j), node(i, j1), node(i, j2)]);
                    smooth_w.push([1.0 / 3.0, 1.0 / 3.0, 2.0 / 3.0, -1.0 / 3.0]);
                } else {
                    smooth_idx.push([node(il, j), node(ir, j), node(i, j - 1), node(i, j + 1)]);
                    smooth_w.push([0.25; 4]);
                }
            }
        }
        let mul_i = vec![0.5; ni * ncj];
        let mut mul_j = vec![0.5; nc * nj];
        for i in 0..nc {
            if !g.seam_face(i) {
                mul_j[i] = 0.0;
                mul_j[i + (nj - 1) * nc] = 0.0;
            }
        }
        Tables {
            sum,
            smooth_idx,
            smooth_w,
            mul_i,
            mul_j,
        }
    }

    /// Bytes of the tables per node (the report: 52 + 32 B of indices and weights per node and
    /// 4 B per face, against 140 B per node on its GPU in all).
    pub fn bytes_per_node(&self) -> f64 {
        let n = self.sum.len() as f64;
        let b = self.sum.len() * 16
            + self.smooth_idx.len() * 16
            + self.smooth_w.len() * 32
            + (self.mul_i.len() + self.mul_j.len()) * 8;
        b as f64 / n
    }
}
