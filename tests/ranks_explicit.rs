//! The explicit methods split among ranks (threads of one process with the same messages as
//! MPI: `decomp::threads`) against the single-process run: every conserved value, the step
//! count, the time and the next Δt must be the same bits after N steps, for Euler (first order
//! with an internal wall, MUSCL with a periodic axis left uncut), shallow water with walls and
//! dry cells, 2D convection–diffusion (MUSCL) and convection, 1D convection and 1D MUSCL
//! shallow water, on 2 × 1, 1 × 2, 2 × 2, 3 × 1 and 1 × 3 layouts. Also: a checkpoint of a decomposed run restored on another rank count continues
//! with the same bits, and a diverging step fails on every rank with the single-process error.
//!
//! The OpenCL backend on ranks (PoCL; each rank runs the single-process kernels on its window,
//! the halos exchanged through the host, `opencl/strips.rs`) against the same single-process
//! run (which `tests/explicit_parity.rs` holds equal to the single-process OpenCL run): Euler
//! first order with a wall and MUSCL, shallow water, 1D and 2D convection, convection–diffusion
//! with a periodic axis left uncut, on 2 × 1, 1 × 2, 2 × 2 and 3 × 1 layouts; a checkpoint
//! restored on OpenCL ranks, a diverging step, and `bench --thread-ranks` of an explicit case;
//! on windows of several work-groups a side, the overlapped exchange (the interior computed
//! while the halos travel) and the blocking one against one process. The
//! programs (one per window size) come from the shared kernel cache (`tests/common`).

mod common;

use std::sync::Arc;

use simplets::decomp::{Comm, ThreadComm};
use simplets::methods::explicit::opencl::{StageForm, WALLED_LAUNCH_ENV};
use simplets::methods::explicit::ranks;
use simplets::methods::explicit::solver::Explicit;
use simplets::methods::{AnyCase, BackendChoice, BackendKind};
use simplets::solver::{Saved, Solver};

fn case(json: &str) -> AnyCase {
    AnyCase::from_json(json, "<test>").expect("a valid case")
}

/// The backend `kind`; on OpenCL the strip stage for first-order SHLL (a GPU's default, which
/// the ranks then exercise on PoCL too; the tile is HLL's).
fn choice(kind: BackendKind) -> BackendChoice {
    BackendChoice {
        kind,
        cache: (kind == BackendKind::OpenCl)
            .then(|| simplets::device::KernelCache::new(common::kernel_cache_dir())),
        stage: Some(StageForm::Strip),
        ..BackendChoice::default()
    }
}

/// What a run ends with: the checkpoint arrays' bits, the step, the time's and next Δt's bits.
type End = (Vec<u64>, u64, u64, u64);

fn end_of(s: &mut dyn Solver, dt: f64) -> End {
    let saved = s.save().unwrap();
    let bits = saved.arrays.iter().flatten().map(|x| x.to_bits()).collect();
    (bits, saved.step, saved.time.to_bits(), dt.to_bits())
}

fn next_dt(s: &dyn Solver) -> f64 {
    let d = s.details();
    d.iter()
        .find(|(k, _)| k == "next dt")
        .map(|(_, v)| v.parse().unwrap())
        .unwrap()
}

/// `n` steps on one process (from `start` if given), or the error of the step that failed.
fn single(c: &AnyCase, n: u64, start: Option<Saved>) -> Result<End, String> {
    let mut s = Explicit::new(
        c.explicit_problem().unwrap(),
        &choice(BackendKind::Reference),
    )
    .expect("builds");
    if let Some(saved) = start {
        s.restore(saved).unwrap();
    }
    for _ in 0..n {
        if s.finished() {
            break;
        }
        s.step().map_err(|e| e.to_string())?;
    }
    let dt = s.next_dt();
    Ok(end_of(&mut s, dt))
}

