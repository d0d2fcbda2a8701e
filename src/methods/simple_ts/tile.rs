//! A case resized by tiling its domain: the large grids of `simplets bench` and `check`.

use super::case::Case;

/// Resize `case` to `nx` × `ny` computed cells at its own (uniform) spacing by tiling its
/// domain: the domain grows or shrinks from its lower-left corner, and the bodies are repeated
/// with the period of the original domain, keeping the copies that lie wholly inside with a
/// fluid cell to spare. The
/// confined-square case (4032 × 200, one square) at 4032 × 4000 becomes 20 stacked channels'
/// worth of squares in one channel of height 200 (docs/PERFORMANCE.md).
pub fn tile_case(case: &Case, nx: usize, ny: usize) -> Result<Case, String> {
    let g = &case.grid;
    if g.x_faces.is_some() || g.y_faces.is_some() {
        return Err("--nx/--ny need a uniform grid (no x_faces/y_faces)".into());
    }
    let (lx, ly) = (g.x[1] - g.x[0], g.y[1] - g.y[0]);
    let (hx, hy) = (lx / g.nx as f64, ly / g.ny as f64);
    let mut c = case.clone();
    c.grid.nx = nx;
    c.grid.ny = ny;
    c.grid.x = [g.x[0], g.x[0] + hx * nx as f64];
    c.grid.y = [g.y[0], g.y[0] + hy * ny as f64];
    let (tx, ty) = (nx.div_ceil(g.nx), ny.div_ceil(g.ny));
    let eps = 1e-9 * (hx.min(hy));
    c.bodies.clear();
    for jy in 0..ty {
        for ix in 0..tx {
            for b in &case.bodies {
                let mut b = b.clone();
                b.x = [b.x[0] + ix as f64 * lx, b.x[1] + ix as f64 * lx];
                b.y = [b.y[0] + jy as f64 * ly, b.y[1] + jy as f64 * ly];
                // Wholly inside, with a fluid cell between the body and the domain side.
                if b.x[1] + hx <= c.grid.x[1] + eps && b.y[1] + hy <= c.grid.y[1] + eps {
                    if tx * ty > 1 && !b.name.is_empty() {
                        b.name = format!("{}_{ix}_{jy}", b.name);
                    }
                    c.bodies.push(b);
                }
            }
        }
    }
    c.validate().map_err(|e| format!("resized case: {e}"))?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case() -> Case {
        let text = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("configs/confined_square.json"),
        )
        .unwrap();
        Case::from_json(&text, "confined_square").unwrap()
    }

    #[test]
    fn tiling_the_confined_square_gives_the_papers_large_grid() {
        let c = tile_case(&case(), 4032, 4000).unwrap();
        assert_eq!((c.grid.nx, c.grid.ny), (4032, 4000));
        assert_eq!(c.bodies.len(), 20);
        assert!((c.grid.y[1] - 200.0).abs() < 1e-9);
        assert!((c.bodies[19].y[0] - 194.5).abs() < 1e-9);
        // Smaller than the original along x: the square (x 10..11) needs 220 columns.
        let c = tile_case(&case(), 221, 200).unwrap();
        assert_eq!(c.bodies.len(), 1);
        let c = tile_case(&case(), 220, 200).unwrap();
        assert!(c.bodies.is_empty());
    }
}
