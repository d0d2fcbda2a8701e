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

    /// Queue kernel instance `first` over `first_at` and instance `second` over `second_at`,
    /// both in work-groups of `local`, to run at once: a marker of everything queued so far
    /// on the main queue, `first` behind it there, `second` on the side queue waiting for the
    /// marker, then a barrier on the main queue on `second`'s completion, so that what is
    /// queued later waits for both. `first` follows the marker in its own queue and `second`
    /// waits across queues, so the GPU hands out `first`'s groups first and `second`'s fill
    /// the compute units beside and after them. The profile times the two as one command of
    /// `second`'s kernel, from the first start to the last end. Without a side queue, `first`
    /// then `second` on the main queue (timed alike).
    pub fn launch_beside(
        &self,
        first: &str,
        first_at: Range2,
        second: &str,
        second_at: Range2,
        local: [usize; 2],
    ) -> Result<(), DeviceError> {
        let k1 = self.kernels.get(first).ok_or_else(|| self.missing(first))?;
        let k2 = self
            .kernels
            .get(second)
            .ok_or_else(|| self.missing(second))?;
        let queue = self.built.queue();
        let side = self.built.side_queue();
        let marker = match side {
            // SAFETY: an empty wait list; the queue is live.
            Some(_) => Some(
                unsafe { queue.enqueue_marker_with_wait_list(&[]) }
                    .map_err(self.err("clEnqueueMarkerWithWaitList"))?,
            ),
            None => None,
        };
        let waits: Vec<_> = marker.iter().map(|m| m.get()).collect();
        // SAFETY (both launches): every argument of both kernels was bound to a buffer that
        // lives as long as self; offsets, sizes and `local` hold 2 values each; the events in
        // the wait list are live.
        let ev1 = unsafe {
            queue.enqueue_nd_range_kernel(
                k1.get(),
                2,
                first_at.offset.as_ptr(),
                first_at.global.as_ptr(),
                local.as_ptr(),
                &[],
            )
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        let ev2 = unsafe {
            side.unwrap_or(queue).enqueue_nd_range_kernel(
                k2.get(),
                2,
                second_at.offset.as_ptr(),
                second_at.global.as_ptr(),
                local.as_ptr(),
                &waits,
            )
        }
        .map_err(self.err("clEnqueueNDRangeKernel"))?;
        if let Some(sq) = side {
            sq.flush().map_err(self.err("clFlush"))?;
            // SAFETY: the wait list holds one live event.
            unsafe { queue.enqueue_barrier_with_wait_list(&[ev2.get()]) }
                .map_err(self.err("clEnqueueBarrierWithWaitList"))?;
        }
        if self.recording() {
            let kernel = self.bindings.get(second).map_or(second, |b| b.0.as_str());
            let items = (first_at.global[0] * first_at.global[1]
                + second_at.global[0] * second_at.global[1]) as u64;
            self.note_span(kernel, items, true, ev2, Some(ev1));
            for (instance, at) in [(first, first_at), (second, second_at)] {
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
