//! SIMPLE-TS on several ranks: each rank runs any backend on its window of the grid
//! ([`sub::sub_problem`]), exchanging halos after every phase that reads neighbours and
//! merging the residual maxima over all ranks, so every rank takes the same iterations and
//! the owned values are the single-process bits. [`Ranks`] is the decomposed run as one
//! [`Backend`]: the whole problem (layout, forces, probes), with the fields gathered on rank 0
//! when the driver reads them and scattered from rank 0 on a restart.
//!
//! The hooks in the backends: `reference/iterate.rs` (after the pseudo-velocities, after each
//! loop-3 sweep, after the correction and ghosts; the residuals), `Reference::update_fluxes`
//! (after the face densities), and the OpenCL phase form (`opencl/phase.rs`, the same points,
//! halos staged through the host).

pub mod orders;
pub mod sub;

use std::ops::Range;
use std::sync::Arc;

pub use orders::Order;
pub use sub::sub_problem;

use super::backend::Backend;
use super::fields::{Fields, State};
use super::problem::Problem;
use crate::decomp::{Comm, Decomposition, Halo, HaloStats, Window};
use crate::error::RunError;
use crate::solver::{SolverInfo, StepReport};

/// Tag of the gathers to rank 0.
const GATHER: u16 = 100;
/// Tag of the scatter from rank 0 (restart).
const SCATTER: u16 = 101;

/// The decomposed run of one rank as a [`Backend`] of the whole problem.
pub struct Ranks {
    global: Arc<Problem>,
    local: Box<dyn Backend>,
    halo: Arc<Halo>,
    dec: Decomposition,
    /// Rank 0: the gathered state of the whole grid (allocated at the first gather); other
    /// ranks: empty.
    host: State,
    /// The manifest record of every rank (rank 0; built at set-up).
    info: SolverInfo,
    /// The other ranks were released ([`Order::Done`] sent or received).
    done: bool,
}

impl Ranks {
    /// Wrap `local`, the backend of this rank's window of `global`, with its halo exchange.
    /// Collective: every rank calls it (the ranks' devices go to rank 0's manifest record).
    pub fn new(
        global: Arc<Problem>,
        local: Box<dyn Backend>,
        halo: Arc<Halo>,
        dec: Decomposition,
    ) -> Ranks {
        let mut info = local.info();
        let exchange = local.halo_exchange().map(String::from);
        info.ranks = Some(ranks_record(
            &halo,
            &dec,
            local.name(),
            info.device.clone(),
            exchange,
        ));
        Ranks {
            global,
            local,
            halo,
            dec,
            host: State::empty(),
            info,
            done: false,
        }
    }

    /// Stop after the current step when `flag` (this rank's SIGTERM/SIGINT flag) or any other
    /// rank's is raised: the reductions of every loop-2 iteration carry it to all ranks.
    pub fn share_interrupt(&self, flag: Arc<std::sync::atomic::AtomicBool>) {
        self.halo.share_interrupt(flag);
    }

    /// The halo traffic of this rank so far.
    pub fn halo_stats(&self) -> HaloStats {
        self.halo.stats()
    }

    /// The communicator.
    pub fn comm(&self) -> &Arc<dyn Comm> {
        &self.halo.comm
    }

    /// The decomposition.
    pub fn decomposition(&self) -> &Decomposition {
        &self.dec
    }

    /// This rank's backend.
    pub fn local(&mut self) -> &mut dyn Backend {
        self.local.as_mut()
    }

