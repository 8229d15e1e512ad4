//! Fortran that Omni's front end accepts and gfortran does not, printed in the
//! standard spelling (docs/omni-compat.md, "Fortran host language"):
//! - an initialised entity in a declaration without `::` (`integer m(2)=(/2,3/)`,
//!   `integer result = 0`) gets the `::`;
//! - an `end` statement whose kind or name does not match its unit (`end subroutine b`
//!   closing `subroutine a`, `end program` closing a contained subroutine) names the
//!   unit it closes;
//! - a dot operator with blanks inside (`. ne.`, free form) is closed up (`.ne.`);
//! - a typed function's result declared again in its body (`integer function total`
//!   with `integer*4 :: total`; the front end warns, XMP0204) loses the declaration.
//!
//! These edits come last and never overlap another edit (a statement the translation
//! rewrote is left to it).

use super::*;
use xmpc_ir::visit::{self, Visitor};

impl<'a> Tr<'a> {
    /// Adds the edits of the module doc for the whole file.
    pub(super) fn omni_forms(&mut self) {
        let mut c = Collect { tr: self, decls: vec![], ends: vec![], syms: vec![] };
        visit::walk_file(&mut c, self.unit);
        let (decls, ends) = (c.decls, c.ends);
        let mut new = Vec::new();
        for at in decls {
            new.push(Edit { span: Span::new(at, at), text: ":: ".into() });
        }
        for (span, text) in ends {
            new.push(Edit { span, text });
        }
        // blanks are significant in free form only
        if !self.fixed {
            for (span, text) in xmpc_ir::fortran_lex::spaced_dot_operators(self.src) {
                new.push(Edit { span, text });
            }
        }
        for e in new {
            let clash = self.edits.iter().any(|o| overlaps(o.span, e.span));
            if !clash {
                self.edits.push(e);
            }
        }
    }

    /// Where `:: ` goes in a declaration statement `s` that initialises an entity
    /// without it: before the first declared name.
    fn missing_double_colon(&self, s: &Stmt, ids: &[xmpc_ir::SymbolId], syms: &SymbolTable) -> Option<usize> {
        let text = lex::mask_strings(self.text(s.span));
        let code = comment_start(&text).map_or(text.as_str(), |k| &text[..k]);
        if code.contains("::") || !top_level_assignment(code) {
            return None;
        }
        let first = ids.iter().filter_map(|&i| syms.symbols.get(i)).map(|y| y.span.start).filter(|&p| p > s.span.start && p < s.span.end).min()?;
        // the declared name must be the first thing after the type (and attributes)
        let before = &code[..first - s.span.start];
        let t = lc(before.trim_start());
        let starts_typed = ["integer", "real", "double", "complex", "logical", "character", "type", "class"].iter().any(|k| t.starts_with(k));
        (starts_typed && !before.contains('=')).then_some(first)
    }

    /// `(span, replacement)` for the `end` statement of a procedure or module that names
    /// another kind or another unit.
    fn end_mismatch(&self, span: Span, kind: &str, name: &str) -> Option<(Span, String)> {
        let text = self.text(span);
        let trimmed = text.trim_end();
        let last_nl = trimmed.rfind('\n').map_or(0, |p| p + 1);
        let line = &trimmed[last_nl..];
        let code = comment_start(line).map_or(line, |k| &line[..k]).trim_end();
        let lead = code.len() - code.trim_start().len();
        let low = lc(code.trim_start());
        let rest = low.strip_prefix("end")?;
        let words: Vec<&str> = rest.split_whitespace().collect();
        // `endsubroutine x`, `end subroutine x`, `end program`; not `end`, `end do`
        let (k, n) = match words.as_slice() {
            [w] => split_kind(w),
            [w, n] if split_kind(w).1.is_none() => (split_kind(w).0, Some(*n)),
            _ => return None,
        };
        if k? == kind && n.is_none_or(|n| n == lc(name)) {
            return None;
        }
        let at = span.start + last_nl + lead;
        Some((Span::new(at, at + code.trim_start().len()), format!("end {kind} {name}")))
    }
}

/// True when two edits' spans share a byte, or one is an insertion strictly inside the
/// other (insertions at the same place or at a replaced span's ends are ordered).
pub(super) fn overlaps(a: Span, b: Span) -> bool {
    let inside = |p: usize, s: Span| s.start < p && p < s.end;
    match (a.is_empty(), b.is_empty()) {
        (true, true) => false,
        (true, false) => inside(a.start, b),
        (false, true) => inside(b.start, a),
        (false, false) => a.start < b.end && b.start < a.end,
    }
}

/// `subroutinex` → (`subroutine`, `x`); `program` → (`program`, none).
fn split_kind(w: &str) -> (Option<&'static str>, Option<&str>) {
    for k in ["subroutine", "function", "program", "module"] {
        if let Some(r) = w.strip_prefix(k) {
            return (Some(k), (!r.is_empty()).then_some(r));
        }
    }
    (None, None)
}

/// True when `code` has an `=` outside parentheses and brackets that is not part of
/// `==`, `=>`, `<=`, `>=` or `/=` (an initialisation, not a kind or length selector).
fn top_level_assignment(code: &str) -> bool {
    let b = code.as_bytes();
    let mut depth = 0i32;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'=' if depth == 0 => {
                let prev = i.checked_sub(1).map(|j| b[j]);
                let next = b.get(i + 1).copied();
                if !matches!(prev, Some(b'=' | b'<' | b'>' | b'/')) && !matches!(next, Some(b'=' | b'>')) {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

struct Collect<'t, 'a> {
    tr: &'t Tr<'a>,
    decls: Vec<usize>,
    ends: Vec<(Span, String)>,
    syms: Vec<&'a SymbolTable>,
}

impl<'a> Visitor<'a> for Collect<'_, 'a> {
    fn visit_function(&mut self, f: &'a Function) {
        let kind = match f.kind {
            FuncKind::Subroutine => Some("subroutine"),
            FuncKind::Function => Some("function"),
            _ => None,
        };
        if let Some(k) = kind {
            // the last line of the unit (after its contained procedures) is its own end
            self.ends.extend(self.tr.end_mismatch(f.span, k, &f.name));
        }
        for st in f.result_retyped() {
            // short: fixed form re-wraps anything past column 72
            self.ends.push((st.span, "! xmpc: result typed twice".into()));
        }
        self.syms.push(&f.symbols);
        visit::walk_function(self, f);
        self.syms.pop();
    }
    fn visit_module(&mut self, m: &'a xmpc_ir::Module) {
        self.ends.extend(self.tr.end_mismatch(m.span, "module", &m.name));
        self.syms.push(&m.symbols);
        visit::walk_module(self, m);
        self.syms.pop();
    }
    fn visit_stmt(&mut self, s: &'a Stmt) {
        if let (StmtKind::Decl(ids), Some(syms)) = (&s.kind, self.syms.last()) {
            self.decls.extend(self.tr.missing_double_colon(s, ids, syms));
        }
        visit::walk_stmt(self, s);
    }
}
