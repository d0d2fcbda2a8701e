//! The numerical methods. Each is a folder with its case schema, its serial reference, its
//! OpenCL host code and what only it needs; the layers below (case, grid, device, solver seam,
//! output, run) know no method. This module is the registry: it reads a case file of any
//! method ([`AnyCase`]) and builds its solver on the backend a user chose ([`build`]).

pub mod bp;
pub mod cese;
pub mod convection;
pub mod explicit;
pub mod shll;
pub mod simple_ts;

use std::path::{Path, PathBuf};

use crate::case::{Common, Method};
use crate::device::KernelCache;
use crate::error::{ConfigError, DeviceError};
use crate::solver::Solver;

/// A case of any method.
#[derive(Debug, Clone, PartialEq)]
pub enum AnyCase {
    /// A SIMPLE-TS case.
    SimpleTs(simple_ts::case::Case),
    /// A linear-convection case.
    Convection(convection::case::Case),
    /// An SHLL Euler case.
    ShllEuler(shll::case::EulerCase),
    /// An SHLL shallow-water case.
    ShllShallowWater(shll::case::ShallowWaterCase),
    /// An SHLL convection–diffusion case.
    ShllConvectionDiffusion(shll::case::TransportCase),
    /// A CE/SE Euler case.
    CeseEuler(cese::case::Case),
    /// A Brandvik–Pullan Euler case.
    BpEuler(bp::case::Case),
}

impl AnyCase {
    /// Read and validate the case file at `path`, with the schema of the method it names.
    pub fn load(path: &Path) -> Result<AnyCase, ConfigError> {
        let text = crate::case::read_case_text(path)?;
        AnyCase::from_json(&text, &path.display().to_string())
    }

    /// Parse and validate a case from JSON text; `source` names it in error messages.
    pub fn from_json(text: &str, source: &str) -> Result<AnyCase, ConfigError> {
        Ok(match crate::case::method_of(text, source)? {
            Method::SimpleTs => AnyCase::SimpleTs(simple_ts::case::Case::from_json(text, source)?),
            Method::Convection => {
                AnyCase::Convection(convection::case::Case::from_json(text, source)?)
            }
            Method::ShllEuler => {
                AnyCase::ShllEuler(shll::case::EulerCase::from_json(text, source)?)
            }
            Method::ShllShallowWater => {
                AnyCase::ShllShallowWater(shll::case::ShallowWaterCase::from_json(text, source)?)
            }
            Method::ShllConvectionDiffusion => AnyCase::ShllConvectionDiffusion(
                shll::case::TransportCase::from_json(text, source)?,
            ),
            Method::CeseEuler => AnyCase::CeseEuler(cese::case::Case::from_json(text, source)?),
            Method::BpEuler => AnyCase::BpEuler(bp::case::Case::from_json(text, source)?),
        })
    }

    /// The method.
    pub fn method(&self) -> Method {
        match self {
            AnyCase::SimpleTs(_) => Method::SimpleTs,
            AnyCase::Convection(_) => Method::Convection,
            AnyCase::ShllEuler(_) => Method::ShllEuler,
            AnyCase::ShllShallowWater(_) => Method::ShllShallowWater,
            AnyCase::ShllConvectionDiffusion(_) => Method::ShllConvectionDiffusion,
            AnyCase::CeseEuler(_) => Method::CeseEuler,
            AnyCase::BpEuler(_) => Method::BpEuler,
        }
    }

    /// What the run driver and the output need of the case.
    pub fn common(&self) -> Common {
        match self {
            AnyCase::SimpleTs(c) => c.common(),
            AnyCase::Convection(c) => c.common(),
            AnyCase::ShllEuler(c) => c.common(),
            AnyCase::ShllShallowWater(c) => c.common(),
            AnyCase::ShllConvectionDiffusion(c) => c.common(),
            AnyCase::CeseEuler(c) => c.common(),
            AnyCase::BpEuler(c) => c.common(),
        }
    }

    /// The SIMPLE-TS case, if it is one.
    pub fn simple_ts(&self) -> Option<&simple_ts::case::Case> {
        match self {
            AnyCase::SimpleTs(c) => Some(c),
            _ => None,
        }
    }

    /// The discretised problem of an explicit method's case (`None` for SIMPLE-TS, CE/SE
    /// and Brandvik–Pullan, which have their own).
    pub fn explicit_problem(&self) -> Option<explicit::Problem> {
        match self {
            AnyCase::SimpleTs(_) | AnyCase::CeseEuler(_) | AnyCase::BpEuler(_) => None,
            AnyCase::Convection(c) => Some(c.problem()),
            AnyCase::ShllEuler(c) => Some(c.problem()),
            AnyCase::ShllShallowWater(c) => Some(c.problem()),
            AnyCase::ShllConvectionDiffusion(c) => Some(c.problem()),
        }
    }
}

/// Where a solver runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BackendKind {
    /// The serial reference, the oracle of every backend.
    #[default]
    Reference,
    /// The reference with its loops on rayon's threads (bit-identical).
    Parallel,
    /// An OpenCL device.
    OpenCl,
}

/// Refuse a run whose host-memory estimate `needed` (bytes) exceeds what the host grants the
/// process ([`crate::host::available`]); nothing is refused where the budget is unknown.
pub fn check_host_memory(needed: u64, kind: BackendKind) -> Result<(), DeviceError> {
    match crate::host::available() {
        Some(m) if needed > m.bytes => Err(DeviceError::HostOutOfMemory {
            backend: kind.name(),
            limit: m.limit,
            needed_bytes: needed,
            available_bytes: m.bytes,
        }),
        _ => Ok(()),
    }
}

