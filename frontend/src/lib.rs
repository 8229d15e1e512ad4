//! C and Fortran front ends: tree-sitter parsing with offset-preserving pre-passes,
//! directive collection and parsing, lowering to the IR.

pub mod directive;
