//! The explicit methods' stage shape (`SIMPLETS_EXPLICIT_SHAPE`, work-group LX × LY items
//! of RPI cells each; a tuning knob) and form (`SIMPLETS_EXPLICIT_STAGE`): any valid shape
//! gives the reference's bits, in the strip stage (a row of LX items sweeping RPI rows) and
//! the tiled stage (whose tile is the group's cells), for Euler and shallow water; an
//! invalid shape or form is refused in one line naming the variable. The same for CE/SE's 2D
//! work-group (`SIMPLETS_CESE_TILE`, the fused kernel's tile: partial tiles at every side,
//! both kernel forms). One test in its own binary, since it sets the process environment.
//!
//! Tolerance: none (bit-identical), as `tests/explicit_parity.rs`.

use simplets::methods::cese::opencl::{SWEEP_ENV, TILE_ENV};
use simplets::methods::cese::solver::Cese;
use simplets::methods::explicit::opencl::{
    PREFETCH_ENV, SHAPE_ENV, STAGE_ENV, WALLED_ENV, WALLED_LAUNCH_ENV,
};
use simplets::methods::explicit::solver::Explicit;
use simplets::methods::{AnyCase, BackendChoice, BackendKind, KernelForm};
use simplets::solver::Solver;

fn bits(json: &str, kind: BackendKind, n: u64) -> Result<Vec<u64>, String> {
    let c = AnyCase::from_json(json, "<test>").expect("a valid case");
    let choice = BackendChoice {
        kind,
        ..BackendChoice::default()
    };
    let mut s = Explicit::new(c.explicit_problem().unwrap(), &choice).map_err(|e| e.to_string())?;
    for _ in 0..n {
        s.step().expect("a good step");
    }
    let mut out: Vec<u64> = s
        .conserved_interior()
        .unwrap()
        .iter()
        .flatten()
        .map(|x| x.to_bits())
        .collect();
    let (_, t) = s.clock();
    out.push(t.to_bits());
    out.push(s.next_dt().to_bits());
    Ok(out)
}

const EULER: &str = r#"{"name":"s1","method":"shll_euler","grid":{"nx":70,"ny":37,"x":[0,2],"y":[0,1]},
    "boundaries":{"west":{"kind":"inflow","state":{"rho":2.8,"u":1.6,"p":5}},
    "east":{"kind":"outflow"},"south":{"kind":"reflective"},"north":{"kind":"reflective"}},
    "walls":[{"x":[0.9,1.1],"y":[0.3,0.7]}],
    "initial":{"state":{"rho":1,"p":1},"regions":[{"x":[0,0.3],"state":{"rho":2.8,"u":1.6,"p":5}}]},
    "time":{"cfl":0.5,"steps":15}}"#;

const WATER: &str = r#"{"name":"s2","method":"shll_shallow_water","grid":{"nx":45,"ny":33,"x":[0,10],"y":[0,10]},
    "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"outflow"},
    "south":{"kind":"reflective"},"north":{"kind":"reflective"}},
    "initial":{"state":{"h":0.5},"regions":[{"x":[0,5],"state":{"h":2,"v":0.1}}]},
    "time":{"cfl":0.4,"steps":15}}"#;

/// The bits of the CE/SE level after `n` steps on `kind` with `kernel`.
fn cese_bits(
    json: &str,
    kind: BackendKind,
    kernel: KernelForm,
    n: u64,
) -> Result<Vec<u64>, String> {
    let AnyCase::CeseEuler(c) = AnyCase::from_json(json, "<test>").expect("a valid case") else {
        panic!("a cese case")
    };
    let choice = BackendChoice {
        kind,
        kernel,
        ..BackendChoice::default()
    };
    let mut s = Cese::new(c.problem(), &choice).map_err(|e| e.to_string())?;
    for _ in 0..n {
        s.step().expect("a good step");
    }
    let mut out: Vec<u64> = s
        .level(false)
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    out.push(s.next_dt().to_bits());
    Ok(out)
}

/// Reflective south/north, inflow west, outflow east (both ghost kinds in a tile), α = 3.
const CESE: &str = r#"{"name":"c5","method":"cese_euler","scheme":{"alpha":3},
    "grid":{"nx":41,"ny":19,"x":[0,2],"y":[0,1]},
    "boundaries":{"west":{"kind":"inflow","state":{"rho":2.8,"u":1.6,"p":5}},"east":{"kind":"outflow"},
    "south":{"kind":"reflective"},"north":{"kind":"reflective"}},
    "initial":{"state":{"rho":1,"p":1},"regions":[{"x":[0,0.3],"state":{"rho":2.8,"u":1.6,"p":5}},
    {"circle":{"x":0.7,"y":0.4,"r":0.25},"state":{"rho":0.1,"p":1}}]},
    "time":{"cfl":0.5,"steps":12}}"#;

