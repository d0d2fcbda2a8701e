//! The explicit methods on every backend: the serial reference, the row-parallel reference
//! and OpenCL (PoCL in CI) give the same bits — every conserved value, the time and the next
//! Δt — after several steps, on odd grid sizes, with each system, flux, reconstruction and
//! side kind, internal walls, dry cells and a clipped last step. Also: a checkpoint restored
//! into a fresh solver continues with the same bits as the run that wrote it.
//!
//! Tolerance: none (bit-identical): the kernels use the same per-cell functions and
//! fragments as the reference with FP contraction off, and the only reduction is a maximum.

use std::sync::{Mutex, MutexGuard};

use simplets::methods::explicit::opencl::{Stage, StageForm};
use simplets::methods::explicit::solver::Explicit;
use simplets::methods::{AnyCase, BackendChoice, BackendKind};
use simplets::solver::Solver;

fn cl_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn case(json: &str) -> AnyCase {
    AnyCase::from_json(json, "<test>").expect("a valid case")
}

fn solver(c: &AnyCase, kind: BackendKind, stage: Option<StageForm>) -> Explicit {
    let choice = BackendChoice {
        kind,
        stage,
        ..BackendChoice::default()
    };
    Explicit::new(c.explicit_problem().unwrap(), &choice).expect("the backend builds")
}

/// Bits of every conserved value, the time and the next Δt after `n` steps (or fewer if
/// the run reaches its end time), OpenCL's with the stage form `stage` (where it applies).
fn run(
    c: &AnyCase,
    kind: BackendKind,
    stage: Option<StageForm>,
    n: u64,
) -> (Vec<u64>, u64, u64, u64) {
    let mut s = solver(c, kind, stage);
    for _ in 0..n {
        if s.finished() {
            break;
        }
        s.step().expect("a good step");
    }
    let q = s.conserved_interior().unwrap();
    let bits = q.iter().flatten().map(|x| x.to_bits()).collect();
    let (step, t) = s.clock();
    (bits, step, t.to_bits(), s.next_dt().to_bits())
}

/// The reference, parallel and OpenCL agree; OpenCL in every stage form that applies to
/// the case (2D first-order SHLL: the strip, a GPU's default, and the tile, a CPU device's).
fn all_backends_agree(json: &str, n: u64) -> u64 {
    let c = case(json);
    let r = run(&c, BackendKind::Reference, None, n);
    let p = run(&c, BackendKind::Parallel, None, n);
    assert!(r == p, "parallel differs from the reference");
    let _g = cl_lock();
    let pb = c.explicit_problem().unwrap();
    let mut forms = vec![Stage::new(&pb, true, None).form];
    let other = Stage::new(&pb, false, None).form;
    if other != forms[0] {
        forms.push(other);
    }
    for form in forms {
        let o = run(&c, BackendKind::OpenCl, Some(form), n);
        assert_eq!(r.1, o.1, "step count");
        assert_eq!(f64::from_bits(r.2), f64::from_bits(o.2), "time");
        assert_eq!(f64::from_bits(r.3), f64::from_bits(o.3), "next dt");
        let first = r.0.iter().zip(&o.0).position(|(a, b)| a != b);
        assert!(
            first.is_none(),
            "OpenCL ({form:?}) differs at conserved value {first:?}"
        );
    }
    r.1
}

/// 2D Euler, first-order SHLL, inflow/outflow/reflective sides and an internal wall, 37 × 23.
#[test]
fn euler_shll_first_order_with_walls() {
    let steps = all_backends_agree(
        r#"{"name":"p1","method":"shll_euler","grid":{"nx":37,"ny":23,"x":[0,2],"y":[0,1]},
        "boundaries":{"west":{"kind":"inflow","state":{"rho":2.8,"u":1.6,"p":5}},
        "east":{"kind":"outflow"},"south":{"kind":"reflective"},"north":{"kind":"reflective"}},
        "walls":[{"x":[1.2,1.4],"y":[0.3,0.7]}],
        "initial":{"state":{"rho":1,"p":1},"regions":[{"x":[0,0.3],"state":{"rho":2.8,"u":1.6,"p":5}},
        {"circle":{"x":0.7,"y":0,"r":0.25},"state":{"rho":0.1,"p":1}}]},
        "time":{"cfl":0.5,"steps":25}}"#,
        25,
    );
    assert_eq!(steps, 25);
}

