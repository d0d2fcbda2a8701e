//! Series pictures: stacked panels of curves against a shared x (residuals and loop-2
//! iterations per step; force coefficients or probe values over time).

use std::ops::Range;

use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;

use super::{
    centred_text, render, tick, tick_in, DResult, Image, MARGIN, RIGHT_PAD, SERIES_WIDTH, TITLE_H,
};
use crate::plot::csv::Table;
use crate::plot::data::Output;
use crate::plot::font::FAMILY;

/// Height of one panel, pixels.
const PANEL_H: u32 = 240;

/// Pixel size of a series picture of `panels` stacked panels.
pub fn series_image_size(panels: usize) -> (u32, u32) {
    (SERIES_WIDTH, TITLE_H + PANEL_H * panels.max(1) as u32)
}

/// One panel of a series picture: curves against a shared x.
struct Panel {
    y_desc: String,
    log: bool,
    lines: Vec<(String, Vec<(f64, f64)>)>,
}

/// The colours of a panel's curves, in turn.
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

/// A picture titled `title` of `panels` stacked top to bottom, sharing the x axis `x_desc`;
/// each panel's axes fit its finite values (log: its positive ones).
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

/// Panel `p` on `area` over `xr` × `yr` (`y_span`: the y axis's span, for its labels).
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

/// The title of a series picture of `o`: case, `what`, method and scheme.
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
