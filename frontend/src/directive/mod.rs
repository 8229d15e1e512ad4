//! Hand-written recursive-descent parser for XMP / XMP-dev / XACC directives.
//! (Stub: the real parser replaces the body of `parse`.)

use xmpc_ir::directive::{Directive, DirectiveKind};
use xmpc_ir::{Diag, FileId, OffsetMap};

/// Which host language's directive syntax to use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DirLang {
    C,
    Fortran,
}

/// The text of one directive, continuation lines already joined, starting at the
/// sentinel word: `xmp loop on t(i)`, `acc parallel loop`. `map` maps offsets in `text`
/// to offsets in the original file so that every span in the result is an original span.
#[derive(Clone, Debug)]
pub struct DirectiveText {
    pub text: String,
    pub map: OffsetMap,
}

/// Parses one directive. Errors are located diagnostics (code, primary label, hint).
pub fn parse(src: &DirectiveText, _lang: DirLang, _file: FileId) -> Result<Directive, Vec<Diag>> {
    let span = src.map.span_to_orig(xmpc_ir::Span::new(0, src.text.len()));
    Ok(Directive { span, kind: DirectiveKind::Acc(src.text.clone()) })
}
