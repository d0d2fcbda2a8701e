//! The shape of CE/SE's fused kernels (`fused_1d`, the sweep of `fused_2d`): the work-group
//! width and its rows (2D) or tiles (1D), the defaults per device and their fitting to the
//! mesh, and the tuning variable that overrides them. Any shape gives the same bits; only
//! the speed differs (the measurements behind each default are on its constant).

use super::Problem;
use crate::device::DeviceInfo;
use crate::methods::explicit::opencl::fit_rows_upto;

/// Environment variable that sets the sweep `WxR` of the fused kernels (W items per
/// work-group, R output rows per group in 2D) for tuning sweeps; any valid shape gives the
/// same bits.
pub const SWEEP_ENV: &str = "SIMPLETS_CESE_SWEEP";

/// The sweep `WxR` of [`SWEEP_ENV`], or why not (W a power of two from 4 to 1024 for the
/// group reduction, with two halo columns; R ≥ 1).
pub fn parse_sweep(value: &str) -> Result<Sweep, String> {
    let parts = crate::text::x_counts(value)?;
    let [w, rows] = parts[..] else {
        return Err("expected WxR, e.g. 128x16".into());
    };
    if !(4..=1024).contains(&w) || !w.is_power_of_two() || rows == 0 {
        return Err("W must be a power of two from 4 to 1024 and R at least 1".into());
    }
    Ok(Sweep { w, rows })
}

/// The shape of the fused kernels: `fused_2d` is a work-group of `w` items (`w` − 2 output
/// columns) sweeping `rows` output rows; `fused_1d` a group of `w` items that computes `rows`
/// tiles of `w` − 2 outputs one after the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sweep {
    /// Work-items per group.
    pub w: usize,
    /// Output rows per group (2D), tiles per group (1D).
    pub rows: usize,
}

/// The default sweep: 128 items, 16 rows.
pub const SWEEP: Sweep = Sweep { w: 128, rows: 16 };

/// Groups of the 2D sweep's 128 items that one NVIDIA compute unit runs at once: 4, by the
/// registers of [`NV_SWEEP_MAX_REGISTERS`] (4 × 128 × 128 = 64 K; the local memory of 4
/// groups, 168 KiB, fits the SM's 228).
pub const NV_SWEEP_GROUPS_PER_CU: usize = 4;

/// The register cap of the 2D sweep's program on NVIDIA GPUs: the driver takes 150 for
/// `fused_2d` (3 groups per SM); at 128 (4 groups) it ran 3 % faster on an H200 (run 123:
/// 8192² 6439–6452 → 6236–6244 µs, 4096² 1706–1709 → 1655–1658). Before the parents' shared
/// form (166 registers) a cap of 128 spilled and was 13 % slower (run 114).
pub const NV_SWEEP_MAX_REGISTERS: usize = 128;

/// The 1D fused kernel's group on NVIDIA GPUs at large meshes: 64 items (62 outputs a tile),
/// 8 tiles ([`Sweep::fitted_1d`] takes fewer where the mesh has too few groups). On an H200
/// at 10⁸ points (run 126), with each item loading its next tile's point while the tile
/// computes: 8 tiles 2769.6–2769.8 µs, 16 2801.0–2807.9, 32 2819.8–2822.8; without that load,
/// 1 tile 3532.6–3556.0, 4 3246.3–3275.6, 16 3197.3–3221.2, and 128 items (4 tiles) or 32
/// (8) slower than 64. Before the tiles, 64 items ran 2 % faster than 128 and 5 % faster
/// than 32 (runs 122–123).
pub const NV_SWEEP_1D: Sweep = Sweep { w: 64, rows: 8 };

/// The fewest groups of `fused_1d` per compute unit [`Sweep::fitted_1d`] keeps while it
/// gives a group more tiles: on an H200 (run 127) 10⁶ points ran fastest in 4 tiles (4 032
/// groups, 31 per SM: 38.3–38.4 µs; 2 tiles 40.2–41.3, 8 tiles 43.6–44.9), 10⁵ in one
/// (1 613 groups: 10.5–11.1 µs, 8 tiles 18.8–19.9), 10⁷ in 4 or 8 (287.3–289.4 µs; 16
/// tiles 296.7–298.1).
pub const NV_SWEEP_1D_LEAST_GROUPS_PER_CU: usize = 24;

/// The same off NVIDIA ([`SWEEP`]'s 16 tiles of 126 outputs, fewer where the mesh would leave
/// a compute unit without a group): on 16 host cores through PoCL (run 129) 16 tiles ran as
/// fast as or faster than 1 or 4 from 10⁵ points (10⁶: 15.4–16.2 ms against 17.0–20.1 in one
/// tile), and at 10⁴, 5 groups of 16 tiles, slower than 4 tiles' 20 (432–442 µs against
/// 280–339).
pub const SWEEP_1D_LEAST_GROUPS_PER_CU: usize = 1;

