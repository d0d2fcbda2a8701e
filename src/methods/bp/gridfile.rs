//! The grid file of `bp_euler` (`"grid": { "kind": "file", "path": "..." }`): a plain text
//! file of the node positions and the periodic node pairs.
//!
//! ```text
//! # comment lines (and blank lines) are skipped anywhere
//! ni nj
//! periodic a b        (zero or more lines, before the nodes)
//! x y                 (ni·nj lines: node (i, j) on the data line i + (j − 1)·ni, i fastest)
//! ```
//!
//! - i = 1..ni runs from the inlet to the exit, j = 1..nj across; the cells (i, j), (i+1, j),
//!   (i+1, j+1), (i, j+1) must run counter-clockwise (positive area).
//! - The j = 1 and j = nj lines are solid walls, except the 1-based inclusive i-ranges
//!   `periodic a b`, where node (i, nj) is node (i, 1) moved by one pitch (the same offset for
//!   every pair) and the two are one node (spec §4.7; the cascade's seam). The i = 1 line is
//!   the inlet, i = ni the exit, as on the generated grids.
//! - Numbers as Rust or C read them; 17 significant digits (Rust's `{}` of an f64, which
//!   [`write`] uses) give back the same bits.
//!
//! Every error is one line naming the file, the line and the problem.

use super::grid::NodeGrid;
use crate::case::rules::invalid;
use crate::error::ConfigError;

/// The largest node count of a grid file (as the generators' ni, nj ≤ 100000 but bounded
/// in total, so a bad header cannot ask for terabytes).
pub const MAX_NODES: usize = 100_000_000;

/// The nodes and periodic pairs read from a grid file.
#[derive(Debug, Clone, PartialEq)]
pub struct GridFile {
    /// Nodes along i.
    pub ni: usize,
    /// Nodes along j.
    pub nj: usize,
    /// x of node (i, j) at `i + j·ni` (0-based).
    pub x: Vec<f64>,
    /// y of node (i, j).
    pub y: Vec<f64>,
    /// Per i (0-based): whether (i, 0) and (i, nj − 1) are a periodic pair.
    pub periodic: Vec<bool>,
}

impl GridFile {
    /// The node grid.
    pub fn grid(&self) -> NodeGrid {
        NodeGrid::new(self.ni, self.nj, self.x.clone(), self.y.clone())
            .with_periodic(self.periodic.clone())
    }
}

/// The text of `g` in the grid file format (periodic ranges from its flags).
pub fn write(g: &NodeGrid) -> String {
    let mut s = format!(
        "# simplets bp_euler grid: ni nj, periodic ranges, then x y per node, i fastest\n{} {}\n",
        g.ni, g.nj
    );
    let mut i = 0;
    while i < g.ni {
        if g.periodic[i] {
            let a = i;
            while i + 1 < g.ni && g.periodic[i + 1] {
                i += 1;
            }
            s += &format!("periodic {} {}\n", a + 1, i + 1);
        }
        i += 1;
    }
    for (x, y) in g.x.iter().zip(&g.y) {
        s += &format!("{x} {y}\n");
    }
    s
}

/// Read the grid file `path` (shown as `shown` in errors).
pub fn load(path: &std::path::Path, shown: &str) -> Result<GridFile, ConfigError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| invalid("grid.path", shown, format!("cannot read: {e}")))?;
    parse(&text, shown)
}

