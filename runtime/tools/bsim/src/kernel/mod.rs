//! The simulation kernel: virtual clocks, matching, collectives and their
//! timing models, the platform, the back ends that run ranks (contexts,
//! threads, mpi). It never imports the C ABI (`crate::abi`), the process
//! entry (`crate::run`) or the command line (`crate::cli`): those sit on top
//! and call it (`tests/layers.rs` checks the imports).
//!
//! - `model`: the platform file (links, overheads, protocol, collective tables,
//!   node map); `netmodel`: NSIM as the network model.
//! - `coll`: collective algorithms (decomposed schedules, table lookups);
//!   `collargs`: one member's arguments of a collective, their checks, sizes
//!   and data moves; `dtype`: datatypes and reduction operators.
//! - `engine`: the shared simulation state (`Sim`: inboxes, clocks, sleeping,
//!   deadlock resolution); `rank`: one rank's state; `p2p`, `collective`: its
//!   operations; `api`: the operations as the ABI calls them, dispatched to the
//!   in-process engine or the mpi back end.
//! - `current`: the rank the calling thread (or context) runs; `hosttime`:
//!   host CPU time charged as compute; `sched`: the ready queue of the
//!   contexts back end, `ctx`: its stacks and per-rank variable images;
//!   `mpi_backend`: one real MPI process per rank.

pub mod api;
pub mod coll;
pub mod collargs;
pub mod collective;
pub mod ctx;
pub mod current;
pub mod dtype;
pub mod engine;
pub mod fault;
pub mod hosttime;
pub mod model;
pub mod mpi_backend;
pub mod netmodel;
pub mod p2p;
pub mod rank;
pub mod sched;
pub mod sgplatform;

/// `MPI_UNDEFINED` (a color of `Comm_split`, a count of `Get_count`).
pub const UNDEFINED: i32 = -32766;
/// `MPI_COMM_NULL`.
pub const COMM_NULL: i32 = 0;
/// `MPI_IN_PLACE` as a buffer address.
pub const IN_PLACE: usize = usize::MAX;