    /// Gather on rank 0 the owned cells of `levels` (`false`: iterate k, `true`: level n) in
    /// the stored rows `rows` of the whole grid (every rank calls it). Rank 0's host state
    /// then holds them at their places.
    fn gather(&mut self, levels: &[bool], rows: &[Range<usize>]) -> Result<(), RunError> {
        let win = self.halo.win.clone();
        let local_rows: Vec<Range<usize>> = rows
            .iter()
            .filter_map(|r| {
                let (a, b) = (r.start.max(win.own_y.start), r.end.min(win.own_y.end));
                (a < b).then(|| a - win.y.start..b - win.y.start)
            })
            .collect();
        let need_n = levels.contains(&true);
        let st = if need_n {
            self.local.state()?
        } else {
            self.local.iterate_rows(&local_rows)?
        };
        let (step, time) = (st.step, st.time);
        let comm = Arc::clone(&self.halo.comm);
        let pieces = |w: &Window| -> Vec<(usize, Range<usize>)> {
            // (row of the whole grid, its owned columns) in rows order.
            rows.iter()
                .flat_map(|r| r.start.max(w.own_y.start)..r.end.min(w.own_y.end))
                .map(|j| (j, w.own_x.clone()))
                .collect()
        };
        if comm.rank() != 0 {
            let mut buf = Vec::new();
            for &n in levels {
                let f = if n { &st.n } else { &st.k };
                for a in fields(f) {
                    for (j, x) in pieces(&win) {
                        let s = (j - win.y.start) * win.width();
                        buf.extend_from_slice(
                            &a[s + x.start - win.x.start..s + x.end - win.x.start],
                        );
                    }
                }
            }
            comm.send(0, GATHER, &buf);
            return Ok(());
        }
        let n = self.global.grid.len();
        let nxt = self.global.grid.nxt;
        let mut host = std::mem::replace(&mut self.host, State::empty());
        host.allocate(n);
        host.step = step;
        host.time = time;
        // Rank 0's own cells.
        for &lv in levels {
            let (src, dst) = if lv {
                (&st.n, &mut host.n)
            } else {
                (&st.k, &mut host.k)
            };
            for (a, b) in fields(src).into_iter().zip(fields_mut(dst)) {
                for (j, x) in pieces(&win) {
                    let s = (j - win.y.start) * win.width() + x.start - win.x.start;
                    b[j * nxt + x.start..j * nxt + x.end].copy_from_slice(&a[s..s + x.len()]);
                }
            }
        }
        for r in 1..comm.size() {
            let w = self.dec.window(r);
            let p = pieces(&w);
            let cells: usize = p.iter().map(|(_, x)| x.len()).sum();
            let mut buf = vec![0.0; cells * 6 * levels.len()];
            comm.recv(r, GATHER, &mut buf);
            let mut at = 0;
            for &lv in levels {
                let dst = if lv { &mut host.n } else { &mut host.k };
                for b in fields_mut(dst) {
                    for (j, x) in &p {
                        b[j * nxt + x.start..j * nxt + x.end]
                            .copy_from_slice(&buf[at..at + x.len()]);
                        at += x.len();
                    }
                }
            }
        }
        self.host = host;
        Ok(())
    }
}

/// The six arrays of a field set, in [`Fields`] order.
fn fields(f: &Fields) -> [&[f64]; 6] {
    [&f.u, &f.v, &f.p, &f.T, &f.rho, &f.Gam]
}

fn fields_mut(f: &mut Fields) -> [&mut Vec<f64>; 6] {
    [
        &mut f.u, &mut f.v, &mut f.p, &mut f.T, &mut f.rho, &mut f.Gam,
    ]
}

/// The manifest record of a decomposed run: the layout and every rank's block, backend,
/// device and halo exchange on a device (complete on rank 0; collective: every rank calls
/// it). Shared by every method.
pub(crate) fn ranks_record(
    halo: &Halo,
    dec: &Decomposition,
    backend: String,
    device: Option<crate::solver::DeviceRecord>,
    exchange: Option<String>,
) -> crate::solver::RanksRecord {
    let mine = serde_json::to_string(&RankRecord {
        rank: halo.win.rank,
        node_rank: halo.comm.node_rank(),
        host: hostname(),
        columns: [halo.win.own_x.start, halo.win.own_x.end],
        rows: [halo.win.own_y.start, halo.win.own_y.end],
        backend,
        device,
        exchange,
    })
    .expect("invariant: a rank record serialises");
    let all = gather_text(halo.comm.as_ref(), &mine);
    crate::solver::RanksRecord {
        transport: halo.comm.kind().to_string(),
        ranks: dec.ranks(),
        ranks_x: dec.px,
        ranks_y: dec.py,
        halo: dec.layers.halo,
        each: all
            .iter()
            .filter_map(|t| serde_json::from_str(t).ok())
            .collect(),
        ..Default::default()
    }
}

