//! The OpenCL device layer: the only code that imports `opencl3`.
//!
//! - [`select`]: list devices once per process, choose one, check FP64 and capacity.
//! - [`table`]: the `simplets devices` table.

pub mod select;
pub mod table;

pub use select::{
    check_capacity, list_devices, list_devices_from, require_fp64, select_device, select_from,
    DeviceInfo, DISABLE_ENV,
};
pub use table::devices_table;
