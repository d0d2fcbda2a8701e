//! The explicit methods on several ranks (the twin of `simple_ts::ranks` on the same
//! decomposition and halo layer, `crate::decomp`): each rank runs the reference (serial or
//! row-parallel) or the OpenCL kernels (`opencl/strips.rs`) on its window of the mesh
//! ([`sub_problem`]: its block and a halo as wide as the stencil, `ng` cells), updating only
//! its owned computed cells, filling the ghost layers of the domain sides it owns, and
//! exchanging the halo after every stage. The CFL rate and
//! |Δ first variable| maxima are merged over all ranks (a maximum is exact, so Δt is the same
//! bits), and a diverging step fails on every rank with the cell the single-process scan finds
//! first. [`ExplicitRanks`] is the decomposed run as one [`Solver`]: rank 0 drives it,
//! gathering the owned cells for snapshots and checkpoints (the whole grid's arrays, so a
//! restart may use another rank count) and scattering a restored state; the other ranks follow
//! its orders ([`ExplicitRanks::follow`]).

mod local;

use std::sync::Arc;

use super::solver::{fill_snapshot, layout, saved_arrays, state_of_saved, Engine};
use super::{Mesh, Problem, StepRule};
use crate::decomp::{Comm, Decomposition, Halo, Layers, Window};
use crate::error::{DeviceError, RunError};
use crate::methods::BackendChoice;
use crate::solver::{Layout, Level, Saved, Snapshot, Solver, SolverInfo, StepReport};

/// Tag of the gathers to rank 0.
const GATHER: u16 = 110;
/// Tag of the scatter from rank 0.
const SCATTER: u16 = 111;

/// Ghost layers and halo of `p`: `ng` ghost layers (none along y in 1D) and a halo of `ng`
/// cells. The stencil reaches 1 cell (first order: the two states of a face, the solid tests
/// of the face's cells) or 2 (MUSCL: the slopes of both cells of a face and their solid
/// tests); there is no test of a cell's position in a stage (the domain ghosts are filled
/// apart, only by the rank that owns the side), so the halo need not be wider.
pub fn layers(p: &Problem) -> Layers {
    let m = &p.mesh;
    Layers {
        ghost_x: m.ng,
        ghost_y: if m.dims == 2 { m.ng } else { 0 },
        halo: m.ng,
    }
}

/// The owned computed cells of `win` in stored columns and rows of the whole mesh `m`.
pub fn owned(m: &Mesh, win: &Window) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
    let cols = win.own_x.start.max(m.ng)..win.own_x.end.min(m.ng + m.nx);
    let rows = if m.dims == 2 {
        win.own_y.start.max(m.ng)..win.own_y.end.min(m.ng + m.ny)
    } else {
        0..1
    };
    (cols, rows)
}

/// The problem of `win`, a rank's window of `p`: the storage of the window (its computed
/// range the owned computed cells, halo flags on the sides that face another rank), the
/// initial state and solid mask cut from `p`'s. The coordinates (`x0`, `y0`, the output grid)
/// stay the whole mesh's: a window computes no cell centre and writes no output.
pub fn sub_problem(p: &Problem, win: &Window) -> Problem {
    let g = &p.mesh;
    let (w, h) = (win.width(), win.height());
    let (cols, rows) = owned(g, win);
    let twod = g.dims == 2;
    let mesh = Mesh {
        nx: w - 2 * g.ng,
        ny: if twod { h - 2 * g.ng } else { 1 },
        nxs: w,
        nys: h,
        ns: w * h,
        own: [
            cols.start - win.x.start,
            cols.end - win.x.start,
            rows.start - win.y.start,
            rows.end - win.y.start,
        ],
        halo: win.neighbours.map(|n| n.is_some()),
        ..*g
    };
    let cut = |a: &[f64]| -> Vec<f64> {
        let mut out = Vec::with_capacity(a.len() / g.ns * mesh.ns);
        for plane in a.chunks(g.ns) {
            for j in win.y.clone() {
                out.extend_from_slice(&plane[j * g.nxs + win.x.start..j * g.nxs + win.x.end]);
            }
        }
        out
    };
    let solid = p.solid.as_ref().map(|s| {
        let mut out = Vec::with_capacity(mesh.ns);
        for j in win.y.clone() {
            out.extend_from_slice(&s[j * g.nxs + win.x.start..j * g.nxs + win.x.end]);
        }
        out
    });
    Problem {
        method: p.method,
        system: p.system,
        num: p.num,
        mesh,
        sides: p.sides.clone(),
        solid,
        rule: p.rule,
        t_end: p.t_end,
        total_steps: p.total_steps,
        initial: cut(&p.initial),
        grid: p.grid.clone(),
        common: p.common.clone(),
    }
}

/// What rank 0 asks of the other ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// Take one step.
    Step,
    /// Gather the current level (`false`) or the one before the last step (`true`).
    Gather(bool),
    /// Take a state scattered from rank 0.
    Restore,
    /// The run is over.
    Done,
}

