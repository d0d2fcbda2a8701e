//! The CE/SE fragments (`cl/cese/fragments.cl`) against their Rust twins
//! (`methods/cese/fragments.rs`): every fragment is evaluated on the device through its probe
//! kernel (`cl/cese/probe.cl`) on pseudo-random and edge-case arguments and compared bit for
//! bit.
//!
//! Allowed difference: 0 ulps. The programs are built with `FP_CONTRACT OFF`, the fragments
//! keep the Rust operation order, |x|^α is a product of α factors (no `pow`), and OpenCL's
//! FP64 `+ − × ÷ √` and `fabs` are correctly rounded or exact; so every result must be the
//! same double (NaN compared as NaN).

use std::sync::{Mutex, MutexGuard};

use simplets::device::{build, select_device, BuiltProgram, Defines};
use simplets::methods::cese::fragments as f;

fn cl_lock() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

fn program(gamma: f64, alpha: i32) -> BuiltProgram {
    let d = Defines::new()
        .int("CFG_NXT", 1)
        .int("CFG_NYT", 1)
        .real("CFG_GAMMA", gamma)
        .int("CFG_ALPHA", alpha as i64)
        .real("CFG_CFL", 0.8)
        .real("CFG_T_END", 0.4);
    let dev = select_device(None).expect("an FP64 OpenCL device (PoCL in CI)");
    build(
        &dev,
        &simplets::methods::cese::source::probe().assemble(),
        &d,
        None,
    )
    .expect("the probe program builds")
}

/// Deterministic pseudo-random doubles of mixed magnitude and sign, with edge values (0, −0,
/// ±1, equal pairs) among the first tuples.
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
    let edge = [0.0, -0.0, 1.0, -1.0, 1e-300, 1e300, 0.5, 2.0];
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

fn check_all(g: f64, al: i32) {
    let _l = cl_lock();
    let b = program(g, al);
    check(&b, "cese_pow", 1, |x| f::cese_pow(al, x[0]));
    check(&b, "cese_w0", 2, |x| f::cese_w0(al, x[0], x[1]));
    check(&b, "cese_grad", 4, |x| {
        f::cese_grad(al, x[0], x[1], x[2], x[3])
    });
    check(&b, "cese_s", 6, |x| {
        f::cese_s(x[0], x[1], x[2], x[3], x[4], x[5])
    });
    check(&b, "cese_up", 3, |x| f::cese_up(x[0], x[1], x[2]));
    check(&b, "cese_mid", 4, |x| f::cese_mid(x[0], x[1], x[2], x[3]));
    check(&b, "c1_p", 3, |x| f::c1_p(g, x[0], x[1], x[2]));
    check(&b, "c1_f2", 3, |x| f::c1_f2(g, x[0], x[1], x[2]));
    check(&b, "c1_f3", 3, |x| f::c1_f3(g, x[0], x[1], x[2]));
    check(&b, "c1_a2", 4, |x| f::c1_a2(g, x[0], x[1], x[2], x[3]));
    check(&b, "c1_a3", 5, |x| {
        f::c1_a3(g, x[0], x[1], x[2], x[3], x[4])
    });
    check(&b, "c2_p", 5, |x| f::c2_p(g, x[0], x[1], x[2], x[3], x[4]));
    check(&b, "c2_q", 2, |x| f::c2_q(x[0], x[1]));
    check(&b, "c2_pq", 3, |x| f::c2_pq(g, x[0], x[1], x[2]));
    check(&b, "c2_h", 3, |x| f::c2_h(x[0], x[1], x[2]));
    check(&b, "c2_fn", 3, |x| f::c2_fn(x[0], x[1], x[2]));
    check(&b, "c2_dv", 3, |x| f::c2_dv(x[0], x[1], x[2]));
    check(&b, "c2_dp", 7, |x| {
        f::c2_dp(g, x[0], x[1], x[2], x[3], x[4], x[5], x[6])
    });
    check(&b, "c2_jn", 4, |x| f::c2_jn(x[0], x[1], x[2], x[3]));
    check(&b, "c2_jt", 4, |x| f::c2_jt(x[0], x[1], x[2], x[3]));
    check(&b, "c2_je", 4, |x| f::c2_je(x[0], x[1], x[2], x[3]));
    check(&b, "c2_fc", 3, |x| f::c2_fc(x[0], x[1], x[2]));
    check(&b, "c2_lever", 4, |x| f::c2_lever(x[0], x[1], x[2], x[3]));
    check(&b, "c2_cross", 4, |x| f::c2_cross(x[0], x[1], x[2], x[3]));
    check(&b, "c2_sum", 4, |x| f::c2_sum(x[0], x[1], x[2], x[3]));
    check(&b, "c2_dx", 3, |x| f::c2_dx(x[0], x[1], x[2]));
    check(&b, "c2_dy", 3, |x| f::c2_dy(x[0], x[1], x[2]));
    check(&b, "cese_a", 2, |x| f::cese_a(g, x[0], x[1]));
    check(&b, "cese_rate", 2, |x| f::cese_rate(x[0], x[1]));
}

/// Every fragment with γ = 1.4 and α = 2 (the thesis).
#[test]
fn cese_fragments_match_their_twins_alpha_2() {
    check_all(1.4, 2);
}

/// Every fragment with γ = 5/3 and α = 0 (the central derivative) and α = 5.
#[test]
fn cese_fragments_match_their_twins_other_alphas() {
    check_all(5.0 / 3.0, 0);
    check_all(5.0 / 3.0, 5);
}
