//! The tuning variables of the explicit stages (each gives the same bits): their names,
//! their parsing and the one-line refusal of a value they do not take.

use super::stage::StageForm;
use super::walls::WalledMode;
use crate::error::DeviceError;

/// Environment variable overriding the stage shape for tuning sweeps: `LXxLYxRPI`, e.g.
/// `64x4x4` (LX·LY a power of two, at most 1024; LY = 1 in 1D and in the strip form, whose
/// LX is at least 4). It becomes `DEV_LX`, `DEV_LY` and `DEV_RPI`, so it is part of the
/// kernel cache key and of the recorded build options; results do not depend on it (every
/// cell's update is the same function).
pub const SHAPE_ENV: &str = "SIMPLETS_EXPLICIT_SHAPE";

/// Environment variable choosing the form of the 2D SHLL stages (Euler and shallow water)
/// on any device: `strip` or `tile` ([`StageForm`]). Unset, a GPU runs the strip and another
/// device the tile. With MUSCL (and no walls) `strip` is the MUSCL strip and `tile` the plain
/// stage (MUSCL has no tiled form).
pub const STAGE_ENV: &str = "SIMPLETS_EXPLICIT_STAGE";

/// Environment variable for comparisons: `0` makes the strip stage read each row when it
/// comes to it instead of one row ahead (`DEV_PREFETCH`; the default is `1`). The same bits.
pub const PREFETCH_ENV: &str = "SIMPLETS_STRIP_PREFETCH";

/// Environment variable for measurements: `all` makes every strip work-group with walls
/// that computes a fluid cell run the strip with its wall code, not only those that read a
/// solid cell ([`Stage::walled_groups`](super::Stage::walled_groups)), so that a bench times that code against the copy
/// without it. The same bits: where a group reads no solid cell its wall branches are never
/// taken.
pub const WALLED_ENV: &str = "SIMPLETS_STRIP_WALLED";

/// Environment variable for measurements: how the strip with walls launches its walled and
/// free groups ([`WalledMode`]): `mixed`, `apart` or `beside`. Unset, [`Stage::on`](super::Stage::on)
/// chooses ([`Stage::walled_mode`](super::Stage::walled_mode)).
pub const WALLED_LAUNCH_ENV: &str = "SIMPLETS_WALLED_LAUNCH";

/// The form [`STAGE_ENV`] asks for: `Ok(None)` when unset or empty, an error naming the
/// variable for another value.
pub fn stage_setting() -> Result<Option<StageForm>, DeviceError> {
    setting(STAGE_ENV, "expected `strip` or `tile`", |v| match v {
        "strip" => Some(Some(StageForm::Strip)),
        "tile" => Some(Some(StageForm::Tile)),
        _ => None,
    })
    .map(Option::flatten)
}

/// Whether the strip stage reads each row one row ahead ([`PREFETCH_ENV`]), or why the
/// variable's value is refused.
pub fn prefetch_setting() -> Result<bool, DeviceError> {
    setting(PREFETCH_ENV, "expected 0 or 1", |v| match v {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    })
    .map(|b| b.unwrap_or(true))
}

/// Whether every strip group with a fluid cell runs the wall code ([`WALLED_ENV`]), or why
/// the variable's value is refused.
pub fn all_walled_setting() -> Result<bool, DeviceError> {
    setting(WALLED_ENV, "expected all", |v| (v == "all").then_some(true))
        .map(|b| b.unwrap_or(false))
}

/// The value of environment variable `var` through `parse` (`Ok(None)` when unset or empty),
/// or an error naming it with `reason`.
fn setting<T>(
    var: &'static str,
    reason: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, DeviceError> {
    let Ok(v) = std::env::var(var) else {
        return Ok(None);
    };
    if v.trim().is_empty() {
        return Ok(None);
    }
    parse(v.trim())
        .map(Some)
        .ok_or(DeviceError::BadBuildOption {
            var,
            value: v.clone(),
            reason: reason.into(),
        })
}

/// The shape `LXxLYxRPI` of [`SHAPE_ENV`] for the stage `form` of a mesh of `dims`
/// dimensions, or why not.
pub fn parse_shape(
    value: &str,
    dims: usize,
    form: StageForm,
) -> Result<(usize, usize, usize), String> {
    let parts = crate::text::x_counts(value)?;
    let [lx, ly, rpi] = parts[..] else {
        return Err("expected LXxLYxRPI, e.g. 64x4x4".into());
    };
    let n = lx * ly;
    if lx == 0 || ly == 0 || rpi == 0 || !n.is_power_of_two() || n > 1024 {
        return Err("LX·LY must be a power of two from 1 to 1024, RPI at least 1".into());
    }
    if dims == 1 && ly != 1 {
        return Err("a 1D mesh takes LY = 1".into());
    }
    if form == StageForm::Strip && (ly != 1 || lx < 4) {
        return Err(format!(
            "the strip stage takes LY = 1 and LX of at least 4 (e.g. 128x1x16; {STAGE_ENV}=tile for tiles)"
        ));
    }
    if form == StageForm::MusclStrip && (ly != 1 || lx < 8) {
        return Err(format!(
            "the MUSCL strip takes LY = 1 and LX of at least 8 (e.g. 128x1x16; {STAGE_ENV}=tile for the plain stage)"
        ));
    }
    Ok((lx, ly, rpi))
}

/// [`WALLED_LAUNCH_ENV`]'s choice (`None` where unset), or why its value is refused.
pub fn walled_launch_setting() -> Result<Option<WalledMode>, DeviceError> {
    setting(WALLED_LAUNCH_ENV, "expected mixed, apart or beside", |v| {
        [WalledMode::Mixed, WalledMode::Apart, WalledMode::Beside]
            .into_iter()
            .find(|m| m.name() == v)
    })
}

/// [`SHAPE_ENV`]'s value where it is set and not blank.
pub(super) fn shape_var() -> Option<String> {
    std::env::var(SHAPE_ENV)
        .ok()
        .filter(|v| !v.trim().is_empty())
}
