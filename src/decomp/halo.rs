//! The halo exchange of one rank ([`Halo`]): which rectangles of its window go to and come
//! from which neighbour ([`Strip`], in two stages: x then y), the exchange of host arrays, the
//! residual maxima of the owned cells merged over all ranks, and the counters
//! `simplets bench` reports ([`HaloStats`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use super::{Comm, Window, EAST, NORTH, SOUTH, WEST};

/// A rectangle of a window: columns `x0..x1`, rows `y0..y1` (window coordinates).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// First column.
    pub x0: usize,
    /// Past the last column.
    pub x1: usize,
    /// First row.
    pub y0: usize,
    /// Past the last row.
    pub y1: usize,
}

impl Rect {
    /// Cells in the rectangle.
    pub fn len(&self) -> usize {
        (self.x1 - self.x0) * (self.y1 - self.y0)
    }

    /// True if it has no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Copy the rectangle of `a` (rows of `width` values) into `out`, row by row.
    pub fn pack(&self, a: &[f64], width: usize, out: &mut [f64]) {
        let w = self.x1 - self.x0;
        for (r, j) in (self.y0..self.y1).enumerate() {
            let s = self.x0 + j * width;
            out[r * w..(r + 1) * w].copy_from_slice(&a[s..s + w]);
        }
    }

    /// The inverse of [`Rect::pack`].
    pub fn unpack(&self, a: &mut [f64], width: usize, data: &[f64]) {
        let w = self.x1 - self.x0;
        for (r, j) in (self.y0..self.y1).enumerate() {
            let s = self.x0 + j * width;
            a[s..s + w].copy_from_slice(&data[r * w..(r + 1) * w]);
        }
    }
}

/// Where the arrays of an exchange live ([`Halo::exchange_with`]): each buffer of a strip
/// holds the strip's rectangle of every array, array after array, each packed row by row
/// ([`Rect::pack`]).
pub trait StripIo {
    /// Error of a read or a write.
    type Error;
    /// Arrays exchanged.
    fn arrays(&self) -> usize;
    /// Fill `out[s]` with the rectangles `rects[s]` of every array.
    fn read(&mut self, rects: &[Rect], out: &mut [Vec<f64>]) -> Result<(), Self::Error>;
    /// Store `data[s]` into the rectangles `rects[s]` of every array.
    fn write(&mut self, rects: &[Rect], data: &[Vec<f64>]) -> Result<(), Self::Error>;
    /// Start reading the rectangles `rects[s]` without waiting for them
    /// ([`StripIo::finish_read`] takes them): a device starts the transfers. By default
    /// nothing: the whole read happens in `finish_read`.
    fn start_read(&mut self, rects: &[Rect]) -> Result<(), Self::Error> {
        let _ = rects;
        Ok(())
    }
    /// The reads [`StripIo::start_read`] started (with the same `rects`), into `out` as
    /// [`StripIo::read`] fills it.
    fn finish_read(&mut self, rects: &[Rect], out: &mut [Vec<f64>]) -> Result<(), Self::Error> {
        self.read(rects, out)
    }
}

/// Host arrays, each a whole window of rows of `width` values.
struct HostArrays<'a, 'b> {
    arrays: &'a mut [&'b mut [f64]],
    width: usize,
}

impl StripIo for HostArrays<'_, '_> {
    type Error = std::convert::Infallible;

    fn arrays(&self) -> usize {
        self.arrays.len()
    }

    fn read(&mut self, rects: &[Rect], out: &mut [Vec<f64>]) -> Result<(), Self::Error> {
        for (r, buf) in rects.iter().zip(out) {
            let n = r.len();
            for (a, chunk) in self.arrays.iter().zip(buf.chunks_mut(n.max(1))) {
                r.pack(a, self.width, chunk);
            }
        }
        Ok(())
    }

    fn write(&mut self, rects: &[Rect], data: &[Vec<f64>]) -> Result<(), Self::Error> {
        for (r, buf) in rects.iter().zip(data) {
            let n = r.len();
            for (a, chunk) in self.arrays.iter_mut().zip(buf.chunks(n.max(1))) {
                r.unpack(a, self.width, chunk);
            }
        }
        Ok(())
    }
}

/// What one rank sends to and receives from one neighbour in one stage of an exchange.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strip {
    /// The neighbour.
    pub peer: usize,
    /// Tag of the message sent (the direction it travels).
    pub send_tag: u16,
    /// Tag of the message received.
    pub recv_tag: u16,
    /// The owned cells the neighbour holds as halo.
    pub send: Rect,
    /// The halo cells the neighbour owns.
    pub recv: Rect,
}

/// Exchanges and their traffic so far (this rank).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct HaloStats {
    /// Halo exchanges (one per phase that needs one).
    pub exchanges: u64,
    /// Bytes sent.
    pub bytes: u64,
    /// Messages sent.
    pub messages: u64,
    /// Wall seconds spent in exchanges (packing, transfers, waiting).
    pub seconds: f64,
    /// Residual reductions over all ranks.
    pub reductions: u64,
    /// Wall seconds spent in them.
    pub reduce_seconds: f64,
}

