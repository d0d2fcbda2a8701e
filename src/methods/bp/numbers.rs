//! The byte and flop model of the `bp_euler` kernels that `simplets bench` turns into its
//! roofline counts: an analytic count from `cl/bp/` per unit of each kernel (node, face, cell,
//! inlet node), as written (a division or square root counts 1; `fmax`, `fabs` and the
//! comparisons do not; constants folded by the compiler, such as γ − 1 and 1 − SF, do not).
//! Bytes are compulsory DRAM traffic: every array element read or written once per kernel,
//! so a node's values that several faces or cells share count once.

use super::opencl::{edge_nodes, form_groups, RED};
use super::tables::BoundaryForm;

/// The bench form name of the `bp_euler` kernels of a boundary form.
pub fn form_name(form: BoundaryForm) -> &'static str {
    match form {
        BoundaryForm::Tables => "bp-tables",
        BoundaryForm::Ranges => "bp-ranges",
        BoundaryForm::Ghost => "bp-ghost",
    }
}

/// Host bytes per node of the reference: the state and its copy before the step, the
/// smoothing copy, the secondary variables, the fluxes of two faces, the cell changes and
/// SCREE's memory (4 values each), the projected lengths (4), area and shortest side, the
/// coordinates, and 80 B of tables.
pub const HOST_BYTES_PER_NODE: u64 = 8 * (4 * 8 + 4 + 2 + 2) + 80;

/// One kernel's model: its name, units per launch (nodes, faces, cells, inlet nodes), FP64
/// operations, bytes read and bytes written per unit.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelModel {
    /// Kernel name (as in `cl/bp/step.cl`).
    pub name: &'static str,
    /// Units of work per launch.
    pub units: usize,
    /// FP64 operations per unit.
    pub flops: f64,
    /// Compulsory bytes read per unit.
    pub read: f64,
    /// Compulsory bytes written per unit.
    pub written: f64,
}

/// The secondary variables of a node: u, v (2 divisions), p (7), H (2).
const SECONDARY: f64 = 11.0;

