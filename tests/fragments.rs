//! Equation fragments of `cl/` against their Rust twins in `src/reference/` (STYLE §5): each
//! fragment is evaluated on the device through `cl/kernels/probe_fragments.cl` and compared
//! bit for bit.
//!
//! Allowed difference: [`ALLOWED_ULPS`] = 0. The programs are built with
//! `#pragma OPENCL FP_CONTRACT OFF` (no fused multiply-add), the macros keep the Rust operation
//! order, and OpenCL requires correctly rounded FP64 `+ - * /` and exact `fabs`, so every
//! result must be the same double.
//!
//! The device is looked up once per process (`OnceLock`) and every OpenCL use holds one global
//! mutex, as in `tests/opencl_device.rs` (PoCL races on concurrent lookups and builds).

use std::sync::{Mutex, MutexGuard, OnceLock};

use simplets::config::Case;
use simplets::device::{build, select_device, BuiltProgram, Defines, DeviceInfo, Source};
use simplets::geometry::{FLUID, OPEN, SOLID};
use simplets::reference::{density, ops, Reference};

/// Units in the last place the device may differ from the Rust twin: none (module docs).
const ALLOWED_ULPS: u64 = 0;

/// True if a difference of `d` ulps is allowed.
// ALLOWED_ULPS is 0 today, which clippy sees as `d == 0`; the comparison stays right if a
// device ever needs a justified 1.
#[allow(clippy::absurd_extreme_comparisons)]
fn within_tolerance(d: u64) -> bool {
    d <= ALLOWED_ULPS
}

/// Serialises OpenCL use across this file's tests.
fn cl_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

/// The device the tests build for: the default choice, looked up once.
fn device() -> &'static DeviceInfo {
    static DEV: OnceLock<DeviceInfo> = OnceLock::new();
    DEV.get_or_init(|| select_device(None).expect("an FP64 OpenCL device (PoCL in CI)"))
}

/// The fragment probe program for a grid of `nxt` × `nyt` stored cells.
fn fragments_program(nxt: usize, nyt: usize, tvd: bool) -> BuiltProgram {
    let d = Defines::new()
        .int("CFG_NXT", nxt as i64)
        .int("CFG_NYT", nyt as i64)
        .int("CFG_TVD", tvd as i64);
    build(device(), &Source::fragments().assemble(), &d, None).unwrap()
}

/// A tiny deterministic generator (PCG multiplier, 64-bit LCG), so no crate is needed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0
    }
    /// Uniform in [0, 1), 53 random bits.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.unit()
    }
    fn below(&mut self, n: u64) -> u64 {
        (self.next() >> 33) % n
    }
    /// Positive, spread over `decades` decades around 1.
    fn log_uniform(&mut self, decades: f64) -> f64 {
        10f64.powf(self.range(-decades, decades))
    }
    fn sign(&mut self) -> f64 {
        if self.below(2) == 0 {
            1.0
        } else {
            -1.0
        }
    }
}

/// Distance in ulps between two doubles of the same sign (u64::MAX across signs or NaN).
fn ulps(a: f64, b: f64) -> u64 {
    if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
        return 0;
    }
    if a.is_nan() || b.is_nan() || a.is_sign_negative() != b.is_sign_negative() {
        return if a == b { 0 } else { u64::MAX };
    }
    a.to_bits().abs_diff(b.to_bits())
}

/// Inputs per row and outputs per row of `probe_ops` (OPS_IN, OPS_OUT in the kernel).
const OPS_IN: usize = 10;
const OPS_OUT: usize = 8;

/// The Rust twins in `probe_ops` order for one row `p1 p2 p3 p4 h1 h2 h3 h4 w kn`.
fn ops_row(x: &[f64]) -> [f64; OPS_OUT] {
    [
        ops::upwind(x[0], x[1], x[8]),
        ops::van_leer(x[0]),
        ops::tvd_s(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8]),
        ops::tvd_c(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[8]),
        ops::li(x[0], x[1], x[4], x[5]),
        ops::hi(x[0], x[1], x[4], x[5]),
        ops::slip(x[0], x[1], x[6], x[7], x[4], x[9]),
        ops::jump(x[0], x[1], x[6], x[7], x[5], x[9]),
    ]
}

