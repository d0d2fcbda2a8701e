//! The stage kernels of a rank's window in two parts ([`Split`]): the work-groups that hold
//! a cell within `ng` of a side of the computed cells (the frame: what the neighbours receive,
//! and every ghost kernel's source cells), then the others (the interior). Each part is a few
//! rectangles of the stage's grid of work-groups, launched with a global work offset of whole
//! groups; every group is launched once and computes what it computes in the whole launch
//! (its cells, tile and partial maxima come from its place in the grid, `cl/explicit/step.cl`),
//! so the state and the maxima are the same bits.

use std::ops::Range;

use super::walls::{WalledMode, GROUP_FREE, GROUP_SOLID, GROUP_WALLED};
use super::Stage;
use crate::device::{Range2, Runtime};
use crate::error::DeviceError;
use crate::methods::explicit::Problem;

/// A rectangle of the stage's work-groups, as launched: the first item (the global work
/// offset) and the items along x and y.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part {
    /// The global work offset.
    pub offset: [usize; 2],
    /// Work-items along x and y.
    pub size: [usize; 2],
}

impl Part {
    /// The places `gx + gy·gxs` of the groups this part launches, of `group` items each, in a
    /// grid `gxs` groups wide, row by row.
    pub fn places(&self, group: (usize, usize), gxs: usize) -> Vec<usize> {
        let (lx, ly) = group;
        (self.offset[1] / ly..(self.offset[1] + self.size[1]) / ly)
            .flat_map(|gy| {
                (self.offset[0] / lx..(self.offset[0] + self.size[0]) / lx)
                    .map(move |gx| gx + gy * gxs)
            })
            .collect()
    }
}

/// The frame and the interior of the stage grid of a window ([`split`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Split {
    /// The groups with a cell within `ng` of a side of the computed cells.
    pub frame: Vec<Part>,
    /// The other groups (none in a window a few groups wide).
    pub interior: Vec<Part>,
}

/// The runs of consecutive indices below `n` where `keep` holds.
fn runs(n: usize, keep: impl Fn(usize) -> bool) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    for g in (0..n).filter(|&g| keep(g)) {
        match out.last_mut() {
            Some(r) if r.end == g => r.end = g + 1,
            _ => out.push(g..g + 1),
        }
    }
    out
}

/// Groups along one axis of `n` groups that hold a cell within `ng` of either end of the
/// `cells` computed cells, where cell `c` lies in group `group(c)`.
fn edge_groups(n: usize, cells: usize, ng: usize, group: impl Fn(usize) -> usize) -> Vec<bool> {
    let mut edge = vec![false; n];
    for c in (0..ng.min(cells)).chain(cells.saturating_sub(ng)..cells) {
        edge[group(c)] = true;
    }
    edge
}

/// The frame and the interior of `p`'s stage launch `st` ([`Stage::global`]). In 2D a group
/// holds the cells of [`Stage::group_cells`] (`LX` columns and `LY·RPI` rows; the strip
/// `LX − 2` columns and `RPI` rows); in 1D an item updates the cells `i + r·G`, `r < RPI`,
/// of the whole launch's size `G`, so a group's cells are spread over the row.
pub fn split(p: &Problem, st: &Stage) -> Split {
    let m = &p.mesh;
    let (lx, ly) = st.work_group();
    let (cx, cy) = st.group_cells();
    let g = st.global(p);
    let (gx, gy) = (g[0] / lx, g[1] / ly);
    let ex = if m.dims == 2 {
        edge_groups(gx, m.nx, m.ng, |c| c / cx)
    } else {
        edge_groups(gx, m.nx, m.ng, |c| (c % g[0]) / lx)
    };
    let ey = if m.dims == 2 {
        edge_groups(gy, m.ny, m.ng, |r| r / cy)
    } else {
        vec![false; gy]
    };
    let part = |x: &Range<usize>, y: &Range<usize>| Part {
        offset: [x.start * lx, y.start * ly],
        size: [x.len() * lx, y.len() * ly],
    };
    let all = 0..gx;
    let (rows_edge, rows_inner) = (runs(gy, |j| ey[j]), runs(gy, |j| !ey[j]));
    let (cols_edge, cols_inner) = (runs(gx, |i| ex[i]), runs(gx, |i| !ex[i]));
    let mut frame: Vec<Part> = rows_edge.iter().map(|y| part(&all, y)).collect();
    let mut interior = Vec::new();
    for y in &rows_inner {
        frame.extend(cols_edge.iter().map(|x| part(x, y)));
        interior.extend(cols_inner.iter().map(|x| part(x, y)));
    }
    Split { frame, interior }
}

