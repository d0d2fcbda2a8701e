//! Work-group subdomains of the OpenCL backend (spec §5.2–5.4).
//!
//! Each work-group owns `cols` stored columns and `rows` stored rows and marches along y over
//! its rows. It has `width = cols + 2·HALO` work-items, one per column: the halo items compute
//! redundantly the pseudo-velocities and pressures their neighbours' columns need, but never
//! write to global memory.
//!
//! ```text
//!   work-items:  h h | c c c … c c | h h        h: halo (HALO = 2 each side), c: owned column
//!   rows:        j0, j0+1, … j0+rows−1           (the sweep; a prologue row j0−1 first)
//! ```
//!
//! Columns and rows cover the stored faces that may be solved: u-faces i = 1..=nx+1 and
//! v-faces j = 1..=ny+1 (cells i = 1..=nx, j = 1..=ny are a subset).

use crate::device::DeviceInfo;
use crate::error::DeviceError;
use crate::grid::Grid;

/// Halo columns on each side of a work-group in the GPU order (spec §5.2, G12); the C++
/// order's second sweep needs one more ([`halo`]).
pub const HALO: usize = 2;

/// Halo columns on each side for `sweeps` loop-3 sweeps (1 or 2): each later sweep reads its
/// neighbours' previous sweep, one column further out.
pub const fn halo(sweeps: usize) -> usize {
    1 + sweeps
}

/// Local-memory rows of doubles per work-group (spec §5.4) with one sweep: p ring 2, û and d_u
/// 1 + 1, v̂ and d_v 2 + 2, ρu and ρv rings 4 + 4.
pub const LOCAL_ROWS: usize = 16;

/// Local-memory rows with two sweeps: the final p ring 2, û and d_u 2 + 2, v̂ and d_v 4 + 4,
/// the first sweep's p and T rings 4 + 4, ρu and ρv rings 4 + 4.
pub const LOCAL_ROWS_TWO_SWEEPS: usize = 30;

/// Local bytes per work-item beyond the rows: the residual reduction's value (8) and index (4).
pub const LOCAL_REDUCTION_BYTES: usize = 12;

/// f64 arrays per stored cell on the device (spec §5.5 CHOICE): level n u, v, p, T, ρ (5);
/// iterate k u, v, p, T, ρ, Γ (6) and k+1 (6); explicit C_u, C_v, C_T (3, allocated always
/// so one build serves every scheme).
pub const DEVICE_F64_PER_CELL: usize = 20;

/// Bytes per stored cell of the class arrays: cell class, wall index, u- and v-face class
/// packed as u8 each.
pub const DEVICE_CLASS_BYTES_PER_CELL: usize = 4;

/// A work-group decomposition of a grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decomposition {
    /// Work-items per group along x, halo included.
    pub width: usize,
    /// Owned columns per group, `width − 2·halo`.
    pub cols: usize,
    /// Halo columns on each side ([`halo`] of `sweeps`).
    pub halo: usize,
    /// Loop-3 sweeps the fused kernel runs per iteration (1 or 2).
    pub sweeps: usize,
    /// Rows swept per group (Ny_sub).
    pub rows: usize,
    /// Groups along x.
    pub groups_x: usize,
    /// Groups along y.
    pub groups_y: usize,
}

impl Decomposition {
    /// Split the stored columns 1..=nx+1 and rows 1..=ny+1 of `grid` into groups of `width`
    /// work-items and at most `rows` rows. The rows are balanced over the groups along y,
    /// `rows = ceil((ny + 1) / groups_y)`, which is what the fused kernel derives from its
    /// launch size.
    pub fn new(grid: &Grid, width: usize, rows: usize) -> Result<Decomposition, String> {
        Decomposition::with_sweeps(grid, width, rows, 1)
    }

    /// [`Decomposition::new`] for a kernel that runs `sweeps` loop-3 sweeps (1 or 2).
    pub fn with_sweeps(
        grid: &Grid,
        width: usize,
        rows: usize,
        sweeps: usize,
    ) -> Result<Decomposition, String> {
        if !(1..=2).contains(&sweeps) {
            return Err(format!(
                "{sweeps} loop-3 sweeps: the fused kernel runs 1 or 2"
            ));
        }
        let halo = halo(sweeps);
        if width <= 2 * halo {
            return Err(format!(
                "work-group width {width} must exceed the 2×{halo} halo columns"
            ));
        }
        if rows == 0 {
            return Err("rows per subdomain must be at least 1".into());
        }
        let (ncols, nrows) = (grid.nx + 1, grid.ny + 1);
        let cols = width - 2 * halo;
        let groups_y = nrows.div_ceil(rows.min(nrows));
        Ok(Decomposition {
            width,
            cols,
            halo,
            sweeps,
            rows: nrows.div_ceil(groups_y),
            groups_x: ncols.div_ceil(cols),
            groups_y,
        })
    }

