//! Equation fragments of `cl/` against their Rust twins in `src/methods/simple_ts/reference/` (STYLE §5): each
//! fragment is evaluated on the device through `cl/simple_ts/kernels/probe_fragments.cl` and compared
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

use simplets::device::{build, select_device, BuiltProgram, Defines, DeviceInfo};
use simplets::methods::simple_ts::case::{Case, Compat, Defect, Thermal};
use simplets::methods::simple_ts::geometry::{
    FLUID, F_COPY, F_FIXED, F_NONE, F_PERIODIC, F_SOLVED, OPEN, SOLID,
};
use simplets::methods::simple_ts::reference::{
    bc, density, energy, momentum, ops, pressure, Ctx, Explicit, Reference, Work,
};

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

/// The fragment probe program for a grid of `nxt` × `nyt` stored cells, with placeholder
/// case constants (the ops and density fragments use none of them).
fn fragments_program(nxt: usize, nyt: usize, tvd: bool) -> BuiltProgram {
    let d = Defines::new()
        .int("CFG_NXT", nxt as i64)
        .int("CFG_NYT", nyt as i64)
        .int("CFG_TVD", tvd as i64)
        .int("CFG_EXPLICIT", 0);
    let d = [
        "CFG_A", "CFG_B", "CFG_CT1", "CFG_CT2", "CFG_CT3", "CFG_KN", "CFG_DT",
    ]
    .iter()
    .fold(d, |d, name| d.real(name, 0.5))
    .reals("CFG_WALL_SIGMA_U", &[])
    .reals("CFG_WALL_SIGMA_T", &[])
    .int("CFG_COMPAT_SWAPPED_U", 0);
    let d = default_switches(d);
    build(
        device(),
        &simplets::methods::simple_ts::opencl::source::fragments().assemble(),
        &d,
        None,
    )
    .unwrap()
}

/// The switches of the fragments that the probes run off: the corrected Γc and adiabatic
/// walls, no slot values, no stored east outer face (tests/cpp_opencl.rs runs them on).
fn default_switches(d: Defines) -> Defines {
    [
        "CFG_COMPAT_GAMMA3",
        "CFG_COMPAT_SLOTS",
        "CFG_COMPAT_ADIABATIC_LAG",
        "CFG_EAST_OUTER",
    ]
    .iter()
    .fold(d, |d, name| d.int(name, 0))
}

/// The fragment probe program for the case of `r` with its constants and scheme switches.
fn case_program(r: &Reference) -> BuiltProgram {
    let c = &r.p.c;
    let walls = |f: fn(&simplets::methods::simple_ts::geometry::Wall) -> f64| {
        r.p.geo.walls.iter().map(f).collect::<Vec<_>>()
    };
    let d = Defines::new()
        .int("CFG_NXT", r.p.grid.nxt as i64)
        .int("CFG_NYT", r.p.grid.nyt as i64)
        .int("CFG_TVD", r.tvd as i64)
        .int("CFG_EXPLICIT", r.explicit as i64)
        .real("CFG_A", c.a)
        .real("CFG_B", c.b)
        .real("CFG_CT1", c.ct1)
        .real("CFG_CT2", c.ct2)
        .real("CFG_CT3", c.ct3)
        .real("CFG_KN", c.kn)
        .reals("CFG_WALL_SIGMA_U", &walls(|w| w.sigma_u))
        .reals("CFG_WALL_SIGMA_T", &walls(|w| w.sigma_t))
        .real("CFG_DT", r.dt)
        .int(
            "CFG_COMPAT_SWAPPED_U",
            i64::from(r.p.geo.compat.has(Defect::SwappedUWallFlags)),
        );
    let d = default_switches(d);
    build(
        device(),
        &simplets::methods::simple_ts::opencl::source::fragments().assemble(),
        &d,
        None,
    )
    .unwrap()
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
const OPS_OUT: usize = 10;

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
        ops::rho_eos(x[6], x[7]),
        ops::gam_eos(x[7]),
    ]
}

