use std::path::Path;

use super::analysis::window_drift;
use super::*;
use crate::methods::simple_ts::case::Case;
use crate::methods::simple_ts::reference::Reference;

#[test]
fn run_filters_name_whole_terms() {
    let l = "implicit-tvd h=1/40";
    for f in [
        "h=1/40",
        "implicit-tvd",
        "implicit-tvd h=1/40",
        "h=1/5, h=1/40",
    ] {
        assert!(label_matches(l, f), "{f}");
    }
    for f in [
        "h=1/4",
        "tvd",
        "implicit-upwind",
        "h=1/80,explicit-tvd",
        "",
        "warm",
    ] {
        assert!(!label_matches(l, f), "{f}");
    }
    // A warm-started run: its tag, grid or whole label names it.
    let w = "implicit-upwind h=1/80 warm";
    for f in ["warm", "h=1/80", w, "implicit-upwind"] {
        assert!(label_matches(w, f), "{f}");
    }
    assert!(!label_matches(w, "h=1/80 warm"));
}

/// A study with grid sequencing runs its finest level warm from the level below, adds the
/// warm/cold check of the level below, and (with a run cache) runs a warm run alone by
/// running its cold start again, to the same numbers.
#[test]
fn a_sequenced_study_starts_its_finest_level_warm_and_checks_the_start() {
    use crate::validate::{CaseReport, RunCache};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut base =
        Case::from_file(&root.join("validation/confined_square/case.quick.json")).unwrap();
    base.time.steps = Some(30);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("case.json"),
        serde_json::to_string(&base).unwrap(),
    )
    .unwrap();
    let spec = Study {
        levels: [&[1, 2, 4], &[1, 2]],
        dt_div: [&[1, 2, 4], &[1, 2]],
        scheme_level: [0, 0],
        warm: [Some(Warm { duration: 0.1 }), None],
        ..SUPERSONIC
    };
    let cache = RunCache {
        dir: dir.path().join("cache"),
        kind: "reference".into(),
    };
    let report = || CaseReport {
        case: "t".into(),
        quick: false,
        rows: vec![],
        plots: vec![],
        notes: vec![],
        backend: String::new(),
        seconds: 0.0,
    };
    let bk = Backend::reference().with_cache(Some(cache.clone()));
    let mut rep = report();
    let (grid, _) = study(dir.path(), false, &mut rep, &bk, &spec).unwrap();
    let fine = &grid[2];
    assert_eq!(fine.label, "implicit-upwind h=1/8 warm");
    let from = fine.start.as_deref().unwrap();
    let t_end = grid[1].history.last().unwrap().0;
    assert_eq!(from, format!("implicit-upwind h=1/4 at t = {t_end}"));
    assert_eq!(fine.steps, (0.1 / (base.time.dt / 4.0)).round() as u64);
    assert!(grid[..2].iter().all(|r| r.start.is_none()));
    let metric = |m: &str| rep.rows.iter().find(|r| r.metric == m).map(|r| r.value);
    let check = metric("warm vs cold start, h=1/4: C_d").expect("the check row");
    assert!(check.is_finite() && check > 0.0, "{check}");
    // The check run alone, its cached entry removed: its cold start (cached, but without
    // its final state) runs again, and the warm run gives the same numbers.
    let files = |k| {
        std::fs::read_dir(dir.path().join("cache/t"))
            .unwrap()
            .count()
            - k
    };
    assert_eq!(files(0), 7, "3 levels, 3 schemes, 1 check");
    let label = "implicit-upwind h=1/4 warm";
    let old: Vec<_> = std::fs::read_dir(dir.path().join("cache/t"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let find = |want: &str| {
        old.iter()
            .find(|p| std::fs::read_to_string(p).unwrap().contains(want))
            .cloned()
            .unwrap()
    };
    let entry = find(&format!("\"label\":\"{label}\""));
    let before: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&entry).unwrap()).unwrap();
    let before_coarse: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(find("\"label\":\"implicit-upwind h=1/2\"")).unwrap(),
    )
    .unwrap();
    std::fs::remove_file(&entry).unwrap();
    let cache_again = cache.clone();
    let bk = Backend::reference()
        .with_cache(Some(cache))
        .with_only(Some(label.into()));
    let e = study(dir.path(), false, &mut report(), &bk, &spec).unwrap_err();
    assert!(matches!(e, ValidateError::Partial { ran: 1, .. }), "{e}");
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&entry).unwrap()).unwrap();
    for k in [
        "cd",
        "standoff",
        "standoffs",
        "standoff_drift",
        "history",
        "iters",
        "start",
    ] {
        assert_eq!(before["run"][k], after["run"][k], "{k}");
    }
    // Every run of a supersonic study records its stand-off per sample (one per C_d
    // sample) and the study asserts its drift.
    for r in grid.iter() {
        assert_eq!(r.standoffs.len(), r.history.len(), "{}", r.label);
        assert!(r.standoff_drift.is_some_and(f64::is_finite), "{}", r.label);
    }
    assert!(metric("steady: largest stand-off drift in window").is_some());
    // A supersonic run cached before the stand-off history existed runs again.
    let coarse = find("\"label\":\"implicit-upwind h=1/2\"");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&coarse).unwrap()).unwrap();
    let obj = v["run"].as_object_mut().unwrap();
    obj.remove("standoffs");
    obj.remove("standoff_drift");
    std::fs::write(&coarse, v.to_string()).unwrap();
    let bk = Backend::reference()
        .with_cache(Some(cache_again))
        .with_only(Some("implicit-upwind h=1/2".into()));
    let e = study(dir.path(), false, &mut report(), &bk, &spec).unwrap_err();
    assert!(matches!(e, ValidateError::Partial { ran: 1, .. }), "{e}");
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&coarse).unwrap()).unwrap();
    assert_eq!(v["run"]["standoffs"], before_coarse["run"]["standoffs"]);
}

