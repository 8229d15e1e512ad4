//! `libxmpc_mpiete.a`, the MPIETE measurement runtime (SPEC §6, docs/mpiete.md).
//!
//! The library is C (`csrc/`, compiled by `build.rs` against the system
//! `mpi.h`); this crate only packages it as a static library placed next to
//! the `xmpc` binary, as `libxmpc_rt.a` is. Link a program with
//! `mpif90 prog.o libxmpc_mpiete.a` (or `mpicc`): the PMPI wrappers and the
//! block calls (`mpiete_block_begin`/`_end`/`mark`) do what `MPIETE_MODE`
//! asks (compute, trace, token, measure) and nothing without it.