/// One rank of a decomposed run, for the manifest.
#[derive(Debug, Clone, serde::Serialize)]
struct RankRecord {
    rank: usize,
    node_rank: usize,
    host: String,
    columns: [usize; 2],
    rows: [usize; 2],
    backend: String,
    device: Option<crate::solver::DeviceRecord>,
    /// A device rank's halo exchange: blocking, or overlapped with the interior.
    #[serde(skip_serializing_if = "Option::is_none")]
    exchange: Option<String>,
}

/// This machine's host name (empty if unknown).
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_default()
}

/// Every rank's `text` on rank 0, in rank order (empty elsewhere; collective).
pub fn gather_text(comm: &dyn Comm, text: &str) -> Vec<String> {
    let lens = comm.all_gather(&[text.len() as f64]);
    let code = |t: &str| t.bytes().map(f64::from).collect::<Vec<_>>();
    if comm.rank() != 0 {
        comm.send(0, GATHER, &code(text));
        return Vec::new();
    }
    let mut out = vec![text.to_string()];
    for (r, &len) in lens.iter().enumerate().skip(1) {
        let mut b = vec![0.0; len as usize];
        comm.recv(r, GATHER, &mut b);
        out.push(String::from_utf8_lossy(&b.iter().map(|&x| x as u8).collect::<Vec<_>>()).into());
    }
    out
}

impl Backend for Ranks {
    fn name(&self) -> String {
        format!(
            "{} on {} ranks ({} x {})",
            self.local.name(),
            self.dec.ranks(),
            self.dec.px,
            self.dec.py
        )
    }

    fn problem(&self) -> &Arc<Problem> {
        &self.global
    }

    fn step(&mut self) -> Result<StepReport, RunError> {
        self.order(&Order::Step);
        match self.local.step() {
            Err(e) if !matches!(e, RunError::Diverged { .. }) => self.fail(&e),
            r => r,
        }
    }

    fn clock(&self) -> (u64, f64) {
        self.local.clock()
    }

    fn state(&mut self) -> Result<&State, RunError> {
        self.order(&Order::State);
        let all = 0..self.global.grid.nyt;
        if let Err(e) = self.gather(&[true, false], std::slice::from_ref(&all)) {
            self.fail(&e)
        }
        Ok(&self.host)
    }

    fn iterate_rows(&mut self, rows: &[Range<usize>]) -> Result<&State, RunError> {
        self.order(&Order::Rows(rows.to_vec()));
        if let Err(e) = self.gather(&[false], rows) {
            self.fail(&e)
        }
        Ok(&self.host)
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

    fn restore(&mut self, state: State) -> Result<(), RunError> {
        self.order(&Order::Restore);
        let comm = Arc::clone(&self.halo.comm);
        let win = self.halo.win.clone();
        // Step and time from rank 0 (the others were handed an empty state).
        let mut clock = [state.step as f64, state.time];
        let mut bytes: Vec<u8> = clock.iter().flat_map(|x| x.to_le_bytes()).collect();
        comm.broadcast(&mut bytes);
        for (c, b) in clock.iter_mut().zip(bytes.chunks(8)) {
            *c = f64::from_le_bytes(b.try_into().expect("invariant: 8 bytes"));
        }
        let nxt = self.global.grid.nxt;
        let cut = |st: &State, w: &Window| -> Vec<f64> {
            let mut buf = Vec::with_capacity(12 * w.len());
            for f in [&st.n, &st.k] {
                for a in fields(f) {
                    for j in w.y.clone() {
                        buf.extend_from_slice(&a[j * nxt + w.x.start..j * nxt + w.x.end]);
                    }
                }
            }
            buf
        };
        let mine = if comm.rank() == 0 {
            for r in 1..comm.size() {
                comm.send(r, SCATTER, &cut(&state, &self.dec.window(r)));
            }
            cut(&state, &win)
        } else {
            let mut b = vec![0.0; 12 * win.len()];
            comm.recv(0, SCATTER, &mut b);
            b
        };
        drop(state);
        let n = win.len();
        let mut it = mine.chunks(n).map(<[f64]>::to_vec);
        let mut level = || Fields {
            u: it.next().unwrap_or_default(),
            v: it.next().unwrap_or_default(),
            p: it.next().unwrap_or_default(),
            T: it.next().unwrap_or_default(),
            rho: it.next().unwrap_or_default(),
            Gam: it.next().unwrap_or_default(),
        };
        let (ln, lk) = (level(), level());
        self.host = State::empty();
        let restored = self.local.restore(State {
            n: ln,
            k: lk,
            step: clock[0] as u64,
            time: clock[1],
        });
        if let Err(e) = restored {
            self.fail(&e)
        }
        Ok(())
    }

    fn details(&self) -> Vec<(String, String)> {
        self.local.details()
    }

    fn set_overlap(&mut self, on: bool) {
        self.local.set_overlap(on)
    }

    fn halo_exchange(&self) -> Option<&'static str> {
        self.local.halo_exchange()
    }
}

