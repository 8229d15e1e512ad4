//! MPIETE (SPEC §6, docs/mpiete.md): predicts an MPI program's run time from
//! three reusable base data sets: per-block compute times (`blocktimes.json`,
//! written by `libxmpc_mpiete.a` in compute/token mode), a receive-time table
//! (`commdata.json`, from the generated ping-pong program) and per-rank block
//! traces (`trace.<rank>.bin`, trace mode). `netsim`: NSIM as the network
//! model instead of the receive-time table.

pub mod cli;
pub mod commdata;
pub mod data;
pub mod netsim;
pub mod predict;
pub mod progress;
pub mod size;
pub mod trace;

pub use cli::{check_outputs, run, MpieteCmd};