const OPS_NAMES: [&str; OPS_OUT] = [
    "upwind", "van_leer", "tvd_s", "tvd_c", "li", "hi", "slip", "jump",
];

/// One random row in regime `kind` (0..9): generic, flat, nearly flat, w = ±0, linear
/// (r > 0), extremum (r < 0), strongly non-uniform widths, wide magnitudes, Kn = 0.
fn ops_input(g: &mut Lcg, kind: u64) -> [f64; OPS_IN] {
    let mut p = [0.0; 4].map(|_| g.range(-2.0, 2.0));
    let mut h = [0.0; 4].map(|_| g.range(0.1, 2.0));
    let mut w = g.sign() * g.log_uniform(3.0);
    let mut kn = g.log_uniform(3.0);
    match kind {
        1 => p[2] = p[1],
        2 => p[2] = p[1] + g.sign() * p[1].abs().max(1e-3) * g.log_uniform(2.0) * 1e-13,
        3 => w = if g.below(2) == 0 { 0.0 } else { -0.0 },
        4 => {
            let s = g.range(-3.0, 3.0);
            let mut x = 0.0;
            for k in 0..4 {
                p[k] = 0.7 + s * x;
                x += h[k];
            }
        }
        5 => {
            p[1] = p[0].max(p[2]) + g.range(0.01, 1.0);
            p[2] = p[3].max(p[2]) + g.range(0.01, 1.0) - 1.0;
        }
        6 => h = [0.0; 4].map(|_| g.log_uniform(3.0)),
        7 => p = [0.0; 4].map(|_| g.sign() * g.log_uniform(10.0)),
        8 => kn = 0.0,
        _ => {}
    }
    [p[0], p[1], p[2], p[3], h[0], h[1], h[2], h[3], w, kn]
}

#[test]
fn ops_match_reference() {
    const ROWS: usize = 9000;
    let mut g = Lcg(0x0005_eed0_f0b5);
    let mut a = Vec::with_capacity(ROWS * OPS_IN);
    for r in 0..ROWS {
        a.extend_from_slice(&ops_input(&mut g, r as u64 % 9));
    }
    // Hand-picked corners: r = 0, r < 0, exactly flat with w = 0, NaN velocity.
    let extra: [[f64; OPS_IN]; 4] = [
        [1.0, 1.0, 2.0, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.05],
        [-3.0, 1.0, 0.5, 0.0, 0.2, 0.3, 0.4, 0.5, -1.0, 0.05],
        [2.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0],
        [0.3, 1.1, 1.7, 4.0, 0.2, 0.2, 0.2, 0.2, f64::NAN, 1.0],
    ];
    for row in extra {
        a.extend_from_slice(&row);
    }
    let rows = a.len() / OPS_IN;
    let out = {
        let _g = cl_lock();
        let p = fragments_program(6, 5, false);
        p.run_kernel("probe_ops", &[&a], &[], rows * OPS_OUT, rows)
            .unwrap()
    };
    let mut worst = [0u64; OPS_OUT];
    let mut nonzero_tvd = [0usize; 2];
    for r in 0..rows {
        let x = &a[r * OPS_IN..(r + 1) * OPS_IN];
        let want = ops_row(x);
        for k in 0..OPS_OUT {
            let got = out[r * OPS_OUT + k];
            let d = ulps(got, want[k]);
            worst[k] = worst[k].max(d);
            assert!(
                within_tolerance(d),
                "{}: row {r} {x:?}: device {got:e} ({:#x}), Rust {:e} ({:#x}), {d} ulps",
                OPS_NAMES[k],
                got.to_bits(),
                want[k],
                want[k].to_bits()
            );
        }
        nonzero_tvd[0] += (want[2] != 0.0) as usize;
        nonzero_tvd[1] += (want[3] != 0.0) as usize;
    }
    eprintln!("ops: {rows} rows, worst ulps {OPS_NAMES:?} = {worst:?}, nonzero tvd_s/tvd_c {nonzero_tvd:?}");
    // About a third of the rows get a TVD correction (the rest are flat, r < 0 or w = 0).
    assert!(
        nonzero_tvd[0] > rows / 5 && nonzero_tvd[1] > rows / 5,
        "{nonzero_tvd:?}"
    );
}

