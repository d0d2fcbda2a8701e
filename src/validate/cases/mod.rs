//! The validation cases (issue 6). Each function runs one case directory and appends its rows
//! and plots; the derivations and tolerance reasons are in `validation/<case>/README.md`.

mod authors_cpp;
mod budgets;
mod channel;
mod convergence;
mod couette;

pub(super) use authors_cpp::authors_cpp;
pub(super) use budgets::budgets;
pub(super) use channel::channel_kn;
pub(super) use convergence::{grid_convergence, observed_order};
pub(super) use couette::couette_heat;
