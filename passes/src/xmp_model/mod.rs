//! Language-independent XMP semantics shared by the C (`xmpc_backends::c`) and Fortran
//! (`xmpc_backends::fortran`)
//! translators: what a directive means, resolved once, before a printer writes it in
//! its host language. One module per directive family; each function answers one
//! question. Errors are [`ModelError`]s that a printer turns into its own located
//! diagnostic.

pub mod loop_ref;
pub mod loop_sched;
pub mod on_ref;
pub mod reduction;
pub mod section;

use xmpc_ir::Span;

/// A directive the model cannot give a meaning to (or that xmpc does not implement):
/// the printer reports it at `span` with its own error code.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelError {
    pub span: Span,
    pub msg: String,
    pub label: &'static str,
    pub help: Option<String>,
}

impl ModelError {
    pub fn new(span: Span, msg: impl Into<String>, label: &'static str) -> Self {
        ModelError { span, msg: msg.into(), label, help: None }
    }
    pub fn help(mut self, h: impl Into<String>) -> Self {
        self.help = Some(h.into());
        self
    }
}