impl Order {
    fn encode(self) -> Vec<u8> {
        match self {
            Order::Step => vec![0],
            Order::Gather(prev) => vec![1, u8::from(prev)],
            Order::Restore => vec![2],
            Order::Done => vec![3],
        }
    }

    fn decode(b: &[u8]) -> Option<Order> {
        match b {
            [0] => Some(Order::Step),
            [1, p] => Some(Order::Gather(*p != 0)),
            [2] => Some(Order::Restore),
            [3] => Some(Order::Done),
            _ => None,
        }
    }
}

/// An explicit method on one rank of a decomposed run, as the [`Solver`] of the whole problem.
pub struct ExplicitRanks {
    global: Arc<Problem>,
    local: Engine,
    halo: Arc<Halo>,
    dec: Decomposition,
    layout: Layout,
    /// Rank 0: the snapshot arrays of the whole grid.
    out: Vec<Vec<f64>>,
    info: SolverInfo,
    /// The other ranks were released.
    done: bool,
}

/// The decomposed solver of `global` for this rank of `comm` on `choice` (reference,
/// parallel or OpenCL). Collective: every rank calls it.
pub fn build(
    global: Arc<Problem>,
    dec: Decomposition,
    comm: Arc<dyn Comm>,
    choice: &BackendChoice,
) -> Result<ExplicitRanks, DeviceError> {
    let win = dec.window(comm.rank());
    let halo = Arc::new(Halo::new(comm, win.clone()));
    let sub = Arc::new(sub_problem(&global, &win));
    let local = local::engine(sub, &halo, choice)?;
    let mut info = local.rank_info();
    info.ranks = Some(crate::methods::simple_ts::ranks::ranks_record(
        &halo,
        &dec,
        local.backend_name(),
        info.device.clone(),
        local.exchange(),
    ));
    Ok(ExplicitRanks {
        layout: layout(&global),
        global,
        local,
        halo,
        dec,
        out: Vec::new(),
        info,
        done: false,
    })
}

impl ExplicitRanks {
    /// Stop after the current step when `flag` or any other rank's is raised (every step's
    /// reduction carries it).
    pub fn share_interrupt(&self, flag: Arc<std::sync::atomic::AtomicBool>) {
        self.halo.share_interrupt(flag);
    }

    /// The communicator.
    pub fn comm(&self) -> &Arc<dyn Comm> {
        &self.halo.comm
    }

    /// This rank's engine on its window.
    pub fn local(&self) -> &Engine {
        &self.local
    }

    /// This rank's engine on its window, to step it alone (`simplets bench --thread-ranks`:
    /// the exchanges and reductions of a step keep the ranks in step without rank 0's
    /// orders).
    pub fn local_mut(&mut self) -> &mut Engine {
        &mut self.local
    }

    /// This rank's halo exchange.
    pub fn halo(&self) -> &Arc<Halo> {
        &self.halo
    }

    fn order(&self, o: Order) {
        let comm = &self.halo.comm;
        if comm.is_root() && comm.size() > 1 {
            let mut b = o.encode();
            comm.broadcast(&mut b);
        }
    }

    /// Ranks other than 0: answer rank 0's orders until it sends [`Order::Done`]. A diverged
    /// step is rank 0's to report (every rank diverges in the same step).
    pub fn follow(&mut self) {
        assert!(!self.halo.comm.is_root(), "rank 0 leads");
        loop {
            let mut b = Vec::new();
            self.halo.comm.broadcast(&mut b);
            let r = match Order::decode(&b) {
                Some(Order::Step) => self.step().map(|_| ()),
                Some(Order::Gather(prev)) => self.gather(prev).map(|_| ()),
                Some(Order::Restore) => self.restore(Saved {
                    step: 0,
                    time: 0.0,
                    arrays: Vec::new(),
                }),
                Some(Order::Done) => break,
                None => Err(RunError::Agreed(format!("unknown order {b:?} from rank 0"))),
            };
            match r {
                Ok(()) | Err(RunError::Diverged { .. }) => {}
                Err(e) => self.fail(&e),
            }
        }
        self.done = true;
    }

    /// End the whole job after `e` failed on this rank alone.
    fn fail(&self, e: &RunError) -> ! {
        let comm = &self.halo.comm;
        eprintln!(
            "simplets: rank {} of {} failed: {e}",
            comm.rank(),
            comm.size()
        );
        comm.abort(1)
    }

    /// Gather the owned computed cells of the current level (or the previous one) on rank 0:
    /// the conserved state of the whole mesh there (ghosts unset), empty elsewhere.
    fn gather(&self, previous: bool) -> Result<Vec<f64>, RunError> {
        let q = self.local.level(previous)?;
        let (gm, lm) = (&self.global.mesh, &self.local.window().mesh);
        let nv = self.global.nv();
        let comm = &self.halo.comm;
        let mine = || {
            let mut buf = Vec::new();
            for v in 0..nv {
                for j in lm.rows() {
                    let s = v * lm.ns + lm.idx(0, j);
                    buf.extend_from_slice(&q[s + lm.own[0]..s + lm.own[1]]);
                }
            }
            buf
        };
        if !comm.is_root() {
            comm.send(0, GATHER, &mine());
            return Ok(Vec::new());
        }
        let mut all = vec![0.0; nv * gm.ns];
        for rank in 0..comm.size() {
            let w = self.dec.window(rank);
            let (cols, rows) = owned(gm, &w);
            let data = if rank == 0 {
                mine()
            } else {
                let mut buf = vec![0.0; nv * cols.len() * rows.len()];
                comm.recv(rank, GATHER, &mut buf);
                buf
            };
            let mut at = 0;
            for v in 0..nv {
                for j in rows.clone() {
                    let s = v * gm.ns + gm.idx(cols.start, j);
                    all[s..s + cols.len()].copy_from_slice(&data[at..at + cols.len()]);
                    at += cols.len();
                }
            }
        }
        Ok(all)
    }
}