#[test]
fn window_drift_compares_the_two_halves() {
    // Halves [1, 1] and [2, 2]: means 1 and 2, scaled by |−2|.
    assert_eq!(window_drift(&[1.0, 1.0, 2.0, 2.0], -2.0), Some(0.5));
    // An odd count puts the middle sample in the second half: [1] and [3, 5] → |4 − 1|.
    assert_eq!(window_drift(&[1.0, 3.0, 5.0], 1.0), Some(3.0));
    assert_eq!(window_drift(&[7.0], 1.0), None);
    assert_eq!(window_drift(&[], 1.0), None);
}

#[test]
fn a_run_round_trips_through_the_cache_format_exactly() {
    let line = Centreline {
        x_p: vec![0.1, 0.3],
        p: vec![1.0 / 3.0, f64::NAN],
        x_u: vec![0.0, 0.2, 0.4],
        u: vec![f64::NAN, 2.0f64.sqrt(), -1e-300],
    };
    let text = serde_json::to_string(&line).unwrap();
    assert!(text.contains("null"), "{text}");
    let back: Centreline = serde_json::from_str(&text).unwrap();
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&back.p[..1]), bits(&line.p[..1]));
    assert!(back.p[1].is_nan() && back.u[0].is_nan());
    assert_eq!(bits(&back.u[1..]), bits(&line.u[1..]));
    assert_eq!(back.x_u, line.x_u);
}

#[test]
fn shock_position_interpolates_the_crossing() {
    let x: Vec<f64> = (0..10).map(|i| 0.5 + f64::from(i)).collect();
    // Linear rise 1 → 8 between x = 3.5 and x = 6.5, then flat: p = 4.5 at x = 5.
    let p: Vec<f64> = x
        .iter()
        .map(|&x: &f64| 1.0 + 7.0 * ((x - 3.5) / 3.0).clamp(0.0, 1.0))
        .collect();
    let xs = shock_position(&x, &p, 9.0, 4.5).unwrap();
    assert!((xs - 5.0).abs() < 1e-12, "{xs}");
    // Nothing reaches the level before the face, or the first cell is already above.
    assert_eq!(shock_position(&x, &p, 4.0, 4.5), None);
    assert_eq!(shock_position(&x, &p, 9.0, 0.5), None);
}

#[test]
fn recirculation_length_of_a_linear_wake() {
    let x: Vec<f64> = (0..40).map(|i| 0.1 * f64::from(i)).collect();
    // Rear face at 1.0, u = 0.2 (x − 2.3) behind it: zero at 2.3, length 1.3.
    let u: Vec<f64> = x.iter().map(|&x| 0.2 * (x - 2.3)).collect();
    let l = recirculation_length(&x, &u, 1.0, 0.1).unwrap();
    assert!((l - 1.3).abs() < 1e-12, "{l}");
    let pos: Vec<f64> = x.iter().map(|&x| 0.1 + x).collect();
    assert_eq!(recirculation_length(&x, &pos, 1.0, 0.1), Some(0.0));
    let neg: Vec<f64> = x.iter().map(|_| -1.0).collect();
    assert_eq!(recirculation_length(&x, &neg, 1.0, 0.1), None);
}

