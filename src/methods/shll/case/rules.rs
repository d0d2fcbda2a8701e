//! The helpers the three SHLL case types share beyond the `scheme` section: the dimension
//! and periodicity of the grid, and the value rules on `method` and the internal walls.

use crate::case::rules::invalid;
use crate::case::{GridSpec, Method};
use crate::error::ConfigError;
use crate::methods::explicit::case::{Boundaries, Rect};

/// 1 for a one-row grid (ny = 1), else 2.
pub(super) fn dims(g: &GridSpec) -> usize {
    if g.ny == 1 {
        1
    } else {
        2
    }
}

/// Whether the x and y directions are periodic (the west and south sides say).
pub(super) fn periodic<S>(b: &Boundaries<S>) -> (bool, bool) {
    use crate::methods::explicit::case::Side;
    (
        matches!(b.west, Side::Periodic),
        matches!(b.south, Some(Side::Periodic)),
    )
}

/// The case's `method` must be `want`.
pub(super) fn check_method(m: Method, want: Method) -> Result<(), ConfigError> {
    if m == want {
        Ok(())
    } else {
        Err(invalid("method", m, format!("must be {want}")))
    }
}

/// Every internal wall's extents are closed intervals.
pub(super) fn check_walls(walls: &[Rect]) -> Result<(), ConfigError> {
    for (k, w) in walls.iter().enumerate() {
        crate::methods::explicit::case::closed_extent(&format!("walls[{k}].x"), w.x)?;
        crate::methods::explicit::case::closed_extent(&format!("walls[{k}].y"), w.y)?;
    }
    Ok(())
}
