//! Field pictures: a colour field of one snapshot with its colour bar, the bodies in grey and,
//! for the Mach number, streamlines with arrow heads; a long domain cut into strips.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::polyline::{arrow_heads, clip_x};
use super::{
    centred_text, render, tick, tick_in, DResult, Image, FIELD_WIDTH, MARGIN, RIGHT_PAD, TITLE_H,
    Y_LABEL_W,
};
use crate::plot::colour::ColourMap;
use crate::plot::data::{Field, Output, SnapshotRef};
use crate::plot::font::FAMILY;
use crate::plot::stream::{locate, streamlines};

/// Height of a strip's x labels, pixels.
const X_LABEL_H: u32 = 52;
/// Height of the colour bar with its labels, pixels.
const BAR_BLOCK_H: u32 = 110;
/// Longest aspect ratio of one strip.
const MAX_STRIP_ASPECT: f64 = 6.0;
/// Most strips of one picture.
const MAX_STRIPS: usize = 8;
/// Tallest plot area, pixels.
pub(super) const MAX_PLOT_H: u32 = 900;
/// Streamline spacing on the picture, pixels.
const STREAM_PX: f64 = 26.0;
/// Colour of the bodies.
const BODY: (u8, u8, u8) = (150, 150, 150);

/// Layout of a field picture of a domain `lx × ly`.
#[derive(Debug, Clone, Copy)]
pub(super) struct FieldLayout {
    pub(super) strips: usize,
    /// Plot area of one strip, pixels.
    pub(super) pw: u32,
    pub(super) ph: u32,
    /// Left edge of the strips (centred when narrower than the picture).
    left: u32,
    height: u32,
}

impl FieldLayout {
    pub(super) fn new(lx: f64, ly: f64) -> FieldLayout {
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

/// What a field picture draws: the values at the cell centres with their colours, and the
/// streamlines, on the layout of the domain.
struct Picture<'a> {
    o: &'a Output,
    values: Vec<f64>,
    /// The colour bar's label.
    label: String,
    cmap: ColourMap,
    /// The colour range.
    lo: f64,
    hi: f64,
    /// The domain: x0, x1, y0, y1.
    bounds: (f64, f64, f64, f64),
    lay: FieldLayout,
    /// Length of one strip along x.
    sx: f64,
    lines: Vec<Vec<(f64, f64)>>,
}

/// A field's values at the cell centres, the label of its colour bar and, for the Mach
/// number, the u and v its streamlines follow.
struct Values<'c> {
    values: Vec<f64>,
    label: String,
    stream: Option<(&'c [f64], &'c [f64])>,
}

/// The picture of field `name` (a variable of the file, or `mach`).
pub fn field_picture(ctx: &Context<'_>, name: &str) -> Result<Image, String> {
    let o = ctx.out;
    let Values {
        values,
        label,
        stream,
    } = field_values(ctx, name)?;
    let (cmap, lo, hi) = colours(o, &values, name);
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
    let pic = Picture {
        o,
        values,
        label,
        cmap,
        lo,
        hi,
        bounds: (x0, x1, y0, y1),
        lay,
        sx,
        lines,
    };
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
            pic.strip(root, s)?;
        }
        pic.colour_bar(root)
    })
}

/// The values of field `name` of `ctx` ([`Values`]); `mach` from u, v and T.
fn field_values<'c>(ctx: &'c Context<'_>, name: &str) -> Result<Values<'c>, String> {
    let o = ctx.out;
    if name == "mach" {
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
        Ok(Values {
            values: m,
            label,
            stream: Some((&u.values, &v.values)),
        })
    } else {
        let f = ctx.field(name).ok_or_else(|| format!("no field {name}"))?;
        let mut label = f.var.long_name.clone();
        if f.var.x_face || f.var.y_face {
            label.push_str(" — averaged to the cell centres");
        }
        if !f.var.units.is_empty() {
            label = format!("{label} [{}]", f.var.units);
        }
        Ok(Values {
            values: f.values.clone(),
            label,
            stream: None,
        })
    }
}

/// The colour map of field `name` and its range (lo, hi): the finite values of fluid cells,
/// symmetric about 0 for a diverging map, widened when (nearly) constant.
fn colours(o: &Output, values: &[f64], name: &str) -> (ColourMap, f64, f64) {
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
    (cmap, lo, hi)
}

impl Picture<'_> {
    /// Strip `s`: the colours, the axes, the streamlines and their arrow heads.
    fn strip(&self, root: &DrawingArea<BitMapBackend<'_>, Shift>, s: usize) -> DResult {
        let (o, lay, sx) = (self.o, self.lay, self.sx);
        let (x0, x1, y0, y1) = self.bounds;
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
        let buf = raster(
            o,
            &self.values,
            self.cmap,
            (self.lo, self.hi),
            (xa..xb, y0..y1),
            (w, h),
        );
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
        for line in &self.lines {
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
        Ok(())
    }

    /// The colour bar, under the strips, as wide as their plot area.
    fn colour_bar(&self, root: &DrawingArea<BitMapBackend<'_>, Shift>) -> DResult {
        let (lay, cmap, lo, hi) = (self.lay, self.cmap, self.lo, self.hi);
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
            .x_desc(self.label.as_str())
            .draw()?;
        Ok(())
    }
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