/// 1D: reflective west, inflow east, the default α, across several groups of the smaller sweeps.
const CESE_1D: &str = r#"{"name":"c6","method":"cese_euler","grid":{"nx":37,"ny":1,"x":[0,1],"y":[0,1]},
    "boundaries":{"west":{"kind":"reflective"},"east":{"kind":"inflow","state":{"rho":0.5,"u":-0.4,"p":0.4}}},
    "initial":{"state":{"rho":0.5,"u":-0.4,"p":0.4},"regions":[{"x":[0,0.4],"state":{"rho":1,"p":1}}]},
    "time":{"cfl":0.6,"steps":12}}"#;

/// The bits of a run on a shape the device can hold, or `None` where the device refused the
/// shape's local memory in one line (a 64 × 4 × 4 SHLL tile needs more than the 48 KiB of
/// an H100; PoCL holds them all). Any other error fails the test.
fn fitting(shape: &str, got: Result<Vec<u64>, String>) -> Option<Vec<u64>> {
    match got {
        Ok(b) => Some(b),
        Err(e) if e.contains("local memory") && !e.contains('\n') => None,
        Err(e) => panic!("shape {shape}: {e}"),
    }
}

/// Runs `case` in the stage form `form` (`STAGE_ENV`) with each of `shapes` and asserts the
/// reference's bits `want`; returns how many shapes fitted the device ([`fitting`]).
fn same_bits_in_shapes(case: &str, form: &str, shapes: &[&str], want: &[u64]) -> usize {
    // The only test of this binary: no other thread reads the environment.
    std::env::set_var(STAGE_ENV, form);
    let mut compared = 0;
    for shape in shapes {
        std::env::set_var(SHAPE_ENV, shape);
        let Some(got) = fitting(shape, bits(case, BackendKind::OpenCl, 15)) else {
            continue;
        };
        assert!(
            got == want,
            "{form} shape {shape}: OpenCL differs from the reference"
        );
        compared += 1;
    }
    compared
}

