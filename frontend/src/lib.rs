//! C and Fortran front ends: tree-sitter parsing with offset-preserving pre-passes,
//! directive collection and parsing, lowering to the IR.

pub mod c;
pub mod directive;
pub mod fortran;

use xmpc_ir::{Diag, FileId, FileUnit, Lang};

/// Result of parsing one file: the IR (always produced, possibly with verbatim parts)
/// and every diagnostic found (directive syntax errors are errors; unparsable host code
/// is a warning and stays verbatim).
pub struct Parsed {
    pub unit: FileUnit,
    pub diags: Vec<Diag>,
}

/// [`parse_source`], saying whether OpenACC is on (off: Fortran's `!$acc` lines are
/// comments; C's `#pragma acc` are always read, as the C compiler ignores them).
pub fn parse_source_with(file: FileId, name: &str, text: &str, lang: Lang, openacc: bool) -> Parsed {
    match lang {
        Lang::C => c::parse(file, name, text),
        Lang::FortranFree | Lang::FortranFixed => fortran::parse_with(file, name, text, lang, openacc),
    }
}

/// Parses `text` (the file `name`, registered as `file` in the driver's file database),
/// OpenACC on.
pub fn parse_source(file: FileId, name: &str, text: &str, lang: Lang) -> Parsed {
    parse_source_with(file, name, text, lang, true)
}
