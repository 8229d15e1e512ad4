//! BSIM: runs MPI skeletons (compute replaced by `BSIM_Add_time`, `MPI_` renamed
//! `LMPI_`) with as many ranks as the target machine, each with a virtual clock,
//! and predicts the run time from a platform model (docs/bsim.md).
//!
//! Layers: `model` (platform file, link model, collective tables), `coll`
//! (collective algorithms and tables), `netmodel` (NSIM as the network
//! model), `engine` (virtual clocks, matching,
//! deadlock detection), `lmpi`/`lmpi_ext`/`fortran` (C and Fortran ABI), `output`
//! (reports, traces, Gantt charts), `run` (process entry), `mpi_backend` (the
//! `mpi` back end: one MPI process per rank), `cli` (`xmpc bsim`).

#![allow(clippy::missing_safety_doc, clippy::too_many_arguments)]

pub mod cli;
pub mod coll;
pub mod ctx;
pub mod dtype;
pub mod engine;
pub mod fortran;
pub mod lmpi;
pub mod lmpi_ext;
pub mod model;
pub mod mpi_backend;
pub mod netmodel;
pub mod output;
pub mod run;
pub mod simgrid;
pub mod tracefile;