/// `n` steps on `px × py` threads with `kind` (from `start` if given): rank 0's end, or its
/// error; every rank must fail alike.
fn on_ranks(
    c: &AnyCase,
    layout: (usize, usize),
    n: u64,
    kind: BackendKind,
    start: Option<Saved>,
) -> Result<End, String> {
    on_ranks_with(c, layout, n, kind, start, true)
}

/// [`on_ranks`], OpenCL ranks overlapping their exchanges with the interior (`overlap`) or
/// exchanging after each whole stage.
fn on_ranks_with(
    c: &AnyCase,
    (px, py): (usize, usize),
    n: u64,
    kind: BackendKind,
    start: Option<Saved>,
    overlap: bool,
) -> Result<End, String> {
    let pb = Arc::new(c.explicit_problem().unwrap());
    let layers = ranks::layers(&pb);
    let dec = simplets::decomp::Decomposition::with_layers(pb.mesh.nx, pb.mesh.ny, px, py, layers)
        .unwrap();
    let threads: Vec<_> = ThreadComm::group(px * py)
        .into_iter()
        .map(|t| {
            let (pb, dec, start) = (Arc::clone(&pb), dec.clone(), start.clone());
            std::thread::spawn(move || {
                let comm: Arc<dyn Comm> = Arc::new(t);
                let mut r = ranks::build(pb, dec, Arc::clone(&comm), &choice(kind)).unwrap();
                r.local_mut().set_overlap(overlap);
                if !comm.is_root() {
                    r.follow();
                    return None;
                }
                if let Some(saved) = start {
                    r.restore(saved).unwrap();
                }
                let mut failed = None;
                for _ in 0..n {
                    if r.finished() {
                        break;
                    }
                    if let Err(e) = r.step() {
                        failed = Some(e.to_string());
                        break;
                    }
                }
                Some(match failed {
                    Some(e) => Err(e),
                    None => {
                        let dt = next_dt(&r);
                        Ok(end_of(&mut r, dt))
                    }
                })
            })
        })
        .collect();
    let mut out = None;
    for t in threads {
        if let Some(r) = t.join().expect("a rank panicked") {
            out = Some(r);
        }
    }
    out.expect("rank 0 reports")
}

fn same(a: &End, b: &End, what: &str) {
    assert_eq!(a.1, b.1, "{what}: step count");
    assert_eq!(f64::from_bits(a.2), f64::from_bits(b.2), "{what}: time");
    assert_eq!(f64::from_bits(a.3), f64::from_bits(b.3), "{what}: next dt");
    let first = a.0.iter().zip(&b.0).position(|(x, y)| x != y);
    assert!(first.is_none(), "{what}: differs at value {first:?}");
    assert_eq!(a.0.len(), b.0.len());
}

fn agree(json: &str, n: u64, layouts: &[(usize, usize)]) {
    agree_on(
        json,
        n,
        layouts,
        &[BackendKind::Reference, BackendKind::Parallel],
    );
}

fn agree_on(json: &str, n: u64, layouts: &[(usize, usize)], kinds: &[BackendKind]) {
    let c = case(json);
    let one = single(&c, n, None).unwrap();
    for &l in layouts {
        for &kind in kinds {
            let r = on_ranks(&c, l, n, kind, None).unwrap();
            same(&one, &r, &format!("{l:?} {kind:?}"));
        }
    }
}

/// [`agree_on`] on OpenCL, one test of the binary at a time on the device.
fn agree_opencl(json: &str, n: u64, layouts: &[(usize, usize)]) {
    let _g = common::cl_lock();
    agree_on(json, n, layouts, &[BackendKind::OpenCl]);
}

const EULER_FIRST: &str = r#"{"name":"r1","method":"shll_euler","grid":{"nx":21,"ny":13,"x":[0,2],"y":[0,1]},
    "boundaries":{"west":{"kind":"inflow","state":{"rho":2.8,"u":1.6,"p":5}},
    "east":{"kind":"outflow"},"south":{"kind":"reflective"},"north":{"kind":"reflective"}},
    "walls":[{"x":[0.9,1.2],"y":[0.3,0.7]}],
    "initial":{"state":{"rho":1,"p":1},"regions":[{"x":[0,0.3],"state":{"rho":2.8,"u":1.6,"p":5}},
    {"circle":{"x":0.7,"y":0,"r":0.25},"state":{"rho":0.1,"p":1}}]},
    "time":{"cfl":0.5,"steps":12}}"#;