    /// Default choice for a device: the widest power-of-two group up to 256 work-items the
    /// device allows (the paper's 256 = 252 + 4), and rows such that there are at least eight
    /// groups per compute unit where the grid allows it (H200, 4032×4000: 272 groups gave
    /// 886 Mcell-it/s, 1088 and 4250 groups 1141 and 1155; docs/PERFORMANCE.md).
    pub fn for_device(grid: &Grid, dev: &DeviceInfo) -> Result<Decomposition, DeviceError> {
        Decomposition::for_device_sweeps(grid, dev, 1)
    }

    /// [`Decomposition::for_device`] for `sweeps` loop-3 sweeps; the width halves until the
    /// group's local memory fits the device (two sweeps: 128 on a 48 KiB device).
    pub fn for_device_sweeps(
        grid: &Grid,
        dev: &DeviceInfo,
        sweeps: usize,
    ) -> Result<Decomposition, DeviceError> {
        let mut width = 256usize.min(dev.max_work_group_size.max(1));
        while width & (width - 1) != 0 {
            width &= width - 1;
        }
        let mut width = width.max(8);
        while width > 16
            && (local_rows(sweeps) * 8 + LOCAL_REDUCTION_BYTES) * width
                > dev.local_mem_bytes as usize
        {
            width /= 2;
        }
        let probe = Decomposition::with_sweeps(grid, width, grid.ny + 1, sweeps).map_err(|_| {
            DeviceError::WorkGroupTooLarge {
                device: dev.name.clone(),
                needed: width,
                max: dev.max_work_group_size,
            }
        })?;
        // Two sweeps: four times as many groups (H200, 4032 × 4000, W = 128: 1 088 groups ran
        // 1348 Mcell-it/s, 4 284 groups of 32 rows 1868, 8 568 of 16 rows 1802; run 70).
        let per_cu = if sweeps > 1 { 32 } else { 8 };
        let target = per_cu * dev.compute_units.max(1) as usize;
        let gy = target.div_ceil(probe.groups_x).max(1);
        let rows = (grid.ny + 1).div_ceil(gy).max(1);
        let d = Decomposition::with_sweeps(grid, width, rows, sweeps).expect("width checked above");
        d.check(dev)?;
        Ok(d)
    }

    /// Local memory one group of the fused kernel needs, in bytes.
    pub fn local_bytes(&self) -> u64 {
        ((local_rows(self.sweeps) * 8 + LOCAL_REDUCTION_BYTES) * self.width) as u64
    }

    /// Total work-groups.
    pub fn groups(&self) -> usize {
        self.groups_x * self.groups_y
    }

    /// OpenCL global size (x, y) and local size (x, 1).
    pub fn ndrange(&self) -> ([usize; 2], [usize; 2]) {
        ([self.groups_x * self.width, self.groups_y], [self.width, 1])
    }

    /// First stored column and row owned by group (gx, gy).
    pub fn origin(&self, gx: usize, gy: usize) -> (usize, usize) {
        (1 + gx * self.cols, 1 + gy * self.rows)
    }

    /// Check the group against the device's work-group size and local memory.
    pub fn check(&self, dev: &DeviceInfo) -> Result<(), DeviceError> {
        if self.width > dev.max_work_group_size {
            return Err(DeviceError::WorkGroupTooLarge {
                device: dev.name.clone(),
                needed: self.width,
                max: dev.max_work_group_size,
            });
        }
        if self.local_bytes() > dev.local_mem_bytes {
            return Err(DeviceError::LocalMemTooSmall {
                device: dev.name.clone(),
                needed: self.local_bytes(),
                available: dev.local_mem_bytes,
            });
        }
        Ok(())
    }
}

/// Local-memory rows of doubles of the fused kernel with `sweeps` loop-3 sweeps.
fn local_rows(sweeps: usize) -> usize {
    if sweeps > 1 {
        LOCAL_ROWS_TWO_SWEEPS
    } else {
        LOCAL_ROWS
    }
}

