//! The phase form's exchanges overlapped with the interior (`Backend::set_overlap`; the
//! default from `SIMPLETS_HALO_OVERLAP`), as the authors' C++ does it: at an exchange point
//! the phase kernel first runs over the frame of the rank's window (the cells near a side
//! with a neighbour, which hold what the neighbours receive), then its copy list; the strip
//! reads start, the kernel runs over the interior and the copy list again while the host
//! waits for the strips and the messages travel, and the received strips are queued behind
//! them.
//!
//! **The same bits.** Each part is a rectangle launched as a 2-D range with a global work
//! offset (`PHASE_CELL` of `cl/simple_ts/kernels/jacobi.cl`), so every cell is computed once,
//! from the same inputs as in the whole launch: a phase kernel reads the arrays of earlier
//! phases only and writes its own cell. A copy list (`copy_hat`, `ghost_pt`, `end_copies`)
//! writes only arrays of its phase, and its entries are one level (`copies.rs`, `resolve`), so
//! running it twice ends as running it once after the whole kernel; the first run, after the
//! frame, is final for every entry whose sources lie in the frame, and [`split`] allows the
//! overlap only where every entry whose destination is sent has its sources there. The
//! received strips are written after the second run, as in the blocking order.

use std::sync::Arc;

use super::copies::CopyLists;
use super::strips::DeviceStrips;
use super::OpenCl;
use crate::decomp::{Halo, Rect, EAST, NORTH, SOUTH, WEST};
use crate::device::Runtime;
use crate::error::DeviceError;

/// Cells past the sent strips that the frame also computes: the copy sources of a sent ghost
/// or copy face lie within one cell of it, or along an unsplit periodic axis in its own row
/// or column (checked by [`split`] all the same).
const MARGIN: usize = 1;

/// Work-items along x of an interior work-group; the interior is cut to a multiple of it
/// (the rest joins the frame), so the groups fit the rectangle exactly.
const INTERIOR_WG: usize = 32;

/// A rectangle of the window launched as one 2-D range: its first cell (the global work
/// offset), its columns and rows, and the work-group shape (`None`: the driver's).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Part {
    pub(crate) offset: [usize; 2],
    pub(crate) size: [usize; 2],
    pub(crate) local: Option<[usize; 2]>,
}

/// The frame and the interior of a window ([`split`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Split {
    /// The rectangles along the sides: every sent cell and what the copies of a sent cell read.
    pub(crate) frame: Vec<Part>,
    /// The rest, one rectangle.
    pub(crate) interior: Vec<Part>,
}

/// The frame and interior of `halo`'s window for the copy lists `lists`, or `None` where the
/// overlap cannot keep the bits (a sent copy whose source lies in the interior) or the window
/// has no interior.
pub(crate) fn split(halo: &Halo, lists: &CopyLists) -> Option<Split> {
    let win = &halo.win;
    let (w, h) = (win.width(), win.height());
    let (ox, oy) = (win.own_x_local(), win.own_y_local());
    let reach = win.halo + MARGIN;
    let has = |side: usize| win.neighbours[side].is_some();
    let x0 = if has(WEST) { ox.start + reach } else { 0 };
    let x1 = if has(EAST) {
        ox.end.checked_sub(reach)?
    } else {
        w
    };
    let y0 = if has(SOUTH) { oy.start + reach } else { 0 };
    let y1 = if has(NORTH) {
        oy.end.checked_sub(reach)?
    } else {
        h
    };
    if x1 <= x0 || y1 <= y0 {
        return None;
    }
    let (x1, local) = if x1 - x0 >= INTERIOR_WG {
        (
            x0 + (x1 - x0) / INTERIOR_WG * INTERIOR_WG,
            Some([INTERIOR_WG, 1]),
        )
    } else {
        (x1, None)
    };
    let inner = Rect { x0, x1, y0, y1 };
    // Whether rectangle `r` holds window index `k`.
    let holds = |r: &Rect, k: usize| {
        let (x, y) = (k % w, k / w);
        (r.x0..r.x1).contains(&x) && (r.y0..r.y1).contains(&y)
    };
    let inside = |k: usize| holds(&inner, k);
    let sent: Vec<Rect> = halo.stages().iter().flatten().map(|s| s.send).collect();
    let is_sent = |k: usize| sent.iter().any(|r| holds(r, k));
    let faces = lists.u.iter().chain(&lists.v).map(|&(d, s)| (d, s, s));
    let bad = faces
        .chain(lists.cells.iter().copied())
        .any(|(d, p, t)| is_sent(d) && (inside(p) || inside(t)));
    let meets = |r: &Rect| r.x0 < inner.x1 && inner.x0 < r.x1 && r.y0 < inner.y1 && inner.y0 < r.y1;
    if bad || sent.iter().any(meets) {
        log::info!(
            "rank {}: the exchange stays blocking (a sent copy reads the interior)",
            win.rank
        );
        return None;
    }
    let part = |r: Rect, local| Part {
        offset: [r.x0, r.y0],
        size: [r.x1 - r.x0, r.y1 - r.y0],
        local,
    };
    let frame = [
        Rect {
            x0: 0,
            x1: w,
            y0: 0,
            y1: y0,
        },
        Rect {
            x0: 0,
            x1: w,
            y0: y1,
            y1: h,
        },
        Rect {
            x0: 0,
            x1: x0,
            y0,
            y1,
        },
        Rect {
            x0: x1,
            x1: w,
            y0,
            y1,
        },
    ];
    Some(Split {
        frame: frame
            .into_iter()
            .filter(|r| !r.is_empty())
            .map(|r| part(r, None))
            .collect(),
        interior: vec![part(inner, local)],
    })
}

