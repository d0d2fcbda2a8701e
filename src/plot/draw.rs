//! The pictures: colour fields with a colour bar, bodies and streamlines; line plots of
//! series in stacked panels. Drawn with plotters into an RGB buffer, saved as PNG through a
//! temporary file and rename.
//!
//! Field pictures keep an equal aspect ratio. A domain longer than 6:1 is cut into up to 8
//! strips along x, stacked top to bottom, so that a long channel stays readable.

use std::error::Error;
use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::colour::ColourMap;
use super::csv::Table;
use super::data::{Field, Output, SnapshotRef};
use super::font::FAMILY;
use super::stream::{locate, streamlines};

type DResult<T = ()> = Result<T, Box<dyn Error>>;

/// Width of every field picture, pixels.
pub const FIELD_WIDTH: u32 = 1600;
/// Width of every series picture, pixels.
pub const SERIES_WIDTH: u32 = 1200;

const TITLE_H: u32 = 56;
const MARGIN: u32 = 12;
const Y_LABEL_W: u32 = 80;
const X_LABEL_H: u32 = 52;
const RIGHT_PAD: u32 = 24;
const BAR_BLOCK_H: u32 = 110;
const MAX_STRIP_ASPECT: f64 = 6.0;
const MAX_STRIPS: usize = 8;
const MAX_PLOT_H: u32 = 900;
const PANEL_H: u32 = 240;
/// Streamline spacing on the picture, pixels.
const STREAM_PX: f64 = 26.0;
const BODY: (u8, u8, u8) = (150, 150, 150);

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

/// Layout of a field picture of a domain `lx × ly`.
#[derive(Debug, Clone, Copy)]
struct FieldLayout {
    strips: usize,
    /// Plot area of one strip, pixels.
    pw: u32,
    ph: u32,
    /// Left edge of the strips (centred when narrower than the picture).
    left: u32,
    height: u32,
}

impl FieldLayout {
    fn new(lx: f64, ly: f64) -> FieldLayout {
        let aspect = if ly > 0.0 { lx / ly } else { 1.0 };
        let strips = ((aspect / MAX_STRIP_ASPECT).ceil() as usize).clamp(1, MAX_STRIPS);
        let sx = lx / strips as f64;
        let full = FIELD_WIDTH - 2 * MARGIN - Y_LABEL_W - RIGHT_PAD;
        let (mut pw, mut ph) = (full, (f64::from(full) * ly / sx).round() as u32);
        if ph > MAX_PLOT_H {
            ph = MAX_PLOT_H;
            pw = ((f64::from(ph) * sx / ly).round() as u32).clamp(40, full);
        }
        let ph = ph.max(24);
        let left = (full - pw) / 2;
        let height = TITLE_H + strips as u32 * Self::strip_h(ph) + BAR_BLOCK_H;
        FieldLayout {
            strips,
            pw,
            ph,
            left,
            height,
        }
    }

    fn strip_h(ph: u32) -> u32 {
        ph + 2 * MARGIN + X_LABEL_H
    }

    fn strip_w(&self) -> u32 {
        self.pw + 2 * MARGIN + Y_LABEL_W + RIGHT_PAD
    }
}

/// Pixel size of the field pictures of a domain `lx × ly` (length units): width
/// [`FIELD_WIDTH`], height from the aspect ratio (and the number of strips).
pub fn field_image_size(lx: f64, ly: f64) -> (u32, u32) {
    (FIELD_WIDTH, FieldLayout::new(lx, ly).height)
}

/// The plot area `(x, y, width, height)`, pixels, of the (first) strip of a field picture of
/// a domain `lx × ly`: where the field's colours are.
pub fn field_plot_area(lx: f64, ly: f64) -> (u32, u32, u32, u32) {
    let l = FieldLayout::new(lx, ly);
    (l.left + MARGIN + Y_LABEL_W, TITLE_H + MARGIN, l.pw, l.ph)
}

/// Pixel size of a series picture of `panels` stacked panels.
pub fn series_image_size(panels: usize) -> (u32, u32) {
    (SERIES_WIDTH, TITLE_H + PANEL_H * panels.max(1) as u32)
}