/// Device memory of a grid in the OpenCL layout: (total bytes, largest single buffer).
pub fn device_bytes(grid: &Grid) -> (u64, u64) {
    let n = grid.len() as u64;
    let per_cell = (DEVICE_F64_PER_CELL * 8 + DEVICE_CLASS_BYTES_PER_CELL) as u64;
    let metrics = 8 * (2 * grid.nxt + 2 * grid.nyt + 2) as u64;
    (n * per_cell + metrics, 8 * n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::case::GridSpec;

    fn grid(nx: usize, ny: usize) -> Grid {
        let spec = GridSpec {
            nx,
            ny,
            x: [0.0, 1.0],
            y: [0.0, 1.0],
            x_faces: None,
            y_faces: None,
        };
        Grid::new(&spec, false, false)
    }

    fn device(wg: usize, local: u64, cus: u32) -> DeviceInfo {
        DeviceInfo {
            platform_index: 0,
            device_index: 0,
            platform_name: "test".into(),
            platform_version: "OpenCL 3.0".into(),
            name: "Test GPU".into(),
            vendor: "test".into(),
            device_type: "GPU".into(),
            compute_units: cus,
            max_clock_mhz: 1000,
            global_mem_bytes: 1 << 34,
            local_mem_bytes: local,
            max_alloc_bytes: 1 << 32,
            max_work_group_size: wg,
            fp64: true,
            opencl_c_version: "OpenCL C 1.2".into(),
            driver_version: "1".into(),
            extensions: "cl_khr_fp64".into(),
        }
    }

    /// The paper's mesh: 4032 columns = 16 groups of 252 (spec §1.5) — here 4032 + 1 face
    /// columns need a 17th group for the east boundary face.
    #[test]
    fn paper_mesh_groups() {
        let d = Decomposition::new(&grid(4032, 200), 256, 100).unwrap();
        // 201 rows in 3 groups: balanced to 67 each.
        assert_eq!((d.cols, d.groups_x, d.groups_y, d.rows), (252, 17, 3, 67));
        let d = Decomposition::new(&grid(4031, 199), 256, 100).unwrap();
        assert_eq!((d.groups_x, d.groups_y, d.rows), (16, 2, 100));
        assert_eq!(d.local_bytes(), 32 * 1024 + 12 * 256);
        assert_eq!(d.ndrange(), ([16 * 256, 2], [256, 1]));
        assert_eq!(d.origin(1, 1), (253, 101));
        // What the kernel derives from the launch: ceil((CFG_NYT − 1) / groups_y).
        for rows in 1..=201 {
            let d = Decomposition::new(&grid(40, 200), 16, rows).unwrap();
            assert_eq!(d.rows, 201usize.div_ceil(d.groups_y), "{rows}");
            assert!(d.rows <= rows && d.rows * d.groups_y >= 201);
            assert!(
                (d.groups_y - 1) * d.rows < 201,
                "{rows}: a group without rows"
            );
        }
    }

    #[test]
    fn rows_are_clamped_and_bad_sizes_refused() {
        let d = Decomposition::new(&grid(10, 5), 16, 1000).unwrap();
        assert_eq!((d.rows, d.groups_y), (6, 1));
        assert!(Decomposition::new(&grid(10, 5), 4, 3).is_err());
        assert!(Decomposition::new(&grid(10, 5), 16, 0).is_err());
    }

    #[test]
    fn device_limits_give_named_errors() {
        let d = Decomposition::new(&grid(100, 100), 256, 50).unwrap();
        let e = d.check(&device(128, 48 * 1024, 4)).unwrap_err().to_string();
        assert!(e.contains("256") && e.contains("128"), "{e}");
        let e = d
            .check(&device(1024, 16 * 1024, 4))
            .unwrap_err()
            .to_string();
        assert!(e.contains("35840") && e.contains("16384"), "{e}");
        assert!(d.check(&device(1024, 48 * 1024, 4)).is_ok());
    }

    #[test]
    fn default_choice_fills_the_compute_units() {
        let g = grid(4032, 4000);
        let dev = device(1024, 48 * 1024, 132);
        let d = Decomposition::for_device(&g, &dev).unwrap();
        assert_eq!(d.width, 256);
        assert!(d.groups() >= 8 * 132, "{d:?}");
        // A device with small work-groups gets a narrower power-of-two group.
        let d = Decomposition::for_device(&grid(100, 100), &device(96, 48 * 1024, 8)).unwrap();
        assert_eq!(d.width, 64);
    }

    /// The C++ order's two sweeps: one more halo column each side, 30 local rows, and a
    /// width that halves until a 48 KiB device holds the group (256 would need 63 KiB).
    #[test]
    fn two_sweeps_widen_the_halo_and_narrow_the_group() {
        let g = grid(4032, 4000);
        let d = Decomposition::with_sweeps(&g, 128, 50, 2).unwrap();
        assert_eq!((d.halo, d.cols, d.sweeps), (3, 122, 2));
        assert_eq!(d.local_bytes(), (30 * 8 + 12) * 128);
        let dev = device(1024, 48 * 1024, 132);
        let d = Decomposition::for_device_sweeps(&g, &dev, 2).unwrap();
        assert_eq!((d.width, d.halo, d.rows), (128, 3, 33));
        // About 32 groups per compute unit (the rows round up: 34 × 122 = 4148 groups).
        assert!(d.check(&dev).is_ok() && d.groups() >= 31 * 132, "{d:?}");
        assert!(Decomposition::with_sweeps(&g, 6, 5, 2).is_err());
        assert!(Decomposition::with_sweeps(&g, 64, 5, 3).is_err());
        // One sweep keeps the paper's group.
        let d = Decomposition::for_device_sweeps(&g, &dev, 1).unwrap();
        assert_eq!((d.width, d.halo, d.cols), (256, 2, 252));
    }

    #[test]
    fn device_memory_estimate() {
        let g = grid(4032, 200);
        let (total, largest) = device_bytes(&g);
        let per_cell = total as f64 / g.len() as f64;
        assert!((164.0..165.0).contains(&per_cell), "{per_cell}");
        assert_eq!(largest, 8 * g.len() as u64);
    }
}
