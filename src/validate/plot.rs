//! PNG plots of ours against the reference (plotters, bitmap backend). No system font is
//! needed: the PNGs carry no text; axes and series are described in the markdown caption.

use std::path::Path;

use plotters::prelude::*;

/// One curve.
#[derive(Debug, Clone)]
pub struct Series {
    /// What it is (goes into the caption with its colour).
    pub label: String,
    /// (x, y) points.
    pub points: Vec<(f64, f64)>,
    /// A line (reference) or markers (ours).
    pub line: bool,
}

/// One plot.
#[derive(Debug, Clone)]
pub struct Plot {
    /// File stem (`<case>-<name>.png`).
    pub name: String,
    /// What is shown.
    pub title: String,
    /// Horizontal axis.
    pub x: String,
    /// Vertical axis.
    pub y: String,
    /// Curves, drawn in [`COLOURS`] order.
    pub series: Vec<Series>,
}

/// Series colours, with the names the caption uses.
pub const COLOURS: [(&str, RGBColor); 4] = [
    ("blue", RGBColor(31, 90, 200)),
    ("red", RGBColor(210, 40, 40)),
    ("green", RGBColor(20, 150, 60)),
    ("orange", RGBColor(230, 140, 0)),
];

impl Plot {
    /// The markdown caption: title, axes with their ranges, and the series legend.
    pub fn caption(&self) -> String {
        let (x0, x1, y0, y1) = self.bounds();
        let legend: Vec<String> = self
            .series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let style = if s.line { "line" } else { "markers" };
                format!("{} {style}: {}", COLOURS[i % COLOURS.len()].0, s.label)
            })
            .collect();
        format!(
            "*{}.* Horizontal: {} from {x0:.4e} to {x1:.4e}; vertical: {} from {y0:.4e} to \
             {y1:.4e}. {}.",
            self.title,
            self.x,
            self.y,
            legend.join("; ")
        )
    }

    /// Data bounds, padded by 5 % (at least 1e-12 wide).
    fn bounds(&self) -> (f64, f64, f64, f64) {
        let pts = self.series.iter().flat_map(|s| s.points.iter());
        let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in pts.filter(|(x, y)| x.is_finite() && y.is_finite()) {
            (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
        }
        if x0 > x1 {
            return (0.0, 1.0, 0.0, 1.0);
        }
        let pad = |a: f64, b: f64| {
            let w = ((b - a) * 0.05).max(1e-12 * a.abs().max(1.0));
            (a - w, b + w)
        };
        let ((x0, x1), (y0, y1)) = (pad(x0, x1), pad(y0, y1));
        (x0, x1, y0, y1)
    }
}

/// Draw `plot` into a 640×480 PNG at `path`.
pub fn draw(plot: &Plot, path: &Path) -> Result<(), String> {
    let (x0, x1, y0, y1) = plot.bounds();
    let root = BitMapBackend::new(path, (640, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .margin(24)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| e.to_string())?;
    let grey = RGBColor(200, 200, 200);
    // Frame and a 10×10 grid, no labels (no font).
    for k in 0..=10 {
        let fx = x0 + (x1 - x0) * f64::from(k) / 10.0;
        let fy = y0 + (y1 - y0) * f64::from(k) / 10.0;
        let style = if k == 0 || k == 10 { BLACK } else { grey };
        chart
            .draw_series(LineSeries::new([(fx, y0), (fx, y1)], style))
            .map_err(|e| e.to_string())?;
        chart
            .draw_series(LineSeries::new([(x0, fy), (x1, fy)], style))
            .map_err(|e| e.to_string())?;
    }
    for (i, s) in plot.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()].1;
        let pts = s.points.iter().cloned();
        if s.line {
            chart
                .draw_series(LineSeries::new(pts, colour.stroke_width(2)))
                .map_err(|e| e.to_string())?;
        } else {
            chart
                .draw_series(pts.map(|p| Circle::new(p, 4, colour.filled())))
                .map_err(|e| e.to_string())?;
        }
    }
    root.present().map_err(|e| e.to_string())?;
    Ok(())
}