/// 12 × 10 cells, non-uniform in x, a 3 × 3 square body, inflow/outflow and moving walls (as
/// configs/confined_square_coarse.json).
const SMALL_CASE: &str = r#"{
  "name": "fragments_small",
  "gas": { "kn": 0.05 },
  "grid": {
    "nx": 12, "ny": 10, "x": [0.0, 12.0], "y": [0.0, 10.0],
    "x_faces": [0.0, 0.8, 1.7, 2.5, 3.6, 4.4, 5.0, 6.0, 7.0, 8.0, 8.9, 10.3, 12.0]
  },
  "bodies": [
    { "name": "square", "x": [5.0, 8.0], "y": [4.0, 7.0], "T_wall": 1.0, "wall": "slip" }
  ],
  "boundaries": {
    "west": { "kind": "inflow", "mach": 2.43, "p": 1.0, "T": 1.0 },
    "east": { "kind": "outflow" },
    "south": { "kind": "wall", "velocity": 2.2183, "T": 1.0, "wall": "slip" },
    "north": { "kind": "wall", "velocity": 2.2183, "T": 1.0, "wall": "slip" }
  },
  "initial": { "u": 2.2183, "p": 1.0, "T": 1.0 },
  "scheme": { "convection": "implicit", "interpolation": "tvd" },
  "time": { "dt": 0.01, "steps": 1 },
  "solver": { "max_iters": 5 },
  "output": { "interval": 1 }
}"#;

#[test]
fn density_matches_reference() {
    let case = Case::from_json(SMALL_CASE, "SMALL_CASE").unwrap();
    let mut r = Reference::new(&case);
    let (grid, geom) = (&r.grid, &r.geom);
    let n = grid.len();
    assert!(
        geom.cell.iter().filter(|&&c| c == SOLID).count() >= 9,
        "the body is solid"
    );
    // Perturb: ρ a noisy ramp (mostly smooth, so r > 0 and TVD acts) with some flat pairs
    // and some spikes (r < 0); u and v of both signs and exactly ±0.
    let mut g = Lcg(0xde_75_17);
    let k = &mut r.state.k;
    for ij in 0..n {
        let (i, j) = (ij % grid.nxt, ij / grid.nxt);
        if geom.cell[ij] != SOLID {
            k.rho[ij] = match g.below(8) {
                0 if i > 0 => k.rho[ij - 1],
                1 => g.range(0.5, 1.5),
                _ => 0.8 + 0.05 * i as f64 + 0.03 * j as f64 + g.range(-0.01, 0.01),
            };
        }
        let vel = |g: &mut Lcg| match g.below(8) {
            0 => 0.0,
            1 => -0.0,
            _ => g.range(-1.0, 1.0),
        };
        k.u[ij] = vel(&mut g);
        k.v[ij] = vel(&mut g);
    }
    let (r, k) = (&r, &r.state.k);
    let cell: Vec<i32> = r.geom.cell.iter().map(|&c| c as i32).collect();
    for tvd in [false, true] {
        let out = {
            let _g = cl_lock();
            let p = fragments_program(r.grid.nxt, r.grid.nyt, tvd);
            p.run_kernel(
                "probe_density",
                &[&k.rho, &k.u, &k.v, &r.grid.hx, &r.grid.hy],
                &[&cell],
                2 * n,
                n,
            )
            .unwrap()
        };
        let mut corrected = 0;
        for j in 0..r.grid.nyt {
            for i in 0..r.grid.nxt {
                let ij = r.grid.idx(i, j);
                let want = [
                    density::rho_fc(&r.grid, &r.geom, k, tvd, i, j),
                    density::rho_cf(&r.grid, &r.geom, k, tvd, i, j),
                ];
                for (c, name) in ["rho_fc", "rho_cf"].iter().enumerate() {
                    let got = out[2 * ij + c];
                    let d = ulps(got, want[c]);
                    assert!(
                        within_tolerance(d),
                        "{name}({i},{j}) tvd={tvd}: device {got:e}, Rust {:e}, {d} ulps",
                        want[c]
                    );
                }
                if tvd {
                    let up = density::rho_fc(&r.grid, &r.geom, k, false, i, j);
                    let vp = density::rho_cf(&r.grid, &r.geom, k, false, i, j);
                    corrected += (up != want[0]) as usize + (vp != want[1]) as usize;
                }
            }
        }
        if tvd {
            eprintln!("density: {n} cells, {corrected} faces with a TVD correction");
            assert!(
                corrected > 20,
                "only {corrected} faces got a TVD correction"
            );
        }
    }
    // The perturbation reached every branch: both signs, zero, solid neighbours.
    assert!(k.u.iter().any(|&w| w > 0.0) && k.u.iter().any(|&w| w < 0.0));
    assert!(k.u.contains(&0.0) && k.v.contains(&0.0));
}