/// What the field pictures of one snapshot share.
pub struct Context<'a> {
    out: &'a Output,
    snap: &'a SnapshotRef,
    fields: &'a [Field],
}

impl<'a> Context<'a> {
    /// The pictures of snapshot `snap` with its `fields` (centre values).
    pub fn new(out: &'a Output, snap: &'a SnapshotRef, fields: &'a [Field]) -> Context<'a> {
        Context { out, snap, fields }
    }

    fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.var.name == name)
    }

    fn title(&self, what: &str) -> String {
        let o = self.out;
        let mut method = o.method.clone();
        if !o.scheme.is_empty() {
            method = format!("{method} / {}", o.scheme);
        }
        if !o.backend.is_empty() {
            method = format!("{method} ({})", o.backend);
        }
        format!(
            "{} — {what} — t = {} (step {}) — {method}",
            o.case_name,
            tick(self.snap.time),
            self.snap.step
        )
    }
}

/// A friendly name for the title.
fn field_title(name: &str) -> String {
    match name {
        "p" => "pressure p".into(),
        "T" => "temperature T".into(),
        "rho" => "density ρ".into(),
        "u" => "velocity u".into(),
        "v" => "velocity v".into(),
        "mach" => "Mach number with streamlines".into(),
        other => other.into(),
    }
}

