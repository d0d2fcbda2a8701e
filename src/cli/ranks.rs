//! `simplets run` under an MPI launcher (`mpirun -n N`, `srun`; cargo feature `mpi`): every
//! rank builds its window of the case on its backend, rank 0 runs the run driver and writes
//! every file, the other ranks follow its orders (`methods::simple_ts::ranks`). Without the
//! feature, or started without a launcher, `run` is the single-process run.

use std::sync::Arc;

use anyhow::anyhow;
use simplets::decomp::{Comm, Decomposition};
use simplets::methods::simple_ts::geometry::{Ghost, EAST, NORTH, SOUTH, WEST};
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::simple_ts::ranks;
use simplets::methods::simple_ts::solver::SimpleTs;
use simplets::methods::{AnyCase, BackendChoice, BackendKind};
use simplets::run::{run_case, RunOptions};

use super::run::outcome;
use super::Failure;

/// The ranks of this job if an MPI launcher started it (MPI initialised here); `None` for a
/// single-process run. Ranks other than 0 log warnings and errors only.
pub fn world() -> Option<Arc<dyn Comm>> {
    #[cfg(feature = "mpi")]
    {
        let w = simplets::decomp::mpi::World::init()?;
        if !w.is_root() {
            log::set_max_level(log::LevelFilter::Warn);
        }
        Some(Arc::new(w))
    }
    #[cfg(not(feature = "mpi"))]
    {
        None
    }
}

/// True if the process was started by an MPI launcher (also without the feature: then `run`
/// refuses a job of several ranks instead of running it N times).
pub fn launched_with_several() -> bool {
    ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .any(|n| n.trim().parse::<u32>().is_ok_and(|n| n > 1))
}

/// Run `case` on the ranks of `comm`, `ranks_x × ranks_y` of them where given.
pub fn run(
    comm: Arc<dyn Comm>,
    case: &AnyCase,
    choice: &BackendChoice,
    opts: &RunOptions,
    (ranks_x, ranks_y): (Option<usize>, Option<usize>),
) -> Result<(), Failure> {
    let AnyCase::SimpleTs(c) = case else {
        return Err(Failure::Input(anyhow!(
            "only SIMPLE-TS cases run on several MPI ranks; run this case on one"
        )));
    };
    if choice.kind == BackendKind::OpenCl {
        return Err(Failure::Input(anyhow!(
            "the OpenCL backend does not run on several MPI ranks yet: use --backend reference \
             or parallel"
        )));
    }
    let pb = Arc::new(Problem::new(c));
    let periodic = |a: usize, b: usize| {
        [a, b]
            .iter()
            .any(|&s| matches!(pb.geo.sides[s], Ghost::Periodic))
    };
    let dec = Decomposition::choose(
        c.grid.nx,
        c.grid.ny,
        comm.size(),
        ranks_x,
        ranks_y,
        (periodic(WEST, EAST), periodic(SOUTH, NORTH)),
    )
    .map_err(|e| Failure::Input(anyhow!(e)))?;
    if comm.is_root() {
        log::info!(
            "{} MPI ranks as {} x {} blocks ({})",
            dec.ranks(),
            dec.px,
            dec.py,
            comm.kind()
        );
    }
    // A rank whose set-up fails alone (its device) ends the job: the others wait for it.
    let mut r = match ranks::build(pb, dec, Arc::clone(&comm), choice) {
        Ok(r) => r,
        Err(e) if comm.size() == 1 => return Err(super::device_failure(e)),
        Err(e) => {
            eprintln!(
                "simplets: rank {} of {} failed: {e}",
                comm.rank(),
                comm.size()
            );
            comm.abort(1)
        }
    };
    if let Some(flag) = &opts.interrupt {
        r.share_interrupt(Arc::clone(flag));
    }
    if !comm.is_root() {
        r.follow();
        return Ok(());
    }
    let mut solver = SimpleTs::new(Box::new(r));
    outcome(run_case(&c.common(), &mut solver, opts))
}