/// Parse the text of a grid file named `shown`.
pub fn parse(text: &str, shown: &str) -> Result<GridFile, ConfigError> {
    let err =
        |line: usize, what: String| invalid("grid.path", shown, format!("line {line}: {what}"));
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(n, l)| (n + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'));
    let last = text.lines().count();
    let (hl, header) = lines
        .next()
        .ok_or_else(|| err(last, "empty: the header \"ni nj\" is missing".into()))?;
    let h: Vec<&str> = header.split_whitespace().collect();
    let count = |s: &str| s.parse::<usize>().ok();
    let (ni, nj) = match h.as_slice() {
        [a, b] => match (count(a), count(b)) {
            (Some(a), Some(b)) => (a, b),
            _ => {
                return Err(err(
                    hl,
                    format!("header {header:?}: expected two counts \"ni nj\""),
                ))
            }
        },
        _ => {
            return Err(err(
                hl,
                format!("header {header:?}: expected two counts \"ni nj\""),
            ))
        }
    };
    if !(3..=100_000).contains(&ni) || !(4..=100_000).contains(&nj) || ni * nj > MAX_NODES {
        return Err(err(
            hl,
            format!(
                "ni = {ni}, nj = {nj}: must be ni in [3, 100000], nj in [4, 100000], \
                 ni·nj <= {MAX_NODES}"
            ),
        ));
    }
    let n = ni * nj;
    let mut periodic = vec![false; ni];
    let (mut x, mut y) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let mut at = Vec::with_capacity(n);
    for (ln, l) in lines {
        if let Some(r) = l.strip_prefix("periodic") {
            if !x.is_empty() {
                return Err(err(ln, "\"periodic\" after the first node".into()));
            }
            let r: Vec<Option<usize>> = r.split_whitespace().map(count).collect();
            match r.as_slice() {
                [Some(a), Some(b)] if 1 <= *a && a <= b && *b <= ni => {
                    periodic[a - 1..*b].iter_mut().for_each(|p| *p = true)
                }
                _ => {
                    return Err(err(
                        ln,
                        format!("{l:?}: expected \"periodic a b\" with 1 <= a <= b <= ni = {ni}"),
                    ))
                }
            }
            continue;
        }
        if x.len() == n {
            return Err(err(ln, format!("more than ni·nj = {n} nodes")));
        }
        let v: Vec<&str> = l.split_whitespace().collect();
        let num = |s: &str| s.parse::<f64>().ok();
        let (a, b) = match v.as_slice() {
            [a, b] => match (num(a), num(b)) {
                (Some(a), Some(b)) => (a, b),
                _ => return Err(err(ln, format!("{l:?}: expected two numbers \"x y\""))),
            },
            _ => return Err(err(ln, format!("{l:?}: expected two numbers \"x y\""))),
        };
        if !(a.is_finite() && b.is_finite()) {
            return Err(err(ln, format!("x = {a}, y = {b}: not finite")));
        }
        x.push(a);
        y.push(b);
        at.push(ln);
    }
    if x.len() < n {
        return Err(err(
            last,
            format!("{} nodes, ni·nj = {n} expected (end of file)", x.len()),
        ));
    }
    check_cells(ni, nj, &x, &y, &at, shown)?;
    check_pairs(ni, nj, &x, &y, &periodic, &at, shown)?;
    Ok(GridFile {
        ni,
        nj,
        x,
        y,
        periodic,
    })
}

/// Every cell's signed area (half the cross product of its diagonals, corners in i, j order)
/// must be positive (a zero or negative one is a degenerate or folded cell) and every side
/// longer than 0 (the local time step is proportional to the shortest).
fn check_cells(
    ni: usize,
    nj: usize,
    x: &[f64],
    y: &[f64],
    at: &[usize],
    shown: &str,
) -> Result<(), ConfigError> {
    for j in 0..nj - 1 {
        for i in 0..ni - 1 {
            let (p1, p2, p3, p4) = (
                i + j * ni,
                i + 1 + j * ni,
                i + 1 + (j + 1) * ni,
                i + (j + 1) * ni,
            );
            let (ax, ay) = (x[p3] - x[p1], y[p3] - y[p1]);
            let (bx, by) = (x[p4] - x[p2], y[p4] - y[p2]);
            let a = 0.5 * (ax * by - ay * bx);
            let c = [p1, p2, p3, p4];
            let zero_side = (0..4).any(|k| {
                let (m, n) = (c[k], c[(k + 1) % 4]);
                x[m] == x[n] && y[m] == y[n]
            });
            let what = if a.is_nan() || a <= 0.0 {
                format!(
                    "has area {a:e}: cells must have positive area with i, then j counter-clockwise"
                )
            } else if zero_side {
                "has a side of length 0".to_string()
            } else {
                continue;
            };
            return Err(invalid(
                "grid.path",
                shown,
                format!(
                    "line {}: cell ({}, {}) (nodes on lines {}, {}, {}, {}) {what}",
                    at[p1],
                    i + 1,
                    j + 1,
                    at[p1],
                    at[p2],
                    at[p3],
                    at[p4]
                ),
            ));
        }
    }
    Ok(())
}

/// The periodic pairs: node (i, nj) is node (i, 1) moved by one offset, the same for every
/// pair (within 1e-9 of the grid's extent) and not zero.
fn check_pairs(
    ni: usize,
    nj: usize,
    x: &[f64],
    y: &[f64],
    periodic: &[bool],
    at: &[usize],
    shown: &str,
) -> Result<(), ConfigError> {
    let ext = |a: &[f64]| {
        a.iter().fold(f64::NEG_INFINITY, |m, v| m.max(*v))
            - a.iter().fold(f64::INFINITY, |m, v| m.min(*v))
    };
    let tol = 1e-9 * ext(x).max(ext(y));
    let top = (nj - 1) * ni;
    let mut first: Option<(f64, f64)> = None;
    for i in (0..ni).filter(|&i| periodic[i]) {
        let d = (x[top + i] - x[i], y[top + i] - y[i]);
        let bad = match first {
            None => {
                first = Some(d);
                d.0.hypot(d.1) <= tol
            }
            Some(f) => (d.0 - f.0).abs() > tol || (d.1 - f.1).abs() > tol,
        };
        if bad {
            let f = first.unwrap_or(d);
            return Err(invalid(
                "grid.path",
                shown,
                format!(
                    "line {}: periodic node ({}, {nj}) is node ({}, 1) (line {}) moved by \
                     ({:e}, {:e}), not by the pitch ({:e}, {:e}) of the first pair, or the \
                     pitch is zero",
                    at[top + i],
                    i + 1,
                    i + 1,
                    at[i],
                    d.0,
                    d.1,
                    f.0,
                    f.1
                ),
            ));
        }
    }
    Ok(())
}
