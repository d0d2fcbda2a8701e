//! The font of the labels: a subset of DejaVu Sans (`DejaVuSans-subset.ttf`, 28 KB, licence
//! in `FONT-LICENSE`) embedded in the binary, so pictures need no system font.

use plotters::style::{register_font, FontStyle};

/// The family name the pictures ask for.
pub const FAMILY: &str = "sans-serif";

static FONT: &[u8] = include_bytes!("DejaVuSans-subset.ttf");

/// Register the embedded font as [`FAMILY`] (once).
pub fn register() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if register_font(FAMILY, FontStyle::Normal, FONT).is_err() {
            log::warn!("the embedded font could not be loaded; pictures will lack text");
        }
    });
}