#[test]
fn any_stage_shape_gives_the_reference_bits() {
    let want = cese_bits(CESE, BackendKind::Reference, KernelForm::Phase, 12).unwrap();
    let mut compared = 0;
    // The work-group of the split kernels (the fused sweep has its own shape, below).
    for tile in ["16x4", "4x16", "32x2", "1x1", "16x8"] {
        // The only test of this binary: no other thread reads the environment.
        std::env::set_var(TILE_ENV, tile);
        let got = cese_bits(CESE, BackendKind::OpenCl, KernelForm::Phase, 12).unwrap();
        assert!(
            got == want,
            "tile {tile}: OpenCL differs from the reference"
        );
        compared += 1;
    }
    assert_eq!(compared, 5);
    for bad in ["12x8", "8", "8x0", "8xeight"] {
        std::env::set_var(TILE_ENV, bad);
        let e = cese_bits(CESE, BackendKind::OpenCl, KernelForm::Fused, 1).unwrap_err();
        assert!(e.contains(TILE_ENV) && !e.contains('\n'), "{bad}: {e}");
    }
    std::env::remove_var(TILE_ENV);

    // The sweep of fused_2d (and fused_1d's tiles): strips one to three output columns wide
    // and one to many rows high (1D: tiles of 2 … 62 outputs, 1 … 40 a group, the last cut
    // short) put the group edges next to every side of CESE and CESE_1D.
    let want_1d = cese_bits(CESE_1D, BackendKind::Reference, KernelForm::Phase, 12).unwrap();
    let mut compared = 0;
    for shape in ["128x16", "4x1", "8x3", "16x19", "32x7", "64x40"] {
        std::env::set_var(SWEEP_ENV, shape);
        for (case, want) in [(CESE, &want), (CESE_1D, &want_1d)] {
            let got = cese_bits(case, BackendKind::OpenCl, KernelForm::Fused, 12);
            let Some(got) = fitting(shape, got) else {
                continue;
            };
            assert!(
                got == *want,
                "sweep {shape}: OpenCL differs from the reference"
            );
            compared += 1;
        }
    }
    // Every sweep up to 128 items fits any device with 48 KiB of local memory.
    assert_eq!(compared, 12, "only {compared} CE/SE sweeps ran");
    for bad in ["6x8", "128", "128x0", "2x4", "2048x1"] {
        std::env::set_var(SWEEP_ENV, bad);
        let e = cese_bits(CESE, BackendKind::OpenCl, KernelForm::Fused, 1).unwrap_err();
        assert!(e.contains(SWEEP_ENV) && !e.contains('\n'), "{bad}: {e}");
    }
    std::env::remove_var(SWEEP_ENV);

    // Both first-order SHLL cases run the strip stage by default; any strip shape, and any
    // shape of the tile form (STAGE_ENV=tile), gives the reference's bits. The small strips
    // put group edges in x and y through the walls of EULER.
    let mut compared = 0;
    for case in [EULER, WATER] {
        let want = bits(case, BackendKind::Reference, 15).unwrap();
        for (form, shapes) in [
            ("strip", ["128x1x16", "4x1x1", "8x1x3", "32x1x7", "64x1x40"]),
            ("tile", ["64x4x4", "32x2x1", "16x8x3", "128x1x2", "8x4x5"]),
        ] {
            compared += same_bits_in_shapes(case, form, &shapes, &want);
        }
        // The strip reading each row when it comes to it, not one row ahead; every group
        // through the wall code (EULER's wall-free groups too); EULER's walled and free groups
        // as two kernels, one after the other and beside each other on two queues, not as
        // one kernel. A value the variable does not take is one line naming it.
        std::env::set_var(STAGE_ENV, "strip");
        for (var, value, refused) in [
            (PREFETCH_ENV, "0", "2"),
            (WALLED_ENV, "all", "some"),
            (WALLED_LAUNCH_ENV, "apart", "two"),
            (WALLED_LAUNCH_ENV, "beside", "two"),
        ] {
            std::env::set_var(var, value);
            for shape in ["128x1x16", "8x1x3"] {
                std::env::set_var(SHAPE_ENV, shape);
                let got = bits(case, BackendKind::OpenCl, 15).unwrap();
                assert!(got == want, "strip shape {shape}, {var}={value}");
            }
            std::env::set_var(var, refused);
            let e = bits(case, BackendKind::OpenCl, 1).unwrap_err();
            assert!(e.contains(var) && !e.contains('\n'), "{e}");
            std::env::remove_var(var);
        }
        // Every group walled, in the kernel of the walled groups alone.
        std::env::set_var(WALLED_ENV, "all");
        std::env::set_var(WALLED_LAUNCH_ENV, "beside");
        std::env::set_var(SHAPE_ENV, "8x1x3");
        assert!(
            bits(case, BackendKind::OpenCl, 15).unwrap() == want,
            "all walled, beside"
        );
        std::env::remove_var(WALLED_ENV);
        std::env::remove_var(WALLED_LAUNCH_ENV);
    }
    // The MUSCL strip (STAGE_ENV=strip with MUSCL; no walls): shapes from one updated column
    // (8 items) and one row to many, through both cases' group edges in x and y.
    for case in [EULER, WATER] {
        let case = case
            .replace(r#""walls":[{"x":[0.9,1.1],"y":[0.3,0.7]}],"#, "")
            .replace(
                r#""grid":"#,
                r#""scheme":{"reconstruction":"muscl"},"grid":"#,
            );
        let want = bits(&case, BackendKind::Reference, 15).unwrap();
        let shapes = ["128x1x16", "8x1x1", "16x1x3", "64x1x40"];
        compared += same_bits_in_shapes(&case, "strip", &shapes, &want);
        std::env::set_var(SHAPE_ENV, "4x1x4");
        let e = bits(&case, BackendKind::OpenCl, 1).unwrap_err();
        assert!(e.contains(SHAPE_ENV) && !e.contains('\n'), "{e}");
    }
    // Every strip shape, every tile shape but 64 × 4 × 4 and every MUSCL strip but 128 × 1 × 16
    // fit 32 KiB of local memory.
    assert!(compared >= 24, "only {compared} stage shapes ran");
    std::env::set_var(STAGE_ENV, "tile");
    for bad in ["48x4x4", "64x4", "64x4x0", "64xfourx4"] {
        std::env::set_var(SHAPE_ENV, bad);
        let e = bits(WATER, BackendKind::OpenCl, 1).unwrap_err();
        assert!(e.contains(SHAPE_ENV) && !e.contains('\n'), "{bad}: {e}");
    }
    // The strip takes rows of items (LY = 1) at least 4 wide.
    std::env::set_var(STAGE_ENV, "strip");
    for bad in ["32x4x4", "2x1x8", "48x1x4"] {
        std::env::set_var(SHAPE_ENV, bad);
        let e = bits(WATER, BackendKind::OpenCl, 1).unwrap_err();
        assert!(e.contains(SHAPE_ENV) && !e.contains('\n'), "{bad}: {e}");
    }
    std::env::remove_var(SHAPE_ENV);
    std::env::set_var(STAGE_ENV, "tiles");
    let e = bits(WATER, BackendKind::OpenCl, 1).unwrap_err();
    assert!(e.contains(STAGE_ENV) && !e.contains('\n'), "{e}");
    std::env::remove_var(STAGE_ENV);
    std::env::remove_var(SHAPE_ENV);
}
