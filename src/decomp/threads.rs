//! Ranks as threads of one process ([`ThreadComm`]): the same messages and collectives as
//! MPI through shared mailboxes, so that `cargo test` checks decomposed runs against one
//! process without an MPI launcher (the launcher tests are `scripts/test-mpi.sh`).

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex};

use super::comm::{Incoming, Outgoing};
use super::Comm;

/// Payloads in flight from one rank to another with one tag, oldest first.
type Queues = HashMap<(usize, usize, u16), VecDeque<Vec<f64>>>;

/// Messages in flight: (from, to, tag) → queue of payloads.
#[derive(Default)]
struct Mailboxes {
    queues: Mutex<Queues>,
    arrived: Condvar,
}

/// One rank of a group of threads.
pub struct ThreadComm {
    rank: usize,
    size: usize,
    boxes: Arc<Mailboxes>,
}

/// Tags the collectives use (point-to-point tags of the solvers stay below).
const GATHER: u16 = u16::MAX;
const SCATTER: u16 = u16::MAX - 1;
const BCAST: u16 = u16::MAX - 2;

impl ThreadComm {
    /// `n` connected ranks, to be moved into one thread each.
    pub fn group(n: usize) -> Vec<ThreadComm> {
        let boxes = Arc::new(Mailboxes::default());
        (0..n)
            .map(|rank| ThreadComm {
                rank,
                size: n,
                boxes: Arc::clone(&boxes),
            })
            .collect()
    }

    fn put(&self, to: usize, tag: u16, data: Vec<f64>) {
        let mut q = self.boxes.queues.lock().expect("mailbox lock");
        q.entry((self.rank, to, tag)).or_default().push_back(data);
        self.boxes.arrived.notify_all();
    }

    fn take(&self, from: usize, tag: u16) -> Vec<f64> {
        let mut q = self.boxes.queues.lock().expect("mailbox lock");
        loop {
            if let Some(m) = q
                .get_mut(&(from, self.rank, tag))
                .and_then(VecDeque::pop_front)
            {
                return m;
            }
            q = self.boxes.arrived.wait(q).expect("mailbox lock");
        }
    }
}

impl Comm for ThreadComm {
    fn rank(&self) -> usize {
        self.rank
    }

    fn size(&self) -> usize {
        self.size
    }

    fn kind(&self) -> &'static str {
        "threads"
    }

    fn exchange(&self, sends: &[Outgoing], recvs: &mut [Incoming]) {
        for &(to, tag, data) in sends {
            self.put(to, tag, data.to_vec());
        }
        for (from, tag, out) in recvs.iter_mut() {
            let m = self.take(*from, *tag);
            assert_eq!(m.len(), out.len(), "message length from rank {from}");
            out.copy_from_slice(&m);
        }
    }

    fn all_gather(&self, mine: &[f64]) -> Vec<f64> {
        if self.rank == 0 {
            let mut all = mine.to_vec();
            for r in 1..self.size {
                all.extend(self.take(r, GATHER));
            }
            for r in 1..self.size {
                self.put(r, SCATTER, all.clone());
            }
            all
        } else {
            self.put(0, GATHER, mine.to_vec());
            self.take(0, SCATTER)
        }
    }

    fn broadcast(&self, bytes: &mut Vec<u8>) {
        if self.rank == 0 {
            let m: Vec<f64> = bytes.iter().map(|&b| f64::from(b)).collect();
            for r in 1..self.size {
                self.put(r, BCAST, m.clone());
            }
        } else {
            *bytes = self.take(0, BCAST).iter().map(|&b| b as u8).collect();
        }
    }

    fn barrier(&self) {
        self.all_gather(&[]);
    }

    fn abort(&self, code: i32) -> ! {
        panic!("rank {} aborted the group with status {code}", self.rank)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decomp::{Decomposition, Halo};

    /// Every halo value after an exchange is its owner's, for a 3 × 2 layout.
    #[test]
    fn exchange_fills_every_halo_cell_from_its_owner() {
        exchange_on(Decomposition::new(11, 9, 3, 2).unwrap());
    }

    /// The same with two ghost layers along x, none along y, a halo of 2 and 4 × 1 ranks.
    #[test]
    fn exchange_fills_halos_of_other_layers() {
        let layers = crate::decomp::Layers {
            ghost_x: 2,
            ghost_y: 0,
            halo: 2,
        };
        exchange_on(Decomposition::with_layers(9, 3, 4, 1, layers).unwrap());
    }

    fn exchange_on(d: Decomposition) {
        let (nxt, _) = d.stored();
        let comms = ThreadComm::group(d.ranks());
        let handles: Vec<_> = comms
            .into_iter()
            .map(|c| {
                let w = d.window(c.rank());
                std::thread::spawn(move || {
                    let h = Halo::new(Arc::new(c), w.clone());
                    // Owned cells hold their global index, the halo NaN.
                    let mut a: Vec<f64> = (0..w.len())
                        .map(|k| {
                            if w.owns_local(k) {
                                w.global(k) as f64
                            } else {
                                f64::NAN
                            }
                        })
                        .collect();
                    let mut b = a.clone();
                    h.exchange(&mut [&mut a, &mut b]);
                    for k in 0..w.len() {
                        assert_eq!(a[k], w.global(k) as f64, "rank {} cell {k}", w.rank);
                        assert_eq!(b[k].to_bits(), a[k].to_bits());
                    }
                    let m = h.reduce_max_at([(w.rank as f64, 0), (f64::NAN, 1)]);
                    (m[0], m[1])
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|t| t.join().unwrap()).collect();
        // The largest rank wins the first; the NaN of the smallest global index the second.
        let last = d.ranks() - 1;
        assert_eq!(results[0].0, (last as f64, d.window(last).global(0)));
        let nan_at = d.windows().iter().map(|w| w.global(1)).min().unwrap();
        assert!(results.iter().all(|r| r.1 .0.is_nan() && r.1 .1 == nan_at));
        assert!(nxt > 0);
    }
}
