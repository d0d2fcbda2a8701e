//! The pictures: colour fields with a colour bar, bodies and streamlines ([`field`]); line
//! plots of series in stacked panels ([`series`]). Drawn with plotters into an RGB buffer,
//! saved as PNG through a temporary file and rename.
//!
//! Field pictures keep an equal aspect ratio. A domain longer than 6:1 is cut into up to 8
//! strips along x, stacked top to bottom, so that a long channel stays readable.

mod field;
mod polyline;
mod series;

use std::error::Error;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::font::FAMILY;

pub use field::{field_image_size, field_plot_area};
pub use series::series_image_size;
// The pictures are drawn for the reader (`plot_files`), which needs the `netcdf` feature.
#[cfg_attr(not(feature = "netcdf"), allow(unused_imports))]
pub use field::{field_picture, Context};
#[cfg_attr(not(feature = "netcdf"), allow(unused_imports))]
pub use series::{residuals_picture, table_picture};

type DResult<T = ()> = Result<T, Box<dyn Error>>;

/// Width of every field picture, pixels.
pub const FIELD_WIDTH: u32 = 1600;
/// Width of every series picture, pixels.
pub const SERIES_WIDTH: u32 = 1200;

/// Height of the title line, pixels.
const TITLE_H: u32 = 56;
/// Margin around a chart, pixels.
const MARGIN: u32 = 12;
/// Width of a field chart's y labels, pixels.
const Y_LABEL_W: u32 = 80;
/// Space right of a chart, pixels.
const RIGHT_PAD: u32 = 24;

/// An RGB picture.
pub struct Image {
    w: u32,
    h: u32,
    buf: Vec<u8>,
}

impl Image {
    /// Encode as PNG into `<path>.tmp` and rename it to `path` (refused if `path` exists
    /// unless `force`).
    pub fn save(&self, path: &Path, force: bool) -> Result<(), String> {
        let f =
            crate::output::atomic::AtomicFile::prepare(path, force).map_err(|e| e.to_string())?;
        image::save_buffer_with_format(
            f.tmp_path(),
            &self.buf,
            self.w,
            self.h,
            image::ColorType::Rgb8,
            image::ImageFormat::Png,
        )
        .map_err(|e| e.to_string())?;
        f.commit().map(|_| ()).map_err(|e| e.to_string())
    }
}

/// Draw with `f` on a white `w × h` picture.
fn render(
    (w, h): (u32, u32),
    f: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> DResult,
) -> Result<Image, String> {
    let mut buf = vec![255u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        f(&root).map_err(|e| e.to_string())?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(Image { w, h, buf })
}

/// A tick label: up to 4 significant digits, no trailing zeros.
fn tick(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let a = v.abs();
    if !(1e-3..1e5).contains(&a) {
        // 2.50e-7 -> 2.5e-7, 1.00e-8 -> 1e-8
        let s = format!("{v:.2e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let m = m.trim_end_matches('0').trim_end_matches('.');
        return format!("{m}e{e}");
    }
    let digits = (3 - a.log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A tick label on an axis spanning `span`: values within round-off of zero print as 0,
/// and enough decimals are kept to tell ticks apart on a narrow axis (0.99999, 1.00001).
fn tick_in(v: f64, span: f64) -> String {
    if v.abs() < 1e-9 * span.abs() {
        return "0".into();
    }
    let a = v.abs();
    if span > 0.0 && (1e-3..1e5).contains(&a) {
        let need = (-(span / 10.0).log10()).ceil().max(0.0);
        let have = (3.0 - a.log10().floor()).max(0.0);
        if need > have {
            let decimals = need.min(12.0) as usize;
            let s = format!("{v:.decimals$}");
            return s.trim_end_matches('0').trim_end_matches('.').to_string();
        }
    }
    tick(v)
}

/// Draw `text` centred at `(x, y)`, shrinking the font until it fits `max_w`.
fn centred_text(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    text: &str,
    size: u32,
    (x, y): (i32, i32),
    max_w: u32,
) -> DResult {
    let mut s = size;
    let style = |s: u32| {
        TextStyle::from((FAMILY, s).into_font())
            .color(&BLACK)
            .pos(Pos::new(HPos::Center, VPos::Center))
    };
    while s > 10 && area.estimate_text_size(text, &style(s))?.0 > max_w {
        s -= 1;
    }
    area.draw_text(text, &style(s), (x, y))?;
    Ok(())
}

#[cfg(test)]
mod tests;
