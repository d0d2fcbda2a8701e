//! `simplets run` under an MPI launcher (`mpirun -n N`, `srun`; cargo feature `mpi`): every
//! rank builds its window of the case on its backend, rank 0 runs the run driver and writes
//! every file, the other ranks follow its orders (`methods::simple_ts::ranks`). Without the
//! feature, or started without a launcher, `run` is the single-process run.

use std::sync::Arc;

use anyhow::anyhow;
use simplets::decomp::{Comm, Decomposition};
use simplets::error::DeviceError;
use simplets::methods::simple_ts::geometry::{Ghost, EAST, NORTH, SOUTH, WEST};
use simplets::methods::simple_ts::problem::Problem;
use simplets::methods::simple_ts::ranks;
use simplets::methods::simple_ts::solver::SimpleTs;
use simplets::methods::{AnyCase, BackendChoice, BackendKind, KernelForm};
use simplets::run::{run_case, RunOptions};

use super::outcome;
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
        return run_explicit(comm, case, choice, opts, (ranks_x, ranks_y));
    };
    // The checks every rank makes before it allocates; one that fails on some ranks only (the
    // memory of its node) is agreed on, so that no rank waits for one that has stopped.
    // On OpenCL each rank checks its own window on its device when it sets up (the whole
    // grid need not fit on one device).
    let fits = if choice.kind != BackendKind::OpenCl {
        simplets::methods::check_fits(case, choice).map_err(super::device_failure)
    } else if choice.kernel == KernelForm::Fused {
        Err(Failure::Input(anyhow!(
            "the fused kernel does not run on several MPI ranks (its loop 2 is checked on the \
             device, which cannot merge the ranks' residuals): use --kernel phase"
        )))
    } else {
        Ok(())
    };
    let checked = fits.and_then(|()| {
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
        Ok((pb, dec))
    });
    let Some((pb, dec)) = agreed_layout(comm.as_ref(), checked)? else {
        return Ok(());
    };
    // A rank whose set-up fails alone (its device) ends the job: the others wait for it.
    let mut r = set_up(
        comm.as_ref(),
        ranks::build(pb, dec, Arc::clone(&comm), choice),
    )?;
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

/// [`run`] for an explicit method (convection, the SHLL methods) on the reference, parallel or
/// OpenCL backend.
fn run_explicit(
    comm: Arc<dyn Comm>,
    case: &AnyCase,
    choice: &BackendChoice,
    opts: &RunOptions,
    (ranks_x, ranks_y): (Option<usize>, Option<usize>),
) -> Result<(), Failure> {
    use simplets::methods::explicit::{ranks as xranks, Bc};
    let checked = if case.explicit_problem().is_none() {
        Err(Failure::Input(anyhow!(
            "only SIMPLE-TS and the explicit methods run on several MPI ranks; run this case on \
             one"
        )))
    } else if choice.kind == BackendKind::OpenCl {
        // Each rank checks that its window fits its device when it builds (the whole grid
        // need not fit on one device).
        Ok(())
    } else {
        simplets::methods::check_fits(case, choice).map_err(super::device_failure)
    };
    let checked = checked.and_then(|()| {
        let pb = Arc::new(case.explicit_problem().expect("an explicit method"));
        let periodic = |a: usize| matches!(pb.sides[a], Bc::Periodic);
        let m = &pb.mesh;
        if m.dims == 1 && periodic(0) && comm.size() > 1 {
            return Err(Failure::Input(anyhow!(
                "a periodic 1D case cannot be split among ranks (its only axis is periodic): run \
                 it on one"
            )));
        }
        let dec = Decomposition::choose_layers(
            m.nx,
            m.ny,
            comm.size(),
            (ranks_x, ranks_y),
            (periodic(0), m.dims == 2 && periodic(2)),
            xranks::layers(&pb),
        )
        .map_err(|e| Failure::Input(anyhow!(e)))?;
        Ok((pb, dec))
    });
    let Some((pb, dec)) = agreed_layout(comm.as_ref(), checked)? else {
        return Ok(());
    };
    let common = case.common();
    // A rank whose set-up fails alone (its device) ends the job: the others wait for it.
    let mut r = set_up(
        comm.as_ref(),
        xranks::build(pb, dec, Arc::clone(&comm), choice),
    )?;
    if let Some(flag) = &opts.interrupt {
        r.share_interrupt(Arc::clone(flag));
    }
    if !comm.is_root() {
        r.follow();
        return Ok(());
    }
    outcome(run_case(&common, &mut r, opts))
}

/// [`agree`] on a rank's problem and the layout; rank 0 logs the layout.
fn agreed_layout<P>(
    comm: &dyn Comm,
    mine: Result<(P, Decomposition), Failure>,
) -> Result<Option<(P, Decomposition)>, Failure> {
    let agreed = agree(comm, mine)?;
    if let (Some((_, dec)), true) = (&agreed, comm.is_root()) {
        log::info!(
            "{} MPI ranks as {} x {} blocks ({})",
            dec.ranks(),
            dec.px,
            dec.py,
            comm.kind()
        );
    }
    Ok(agreed)
}

/// `mine` if every rank's set-up succeeded. Otherwise rank 0 returns the failure: its own, or
/// one naming the first rank that failed, which prints its reason in one line; the other ranks
/// return `None` and end quietly.
fn agree<T>(comm: &dyn Comm, mine: Result<T, Failure>) -> Result<Option<T>, Failure> {
    let code = mine.as_ref().err().map_or(0, Failure::code);
    let codes = comm.all_gather(&[f64::from(code)]);
    let Some(first) = codes.iter().position(|&c| c != 0.0) else {
        return mine.map(Some);
    };
    match (comm.rank(), mine) {
        (0, Err(e)) => Err(e),
        (0, Ok(_)) => {
            let why = anyhow!("rank {first} of {} failed during set-up", comm.size());
            Err(if codes[first] == 2.0 {
                Failure::Input(why)
            } else {
                Failure::Run(why)
            })
        }
        (r, Err(e)) if codes[0] == 0.0 => {
            eprintln!(
                "simplets: rank {r} of {} failed: {}",
                comm.size(),
                e.one_line()
            );
            Ok(None)
        }
        _ => Ok(None),
    }
}

/// This rank's solver, or the end of the job: on one rank the set-up error as the
/// single-process run reports it; on several, the failing rank names itself and aborts the
/// job (the others wait for it).
fn set_up<R>(comm: &dyn Comm, built: Result<R, DeviceError>) -> Result<R, Failure> {
    match built {
        Ok(r) => Ok(r),
        Err(e) if comm.size() == 1 => Err(super::device_failure(e)),
        Err(e) => {
            eprintln!(
                "simplets: rank {} of {} failed: {e}",
                comm.rank(),
                comm.size()
            );
            comm.abort(1)
        }
    }
}
