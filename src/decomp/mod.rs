//! Several processes on one run (MPI ranks): the Cartesian decomposition of the stored grid
//! into `px × py` blocks ([`Decomposition`]), the window of the grid each rank holds (its block
//! and a halo, [`Window`]), the exchange of the halos ([`Halo`]), and the communicator the
//! solvers and the run driver use ([`Comm`]: MPI with the feature `mpi`, or ranks as threads
//! of one process for the tests, [`threads`]).
//!
//! **Blocks.** The stored columns `0..nx+2` are cut into `px` ranges and the stored rows into
//! `py`: the computed cells as evenly as possible, the ghost column or row of a domain side to
//! the rank that owns that side. Every stored cell (and its west and south face) has exactly
//! one owner. Rank `r` is block `(r % px, r / px)`.
//!
//! **Halos.** A rank holds its block and [`HALO`] more columns or rows on every side it shares
//! with another rank, so that its window is a grid of its own whose edges are either the
//! domain's ghost layers or halo layers. A method computes on the whole window; the halo
//! values it computes near the window's edge are incomplete, and the exchange after each phase
//! replaces every halo value with its owner's. The halo is as wide as the widest stencil plus
//! the reach of the position tests near the stored edge (SIMPLE-TS: 2 cells and 3 faces, tests
//! within 2 cells of the edge), so every owned value is computed from exactly the values, and
//! through exactly the branches, of the single-process run: the results are the same bits.
//!
//! **Exchange** ([`Halo::exchange`]): first along x (the owned rows of the columns next to the
//! cut), then along y (whole held rows, the x-halos just received included), so the corner
//! blocks come from the diagonal neighbours without messages of their own. All arrays of one
//! phase travel in one message per neighbour.

pub mod comm;
pub mod halo;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod threads;

use std::ops::Range;

pub use comm::Comm;
pub use halo::{Halo, HaloStats, Rect, Strip, StripIo};
pub use threads::ThreadComm;

/// Halo width of SIMPLE-TS in cells: its TVD stencils reach 2 cells and 2 faces, and its
/// position tests (`i >= 2`, `i + 2 < nxt`) look 2 cells from the stored edge; one more for
/// margin (docs/decisions.md, "Several processes").
pub const HALO: usize = 3;

/// How a method stores its grid and how far its phases read: ghost layers on each side of x
/// and y (SIMPLE-TS: 1 and 1; the explicit methods: `ng`, and none along y in 1D) and the halo
/// width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layers {
    /// Ghost layers of the stored grid on each side along x.
    pub ghost_x: usize,
    /// Ghost layers on each side along y.
    pub ghost_y: usize,
    /// Halo width in cells towards a neighbour rank.
    pub halo: usize,
}

impl Layers {
    /// SIMPLE-TS: one ghost layer, [`HALO`].
    pub const SIMPLE_TS: Layers = Layers {
        ghost_x: 1,
        ghost_y: 1,
        halo: HALO,
    };
}

/// A `px × py` split of a grid's stored cells among ranks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decomposition {
    /// Ranks along x.
    pub px: usize,
    /// Ranks along y.
    pub py: usize,
    /// Cut points of the stored columns: block column `c` owns `cols[c]..cols[c + 1]`.
    cols: Vec<usize>,
    /// Cut points of the stored rows.
    rows: Vec<usize>,
    /// Ghost layers and halo width.
    pub layers: Layers,
}

/// Cut points of `n` computed cells (stored `0..n + 2g`) into `p` blocks: the computed cells
/// as evenly as possible, the `g` ghost layers to the first and last block.
fn cuts(n: usize, p: usize, g: usize) -> Vec<usize> {
    let mut c: Vec<usize> = (0..=p).map(|k| g + k * n / p).collect();
    c[0] = 0;
    c[p] = n + 2 * g;
    c
}

impl Decomposition {
    /// Split `nx × ny` computed cells of SIMPLE-TS among `px × py` ranks
    /// ([`Layers::SIMPLE_TS`]).
    pub fn new(nx: usize, ny: usize, px: usize, py: usize) -> Result<Decomposition, String> {
        Decomposition::with_layers(nx, ny, px, py, Layers::SIMPLE_TS)
    }

    /// Split `nx × ny` computed cells stored with `layers` among `px × py` ranks. Every rank
    /// along a split axis needs `layers.halo` computed cells of its own (its neighbours' halos
    /// lie in its block).
    pub fn with_layers(
        nx: usize,
        ny: usize,
        px: usize,
        py: usize,
        layers: Layers,
    ) -> Result<Decomposition, String> {
        if px == 0 || py == 0 {
            return Err(format!("a {px} × {py} rank layout has no ranks"));
        }
        let h = layers.halo;
        for (axis, n, p, what) in [("x", nx, px, "columns"), ("y", ny, py, "rows")] {
            if p > 1 && n < h * p {
                return Err(format!(
                    "{p} ranks along {axis} need at least {} {what} of cells ({h} per rank), \
                     the grid has {n}",
                    h * p
                ));
            }
        }
        Ok(Decomposition {
            px,
            py,
            cols: cuts(nx, px, layers.ghost_x),
            rows: cuts(ny, py, layers.ghost_y),
            layers,
        })
    }

