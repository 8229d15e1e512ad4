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

/// Parses `text` (the file `name`, registered as `file` in the driver's file database).
pub fn parse_source(file: FileId, name: &str, text: &str, lang: Lang) -> Parsed {
    match lang {
        Lang::C => c::parse(file, name, text),
        Lang::FortranFree | Lang::FortranFixed => fortran::parse(file, name, text, lang),
    }
}
