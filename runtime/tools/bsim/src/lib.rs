//! BSIM: runs MPI skeletons (compute replaced by `BSIM_Add_time`, `MPI_` renamed
//! `LMPI_`) with as many ranks as the target machine, each with a virtual clock,
//! and predicts the run time from a platform model (docs/bsim.md).
//!
//! Layers, bottom up (SimGrid's kernel / models / MPI surface kept apart):
//! - `kernel`: the simulation (platform and network models, collectives,
//!   virtual clocks, matching, deadlock detection, the contexts, threads and
//!   mpi back ends). It imports none of the layers above.
//! - `output`, `tracefile`: reports, timelines and trace files of a run.
//! - `abi`: the LMPI C ABI (`LMPI_*`, `BSIM_*`, include/lmpi.h) and its Fortran
//!   bindings, calling the kernel for the current rank.
//! - `run`, `run_mpi`: the process entries called by the skeleton's `main`.
//! - `cli` (`xmpc bsim`) and `simgrid` (platform export): tools.

#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

pub mod abi;
pub mod cli;
pub mod export;
pub mod gantt;
pub mod kernel;
pub mod output;
pub mod run;
pub mod run_mpi;
pub mod simgrid;
pub mod tracefile;

pub use kernel::{model, netmodel};
