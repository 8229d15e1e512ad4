//! Passes over the IR: semantic checks now, translations later.

pub mod check;
