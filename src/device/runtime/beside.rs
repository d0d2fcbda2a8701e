//! Two kernels at once ([`Runtime::launch_beside`]): one on the side queue, one on the main
//! queue, ordered against everything else as if both were one command of the main queue.
//! A GPU runs the work-groups of two kernels side by side only from two queues: on one
//! in-order queue the second kernel starts when the first has finished (an H200 through
//! NVIDIA's OpenCL ran two half-filling kernels in 1.07 ms from two queues, 2.14 ms from one).

use super::record::TraceOp;
use super::Runtime;
use crate::error::DeviceError;

/// A kernel instance's launch over part of a 2-D range: its global work offset (the items'
/// global ids start there) and its size in items.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range2 {
    /// The global work offset.
    pub offset: [usize; 2],
    /// Items along x and y.
    pub global: [usize; 2],
}

impl Runtime {
    /// Whether [`Runtime::launch_beside`] runs its two kernels at once (a side queue is open).
    pub fn has_side_queue(&self) -> bool {
        self.built.side_queue().is_some()
    }

    /// Open the side queue of [`Runtime::launch_beside`] (in-order, profiled as the main
    /// queue is).
    pub fn open_side_queue(&mut self) -> Result<(), DeviceError> {
        self.built.open_side_queue()
    }

    /// Queue kernel instance `side` over `side_at` and instance `main` over `main_at`, both in
    /// work-groups of `local`, to run at once: `side` on the side queue, behind a marker of
    /// everything queued so far on the main queue, then `main` on the main queue, then a
    /// barrier there on `side`'s completion, so that what is queued later waits for both.
    /// The profile times the two as one command of `main`'s kernel, from the first start to
    /// the last end. Without a side queue, `side` then `main` on the main queue.
    pub fn launch_beside(
        &self,
        side: &str,
        side_at: Range2,
        main: &str,
        main_at: Range2,
        local: [usize; 2],
    ) -> Result<(), DeviceError> {
        let Some(sq) = self.built.side_queue() else {
            self.launch_rect(side, side_at.offset, side_at.global, Some(local))?;
            return self.launch_rect(main, main_at.offset, main_at.global, Some(local));
        };
        let ks = self.kernels.get(side).ok_or_else(|| self.missing(side))?;
        let km = self.kernels.get(main).ok_or_else(|| self.missing(main))?;
        let queue = self.built.queue();
        // SAFETY: an empty wait list; the queue is live.
        let marker = unsafe { queue.enqueue_marker_with_wait_list(&[]) }
            .map_err(self.err("clEnqueueMarkerWithWaitList"))?;
        // SAFETY: every argument of both kernels was bound to a buffer that lives as long as
        // self; offsets, sizes and `local` hold 2 values each; the events are live.
        let on_side = unsafe {
            sq.enqueue_nd_range_kernel(
                ks.get(),
                2,
                side_at.offset.as_ptr(),
                side_at.global.as_ptr(),
                local.as_ptr(),
                &[marker.get()],
            )
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        sq.flush().map_err(self.err("clFlush"))?;
        let on_main = unsafe {
            queue.enqueue_nd_range_kernel(
                km.get(),
                2,
                main_at.offset.as_ptr(),
                main_at.global.as_ptr(),
                local.as_ptr(),
                &[],
            )
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        // SAFETY: the wait list holds one live event.
        unsafe { queue.enqueue_barrier_with_wait_list(&[on_side.get()]) }
            .map_err(self.err("clEnqueueBarrierWithWaitList"))?;
        if self.recording() {
            let kernel = self.bindings.get(main).map_or(main, |b| b.0.as_str());
            let items = (side_at.global[0] * side_at.global[1]
                + main_at.global[0] * main_at.global[1]) as u64;
            self.note_span(kernel, items, true, on_main, Some(on_side));
            for (instance, at) in [(side, side_at), (main, main_at)] {
                self.trace(TraceOp::Launch {
                    instance: instance.to_string(),
                    global: at.global.to_vec(),
                    local: Some(local.to_vec()),
                });
            }
        }
        Ok(())
    }
}
