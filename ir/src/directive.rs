//! Directive AST (XMP, XMP-dev, XACC, OpenACC). Filled in by the directive parser work.
use crate::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Directive {
    /// The whole directive in the original file (`#pragma` to end of line, or the
    /// Fortran sentinel lines including continuations).
    pub span: Span,
    pub kind: DirectiveKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum DirectiveKind {
    /// OpenACC, kept verbatim.
    Acc(String),
}

impl Directive {
    /// True for directives that apply to the statement that follows them
    /// (C `loop`, `task`, `gmove`, `array`, `device loop`, `device replicate`, and OpenACC
    /// constructs such as `parallel loop`, `data`, `kernels`). The front end makes that
    /// statement the body of the pragma.
    pub fn attaches_to_next(&self) -> bool {
        false
    }
    /// Fortran: the block name this directive opens, to be closed by an `end <name>`
    /// directive (`task`, `tasks`, `device replicate`, OpenACC `data`, `parallel`, ...).
    pub fn opens_block(&self) -> Option<&str> {
        None
    }
    /// Fortran: the block name this `end ...` directive closes.
    pub fn closes_block(&self) -> Option<&str> {
        None
    }
}
