//! The strip's work-groups against the walls ([`Stage::walled_groups`]): which read a solid
//! cell (they run the strip with its wall code), which read none (the copy without it) and
//! which compute solid cells only (they skip their work), and the shares of the cells each
//! kind computes, which the byte and flop models and the build's defines use.

use super::settings::all_walled_setting;
use super::stage::{Stage, StageForm};
use crate::methods::explicit::Problem;

/// How the strip with walls launches its walled and free groups. The same bits in each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalledMode {
    /// One kernel holding both copies of the strip, each group taking its own, the walled
    /// groups first within each part (`bands::mixed_order`): the kernel takes the walled
    /// copy's registers.
    Mixed,
    /// Two kernels, each at its own registers, one after the other on the main queue, the
    /// walled groups first.
    Apart,
    /// Two kernels beside each other: the walled groups on the main queue, the free ones on a
    /// second queue ([`crate::device::Runtime::launch_beside`]).
    Beside,
}

impl WalledMode {
    /// The name [`WALLED_LAUNCH_ENV`](super::WALLED_LAUNCH_ENV) takes.
    pub fn name(self) -> &'static str {
        match self {
            WalledMode::Mixed => "mixed",
            WalledMode::Apart => "apart",
            WalledMode::Beside => "beside",
        }
    }
}

/// A strip with walls whose launch holds fewer than this many waves of groups runs both
/// copies in one kernel ([`WalledMode::Mixed`]; the strip's `STRIP_KEEP_WAVES`).
/// Run 134 on an H200, the dam at 1024² (621 groups, one wave): one kernel 34.7 µs per stage
/// (run 135), two beside each other 42.8–46.8, apart 57.6–57.9; at 2048² (3.3 waves) one
/// kernel 97.6–99.1 (runs 112–113), beside 94.6–100.4 (runs 132–133). In a wave or two the
/// walled groups, first in the launch, run beside the others in one kernel, where two
/// kernels pay their launches and the queues' synchronisation every stage.
pub const MIXED_BELOW_WAVES: usize = 4;

/// Two kernels run one after the other ([`WalledMode::Apart`]) where the walled groups make
/// at least this share of a wave, else beside each other ([`WalledMode::Beside`]). Run 132
/// on an H200, the dam at 8192² (about 650 walled groups, a whole wave of 660): apart
/// 1080.8–1081.3 µs per stage, beside 1103.5–1107.2, one kernel 1116–1121 (runs 112–113); at
/// 4096² (half a wave) apart 308.3–309.3, beside 299.1–300.5, one kernel 307–309. A walled
/// wave that fills the GPU costs little on its own, while beside the free groups it delays
/// them; a part of a wave leaves most of the GPU idle, which the free groups fill.
pub const APART_FROM_WAVE: f64 = 0.75;

impl Stage {
    /// How the strip with walls launches its groups on a device that runs `slots` groups at
    /// once ([`MIXED_BELOW_WAVES`], [`APART_FROM_WAVE`]); [`WalledMode::Mixed`] where the
    /// stage has no walled copy.
    pub fn walled_mode(&self, p: &Problem, slots: usize) -> WalledMode {
        if !self.walls_apart(p) || self.groups(p) < MIXED_BELOW_WAVES * slots {
            return WalledMode::Mixed;
        }
        let walled = self
            .walled_groups(p)
            .iter()
            .filter(|&&f| f == GROUP_WALLED)
            .count();
        if walled as f64 >= APART_FROM_WAVE * slots as f64 {
            WalledMode::Apart
        } else {
            WalledMode::Beside
        }
    }
}

/// A strip work-group with no solid cell among those it reads ([`Stage::walled_groups`]): it
/// runs the copy of the strip without wall code.
pub const GROUP_FREE: i32 = 0;

/// A strip work-group that reads a solid cell and computes a fluid one: it runs the strip
/// with its wall faces.
pub const GROUP_WALLED: i32 = 1;

/// A strip work-group whose computed cells are all solid: it reads and writes nothing, as a
/// solid cell keeps its state and both levels hold it from the start (`OpenCl::new` uploads
/// the initial state to both, and every later upload writes both), and its partial maxima
/// are the strip's for solid cells, +0.
pub const GROUP_SOLID: i32 = 2;