    /// The layout of `ranks` ranks on an `nx × ny` grid: `ranks_x × ranks_y` where given (one
    /// of them given: the other is `ranks` / it), else all ranks along the longer axis (the
    /// other one if the longer is periodic). A periodic axis is never split: its ghost layers
    /// copy the opposite side, which another rank would own.
    pub fn choose(
        nx: usize,
        ny: usize,
        ranks: usize,
        ranks_x: Option<usize>,
        ranks_y: Option<usize>,
        periodic: (bool, bool),
    ) -> Result<Decomposition, String> {
        Decomposition::choose_layers(
            nx,
            ny,
            ranks,
            (ranks_x, ranks_y),
            periodic,
            Layers::SIMPLE_TS,
        )
    }

    /// [`Decomposition::choose`] for a grid stored with `layers` (an explicit method's).
    pub fn choose_layers(
        nx: usize,
        ny: usize,
        ranks: usize,
        (ranks_x, ranks_y): (Option<usize>, Option<usize>),
        periodic: (bool, bool),
        layers: Layers,
    ) -> Result<Decomposition, String> {
        let divide = |given: usize, axis: &str| {
            if given == 0 || ranks % given != 0 {
                Err(format!(
                    "--ranks-{axis} {given} does not divide the {ranks} ranks of the job"
                ))
            } else {
                Ok(ranks / given)
            }
        };
        let (px, py) = match (ranks_x, ranks_y) {
            (Some(x), Some(y)) if x * y != ranks => {
                return Err(format!(
                    "--ranks-x {x} × --ranks-y {y} = {} ranks, the job has {ranks}",
                    x * y
                ))
            }
            (Some(x), Some(y)) => (x, y),
            (Some(x), None) => (x, divide(x, "x")?),
            (None, Some(y)) => (divide(y, "y")?, y),
            (None, None) => {
                let along_x = match periodic {
                    (true, false) => false,
                    (false, true) => true,
                    _ => nx >= ny,
                };
                if along_x {
                    (ranks, 1)
                } else {
                    (1, ranks)
                }
            }
        };
        for (axis, p, per) in [("x", px, periodic.0), ("y", py, periodic.1)] {
            if p > 1 && per {
                return Err(format!(
                    "the case is periodic along {axis}: {p} ranks along {axis} cannot split it \
                     (split the other axis)"
                ));
            }
        }
        Decomposition::with_layers(nx, ny, px, py, layers)
    }

    /// Number of ranks.
    pub fn ranks(&self) -> usize {
        self.px * self.py
    }

    /// Stored columns and rows of the whole grid.
    pub fn stored(&self) -> (usize, usize) {
        (self.cols[self.px], self.rows[self.py])
    }

    /// The stored columns owned by block column `c` and the stored rows owned by block row `r`.
    pub fn block(&self, c: usize, r: usize) -> (Range<usize>, Range<usize>) {
        (
            self.cols[c]..self.cols[c + 1],
            self.rows[r]..self.rows[r + 1],
        )
    }

    /// The window of `rank`.
    pub fn window(&self, rank: usize) -> Window {
        let (cx, cy) = (rank % self.px, rank / self.px);
        let (own_x, own_y) = self.block(cx, cy);
        let (nxt, nyt) = self.stored();
        let at = |c: usize, r: usize| r * self.px + c;
        let west = (cx > 0).then(|| at(cx - 1, cy));
        let east = (cx + 1 < self.px).then(|| at(cx + 1, cy));
        let south = (cy > 0).then(|| at(cx, cy - 1));
        let north = (cy + 1 < self.py).then(|| at(cx, cy + 1));
        let h = self.layers.halo;
        let lo = |own: &Range<usize>, n: Option<usize>| own.start - if n.is_some() { h } else { 0 };
        let hi = |own: &Range<usize>, n: Option<usize>| own.end + if n.is_some() { h } else { 0 };
        Window {
            rank,
            halo: h,
            x: lo(&own_x, west)..hi(&own_x, east),
            y: lo(&own_y, south)..hi(&own_y, north),
            own_x,
            own_y,
            nxt,
            nyt,
            neighbours: [west, east, south, north],
        }
    }

    /// The windows of every rank, in rank order.
    pub fn windows(&self) -> Vec<Window> {
        (0..self.ranks()).map(|r| self.window(r)).collect()
    }
}

/// Index of the west neighbour in [`Window::neighbours`].
pub const WEST: usize = 0;
/// East.
pub const EAST: usize = 1;
/// South.
pub const SOUTH: usize = 2;
/// North.
pub const NORTH: usize = 3;