/// One rank's halo exchange and reductions.
pub struct Halo {
    /// The communicator.
    pub comm: Arc<dyn Comm>,
    /// This rank's window.
    pub win: Window,
    stages: [Vec<Strip>; 2],
    stats: Mutex<HaloStats>,
    /// The rank's SIGTERM/SIGINT flag, shared with every rank through the reductions.
    interrupt: OnceLock<Arc<AtomicBool>>,
}

impl std::fmt::Debug for Halo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Halo")
            .field("rank", &self.win.rank)
            .field("win", &self.win)
            .finish()
    }
}

/// Tag of a message travelling towards `side`.
fn tag(side: usize) -> u16 {
    side as u16
}

/// The side opposite `side`.
fn opposite(side: usize) -> usize {
    side ^ 1
}

impl Halo {
    /// The exchange of `win` over `comm`.
    pub fn new(comm: Arc<dyn Comm>, win: Window) -> Halo {
        let (w, h) = (win.width(), win.height());
        let (ox, oy) = (win.own_x_local(), win.own_y_local());
        let hw = win.halo;
        let strip = |side: usize, send: Rect, recv: Rect| {
            win.neighbours[side].map(|peer| Strip {
                peer,
                send_tag: tag(side),
                recv_tag: tag(opposite(side)),
                send,
                recv,
            })
        };
        let cols = |x0, x1| Rect {
            x0,
            x1,
            y0: oy.start,
            y1: oy.end,
        };
        let rows = |y0, y1| Rect {
            x0: 0,
            x1: w,
            y0,
            y1,
        };
        let stage_x = [
            strip(
                WEST,
                cols(ox.start, ox.start + hw),
                cols(ox.start - hw.min(ox.start), ox.start),
            ),
            strip(EAST, cols(ox.end - hw, ox.end), cols(ox.end, w)),
        ];
        let stage_y = [
            strip(
                SOUTH,
                rows(oy.start, oy.start + hw),
                rows(oy.start - hw.min(oy.start), oy.start),
            ),
            strip(NORTH, rows(oy.end - hw, oy.end), rows(oy.end, h)),
        ];
        Halo {
            comm,
            win,
            stages: [
                stage_x.into_iter().flatten().collect(),
                stage_y.into_iter().flatten().collect(),
            ],
            stats: Mutex::new(HaloStats::default()),
            interrupt: OnceLock::new(),
        }
    }

    /// The two stages of an exchange (x, then y); a stage without neighbours is empty.
    pub fn stages(&self) -> &[Vec<Strip>; 2] {
        &self.stages
    }

    /// Traffic so far.
    pub fn stats(&self) -> HaloStats {
        *self.counters()
    }

    fn counters(&self) -> std::sync::MutexGuard<'_, HaloStats> {
        self.stats
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Count one exchange of `bytes` in `messages` messages taking `seconds`.
    pub fn count(&self, bytes: u64, messages: u64, seconds: f64) {
        let mut s = self.counters();
        s.exchanges += 1;
        s.bytes += bytes;
        s.messages += messages;
        s.seconds += seconds;
    }

    /// Replace the halo of every array of `arrays` (each a whole window, rows of
    /// [`Window::width`] values) with its owners' values.
    pub fn exchange(&self, arrays: &mut [&mut [f64]]) {
        let width = self.win.width();
        let mut io = HostArrays { arrays, width };
        match self.exchange_with(&mut io) {
            Ok(()) => {}
            Err(never) => match never {},
        }
    }

    /// Every halo rectangle of the window (the received rectangles of both stages): the
    /// cells this rank holds and another one owns.
    pub fn halo_rects(&self) -> Vec<Rect> {
        self.stages.iter().flatten().map(|s| s.recv).collect()
    }

    /// [`Halo::exchange`] of arrays that `io` holds (host slices, or device buffers of which
    /// only the strips are read and written): per stage, the send rectangles of every
    /// neighbour are read in one call, the messages travel, and the received rectangles are
    /// written in one call. Counted in [`HaloStats`] with the reads and writes.
    pub fn exchange_with<S: StripIo>(&self, io: &mut S) -> Result<(), S::Error> {
        self.exchange_during(io, |_| Ok(()))
    }