/// The kernels of a step on `ni` × `nj` nodes in `form` (`calc_changes` as after the first
/// step). The ranges form reads no table row for its interior nodes and faces: 8 B less per
/// face (the multiplier), 16 B per node in `sum_interior` (the cell indices) and 48 B in
/// `smooth_interior` (the node indices and weights); its boundary kernels read their rows.
pub fn kernels(ni: usize, nj: usize, form: BoundaryForm) -> Vec<KernelModel> {
    let (nn, nc) = (ni * nj, (ni - 1) * (nj - 1));
    let (gi, ge) = form_groups(ni, nj, form);
    let k = |name, units, flops, read, written| KernelModel {
        name,
        units,
        flops,
        read,
        written,
    };
    // A face: mass flux 6, p_a + p_b 1, two momentum fluxes 5 each, energy flux 3. Reads the
    // ρu, ρv and the 4 secondary values of its nodes (about one node per face), dl (2) and
    // the multiplier; writes 4 fluxes.
    let face = |name, units| k(name, units, 20.0, 8.0 * (2.0 + 4.0 + 2.0 + 1.0), 32.0);
    let face_r = |name, units| k(name, units, 20.0, 8.0 * (2.0 + 4.0 + 2.0), 32.0);
    let ne = edge_nodes(ni, nj);
    let (fluxes, sums): (Vec<KernelModel>, Vec<KernelModel>) = match form {
        BoundaryForm::Tables => (
            vec![face("flux_i", ni * (nj - 1)), face("flux_j", (ni - 1) * nj)],
            vec![
                // Per component 3 additions, ¼·, and the add to the node. Reads the node, its
                // 4 table indices and about one cell's changes; writes tmp.
                k("sum_changes", nn, 4.0 * 5.0, 32.0 + 16.0 + 32.0, 32.0),
                // Per component the average (7) and the blend (3); the residual (2) and the
                // admissibility pressure (9). Reads tmp, ρ before, 4 indices and 4 weights;
                // writes w.
                k(
                    "smooth",
                    nn,
                    4.0 * 10.0 + 2.0 + 9.0,
                    32.0 + 8.0 + 16.0 + 32.0,
                    32.0,
                ),
            ],
        ),
        // The ghost form (cl/bp/ghost.cl): ghost_copy moves the real rows' w and sec into
        // the padded arrays (the columns' copies into gtmp too), ghost_walls mirrors the
        // wall rows (the node two in and the normal read; w, sec and gtmp written; two
        // mirrors of 6 operations), the padded faces carry no multiplier, the sum and the
        // smoothing of the real nodes find cells and neighbours by index arithmetic.
        BoundaryForm::Ghost => (
            vec![
                k("ghost_copy", (ni + 2) * nj, 0.0, 64.0, 64.0),
                k("ghost_walls", 2 * (ni + 2), 12.0, 80.0, 96.0),
                face_r("ghost_flux_i", (ni + 2) * (nj + 1)),
                face_r("ghost_flux_j", (ni + 1) * (nj + 2)),
            ],
            vec![
                k("ghost_sum", nn, 4.0 * 5.0, 32.0 + 32.0, 32.0),
                k("ghost_smooth", nn, 4.0 * 10.0 + 2.0 + 9.0, 32.0 + 8.0, 32.0),
            ],
        ),
        BoundaryForm::Ranges => {
            let nin = (ni - 2) * (nj - 2);
            (
                vec![
                    face_r("flux_i_r", ni * (nj - 1)),
                    face_r("flux_j_r", (ni - 1) * (nj - 2)),
                    face("flux_j_edge", 2 * (ni - 1)),
                ],
                vec![
                    k("sum_interior", nin, 4.0 * 5.0, 32.0 + 32.0, 32.0),
                    // A boundary node's row (4 + 16 B) and up to four cells' changes.
                    k("sum_edge", ne, 4.0 * 5.0, 32.0 + 20.0 + 4.0 * 32.0, 32.0),
                    k(
                        "smooth_interior",
                        nin,
                        4.0 * 10.0 + 2.0 + 9.0,
                        32.0 + 8.0,
                        32.0,
                    ),
                    // Its row (4 + 16 + 32 B), its own tmp and ρ, and the tmp of up to two
                    // nodes inside (the wall stencil reaches two nodes in).
                    k(
                        "smooth_edge",
                        ne,
                        4.0 * 10.0 + 2.0 + 9.0,
                        52.0 + 32.0 + 8.0 + 64.0,
                        32.0,
                    ),
                ],
            )
        }
    };
    let mut all = vec![
        k("set_secondary", nn, SECONDARY, 32.0, 32.0),
        // The inlet state (4 read, 4 kept, 4 written), its secondary, the outlet pressure.
        k("apply_bconds", nj, SECONDARY, 64.0, 104.0),
    ];
    all.extend(fluxes);
    // Four signal speeds (8 each), the rate (3), per component the change (4) and SCREE (2).
    // Reads ρ and u, v, p of about one node, two faces' fluxes, area, d_min and the SCREE
    // memory; writes the change and the memory.
    let (changes, nc) = if form == BoundaryForm::Ghost {
        ("ghost_changes", (ni + 1) * (nj + 1))
    } else {
        ("calc_changes", nc)
    };
    all.push(k(
        changes,
        nc,
        4.0 * 8.0 + 3.0 + 4.0 * 6.0,
        8.0 * (4.0 + 8.0 + 2.0 + 4.0),
        64.0,
    ));
    all.extend(sums);
    // The per-group partials (12 B each) and the inlet densities.
    all.push(k(
        "reduce",
        RED,
        0.0,
        (12 * (gi + ge) + 8 * nj) as f64 / RED as f64,
        (8 * (2 + nj)) as f64 / RED as f64,
    ));
    all
}

/// FP64 operations and compulsory bytes of one step per node.
pub fn per_node(ni: usize, nj: usize, form: BoundaryForm) -> (f64, f64) {
    let nn = (ni * nj) as f64;
    kernels(ni, nj, form).iter().fold((0.0, 0.0), |(f, b), m| {
        let u = m.units as f64 / nn;
        (f + m.flops * u, b + (m.read + m.written) * u)
    })
}