/// The picture of field `name` (a variable of the file, or `mach`).
pub fn field_picture(ctx: &Context<'_>, name: &str) -> Result<Image, String> {
    let o = ctx.out;
    let (values, label, stream) = if name == "mach" {
        let (u, v, t) = match (ctx.field("u"), ctx.field("v"), ctx.field("T")) {
            (Some(u), Some(v), Some(t)) => (u, v, t),
            _ => return Err("mach needs u, v and T".into()),
        };
        let g = o.gamma;
        let m: Vec<f64> = (0..t.values.len())
            .map(|k| {
                let a = (g * t.values[k] / 2.0).sqrt();
                u.values[k].hypot(v.values[k]) / a
            })
            .collect();
        let label = format!(
            "Mach number |u| / a, a = √(γT/2), γ = {} (u, v averaged from the faces) [1]",
            tick(g)
        );
        (m, label, Some((&u.values, &v.values)))
    } else {
        let f = ctx.field(name).ok_or_else(|| format!("no field {name}"))?;
        let mut label = f.var.long_name.clone();
        if f.var.x_face || f.var.y_face {
            label.push_str(" — averaged to the cell centres");
        }
        if !f.var.units.is_empty() {
            label = format!("{label} [{}]", f.var.units);
        }
        (f.values.clone(), label, None)
    };
    // Colour range over the finite values of fluid cells.
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (k, &x) in values.iter().enumerate() {
        if x.is_finite() && !o.solid[k] {
            lo = lo.min(x);
            hi = hi.max(x);
        }
    }
    if lo > hi {
        (lo, hi) = (0.0, 1.0);
    }
    let cmap = ColourMap::for_field(name, lo, hi);
    if cmap.diverging {
        let m = lo.abs().max(hi.abs());
        (lo, hi) = (-m, m);
    }
    if hi - lo <= 1e-12 * hi.abs().max(lo.abs()).max(1e-300) {
        let w = (1e-6 * hi.abs()).max(1e-12);
        (lo, hi) = (lo - w, hi + w);
    }
    let (x0, x1, y0, y1) = o.bounds();
    let lay = FieldLayout::new(x1 - x0, y1 - y0);
    let sx = (x1 - x0) / lay.strips as f64;
    let lines = match stream {
        Some((u, v)) => {
            let d = STREAM_PX * sx / f64::from(lay.pw);
            streamlines(o, u, v, d)
        }
        None => Vec::new(),
    };
    let title = ctx.title(&field_title(name));
    render((FIELD_WIDTH, lay.height), |root| {
        root.fill(&WHITE)?;
        centred_text(
            root,
            &title,
            22,
            ((FIELD_WIDTH / 2) as i32, (TITLE_H / 2) as i32),
            FIELD_WIDTH - 20,
        )?;
        for s in 0..lay.strips {
            let xa = x0 + sx * s as f64;
            let xb = if s + 1 == lay.strips { x1 } else { xa + sx };
            let top = TITLE_H + s as u32 * FieldLayout::strip_h(lay.ph);
            let area = root.clone().shrink(
                (lay.left, top),
                (lay.strip_w(), FieldLayout::strip_h(lay.ph)),
            );
            let mut chart = ChartBuilder::on(&area)
                .margin(MARGIN)
                .margin_right(MARGIN + RIGHT_PAD)
                .x_label_area_size(X_LABEL_H)
                .y_label_area_size(Y_LABEL_W)
                .build_cartesian_2d(xa..xb, y0..y1)?;
            let (pxr, pyr) = chart.plotting_area().get_pixel_range();
            let (w, h) = ((pxr.end - pxr.start) as u32, (pyr.end - pyr.start) as u32);
            let buf = raster(o, &values, cmap, (lo, hi), (xa..xb, y0..y1), (w, h));
            let img = BitMapElement::with_owned_buffer((pxr.start, pyr.start), (w, h), buf)
                .ok_or("raster buffer too small")?;
            root.draw(&img)?;
            let n_x = ((f64::from(lay.pw) / 120.0) as usize).max(2);
            let n_y = ((f64::from(lay.ph) / 60.0) as usize).clamp(2, 12);
            chart
                .configure_mesh()
                .disable_mesh()
                .x_labels(n_x)
                .y_labels(n_y)
                .x_label_formatter(&|v| tick_in(*v, x1 - x0))
                .y_label_formatter(&|v| tick_in(*v, y1 - y0))
                .label_style((FAMILY, 15))
                .axis_desc_style((FAMILY, 17))
                .x_desc("x / L")
                .y_desc("y / L")
                .draw()?;
            let white = RGBColor(255, 255, 255).mix(0.85).stroke_width(1);
            for line in &lines {
                for piece in clip_x(line, xa, xb) {
                    chart.draw_series(std::iter::once(PathElement::new(piece, white)))?;
                }
                let px = sx / f64::from(lay.pw);
                for head in arrow_heads(line, 6.0 * px, 320.0 * px) {
                    if head.iter().all(|p| p.0 >= xa && p.0 <= xb) {
                        chart.draw_series(std::iter::once(Polygon::new(
                            head.to_vec(),
                            RGBColor(255, 255, 255).mix(0.9).filled(),
                        )))?;
                    }
                }
            }
        }
        // The colour bar, under the strips, as wide as their plot area.
        let top = TITLE_H + lay.strips as u32 * FieldLayout::strip_h(lay.ph);
        let area = root
            .clone()
            .shrink((lay.left, top), (lay.strip_w(), BAR_BLOCK_H));
        let mut bar = ChartBuilder::on(&area)
            .margin_left(MARGIN)
            .margin_right(MARGIN + RIGHT_PAD)
            .margin_top(8)
            .margin_bottom(4)
            .x_label_area_size(72)
            .y_label_area_size(Y_LABEL_W)
            .build_cartesian_2d(lo..hi, 0.0..1.0)?;
        let (pxr, pyr) = bar.plotting_area().get_pixel_range();
        let (w, h) = ((pxr.end - pxr.start) as u32, (pyr.end - pyr.start) as u32);
        let mut buf = Vec::with_capacity((w * h * 3) as usize);
        for _ in 0..h {
            for c in 0..w {
                let (r, g, b) = cmap.at((f64::from(c) + 0.5) / f64::from(w));
                buf.extend_from_slice(&[r, g, b]);
            }
        }
        let img = BitMapElement::with_owned_buffer((pxr.start, pyr.start), (w, h), buf)
            .ok_or("colour bar buffer too small")?;
        root.draw(&img)?;
        bar.configure_mesh()
            .disable_mesh()
            .disable_y_axis()
            .y_labels(0)
            .x_labels(((f64::from(lay.pw) / 110.0) as usize).max(3))
            .x_label_formatter(&|v| tick_in(*v, hi - lo))
            .label_style((FAMILY, 15))
            .axis_desc_style((FAMILY, 16))
            .x_desc(label.as_str())
            .draw()?;
        Ok(())
    })
}