/// `stage_fe`'s `walled` argument in one launch of both copies of the strip
/// ([`WalledMode::Mixed`]): for each launched group, at its place `L = gx + gy·(groups along
/// x)`, the group it runs, as `4·g + flag` with the flag of [`Stage::walled_groups`]. Within
/// each part of [`split`] (so that a rank's frame and interior still compute their own
/// groups) the walled groups, which run the slower copy of the strip, take the first places,
/// and the solid ones, which do next to nothing, the last: the GPU hands out a launch's
/// groups about in the order of their places, so the walled ones spread over the compute
/// units instead of several landing on one. Run 106 on an H200, the dam at 1024² (one wave of
/// 621 groups): 38.1–38.5 → 35.4 µs per step; at 2048² and 4096² (several waves, where the
/// GPU balances as groups finish) no change. A group computes the cells and partial maxima of
/// `g` wherever it is launched, so the bits are the same.
pub fn mixed_order(p: &Problem, st: &Stage) -> Vec<i32> {
    let flags = st.walled_groups(p);
    let (lx, ly) = st.work_group();
    let gxs = st.global(p)[0] / lx;
    let mut order = vec![0; flags.len()];
    let s = split(p, st);
    for part in s.frame.iter().chain(&s.interior) {
        let places = part.places((lx, ly), gxs);
        let mut groups = places.clone();
        groups.sort_by_key(|&g| match flags[g] {
            GROUP_WALLED => 0,
            GROUP_FREE => 1,
            _ => 2,
        });
        for (&at, &g) in places.iter().zip(&groups) {
            order[at] = 4 * g as i32 + flags[g];
        }
    }
    order
}

/// `stage_fe`'s (and `stage_fe_walled`'s) `walled` argument: [`mixed_order`] or
/// [`WalledLaunch::order`] after the stage's [`WalledMode`], one unread 0 where the stage
/// has no walled copy.
pub fn walled_order(p: &Problem, st: &Stage) -> Vec<i32> {
    if !st.walls_apart(p) {
        return vec![0];
    }
    match walled_launch(p, st) {
        Some(w) => w.order,
        None => mixed_order(p, st),
    }
}

/// The strip's launches with walls as two kernels ([`WalledMode::Apart`],
/// [`WalledMode::Beside`]): `stage_fe` for the free and solid groups and `stage_fe_walled`
/// for the walled ones, each launched as a row of groups that reads the group it runs from
/// `order`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WalledLaunch {
    /// `stage_fe`'s and `stage_fe_walled`'s `walled` argument: at each place (a launched
    /// group's `gx`, its launch a row of groups) the group it runs, as `4·g + flag` with the
    /// flag of [`Stage::walled_groups`]. First, part by part of [`split`] (so that a rank's
    /// frame and interior still compute their own groups), the free groups of the part and
    /// then its solid ones, in the order of their places; then, part by part, the walled ones.
    pub order: Vec<i32>,
    /// For each part of [`split`], frame then interior: the places of its free and solid
    /// groups and of its walled ones.
    pub parts: Vec<[Range<usize>; 2]>,
    /// The places of all free and solid groups, and of all walled ones.
    pub all: [Range<usize>; 2],
}

