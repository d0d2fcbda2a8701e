//! MPI as a [`Comm`] (feature `mpi`): `MPI_COMM_WORLD`, nonblocking sends and receives for the
//! halos and the gathers, `MPI_Allgather` and `MPI_Bcast` for the collectives, and the
//! node-local rank (`MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)`) that picks a rank's device.

use mpi::collective::CommunicatorCollectives;
use mpi::environment::Universe;
use mpi::topology::{Communicator, SimpleCommunicator};
use mpi::traits::{Destination, Root, Source};

use super::comm::{Incoming, Outgoing};
use super::Comm;

/// The ranks of an MPI job. Dropping it finalises MPI.
pub struct World {
    world: SimpleCommunicator,
    node_rank: usize,
    // Last: MPI is finalised when the universe drops, after the communicators.
    _universe: Universe,
}

/// Environment variables an MPI launcher sets for its processes (Open MPI's `mpirun`, MPICH's
/// Hydra and Slurm's PMI2, PMIx: `srun --mpi=pmix`, Open MPI 5).
const LAUNCHED: [&str; 4] = [
    "OMPI_COMM_WORLD_SIZE",
    "PMI_SIZE",
    "PMIX_RANK",
    "MPI_LOCALNRANKS",
];

// SAFETY: a rank's solver calls MPI only from the thread that initialised it (rayon's workers
// run the row loops between exchanges, never an exchange); the bounds let the backends that
// hold the communicator stay `Send` like every other backend.
unsafe impl Send for World {}
// SAFETY: as for `Send`.
unsafe impl Sync for World {}

impl World {
    /// True if an MPI launcher started this process.
    pub fn launched() -> bool {
        LAUNCHED.iter().any(|v| std::env::var_os(v).is_some())
    }

    /// Initialise MPI if an MPI launcher started this process (`None` otherwise: a plain
    /// single-process run needs no MPI runtime).
    pub fn init() -> Option<World> {
        if !World::launched() {
            return None;
        }
        let universe = mpi::initialize()?;
        let world = universe.world();
        let node = world.split_shared(world.rank());
        Some(World {
            node_rank: node.rank() as usize,
            world,
            _universe: universe,
        })
    }
}

impl Comm for World {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn node_rank(&self) -> usize {
        self.node_rank
    }

    fn kind(&self) -> &'static str {
        "mpi"
    }

    fn exchange(&self, sends: &[Outgoing], recvs: &mut [Incoming]) {
        mpi::request::scope(|scope| {
            let mut reqs = Vec::with_capacity(sends.len() + recvs.len());
            for (from, tag, out) in recvs.iter_mut() {
                let p = self.world.process_at_rank(*from as i32);
                reqs.push(p.immediate_receive_into_with_tag(scope, &mut **out, i32::from(*tag)));
            }
            for &(to, tag, data) in sends {
                let p = self.world.process_at_rank(to as i32);
                reqs.push(p.immediate_send_with_tag(scope, data, i32::from(tag)));
            }
            for r in reqs {
                r.wait_without_status();
            }
        });
    }

    fn all_gather(&self, mine: &[f64]) -> Vec<f64> {
        let mut all = vec![0.0; mine.len() * self.size()];
        self.world.all_gather_into(mine, &mut all[..]);
        all
    }

    fn broadcast(&self, bytes: &mut Vec<u8>) {
        let root = self.world.process_at_rank(0);
        let mut len = bytes.len() as u64;
        root.broadcast_into(&mut len);
        bytes.resize(len as usize, 0);
        if len > 0 {
            root.broadcast_into(&mut bytes[..]);
        }
    }

    fn barrier(&self) {
        self.world.barrier();
    }

    fn abort(&self, code: i32) -> ! {
        self.world.abort(code)
    }
}
