//! What `simplets check` prints for a CE/SE case, and the byte and flop model of its kernels
//! that `simplets bench` turns into roofline counts (an analytic count from the code per
//! integer point and step; divisions and square roots count 1).

use super::opencl::{device_bytes, groups, Form, Sweep};
use super::reference::max_rate;
use super::Problem;

/// FP64 operations of a parent's contribution (1D, 2D), as written: the divisions, the
/// Jacobian products, fluxes, s or the levers, u' (2D: without its shares).
fn parent_flops(dims: usize) -> f64 {
    if dims == 1 {
        // w 2, u_t 1 + 14 + 20, f 6 + 8, f_t 14 + 20, s 3·4, u' 3·2
        2.0 + 35.0 + 14.0 + 34.0 + 12.0 + 6.0
    } else {
        // w 3, q p H 4 + 3 + 2, the A and B products of u_x, u_y and u_t sharing their
        // perturbations (d_x, d_y 4, δp 7, e4 1, rows 3 × 6), u_t 8, fluxes 2 · 4, f_c g_c
        // P Q R u' 4·(2 + 2 + 3 + 3 + 3 + 2)
        3.0 + 9.0 + 3.0 * 30.0 + 8.0 + 8.0 + 4.0 * 15.0
    }
}

/// FP64 operations of one share of a 2D parent, per component: u ± R, P ± Q and their
/// difference or sum.
const SHARE_2D: f64 = 3.0;

/// FP64 operations of all four shares of a 2D parent (u ± R and P ± Q once, four
/// differences or sums), per parent: the sweep's.
const SHARES_2D: f64 = 4.0 * 8.0;

/// FP64 operations of one new point from its parents' contributions, per component: 1D the
/// mean (4) and the derivative (W0: 2α + 5, two differences, one product); 2D one share of
/// each of the four parents, the sum (4), two W0 and the two derivatives (4).
fn point_flops(dims: usize, alpha: f64) -> f64 {
    let w0 = 2.0 * alpha + 5.0;
    if dims == 1 {
        3.0 * (4.0 + w0 + 3.0)
    } else {
        4.0 * (4.0 * SHARE_2D + 4.0 + 2.0 * (w0 + 2.0) + 4.0)
    }
}

/// FP64 operations per integer point and step of `form`: the split kernels compute each
/// new point's parents themselves (2 or 4 per point and half step); the fused 1D kernel
/// computes each parent of its group once (W integer and W − 1 half parents for W − 2
/// outputs); the fused 2D kernel computes each parent of its strip once with its four shares
/// (a sweep of W items and R output rows: W·(R + 2) integer points and (W − 1)·(R + 1) half
/// points for (W − 2)·R outputs), then the outputs from the shares.
pub fn flops_per_point(p: &Problem, form: Form, sw: Sweep) -> f64 {
    let d = p.mesh.dims;
    let a = p.c.alpha as f64;
    let (par, pt) = (parent_flops(d), point_flops(d, a));
    let parents = if d == 1 { 2.0 } else { 4.0 };
    let rate = if d == 1 { 12.0 } else { 15.0 };
    match (form, d) {
        (Form::Split, _) => 2.0 * (parents * par + pt) + rate + 2.0,
        (Form::Fused, 1) => {
            // W integer parents and W − 1 half points with their parents for W − 2 outputs.
            let w = sw.w as f64;
            (w * par + (w - 1.0) * (pt + par)) / (w - 2.0) + pt + rate + 2.0
        }
        (Form::Fused, _) => {
            let (w, r) = (sw.w, sw.rows);
            let (n1, n2) = (w * (r + 2), (w - 1) * (r + 1));
            let out = ((w - 2) * r) as f64;
            let combine = pt - 4.0 * 4.0 * SHARE_2D;
            (n1 as f64 * (par + SHARES_2D) + n2 as f64 * (combine + par + SHARES_2D)) / out
                + combine
                + rate
                + 2.0
        }
    }
}

/// Compulsory DRAM bytes per integer point and step of `form` (read, written): the level
/// read and written once (fused), the half level written and read back too (split), ρ read
/// again for the residual (split).
pub fn step_bytes(p: &Problem, form: Form) -> (f64, f64) {
    let level = 8.0 * p.mesh.planes as f64;
    match form {
        Form::Fused => (level, level),
        Form::Split => (2.0 * level + 8.0, 2.0 * level),
    }
}

/// The `simplets check` text of a CE/SE problem.
pub fn render(p: &Problem) -> String {
    use std::fmt::Write;
    let m = &p.mesh;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "case        {} (cese_euler, {})",
        p.common.name,
        p.label()
    );
    let _ = writeln!(
        s,
        "grid        {} x {} = {} integer points ({}D), {} half-level points, dx = {:?}{}",
        m.nx,
        m.ny,
        p.points(),
        m.dims,
        if m.dims == 2 {
            (m.nx + 1) * (m.ny + 1)
        } else {
            m.nx + 1
        },
        m.dx,
        if m.dims == 2 {
            format!(", dy = {:?}", m.dy)
        } else {
            String::new()
        }
    );
    let names = ["west", "east", "south", "north"];
    let sides: Vec<String> = p.sides[..2 * m.dims]
        .iter()
        .zip(names)
        .map(|(b, n)| {
            let k = match b {
                super::Bc::Outflow => "outflow",
                super::Bc::Reflective => "reflective",
                super::Bc::Inflow(_) => "inflow",
                super::Bc::Periodic => "periodic",
            };
            format!("{n} {k}")
        })
        .collect();
    let _ = writeln!(s, "sides       {}", sides.join(", "));
    let smax = max_rate(p, &p.initial);
    let _ = writeln!(
        s,
        "time        {}, end time {}, at most {} steps; first dt {:?} (max (|v| + a)/h = {:?})",
        p.rule_text(),
        if p.t_end.is_finite() {
            format!("{:?}", p.t_end)
        } else {
            "none (step count)".into()
        },
        p.total_steps,
        super::reference::dt_of(p, smax, 0.0),
        smax
    );
    // Without a device: the default sweep (an NVIDIA GPU fits its rows to the launch and runs
    // 1D in groups of 64, its tiles fitted to the mesh).
    let sw = Sweep::default_env();
    for form in [Form::Split, Form::Fused] {
        let (r, w) = step_bytes(p, form);
        let (dev, _) = device_bytes(p, form);
        let _ = writeln!(
            s,
            "{:<11} {:.0} B read + {:.0} B written and {:.0} flop per point and step; device {}",
            form.name(),
            r,
            w,
            flops_per_point(p, form, sw),
            crate::text::bytes(dev as f64)
        );
    }
    let _ = writeln!(
        s,
        "memory      host (reference) {}; work-groups per launch: {} split, {} fused (sweep {} x {})",
        crate::text::bytes(8.0 * 3.0 * m.len() as f64),
        groups(p, Form::Split, sw),
        groups(p, Form::Fused, sw),
        sw.w,
        sw.rows
    );
    s
}