/// What one rank holds of the grid, in stored (padded) coordinates of the whole grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// The rank.
    pub rank: usize,
    /// Halo width in cells (towards the neighbours that exist).
    pub halo: usize,
    /// Held stored columns (block and halo).
    pub x: Range<usize>,
    /// Held stored rows.
    pub y: Range<usize>,
    /// Owned stored columns.
    pub own_x: Range<usize>,
    /// Owned stored rows.
    pub own_y: Range<usize>,
    /// Stored columns of the whole grid.
    pub nxt: usize,
    /// Stored rows of the whole grid.
    pub nyt: usize,
    /// The ranks across the west, east, south and north edges of the block (`None`: a domain
    /// side).
    pub neighbours: [Option<usize>; 4],
}

impl Window {
    /// Held columns (the window's own `nxt`).
    pub fn width(&self) -> usize {
        self.x.len()
    }

    /// Held rows.
    pub fn height(&self) -> usize {
        self.y.len()
    }

    /// Held cells.
    pub fn len(&self) -> usize {
        self.width() * self.height()
    }

    /// Always false: a window holds at least its block.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Owned columns in window coordinates.
    pub fn own_x_local(&self) -> Range<usize> {
        self.own_x.start - self.x.start..self.own_x.end - self.x.start
    }

    /// Owned rows in window coordinates.
    pub fn own_y_local(&self) -> Range<usize> {
        self.own_y.start - self.y.start..self.own_y.end - self.y.start
    }

    /// The whole grid's stored index of window index `k`.
    pub fn global(&self, k: usize) -> usize {
        let w = self.width();
        (k % w + self.x.start) + (k / w + self.y.start) * self.nxt
    }

    /// The window index of the whole grid's stored index `k`, if the window holds it.
    pub fn local(&self, k: usize) -> Option<usize> {
        let (i, j) = (k % self.nxt, k / self.nxt);
        (self.x.contains(&i) && self.y.contains(&j))
            .then(|| (i - self.x.start) + (j - self.y.start) * self.width())
    }

    /// True if the window index `k` is owned by this rank.
    pub fn owns_local(&self, k: usize) -> bool {
        let w = self.width();
        self.own_x_local().contains(&(k % w)) && self.own_y_local().contains(&(k / w))
    }

    /// True if the block owns the domain's west, east, south or north side.
    pub fn owns_side(&self, side: usize) -> bool {
        self.neighbours[side].is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_cover_every_stored_cell_once() {
        let d = Decomposition::new(10, 7, 3, 2).unwrap();
        let (nxt, nyt) = d.stored();
        assert_eq!((nxt, nyt), (12, 9));
        let mut owner = vec![usize::MAX; nxt * nyt];
        for w in d.windows() {
            for j in w.own_y.clone() {
                for i in w.own_x.clone() {
                    assert_eq!(owner[i + j * nxt], usize::MAX);
                    owner[i + j * nxt] = w.rank;
                }
            }
            // Halo only across a cut, HALO wide.
            assert_eq!(
                w.own_x.start - w.x.start,
                if w.neighbours[WEST].is_some() {
                    HALO
                } else {
                    0
                }
            );
            assert_eq!(
                w.y.end - w.own_y.end,
                if w.neighbours[NORTH].is_some() {
                    HALO
                } else {
                    0
                }
            );
            for k in 0..w.len() {
                assert_eq!(w.local(w.global(k)), Some(k));
            }
        }
        assert!(owner.iter().all(|&o| o < 6));
        assert_eq!(d.window(4).neighbours, [Some(3), Some(5), Some(1), None]);
    }

    /// Two ghost layers along x and none along y (an explicit method's 1D grid), halo 2.
    #[test]
    fn other_layers_cut_their_own_stored_grid() {
        let layers = Layers {
            ghost_x: 2,
            ghost_y: 0,
            halo: 2,
        };
        let d = Decomposition::with_layers(20, 1, 2, 1, layers).unwrap();
        assert_eq!(d.stored(), (24, 1));
        let (a, b) = (d.window(0), d.window(1));
        assert_eq!(
            (a.own_x.clone(), a.x.clone(), a.y.clone()),
            (0..12, 0..14, 0..1)
        );
        assert_eq!((b.own_x.clone(), b.x.clone()), (12..24, 10..24));
        assert!(Decomposition::with_layers(3, 1, 2, 1, layers).is_err());
    }

    #[test]
    fn layouts_are_chosen_or_refused() {
        let d = Decomposition::choose(40, 10, 4, None, None, (false, false)).unwrap();
        assert_eq!((d.px, d.py), (4, 1));
        let d = Decomposition::choose(40, 12, 4, None, None, (true, false)).unwrap();
        assert_eq!((d.px, d.py), (1, 4));
        let d = Decomposition::choose(40, 10, 4, Some(2), None, (false, false)).unwrap();
        assert_eq!((d.px, d.py), (2, 2));
        for (x, y, per, what) in [
            (Some(3), None, (false, false), "does not divide"),
            (Some(2), Some(3), (false, false), "the job has 4"),
            (Some(4), None, (true, false), "periodic along x"),
            (None, Some(4), (false, false), "at least 12 rows"),
        ] {
            let e = Decomposition::choose(40, 10, 4, x, y, per).unwrap_err();
            assert!(e.contains(what), "{e}");
        }
    }
}