#[test]
fn strouhal_of_a_sine() {
    let (f, u, l) = (0.0125, 0.09, 1.0);
    let t: Vec<f64> = (0..4000).map(|i| 0.25 * f64::from(i)).collect();
    let cl: Vec<f64> = t
        .iter()
        .map(|&t| 0.3 + 0.2 * (2.0 * std::f64::consts::PI * f * t + 0.4).sin())
        .collect();
    let st = strouhal(&t, &cl, l, u).unwrap();
    assert!((st - f * l / u).abs() < 1e-4 * st, "{st}");
    assert_eq!(strouhal(&t[..10], &cl[..10], l, u), None);
    // Two frequencies 1 : 2.7 beating: crossings at irregular spacings.
    let irregular: Vec<f64> = t
        .iter()
        .map(|&t| (0.05 * t).sin() + 0.9 * (0.135 * t).sin())
        .collect();
    assert_eq!(strouhal(&t, &irregular, l, u), None);
}

#[test]
fn richardson_recovers_a_power_law() {
    let f = |h: f64| 1.7 + 0.9 * h.powf(1.3);
    let r = Richardson::new([f(0.2), f(0.1), f(0.05)], 2.0);
    assert!(r.monotone);
    assert!((r.order - 1.3).abs() < 1e-12, "{r:?}");
    assert!((r.extrapolated - 1.7).abs() < 1e-12, "{r:?}");
    assert!(r.change_fine < r.change_coarse);
    let osc = Richardson::new([1.0, 1.1, 1.05], 2.0);
    assert!(!osc.monotone && osc.extrapolated.is_nan());
}

#[test]
fn shock_relations_and_billig() {
    // γ = 1.4, M = 2: p2/p1 = 4.5.
    assert!((normal_shock_pressure_ratio(2.0, 1.4) - 4.5).abs() < 1e-12);
    // For air the correlation is Billig's own: 0.386 exp(4.67/M²) R.
    let d = billig_cylinder(3.0, 1.4, 2.0);
    assert!((d - 2.0 * 0.386 * (4.67f64 / 9.0).exp()).abs() < 1e-12);
    let (lo, hi) = standoff_bracket(2.43, 5.0 / 3.0, 1.0);
    assert!(lo < hi && (lo - 0.5213).abs() < 1e-4 && (hi - 0.9444).abs() < 1e-4);
}

#[test]
fn centreline_averages_the_rows_beside_a_face_line() {
    let json = r#"{
        "name": "sq",
        "gas": { "kn": 0.05 },
        "grid": { "nx": 10, "ny": 4, "x": [0.0, 5.0], "y": [0.0, 2.0] },
        "bodies": [ { "x": [2.0, 3.0], "y": [0.5, 1.5] } ],
        "boundaries": {
            "west": { "kind": "inflow", "mach": 2.43 },
            "east": { "kind": "outflow" },
            "south": { "kind": "wall" },
            "north": { "kind": "wall" }
        },
        "time": { "dt": 0.01, "steps": 1 }
    }"#;
    let case = Case::from_json(json, "test").unwrap();
    let r = Reference::new(&case);
    let (g, geo) = (&r.p.grid, &r.p.geo);
    let mut k = r.state.k.clone();
    for j in 0..g.nyt {
        for i in 0..g.nxt {
            k.p[g.idx(i, j)] = 10.0 * j as f64 + i as f64;
            k.u[g.idx(i, j)] = -(i as f64);
        }
    }
    let c = Centreline::of(g, geo, &k, 1.0);
    // y = 1 is the face between rows 2 and 3: mean of 20 + i and 30 + i.
    assert_eq!(c.p[0], 26.0);
    assert!(c.p[4].is_nan() && c.p[5].is_nan(), "{:?}", c.p);
    assert_eq!((c.x_u[0], c.u[0]), (0.0, -1.0));
    // The faces inside and on the square are solid-adjacent.
    assert!(c.u[5].is_nan() && c.u[4].is_nan() && c.u[6].is_nan());
    assert_eq!(c.u[3], -4.0);
}