/// Definitions `#define name(` with a lower-case name (level-2/3 fragments) in `text`, in order.
fn fragment_macros(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("#define "))
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let lower = name.starts_with(|c: char| c.is_ascii_lowercase());
            (lower && rest[name.len()..].starts_with('(')).then_some(name)
        })
        .collect()
}

/// Names of `pub fn name(` in `text`, in order.
fn pub_fns(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("pub fn "))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

#[test]
fn every_fragment_has_a_rust_twin_in_order() {
    let root = env!("CARGO_MANIFEST_DIR");
    for stem in ["ops", "density"] {
        let cl = std::fs::read_to_string(format!("{root}/cl/{stem}.cl")).unwrap();
        let rs = std::fs::read_to_string(format!("{root}/src/reference/{stem}.rs")).unwrap();
        let macros = fragment_macros(&cl);
        let fns = pub_fns(&rs);
        assert!(!macros.is_empty(), "no fragments in cl/{stem}.cl");
        // Every macro has a twin, and the twins come in the same order.
        let mut at = 0;
        for m in &macros {
            let pos = fns.iter().position(|f| f == m).unwrap_or_else(|| {
                panic!("cl/{stem}.cl defines {m}( but src/reference/{stem}.rs has no pub fn {m}(")
            });
            assert!(
                pos >= at,
                "{m} is out of order in cl/{stem}.cl against src/reference/{stem}.rs: {fns:?}"
            );
            at = pos;
        }
    }
    // The constants cl/ mirrors from Rust.
    let ops_cl = std::fs::read_to_string(format!("{root}/cl/ops.cl")).unwrap();
    let fields_cl = std::fs::read_to_string(format!("{root}/cl/fields.cl")).unwrap();
    let value = |text: &str, name: &str| -> String {
        let prefix = format!("#define {name} ");
        let line = text.lines().find(|l| l.starts_with(&prefix)).unwrap();
        line[prefix.len()..].trim().to_string()
    };
    assert_eq!(
        value(&ops_cl, "EPS_TVD").parse::<f64>().unwrap(),
        ops::EPS_TVD
    );
    assert_eq!(value(&fields_cl, "CELL_FLUID"), FLUID.to_string());
    assert_eq!(value(&fields_cl, "CELL_SOLID"), SOLID.to_string());
    assert_eq!(value(&fields_cl, "CELL_OPEN"), OPEN.to_string());
}

#[test]
fn run_kernel_checks_the_argument_count() {
    let _g = cl_lock();
    let p = fragments_program(6, 5, true);
    let e = p
        .run_kernel("probe_ops", &[&[1.0]], &[&[1]], 8, 1)
        .unwrap_err();
    assert!(e.to_string().contains("kernel signature check"), "{e}");
}