impl Stage {
    /// Whether the stage's groups take one of two copies of the strip, with or without its
    /// wall code, after their flag ([`Stage::walled_groups`]): the strip with walls.
    pub fn walls_apart(&self, p: &Problem) -> bool {
        self.form == StageForm::Strip && p.solid.is_some()
    }

    /// The flag of each of the stage's work-groups, indexed like the partial maxima (`gx +
    /// gy·groups along x`), with the strip and walls ([`Stage::walls_apart`]; one 0
    /// otherwise): [`GROUP_SOLID`] where every cell the group computes is solid,
    /// [`GROUP_WALLED`] where another cell it reads (its columns and rows with the halo column
    /// on each side and the halo row below and above, ghosts included) is solid, else
    /// [`GROUP_FREE`] ([`GROUP_WALLED`] under [`WALLED_ENV`](super::settings::WALLED_ENV)
    /// `=all`). `stage_fe` runs the free groups through a copy of the strip without
    /// wall code and skips the solid ones (its `walled` argument,
    /// [`super::bands::walled_launch`]).
    pub fn walled_groups(&self, p: &Problem) -> Vec<i32> {
        let Some(solid) = p.solid.as_ref().filter(|_| self.walls_apart(p)) else {
            return vec![GROUP_FREE];
        };
        let m = &p.mesh;
        let (w, rpi) = self.group_cells();
        let [gxs, gys] = self.global(p);
        let (gxs, gys) = (gxs / self.lx, gys / self.ly);
        let free = if all_walled_setting().unwrap_or(false) {
            GROUP_WALLED
        } else {
            GROUP_FREE
        };
        let mut flags = vec![free; gxs * gys];
        // Stored columns and rows of computed cells start … start + len − 1 within −1 … n
        // (the ghost layer next to them), or within 0 … n − 1 (`inner`).
        let span = |start: isize, len: usize, n: usize, inner: bool| {
            let (lo, hi) = if inner {
                (0, n as isize - 1)
            } else {
                (-1, n as isize)
            };
            let (a, b) = (start.max(lo), (start + len as isize - 1).min(hi));
            (a + m.ng as isize) as usize..=(b + m.ng as isize) as usize
        };
        for gy in 0..gys {
            let rows = span((gy * rpi) as isize - 1, rpi + 2, m.ny, false);
            let own_rows = span((gy * rpi) as isize, rpi, m.ny, true);
            for gx in 0..gxs {
                let cols = span((gx * w) as isize - 1, self.lx, m.nx, false);
                let own_cols = span((gx * w) as isize, w, m.nx, true);
                let at = |i: usize, j: usize| solid[i + j * m.nxs] != 0;
                let all = own_rows.clone().all(|j| own_cols.clone().all(|i| at(i, j)));
                let any = rows.clone().any(|j| cols.clone().any(|i| at(i, j)));
                flags[gx + gy * gxs] = if all {
                    GROUP_SOLID
                } else if any {
                    GROUP_WALLED
                } else {
                    free
                };
            }
        }
        flags
    }

    /// The share of the computed cells that the groups flagged `flag` by
    /// [`Stage::walled_groups`] compute (0 without the strip or without walls).
    fn flagged_share(&self, p: &Problem, flag: i32) -> f64 {
        if !self.walls_apart(p) {
            return 0.0;
        }
        let flags = self.walled_groups(p);
        let m = &p.mesh;
        let (w, rpi) = self.group_cells();
        let gxs = self.global(p)[0] / self.lx;
        let cells: usize = flags
            .iter()
            .enumerate()
            .filter(|(_, &f)| f == flag)
            .map(|(g, _)| {
                let (gx, gy) = (g % gxs, g / gxs);
                (m.nx.min((gx + 1) * w) - gx * w) * (m.ny.min((gy + 1) * rpi) - gy * rpi)
            })
            .sum();
        cells as f64 / (m.nx * m.ny) as f64
    }

    /// The share of the computed cells that the walled groups update
    /// ([`GROUP_WALLED`]; 0 without the strip or without walls): the part of a stage that
    /// reads the mask.
    pub fn walled_share(&self, p: &Problem) -> f64 {
        self.flagged_share(p, GROUP_WALLED)
    }