/// The colours of the plot area of `w × h` pixels showing `xr × yr`: nearest cell, bodies
/// grey, outside the grid white.
fn raster(
    o: &Output,
    values: &[f64],
    cmap: ColourMap,
    (lo, hi): (f64, f64),
    (xr, yr): (Range<f64>, Range<f64>),
    (w, h): (u32, u32),
) -> Vec<u8> {
    let cols: Vec<Option<usize>> = (0..w)
        .map(|c| {
            let x = xr.start + (f64::from(c) + 0.5) / f64::from(w) * (xr.end - xr.start);
            locate(&o.x_edges, x)
        })
        .collect();
    let rows: Vec<Option<usize>> = (0..h)
        .map(|r| {
            let y = yr.end - (f64::from(r) + 0.5) / f64::from(h) * (yr.end - yr.start);
            locate(&o.y_edges, y)
        })
        .collect();
    let mut buf = Vec::with_capacity((w * h * 3) as usize);
    for row in &rows {
        for col in &cols {
            let rgb = match (row, col) {
                (Some(j), Some(i)) => {
                    let k = j * o.nx + i;
                    if o.solid[k] {
                        BODY
                    } else {
                        cmap.at((values[k] - lo) / (hi - lo))
                    }
                }
                _ => (255, 255, 255),
            };
            buf.extend_from_slice(&[rgb.0, rgb.1, rgb.2]);
        }
    }
    buf
}

/// The pieces of polyline `line` within `xa <= x <= xb`.
fn clip_x(line: &[(f64, f64)], xa: f64, xb: f64) -> Vec<Vec<(f64, f64)>> {
    let mut pieces: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    for w in line.windows(2) {
        let (p, q) = (w[0], w[1]);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        let dx = q.0 - p.0;
        if dx == 0.0 {
            if p.0 < xa || p.0 > xb {
                t0 = 2.0;
            }
        } else {
            let (ta, tb) = ((xa - p.0) / dx, (xb - p.0) / dx);
            t0 = t0.max(ta.min(tb));
            t1 = t1.min(ta.max(tb));
        }
        if t0 > t1 {
            if cur.len() > 1 {
                pieces.push(std::mem::take(&mut cur));
            }
            cur.clear();
            continue;
        }
        let at = |t: f64| (p.0 + t * dx, p.1 + t * (q.1 - p.1));
        if cur.is_empty() || t0 > 0.0 {
            if cur.len() > 1 {
                pieces.push(std::mem::take(&mut cur));
            }
            cur = vec![at(t0)];
        }
        cur.push(at(t1));
        if t1 < 1.0 {
            pieces.push(std::mem::take(&mut cur));
        }
    }
    if cur.len() > 1 {
        pieces.push(cur);
    }
    pieces
}

/// Triangles of size `a` pointing along `line`: one at its middle if it is shorter than
/// `every`, else one every `every` length units, the first at `every / 2`.
fn arrow_heads(line: &[(f64, f64)], a: f64, every: f64) -> Vec<[(f64, f64); 3]> {
    let mut heads = Vec::new();
    if line.len() < 3 || every.is_nan() || every <= 0.0 {
        return heads;
    }
    let length: f64 = line
        .windows(2)
        .map(|w| (w[1].0 - w[0].0).hypot(w[1].1 - w[0].1))
        .sum();
    let (mut next, step) = if length < every {
        (length / 2.0, f64::INFINITY)
    } else {
        (every / 2.0, every)
    };
    let mut s = 0.0;
    for k in 1..line.len() - 1 {
        s += (line[k].0 - line[k - 1].0).hypot(line[k].1 - line[k - 1].1);
        if s < next {
            continue;
        }
        next += step;
        let (p, q) = (line[k - 1], line[k + 1]);
        let (dx, dy) = (q.0 - p.0, q.1 - p.1);
        let n = dx.hypot(dy);
        if n == 0.0 {
            continue;
        }
        let (ex, ey) = (dx / n, dy / n);
        let c = line[k];
        heads.push([
            (c.0 + a * ex, c.1 + a * ey),
            (c.0 - a * ex - 0.6 * a * ey, c.1 - a * ey + 0.6 * a * ex),
            (c.0 - a * ex + 0.6 * a * ey, c.1 - a * ey - 0.6 * a * ex),
        ]);
    }
    heads
}

