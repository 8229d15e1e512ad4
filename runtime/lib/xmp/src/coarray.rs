//! The Rust side of the local view (the rest is `csrc/coarray.c`, which sees MPI):
//! node references of `post`/`wait` name a node of a node set, and the C side needs
//! its world rank.

use crate::nodes::xmpc_nodes;
use std::ffi::c_int;

/// World rank of node `k` (0-based linear index, dim 0 fastest) of `n`; -1 when `k`
/// is out of range (the caller reports it).
#[no_mangle]
pub unsafe extern "C" fn xmpc_nodes_world_rank(n: *const xmpc_nodes, k: c_int) -> c_int {
    let Some(n) = (unsafe { n.as_ref() }) else { return -1 };
    usize::try_from(k).ok().and_then(|k| n.world.get(k).copied()).unwrap_or(-1)
}