impl BackendKind {
    /// The name on the command line (`reference`, `parallel`, `opencl`).
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Reference => "reference",
            BackendKind::Parallel => "parallel",
            BackendKind::OpenCl => "opencl",
        }
    }
}

/// The OpenCL kernel form of a method that has several (SIMPLE-TS: the Jacobi phase kernels or
/// the paper's fused y-sweep).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KernelForm {
    /// Separate kernels per phase.
    #[default]
    Phase,
    /// One fused kernel per iteration.
    Fused,
}

/// A user's choice of backend and its options.
#[derive(Debug, Clone, Default)]
pub struct BackendChoice {
    /// Reference, parallel or OpenCL.
    pub kind: BackendKind,
    /// OpenCL device selector (index or name substring); `None`: the first fp64 GPU, else a
    /// CPU device.
    pub device: Option<String>,
    /// OpenCL kernel binary cache; `None` disables it.
    pub cache: Option<KernelCache>,
    /// Directory for the OpenCL build log and assembled source.
    pub log_dir: Option<PathBuf>,
    /// OpenCL kernel form.
    pub kernel: KernelForm,
    /// SIMPLE-TS fused form: lean storage.
    pub lean: bool,
    /// SIMPLE-TS fused form: work-group width and rows per subdomain (`None`: the device's
    /// default).
    pub decomposition: Option<(usize, usize)>,
    /// The run never reads the whole state back nor writes a snapshot (`simplets bench`): a
    /// device backend's host memory is then its set-up alone.
    pub no_read_back: bool,
    /// Explicit methods, 2D first-order SHLL: the stage form (strip or tile) instead of the
    /// device's default (`methods::explicit::opencl::Stage`); `None`: the default, or what
    /// `SIMPLETS_EXPLICIT_STAGE` says.
    pub stage: Option<explicit::opencl::StageForm>,
}

/// Build the solver of `case` on the backend `choice` asks for.
pub fn build(case: &AnyCase, choice: &BackendChoice) -> Result<Box<dyn Solver>, DeviceError> {
    match case {
        AnyCase::SimpleTs(c) => {
            let backend = simple_ts::solver::build_backend(c, choice)?;
            Ok(Box::new(simple_ts::solver::SimpleTs::new(backend)))
        }
        AnyCase::CeseEuler(c) => {
            check_fits(case, choice)?;
            Ok(Box::new(cese::solver::Cese::new(c.problem(), choice)?))
        }
        AnyCase::BpEuler(c) => {
            check_fits(case, choice)?;
            Ok(Box::new(bp::solver::BpSolver::new(c, choice)?))
        }
        other => {
            // Before the problem allocates its initial state.
            check_fits(other, choice)?;
            let p = other.explicit_problem().expect("an explicit method");
            Ok(Box::new(explicit::solver::Explicit::new(p, choice)?))
        }
    }
}

/// Host bytes per stored cell and conserved variable of an explicit method: the initial state,
/// the reference's two levels and MUSCL stage (OpenCL: the host copy read back), and a
/// snapshot being written (two copies: the conserved and the primitive variables).
fn explicit_f64_per_cell_and_variable(kind: BackendKind) -> u64 {
    match kind {
        BackendKind::Reference | BackendKind::Parallel => 1 + 3 + 2,
        BackendKind::OpenCl => 1 + 1 + 2,
    }
}

/// Whether a run of `case` on `choice` fits the host's memory (and for SIMPLE-TS the
/// device's too; the explicit methods check the device when they set it up): what `run`
/// refuses before allocating, for `simplets check` as well.
pub fn check_fits(case: &AnyCase, choice: &BackendChoice) -> Result<(), DeviceError> {
    match case {
        AnyCase::SimpleTs(c) => simple_ts::solver::check_fits(c, choice),
        AnyCase::BpEuler(c) => {
            // Nodes: state, two scratch copies, secondary, SCREE memory, tables, fluxes and
            // a snapshot: about 60 f64 per node.
            let n = c.grid_spec().nx as u64 * c.grid_spec().ny as u64;
            let needed = n
                .saturating_mul(60 * 8)
                .saturating_add(simple_ts::numbers::HOST_FIXED_BYTES);
            check_host_memory(needed, choice.kind)
        }
        AnyCase::CeseEuler(c) => {
            // The initial level, the reference's two levels and half level (OpenCL: the
            // host copy read back), and a snapshot being written.
            let m = cese::Mesh::new(&c.grid);
            let levels = match choice.kind {
                BackendKind::Reference | BackendKind::Parallel => 4,
                BackendKind::OpenCl => 2,
            };
            let snapshot = 2 * (m.nx as u64 + 2) * (m.ny as u64 + 2) * m.nv as u64 * 8;
            let needed = (m.len() as u64 * 8)
                .saturating_mul(levels)
                .saturating_add(snapshot)
                .saturating_add(simple_ts::numbers::HOST_FIXED_BYTES);
            check_host_memory(needed, choice.kind)
        }
        other => {
            let g = other.common().grid;
            let rows = if g.ny == 1 { 1 } else { g.ny as u64 + 2 };
            let stored = (g.nx as u64 + 2) * rows;
            // Four conserved variables at most (Euler), as an upper bound.
            let per_cell = 4 * 8 * explicit_f64_per_cell_and_variable(choice.kind);
            let needed = stored
                .saturating_mul(per_cell)
                .saturating_add(simple_ts::numbers::HOST_FIXED_BYTES);
            check_host_memory(needed, choice.kind)
        }
    }
}
