//! What the fused form sets up beside its two Jacobi sets: the lean storage's packed geometry
//! and derived ρ, Γ, and the outer faces of the ghost columns (`outer_face: mass_balance`,
//! the `outer_faces` kernel of `cl/simple_ts/kernels/iterate_fused.cl`).

use crate::device::Runtime;
use crate::error::DeviceError;
use crate::methods::simple_ts::opencl::paths::Aliases;
use crate::methods::simple_ts::problem::Problem;
use crate::methods::simple_ts::reference::ops::{gam_eos, rho_eos};

/// The outer faces of a problem's ghost columns on the device.
pub(super) struct Outer {
    /// Work-items of `outer_faces` (the longer of the west and east row lists; 0: none).
    items: usize,
}

impl Outer {
    /// Create what `outer_faces` and the boundary u-CV read: the east outer face's velocity
    /// and flux per row (zero where the east side stores none, as in the reference) and the
    /// row lists.
    pub(super) fn new(rt: &mut Runtime, p: &Problem) -> Result<Outer, DeviceError> {
        let gh = &p.ghosts;
        let rows = if gh.east_rows.is_empty() {
            0
        } else {
            p.grid.nyt
        };
        for name in ["u_xe", "fx_xe"] {
            rt.real_zeros(name, rows)?;
        }
        let ints = |v: &[usize]| v.iter().map(|&j| j as i32).collect::<Vec<_>>();
        rt.int("west_rows", &ints(&gh.west_balance))?;
        rt.int("east_rows", &ints(&gh.east_rows))?;
        Ok(Outer {
            items: gh.west_balance.len().max(gh.east_rows.len()),
        })
    }

    /// Queue the kernel instance `name` (the set that holds iterate k), if there are outer
    /// faces.
    pub(super) fn launch(&self, rt: &Runtime, name: &str) -> Result<(), DeviceError> {
        if self.items > 0 {
            rt.launch(name, self.items, None)?;
        }
        Ok(())
    }
}

/// ρ = p/T and Γ = √T everywhere: what the lean storage computes where it reads them, and
/// what every backend stores (the equation of state and the ghost rules write exactly these).
pub(super) fn derive_rho_gam(f: &mut crate::methods::simple_ts::fields::Fields) {
    for ((rho, gam), (&p, &t)) in f
        .rho
        .iter_mut()
        .zip(f.Gam.iter_mut())
        .zip(f.p.iter().zip(&f.T))
    {
        *rho = rho_eos(p, t);
        *gam = gam_eos(t);
    }
}

/// Upload the lean form's geometry: metrics, wall records and one packed word per cell.
pub(super) fn upload_packed(rt: &mut Runtime, pb: &Problem, alias: &Aliases) -> Result<(), String> {
    let (g, geo) = (&pb.grid, &pb.geo);
    let fast = crate::methods::simple_ts::opencl::paths::fast_mask(g, geo);
    let packed = crate::methods::simple_ts::opencl::paths::pack_geometry(g, geo, &fast, alias)?;
    let walls = |f: fn(&crate::methods::simple_ts::geometry::Wall) -> f64| {
        geo.walls.iter().map(f).collect::<Vec<_>>()
    };
    let up = |e: DeviceError| e.to_string();
    rt.real("hx", &g.hx).map_err(up)?;
    rt.real("hy", &g.hy).map_err(up)?;
    rt.real("wall_u", &walls(|w| w.u)).map_err(up)?;
    rt.real("wall_v", &walls(|w| w.v)).map_err(up)?;
    rt.real("wall_t", &walls(|w| w.t)).map_err(up)?;
    rt.int(
        "wall_bc",
        &geo.walls.iter().map(|w| w.code()).collect::<Vec<_>>(),
    )
    .map_err(up)?;
    rt.int("geo", &packed).map_err(up)
}
