//! The turbine cascade (periodic sides, the one-dimensional start along the grid): bit-identical
//! on the reference, parallel and OpenCL backends; bad cascade input named in one line.

use simplets::methods::bp::case::Case;
use simplets::methods::AnyCase;

use super::{common, parity};

/// A small odd-sized cascade (25 × 17 nodes), its inlet density still relaxing.
pub(crate) const CASCADE: &str = r#"{"name":"bpcasc","method":"bp_euler",
    "grid":{"kind":"cascade","ni":25,"nj":17,"pitch":1.0,"inlet_metal_angle":0.0,
            "exit_metal_angle":-60.0,"thickness":0.25},
    "inlet":{"p0":100000,"t0":300,"angle":2},"outlet":{"p":75000},
    "start":"along_grid","time":{"steps":200}}"#;

/// 150 steps on the three backends, bit for bit (steps, residuals, state, snapshots,
/// checkpoints).
#[test]
fn cascade_opencl_and_parallel_match_the_reference_bit_for_bit() {
    let AnyCase::BpEuler(c) = AnyCase::from_json(CASCADE, "<t>").unwrap() else {
        panic!()
    };
    assert!(c.node_grid().periodic.iter().any(|p| *p));
    parity(c, true);
}

/// The cascade's inputs named (one line each).
#[test]
fn cascade_bad_input_named() {
    let text = std::fs::read_to_string(common::config("bp_cascade.json")).unwrap();
    let c: Case = Case::from_json(&text, "<t>").unwrap();
    assert_eq!(c.grid.nodes(), (60, 60));
    for (from, to, field) in [
        (r#""ni": 60"#, r#""ni": 8"#, "grid.ni"),
        (r#""pitch": 1.0"#, r#""pitch": 0.0"#, "grid.pitch"),
        (
            r#""thickness": 0.25"#,
            r#""thickness": 0.9"#,
            "grid.thickness",
        ),
        (
            r#""exit_metal_angle": -60.0"#,
            r#""exit_metal_angle": -85.0"#,
            "grid.exit_metal_angle",
        ),
        (
            r#""inlet_metal_angle": 0.0"#,
            r#""inlet_metal_angle": 90.0"#,
            "grid.inlet_metal_angle",
        ),
        // serde names the place (line and column) and the variants, as for outlet.kind.
        (
            r#""start": "along_grid""#,
            r#""start": "sideways""#,
            "`uniform` or `along_grid`",
        ),
    ] {
        assert!(text.contains(from), "{from}");
        let e = AnyCase::from_json(&text.replace(from, to), "<t>")
            .expect_err("refused")
            .to_string();
        assert!(e.contains(field), "{field}: {e}");
        assert_eq!(e.lines().count(), 1, "{e}");
    }
}