/// 2D Euler, MUSCL (van Leer) with HLL and SSP-RK2, periodic x, reflective y, a wall.
#[test]
fn euler_hll_muscl_periodic() {
    all_backends_agree(
        r#"{"name":"p2","method":"shll_euler","grid":{"nx":29,"ny":19,"x":[0,1],"y":[0,1]},
        "scheme":{"flux":"hll","reconstruction":"muscl","limiter":"van_leer"},
        "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"},
        "south":{"kind":"reflective"},"north":{"kind":"outflow"}},
        "walls":[{"x":[0.4,0.6],"y":[0.4,0.6]}],
        "initial":{"state":{"rho":1,"u":0.5,"v":0.2,"p":1},
        "regions":[{"x":[0.1,0.3],"y":[0.1,0.5],"state":{"rho":3,"p":4}}]},
        "time":{"cfl":0.4,"steps":20}}"#,
        20,
    );
}

/// 2D MUSCL with SHLL and SSP-RK2: the MUSCL strip (a GPU's default: groups of 124 columns
/// and 16 rows) and the plain stage (a CPU device's). Euler with minmod at 150 × 37, periodic
/// in x, an inflow south and an outflow north, a dense block across a strip edge, and with
/// χ unclamped; shallow water with van Leer at 131 × 35, reflective and outflow sides, a dry
/// region (h = 0.05) across strip edges. Other strip shapes: `tests/explicit_shape.rs`.
#[test]
fn muscl_shll_2d_across_strips() {
    for extra in ["", r#","clamp_chi":false,"dissipation":0.8"#] {
        all_backends_agree(
            &format!(
                r#"{{"name":"p10","method":"shll_euler","grid":{{"nx":150,"ny":37,"x":[0,3],"y":[0,1]}},
            "scheme":{{"reconstruction":"muscl","limiter":"minmod"{extra}}},
            "boundaries":{{"west":{{"kind":"periodic"}},"east":{{"kind":"periodic"}},
            "south":{{"kind":"inflow","state":{{"rho":2,"v":0.5,"p":2}}}},"north":{{"kind":"outflow"}}}},
            "initial":{{"state":{{"rho":1,"u":0.3,"p":1}},
            "regions":[{{"x":[1.9,2.7],"y":[0.1,0.5],"state":{{"rho":3,"u":-0.4,"p":4}}}}]}},
            "time":{{"cfl":0.45,"steps":12}}}}"#
            ),
            12,
        );
    }
    all_backends_agree(
        r#"{"name":"p11","method":"shll_shallow_water","grid":{"nx":131,"ny":35,"x":[0,13],"y":[0,3.5]},
        "scheme":{"reconstruction":"muscl","limiter":"van_leer"},
        "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"outflow"},
        "south":{"kind":"reflective"},"north":{"kind":"outflow"}},
        "initial":{"state":{"h":1},"regions":[{"x":[0,4],"state":{"h":2,"u":0.2,"v":-0.1}},
        {"x":[8,12.6],"y":[0.5,2],"state":{"h":0.05}}]},
        "time":{"cfl":0.3,"steps":12}}"#,
        12,
    );
}

/// 1D Euler (ny = 1), Rusanov and SHLL unclamped on the 123 problem and Sod with MUSCL:
/// strong rarefactions, the positivity fallback of the slopes, the clipped last step.
#[test]
fn euler_1d_rusanov_and_shll_muscl() {
    let steps = all_backends_agree(
        r#"{"name":"p3","method":"shll_euler","grid":{"nx":101,"ny":1,"x":[0,1],"y":[0,0.01]},
        "scheme":{"flux":"rusanov","reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"outflow"}},
        "initial":{"state":{"rho":1,"u":2,"p":0.4},"regions":[{"x":[0,0.5],"state":{"rho":1,"u":-2,"p":0.4}}]},
        "time":{"cfl":0.5,"end_time":0.02}}"#,
        1000,
    );
    assert!(steps > 3 && steps < 100, "{steps} steps to t = 0.02");
    all_backends_agree(
        r#"{"name":"p3b","method":"shll_euler","grid":{"nx":67,"ny":1,"x":[0,1],"y":[0,0.01]},
        "scheme":{"clamp_chi":false,"dissipation":1.0,"reconstruction":"muscl","limiter":"minmod"},
        "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"outflow"}},
        "initial":{"state":{"rho":0.125,"p":0.1},"regions":[{"x":[0,0.5],"state":{"rho":1,"p":1}}]},
        "time":{"cfl":0.5,"steps":30}}"#,
        30,
    );
}

