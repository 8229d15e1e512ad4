pub mod cuda;
pub mod device;
pub mod ffi;
pub mod pool;
pub mod rt;
pub mod weight;
