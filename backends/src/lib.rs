//! C and Fortran emitters. Output is the original text with the passes' edits spliced
//! in along the IR's item spans: text no edit touches comes out byte for byte.

pub mod c;
mod fixed;
pub mod fortran;

use std::fmt;
pub use xmpc_ir::Edit;
use xmpc_ir::{FileUnit, Lang, Span};

pub use fixed::rewrap_fixed_line;

/// An emitter bug or an inconsistent pass: never the user's fault, but reported, not
/// panicked on, so the driver can print it and write nothing.
#[derive(Debug, PartialEq, Eq)]
pub enum EmitError {
    OverlappingEdits(Span, Span),
    OutOfBounds(Span, usize),
    /// IR items out of order or overlapping: the front end lost track of the text.
    ItemsOutOfOrder(Span, Span),
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmitError::OverlappingEdits(a, b) => write!(f, "internal error: edits {a:?} and {b:?} overlap"),
            EmitError::OutOfBounds(s, n) => write!(f, "internal error: span {s:?} is outside the {n}-byte file"),
            EmitError::ItemsOutOfOrder(a, b) => write!(f, "internal error: IR items {a:?} and {b:?} overlap or are out of order"),
        }
    }
}

impl std::error::Error for EmitError {}

impl EmitError {
    /// The error as a located diagnostic (XMP0900) on the first span involved, so even
    /// an internal error shows `file:line:col`.
    pub fn to_diag(&self, file: usize) -> xmpc_ir::Diag {
        let (span, label) = match *self {
            EmitError::OverlappingEdits(a, _) => (a, "two rewrites of this text overlap"),
            EmitError::OutOfBounds(s, n) => (Span::new(s.start.min(n), s.start.min(n)), "a rewrite points past the end of the file"),
            EmitError::ItemsOutOfOrder(a, _) => (a, "the front end lost track of the text here"),
        };
        xmpc_ir::diag::error("XMP0900", self, file, span, label)
            .with_notes(vec!["this is a bug in xmpc, not in the program: please report it with this file".into()])
    }
}

/// Emits `unit` (parsed from `src`) with `edits` applied.
///
/// The output is assembled from the IR: the text between top-level items, then each
/// item's own span, so an IR whose spans do not tile the file is caught here rather
/// than producing silently wrong code.
pub fn emit(unit: &FileUnit, src: &str, edits: &[Edit]) -> Result<String, EmitError> {
    let mut edits = edits.to_vec();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    // out of bounds first: such an edit may also overlap another, and its span cannot
    // label the file
    if let Some(e) = edits.iter().find(|e| e.span.end > src.len() || !src.is_char_boundary(e.span.start) || !src.is_char_boundary(e.span.end)) {
        return Err(EmitError::OutOfBounds(e.span, src.len()));
    }
    for w in edits.windows(2) {
        if w[1].span.start < w[0].span.end {
            return Err(EmitError::OverlappingEdits(w[0].span, w[1].span));
        }
    }
    // Pieces of the file in order: gaps and items. Check they tile 0..len.
    let mut pos = 0;
    let mut prev = Span::new(0, 0);
    for it in &unit.items {
        let s = it.span();
        if s.start < pos || s.end < s.start || s.end > src.len() {
            return Err(EmitError::ItemsOutOfOrder(prev, s));
        }
        pos = s.end;
        prev = s;
    }
    let out = splice(src, &edits);
    Ok(match unit.lang {
        Lang::FortranFixed => fixed::rewrap_edited_lines(&out, src, &edits),
        _ => out,
    })
}

/// Applies sorted, non-overlapping edits.
fn splice(src: &str, edits: &[Edit]) -> String {
    let mut out = String::with_capacity(src.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut pos = 0;
    for e in edits {
        out.push_str(&src[pos..e.span.start]);
        out.push_str(&e.text);
        pos = e.span.end;
    }
    out.push_str(&src[pos..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use xmpc_ir::{FileUnit, Item};

    fn unit(lang: Lang, src: &str, items: Vec<Item>) -> FileUnit {
        FileUnit { file: 0, name: "t".into(), lang, len: src.len(), types: Default::default(), globals: Default::default(), items, host_errors: vec![] }
    }

    #[test]
    fn no_edits_is_identity() {
        let src = "int x;\n/* 日本語 */\nint y;\n";
        let u = unit(Lang::C, src, vec![Item::Verbatim(Span::new(0, 6)), Item::Verbatim(Span::new(20, 26))]);
        assert_eq!(emit(&u, src, &[]).unwrap(), src);
    }

    #[test]
    fn edits_splice_and_overlaps_are_errors() {
        let src = "  MPI_Send(&s, 1);\n  MPI_Recv(&r, 1);\n";
        let u = unit(Lang::C, src, vec![]);
        let edits = [Edit::replace(Span::new(2, 10), "LMPI_Send"), Edit::replace(Span::new(21, 29), "LMPI_Recv")];
        assert_eq!(emit(&u, src, &edits).unwrap(), "  LMPI_Send(&s, 1);\n  LMPI_Recv(&r, 1);\n");
        let bad = [Edit::replace(Span::new(2, 10), "a"), Edit::replace(Span::new(5, 12), "b")];
        assert!(matches!(emit(&u, src, &bad), Err(EmitError::OverlappingEdits(..))));
        let oob = [Edit::replace(Span::new(2, 100), "a")];
        assert!(matches!(emit(&u, src, &oob), Err(EmitError::OutOfBounds(..))));
    }

    #[test]
    fn overlapping_items_are_reported() {
        let src = "abcdef";
        let u = unit(Lang::C, src, vec![Item::Verbatim(Span::new(0, 4)), Item::Verbatim(Span::new(2, 6))]);
        assert!(matches!(emit(&u, src, &[]), Err(EmitError::ItemsOutOfOrder(..))));
    }
}
