//! Text edits: what a translation pass produces and a back end splices into the
//! original text.

use crate::Span;

/// Replace the original bytes in `span` with `text` (an empty span inserts).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub text: String,
}

impl Edit {
    pub fn replace(span: Span, text: impl Into<String>) -> Self {
        Edit { span, text: text.into() }
    }
    pub fn insert(at: usize, text: impl Into<String>) -> Self {
        Edit { span: Span::new(at, at), text: text.into() }
    }
}