impl Drop for ExplicitRanks {
    /// Rank 0's run is over (finished or failed): release the other ranks.
    fn drop(&mut self) {
        if !self.done && self.halo.comm.is_root() {
            self.order(Order::Done);
        }
    }
}

impl Solver for ExplicitRanks {
    fn name(&self) -> String {
        let base = self.local.backend_name();
        format!(
            "{base} on {} ranks ({} x {})",
            self.dec.ranks(),
            self.dec.px,
            self.dec.py
        )
    }

    fn layout(&self) -> &Layout {
        &self.layout
    }

    fn step(&mut self) -> Result<StepReport, RunError> {
        self.order(Order::Step);
        self.local.step_rank()?;
        let mut res = crate::solver::Residuals::default();
        res.0[0] = self.local.rank_clock().3;
        Ok(StepReport {
            iters: 1,
            res,
            converged: true,
            steady: None,
        })
    }

    fn clock(&self) -> (u64, f64) {
        let (step, time, _, _) = self.local.rank_clock();
        (step, time)
    }

    fn snapshot(&mut self, level: Level) -> Result<Snapshot<'_>, RunError> {
        let previous = level == Level::Previous;
        self.order(Order::Gather(previous));
        let q = self.gather(previous)?;
        let nvar = self.layout.variables.len();
        fill_snapshot(&self.global, nvar, &q, &mut self.out);
        let (step, time) = self.clock();
        Ok(Snapshot {
            step,
            time,
            arrays: self.out.iter().map(Vec::as_slice).collect(),
        })
    }

    fn side_lines(&mut self, due: &[bool]) -> Result<Vec<Vec<String>>, RunError> {
        Ok(vec![vec![]; due.len()])
    }

    fn save(&mut self) -> Result<Saved, RunError> {
        self.order(Order::Gather(false));
        let q = self.gather(false)?;
        let (step, time) = self.clock();
        Ok(Saved {
            step,
            time,
            arrays: saved_arrays(&self.global, &q),
        })
    }

    fn restore(&mut self, saved: Saved) -> Result<(), RunError> {
        self.order(Order::Restore);
        let comm = Arc::clone(&self.halo.comm);
        // Step and time from rank 0 (the others were handed an empty state).
        let mut bytes: Vec<u8> = [saved.step as f64, saved.time]
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        comm.broadcast(&mut bytes);
        let word = |c: &[u8]| f64::from_le_bytes(c.try_into().expect("invariant: 8 bytes"));
        let (step, time) = (word(&bytes[..8]) as u64, word(&bytes[8..16]));
        let gm = &self.global.mesh;
        let nv = self.global.nv();
        let cut = |q: &[f64], w: &Window| -> Vec<f64> {
            let mut buf = Vec::with_capacity(nv * w.len());
            for plane in q.chunks(gm.ns) {
                for j in w.y.clone() {
                    buf.extend_from_slice(&plane[j * gm.nxs + w.x.start..j * gm.nxs + w.x.end]);
                }
            }
            buf
        };
        let win = self.halo.win.clone();
        let q = if comm.is_root() {
            let all = state_of_saved(&self.global, &saved.arrays);
            for r in 1..comm.size() {
                comm.send(r, SCATTER, &cut(&all, &self.dec.window(r)));
            }
            cut(&all, &win)
        } else {
            let mut b = vec![0.0; nv * win.len()];
            comm.recv(0, SCATTER, &mut b);
            b
        };
        self.local.restore_rank(q, step, time, &self.halo)
    }

    fn info(&self) -> SolverInfo {
        let mut info = self.info.clone();
        if let Some(r) = &mut info.ranks {
            let h = self.halo.stats();
            (r.exchanges, r.halo_bytes, r.halo_seconds) = (h.exchanges, h.bytes, h.seconds);
            (r.reductions, r.reduce_seconds) = (h.reductions, h.reduce_seconds);
        }
        info
    }

    fn details(&self) -> Vec<(String, String)> {
        vec![
            ("numerics".into(), self.global.num.label()),
            ("time step".into(), self.global.rule_text()),
            ("next dt".into(), format!("{:?}", self.local.rank_clock().2)),
        ]
    }

    fn finished(&self) -> bool {
        matches!(self.global.rule, StepRule::Cfl(_))
            && self.local.rank_clock().1 >= self.global.t_end
    }
}