    /// The share of the computed cells in groups that are solid throughout
    /// ([`GROUP_SOLID`]; 0 without the strip or without walls): the part of a stage that
    /// reads and writes nothing.
    pub fn solid_share(&self, p: &Problem) -> f64 {
        self.flagged_share(p, GROUP_SOLID)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::methods::explicit::opencl::stage::tests::{problem, problem_of};

    /// One kernel where the launch is under four waves, else two kernels, one after the
    /// other where the walled groups make at least three quarters of a wave, beside each
    /// other below: the dam of `configs/shll_dam_break.json` on the unit square at 1024² in
    /// strips of 126 × 16 cells (N groups, W of them walled) on devices of `slots` groups.
    #[test]
    fn walled_mode_follows_the_waves() {
        let walls =
            r#""walls":[{"x":[0.475,0.525],"y":[0,0.475]},{"x":[0.475,0.525],"y":[0.85,1]}],"#;
        let p = problem_of("shll_shallow_water", walls, 1024, 1024);
        let st = Stage::new(&p, true, None);
        assert!(st.walls_apart(&p));
        let n = st.groups(&p);
        let walled = st
            .walled_groups(&p)
            .iter()
            .filter(|&&f| f == GROUP_WALLED)
            .count();
        assert!(walled > 20 && 4 * walled < n, "{walled} of {n}");
        let most = n / MIXED_BELOW_WAVES;
        assert_eq!(st.walled_mode(&p, most + 1), WalledMode::Mixed);
        assert_ne!(st.walled_mode(&p, most), WalledMode::Mixed);
        let apart = (walled as f64 / APART_FROM_WAVE) as usize;
        assert!(apart < most);
        assert_eq!(st.walled_mode(&p, apart), WalledMode::Apart);
        assert_eq!(st.walled_mode(&p, apart + 1), WalledMode::Beside);
        let open = problem_of("shll_shallow_water", "", 1024, 1024);
        assert_eq!(st.walled_mode(&open, 1), WalledMode::Mixed);
    }

    /// A group is flagged when its columns and rows, with one halo column on each side and
    /// one halo row below and above, hold a solid cell: the wall of cells i = 20 … 23,
    /// j = 15 … 17 falls in strips (6 columns, 3 rows) 3 and 4 along x and 4, 5, 6 along y
    /// (strip 4 reaches it through its halo column 23, strips 4 and 6 along y through their
    /// halo rows 15 and 17). A group is solid when the cells it computes all are.
    #[test]
    fn walled_groups_are_those_whose_footprint_holds_a_solid_cell() {
        let p = problem("shll_euler", r#""walls":[{"x":[0.5,0.6],"y":[0.5,0.6]}],"#);
        let st = Stage {
            form: StageForm::Strip,
            lx: 8,
            ly: 1,
            rpi: 3,
            walled: WalledMode::Mixed,
        };
        let flags = st.walled_groups(&p);
        assert_eq!(flags.len(), 7 * 10);
        let want: Vec<usize> = [3, 4]
            .iter()
            .flat_map(|&gx| [4, 5, 6].map(|gy| gx + 7 * gy))
            .collect();
        let got: Vec<usize> = (0..flags.len()).filter(|&g| flags[g] != 0).collect();
        let mut want = want;
        want.sort_unstable();
        assert_eq!(got, want);
        assert!((st.walled_share(&p) - 108.0 / 1200.0).abs() < 1e-15);
        assert_eq!(st.solid_share(&p), 0.0);
        // Strips of 2 columns: those of columns 20–21 and 22–23, rows 15–17, compute only
        // solid cells.
        let narrow = Stage { lx: 4, ..st };
        let flags = narrow.walled_groups(&p);
        let solid: Vec<usize> = (0..flags.len())
            .filter(|&g| flags[g] == GROUP_SOLID)
            .collect();
        assert_eq!(solid, vec![10 + 20 * 5, 11 + 20 * 5]);
        assert!(flags
            .iter()
            .all(|&f| [GROUP_FREE, GROUP_WALLED, GROUP_SOLID].contains(&f)));
        assert!((narrow.solid_share(&p) - 12.0 / 1200.0).abs() < 1e-15);
        let tile = Stage {
            form: StageForm::Tile,
            ..st
        };
        assert_eq!(tile.walled_groups(&p), vec![0]);
        assert_eq!(tile.walled_share(&p), 0.0);
    }
}