/// The strip's launches as two kernels ([`WalledLaunch`]), or `None` where the stage has no
/// walled copy or runs both copies in one kernel ([`WalledMode::Mixed`]). The walled groups
/// run the slower code; as a kernel of their own they take its registers only (the dam's
/// strip with both copies in one kernel took 90 registers against 78 without walls, 5 groups
/// per SM against 6: run 127's census; as two kernels 88 and 78, run 132). A group computes
/// the cells and partial maxima of `g` wherever it is launched, so the bits are the same.
pub fn walled_launch(p: &Problem, st: &Stage) -> Option<WalledLaunch> {
    if !st.walls_apart(p) || st.walled == WalledMode::Mixed {
        return None;
    }
    let flags = st.walled_groups(p);
    let (lx, ly) = st.work_group();
    let gxs = st.global(p)[0] / lx;
    let s = split(p, st);
    let parts: Vec<Vec<usize>> = s
        .frame
        .iter()
        .chain(&s.interior)
        .map(|part| part.places((lx, ly), gxs))
        .collect();
    let mut order = Vec::with_capacity(flags.len());
    // Each part's groups of the flags `kinds`, in that order, appended to `order`: their
    // places there, part by part.
    let mut append = |kinds: &[i32]| -> Vec<Range<usize>> {
        let mut at = Vec::with_capacity(parts.len());
        for places in &parts {
            let start = order.len();
            for &kind in kinds {
                let groups = places.iter().filter(|&&g| flags[g] == kind);
                order.extend(groups.map(|&g| 4 * g as i32 + kind));
            }
            at.push(start..order.len());
        }
        at
    };
    let free = append(&[GROUP_FREE, GROUP_SOLID]);
    let walled = append(&[GROUP_WALLED]);
    let frees = free.last().map_or(0, |r| r.end);
    let all = [0..frees, frees..order.len()];
    let parts = free.into_iter().zip(walled).map(|(f, w)| [f, w]).collect();
    Some(WalledLaunch { order, parts, all })
}

/// The instance of `stage_fe_walled` that runs beside stage instance `inst`.
pub fn walled_twin(inst: &str) -> String {
    format!("{inst}_walled")
}