/// 2D Euler, first-order SHLL, inflow/outflow/reflective sides and a wall that the cuts run
/// through.
#[test]
fn euler_first_order_with_a_wall() {
    agree(EULER_FIRST, 12, &[(2, 1), (1, 2), (2, 2), (3, 1)]);
}

/// 2D Euler, MUSCL (van Leer, HLL, SSP-RK2), periodic along x (left uncut), a wall.
#[test]
fn euler_muscl_periodic_x() {
    agree(
        r#"{"name":"r2","method":"shll_euler","grid":{"nx":19,"ny":17,"x":[0,1],"y":[0,1]},
        "scheme":{"flux":"hll","reconstruction":"muscl","limiter":"van_leer"},
        "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"},
        "south":{"kind":"reflective"},"north":{"kind":"outflow"}},
        "walls":[{"x":[0.4,0.6],"y":[0.4,0.6]}],
        "initial":{"state":{"rho":1,"u":0.5,"v":0.2,"p":1},
        "regions":[{"x":[0.1,0.3],"y":[0.1,0.5],"state":{"rho":3,"p":4}}]},
        "time":{"cfl":0.4,"steps":10}}"#,
        10,
        &[(1, 2), (1, 3)],
    );
    // MUSCL split along x too (outflow sides).
    agree(
        r#"{"name":"r2b","method":"shll_euler","grid":{"nx":19,"ny":13,"x":[0,1],"y":[0,1]},
        "scheme":{"reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"reflective"},
        "south":{"kind":"reflective"},"north":{"kind":"outflow"}},
        "walls":[{"x":[0.45,0.6],"y":[0.4,0.6]}],
        "initial":{"state":{"rho":1,"u":0.5,"v":0.2,"p":1},
        "regions":[{"x":[0.1,0.5],"y":[0.1,0.5],"state":{"rho":3,"p":4}}]},
        "time":{"cfl":0.4,"steps":10}}"#,
        10,
        &[(2, 1), (2, 2), (3, 1)],
    );
}

/// 2D shallow water with a dry region and walls (a dam with a breach), first-order SHLL.
#[test]
fn shallow_water_dry_bed_and_dam() {
    agree(
        r#"{"name":"r3","method":"shll_shallow_water","grid":{"nx":17,"ny":15,"x":[0,10],"y":[0,10]},
        "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"outflow"},
        "south":{"kind":"reflective"},"north":{"kind":"reflective"}},
        "walls":[{"x":[4.5,5.5],"y":[0,4]},{"x":[4.5,5.5],"y":[7,10]}],
        "initial":{"state":{"h":0},"regions":[{"x":[0,5],"state":{"h":2,"v":0.1}}]},
        "time":{"cfl":0.25,"steps":15}}"#,
        15,
        &[(2, 1), (1, 2), (2, 2)],
    );
}

/// 1D: convection (first-order upwind, inflow) and shallow water with MUSCL on a dry bed.
#[test]
fn one_dimensional_runs() {
    agree(
        r#"{"name":"r4","method":"convection","velocity":[1.0,0.0],
        "grid":{"nx":40,"ny":1,"x":[0,1],"y":[0,0.01]},
        "boundaries":{"west":{"kind":"inflow","state":{"value":0.5}},"east":{"kind":"outflow"}},
        "initial":{"value":0,"gaussian":{"centre":[0.4,0],"sigma":0.05,"amplitude":1}},
        "time":{"cfl":0.7,"steps":20}}"#,
        20,
        &[(2, 1), (3, 1)],
    );
    agree(
        r#"{"name":"r5","method":"shll_shallow_water","grid":{"nx":30,"ny":1,"x":[0,10],"y":[0,0.1]},
        "scheme":{"flux":"hll","reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"inflow","state":{"h":1,"u":0.5}},"east":{"kind":"outflow"}},
        "initial":{"state":{"h":0},"regions":[{"x":[0,5],"state":{"h":1}}]},
        "time":{"cfl":0.4,"steps":20}}"#,
        20,
        &[(2, 1), (3, 1)],
    );
}

