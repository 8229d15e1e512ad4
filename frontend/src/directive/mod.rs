//! Hand-written recursive-descent parser for XMP / XMP-dev / XACC / OpenACC directives
//! (grammar: `XMP-GRAMMAR.md`; AST and normalisation rules: `xmpc_ir::directive`).
//!
//! Layout: `lexer` (tokens), `parser` (cursor, lists, shapes, references),
//! `clauses` (widths, reductions, any-order clause lists), `expr` (Pratt parser for
//! host expressions), `xmp` (one function per XMP directive), `acc` (OpenACC).
//!
//! # Diagnostic codes
//!
//! | code    | meaning |
//! |---------|---------|
//! | XMP0001 | unexpected character or unknown Fortran `.op.` in a directive |
//! | XMP0002 | unterminated string literal or comment |
//! | XMP0003 | missing or unknown sentinel (expected `xmp` or `acc`) |
//! | XMP0004 | unknown XMP directive name |
//! | XMP0005 | XMP directive known but not supported by xmpc |
//! | XMP0006 | unknown OpenACC construct |
//! | XMP0010 | unexpected token (the message names what was expected) |
//! | XMP0011 | directive ends too early (the message names what was expected) |
//! | XMP0012 | unknown clause, or clause not allowed on this directive |
//! | XMP0013 | clause given twice |
//! | XMP0014 | conflicting clauses (`acc` with `host`, `in` with `out`) |
//! | XMP0015 | unclosed `(` or `[` |
//! | XMP0020 | unknown distribution format |
//! | XMP0021 | unknown reduction operator |
//! | XMP0022 | syntax of the other host language (`[..]` in Fortran, `(..)` on a C array) |
//! | XMP0023 | round and square spellings mixed in one shape or reference |
//! | XMP0024 | empty list |
//! | XMP0025 | spec-first form without `:: name-list` |
//! | XMP0026 | unknown `/qualifier/` (expected `/periodic/` or `/unbound/`) |
//! | XMP0027 | expected an expression |
//! | XMP0028 | `end` directive misused (C, or unknown block name) |
//! | XMP0029 | unknown `device` directive |

mod acc;
mod clauses;
mod expr;
mod lexer;
mod parser;
mod xmp;

pub(crate) use lexer::{Tok, TokKind};

pub use xmpc_ir::directive::DirLang;
use xmpc_ir::directive::Directive;
use xmpc_ir::{Diag, FileId, OffsetMap, Span};

/// The text of one directive, continuation lines already joined, starting at the
/// sentinel word: `xmp loop on t(i)`, `acc parallel loop`. `map` maps offsets in `text`
/// to offsets in the original file so that every span in the result is an original span.
///
/// Fortran text may also still contain its continuations (`&` + newline + `!$xmp&`);
/// the lexer skips them. C text may contain backslash-newlines and comments.
#[derive(Clone, Debug)]
pub struct DirectiveText {
    pub text: String,
    pub map: OffsetMap,
}

/// Parses one directive. Errors are located diagnostics (code, primary label, hint).
/// `Directive::span` covers `text` without trailing white space, mapped to the file.
pub fn parse(src: &DirectiveText, lang: DirLang, file: FileId) -> Result<Directive, Vec<Diag>> {
    parser::parse(&src.text, lang, &src.map).map_err(|e| vec![e.into_diag(&src.map, file)])
}

/// Parses one host expression (the whole of `src.text`) with the directive
/// expression grammar: C operators for C, Fortran operators for Fortran.
pub fn parse_expr(src: &DirectiveText, lang: DirLang, file: FileId) -> Result<xmpc_ir::Expr, Vec<Diag>> {
    parser::parse_expr(&src.text, lang, &src.map).map_err(|e| vec![e.into_diag(&src.map, file)])
}

/// The tokens of a C directive's text (spans are offsets into `src.text`, `Eof` last),
/// for the directives the C front end reads itself (the local view's `post`, `wait`,
/// `lock`, `unlock` and `coarray`: `c::local_view`).
pub(crate) fn lex_c(src: &DirectiveText, file: FileId) -> Result<Vec<Tok>, Diag> {
    lexer::lex(&src.text, DirLang::C).map_err(|e| e.into_diag(&src.map, file))
}

/// A parse error with spans in directive-text offsets (mapped when made a `Diag`).
/// Boxed: it travels through every `Result` of the parser.
#[derive(Clone, Debug)]
pub(crate) struct PErr(Box<PErrInner>);

#[derive(Clone, Debug)]
struct PErrInner {
    code: &'static str,
    msg: String,
    span: Span,
    label: String,
    notes: Vec<String>,
    secondary: Vec<(Span, String)>,
}

impl PErr {
    pub(crate) fn new(code: &'static str, msg: impl Into<String>, span: Span, label: impl Into<String>) -> Self {
        PErr(Box::new(PErrInner { code, msg: msg.into(), span, label: label.into(), notes: Vec::new(), secondary: Vec::new() }))
    }
    pub(crate) fn help(mut self, h: impl AsRef<str>) -> Self {
        self.0.notes.push(format!("help: {}", h.as_ref()));
        self
    }
    pub(crate) fn also(mut self, span: Span, label: impl Into<String>) -> Self {
        self.0.secondary.push((span, label.into()));
        self
    }
    fn into_diag(self, map: &OffsetMap, file: FileId) -> Diag {
        use xmpc_ir::diag::Label;
        let e = *self.0;
        let mut d = xmpc_ir::diag::error(e.code, e.msg, file, map.span_to_orig(e.span), e.label);
        for (s, l) in e.secondary {
            d.labels.push(Label::secondary(file, map.span_to_orig(s).range()).with_message(l));
        }
        d.with_notes(e.notes)
    }
}
