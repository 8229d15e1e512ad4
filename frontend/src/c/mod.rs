//! C front end: mask `#pragma xmp|acc` lines, parse with tree-sitter-c, parse the
//! directives, lower the tree to the IR. The XMP/C local view (coarray syntax) is
//! recognised by `local_view` and lowered to plain C before this parse.

mod decl;
mod errors;
mod expr;
pub mod local_view;
mod lower;
pub mod mask;
mod section;
mod tree;

use crate::directive::{self, DirLang};
use crate::Parsed;
use lower::{Dir, Lower};
use xmpc_ir::diag::{Diagnostic, Label};
use xmpc_ir::{FileId, FileUnit, Item, Lang, Span};

pub fn parse(file: FileId, name: &str, text: &str) -> Parsed {
    let masked = mask::mask(text);
    let mut diags = lookalike_sentinels(file, text);
    let mut dirs = Vec::with_capacity(masked.directives.len());
    for raw in &masked.directives {
        let dir = match directive::parse(&raw.text, DirLang::C, file) {
            Ok(mut d) => {
                // The parser's span starts at the sentinel; C directives cover `#pragma`.
                d.span.start = raw.span.start;
                Some(d)
            }
            Err(es) => {
                diags.extend(es);
                None
            }
        };
        dirs.push(Dir { span: raw.span, dir, used: false });
    }

    let mut unit = FileUnit {
        file,
        name: name.into(),
        lang: Lang::C,
        len: text.len(),
        types: Default::default(),
        globals: Default::default(),
        items: vec![],
        host_errors: vec![],
    };
    let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
    let mut parser = tree_sitter::Parser::new();
    let tree = match parser.set_language(&lang) {
        Ok(()) => parser.parse(&masked.text, None),
        Err(_) => None,
    };
    let Some(tree) = tree else {
        // Only on a tree-sitter failure (ABI mismatch, cancellation): keep it all.
        let whole = Span::new(0, text.len());
        unit.items.push(Item::Verbatim(whole));
        unit.host_errors.push(whole);
        diags.push(
            Diagnostic::warning()
                .with_code("XMP0200")
                .with_message("the C parser failed; the file is kept as written")
                .with_labels(vec![Label::primary(file, whole.range())]),
        );
        return Parsed { unit, diags };
    };

    let mut low = Lower::new(text, file, dirs, &lang);
    low.sections = masked.sections;
    let root = tree.root_node();
    unit.items = low.items(root, &mut unit.globals);
    low.host_errors(root, &mut unit.host_errors);
    low.unused_directives();
    unit.types = low.types;
    diags.extend(low.diags);
    Parsed { unit, diags }
}

/// `#pragma xpm ...` and friends: to a C compiler an unknown pragma, silently ignored,
/// which is never what the author meant. Warn (the file stays valid C).
fn lookalike_sentinels(file: FileId, text: &str) -> Vec<xmpc_ir::Diag> {
    let mut out = Vec::new();
    let mut off = 0;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let lead = line.len() - t.len();
        if let Some(rest) = t.strip_prefix('#').map(str::trim_start).and_then(|r| r.strip_prefix("pragma")) {
            let word_start = rest.len() - rest.trim_start().len();
            let word: String = rest.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            if is_xmp_typo(&word) {
                let start = off + lead + (t.len() - rest.len()) + word_start;
                out.push(
                    Diagnostic::warning()
                        .with_code("XMP0003")
                        .with_message(format!("`#pragma {word}` is not an XMP directive and will be ignored"))
                        .with_labels(vec![Label::primary(file, start..start + word.len()).with_message("did you mean `xmp`?")]),
                );
            }
        }
        off += line.len();
    }
    out
}

/// One transposition or one substitution away from `xmp` (but not `omp`).
fn is_xmp_typo(w: &str) -> bool {
    let w = w.to_ascii_lowercase();
    if w == "xmp" || w == "omp" || w.len() != 3 {
        return false;
    }
    let b = w.as_bytes();
    let diff = b.iter().zip(b"xmp").filter(|(a, c)| a != c).count();
    let mut sorted = b.to_vec();
    sorted.sort_unstable();
    diff == 1 || sorted == b"mpx"
}

#[cfg(test)]
mod tests {
    #[test]
    fn xmp_typos() {
        for w in ["xpm", "mxp", "xnp", "XMq", "pmx"] {
            assert!(super::is_xmp_typo(w), "{w}");
        }
        for w in ["xmp", "omp", "acc", "once", "GCC", "x"] {
            assert!(!super::is_xmp_typo(w), "{w}");
        }
    }
}
