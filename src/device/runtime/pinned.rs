//! Page-locked host memory for the rectangles of [`Runtime::read_blocks`] and
//! [`Runtime::write_blocks`]: an OpenCL buffer allocated with `CL_MEM_ALLOC_HOST_PTR` and
//! mapped once for the runtime's life. That is how NVIDIA's OpenCL hands out pinned memory:
//! reads and writes between device buffers and a mapped pointer of such a buffer run as DMA at
//! the full bus rate, where ordinary pageable memory goes through a driver bounce buffer (its
//! best-practices guide). Other runtimes (PoCL) give ordinary host memory, which works the
//! same.

use std::ptr::NonNull;

use opencl3::memory::{
    Buffer, ClMem, CL_MAP_READ, CL_MAP_WRITE, CL_MEM_ALLOC_HOST_PTR, CL_MEM_READ_WRITE,
};
use opencl3::types::{cl_double, cl_mem, CL_BLOCKING};

use super::Runtime;
use crate::error::DeviceError;

/// Which pinned area: the rectangles read from the device, or those written to it (apart, so
/// that a write queued without a wait and the next reads never share memory).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Area {
    /// [`Runtime::queue_reads`].
    Reads = 0,
    /// [`Runtime::queue_writes`].
    Writes = 1,
}

/// A mapped `CL_MEM_ALLOC_HOST_PTR` buffer of `len` doubles.
pub(super) struct Pinned {
    buf: Buffer<cl_double>,
    ptr: NonNull<f64>,
    len: usize,
}

// SAFETY: the mapping belongs to this value alone (no other pointer to it is kept), and its
// memory is touched only through `&self`/`&mut self` of the `Runtime` that owns it, so moving
// it to another thread moves the only access to it.
unsafe impl Send for Pinned {}

impl Pinned {
    /// The mapped values.
    pub(super) fn values(&mut self) -> &mut [f64] {
        // SAFETY: `ptr` is the start of the mapping of `len` doubles, valid until the unmap in
        // `Runtime::unpin` (which consumes `self`); `&mut self` makes this the only slice.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }

    /// The host pointer of value `at` (at most `len`), for the transfers the queue runs.
    pub(super) fn at(&self, at: usize) -> *mut f64 {
        assert!(at <= self.len, "invariant: inside the pinned area");
        // SAFETY: `at <= len` keeps the pointer inside (or one past) the mapping.
        unsafe { self.ptr.as_ptr().add(at) }
    }
}

impl Runtime {
    /// Make pinned area `area` hold at least `n` values: a smaller one is given back (after
    /// the queue has finished with it) and a new one allocated and mapped.
    pub(super) fn pin(&mut self, area: Area, n: usize) -> Result<(), DeviceError> {
        if self.pinned[area as usize]
            .as_ref()
            .is_some_and(|p| p.len >= n)
        {
            return Ok(());
        }
        if let Some(old) = self.pinned[area as usize].take() {
            self.unpin(old)?;
        }
        let n = n.max(1);
        // SAFETY: a plain allocation of n doubles that the runtime allocates in host memory
        // it can reach by DMA; no host pointer is handed over.
        let buf = unsafe {
            Buffer::<cl_double>::create(
                self.built.context(),
                CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                n,
                std::ptr::null_mut(),
            )
        }
        .map_err(self.err("clCreateBuffer"))?;
        let mut mapped: cl_mem = std::ptr::null_mut();
        // SAFETY: a blocking map of the whole new buffer; the pointer stays valid until the
        // unmap in `unpin`, and nothing else maps it.
        unsafe {
            self.built.queue().enqueue_map_buffer(
                &buf,
                CL_BLOCKING,
                CL_MAP_READ | CL_MAP_WRITE,
                0,
                8 * n,
                &mut mapped,
                &[],
            )
        }
        .map_err(self.err("clEnqueueMapBuffer"))?;
        let ptr = NonNull::new(mapped.cast::<f64>()).ok_or_else(|| self.missing("a mapping"))?;
        self.bytes += 8 * n as u64;
        self.pinned[area as usize] = Some(Pinned { buf, ptr, len: n });
        Ok(())
    }

    /// Give back a pinned area: wait for the queue (its transfers may still use it), unmap.
    pub(super) fn unpin(&mut self, p: Pinned) -> Result<(), DeviceError> {
        let q = self.built.queue();
        q.finish().map_err(self.err("clFinish"))?;
        // SAFETY: the queue is idle, so no transfer uses the mapping; `p` is consumed, so no
        // slice of it outlives the unmap.
        unsafe { q.enqueue_unmap_mem_object(p.buf.get(), p.ptr.as_ptr().cast(), &[]) }
            .map_err(self.err("clEnqueueUnmapMemObject"))?;
        q.finish().map_err(self.err("clFinish"))?;
        self.bytes -= 8 * p.len as u64;
        Ok(())
    }
}

impl Drop for Runtime {
    /// Unmap the pinned areas (errors are of no use any more at this point).
    fn drop(&mut self) {
        for area in [Area::Reads, Area::Writes] {
            if let Some(p) = self.pinned[area as usize].take() {
                let _ = self.unpin(p);
            }
        }
    }
}
