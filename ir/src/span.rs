//! Byte spans into the original source file and maps from rewritten text back to it.

/// A half-open byte range `[start, end)` in the *original* source file.
/// tree-sitter and codespan-reporting both speak bytes, so no conversion is ever needed.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    /// The first (up to three) bytes: a label on where a statement starts.
    pub fn start_span(self) -> Span {
        Span::new(self.start, self.start + 3.min(self.end.saturating_sub(self.start)))
    }
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    pub fn range(&self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

/// Maps offsets in a derived text (fixed form normalised to free form, a directive
/// joined from continuation lines) back to offsets in the original file.
///
/// The derived text is a sequence of pieces; piece `k` starts at derived offset
/// `pieces[k].0` and was copied from original offset `pieces[k].1`. Bytes inserted by
/// the rewriter (they have no original) are pieces whose original is `None`; they map
/// to the original offset where they were inserted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OffsetMap {
    pieces: Vec<(usize, Option<usize>, usize)>, // (derived start, original start, insertion point)
}

impl OffsetMap {
    /// The identity map (derived text == original text starting at `base`).
    pub fn identity(base: usize) -> Self {
        OffsetMap { pieces: vec![(0, Some(base), base)] }
    }
    pub fn new() -> Self {
        OffsetMap { pieces: Vec::new() }
    }
    /// Bytes from `derived_start` on are copied from `orig_start` on.
    pub fn push_copy(&mut self, derived_start: usize, orig_start: usize) {
        self.pieces.push((derived_start, Some(orig_start), orig_start));
    }
    /// Bytes from `derived_start` on were inserted at original offset `at`.
    pub fn push_insert(&mut self, derived_start: usize, at: usize) {
        self.pieces.push((derived_start, None, at));
    }
    /// Original offset of derived offset `d`.
    pub fn to_orig(&self, d: usize) -> usize {
        let k = self.pieces.partition_point(|p| p.0 <= d);
        if k == 0 {
            return d;
        }
        let (ds, os, at) = self.pieces[k - 1];
        match os {
            Some(o) => o + (d - ds),
            None => at,
        }
    }
    pub fn span_to_orig(&self, s: Span) -> Span {
        let start = self.to_orig(s.start);
        // Map the last byte rather than the exclusive end so a span ending at a piece
        // boundary does not jump into the next piece.
        let end = if s.end > s.start { self.to_orig(s.end - 1) + 1 } else { start };
        Span::new(start, end.max(start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identity_and_pieces() {
        let m = OffsetMap::identity(100);
        assert_eq!(m.to_orig(5), 105);
        let mut m = OffsetMap::new();
        m.push_copy(0, 10); // "abc" from 10..13
        m.push_insert(3, 13); // "&" inserted at 13
        m.push_copy(4, 20); // "def" from 20..23
        assert_eq!(m.to_orig(1), 11);
        assert_eq!(m.to_orig(3), 13);
        assert_eq!(m.to_orig(5), 21);
        assert_eq!(m.span_to_orig(Span::new(4, 7)), Span::new(20, 23));
        assert_eq!(m.span_to_orig(Span::new(0, 3)), Span::new(10, 13));
    }
}