    /// [`Halo::exchange_with`] with `meanwhile` run between starting and finishing the reads
    /// of the first stage that has neighbours ([`StripIo::start_read`]; always run, also
    /// without neighbours): a device queues the work that does not touch the strips there,
    /// and it runs while the host waits for the strips and the messages travel. Counted in
    /// [`HaloStats`] without the time of `meanwhile` itself.
    pub fn exchange_during<S: StripIo>(
        &self,
        io: &mut S,
        meanwhile: impl FnOnce(&mut S) -> Result<(), S::Error>,
    ) -> Result<(), S::Error> {
        let t = Instant::now();
        let mut aside = 0.0;
        let mut meanwhile = Some(meanwhile);
        let count = io.arrays();
        let (mut bytes, mut messages) = (0, 0);
        for stage in &self.stages {
            if stage.is_empty() {
                continue;
            }
            let sends: Vec<Rect> = stage.iter().map(|s| s.send).collect();
            let mut out: Vec<Vec<f64>> = sends.iter().map(|r| vec![0.0; r.len() * count]).collect();
            if let Some(m) = meanwhile.take() {
                io.start_read(&sends)?;
                let t = Instant::now();
                m(io)?;
                aside = t.elapsed().as_secs_f64();
                io.finish_read(&sends, &mut out)?;
            } else {
                io.read(&sends, &mut out)?;
            }
            let mut inb: Vec<Vec<f64>> = stage
                .iter()
                .map(|s| vec![0.0; s.recv.len() * count])
                .collect();
            {
                let sends: Vec<_> = stage
                    .iter()
                    .zip(&out)
                    .map(|(s, b)| (s.peer, s.send_tag, &b[..]))
                    .collect();
                let mut recvs: Vec<_> = stage
                    .iter()
                    .zip(inb.iter_mut())
                    .map(|(s, b)| (s.peer, s.recv_tag, &mut b[..]))
                    .collect();
                self.comm.exchange(&sends, &mut recvs);
            }
            let recvs: Vec<Rect> = stage.iter().map(|s| s.recv).collect();
            io.write(&recvs, &inb)?;
            bytes += out.iter().map(|b| 8 * b.len() as u64).sum::<u64>();
            messages += out.len() as u64;
        }
        if let Some(m) = meanwhile {
            return m(io);
        }
        self.count(bytes, messages, t.elapsed().as_secs_f64() - aside);
        Ok(())
    }

    /// The largest `|d(k)|` over the owned window indices `k` where `d` gives a value, with
    /// its window index: the rule of the single-process scan (row by row, x fastest; NaN wins,
    /// then the larger value; a tie keeps the first), over the owned cells only.
    pub fn owned_max(&self, d: impl Fn(usize) -> Option<f64>) -> (f64, usize) {
        let w = self.win.width();
        let mut best = (0.0f64, 0usize);
        for j in self.win.own_y_local() {
            for i in self.win.own_x_local() {
                let k = i + j * w;
                if let Some(x) = d(k) {
                    let x = x.abs();
                    if x > best.0 || (x.is_nan() && !best.0.is_nan()) {
                        best = (x, k);
                    }
                }
            }
        }
        best
    }

    /// Share `flag` (the run's SIGTERM/SIGINT flag) with the other ranks: every reduction
    /// carries it, and a rank sets its own when any rank's is set, so a signal to any one
    /// rank stops the run (rank 0 checkpoints) after the current step.
    pub fn share_interrupt(&self, flag: Arc<AtomicBool>) {
        let _ = self.interrupt.set(flag);
    }

    /// Merge per-rank maxima (value, window index) over all ranks: the value and the whole
    /// grid's stored index a single-process scan finds (NaN wins, then the larger value, ties
    /// to the smaller index), identical on every rank.
    pub fn reduce_max_at<const N: usize>(&self, local: [(f64, usize); N]) -> [(f64, usize); N] {
        let t = Instant::now();
        let flag = self.interrupt.get();
        let raised = flag.is_some_and(|f| f.load(Ordering::SeqCst));
        let mut mine: Vec<f64> = local
            .iter()
            .flat_map(|&(v, k)| [v, self.win.global(k) as f64])
            .collect();
        mine.push(f64::from(u8::from(raised)));
        let all = self.comm.all_gather(&mine);
        let mut out = [(0.0f64, 0usize); N];
        let mut any = false;
        for rank in all.chunks(2 * N + 1) {
            for (m, pair) in out.iter_mut().zip(rank[..2 * N].chunks(2)) {
                merge(m, (pair[0], pair[1] as usize));
            }
            any |= rank[2 * N] != 0.0;
        }
        if let (true, Some(f)) = (any && !raised, flag) {
            f.store(true, Ordering::SeqCst);
        }
        let mut s = self.counters();
        s.reductions += 1;
        s.reduce_seconds += t.elapsed().as_secs_f64();
        out
    }
}

/// Merge `cand` into `cur`: NaN wins (the smaller index among NaNs), then the larger value,
/// ties keep the smaller index.
pub fn merge(cur: &mut (f64, usize), cand: (f64, usize)) {
    let (d, k) = cand;
    let take = if d.is_nan() || cur.0.is_nan() {
        d.is_nan() && (!cur.0.is_nan() || k < cur.1)
    } else {
        d > cur.0 || (d == cur.0 && k < cur.1)
    };
    if take {
        *cur = cand;
    }
}
