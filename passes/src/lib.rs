//! Passes over the IR: semantic checks (`check`) and the XMP C → C + runtime-calls
//! translation (`xmp_c`), and the XMP Fortran translation (`xmp_f`).

pub mod blocks;
pub mod check;
pub mod literals;
pub mod mpiete;
pub mod skel;
pub mod xmp_c;
pub mod xmp_f;
pub mod xmp_model;
