//! Error norms of a numerical solution against an exact one, observed orders of accuracy, and
//! Richardson extrapolation.
//!
//! Norms are **not** normalised by the domain size (seed 003 §3.1 quotes L1 = Σ|u − u_exact|·Δx):
//! L1 = Σ|e_i|V_i, L2 = (Σ e_i² V_i)^{1/2}, L∞ = max|e_i|, with V_i the cell length (1D) or area
//! (2D). [`ErrorNorms::per_unit_volume`] divides L1 by ΣV and L2 by (ΣV)^{1/2} for the mean-error
//! form. Units: those of the field times length (L1) or length^{1/2} (L2) in 1D.

use super::error::{positive, ExactError, Result};

/// L1, L2 and L∞ norms of the error, and the total cell volume they were weighted with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ErrorNorms {
    /// Σ|e|V.
    pub l1: f64,
    /// (Σ e² V)^{1/2}.
    pub l2: f64,
    /// max|e|.
    pub linf: f64,
    /// ΣV.
    pub volume: f64,
}

impl ErrorNorms {
    /// The volume-normalised norms: L1/ΣV, L2/(ΣV)^{1/2}, L∞ unchanged.
    pub fn per_unit_volume(&self) -> ErrorNorms {
        ErrorNorms {
            l1: self.l1 / self.volume,
            l2: self.l2 / self.volume.sqrt(),
            linf: self.linf,
            volume: 1.0,
        }
    }
}

fn same_len(what: &'static str, expected: usize, found: usize) -> Result<()> {
    if expected == found {
        Ok(())
    } else {
        Err(ExactError::LengthMismatch {
            what,
            expected,
            found,
        })
    }
}

/// Norms of `numerical − exact` with cell volumes `volumes` (lengths in 1D, areas in 2D, each
/// positive). All three slices must have the same non-zero length; a NaN or infinite error
/// gives non-finite norms (so a diverged run cannot pass).
pub fn error_norms(numerical: &[f64], exact: &[f64], volumes: &[f64]) -> Result<ErrorNorms> {
    if numerical.is_empty() {
        return Err(ExactError::Invalid {
            what: "error norms",
            reason: "no cells given",
        });
    }
    same_len(
        "exact values vs numerical values",
        numerical.len(),
        exact.len(),
    )?;
    same_len(
        "cell volumes vs numerical values",
        numerical.len(),
        volumes.len(),
    )?;
    let mut n = ErrorNorms {
        l1: 0.0,
        l2: 0.0,
        linf: 0.0,
        volume: 0.0,
    };
    for ((&a, &b), &v) in numerical.iter().zip(exact).zip(volumes) {
        positive("cell volume", v)?;
        let e = (a - b).abs();
        n.l1 += e * v;
        n.l2 += e * e * v;
        // `max` would drop a NaN; keep it.
        n.linf = if e.is_nan() || e > n.linf { e } else { n.linf };
        n.volume += v;
    }
    n.l2 = n.l2.sqrt();
    Ok(n)
}

/// Norms on a uniform 1D grid of spacing `dx` > 0.
pub fn error_norms_1d(numerical: &[f64], exact: &[f64], dx: f64) -> Result<ErrorNorms> {
    positive("dx", dx)?;
    error_norms(numerical, exact, &vec![dx; numerical.len()])
}

/// Norms on a tensor-product 2D grid with cell widths `hx` (nx of them) and heights `hy`
/// (ny of them); the fields are row-major with x fastest (index i + nx·j), length nx·ny.
pub fn error_norms_2d(
    numerical: &[f64],
    exact: &[f64],
    hx: &[f64],
    hy: &[f64],
) -> Result<ErrorNorms> {
    same_len(
        "numerical values vs nx*ny",
        hx.len() * hy.len(),
        numerical.len(),
    )?;
    let volumes: Vec<f64> = hy
        .iter()
        .flat_map(|&y| hx.iter().map(move |&x| x * y))
        .collect();
    error_norms(numerical, exact, &volumes)
}