/// One panel of a series picture: curves against a shared x.
struct Panel {
    y_desc: String,
    log: bool,
    lines: Vec<(String, Vec<(f64, f64)>)>,
}

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn panels_picture(title: &str, x_desc: &str, panels: &[Panel]) -> Result<Image, String> {
    let size = series_image_size(panels.len());
    render(size, |root| {
        root.fill(&WHITE)?;
        centred_text(
            root,
            title,
            22,
            ((size.0 / 2) as i32, (TITLE_H / 2) as i32),
            size.0 - 20,
        )?;
        let body = root.clone().margin(TITLE_H, 0, 0, 0);
        let areas = body.split_evenly((panels.len().max(1), 1));
        for (p, area) in panels.iter().zip(&areas) {
            let pts = || p.lines.iter().flat_map(|l| l.1.iter()).copied();
            let (mut xa, mut xb) = (f64::INFINITY, f64::NEG_INFINITY);
            for (x, _) in pts().filter(|q| q.0.is_finite()) {
                (xa, xb) = (xa.min(x), xb.max(x));
            }
            if xa > xb {
                (xa, xb) = (0.0, 1.0);
            }
            if xb - xa <= 0.0 {
                (xa, xb) = (xa - 0.5, xb + 0.5);
            }
            let positive = |y: f64| y.is_finite() && y > 0.0;
            let ys: Vec<f64> = pts()
                .map(|q| q.1)
                .filter(|&y| if p.log { positive(y) } else { y.is_finite() })
                .collect();
            let (mut ya, mut yb) = ys
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &y| {
                    (a.min(y), b.max(y))
                });
            if ys.is_empty() {
                (ya, yb) = (if p.log { 0.1 } else { 0.0 }, 1.0);
            }
            if p.log {
                let (ya, yb) = (ya / 2.0, yb * 2.0);
                draw_panel(area, p, xa..xb, (ya..yb).log_scale(), 0.0, x_desc)?;
            } else {
                // Constant up to round-off (a probe the flow has not reached, the lift of a
                // symmetric body): a flat line in an axis ±5 % (of 1 or the value) wide.
                let size = ya.abs().max(yb.abs()).max(1.0);
                let pad = if yb - ya < 1e-9 * size {
                    0.05 * size
                } else {
                    (yb - ya) * 0.05
                };
                let span = yb - ya + 2.0 * pad;
                draw_panel(area, p, xa..xb, (ya - pad)..(yb + pad), span, x_desc)?;
            }
        }
        Ok(())
    })
}

fn draw_panel<Y>(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    p: &Panel,
    xr: Range<f64>,
    yr: Y,
    y_span: f64,
    x_desc: &str,
) -> DResult
where
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let mut chart = ChartBuilder::on(area)
        .margin(MARGIN)
        .margin_right(MARGIN + RIGHT_PAD)
        .x_label_area_size(46)
        .y_label_area_size(96)
        .build_cartesian_2d(xr, yr)?;
    chart
        .configure_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(215, 215, 215))
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick_in(*v, y_span))
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 16))
        .x_desc(x_desc)
        .y_desc(p.y_desc.as_str())
        .draw()?;
    for (k, (label, pts)) in p.lines.iter().enumerate() {
        let colour = PALETTE[k % PALETTE.len()];
        let keep = |q: &&(f64, f64)| q.0.is_finite() && q.1.is_finite() && (!p.log || q.1 > 0.0);
        let pts: Vec<(f64, f64)> = pts.iter().filter(keep).copied().collect();
        chart
            .draw_series(LineSeries::new(pts, colour.stroke_width(2)))?
            .label(label.as_str())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
            });
    }
    if !p.lines.is_empty() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(160, 160, 160))
            .label_font((FAMILY, 14))
            .draw()?;
    }
    Ok(())
}

fn series_title(o: &Output, what: &str) -> String {
    let mut method = o.method.clone();
    if !o.scheme.is_empty() {
        method = format!("{method} / {}", o.scheme);
    }
    format!("{} — {what} — {method}", o.case_name)
}

