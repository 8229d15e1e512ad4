//! Passes over the IR: what XMP directives mean (`xmp_model`, decided once for C and
//! Fortran; the printers in `xmpc_backends` spell it), semantic checks (`check`), the
//! skeletonizer (`skel`, `blocks`) and MPIETE's program model (`mpiete`).

pub mod blocks;
pub mod check;
pub mod literals;
pub mod mpiete;
pub mod skel;
pub mod xmp_model;