/// The fewest waves of groups [`Sweep::on`] fits a launch to where the mesh has them: one
/// wave of long strips, whose groups start and end together, was slower than the waves say
/// (run 115 on an H200 at 1024²: 24 rows in one wave 192.3–193.5 µs, 8 rows in 2.9 waves
/// 181.7–183.0, run 114: 16 rows in 1.5 waves 199.4–200.2).
pub const SWEEP_LEAST_WAVES: usize = 2;

/// The most rows [`Sweep::on`] fits to a launch. Long strips in few waves were slower than
/// the waves alone say (run 114 on an H200 at 4096²: 16 rows in 21.3 waves 1962 µs, 32 in
/// 10.7 waves 1945, 64 in 5.3 waves 2037).
pub const SWEEP_MOST_ROWS: usize = 32;

impl Sweep {
    /// The sweep of [`SWEEP_ENV`] where it is set to a valid value.
    pub fn from_env() -> Option<Sweep> {
        std::env::var(SWEEP_ENV)
            .ok()
            .filter(|v| !v.trim().is_empty())
            .and_then(|v| parse_sweep(&v).ok())
    }

    /// The sweep without a device: [`SWEEP_ENV`] or [`SWEEP`].
    pub fn default_env() -> Sweep {
        Sweep::from_env().unwrap_or(SWEEP)
    }

    /// The sweep of `p` on `dev`: [`SWEEP_ENV`] where set; on an NVIDIA GPU the 2D sweep's
    /// rows fitted to the groups it runs at once ([`NV_SWEEP_GROUPS_PER_CU`] per compute
    /// unit; [`Sweep::fitted_2d`]): a launch's time is about its waves × (rows + 2) passes,
    /// so a mesh of few waves takes the rows that fill them (run 114 on an H200 at 1024²: 16
    /// rows in 1.5 waves 199.4–200.2 µs, 8 rows in 2.9 waves 182.5–182.7), and 1D
    /// [`NV_SWEEP_1D`] with its tiles fitted to the mesh ([`Sweep::fitted_1d`]); [`SWEEP`]
    /// elsewhere, its 1D tiles fitted likewise.
    pub fn on(p: &Problem, dev: &DeviceInfo) -> Sweep {
        if let Some(s) = Sweep::from_env() {
            return s;
        }
        let (nx, cus) = (p.mesh.nx, dev.compute_units as usize);
        match (dev.is_nvidia(), p.mesh.dims) {
            (true, 1) => Sweep::fitted_1d(NV_SWEEP_1D, nx, cus * NV_SWEEP_1D_LEAST_GROUPS_PER_CU),
            (true, _) => Sweep::fitted(p, cus * NV_SWEEP_GROUPS_PER_CU),
            (false, 1) => Sweep::fitted_1d(SWEEP, nx, cus * SWEEP_1D_LEAST_GROUPS_PER_CU),
            (false, _) => SWEEP,
        }
    }

    /// [`SWEEP`] with its 2D rows fitted to a device that runs `slots` groups at once.
    pub fn fitted(p: &Problem, slots: usize) -> Sweep {
        let m = &p.mesh;
        if m.dims != 2 {
            return SWEEP;
        }
        Sweep::fitted_2d(m.nx, m.ny, slots)
    }

    /// The 1D sweep `base` with its tiles halved until `nx` points make at least `least`
    /// groups (or one tile is left): a group's tiles run one after the other, so a small
    /// mesh needs its points spread over more groups.
    pub fn fitted_1d(base: Sweep, nx: usize, least: usize) -> Sweep {
        let mut rows = base.rows;
        while rows > 1 && nx.div_ceil((base.w - 2) * rows) < least {
            rows /= 2;
        }
        Sweep { rows, ..base }
    }

    /// [`Sweep::fitted`] of an `nx` × `ny` 2D mesh: of the rows that make at least
    /// [`SWEEP_LEAST_WAVES`] waves (any rows where none do), those [`fit_rows_upto`] takes.
    pub fn fitted_2d(nx: usize, ny: usize, slots: usize) -> Sweep {
        let columns = nx.div_ceil(SWEEP.w - 2);
        let waves = |rows: usize| columns * ny.div_ceil(rows) >= SWEEP_LEAST_WAVES * slots;
        let most = (1..=SWEEP_MOST_ROWS)
            .take_while(|&r| waves(r))
            .last()
            .unwrap_or(SWEEP_MOST_ROWS);
        let rows = fit_rows_upto(nx, ny, SWEEP.w - 2, slots, most);
        Sweep { rows, ..SWEEP }
    }
}