/// 2D scalars: convection–diffusion with MUSCL (periodic x left uncut) and convection with a
/// negative velocity.
#[test]
fn scalar_methods_2d() {
    agree(
        r#"{"name":"r7","method":"shll_convection_diffusion",
        "transport":{"velocity":[1.0,-0.5],"diffusivity":0.002,"speed":[1.5,0.5]},
        "grid":{"nx":15,"ny":13,"x":[0,1],"y":[0,1]},"scheme":{"reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"},
        "south":{"kind":"inflow","state":{"value":0.3}},"north":{"kind":"outflow"}},
        "initial":{"value":0,"gaussian":{"centre":[0.4,0.5],"sigma":0.1,"amplitude":1}},
        "time":{"cfl":0.8,"steps":12}}"#,
        12,
        &[(1, 2), (1, 3)],
    );
    agree(
        r#"{"name":"r8","method":"convection","velocity":[-1.0,0.5],
        "grid":{"nx":15,"ny":12,"x":[0,2],"y":[0,1]},
        "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"inflow","state":{"value":1}},
        "south":{"kind":"inflow","state":{"value":1}},"north":{"kind":"outflow"}},
        "initial":{"value":1,"regions":[{"x":[0.5,1],"y":[0.2,0.6],"state":{"value":2}}]},
        "time":{"cfl":0.9,"steps":12}}"#,
        12,
        &[(2, 1), (1, 2), (2, 2)],
    );
}

/// A checkpoint written by 2 × 1 ranks after 5 steps, restored on 1 × 2 ranks and on one
/// process, continues with the bits of the uninterrupted single-process run.
#[test]
fn restart_on_another_rank_count() {
    let c = case(EULER_FIRST);
    let whole = single(&c, 12, None).unwrap();
    let pb = c.explicit_problem().unwrap();
    let (nxt, nyt) = (pb.grid.nxt, pb.grid.nyt);
    let mid = on_ranks(&c, (2, 1), 5, BackendKind::Reference, None).unwrap();
    let nv = pb.nv();
    let arrays: Vec<Vec<f64>> = mid
        .0
        .chunks(nxt * nyt)
        .take(nv)
        .map(|a| a.iter().map(|&b| f64::from_bits(b)).collect())
        .collect();
    let saved = Saved {
        step: mid.1,
        time: f64::from_bits(mid.2),
        arrays,
    };
    let a = on_ranks(&c, (1, 2), 7, BackendKind::Reference, Some(saved.clone())).unwrap();
    same(&whole, &a, "restored on 1 x 2");
    let b = single(&c, 7, Some(saved)).unwrap();
    same(&whole, &b, "restored on one process");
}

/// A case whose fixed Δt is far too large: a step produces a non-physical state.
const DIVERGING: &str = r#"{"name":"r6","method":"shll_euler","grid":{"nx":16,"ny":12,"x":[0,1],"y":[0,1]},
    "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"outflow"},
    "south":{"kind":"reflective"},"north":{"kind":"reflective"}},
    "initial":{"state":{"rho":1,"p":1},"regions":[{"x":[0.6,1],"y":[0.5,1],"state":{"rho":0.05,"u":-3,"p":0.02}}]},
    "time":{"dt":0.05,"steps":20}}"#;

/// A step that produces a non-physical state (a fixed Δt far too large) fails on every rank
/// with the single-process error: the same step and the same first bad cell.
#[test]
fn a_diverging_step_fails_alike() {
    let c = case(DIVERGING);
    let one = single(&c, 20, None).expect_err("the single-process run diverges");
    for l in [(2, 1), (1, 2), (2, 2)] {
        let r = on_ranks(&c, l, 20, BackendKind::Reference, None).expect_err("diverges");
        assert_eq!(one, r, "{l:?}");
    }
}

