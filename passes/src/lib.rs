//! Passes over the IR: semantic checks (`check`) and the XMP C → C + runtime-calls
//! translation (`xmp_c`).

pub mod check;
pub mod xmp_c;
