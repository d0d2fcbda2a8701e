//! The communicator of a decomposed run: point-to-point messages of f64 values between ranks
//! and the few collectives the solvers and the run driver need. Errors of the transport are
//! fatal (MPI's default handler aborts the job), so nothing here returns a `Result`.

/// A message to send: (rank, tag, values).
pub type Outgoing<'a> = (usize, u16, &'a [f64]);
/// A message to receive: (rank, tag, room for exactly its values).
pub type Incoming<'a> = (usize, u16, &'a mut [f64]);

/// Ranks that exchange f64 messages.
pub trait Comm: Send + Sync {
    /// This rank.
    fn rank(&self) -> usize;
    /// Number of ranks.
    fn size(&self) -> usize;
    /// This rank's index among the ranks of its node (picks the node-local device).
    fn node_rank(&self) -> usize {
        self.rank()
    }
    /// The transport, for logs and the manifest (`mpi`, `threads`).
    fn kind(&self) -> &'static str;
    /// Send every message of `sends` and receive every one of `recvs` (all started before
    /// any is waited for), then wait for all of them.
    fn exchange(&self, sends: &[Outgoing], recvs: &mut [Incoming]);
    /// Send `data` to `to` (returns when the buffer may be reused).
    fn send(&self, to: usize, tag: u16, data: &[f64]) {
        self.exchange(&[(to, tag, data)], &mut []);
    }
    /// Receive exactly `out.len()` values from `from`.
    fn recv(&self, from: usize, tag: u16, out: &mut [f64]) {
        self.exchange(&[], &mut [(from, tag, out)]);
    }
    /// Every rank's `mine` (all of one length), in rank order.
    fn all_gather(&self, mine: &[f64]) -> Vec<f64>;
    /// Rank 0's `bytes` on every rank (the others' argument is replaced).
    fn broadcast(&self, bytes: &mut Vec<u8>);
    /// Wait for every rank.
    fn barrier(&self);
    /// End the whole job now with status `code` (after a rank failed alone: the others may be
    /// waiting for it).
    fn abort(&self, code: i32) -> !;

    /// True on rank 0, the rank that writes the output.
    fn is_root(&self) -> bool {
        self.rank() == 0
    }

    /// True if `flag` is true on any rank.
    fn any(&self, flag: bool) -> bool {
        self.all_gather(&[f64::from(u8::from(flag))])
            .iter()
            .any(|&x| x != 0.0)
    }

    /// Rank 0's text on every rank.
    fn broadcast_text(&self, text: &str) -> String {
        let mut b = text.as_bytes().to_vec();
        self.broadcast(&mut b);
        String::from_utf8_lossy(&b).into_owned()
    }
}