/// The first-order 2D stages across several work-groups: the tiled stage (HLL, Rusanov; 32 ×
/// 16 cells by default) and the strip stage (SHLL; 126 columns × 16 rows by default): 2D
/// Euler with every flux, periodic and inflow sides, a wall across a tile edge; shallow
/// water with Rusanov and SHLL, a wall and a dry region across tile and strip edges. Other
/// strip shapes, with walls across their edges in x and y: `tests/explicit_shape.rs`.
#[test]
fn first_order_across_tiles() {
    for flux in ["hll", "rusanov", "shll"] {
        all_backends_agree(
            &format!(
                r#"{{"name":"p5","method":"shll_euler","grid":{{"nx":150,"ny":37,"x":[0,3],"y":[0,1]}},
            "scheme":{{"flux":"{flux}"}},
            "boundaries":{{"west":{{"kind":"periodic"}},"east":{{"kind":"periodic"}},
            "south":{{"kind":"inflow","state":{{"rho":2,"v":0.5,"p":2}}}},"north":{{"kind":"outflow"}}}},
            "walls":[{{"x":[1.26,1.34],"y":[0.2,0.6]}}],
            "initial":{{"state":{{"rho":1,"u":0.3,"p":1}},
            "regions":[{{"x":[0.5,1.0],"y":[0.1,0.5],"state":{{"rho":3,"u":-0.4,"p":4}}}}]}},
            "time":{{"cfl":0.45,"steps":12}}}}"#
            ),
            12,
        );
    }
    for flux in ["rusanov", "shll"] {
        all_backends_agree(
            &format!(
                r#"{{"name":"p6","method":"shll_shallow_water","grid":{{"nx":131,"ny":35,"x":[0,13],"y":[0,3.5]}},
            "scheme":{{"flux":"{flux}"}},
            "boundaries":{{"west":{{"kind":"periodic"}},"east":{{"kind":"periodic"}},
            "south":{{"kind":"reflective"}},"north":{{"kind":"outflow"}}}},
            "walls":[{{"x":[6.3,6.7],"y":[1.0,2.5]}}],
            "initial":{{"state":{{"h":1}},"regions":[{{"x":[0,4],"state":{{"h":2,"u":0.2,"v":-0.1}}}},
            {{"x":[8,11],"y":[0.5,2],"state":{{"h":0}}}}]}},
            "time":{{"cfl":0.4,"steps":12}}}}"#
            ),
            12,
        );
    }
}

/// 2D shallow water with a dry region, walls (a dam with a breach), first-order SHLL.
#[test]
fn shallow_water_dry_bed_and_dam() {
    all_backends_agree(
        r#"{"name":"p4","method":"shll_shallow_water","grid":{"nx":31,"ny":27,"x":[0,10],"y":[0,10]},
        "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"outflow"},
        "south":{"kind":"reflective"},"north":{"kind":"reflective"}},
        "walls":[{"x":[4.5,5.5],"y":[0,4]},{"x":[4.5,5.5],"y":[7,10]}],
        "initial":{"state":{"h":0},"regions":[{"x":[0,5],"state":{"h":2,"v":0.1}}]},
        "time":{"cfl":0.25,"steps":30}}"#,
        30,
    );
}

