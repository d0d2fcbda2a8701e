//! The boundary copy lists, each resolved into one level whose entries run at once
//! ([`resolve`]), and the upload of what both loop-2 forms read: metrics, cell and face
//! classes, wall records and the copy lists ([`upload_geometry`]).

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

/// An ordered copy list as one level whose entries can all run at once: an entry that reads
/// another entry's destination reads that entry's source instead. Chains are at most two
/// copies long (ghost corners and chained copy faces read a first copy's result; a geometry
/// invariant), and a first copy's source is no destination, so applying the resolved list in
/// any order equals applying the list with every chained entry after the entries it reads.
pub fn resolve(list: &[(usize, usize)]) -> Pairs {
    let src_of: std::collections::HashMap<usize, usize> = list.iter().copied().collect();
    list.iter()
        .map(|&(d, s)| match src_of.get(&s).filter(|_| s != d) {
            Some(&s0) => {
                assert!(
                    !src_of.contains_key(&s0),
                    "copy chains longer than two copies (geometry invariant)"
                );
                (d, s0)
            }
            None => (d, s),
        })
        .collect()
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

/// [`resolve`] for a ghost-cell list, each of p and T on its own: a source that is another
/// entry's destination becomes that entry's source of the same value. A ghost that keeps a
/// value names itself, so a resolved source may be such a ghost; the kernels skip copies onto
/// the source itself, so nothing writes it while it is read.
pub fn resolve3(list: &[(usize, usize, usize)]) -> Triples {
    let of: std::collections::HashMap<usize, (usize, usize)> =
        list.iter().map(|&(d, p, t)| (d, (p, t))).collect();
    let chained = |d: usize, s: usize| s != d && of.contains_key(&s);
    let first = |s: usize, pick: fn((usize, usize)) -> usize| {
        let s0 = pick(of[&s]);
        assert!(
            !chained(s, s0),
            "copy chains longer than two copies (geometry invariant)"
        );
        s0
    };
    list.iter()
        .map(|&(d, p, t)| {
            let p = if chained(d, p) { first(p, |x| x.0) } else { p };
            let t = if chained(d, t) { first(t, |x| x.1) } else { t };
            (d, p, t)
        })
        .collect()
}

/// The three copy lists of a case, each resolved to one level.
pub(crate) struct CopyLists {
    pub(crate) u: Pairs,
    pub(crate) v: Pairs,
    pub(crate) cells: Triples,
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
            u: resolve(&ghosts.u_copies),
            v: resolve(&ghosts.v_copies),
            cells: resolve3(&cells),
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
    rt.int("u_copy", &pairs(&l.u))?;
    rt.int("v_copy", &pairs(&l.v))?;
    rt.int("ghost_copy", &triples(&l.cells))?;
    rt.int(
        "fast",
        &crate::methods::simple_ts::opencl::paths::fast_mask(g, geo),
    )?;
    Ok(())
}
