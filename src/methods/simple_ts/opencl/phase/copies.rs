//! The boundary copy lists, each split into two levels that run in parallel ([`levels`]),
//! and the upload of what both loop-2 forms read: metrics, cell and face classes, wall
//! records and the copy lists ([`upload_geometry`]).

use crate::device::Runtime;
use crate::error::DeviceError;
use crate::methods::simple_ts::problem::Problem;
use crate::methods::simple_ts::reference::bc::Ghosts;

/// A copy list as the flat int array the kernels read: destination, source, destination, ….
pub(crate) fn pairs(v: &[(usize, usize)]) -> Vec<i32> {
    v.iter().flat_map(|&(a, b)| [a as i32, b as i32]).collect()
}

/// A copy list: (destination, source) stored indices.
pub type Pairs = Vec<(usize, usize)>;

/// Split an ordered copy list into two levels that can each run in parallel: level 0 reads
/// nothing the list writes; level 1 reads only level-0 results. Applying level 0 then level 1
/// equals applying the list in order (ghost corners and chained copy faces are level 1).
pub fn levels(list: &[(usize, usize)]) -> (Pairs, Pairs) {
    let dsts: std::collections::HashSet<usize> = list.iter().map(|&(d, _)| d).collect();
    let (l0, l1): (Vec<_>, Vec<_>) = list.iter().partition(|&&(_, src)| !dsts.contains(&src));
    let d1: std::collections::HashSet<usize> = l1.iter().map(|&(d, _)| d).collect();
    assert!(
        l1.iter().all(|&(_, src)| !d1.contains(&src)),
        "copy chains deeper than two levels (geometry invariant)"
    );
    (l0, l1)
}

/// A ghost-cell copy list: (destination, p source, T source) stored indices; a value the
/// ghost keeps fixed names the destination itself (a copy onto itself changes nothing).
pub type Triples = Vec<(usize, usize, usize)>;

/// A ghost-cell copy list as the flat int array the kernels read: destination, p source,
/// T source, destination, ….
pub(crate) fn triples(v: &[(usize, usize, usize)]) -> Vec<i32> {
    v.iter()
        .flat_map(|&(a, b, c)| [a as i32, b as i32, c as i32])
        .collect()
}

/// [`levels`] of a ghost-cell list: an entry is level 1 if either of its sources is written
/// by another entry.
pub fn levels3(list: &[(usize, usize, usize)]) -> (Triples, Triples) {
    let dsts: std::collections::HashSet<usize> = list.iter().map(|&(d, _, _)| d).collect();
    let reads = |d: usize, s: usize| s != d && dsts.contains(&s);
    let (l0, l1): (Vec<_>, Vec<_>) = list
        .iter()
        .partition(|&&(d, p, t)| !reads(d, p) && !reads(d, t));
    let d1: std::collections::HashSet<usize> = l1.iter().map(|&(d, _, _)| d).collect();
    assert!(
        l1.iter()
            .all(|&(_, p, t)| !d1.contains(&p) && !d1.contains(&t)),
        "copy chains deeper than two levels (geometry invariant)"
    );
    (l0, l1)
}

/// The three copy lists of a case, each in two levels.
pub(crate) struct CopyLists {
    pub(crate) u: (Pairs, Pairs),
    pub(crate) v: (Pairs, Pairs),
    pub(crate) cells: (Triples, Triples),
}

impl CopyLists {
    pub(crate) fn new(ghosts: &Ghosts) -> CopyLists {
        let cells: Triples = ghosts
            .cells
            .iter()
            .filter(|(_, rule)| !rule.is_fixed())
            .map(|&(dst, rule)| {
                let (p, t) = rule.sources(dst);
                (dst, p, t)
            })
            .collect();
        CopyLists {
            u: levels(&ghosts.u_copies),
            v: levels(&ghosts.v_copies),
            cells: levels3(&cells),
        }
    }
}

/// Upload the metrics, class arrays, wall records and copy lists both forms read.
pub(crate) fn upload_geometry(
    rt: &mut Runtime,
    pb: &Problem,
    l: &CopyLists,
) -> Result<(), DeviceError> {
    let g = &pb.grid;
    rt.real("hx", &g.hx)?;
    rt.real("hy", &g.hy)?;
    let geo = &pb.geo;
    let walls = |f: fn(&crate::methods::simple_ts::geometry::Wall) -> f64| {
        geo.walls.iter().map(f).collect::<Vec<_>>()
    };
    rt.real("wall_u", &walls(|w| w.u))?;
    rt.real("wall_v", &walls(|w| w.v))?;
    rt.real("wall_t", &walls(|w| w.t))?;
    let to_i32 = |v: &[u8]| v.iter().map(|&x| i32::from(x)).collect::<Vec<_>>();
    rt.int("cell", &to_i32(&geo.cell))?;
    rt.int("u_face", &to_i32(&geo.u_face))?;
    rt.int("v_face", &to_i32(&geo.v_face))?;
    rt.int(
        "wall_of",
        &geo.wall_of
            .iter()
            .map(|&x| i32::from(x))
            .collect::<Vec<_>>(),
    )?;
    rt.int(
        "wall_bc",
        &geo.walls.iter().map(|w| w.code()).collect::<Vec<_>>(),
    )?;
    rt.int("u_copy0", &pairs(&l.u.0))?;
    rt.int("u_copy1", &pairs(&l.u.1))?;
    rt.int("v_copy0", &pairs(&l.v.0))?;
    rt.int("v_copy1", &pairs(&l.v.1))?;
    rt.int("ghost_copy0", &triples(&l.cells.0))?;
    rt.int("ghost_copy1", &triples(&l.cells.1))?;
    rt.int(
        "fast",
        &crate::methods::simple_ts::opencl::paths::fast_mask(g, geo),
    )?;
    Ok(())
}