impl WalledLaunch {
    /// Queue `stage_fe` instance `inst` over the places `at[0]` and its walled twin
    /// ([`walled_twin`]) over `at[1]`, each a row of work-groups of `local` items, beside each
    /// other ([`Runtime::launch_beside`]; a kernel with no group is not launched).
    pub fn launch(
        &self,
        rt: &Runtime,
        inst: &str,
        at: &[Range<usize>; 2],
        local: [usize; 2],
    ) -> Result<(), DeviceError> {
        let row = |r: &Range<usize>| Range2 {
            offset: [r.start * local[0], 0],
            global: [r.len() * local[0], local[1]],
        };
        let (free, walled) = (row(&at[0]), row(&at[1]));
        let twin = walled_twin(inst);
        match (at[0].is_empty(), at[1].is_empty()) {
            (true, true) => Ok(()),
            (false, true) => rt.launch_rect(inst, free.offset, free.global, Some(local)),
            (true, false) => rt.launch_rect(&twin, walled.offset, walled.global, Some(local)),
            (false, false) => rt.launch_beside(&twin, walled, inst, free, local),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every group of the grid in exactly one part.
    fn covers_once(s: &Split, g: [usize; 2], l: [usize; 2]) {
        let mut seen = vec![0; (g[0] / l[0]) * (g[1] / l[1])];
        for p in s.frame.iter().chain(&s.interior) {
            for j in (p.offset[1]..p.offset[1] + p.size[1]).step_by(l[1]) {
                for i in (p.offset[0]..p.offset[0] + p.size[0]).step_by(l[0]) {
                    seen[i / l[0] + (j / l[1]) * (g[0] / l[0])] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "{seen:?}");
    }

    /// The walled launch: every group once, each part of the split launching its own groups,
    /// its free ones then its solid ones through `stage_fe` and its walled ones through
    /// `stage_fe_walled`, each with its flag. A wall at x ∈ [0.4, 0.5], y ∈ [0, 0.3] of a
    /// 600 × 300 shallow-water mesh in strips of 126 × 16 cells (5 columns of 19 groups, the
    /// walled ones in the middle column's first rows), and in strips of 6 × 4 cells, of which
    /// those inside the wall are solid.
    #[test]
    fn walled_groups_launch_apart_within_each_part() {
        let json = r#"{"name":"w","method":"shll_shallow_water",
            "grid":{"nx":600,"ny":300,"x":[0,1],"y":[0,1]},
            "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"outflow"},
            "south":{"kind":"outflow"},"north":{"kind":"outflow"}},
            "walls":[{"x":[0.4,0.5],"y":[0,0.3]}],
            "initial":{"state":{"h":1}},"time":{"cfl":0.5,"steps":1}}"#;
        let p = crate::methods::AnyCase::from_json(json, "<test>")
            .unwrap()
            .explicit_problem()
            .unwrap();
        let apart = Stage {
            walled: WalledMode::Apart,
            ..Stage::new(&p, true, None)
        };
        let small = Stage {
            lx: 8,
            rpi: 4,
            ..apart
        };
        for (st, solid) in [(apart, false), (small, true)] {
            assert_eq!(st.form, crate::methods::explicit::opencl::StageForm::Strip);
            let flags = st.walled_groups(&p);
            assert_eq!(
                walled_launch(
                    &p,
                    &Stage {
                        walled: WalledMode::Mixed,
                        ..st
                    }
                ),
                None
            );
            let w = walled_launch(&p, &st).unwrap();
            assert_eq!(w.order, walled_order(&p, &st));
            // In one kernel: each part's own groups at its places, walled first, solid last.
            let mixed = mixed_order(&p, &st);
            let (lx, ly) = st.work_group();
            let gxs = st.global(&p)[0] / lx;
            let s = split(&p, &st);
            for part in s.frame.iter().chain(&s.interior) {
                let places = part.places((lx, ly), gxs);
                let runs: Vec<usize> = places.iter().map(|&at| mixed[at] as usize).collect();
                let mut groups: Vec<usize> = runs.iter().map(|e| e / 4).collect();
                groups.sort_unstable();
                assert_eq!(groups, places, "each group of the part once");
                assert!(runs.iter().all(|e| e % 4 == flags[e / 4] as usize));
                let rank = |e: &usize| [1, 0, 2][e % 4];
                assert!(
                    runs.windows(2).all(|x| rank(&x[0]) <= rank(&x[1])),
                    "{runs:?}"
                );
            }
            assert_eq!(w.order.len(), flags.len());
            let walled = flags.iter().filter(|&&f| f == GROUP_WALLED).count();
            assert!(
                walled > 0 && walled < flags.len() / 4,
                "{walled} of {}",
                flags.len()
            );
            assert_eq!(w.all[1].len(), walled);
            assert_eq!(w.all[0].end, w.all[1].start);
            // Strips of 6 × 4 cells fit inside the wall's 60 × 90; those of 126 × 16 do not.
            let solids = flags.iter().filter(|&&f| f == GROUP_SOLID).count();
            assert_eq!(solids > 0, solid, "{solids} solid groups");
            let mut seen = vec![false; flags.len()];
            let parts: Vec<&Part> = s.frame.iter().chain(&s.interior).collect();
            assert_eq!(parts.len(), w.parts.len());
            for (part, [free, wall]) in parts.iter().zip(&w.parts) {
                let places = part.places((lx, ly), gxs);
                for (range, kernel) in [(free, 0), (wall, 1)] {
                    let runs: Vec<usize> =
                        w.order[range.clone()].iter().map(|&e| e as usize).collect();
                    // Each entry is a group of this part with its own flag, each group once.
                    for &e in &runs {
                        let g = e / 4;
                        assert!(places.contains(&g), "{g} outside its part");
                        assert_eq!(e % 4, flags[g] as usize);
                        assert_eq!(e % 4 == 1, kernel == 1, "{g} in the wrong kernel");
                        assert!(!seen[g], "{g} twice");
                        seen[g] = true;
                    }
                    // Free groups before solid ones.
                    assert!(runs.windows(2).all(|x| x[0] % 4 <= x[1] % 4), "{runs:?}");
                }
            }
            assert!(seen.iter().all(|&s| s));
        }
        // Without walls there is no walled copy.
        let open = crate::methods::AnyCase::from_json(
            &json.replace(r#""walls":[{"x":[0.4,0.5],"y":[0,0.3]}],"#, ""),
            "<test>",
        )
        .unwrap()
        .explicit_problem()
        .unwrap();
        let st = Stage {
            walled: WalledMode::Apart,
            ..Stage::new(&open, true, None)
        };
        assert_eq!(walled_launch(&open, &st), None);
        assert_eq!(walled_order(&open, &st), vec![0]);
    }

    #[test]
    fn runs_of_a_mask() {
        assert_eq!(runs(6, |i| i != 2 && i != 3), vec![0..2, 4..6]);
        assert!(runs(3, |_| false).is_empty());
    }

    #[test]
    fn frame_and_interior_cover_the_grid_once() {
        let c = crate::methods::AnyCase::from_json(
            r#"{"name":"b","method":"convection","velocity":[1.0,0.5],
            "grid":{"nx":100,"ny":70,"x":[0,1],"y":[0,1]},
            "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"outflow"},
            "south":{"kind":"outflow"},"north":{"kind":"outflow"}},
            "initial":{"value":1},"time":{"cfl":0.5,"steps":1}}"#,
            "<test>",
        )
        .unwrap();
        let p = c.explicit_problem().unwrap();
        let st = Stage::new(&p, true, None);
        let s = split(&p, &st);
        let (lx, ly) = st.work_group();
        covers_once(&s, st.global(&p), [lx, ly]);
        // 4 × 5 groups of 32 × 16 cells: the frame is the outer ring, 2 × 3 inside.
        assert_eq!(s.interior.len(), 1);
        assert_eq!(s.interior[0].size, [2 * lx, 3 * ly]);
        assert_eq!(s.frame.len(), 4);
    }

    #[test]
    fn strip_groups_are_split_by_the_cells_they_update() {
        let c = crate::methods::AnyCase::from_json(
            r#"{"name":"b","method":"shll_euler","grid":{"nx":300,"ny":70,"x":[0,1],"y":[0,1]},
            "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"outflow"},
            "south":{"kind":"outflow"},"north":{"kind":"outflow"}},
            "initial":{"state":{"rho":1,"p":1}},"time":{"cfl":0.5,"steps":1}}"#,
            "<test>",
        )
        .unwrap();
        let p = c.explicit_problem().unwrap();
        let st = Stage::new(&p, true, None);
        assert_eq!(st.form, super::super::StageForm::Strip);
        let (lx, ly, rpi) = (st.lx, st.ly, st.rpi);
        assert_eq!(ly, 1);
        assert_eq!(st.group_cells(), (lx - 2, rpi));
        let g = st.global(&p);
        // Groups of (LX − 2) columns: 300 columns in ⌈300 / 126⌉ = 3 groups of 128 items.
        assert_eq!(g[0] / lx, 300usize.div_ceil(lx - 2));
        assert_eq!(g[1], 70usize.div_ceil(rpi));
        let s = split(&p, &st);
        covers_once(&s, g, [lx, ly]);
        // The frame: the first and last strips, and the first and last groups of the others.
        assert_eq!(s.interior.len(), 1);
        assert_eq!(s.interior[0].offset, [lx, 1]);
        assert_eq!(s.interior[0].size, [(g[0] / lx - 2) * lx, g[1] - 2]);
    }
}
