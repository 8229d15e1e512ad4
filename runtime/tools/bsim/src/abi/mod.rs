//! The LMPI C ABI on top of the kernel: `LMPI_*` (include/lmpi.h) check their
//! arguments and call the kernel for the calling rank (`kernel::current`);
//! `BSIM_*` give a rank its compute time; `fortran` binds both for gfortran.

pub mod bsim;
pub mod fortran;
pub mod lmpi;
pub mod lmpi_ext;
pub mod persist;