const OPS_NAMES: [&str; OPS_OUT] = [
    "upwind", "van_leer", "tvd_s", "tvd_c", "li", "hi", "slip", "jump", "rho_eos", "gam_eos",
];

/// The context of `r` with TVD on or off (the density fragments read `tvd` from it).
fn ctx_tvd(r: &Reference, tvd: bool) -> Ctx<'_> {
    Ctx { tvd, ..r.ctx() }
}

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
    let (grid, geom) = (&r.p.grid, &r.p.geo);
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
    let cell: Vec<i32> = r.p.geo.cell.iter().map(|&c| c as i32).collect();
    for tvd in [false, true] {
        let out = {
            let _g = cl_lock();
            let p = fragments_program(r.p.grid.nxt, r.p.grid.nyt, tvd);
            p.run_kernel(
                "probe_density",
                &[&k.rho, &k.u, &k.v, &r.p.grid.hx, &r.p.grid.hy],
                &[&cell],
                4 * n,
                n,
            )
            .unwrap()
        };
        let mut corrected = 0;
        let x = ctx_tvd(r, tvd);
        for j in 0..r.p.grid.nyt {
            for i in 0..r.p.grid.nxt {
                let ij = r.p.grid.idx(i, j);
                let (ru, rv) = (density::rho_fc(&x, i, j), density::rho_cf(&x, i, j));
                let want = [
                    ru,
                    rv,
                    density::Fx_fc(&x, ru, i, j),
                    density::Fy_cf(&x, rv, i, j),
                ];
                for (c, name) in ["rho_fc", "rho_cf", "Fx_fc", "Fy_cf"].iter().enumerate() {
                    let got = out[4 * ij + c];
                    let d = ulps(got, want[c]);
                    assert!(
                        within_tolerance(d),
                        "{name}({i},{j}) tvd={tvd}: device {got:e}, Rust {:e}, {d} ulps",
                        want[c]
                    );
                }
                if tvd {
                    let up = density::rho_fc(&ctx_tvd(r, false), i, j);
                    let vp = density::rho_cf(&ctx_tvd(r, false), i, j);
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

/// The SMALL_CASE reference with every field of iterate k and level n perturbed (smooth ramps
/// with noise, flat pairs, spikes, velocities of both signs and ±0), random wall records, and
/// the face densities and fluxes rebuilt for its scheme.
fn perturbed_case(seed: u64) -> Reference {
    let case = Case::from_json(SMALL_CASE, "SMALL_CASE").unwrap();
    let mut r = Reference::new(&case);
    let mut g = Lcg(seed);
    let (nxt, n) = (r.p.grid.nxt, r.p.grid.len());
    let scalar = |g: &mut Lcg, base: f64, ij: usize, prev: f64| {
        let (i, j) = ((ij % nxt) as f64, (ij / nxt) as f64);
        match g.below(8) {
            0 => prev,
            1 => base * g.range(0.5, 1.5),
            _ => base * (0.8 + 0.05 * i + 0.03 * j + g.range(-0.01, 0.01)),
        }
    };
    let vel = |g: &mut Lcg| match g.below(8) {
        0 => 0.0,
        1 => -0.0,
        _ => g.range(-1.0, 1.0),
    };
    for f in [&mut r.state.k, &mut r.state.n] {
        for ij in 0..n {
            if r.p.geo.cell[ij] != SOLID {
                let prev = |a: &[f64]| if ij > 0 { a[ij - 1] } else { a[ij] };
                f.rho[ij] = scalar(&mut g, 1.0, ij, prev(&f.rho));
                f.p[ij] = scalar(&mut g, 1.0, ij, prev(&f.p));
                f.T[ij] = scalar(&mut g, 1.0, ij, prev(&f.T));
                // Not √T, so a mix-up of Γ and √T shows.
                f.Gam[ij] = scalar(&mut g, 1.0, ij, prev(&f.Gam));
            }
            f.u[ij] = vel(&mut g);
            f.v[ij] = vel(&mut g);
        }
    }
    for w in &mut std::sync::Arc::make_mut(&mut r.p).geo.walls {
        w.u = g.range(-1.0, 1.0);
        w.v = g.range(-1.0, 1.0);
        w.t = g.range(0.5, 1.5);
    }
    r.update_fluxes();
    r
}

/// Give wall m the temperature condition `[Jump, Fixed, Adiabatic][(m + rot) % 3]`, slip on
/// for even `m / 3 + rot` (every pairing of slip and temperature condition over the rotations
/// of a case with three walls or more), and σ_u, σ_T of its own.
fn rotate_wall_bcs(r: &mut Reference, rot: usize) {
    let thermal = [Thermal::Jump, Thermal::Fixed, Thermal::Adiabatic];
    for (m, w) in std::sync::Arc::make_mut(&mut r.p)
        .geo
        .walls
        .iter_mut()
        .enumerate()
    {
        w.thermal = thermal[(m + rot) % 3];
        w.slip = (m / 3 + rot) % 2 == 0;
        w.sigma_u = 0.5 + 0.37 * m as f64;
        w.sigma_t = 1.0 + 0.29 * m as f64;
    }
}

/// The arrays of `PROBE_CASE_REALS` and `PROBE_CASE_INTS` (cl/simple_ts/kernels/probe_fragments.cl).
struct CaseArrays {
    reals: Vec<Vec<f64>>,
    ints: Vec<Vec<i32>>,
}

impl CaseArrays {
    /// `cu`, `cv`, `ct`: the explicit convective terms (zeros when unused).
    fn new(r: &Reference, cu: &[f64], cv: &[f64], ct: &[f64]) -> CaseArrays {
        let (k, n, f, geo) = (&r.state.k, &r.state.n, &r.flux, &r.p.geo);
        let walls = |get: fn(&simplets::methods::simple_ts::geometry::Wall) -> f64| {
            geo.walls.iter().map(get).collect()
        };
        let ints = |a: &[u8]| a.iter().map(|&c| c as i32).collect();
        CaseArrays {
            reals: vec![
                k.u.clone(),
                k.v.clone(),
                k.p.clone(),
                k.T.clone(),
                k.rho.clone(),
                k.Gam.clone(),
                n.u.clone(),
                n.v.clone(),
                n.p.clone(),
                n.T.clone(),
                n.rho.clone(),
                f.rho_u.clone(),
                f.rho_v.clone(),
                f.Fx.clone(),
                f.Fy.clone(),
                r.p.grid.hx.clone(),
                r.p.grid.hy.clone(),
                walls(|w| w.u),
                walls(|w| w.v),
                walls(|w| w.t),
                cu.to_vec(),
                cv.to_vec(),
                ct.to_vec(),
            ],
            ints: vec![
                ints(&geo.cell),
                geo.wall_of.iter().map(|&w| w as i32).collect(),
                geo.walls.iter().map(|w| w.code()).collect(),
                ints(&geo.u_face),
                ints(&geo.v_face),
            ],
        }
    }

    /// Run probe `name` with these arrays, then `extra` reals, one work-item per stored cell,
    /// `per_cell` outputs each.
    fn run(&self, p: &BuiltProgram, name: &str, extra: &[&[f64]], per_cell: usize) -> Vec<f64> {
        let n = self.ints[0].len();
        let mut reals: Vec<&[f64]> = self.reals.iter().map(|v| v.as_slice()).collect();
        reals.extend_from_slice(extra);
        let ints: Vec<&[i32]> = self.ints.iter().map(|v| v.as_slice()).collect();
        p.run_kernel(name, &reals, &ints, per_cell * n, n).unwrap()
    }
}

/// Compare one device value with its Rust twin, naming the fragment and place on failure.
fn check(name: &str, i: usize, j: usize, got: f64, want: f64, worst: &mut u64) {
    let d = ulps(got, want);
    *worst = (*worst).max(d);
    assert!(
        within_tolerance(d),
        "{name}({i},{j}): device {got:e} ({:#x}), Rust {want:e} ({:#x}), {d} ulps",
        got.to_bits(),
        want.to_bits()
    );
}

#[test]
fn bc_matches_reference() {
    const BC_OUT: usize = 7;
    let names = [
        "u_wall_gas",
        "v_wall_gas",
        "T_wall_gas",
        "gam_col",
        "gam_row",
        "gam_c",
        "gam_c2",
    ];
    let mut r = perturbed_case(0xb0_c0);
    let mut worst = [0u64; BC_OUT];
    let mut compared = [0usize; BC_OUT];
    for rot in 0..3 {
        rotate_wall_bcs(&mut r, rot);
        let a = CaseArrays::new(&r, &[0.0], &[0.0], &[0.0]);
        let out = {
            let _g = cl_lock();
            a.run(&case_program(&r), "probe_bc", &[], BC_OUT)
        };
        let (x, g) = (r.ctx(), &r.p.grid);
        for j in 1..g.nyt {
            for i in 1..g.nxt {
                let ij = g.idx(i, j);
                let want = [
                    bc::u_wall_gas(&x, i, j, i, j - 1, 0.5 * g.hy[j]),
                    bc::v_wall_gas(&x, i, j, i - 1, j, 0.5 * g.hx[i]),
                    bc::T_wall_gas(&x, i, j, i, j - 1, 0.5 * g.hy[j]),
                    bc::gam_col(&x, i, j),
                    bc::gam_row(&x, i, j),
                    bc::gam_c(&x, i, j),
                    bc::gam_c2(&x, i, j),
                ];
                for (c, &w) in want.iter().enumerate() {
                    check(names[c], i, j, out[BC_OUT * ij + c], w, &mut worst[c]);
                    compared[c] += 1;
                }
            }
        }
    }
    eprintln!("bc: worst ulps {names:?} = {worst:?}, compared {compared:?}");
}

#[test]
fn momentum_matches_reference() {
    const MOM_OUT: usize = 6;
    let names = ["u_hat", "d_u", "c_u_fc", "v_hat", "d_v", "c_v_cf"];
    let mut r = perturbed_case(0x30_3e);
    let n = r.p.grid.len();
    let mut worst = [0u64; MOM_OUT];
    let mut compared = [0usize; MOM_OUT];
    let (mut tvd_faces, mut swapped_faces) = (0, 0);
    // The last pass turns on compat swapped_u_wall_flags (implicit upwind, as compat requires).
    for (scheme, rot, swapped) in [
        (0, 0, false),
        (1, 1, false),
        (2, 2, false),
        (3, 0, false),
        (0, 1, true),
    ] {
        (r.explicit, r.tvd) = (scheme & 1 == 1, scheme & 2 == 2);
        rotate_wall_bcs(&mut r, rot);
        std::sync::Arc::make_mut(&mut r.p).geo.compat = if swapped {
            Compat::default().with(Defect::SwappedUWallFlags)
        } else {
            Compat::default()
        };
        r.update_fluxes();
        let (mut cu, mut cv) = (vec![0.0; n], vec![0.0; n]);
        momentum::convective_u(&r.ctx(), &mut cu);
        momentum::convective_v(&r.ctx(), &mut cv);
        let a = CaseArrays::new(&r, &cu, &cv, &[0.0]);
        r.ex = Explicit { cu, cv, ct: vec![] };
        let out = {
            let _g = cl_lock();
            a.run(&case_program(&r), "probe_momentum", &[], MOM_OUT)
        };
        let (x, g, geo) = (r.ctx(), &r.p.grid, &r.p.geo);
        for j in 1..g.nyt {
            for i in 1..g.nxt {
                let ij = g.idx(i, j);
                let mut want = [None; MOM_OUT];
                if j <= g.ny && geo.u_face[ij] == F_SOLVED {
                    let (uh, du) = momentum::u_hat_d_u(&x, i, j);
                    want[0..3].copy_from_slice(&[
                        Some(uh),
                        Some(du),
                        Some(momentum::c_u_fc(&x, i, j)),
                    ]);
                    tvd_faces += (0..4).any(|f| momentum::u_tvd(&x, i, j, f, 1.0) != 0.0) as usize;
                    swapped_faces += usize::from(
                        swapped && ((i >= 2 && geo.solid(ij - 2)) || geo.solid(ij + 1)),
                    );
                }
                if i <= g.nx && geo.v_face[ij] == F_SOLVED {
                    let (vh, dv) = momentum::v_hat_d_v(&x, i, j);
                    want[3..6].copy_from_slice(&[
                        Some(vh),
                        Some(dv),
                        Some(momentum::c_v_cf(&x, i, j)),
                    ]);
                    tvd_faces += (0..4).any(|f| momentum::v_tvd(&x, i, j, f, 1.0) != 0.0) as usize;
                }
                for (c, w) in want.iter().enumerate() {
                    if let Some(w) = *w {
                        check(names[c], i, j, out[MOM_OUT * ij + c], w, &mut worst[c]);
                        compared[c] += 1;
                    }
                }
            }
        }
    }
    eprintln!("momentum (4 schemes and compat): worst ulps {names:?} = {worst:?}, compared {compared:?}, {tvd_faces} faces with a TVD stencil, {swapped_faces} in the C++ wall branch");
    assert!(compared.iter().all(|&c| c > 100), "{compared:?}");
    // The body's two vertical faces, three cells high in this case.
    assert!(swapped_faces >= 6, "{swapped_faces}");
}

/// (scheme, wall rotation, Δt) of the energy and pressure probes: bit 0 of the scheme is
/// explicit, bit 1 TVD.
const SCHEMES_DT: [(u32, usize, f64); 8] = [
    (0, 0, 0.01),
    (1, 1, 0.01),
    (2, 2, 0.01),
    (3, 0, 0.01),
    (0, 1, 10.0),
    (1, 2, 10.0),
    (2, 0, 10.0),
    (3, 1, 10.0),
];

/// The loop-3 coefficients of `r` as the reference builds them, with the explicit term C_T
/// from `energy::convective_T` (into `r.ex`), the old T and p of the first sweep (iterate k),
/// and, for the pressure, random û, d_u, v̂, d_v on every face (into `r.ps`; the pressure
/// fragments are pure functions of them).
fn loop3_work(r: &mut Reference, g: &mut Lcg) -> Work {
    let mut ct = vec![0.0; r.p.grid.len()];
    energy::convective_T(&r.ctx(), &mut ct);
    r.ex.ct = ct;
    for a in [&mut r.ps.u_hat, &mut r.ps.v_hat] {
        a.iter_mut().for_each(|v| *v = g.range(-1.0, 1.0));
    }
    for a in [&mut r.ps.d_u, &mut r.ps.d_v] {
        a.iter_mut().for_each(|v| *v = g.log_uniform(2.0));
    }
    let mut w = r.work.clone();
    let x = r.ctx();
    energy::energy_coeffs(&x, &mut w);
    pressure::pressure_coeffs(&x, &mut w);
    w.T_old.clone_from(&r.state.k.T);
    w.p_old.clone_from(&r.state.k.p);
    w
}

/// Fluid cells of `r` with a solid neighbour (wall faces of the energy CV), and of those with
/// an adiabatic one.
fn wall_cells(r: &Reference) -> (usize, usize) {
    let (g, geo) = (&r.p.grid, &r.p.geo);
    let (mut walls, mut adiabatic) = (0, 0);
    for j in 1..=g.ny {
        for i in 1..=g.nx {
            let p = g.idx(i, j);
            if geo.cell[p] != FLUID {
                continue;
            }
            let nbs = [p - 1, p + 1, p - g.nxt, p + g.nxt];
            walls += nbs.iter().any(|&q| geo.solid(q)) as usize;
            adiabatic += nbs
                .iter()
                .any(|&q| geo.solid(q) && geo.wall(q).thermal == Thermal::Adiabatic)
                as usize;
        }
    }
    (walls, adiabatic)
}

#[test]
fn energy_matches_reference() {
    const EN_OUT: usize = 10;
    let names = [
        "tW_cc", "tE_cc", "tS_cc", "tN_cc", "tP_cc", "tB_cc", "tDiv_cc", "T_cc", "c_T_cc",
        "T_NEW_CC",
    ];
    let mut r = perturbed_case(0xe7_e7);
    let mut g = Lcg(0xe7);
    let mut worst = [0u64; EN_OUT];
    let mut compared = [0usize; EN_OUT];
    let (mut walls, mut adiabatic) = (0, 0);
    // Δt = 10 as well as the case's 0.01, so that the Δt-scaled terms dominate ρV and pⁿV/Tⁿ
    // and a rounding difference in them is not absorbed.
    for (scheme, rot, dt) in SCHEMES_DT {
        (r.explicit, r.tvd, r.dt) = (scheme & 1 == 1, scheme & 2 == 2, dt);
        rotate_wall_bcs(&mut r, rot);
        r.update_fluxes();
        let w = loop3_work(&mut r, &mut g);
        let a = CaseArrays::new(&r, &[0.0], &[0.0], &r.ex.ct);
        let out = {
            let _g = cl_lock();
            a.run(&case_program(&r), "probe_energy", &[], EN_OUT)
        };
        let (x, gr) = (r.ctx(), &r.p.grid);
        for j in 1..=gr.ny {
            for i in 1..=gr.nx {
                let p = gr.idx(i, j);
                if r.p.geo.cell[p] != FLUID {
                    continue;
                }
                let want = [
                    w.tW[p],
                    w.tE[p],
                    w.tS[p],
                    w.tN[p],
                    w.tP[p],
                    w.tB[p],
                    w.tDiv[p],
                    energy::T_cc(
                        &x, &w.T_old, &w.p_old, i, j, w.tW[p], w.tE[p], w.tS[p], w.tN[p], w.tP[p],
                        w.tB[p], w.tDiv[p],
                    ),
                    energy::c_T_cc(&x, i, j),
                    energy::T_new_cc(&x, &r.state.k.T, &r.state.k.p, i, j),
                ];
                for (c, &v) in want.iter().enumerate() {
                    check(names[c], i, j, out[EN_OUT * p + c], v, &mut worst[c]);
                    compared[c] += 1;
                }
            }
        }
        let (wc, ac) = wall_cells(&r);
        (walls, adiabatic) = (walls + wc, adiabatic + ac);
    }
    eprintln!("energy (4 schemes, 2 time steps): worst ulps {names:?} = {worst:?}, compared {compared:?}, {walls} cells at a wall ({adiabatic} adiabatic)");
    assert!(compared.iter().all(|&c| c > 100), "{compared:?}");
    assert!(walls > 20 && adiabatic > 5, "{walls} {adiabatic}");
}

#[test]
fn pressure_matches_reference() {
    const PR_OUT: usize = 10;
    let names = [
        "pW_cc",
        "pE_cc",
        "pS_cc",
        "pN_cc",
        "pD_cc",
        "pB_cc",
        "p_cc",
        "u_corr_fc",
        "v_corr_cf",
        "p_new_cc",
    ];
    let mut r = perturbed_case(0x9e_55);
    let mut g = Lcg(0x9e);
    let n = r.p.grid.len();
    let mut worst = [0u64; PR_OUT];
    let mut compared = [0usize; PR_OUT];
    let mut unsolved = 0;
    // Δt = 10 as well as the case's 0.01, so that the Δt-scaled terms dominate ρV and pⁿV/Tⁿ
    // and a rounding difference in them is not absorbed.
    for (scheme, rot, dt) in SCHEMES_DT {
        (r.explicit, r.tvd, r.dt) = (scheme & 1 == 1, scheme & 2 == 2, dt);
        rotate_wall_bcs(&mut r, rot);
        r.update_fluxes();
        let w = loop3_work(&mut r, &mut g);
        let (gr, x) = (&r.p.grid, r.ctx());
        // T of the first sweep, as loop 3 hands it to p_cc.
        let mut t_new = vec![0.0; n];
        for j in 1..=gr.ny {
            for i in 1..=gr.nx {
                let p = gr.idx(i, j);
                if r.p.geo.cell[p] == FLUID {
                    t_new[p] = energy::T_cc(
                        &x, &w.T_old, &w.p_old, i, j, w.tW[p], w.tE[p], w.tS[p], w.tN[p], w.tP[p],
                        w.tB[p], w.tDiv[p],
                    );
                }
            }
        }
        let a = CaseArrays::new(&r, &[0.0], &[0.0], &[0.0]);
        let ps = &r.ps;
        let extra: [&[f64]; 5] = [&ps.u_hat, &ps.d_u, &ps.v_hat, &ps.d_v, &t_new];
        let out = {
            let _g = cl_lock();
            a.run(&case_program(&r), "probe_pressure", &extra, PR_OUT)
        };
        let k = &r.state.k;
        for j in 0..gr.nyt {
            for i in 0..gr.nxt {
                let p = gr.idx(i, j);
                let mut want = [None; PR_OUT];
                if (1..=gr.nx).contains(&i) && (1..=gr.ny).contains(&j) && r.p.geo.cell[p] == FLUID
                {
                    want[0..7].copy_from_slice(&[
                        Some(w.pW[p]),
                        Some(w.pE[p]),
                        Some(w.pS[p]),
                        Some(w.pN[p]),
                        Some(w.pD[p]),
                        Some(w.pB[p]),
                        Some(pressure::p_cc(
                            &x, &w.p_old, i, j, w.pW[p], w.pE[p], w.pS[p], w.pN[p], w.pD[p],
                            w.pB[p], t_new[p],
                        )),
                    ]);
                    want[9] = Some(pressure::p_new_cc(&x, &k.p, i, j, t_new[p]));
                    let faces = [
                        r.p.geo.u_face[p],
                        r.p.geo.u_face[p + 1],
                        r.p.geo.v_face[p],
                        r.p.geo.v_face[p + gr.nxt],
                    ];
                    unsolved += faces.iter().any(|&f| f != F_SOLVED) as usize;
                }
                if i >= 1 {
                    want[7] = Some(pressure::u_corr_fc(&x, &k.p, i, j));
                }
                if j >= 1 {
                    want[8] = Some(pressure::v_corr_cf(&x, &k.p, i, j));
                }
                for (c, v) in want.iter().enumerate() {
                    if let Some(v) = *v {
                        check(names[c], i, j, out[PR_OUT * p + c], v, &mut worst[c]);
                        compared[c] += 1;
                    }
                }
            }
        }
    }
    eprintln!("pressure (4 schemes, 2 time steps): worst ulps {names:?} = {worst:?}, compared {compared:?}, {unsolved} cells with an unsolved face");
    assert!(compared.iter().all(|&c| c > 100), "{compared:?}");
    assert!(unsolved > 20, "{unsolved}");
}

/// Definitions `#define name(` of level-2/3 fragments in `text`, in order: names with a
/// lower-case letter (`tW_cc`, and spec symbols such as `T_cc`, `T_wall_gas`); all-capital
/// names are accessors and private helpers (`RHO`, `M_U`).
fn fragment_macros(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.trim_start().strip_prefix("#define "))
        .filter_map(|rest| {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let lower = name.contains(|c: char| c.is_ascii_lowercase());
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
    for stem in ["ops", "density", "bc", "momentum", "energy", "pressure"] {
        let cl = std::fs::read_to_string(format!("{root}/cl/simple_ts/{stem}.cl")).unwrap();
        // A twin file, or a folder of them read in the order of the .cl file's parts.
        let dir = format!("{root}/src/methods/simple_ts/reference");
        let rs = match std::fs::read_to_string(format!("{dir}/{stem}.rs")) {
            Ok(text) => text,
            Err(_) => ["u", "v"]
                .map(|part| std::fs::read_to_string(format!("{dir}/{stem}/{part}.rs")).unwrap())
                .concat(),
        };
        let macros = fragment_macros(&cl);
        let fns = pub_fns(&rs);
        assert!(!macros.is_empty(), "no fragments in cl/{stem}.cl");
        // Every macro has a twin, and the twins come in the same order.
        let mut at = 0;
        for m in &macros {
            let pos = fns.iter().position(|f| f == m).unwrap_or_else(|| {
                panic!("cl/{stem}.cl defines {m}( but src/methods/simple_ts/reference/{stem}.rs has no pub fn {m}(")
            });
            assert!(
                pos >= at,
                "{m} is out of order in cl/{stem}.cl against src/methods/simple_ts/reference/{stem}.rs: {fns:?}"
            );
            at = pos;
        }
    }
    // The statement sequences every loop-2 form uses have Rust twins of the lower-case name.
    for (stem, seq, twin) in [
        ("momentum", "U_HAT_D_U", "u_hat_d_u"),
        ("momentum", "V_HAT_D_V", "v_hat_d_v"),
        ("energy", "T_NEW_CC", "T_new_cc"),
    ] {
        let cl = std::fs::read_to_string(format!("{root}/cl/simple_ts/{stem}.cl")).unwrap();
        assert!(
            cl.contains(&format!("#define {seq}(")),
            "cl/simple_ts/{stem}.cl lacks {seq}"
        );
        let dir = format!("{root}/src/methods/simple_ts/reference");
        let rs = std::fs::read_to_string(format!("{dir}/{stem}.rs"))
            .or_else(|_| std::fs::read_to_string(format!("{dir}/{stem}/u.rs")))
            .unwrap()
            + &std::fs::read_to_string(format!("{dir}/{stem}/v.rs")).unwrap_or_default();
        assert!(
            rs.contains(&format!("pub fn {twin}(")),
            "no Rust twin {twin} of {seq}"
        );
    }
    // Every kernel form evaluates the equations through these fragments, not inline copies.
    for kernel in ["jacobi", "iterate_fused"] {
        let text =
            std::fs::read_to_string(format!("{root}/cl/simple_ts/kernels/{kernel}.cl")).unwrap();
        for used in [
            "U_HAT_D_U",
            "V_HAT_D_V",
            "T_NEW_CC",
            "p_new_cc",
            "u_corr_fc",
            "v_corr_cf",
            "rho_eos",
        ] {
            assert!(
                text.contains(used),
                "cl/simple_ts/kernels/{kernel}.cl does not use {used}"
            );
        }
        for inline in ["aW_u_fc", "tW_cc", "pW_cc", "/ tt", "sqrt(t"] {
            assert!(
                !text.contains(inline),
                "cl/simple_ts/kernels/{kernel}.cl evaluates {inline} inline"
            );
        }
    }
    // The constants cl/ mirrors from Rust.
    let ops_cl = std::fs::read_to_string(format!("{root}/cl/simple_ts/ops.cl")).unwrap();
    let fields_cl = std::fs::read_to_string(format!("{root}/cl/simple_ts/fields.cl")).unwrap();
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
    for (name, v) in [
        ("F_SOLVED", F_SOLVED),
        ("F_FIXED", F_FIXED),
        ("F_COPY", F_COPY),
        ("F_PERIODIC", F_PERIODIC),
        ("F_NONE", F_NONE),
    ] {
        assert_eq!(value(&fields_cl, name), v.to_string());
    }
    for (name, t) in [
        ("THERMAL_JUMP", Thermal::Jump),
        ("THERMAL_FIXED", Thermal::Fixed),
        ("THERMAL_ADIABATIC", Thermal::Adiabatic),
    ] {
        assert_eq!(value(&fields_cl, name), (t as i32).to_string());
    }
    // Wall::code: bit 0 slip, the thermal condition above it.
    let mut w = simplets::methods::simple_ts::geometry::Wall {
        u: 0.0,
        v: 0.0,
        t: 1.0,
        slip: true,
        thermal: Thermal::Adiabatic,
        sigma_u: 1.0,
        sigma_t: 1.0,
    };
    assert_eq!(value(&fields_cl, "WALL_SLIP_BIT"), "1");
    assert_eq!(w.code(), 1 | 2 << 1);
    w.slip = false;
    w.thermal = Thermal::Fixed;
    assert_eq!(w.code(), 1 << 1);
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
