//! Semantic checks of XMP directives that need no translation (stub).
use xmpc_ir::{Diag, FileUnit};

/// Checks every directive of `unit`; returns the problems found.
pub fn check(_unit: &FileUnit) -> Vec<Diag> {
    Vec::new()
}