/// `json` with its grid set to `nx × ny` cells: the OpenCL cases split evenly, so that the
/// windows of a layout share one program (fewer PoCL builds when the cache is cold).
fn sized(json: &str, from: &str, nx: usize, ny: usize) -> String {
    assert!(json.contains(from), "{from}");
    json.replace(from, &format!(r#""nx":{nx},"ny":{ny}"#))
}

/// OpenCL ranks: 2D Euler, first-order SHLL (the strip stage), inflow/outflow/reflective sides
/// and a wall that the cuts run through.
#[test]
fn opencl_euler_first_order_with_a_wall() {
    let json = sized(EULER_FIRST, r#""nx":21,"ny":13"#, 24, 12);
    agree_opencl(&json, 12, &[(2, 1), (1, 2), (2, 2), (3, 1)]);
}

/// OpenCL ranks: 2D Euler, MUSCL (two RK2 stages, the first stage's halo exchanged too; a
/// halo of 2), a wall the cuts run through.
#[test]
fn opencl_euler_muscl() {
    agree_opencl(
        r#"{"name":"c2","method":"shll_euler","grid":{"nx":24,"ny":12,"x":[0,1],"y":[0,1]},
        "scheme":{"reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"reflective"},
        "south":{"kind":"reflective"},"north":{"kind":"outflow"}},
        "walls":[{"x":[0.45,0.6],"y":[0.4,0.6]}],
        "initial":{"state":{"rho":1,"u":0.5,"v":0.2,"p":1},
        "regions":[{"x":[0.1,0.5],"y":[0.1,0.5],"state":{"rho":3,"p":4}}]},
        "time":{"cfl":0.4,"steps":10}}"#,
        10,
        &[(2, 1), (1, 2), (2, 2), (3, 1)],
    );
}

/// OpenCL ranks: 2D shallow water with dry cells and a dam with a breach; 1D shallow water
/// with MUSCL and HLL on a dry bed.
#[test]
fn opencl_shallow_water() {
    agree_opencl(
        r#"{"name":"c3","method":"shll_shallow_water","grid":{"nx":16,"ny":14,"x":[0,10],"y":[0,10]},
        "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"outflow"},
        "south":{"kind":"reflective"},"north":{"kind":"reflective"}},
        "walls":[{"x":[4.5,5.5],"y":[0,4]},{"x":[4.5,5.5],"y":[7,10]}],
        "initial":{"state":{"h":0},"regions":[{"x":[0,5],"state":{"h":2,"v":0.1}}]},
        "time":{"cfl":0.25,"steps":15}}"#,
        15,
        &[(2, 1), (1, 2), (2, 2)],
    );
    agree_opencl(
        r#"{"name":"c5","method":"shll_shallow_water","grid":{"nx":30,"ny":1,"x":[0,10],"y":[0,0.1]},
        "scheme":{"flux":"hll","reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"inflow","state":{"h":1,"u":0.5}},"east":{"kind":"outflow"}},
        "initial":{"state":{"h":0},"regions":[{"x":[0,5],"state":{"h":1}}]},
        "time":{"cfl":0.4,"steps":20}}"#,
        20,
        &[(2, 1)],
    );
}

/// OpenCL ranks: convection (first-order upwind) in 1D with an inflow, and in 2D with a
/// negative velocity.
#[test]
fn opencl_convection_1d_and_2d() {
    agree_opencl(
        r#"{"name":"c4","method":"convection","velocity":[1.0,0.0],
        "grid":{"nx":42,"ny":1,"x":[0,1],"y":[0,0.01]},
        "boundaries":{"west":{"kind":"inflow","state":{"value":0.5}},"east":{"kind":"outflow"}},
        "initial":{"value":0,"gaussian":{"centre":[0.4,0],"sigma":0.05,"amplitude":1}},
        "time":{"cfl":0.7,"steps":20}}"#,
        20,
        &[(2, 1), (3, 1)],
    );
    agree_opencl(
        r#"{"name":"c8","method":"convection","velocity":[-1.0,0.5],
        "grid":{"nx":16,"ny":12,"x":[0,2],"y":[0,1]},
        "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"inflow","state":{"value":1}},
        "south":{"kind":"inflow","state":{"value":1}},"north":{"kind":"outflow"}},
        "initial":{"value":1,"regions":[{"x":[0.5,1],"y":[0.2,0.6],"state":{"value":2}}]},
        "time":{"cfl":0.9,"steps":12}}"#,
        12,
        &[(2, 1), (1, 2), (2, 2)],
    );
}

