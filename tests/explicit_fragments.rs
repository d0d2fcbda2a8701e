//! The fragments of the explicit methods (`cl/shll/`, `cl/convection/`,
//! `cl/explicit/update.cl`) against their Rust twins (`methods/shll/`,
//! `methods/convection/ftbs.rs`, `methods/explicit/update.rs`): every fragment is evaluated on
//! the device through its probe kernel (`cl/explicit/probe.cl`) on random and edge-case
//! arguments and compared bit for bit.
//!
//! Allowed difference: 0 ulps. The programs are built with `FP_CONTRACT OFF`, the macros keep
//! the Rust operation order, and OpenCL's FP64 `+ − × ÷ √`, `fabs`, `fmin`, `fmax` are
//! correctly rounded or exact; so every result must be the same double (NaN compared as NaN).

use std::sync::{Mutex, MutexGuard, OnceLock};

use simplets::device::{build, select_device, BuiltProgram, Defines, DeviceInfo};
use simplets::methods::convection::ftbs;
use simplets::methods::explicit::update;
use simplets::methods::shll::{euler, muscl, shallow_water as sw, split, transport};

fn cl_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn device() -> &'static DeviceInfo {
    static DEV: OnceLock<DeviceInfo> = OnceLock::new();
    DEV.get_or_init(|| select_device(None).expect("an FP64 OpenCL device (PoCL in CI)"))
}

/// The constants of one probe build.
#[derive(Clone, Copy)]
struct Consts {
    gamma: f64,
    phi_dry: f64,
    d: f64,
    clamp: bool,
    van_leer: bool,
    nu: f64,
    cfl: f64,
    t_end: f64,
}

fn program(c: Consts) -> BuiltProgram {
    let d = Defines::new()
        .int("CFG_NXT", 1)
        .int("CFG_NYT", 1)
        .real("CFG_GAMMA", c.gamma)
        .real("CFG_PHI_DRY", c.phi_dry)
        .real("CFG_D", c.d)
        .int("CFG_CLAMP_CHI", i64::from(c.clamp))
        .int("CFG_LIMITER", i64::from(c.van_leer))
        .real("CFG_NU", c.nu)
        .real("CFG_CFL", c.cfl)
        .real("CFG_T_END", c.t_end);
    build(
        device(),
        &simplets::methods::explicit::source::probe().assemble(),
        &d,
        None,
    )
    .expect("the probe program builds")
}

/// Deterministic pseudo-random doubles: a mix of magnitudes and signs, with the edge values
/// every fragment must get right (0, −0, ±1, tiny, huge, NaN, ±∞, equal pairs).
fn args(n: usize, arity: usize, seed: u64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let edge = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        1e-300,
        1e300,
        0.5,
        2.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
    ];
    (0..n * arity)
        .map(|k| {
            if k < edge.len() * arity && k % 3 == 0 {
                edge[(k / 3) % edge.len()]
            } else {
                let m = 10f64.powf(6.0 * next() - 3.0);
                if next() < 0.3 {
                    -m
                } else {
                    m
                }
            }
        })
        .collect()
}

/// Run probe `name` on `n` argument tuples and compare with `twin` bit for bit.
fn check(b: &BuiltProgram, name: &str, arity: usize, twin: impl Fn(&[f64]) -> f64) {
    let n = 4096;
    let a = args(n, arity, name.len() as u64 * 7919);
    let out = b
        .run_probe(&format!("probe_{name}"), &a, n)
        .expect("probe runs");
    for k in 0..n {
        let x = &a[k * arity..(k + 1) * arity];
        let want = twin(x);
        let same = want.to_bits() == out[k].to_bits() || (want.is_nan() && out[k].is_nan());
        assert!(same, "{name}{x:?}: device {:e}, Rust {want:e}", out[k]);
    }
}

