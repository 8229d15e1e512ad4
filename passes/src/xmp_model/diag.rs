//! The diagnostic codes of the model and its printers: the workspace's one table
//! (`xmpc_ir::codes`).

pub use xmpc_ir::codes::Code;
