//! TCA/InfiniBand hybrid communication (seed 002 ch. 5-6), with PEACH2 emulated
//! on one host: "TCA" is direct stores into an MPI-3 shared-memory window
//! (`MPI_Win_allocate_shared` over `MPI_COMM_TYPE_SHARED`), InfiniBand is MPI.
//! See docs/tca.md.
//!
//! - [`classify`]: halo shapes and Omni's routes (pure);
//! - [`chain`]: descriptor chains, parity ordering, the lock-step collision model (pure);
//! - [`halo`]: reflect's halos on TCA (registered regions, chains built once);
//! - [`sched`]: hybrid bcast / allgather / allreduce schedules (pure);
//! - [`rt`]: the run-time layer over MPI (window, handles, engine, executor);
//! - [`skel`]: the same schedules as BSIM skeletons.

pub mod chain;
pub mod classify;
mod ffi;
pub mod halo;
pub mod rt;
pub mod sched;
pub mod skel;