/// Residual history (log scale) and loop-2 iterations per step.
pub fn residuals_picture(o: &Output) -> Result<Image, String> {
    let s = &o.series;
    let pts =
        |v: &[f64]| -> Vec<(f64, f64)> { s.step.iter().copied().zip(v.iter().copied()).collect() };
    let mut panels = vec![Panel {
        y_desc: "max update of the last loop-2 iteration".into(),
        log: true,
        lines: s
            .residuals
            .iter()
            .map(|r| (r.0.clone(), pts(&r.2)))
            .collect(),
    }];
    if !s.iterations.is_empty() {
        panels.push(Panel {
            y_desc: "loop-2 iterations".into(),
            log: false,
            lines: vec![("iterations".into(), pts(&s.iterations))],
        });
    }
    panels_picture(
        &series_title(o, "residuals per time step"),
        "time step",
        &panels,
    )
}

/// Force coefficients (`forces`: Cd and Cl per body) or probe values (p, T, rho, u, v per
/// probe) over time, one panel per quantity.
pub fn table_picture(o: &Output, t: &Table, forces: bool) -> Result<Image, String> {
    let key = if forces { "body" } else { "probe" };
    let k = t
        .column(key)
        .ok_or_else(|| format!("{}: no column {key}", t.path))?;
    let x = t
        .column("time")
        .ok_or_else(|| format!("{}: no column time", t.path))?;
    let quantities: Vec<(&str, String)> = if forces {
        vec![
            ("Cd", "Cd = (Fx_p + Fx_v) / scale".into()),
            ("Cl", "Cl = (Fy_p + Fy_v) / scale".into()),
        ]
    } else {
        ["p", "T", "rho", "u", "v"]
            .iter()
            .filter(|q| t.column(q).is_some())
            .map(|q| (*q, format!("{q} at the probes")))
            .collect()
    };
    let mut panels = Vec::new();
    for (q, desc) in quantities {
        let Some(y) = t.column(q) else { continue };
        panels.push(Panel {
            y_desc: desc,
            log: false,
            lines: t
                .grouped(k, x, y)
                .into_iter()
                .map(|(name, pts)| (format!("{key} {name}"), pts))
                .collect(),
        });
    }
    let what = if forces {
        "force coefficients"
    } else {
        "probes"
    };
    panels_picture(&series_title(o, what), "t / (L / V_th)", &panels)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(2.5), "2.5");
        assert_eq!(tick(10.0), "10");
        assert_eq!(tick(0.012345), "0.01235");
        assert_eq!(tick(1234.6), "1235");
        assert_eq!(tick(1e-7), "1e-7");
        assert_eq!(tick(-2.5e-9), "-2.5e-9");
        assert_eq!(tick_in(-1.11e-16, 1.2), "0");
        assert_eq!(tick_in(1.00002, 1e-4), "1.00002");
        assert_eq!(tick_in(0.5, 1.0), "0.5");
    }

    #[test]
    fn layout_keeps_the_aspect_and_cuts_long_domains() {
        let l = FieldLayout::new(20.0, 10.0);
        assert_eq!(l.strips, 1);
        assert_eq!(l.ph * 2, l.pw);
        let l = FieldLayout::new(201.6, 10.0);
        assert_eq!(l.strips, 4);
        assert!((f64::from(l.pw) / f64::from(l.ph) - 5.04).abs() < 0.05);
        let l = FieldLayout::new(1.0, 5.0);
        assert_eq!((l.strips, l.ph), (1, MAX_PLOT_H));
        assert_eq!(field_image_size(20.0, 10.0).0, FIELD_WIDTH);
    }

    #[test]
    fn clipping_splits_at_strip_edges() {
        let line = [(0.0, 0.0), (2.0, 2.0), (4.0, 0.0)];
        let p = clip_x(&line, 1.0, 3.0);
        assert_eq!(p, vec![vec![(1.0, 1.0), (2.0, 2.0), (3.0, 1.0)]]);
        assert!(clip_x(&line, 5.0, 6.0).is_empty());
    }
}