/// The decomposed solver of `case` on `choice` for this rank of `comm`: the whole problem, the
/// layout `dec`, this rank's window on its backend (OpenCL: the device `choice.device` names,
/// else the node-local rank's GPU).
pub fn build(
    pb: Arc<Problem>,
    dec: Decomposition,
    comm: Arc<dyn Comm>,
    choice: &crate::methods::BackendChoice,
) -> Result<Ranks, crate::error::DeviceError> {
    use crate::methods::BackendKind;
    if let Some(what) = pb.case.single_process_only() {
        return Err(crate::error::DeviceError::Unsupported(format!(
            "a decomposed run does not support {what} yet: run it on one process"
        )));
    }
    let win = dec.window(comm.rank());
    let halo = Arc::new(Halo::new(Arc::clone(&comm), win.clone()));
    let sub = Arc::new(sub_problem(&pb, &win));
    let local: Box<dyn Backend> = match choice.kind {
        BackendKind::Reference | BackendKind::Parallel => {
            let mut r = super::reference::Reference::on(sub, choice.kind == BackendKind::Parallel);
            r.halo = Some(Arc::clone(&halo));
            // The face fluxes of the initial state, halos included.
            r.update_fluxes();
            Box::new(r)
        }
        BackendKind::OpenCl => Box::new(opencl_rank(sub, &halo, choice)?),
    };
    Ok(Ranks::new(pb, local, halo, dec))
}

/// The device of a rank: the one `--device` names, else the node-local rank's fp64 GPU, else
/// the default device (`device::select_for_rank`).
pub fn rank_device(
    sel: Option<&str>,
    node_rank: usize,
) -> Result<crate::device::DeviceInfo, crate::error::DeviceError> {
    crate::device::select_for_rank(&crate::device::list_devices()?, sel, node_rank)
}

/// The OpenCL phase form on a rank's window `sub`, exchanging through `halo` (the fused form
/// checks loop 2 on the device and cannot merge residuals over ranks: the phase form runs
/// instead, and `simplets run` refuses `--kernel fused` on ranks).
fn opencl_rank(
    sub: Arc<Problem>,
    halo: &Arc<Halo>,
    choice: &crate::methods::BackendChoice,
) -> Result<super::opencl::phase::OpenCl, crate::error::DeviceError> {
    use super::case::Convection;
    use super::opencl::phase::{device_bytes, OpenCl, OpenClOptions, RED_WG};
    /// Ranks that are threads of one process build one at a time: PoCL's compiler is not
    /// safe to run from several threads at once.
    static BUILD: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let dev = rank_device(choice.device.as_deref(), halo.comm.node_rank())?;
    crate::device::require_fp64(&dev)?;
    let case = &sub.case;
    let explicit = case.scheme.convection == Convection::Explicit;
    let (total, largest) = device_bytes(sub.grid.len() as u64, explicit, case.solver.sweeps());
    crate::device::check_capacity(&dev, total, largest, (2 * RED_WG * 8) as u64, RED_WG)?;
    let opts = OpenClOptions {
        device: None,
        cache: choice.cache.clone(),
        log_dir: choice.log_dir.clone(),
        lean: false,
    };
    let mut cl = {
        let _one = BUILD
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        OpenCl::on(sub, &dev, &opts)?
    };
    cl.set_halo(Arc::clone(halo))?;
    Ok(cl)
}
