//! The numerical methods. Each is a folder with its serial reference, its OpenCL host code and
//! what only it needs; the layers below (case, grid, device, output, run) know no method.

pub mod simple_ts;