/// Norms on a uniform nx × ny grid of spacings `dx`, `dy` (row-major, x fastest).
pub fn error_norms_2d_uniform(
    numerical: &[f64],
    exact: &[f64],
    nx: usize,
    dx: f64,
    dy: f64,
) -> Result<ErrorNorms> {
    positive("dx", dx)?;
    positive("dy", dy)?;
    if nx == 0 || numerical.len() % nx != 0 {
        return Err(ExactError::Invalid {
            what: "2D field",
            reason: "its length must be a non-zero multiple of nx",
        });
    }
    let ny = numerical.len() / nx;
    error_norms_2d(numerical, exact, &vec![dx; nx], &vec![dy; ny])
}

/// Observed order p = ln(e_coarse/e_fine)/ln(h_coarse/h_fine) between two grids (errors and
/// spacings > 0, h_coarse ≠ h_fine).
pub fn observed_order(e_coarse: f64, e_fine: f64, h_coarse: f64, h_fine: f64) -> Result<f64> {
    positive("coarse-grid error", e_coarse)?;
    positive("fine-grid error", e_fine)?;
    positive("coarse spacing", h_coarse)?;
    positive("fine spacing", h_fine)?;
    if h_coarse == h_fine {
        return Err(ExactError::Invalid {
            what: "observed order",
            reason: "the two grid spacings must differ",
        });
    }
    Ok((e_coarse / e_fine).ln() / (h_coarse / h_fine).ln())
}

/// Observed orders between successive grids of a sequence (spacings `h`, errors `e`, same
/// length ≥ 2): element k is the order between grids k and k + 1.
pub fn observed_orders(h: &[f64], e: &[f64]) -> Result<Vec<f64>> {
    same_len("errors vs spacings", h.len(), e.len())?;
    if h.len() < 2 {
        return Err(ExactError::Invalid {
            what: "observed orders",
            reason: "need >= 2 grids",
        });
    }
    (0..h.len() - 1)
        .map(|k| observed_order(e[k], e[k + 1], h[k], h[k + 1]))
        .collect()
}

/// Least-squares slope of ln e against ln h over all grids (≥ 2, distinct spacings): the order
/// fitted to the whole sequence.
pub fn fitted_order(h: &[f64], e: &[f64]) -> Result<f64> {
    observed_orders(h, e)?; // checks lengths, positivity and distinct neighbours
    let n = h.len() as f64;
    let (lx, ly): (Vec<f64>, Vec<f64>) = h.iter().zip(e).map(|(h, e)| (h.ln(), e.ln())).unzip();
    let (mx, my) = (lx.iter().sum::<f64>() / n, ly.iter().sum::<f64>() / n);
    let sxy: f64 = lx.iter().zip(&ly).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = lx.iter().map(|x| (x - mx) * (x - mx)).sum();
    Ok(sxy / sxx)
}

/// Richardson extrapolation of a quantity computed on two grids with refinement ratio
/// r = h_coarse/h_fine > 1 by a method of order p > 0:
/// f_exact ≈ f_fine + (f_fine − f_coarse)/(r^p − 1) (Richardson 1911; Roache 1998).
pub fn richardson(f_coarse: f64, f_fine: f64, ratio: f64, order: f64) -> Result<f64> {
    positive("refinement ratio - 1", ratio - 1.0)?;
    positive("order", order)?;
    Ok(f_fine + (f_fine - f_coarse) / (ratio.powf(order) - 1.0))
}

/// Observed order from three grids with a constant refinement ratio r > 1 (coarse, medium,
/// fine): p = ln((f_c − f_m)/(f_m − f_f))/ln r. The differences must have the same sign
/// (monotone convergence).
pub fn order_from_three(f_coarse: f64, f_medium: f64, f_fine: f64, ratio: f64) -> Result<f64> {
    positive("refinement ratio - 1", ratio - 1.0)?;
    let q = (f_coarse - f_medium) / (f_medium - f_fine);
    if !(q.is_finite() && q > 0.0) {
        return Err(ExactError::Invalid {
            what: "three-grid order",
            reason: "the solution differences must be non-zero with the same sign",
        });
    }
    Ok(q.ln() / ratio.ln())
}

#[cfg(test)]
#[path = "norms_tests.rs"]
mod tests;
