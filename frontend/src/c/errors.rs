//! Host-code problems: unparsable regions and directives left unplaced.

use super::lower::Lower;
use super::tree::span;
use tree_sitter::Node;
use xmpc_ir::diag::{Diagnostic, Label};
use xmpc_ir::Span;

impl Lower<'_> {
    /// Records ERROR/MISSING regions and warns once per merged region.
    pub fn host_errors(&mut self, root: Node, out: &mut Vec<Span>) {
        if !root.has_error() {
            return;
        }
        let mut found: Vec<(Span, Option<String>)> = Vec::new();
        let mut c = root.walk();
        'walk: loop {
            let n = c.node();
            if n.is_error() {
                found.push((span(n), None));
            } else if n.is_missing() {
                found.push((Span::new(n.start_byte(), n.start_byte()), Some(n.kind().to_string())));
            } else if n.has_error() && c.goto_first_child() {
                continue;
            }
            loop {
                if c.goto_next_sibling() {
                    break;
                }
                if !c.goto_parent() {
                    break 'walk;
                }
            }
        }
        found.sort_by_key(|f| (f.0.start, f.0.end));
        let mut regions: Vec<(Span, Option<String>)> = Vec::new();
        for (s, missing) in found {
            match regions.last_mut() {
                Some((r, m)) if s.start <= r.end => {
                    *r = r.to(s);
                    if m.is_none() {
                        *m = missing;
                    }
                }
                _ => regions.push((s, missing)),
            }
        }
        for (s, missing) in regions {
            out.push(s);
            let label = match missing {
                Some(tok) if s.is_empty() => format!("expected `{tok}` here"),
                _ => "the C grammar does not accept this".to_string(),
            };
            self.diags.push(
                Diagnostic::warning()
                    .with_code("XMP0200")
                    .with_message("C code that could not be parsed is kept as written")
                    .with_labels(vec![Label::primary(self.file, s.range()).with_message(label)])
                    .with_notes(vec!["directives and declarations inside it are not translated".into()]),
            );
        }
    }

    /// Directives in places the lowering does not visit (struct bodies, expressions,
    /// unparsable code) are refused: ignoring one would change what the program means
    /// (a dropped `nodes` only shows up later as a confusing "not declared").
    pub fn unused_directives(&mut self) {
        for d in &self.dirs {
            if !d.used && d.dir.is_some() {
                self.diags.push(
                    Diagnostic::error()
                        .with_code("XMP0203")
                        .with_message("directive in a position xmpc does not handle")
                        .with_labels(vec![Label::primary(self.file, d.span.range()).with_message("not attached to any statement")])
                        .with_notes(vec!["move it to file scope or to a statement list (a directive inside a struct body, an expression or code that could not be parsed is not translated)".into()]),
                );
            }
        }
    }
}