/// Queue the `parts` of whole-grid kernel `kernel`.
fn launch_parts(rt: &Runtime, kernel: &str, parts: &[Part]) -> Result<(), DeviceError> {
    for p in parts {
        rt.launch_rect(kernel, p.offset, p.size, p.local)?;
    }
    Ok(())
}

impl OpenCl {
    /// The frame and interior of this rank's window when its exchanges overlap.
    pub(super) fn overlapped(&self) -> Option<(Arc<Halo>, Arc<Split>)> {
        match (&self.halo, &self.split) {
            (Some(h), Some(s)) if self.overlap => Some((Arc::clone(h), Arc::clone(s))),
            _ => None,
        }
    }

    /// Whole-grid kernel `kernel`, then copy-list kernel `list`, then (on a rank) the halo
    /// strips of `names` replaced by their owners' values: overlapped with the interior when
    /// `Backend::set_overlap` and the window allow it, else after the whole phase.
    pub(super) fn phase(
        &mut self,
        kernel: &str,
        list: Option<&str>,
        names: &[&str],
    ) -> Result<(), DeviceError> {
        let Some((h, split)) = self.overlapped() else {
            self.run(kernel)?;
            if let Some(l) = list {
                self.copies(l)?;
            }
            return self.exchange(names);
        };
        launch_parts(&self.rt, kernel, &split.frame)?;
        let copies = list.map(|l| (l, self.list_items(l), self.wg));
        let queue_copies = |rt: &Runtime| match copies {
            Some((l, n, wg)) if n > 0 => rt.launch(l, n, wg),
            _ => Ok(()),
        };
        queue_copies(&self.rt)?;
        let mut io = DeviceStrips::queued(&mut self.rt, names, self.p.grid.nxt);
        h.exchange_during(&mut io, |io| {
            launch_parts(io.rt, kernel, &split.interior)?;
            queue_copies(io.rt)
        })
    }

    /// Set up the overlap of a rank's window (after [`OpenCl::set_halo`]): its [`split`]
    /// where the end of an iteration runs in the default order (the compat switches that
    /// reorder it exchange after each whole phase).
    pub(super) fn plan_overlap(&mut self) {
        let plain = self.ends.plain();
        self.split = match &self.halo {
            Some(h) if plain && !h.stages().iter().all(Vec::is_empty) => {
                split(h, &CopyLists::new(&self.p.ghosts)).map(Arc::new)
            }
            _ => None,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decomp::{Decomposition, ThreadComm};

    /// The split of rank `rank` of a `px × py` layout of a `nx × ny` grid without copies.
    fn split_of(nx: usize, ny: usize, px: usize, py: usize, rank: usize) -> Option<Split> {
        let dec = Decomposition::choose(nx, ny, px * py, Some(px), Some(py), (false, false))
            .expect("layout");
        let comm = ThreadComm::group(px * py).swap_remove(rank);
        let halo = Halo::new(Arc::new(comm), dec.window(rank));
        let none = CopyLists {
            u: Vec::new(),
            v: Vec::new(),
            cells: Vec::new(),
        };
        split(&halo, &none)
    }

    /// Every cell of a `w × h` window in exactly one part.
    fn covers_once(s: &Split, w: usize, h: usize) {
        let mut seen = vec![0; w * h];
        for p in s.frame.iter().chain(&s.interior) {
            for y in p.offset[1]..p.offset[1] + p.size[1] {
                for x in p.offset[0]..p.offset[0] + p.size[0] {
                    seen[x + y * w] += 1;
                }
            }
            if let Some(l) = p.local {
                assert_eq!(p.size[0] % l[0], 0, "{p:?}");
                assert_eq!(p.size[1] % l[1], 0, "{p:?}");
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }

    #[test]
    fn frame_and_interior_cover_the_window_once() {
        for (px, py) in [(2, 1), (1, 2), (2, 2), (3, 1)] {
            let dec = Decomposition::choose(90, 70, px * py, Some(px), Some(py), (false, false))
                .expect("layout");
            for rank in 0..px * py {
                let win = dec.window(rank);
                let s = split_of(90, 70, px, py, rank).expect("an interior");
                covers_once(&s, win.width(), win.height());
                assert_eq!(s.interior.len(), 1);
            }
        }
    }

    #[test]
    fn a_window_too_narrow_has_no_overlap() {
        // The middle one of three ranks owning three columns each: all frame.
        assert!(split_of(9, 40, 3, 1, 1).is_none());
    }
}
