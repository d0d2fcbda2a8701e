//! How the ranks of a decomposed run stay in step: rank 0 runs the run driver, and before each
//! call of [`Backend`] that needs every rank (a step, a gather, a restore) it broadcasts an
//! [`Order`]; the other ranks wait in [`Ranks::follow`] and answer each order with the same
//! call. So the driver, the output and the checkpoints are those of one process, and the
//! other ranks never decide anything on their own: every stop (the end, a diverged step, an
//! output error on rank 0) is rank 0's, sent as [`Order::Done`] when its [`Ranks`] is
//! dropped. A failure of one rank alone (a device error) cannot be agreed on: that rank ends
//! the whole job at once with one line naming it and the reason ([`Ranks::fail`]).

use std::ops::Range;

use super::Ranks;
use crate::error::RunError;
use crate::methods::simple_ts::backend::Backend;
use crate::methods::simple_ts::fields::State;

/// What rank 0 asks of the other ranks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Order {
    /// Take one time step.
    Step,
    /// Gather both levels of every row ([`Backend::state`]).
    State,
    /// Gather iterate k of these stored rows ([`Backend::iterate_rows`]).
    Rows(Vec<Range<usize>>),
    /// Take a state scattered from rank 0 ([`Backend::restore`]).
    Restore,
    /// The run is over.
    Done,
}

impl Order {
    /// The order as bytes: a tag, then for [`Order::Rows`] each range as two u64.
    pub fn encode(&self) -> Vec<u8> {
        match self {
            Order::Step => vec![0],
            Order::State => vec![1],
            Order::Rows(rows) => {
                let mut b = vec![2];
                for r in rows {
                    b.extend_from_slice(&(r.start as u64).to_le_bytes());
                    b.extend_from_slice(&(r.end as u64).to_le_bytes());
                }
                b
            }
            Order::Restore => vec![3],
            Order::Done => vec![4],
        }
    }

    /// The inverse of [`Order::encode`] (`None`: not an order).
    pub fn decode(b: &[u8]) -> Option<Order> {
        let (&tag, rest) = b.split_first()?;
        Some(match tag {
            0 => Order::Step,
            1 => Order::State,
            2 if rest.len() % 16 == 0 => {
                let word = |c: &[u8]| u64::from_le_bytes(c.try_into().expect("8 bytes")) as usize;
                Order::Rows(
                    rest.chunks(16)
                        .map(|c| word(&c[..8])..word(&c[8..]))
                        .collect(),
                )
            }
            3 => Order::Restore,
            4 => Order::Done,
            _ => return None,
        })
    }
}

impl Ranks {
    /// Rank 0: send `order` to the other ranks (nothing with one rank).
    pub(super) fn order(&self, order: &Order) {
        let comm = &self.halo.comm;
        if comm.is_root() && comm.size() > 1 {
            let mut b = order.encode();
            comm.broadcast(&mut b);
        }
    }

    /// Ranks other than 0: answer rank 0's orders until it sends [`Order::Done`]. A diverged
    /// step is rank 0's to report (every rank diverges in the same iteration, the residuals
    /// being merged); any other failure ends the job ([`Ranks::fail`]).
    pub fn follow(&mut self) {
        assert!(
            !self.halo.comm.is_root(),
            "rank 0 leads, it does not follow"
        );
        loop {
            let mut b = Vec::new();
            self.halo.comm.broadcast(&mut b);
            let order = Order::decode(&b).unwrap_or_else(|| {
                self.fail(&RunError::Agreed(format!(
                    "unknown order {b:?} from rank 0"
                )))
            });
            let done = match order {
                Order::Step => self.step().map(|_| ()),
                Order::State => self.state().map(|_| ()),
                Order::Rows(rows) => self.iterate_rows(&rows).map(|_| ()),
                Order::Restore => self.restore(State::empty()),
                Order::Done => break,
            };
            match done {
                Ok(()) | Err(RunError::Diverged { .. }) => {}
                Err(e) => self.fail(&e),
            }
        }
        self.done = true;
    }

    /// End the whole job after `e` failed on this rank alone: one line on stderr with the
    /// rank and the reason, then `MPI_Abort` (the other ranks may be waiting for this one).
    pub fn fail(&self, e: &RunError) -> ! {
        let comm = &self.halo.comm;
        eprintln!(
            "simplets: rank {} of {} failed: {e}",
            comm.rank(),
            comm.size()
        );
        comm.abort(1)
    }
}

impl Drop for Ranks {
    /// Rank 0's run is over (finished or failed): release the other ranks.
    fn drop(&mut self) {
        if !self.done && self.halo.comm.is_root() {
            self.order(&Order::Done);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_survive_their_encoding() {
        for o in [
            Order::Step,
            Order::State,
            Order::Rows(vec![0..3, 7..19]),
            Order::Rows(vec![]),
            Order::Restore,
            Order::Done,
        ] {
            assert_eq!(Order::decode(&o.encode()), Some(o));
        }
        assert_eq!(Order::decode(&[9]), None);
        assert_eq!(Order::decode(&[2, 1]), None);
        assert_eq!(Order::decode(&[]), None);
    }
}