fn check_all(c: Consts) {
    let _g = cl_lock();
    let b = program(c);
    let (g, pd, d, cl, vl, nu) = (c.gamma, c.phi_dry, c.d, c.clamp, c.van_leer, c.nu);
    check(&b, "euler_p", 5, |x| {
        euler::euler_p(g, x[0], x[1], x[2], x[3], x[4])
    });
    check(&b, "euler_a", 2, |x| euler::euler_a(g, x[0], x[1]));
    check(&b, "euler_f_mn", 3, |x| euler::euler_f_mn(x[0], x[1], x[2]));
    check(&b, "euler_f_mt", 2, |x| euler::euler_f_mt(x[0], x[1]));
    check(&b, "euler_f_e", 3, |x| euler::euler_f_e(x[0], x[1], x[2]));
    check(&b, "sw_wet", 1, |x| {
        f64::from(u8::from(sw::sw_wet(pd, x[0])))
    });
    check(&b, "sw_vel", 2, |x| sw::sw_vel(pd, x[0], x[1]));
    check(&b, "sw_vel_of", 3, |x| sw::sw_vel_of(pd, x[0], x[1], x[2]));
    check(&b, "sw_a", 1, |x| sw::sw_a(x[0]));
    check(&b, "sw_f_phi", 2, |x| sw::sw_f_phi(x[0], x[1]));
    check(&b, "sw_f_mn", 3, |x| sw::sw_f_mn(x[0], x[1], x[2]));
    check(&b, "sw_f_mt", 2, |x| sw::sw_f_mt(x[0], x[1]));
    check(&b, "shll_clamp1", 1, |x| split::shll_clamp1(x[0]));
    check(&b, "shll_chi", 2, |x| split::shll_chi(cl, x[0], x[1]));
    check(&b, "shll_d", 1, |x| split::shll_d(d, x[0]));
    check(&b, "shll_plus", 4, |x| {
        split::shll_plus(d, x[0], x[1], x[2], x[3])
    });
    check(&b, "shll_minus", 4, |x| {
        split::shll_minus(d, x[0], x[1], x[2], x[3])
    });
    check(&b, "hll_sl", 4, |x| split::hll_sl(x[0], x[1], x[2], x[3]));
    check(&b, "hll_sr", 4, |x| split::hll_sr(x[0], x[1], x[2], x[3]));
    check(&b, "hll_flux", 6, |x| {
        split::hll_flux(x[0], x[1], x[2], x[3], x[4], x[5])
    });
    check(&b, "rusanov_s", 4, |x| {
        split::rusanov_s(x[0], x[1], x[2], x[3])
    });
    check(&b, "rusanov_flux", 5, |x| {
        split::rusanov_flux(x[0], x[1], x[2], x[3], x[4])
    });
    check(&b, "minmod", 2, |x| muscl::minmod(x[0], x[1]));
    check(&b, "van_leer", 2, |x| muscl::van_leer(x[0], x[1]));
    check(&b, "muscl_slope", 3, |x| {
        muscl::muscl_slope(vl, x[0], x[1], x[2])
    });
    check(&b, "muscl_plus", 2, |x| muscl::muscl_plus(x[0], x[1]));
    check(&b, "muscl_minus", 2, |x| muscl::muscl_minus(x[0], x[1]));
    check(&b, "cd_diff_flux", 3, |x| {
        transport::cd_diff_flux(nu, x[0], x[1], x[2])
    });
    check(&b, "cd_rate", 2, |x| transport::cd_rate(nu, x[0], x[1]));
    check(&b, "ftbs_diff", 4, |x| {
        ftbs::ftbs_diff(x[0], x[1], x[2], x[3])
    });
    check(&b, "ftbs_update", 3, |x| {
        ftbs::ftbs_update(x[0], x[1], x[2])
    });
    check(&b, "fv_update_1d", 4, |x| {
        update::fv_update_1d(x[0], x[1], x[2], x[3])
    });
    check(&b, "fv_update_2d", 7, |x| {
        update::fv_update_2d(x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    });
    // The strip stage computes (18) in two halves, the x part when the row's x faces are
    // known and the y part one row later: fv_update_1d of fv_update_1d must be the 2D update.
    check(&b, "fv_update_2d", 7, |x| {
        update::fv_update_1d(
            update::fv_update_1d(x[0], x[1], x[2], x[5]),
            x[3],
            x[4],
            x[6],
        )
    });
    check(&b, "rk2_average", 2, |x| update::rk2_average(x[0], x[1]));
    check(&b, "cfl_rate_2d", 4, |x| {
        update::cfl_rate_2d(x[0], x[1], x[2], x[3])
    });
    check(&b, "next_dt", 2, |x| {
        update::next_dt(c.cfl, c.t_end, x[0], x[1])
    });
    check(&b, "advance_time", 2, |x| {
        update::advance_time(c.t_end, x[0], x[1])
    });
    check(&b, "nan_max", 2, |x| update::nan_max(x[0], x[1]));
}

/// Every fragment with χ clamped, minmod, D = 1 (the defaults).
#[test]
fn fragments_match_their_twins_with_the_defaults() {
    check_all(Consts {
        gamma: 1.4,
        phi_dry: 9.81e-6,
        d: 1.0,
        clamp: true,
        van_leer: false,
        nu: 1e-3,
        cfl: 0.5,
        t_end: 0.2,
    });
}

/// Every fragment with χ unclamped, van Leer, D = 0.5, another γ and dry threshold.
#[test]
fn fragments_match_their_twins_with_the_options() {
    check_all(Consts {
        gamma: 5.0 / 3.0,
        phi_dry: 0.0,
        d: 0.5,
        clamp: false,
        van_leer: true,
        nu: 0.37,
        cfl: 0.9,
        t_end: 7.2,
    });
}

/// Each fragment file and its twin define the same names in the same order, and every
/// fragment has a probe kernel (a one-sided or reordered name fails here).
#[test]
fn every_fragment_has_a_twin_and_a_probe() {
    let root = env!("CARGO_MANIFEST_DIR");
    let pairs = [
        ("cl/shll/euler.cl", "src/methods/shll/euler.rs"),
        (
            "cl/shll/shallow_water.cl",
            "src/methods/shll/shallow_water.rs",
        ),
        ("cl/shll/split.cl", "src/methods/shll/split.rs"),
        ("cl/shll/muscl.cl", "src/methods/shll/muscl.rs"),
        ("cl/shll/transport.cl", "src/methods/shll/transport.rs"),
        ("cl/convection/ftbs.cl", "src/methods/convection/ftbs.rs"),
        ("cl/explicit/update.cl", "src/methods/explicit/update.rs"),
    ];
    let probe = std::fs::read_to_string(format!("{root}/cl/explicit/probe.cl")).unwrap();
    let mut total = 0;
    for (cl, rs) in pairs {
        let cl_text = std::fs::read_to_string(format!("{root}/{cl}")).unwrap();
        let rs_text = std::fs::read_to_string(format!("{root}/{rs}")).unwrap();
        let defs: Vec<&str> = cl_text
            .lines()
            .filter_map(|l| l.strip_prefix("#define "))
            .filter_map(|l| l.split('(').next())
            .collect();
        let fns: Vec<&str> = rs_text
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("pub fn "))
            .filter_map(|l| l.split(['(', '<']).next())
            .collect();
        assert_eq!(defs, fns, "{cl} and {rs} define different names or orders");
        for d in &defs {
            assert!(
                probe.contains(&format!("probe_{d}(")),
                "no probe kernel for {d}"
            );
        }
        total += defs.len();
    }
    assert_eq!(
        total, 38,
        "the fragment count changed: update the probes and this test"
    );
}