/// 1D shallow water with MUSCL and HLL, inflow and a dry bed (Ritter).
#[test]
fn shallow_water_1d_muscl_hll() {
    all_backends_agree(
        r#"{"name":"p5","method":"shll_shallow_water","grid":{"nx":90,"ny":1,"x":[0,10],"y":[0,0.1]},
        "scheme":{"flux":"hll","reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"inflow","state":{"h":1,"u":0.5}},"east":{"kind":"outflow"}},
        "initial":{"state":{"h":0},"regions":[{"x":[0,5],"state":{"h":1}}]},
        "time":{"cfl":0.4,"steps":40}}"#,
        40,
    );
}

/// Convection–diffusion (MUSCL, a > |c|) and convection with negative velocity, 2D and 1D.
#[test]
fn scalar_methods() {
    all_backends_agree(
        r#"{"name":"p6","method":"shll_convection_diffusion",
        "transport":{"velocity":[1.0,-0.5],"diffusivity":0.002,"speed":[1.5,0.5]},
        "grid":{"nx":33,"ny":21,"x":[0,1],"y":[0,1]},"scheme":{"reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"},
        "south":{"kind":"inflow","state":{"value":0.3}},"north":{"kind":"outflow"}},
        "initial":{"value":0,"gaussian":{"centre":[0.4,0.5],"sigma":0.1,"amplitude":1}},
        "time":{"cfl":0.8,"steps":25}}"#,
        25,
    );
    all_backends_agree(
        r#"{"name":"p7","method":"convection","velocity":[-1.0,0.5],
        "grid":{"nx":35,"ny":18,"x":[0,2],"y":[0,1]},
        "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"inflow","state":{"value":1}},
        "south":{"kind":"inflow","state":{"value":1}},"north":{"kind":"outflow"}},
        "initial":{"value":1,"regions":[{"x":[0.5,1],"y":[0.2,0.6],"state":{"value":2}}]},
        "time":{"cfl":0.9,"steps":30}}"#,
        30,
    );
    all_backends_agree(
        r#"{"name":"p8","method":"convection","velocity":[1.0,0.0],
        "grid":{"nx":300,"ny":1,"x":[0,1],"y":[0,0.01]},
        "boundaries":{"west":{"kind":"periodic"},"east":{"kind":"periodic"}},
        "initial":{"value":0,"gaussian":{"centre":[0.5,0],"sigma":0.05,"amplitude":1}},
        "time":{"cfl":0.7,"steps":50}}"#,
        50,
    );
}

/// A run saved at step 7 and restored into a fresh solver (each backend) continues with the
/// same bits as the run that did not stop.
#[test]
fn restore_continues_bit_identically() {
    let c = case(
        r#"{"name":"p9","method":"shll_euler","grid":{"nx":21,"ny":13,"x":[0,1],"y":[0,1]},
        "scheme":{"reconstruction":"muscl"},
        "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"reflective"},
        "south":{"kind":"reflective"},"north":{"kind":"reflective"}},
        "initial":{"state":{"rho":1,"p":1},"regions":[{"circle":{"x":0.5,"y":0.5,"r":0.2},"state":{"rho":2,"p":3}}]},
        "time":{"cfl":0.5,"steps":15}}"#,
    );
    let _g = cl_lock();
    for kind in [BackendKind::Reference, BackendKind::OpenCl] {
        let mut a = solver(&c, kind, None);
        for _ in 0..7 {
            a.step().unwrap();
        }
        let saved = a.save().unwrap();
        for _ in 0..8 {
            a.step().unwrap();
        }
        let mut b = solver(&c, kind, None);
        b.restore(saved).unwrap();
        for _ in 0..8 {
            b.step().unwrap();
        }
        assert_eq!(a.clock(), b.clock(), "{kind:?}");
        assert!(
            a.conserved_interior().unwrap() == b.conserved_interior().unwrap(),
            "{kind:?}: the restored run differs"
        );
    }
}

