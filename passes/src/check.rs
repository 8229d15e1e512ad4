//! Semantic checks of XMP directives that need no translation: every name a directive
//! uses is declared and of the right kind, ranks agree, and directives that apply to a
//! loop are followed by one — made by the XMP model's resolver
//! (`xmp_model::resolve`, one symbol table for C and Fortran), plus the literal checks
//! (`literals.rs`). Codes: `xmpc_ir::codes` (XMP0101–XMP0114).

use xmpc_ir::{Diag, FileUnit};

/// Checks every directive of `unit`; returns the problems found. Modules of other
/// files are not known here: names a unit may import from them are not reported.
pub fn check(unit: &FileUnit, src: &str) -> Vec<Diag> {
    let mut diags = crate::xmp_model::resolve(unit, src, &|_| None).diags;
    diags.extend(crate::literals::check(unit, src));
    diags
}
