//! The OpenCL device layer: the only code that imports `opencl3`.
//!
//! - [`select`]: list devices once per process, choose one, check FP64 and capacity.
//! - [`table`]: the `simplets devices` table.
//! - [`source`]: assemble `cl/` pieces with `#line` markers; `-D` defines and build options.
//! - [`program`]: build for a device (context, profiling queue, log), run probe kernels
//!   ([`BuiltProgram::run_probe`], [`BuiltProgram::run_kernel`]).
//!
//! Kernel sources live in `cl/` (see `cl/README.md` for the assembly order and the `-D`
//! contract).

pub mod bandwidth;
pub mod cache;
pub mod program;
pub mod runtime;
pub mod select;
pub mod source;
pub mod table;

pub use cache::KernelCache;
pub use program::{build, build_cached, first_error, BuiltProgram, BUILD_LOG_FILE, SOURCE_FILE};
pub use runtime::{
    overlap_setting, ArgBinding, Block, CommandTime, PendingReads, Profile, Profiling, Range2,
    Runtime, TraceOp, OVERLAP_ENV,
};
pub use select::{
    check_capacity, list_devices, list_devices_from, require_fp64, select_device, select_for_rank,
    select_from, DeviceInfo, DISABLE_ENV,
};
pub use source::{
    assemble, dump_kernel, real_literal, Defines, Source, BASE_OPTIONS, PRELUDE, PROBE,
};
pub use table::devices_table;
