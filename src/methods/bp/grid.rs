//! The structured curvilinear H-grid of the Brandvik–Pullan solver (seed 001 §3): nodes
//! (i, j), i streamwise (inlet → outlet) and j across, stored with i fastest; the projected
//! face lengths and the cell areas; and which nodes of the two j-boundary lines are periodic
//! pairs (the cascade's seam, spec §4.7).

/// Inlet x of the wedge duct.
pub const WEDGE_X0: f64 = -0.5;
/// Exit x of the wedge duct.
pub const WEDGE_X1: f64 = 1.0;
/// Height of the wedge duct's upper wall (the lower wall's corner at (0, 0)).
pub const WEDGE_H: f64 = 1.5;

/// A node grid with its face and cell metrics.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeGrid {
    /// Nodes along i (streamwise).
    pub ni: usize,
    /// Nodes along j (across).
    pub nj: usize,
    /// x of node (i, j) at `i + j·ni`.
    pub x: Vec<f64>,
    /// y of node (i, j).
    pub y: Vec<f64>,
    /// Projected length of i-face (i, j) (nodes (i, j)–(i, j+1)), positive along +i:
    /// (y(i,j+1) − y(i,j), −(x(i,j+1) − x(i,j))); ni × (nj − 1), at `i + j·ni`.
    pub dli: Vec<[f64; 2]>,
    /// Projected length of j-face (i, j) (nodes (i, j)–(i+1, j)), positive along +j:
    /// (−(y(i+1,j) − y(i,j)), x(i+1,j) − x(i,j)); (ni − 1) × nj, at `i + j·(ni − 1)`.
    pub dlj: Vec<[f64; 2]>,
    /// Area of cell (i, j) (corners (i,j), (i+1,j), (i+1,j+1), (i,j+1)): half the cross
    /// product of its diagonals; (ni − 1) × (nj − 1), at `i + j·(ni − 1)`.
    pub area: Vec<f64>,
    /// The shortest side of cell (i, j) (the local time step's length).
    pub dmin: Vec<f64>,
    /// Per i: whether nodes (i, 0) and (i, nj − 1) are one periodic node (images of each
    /// other one pitch apart). A j-boundary face between two periodic nodes is a seam (an
    /// interior face of the periodic domain); every other j-boundary face is a solid wall.
    /// All false for a duct.
    pub periodic: Vec<bool>,
}

impl NodeGrid {
    /// The grid of the nodes `x`, `y` (ni × nj, i fastest).
    pub fn new(ni: usize, nj: usize, x: Vec<f64>, y: Vec<f64>) -> NodeGrid {
        let n = |i: usize, j: usize| i + j * ni;
        let mut dli = vec![[0.0; 2]; ni * (nj - 1)];
        for j in 0..nj - 1 {
            for i in 0..ni {
                let (a, b) = (n(i, j), n(i, j + 1));
                dli[i + j * ni] = [y[b] - y[a], -(x[b] - x[a])];
            }
        }
        let nc = ni - 1;
        let mut dlj = vec![[0.0; 2]; nc * nj];
        for j in 0..nj {
            for i in 0..nc {
                let (a, b) = (n(i, j), n(i + 1, j));
                dlj[i + j * nc] = [-(y[b] - y[a]), x[b] - x[a]];
            }
        }
        let mut area = vec![0.0; nc * (nj - 1)];
        let mut dmin = vec![0.0; nc * (nj - 1)];
        for j in 0..nj - 1 {
            for i in 0..nc {
                let (p1, p2, p3, p4) = (n(i, j), n(i + 1, j), n(i + 1, j + 1), n(i, j + 1));
                let (ax, ay) = (x[p3] - x[p1], y[p3] - y[p1]);
                let (bx, by) = (x[p4] - x[p2], y[p4] - y[p2]);
                area[i + j * nc] = 0.5 * (ax * by - ay * bx).abs();
                let len = |a: usize, b: usize| (x[b] - x[a]).hypot(y[b] - y[a]);
                dmin[i + j * nc] = len(p1, p2)
                    .min(len(p2, p3))
                    .min(len(p3, p4))
                    .min(len(p4, p1));
            }
        }
        NodeGrid {
            ni,
            nj,
            x,
            y,
            dli,
            dlj,
            area,
            dmin,
            periodic: vec![false; ni],
        }
    }

    /// The grid with nodes (i, 0) and (i, nj − 1) a periodic pair where `periodic[i]`.
    pub fn with_periodic(mut self, periodic: Vec<bool>) -> NodeGrid {
        assert_eq!(periodic.len(), self.ni, "one flag per i");
        self.periodic = periodic;
        self
    }

