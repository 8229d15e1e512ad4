//! The XMP-dev work-sharing runtime: each `device loop` split between CPU workers and
//! the GPU (`rt`, `pool`, `device`), CUDA through the driver API (`cuda`), the split
//! balanced from measured times (`weight`), and the C ABI the generated code calls
//! (`ffi`). `docs/xmp-dev.md` describes the scheme.

pub mod cuda;
pub mod device;
pub mod ffi;
pub mod pool;
pub mod rt;
pub mod weight;
