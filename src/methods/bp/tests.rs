//! The serial Brandvik–Pullan core on the channel with a bump: closed cells, branch-free
//! table weights, free-stream preservation, and the subsonic bump (convergence, mass flow in
//! = out, entropy rise falling with refinement, symmetry about the bump).

use super::grid::NodeGrid;
use super::step::Bp;
use super::tables::Tables;
use super::{Flow, Numerics};

fn air(p_exit_ratio: f64) -> Flow {
    Flow {
        gamma: 1.4,
        r: 287.0,
        p0: 1e5,
        t0: 300.0,
        angle: 0.0,
        p_exit: 1e5 * p_exit_ratio,
    }
}

/// Every cell of the bump grid is closed (Σ of its outward projected lengths = 0): 1e-14 of
/// the largest face length is a few ulps of the coordinates.
#[test]
fn bump_cells_are_closed() {
    let g = NodeGrid::bump(49, 17, 0.1);
    assert!(g.closure() < 1e-14, "closure {}", g.closure());
    assert!(g.area.iter().all(|a| *a > 0.0));
}

/// The sum weights are ¼ per entry (½ + ½ on a side, 4 × the one cell at a corner) and every
/// smoothing stencil's weights sum to 1, so a uniform state is a fixed point of both.
#[test]
fn tables_give_the_boundary_weights() {
    let g = NodeGrid::bump(9, 6, 0.1);
    let t = Tables::duct(&g);
    assert_eq!(t.sum[0], [0, 0, 0, 0], "corner: its one cell four times");
    let nc: u32 = 8;
    assert_eq!(t.sum[3], [2, 3, 2, 3], "lower wall: ½ + ½");
    assert_eq!(
        t.sum[3 + 2 * 9],
        [2 + nc, 3 + nc, 2 + 2 * nc, 3 + 2 * nc],
        "interior: four cells"
    );
    for w in &t.smooth_w {
        assert!((w.iter().sum::<f64>() - 1.0).abs() < 1e-15);
    }
    assert_eq!(t.mul_j[0], 0.0);
    assert_eq!(t.mul_j[8 * 5], 0.0);
    assert_eq!(t.mul_j[8], 0.5);
}

/// A straight channel started at the exit state, with the inlet stagnation state matching
/// it, stays uniform: the largest change of any conserved value after 200 steps is round-off
/// (1e-10 relative leaves room for 200 steps of ulp-level flux imbalance).
#[test]
fn free_stream_is_preserved() {
    let mut b = Bp::new(NodeGrid::bump(33, 9, 0.0), air(0.843), Numerics::default());
    let w0 = b.w.clone();
    for _ in 0..200 {
        b.step();
    }
    let mut worst: f64 = 0.0;
    for (a, c) in b.w.iter().zip(&w0) {
        for v in [0, 1, 3] {
            worst = worst.max((a[v] - c[v]).abs() / c[v].abs());
        }
        worst = worst.max(a[2].abs() / c[1].abs());
    }
    assert!(worst < 1e-10, "free stream drifts by {worst:e}");
}

/// Runs the M ≈ 0.5 bump (10 % arc) to steady state; returns (steps, residual, max entropy
/// rise, mass-flow imbalance, wall Mach asymmetry, peak wall Mach).
fn bump(ni: usize, nj: usize) -> (u64, f64, f64, f64, f64, f64) {
    let mut b = Bp::new(NodeGrid::bump(ni, nj, 0.1), air(0.843), Numerics::default());
    let mut res = 1.0;
    while b.step < 40_000 && res > 1e-7 {
        res = b.step();
    }
    let s = (0..ni * nj).map(|k| b.entropy(k).abs()).sum::<f64>() / (ni * nj) as f64;
    let (m_in, m_out) = (b.mass_flow(0), b.mass_flow(ni - 1));
    // The bump spans x in [0, 1] on x in [-1, 2]: node i and ni - 1 - i mirror about x = 0.5.
    let asym = (0..ni)
        .map(|i| (b.mach(i) - b.mach(ni - 1 - i)).abs())
        .fold(0.0, f64::max);
    let peak = (0..ni).map(|i| b.mach(i)).fold(0.0, f64::max);
    (b.step, res, s, (m_in - m_out).abs() / m_in, asym, peak)
}

/// The M ≈ 0.5 bump (exit pressure 0.843 p0) at 49 × 17 and 97 × 33 nodes. Measured
/// (coarse, fine, and 193 × 65 when written): steps to a residual of 1e-7: 3 089, 7 472,
/// 24 831; mean |entropy rise| 1.96e-3, 1.17e-3, 6.7e-4 (the smoothing is first order: the
/// rise falls ~0.6× per halving); mass-flow imbalance inlet/outlet 1.4e-3, 1.0e-3, 6.8e-4;
/// largest wall-Mach asymmetry about the bump 0.044, 0.037, 0.032 (the arc's corners at x = 0
/// and 1 are slope discontinuities); peak wall Mach 0.633, 0.656, 0.672.
#[test]
fn subsonic_bump_converges_and_refines() {
    let c = bump(49, 17);
    let f = bump(97, 33);
    for r in [c, f] {
        assert!(r.1 <= 1e-7, "not converged: {r:?}");
    }
    assert!(f.2 < 0.7 * c.2, "entropy rise {} -> {}", c.2, f.2);
    assert!(c.2 < 2.5e-3, "entropy rise {}", c.2);
    assert!(
        c.3 < 2e-3 && f.3 < c.3,
        "mass flow imbalance {} -> {}",
        c.3,
        f.3
    );
    assert!(f.4 < c.4 && c.4 < 0.06, "asymmetry {} -> {}", c.4, f.4);
    assert!(
        c.5 > 0.6 && f.5 > c.5 && f.5 < 0.7,
        "peak Mach {} -> {}",
        c.5,
        f.5
    );
}