    /// Whether the j-boundary faces between nodes i and i + 1 are seams (both ends periodic)
    /// rather than walls.
    pub fn seam_face(&self, i: usize) -> bool {
        self.periodic[i] && self.periodic[i + 1]
    }

    /// The bounding box ([x_min, x_max], [y_min, y_max]) of the nodes.
    pub fn bbox(&self) -> ([f64; 2], [f64; 2]) {
        let r = |a: &[f64]| {
            a.iter()
                .fold([f64::INFINITY, f64::NEG_INFINITY], |[lo, hi], &v| {
                    [lo.min(v), hi.max(v)]
                })
        };
        (r(&self.x), r(&self.y))
    }

    /// A duct whose i-lines are straight segments from (x_i, y_low(x_i)) to (x_i, y_high),
    /// nodes spaced uniformly along x on [x0, x1] and along each i-line (the teaching
    /// lineage's duct grids, seed 001 §3).
    pub fn duct(
        ni: usize,
        nj: usize,
        x0: f64,
        x1: f64,
        y_low: impl Fn(f64) -> f64,
        y_high: f64,
    ) -> NodeGrid {
        let mut x = vec![0.0; ni * nj];
        let mut y = vec![0.0; ni * nj];
        for i in 0..ni {
            let xi = x0 + (x1 - x0) * i as f64 / (ni - 1) as f64;
            let lo = y_low(xi);
            for j in 0..nj {
                let f = j as f64 / (nj - 1) as f64;
                x[i + j * ni] = xi;
                y[i + j * ni] = lo + f * (y_high - lo);
            }
        }
        NodeGrid::new(ni, nj, x, y)
    }

    /// The channel with a circular-arc bump of relative thickness `t` on its lower wall over
    /// [0, 1] (the GAMM / Ni channel, seed 001 §6's stand-in): x in [−1, 2], height 1.
    pub fn bump(ni: usize, nj: usize, t: f64) -> NodeGrid {
        // Circle through (0, 0), (1, 0) and (0.5, t): radius r = (¼ + t²)/(2t).
        let r = (0.25 + t * t) / (2.0 * t);
        NodeGrid::duct(
            ni,
            nj,
            -1.0,
            2.0,
            |x| {
                if t > 0.0 && (0.0..=1.0).contains(&x) {
                    (r * r - (x - 0.5) * (x - 0.5)).sqrt() - (r - t)
                } else {
                    0.0
                }
            },
            1.0,
        )
    }

    /// The wedge duct (seed 001 §6's supersonic wedge): x ∈ [[`WEDGE_X0`], [`WEDGE_X1`]], a
    /// straight upper wall at y = [`WEDGE_H`], a lower wall at y = 0 that turns up by
    /// `angle` (radians) at the corner x = 0: y = x tan θ for x > 0. Nodes uniform along x
    /// and along each i-line; with (ni − 1) a multiple of 3 a node sits on the corner. The
    /// duct is long enough for the corner's shock (β ≈ 51° at Mach 1.6, θ = 10°) to leave
    /// through the exit below the upper wall (y ≈ 1.24 at x = 1), so nothing reflects.
    pub fn wedge(ni: usize, nj: usize, angle: f64) -> NodeGrid {
        let slope = angle.tan();
        NodeGrid::duct(
            ni,
            nj,
            WEDGE_X0,
            WEDGE_X1,
            |x| if x > 0.0 { x * slope } else { 0.0 },
            WEDGE_H,
        )
    }

    /// Cells along i.
    pub fn nci(&self) -> usize {
        self.ni - 1
    }

    /// Cells along j.
    pub fn ncj(&self) -> usize {
        self.nj - 1
    }

    /// The largest |Σ of the four outward projected lengths| over all cells, relative to the
    /// largest face length (0 up to round-off for a closed cell).
    pub fn closure(&self) -> f64 {
        let (ni, nc) = (self.ni, self.nci());
        let mut worst = 0.0f64;
        let mut scale = 0.0f64;
        for j in 0..self.ncj() {
            for i in 0..nc {
                for k in 0..2 {
                    let s = self.dli[i + j * ni][k] - self.dli[i + 1 + j * ni][k]
                        + self.dlj[i + j * nc][k]
                        - self.dlj[i + (j + 1) * nc][k];
                    worst = worst.max(s.abs());
                    scale = scale.max(self.dli[i + j * ni][k].abs());
                }
            }
        }
        worst / scale
    }
}
