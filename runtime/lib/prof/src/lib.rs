//! xmpc-prof: a low-overhead MPI profiler (MPIPROF, SPEC §8).
//!
//! Built as `libxmpc_prof.so`: link it before MPI (`mpicc app.c
//! -L<dir> -lxmpc_prof`) or load it with `LD_PRELOAD`. The PMPI wrappers are
//! C (`csrc/shim.c`, compiled against the system `mpi.h` so MPICH's integer
//! handles and Open MPI's pointer handles both work); the bookkeeping is
//! here. See `docs/mpiprof.md`.

pub mod acc;
pub mod config;
pub mod rt;
pub mod sites;

/// The profiled functions (index = function id).
pub mod funcs {
    include!("funcs.rs");
}

/// Entry points for benchmarks and tests of the bookkeeping alone (no MPI).
pub mod bench {
    pub use crate::acc::{configure, with_table, Table, PEER_ANY};
    /// Prepare the accounting for `world_size` ranks with `world_key` as
    /// the world communicator key (no translation).
    pub fn setup(world_key: usize, world_size: usize) {
        crate::acc::configure(world_key, world_size, true, None);
    }
    pub use crate::rt::{xp_rec, xp_rec_b, xp_rec_p};
}