/// OpenCL ranks: convection–diffusion with MUSCL, periodic along x (the uncut axis: its ghost
/// kernel copies the opposite side of each held row) and split along y.
#[test]
fn opencl_convection_diffusion_periodic_x() {
    agree_opencl(
        r#"{"name":"c7","method":"shll_convection_diffusion",
        "transport":{"velocity":[1.0,-0.5],"diffusivity":0.002,"speed":[1.5,0.5]},
        "grid":{"nx":15,"ny":12,"x":[0,1],"y":[0,1]},"scheme":{"reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"},
        "south":{"kind":"inflow","state":{"value":0.3}},"north":{"kind":"outflow"}},
        "initial":{"value":0,"gaussian":{"centre":[0.4,0.5],"sigma":0.1,"amplitude":1}},
        "time":{"cfl":0.8,"steps":12}}"#,
        12,
        &[(1, 2)],
    );
}

/// OpenCL ranks on windows of several work-groups a side, where a stage computes its frame
/// first and its interior while the halos travel (`opencl/bands.rs`): overlapped, blocking
/// and single-process runs agree bit for bit; 2D first-order SHLL Euler (the strip stage,
/// groups of 126 columns and 16 rows) on 2 × 2 and 1 × 3, with HLL (the tiled stage) on 2 × 2,
/// 2D MUSCL Euler (the first RK2 stage's exchange too) on 2 × 2, with a wall (the plain stage)
/// and without (the MUSCL strip, groups of 124 columns and 16 rows), 1D convection (work-items
/// strided over the row) on 2 × 1; the strip's walled groups in a kernel of their own
/// (`SIMPLETS_WALLED_LAUNCH`) on 2 × 2.
#[test]
fn opencl_overlapped_and_blocking_exchanges() {
    let _g = common::cl_lock();
    let muscl = sized(EULER_FIRST, r#""nx":21,"ny":13"#, 150, 100)
        .replace(r#""time""#, r#""scheme":{"reconstruction":"muscl"},"time""#);
    let muscl_strip = sized(EULER_FIRST, r#""nx":21,"ny":13"#, 600, 100)
        .replace(r#""walls":[{"x":[0.9,1.2],"y":[0.3,0.7]}],"#, "")
        .replace(r#""time""#, r#""scheme":{"reconstruction":"muscl"},"time""#);
    let form = |json: &str| {
        let p = case(json).explicit_problem().unwrap();
        simplets::methods::explicit::opencl::Stage::new(
            &p,
            false,
            choice(BackendKind::OpenCl).stage,
        )
        .form
    };
    assert_eq!(form(&muscl_strip), StageForm::MusclStrip);
    let hll = sized(EULER_FIRST, r#""nx":21,"ny":13"#, 200, 100)
        .replace(r#""time""#, r#""scheme":{"flux":"hll"},"time""#);
    let runs = [
        (
            sized(EULER_FIRST, r#""nx":21,"ny":13"#, 600, 100),
            vec![(2, 2), (1, 3)],
            8,
        ),
        (hll, vec![(2, 2)], 8),
        (muscl, vec![(2, 2)], 5),
        (muscl_strip, vec![(2, 2)], 5),
        (
            r#"{"name":"c9","method":"convection","velocity":[1.0,0.0],
            "grid":{"nx":8000,"ny":1,"x":[0,1],"y":[0,0.01]},
            "boundaries":{"west":{"kind":"inflow","state":{"value":0.5}},"east":{"kind":"outflow"}},
            "initial":{"value":0,"gaussian":{"centre":[0.5,0],"sigma":0.01,"amplitude":1}},
            "time":{"cfl":0.7,"steps":8}}"#
                .to_string(),
            vec![(2, 1)],
            8,
        ),
    ];
    for (json, layouts, n) in runs {
        let c = case(&json);
        let one = single(&c, n, None).unwrap();
        let pb = c.explicit_problem().unwrap();
        for (px, py) in layouts {
            let dec = simplets::decomp::Decomposition::with_layers(
                pb.mesh.nx,
                pb.mesh.ny,
                px,
                py,
                ranks::layers(&pb),
            )
            .unwrap();
            let sub = ranks::sub_problem(&pb, &dec.window(0));
            let dev = simplets::device::select_device(None).unwrap();
            let st = simplets::methods::explicit::opencl::Stage::on(
                &sub,
                &dev,
                choice(BackendKind::OpenCl).stage,
            );
            let split = simplets::methods::explicit::opencl::split(&sub, &st);
            assert!(
                !split.interior.is_empty(),
                "{}: an interior",
                pb.common.name
            );
            for overlap in [true, false] {
                let r = on_ranks_with(&c, (px, py), n, BackendKind::OpenCl, None, overlap).unwrap();
                same(&one, &r, &format!("{px} x {py}, overlap {overlap}"));
            }
        }
    }
    // The strip's walled groups as a kernel of their own, one after the free groups' and
    // beside it on two queues, within the frame and the interior.
    let c = case(&sized(EULER_FIRST, r#""nx":21,"ny":13"#, 600, 100));
    let one = single(&c, 8, None).unwrap();
    for mode in ["apart", "beside"] {
        std::env::set_var(WALLED_LAUNCH_ENV, mode);
        for overlap in [true, false] {
            let r = on_ranks_with(&c, (2, 2), 8, BackendKind::OpenCl, None, overlap).unwrap();
            same(&one, &r, &format!("{mode}, overlap {overlap}"));
        }
    }
    std::env::remove_var(WALLED_LAUNCH_ENV);
}

/// OpenCL ranks: a checkpoint of the reference on 2 × 1 ranks after 5 steps, restored on
/// 1 × 2 OpenCL ranks, continues with the bits of the uninterrupted single-process run; a
/// diverging step fails on 2 × 2 OpenCL ranks with the single-process error.
#[test]
fn opencl_restart_and_divergence() {
    let _g = common::cl_lock();
    let c = case(&sized(EULER_FIRST, r#""nx":21,"ny":13"#, 24, 12));
    let whole = single(&c, 12, None).unwrap();
    let pb = c.explicit_problem().unwrap();
    let (nxt, nyt) = (pb.grid.nxt, pb.grid.nyt);
    let mid = on_ranks(&c, (2, 1), 5, BackendKind::Reference, None).unwrap();
    let arrays: Vec<Vec<f64>> = mid
        .0
        .chunks(nxt * nyt)
        .take(pb.nv())
        .map(|a| a.iter().map(|&b| f64::from_bits(b)).collect())
        .collect();
    let saved = Saved {
        step: mid.1,
        time: f64::from_bits(mid.2),
        arrays,
    };
    let a = on_ranks(&c, (1, 2), 7, BackendKind::OpenCl, Some(saved)).unwrap();
    same(&whole, &a, "restored on 1 x 2 OpenCL ranks");
    let c = case(DIVERGING);
    let one = single(&c, 20, None).expect_err("the single-process run diverges");
    let r = on_ranks(&c, (2, 2), 20, BackendKind::OpenCl, None).expect_err("diverges");
    assert_eq!(one, r, "2 x 2 OpenCL ranks");
}

/// `simplets bench --thread-ranks 2 --warmup 1 --steps 3` of a small first-order Euler case on
/// OpenCL with `extra` arguments and `env` set: the exit status, stdout and stderr, and the
/// JSON report if one was written.
fn bench_ranks(
    extra: &[&str],
    env: &[(&str, &str)],
) -> (bool, String, String, Option<serde_json::Value>) {
    let dir = tempfile::tempdir().unwrap();
    let case = dir.path().join("r1.json");
    let json = dir.path().join("bench.json");
    std::fs::write(&case, sized(EULER_FIRST, r#""nx":21,"ny":13"#, 24, 12)).unwrap();
    let out = common::simplets()
        .args(["bench", case.to_str().unwrap(), "--backend", "opencl"])
        .args(["--thread-ranks", "2", "--warmup", "1", "--steps", "3"])
        .args(extra)
        .args(["--json", json.to_str().unwrap()])
        .envs(env.iter().copied())
        .output()
        .unwrap();
    let report = std::fs::read(&json)
        .ok()
        .map(|b| serde_json::from_slice(&b).unwrap());
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        report,
    )
}

/// `simplets bench --thread-ranks 2` of an explicit case on OpenCL: every rank times the same
/// steps, with one exchange per first-order step of exactly its strip (the 14 held rows of one
/// column, 4 conserved values each) and a modelled exchange time; the JSON has the aggregate.
#[test]
fn opencl_bench_on_thread_ranks() {
    let _g = common::cl_lock();
    let (ok, text, err, r) = bench_ranks(&[], &[]);
    assert!(ok, "{text}{err}");
    assert!(text.contains("on 2 x 1 thread ranks"), "{text}");
    let r = r.expect("a JSON report");
    assert_eq!(r["iterations"], 3, "{r}");
    assert_eq!(r["iteration"], "step", "{r}");
    let each = r["each"].as_array().unwrap();
    assert_eq!(each.len(), 2);
    for rank in each {
        assert_eq!(rank["iterations"], 3, "{rank}");
        assert_eq!(rank["exchanges_per_iteration"], 1.0, "{rank}");
        assert_eq!(rank["halo_bytes_per_iteration"], 448.0, "{rank}");
        assert!(
            rank["model_ms_per_iteration"].as_f64().unwrap() > 0.0,
            "{rank}"
        );
    }
}

/// `bench --thread-ranks 2 --halo-exchange both`: one report per exchange, blocking then
/// overlapped, the same steps and strip bytes; the JSON holds both by name. Without the flag
/// the exchange is blocking, overlapped with `SIMPLETS_HALO_OVERLAP=1`, and any other value
/// is refused in one line naming the variable, with no report written.
#[test]
fn opencl_bench_compares_the_exchanges() {
    let _g = common::cl_lock();
    let (ok, text, err, r) = bench_ranks(&["--halo-exchange", "both"], &[]);
    assert!(ok, "{text}{err}");
    let blocking = text
        .find("thread ranks (blocking exchange)")
        .expect("blocking");
    let overlapped = text
        .find("thread ranks (overlapped exchange)")
        .expect("overlapped");
    assert!(blocking < overlapped, "{text}");
    let r = r.expect("a JSON report");
    for key in ["blocking", "overlapped"] {
        assert_eq!(r[key]["exchange"], key, "{r}");
        assert_eq!(r[key]["iterations"], 3, "{r}");
        assert_eq!(r[key]["each"][0]["halo_bytes_per_iteration"], 448.0, "{r}");
    }
    for (env, label) in [("0", "blocking"), ("1", "overlapped")] {
        let (ok, text, err, _) = bench_ranks(&[], &[("SIMPLETS_HALO_OVERLAP", env)]);
        assert!(ok, "{text}{err}");
        assert!(
            text.contains(&format!("({label} exchange)")),
            "{env}: {text}"
        );
    }
    let (ok, _, err, r) = bench_ranks(&[], &[("SIMPLETS_HALO_OVERLAP", "yes")]);
    assert!(!ok && r.is_none(), "{err}");
    let line = err.lines().find(|l| l.contains("error")).unwrap_or("");
    assert!(line.contains("SIMPLETS_HALO_OVERLAP=\"yes\""), "{err}");
}
