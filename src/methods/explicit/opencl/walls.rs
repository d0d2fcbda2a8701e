//! The strip's work-groups against the walls ([`Stage::walled_groups`]): which read a solid
//! cell (they run the strip with its wall code), which read none (the copy without it) and
//! which compute solid cells only (they skip their work), and the shares of the cells each
//! kind computes, which the byte and flop models and the build's defines use.

use super::stage::{all_walled_setting, setting, Stage, StageForm, NV_STRIP_GROUPS_PER_CU};
use crate::error::DeviceError;
use crate::methods::explicit::Problem;

/// Environment variable for measurements: the queues of the strip's two kernels with walls
/// ([`super::bands::WalledLaunch`]): `2`, the walled groups on the main queue and the free
/// ones beside them on a second queue, at once; `1`, the walled groups then the free ones on
/// the main queue. Unset, [`Stage::walled_queues`] chooses.
pub const WALLED_QUEUES_ENV: &str = "SIMPLETS_WALLED_QUEUES";

/// How the strip's walled and free groups share the queues ([`WALLED_QUEUES_ENV`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WalledQueues {
    /// The walled groups on the main queue, the free ones beside them on a second queue.
    Two,
    /// The walled groups then the free ones on the main queue.
    One,
}

/// [`WALLED_QUEUES_ENV`]'s choice (`None` where unset), or why its value is refused.
pub fn walled_queues_setting() -> Result<Option<WalledQueues>, DeviceError> {
    setting(WALLED_QUEUES_ENV, "expected 1 or 2", |v| match v {
        "2" => Some(WalledQueues::Two),
        "1" => Some(WalledQueues::One),
        _ => None,
    })
}

/// The strip with walls runs its walled and free kernels on one queue where the walled
/// groups make at least this share of a wave of the walled kernel
/// ([`NV_STRIP_GROUPS_PER_CU`] groups on each compute unit), else on two. Run 132 on an
/// H200, the dam's strip at 8192² (about 650 walled groups, a whole wave of 660): one queue
/// 1080.8–1081.3 µs per stage, two 1103.5–1107.2; at 4096² (half a wave) one 308.3–309.3,
/// two 299.1–300.5; at 2048² (a quarter) one 110.8–111.5, two 97.2–100.4. A walled wave that
/// fills the GPU costs little on its own, while beside the free groups it delayed them; a
/// part of a wave leaves most of the GPU idle, which the free groups fill.
pub const ONE_QUEUE_FROM_WAVE: f64 = 0.75;

impl Stage {
    /// How the strip's walled and free kernels share the queues on a device of
    /// `compute_units`: [`WALLED_QUEUES_ENV`]'s choice, else [`ONE_QUEUE_FROM_WAVE`]'s rule.
    pub fn walled_queues(
        &self,
        p: &Problem,
        compute_units: usize,
    ) -> Result<WalledQueues, DeviceError> {
        if let Some(q) = walled_queues_setting()? {
            return Ok(q);
        }
        let walled = self
            .walled_groups(p)
            .iter()
            .filter(|&&f| f == GROUP_WALLED)
            .count();
        let wave = (compute_units * NV_STRIP_GROUPS_PER_CU) as f64;
        Ok(if walled as f64 >= ONE_QUEUE_FROM_WAVE * wave {
            WalledQueues::One
        } else {
            WalledQueues::Two
        })
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
    /// [`GROUP_FREE`] ([`GROUP_WALLED`] under [`WALLED_ENV`](super::stage::WALLED_ENV)
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

    /// One queue where the walled groups make at least three quarters of a wave of the
    /// walled kernel, two below: the dam of `configs/shll_dam_break.json` on the unit square
    /// at 1024² in strips of 126 × 16 cells has W walled groups, which a device of
    /// ⌈W / (0.75·5)⌉ compute units or fewer runs on one queue; 132 compute units run them
    /// on two. The variable overrides the rule (not set in the unit tests).
    #[test]
    fn walled_kernels_share_one_queue_from_three_quarters_of_a_wave() {
        let walls =
            r#""walls":[{"x":[0.475,0.525],"y":[0,0.475]},{"x":[0.475,0.525],"y":[0.85,1]}],"#;
        let p = problem_of("shll_shallow_water", walls, 1024, 1024);
        let st = Stage::new(&p, true, None);
        assert!(st.walls_apart(&p));
        let walled = st
            .walled_groups(&p)
            .iter()
            .filter(|&&f| f == GROUP_WALLED)
            .count();
        assert!(walled > 20, "{walled}");
        let most = (walled as f64 / (ONE_QUEUE_FROM_WAVE * NV_STRIP_GROUPS_PER_CU as f64)) as usize;
        assert_eq!(st.walled_queues(&p, most).unwrap(), WalledQueues::One);
        assert_eq!(st.walled_queues(&p, most + 1).unwrap(), WalledQueues::Two);
        assert_eq!(st.walled_queues(&p, 132).unwrap(), WalledQueues::Two);
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