/// The NVIDIA register caps are build options of the 2D SHLL stages on NVIDIA only: the
/// strip's per system (`NV_STRIP_MAX_REGISTERS`), the tile's (`NV_SHLL_MAX_REGISTERS`), the
/// MUSCL strip's (`NV_MUSCL_STRIP_MAX_REGISTERS`) and the plain MUSCL stage's
/// (`NV_MUSCL_MAX_REGISTERS`), not of convection or on
/// another platform (they change registers, not arithmetic, so they are checked here and not
/// by the bits).
#[test]
fn register_cap_only_for_2d_shll_on_nvidia() {
    use simplets::device::DeviceInfo;
    use simplets::methods::explicit::opencl::{
        device_defines, NV_MUSCL_MAX_REGISTERS, NV_MUSCL_STRIP_MAX_REGISTERS,
        NV_SHLL_MAX_REGISTERS, NV_STRIP_MAX_REGISTERS,
    };
    let dev = |platform: &str| DeviceInfo {
        platform_index: 0,
        device_index: 0,
        platform_name: platform.into(),
        platform_version: "OpenCL 3.0".into(),
        name: "GPU".into(),
        vendor: "vendor".into(),
        device_type: "GPU".into(),
        compute_units: 132,
        max_clock_mhz: 1980,
        global_mem_bytes: 80 << 30,
        local_mem_bytes: 48 << 10,
        max_alloc_bytes: 20 << 30,
        max_work_group_size: 1024,
        fp64: true,
        opencl_c_version: "OpenCL C 3.0".into(),
        driver_version: "1".into(),
        extensions: "cl_khr_fp64".into(),
    };
    let two_d = r#""grid":{"nx":8,"ny":8,"x":[0,1],"y":[0,1]},
        "boundaries":{"west":{"kind":"outflow"},"east":{"kind":"outflow"},"south":{"kind":"outflow"},"north":{"kind":"outflow"}},"#;
    let euler = format!(
        r#"{{"name":"e","method":"shll_euler",{two_d}"initial":{{"state":{{"rho":1,"p":1}}}},"time":{{"cfl":0.5,"steps":1}}}}"#
    );
    let water = format!(
        r#"{{"name":"w","method":"shll_shallow_water",{two_d}"initial":{{"state":{{"h":1}}}},"time":{{"cfl":0.5,"steps":1}}}}"#
    );
    let muscl = format!(
        r#"{{"name":"m","method":"shll_euler","scheme":{{"reconstruction":"muscl"}},{two_d}"initial":{{"state":{{"rho":1,"p":1}}}},"time":{{"cfl":0.5,"steps":1}}}}"#
    );
    let muscl_water = water.replace(r#""grid""#, r#""scheme":{"reconstruction":"muscl"},"grid""#);
    let (strip, tile) = (Some(StageForm::Strip), Some(StageForm::Tile));
    // (case, stage form asked for, the cap on NVIDIA): the strip's per system, the tile's, the
    // MUSCL strip's and the plain MUSCL stage's (asked for as `tile`).
    let cases = [
        (euler.clone(), strip, NV_STRIP_MAX_REGISTERS[0]),
        (water.clone(), strip, NV_STRIP_MAX_REGISTERS[1]),
        (euler, tile, Some(NV_SHLL_MAX_REGISTERS)),
        (water, tile, Some(NV_SHLL_MAX_REGISTERS)),
        (muscl.clone(), None, Some(NV_MUSCL_STRIP_MAX_REGISTERS)),
        (muscl_water, None, Some(NV_MUSCL_STRIP_MAX_REGISTERS)),
        (muscl, tile, Some(NV_MUSCL_MAX_REGISTERS)),
        (
            format!(
                r#"{{"name":"c","method":"convection","velocity":[1.0,0.5],{two_d}"initial":{{"value":1}},"time":{{"cfl":0.5,"steps":1}}}}"#
            ),
            None,
            None,
        ),
    ];
    for (json, want, cap) in &cases {
        let p = case(json).explicit_problem().unwrap();
        let nvidia = dev("NVIDIA CUDA");
        let st = Stage::on(&p, &nvidia, *want);
        let nv = device_defines(&p, &nvidia, &st).to_options();
        match cap {
            Some(c) => assert!(
                nv.contains(&format!("-cl-nv-maxrregcount={c}")),
                "{json}: {nv}"
            ),
            None => assert!(!nv.contains("maxrregcount"), "{json}: {nv}"),
        }
        let pocl = dev("Portable Computing Language");
        let other = device_defines(&p, &pocl, &Stage::on(&p, &pocl, *want)).to_options();
        assert!(!other.contains("maxrregcount"), "{json}: {other}");
    }
}
