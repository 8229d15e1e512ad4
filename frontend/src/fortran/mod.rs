//! Fortran front end: fixed-form normalisation, directive collection, tree-sitter
//! parsing and lowering to the IR.

mod blocks;
mod decl;
mod expr;
pub mod fixed;
mod lower;
pub mod runs;
mod select;
pub mod sentinel;

use crate::directive::DirLang;
use crate::Parsed;
use std::collections::HashMap;
use xmpc_ir::diag::{Diagnostic, Label};
use xmpc_ir::{FileId, FileUnit, Lang, Span};

/// The free-form text tree-sitter parses for `text`: fixed form normalised, overlong
/// identifier runs split so that parsing stays linear in the line length (runs.rs),
/// dot operators written with blanks inside (Omni) closed up.
pub fn parser_input(text: &str, lang: Lang) -> fixed::Normalised {
    let mut n = if lang == Lang::FortranFixed { fixed::normalise(text) } else { fixed::Normalised::identity(text) };
    runs::split_long_runs(&mut n.text);
    // `. ne.` (Omni): `.ne.` and blanks after it, same length (docs/omni-compat.md)
    let fixes = xmpc_ir::fortran_lex::spaced_dot_operators(&n.text);
    if !fixes.is_empty() {
        let mut b = std::mem::take(&mut n.text).into_bytes();
        for (sp, w) in fixes {
            let pad = sp.end - sp.start - w.len();
            b.splice(sp.start..sp.end, w.bytes().chain(std::iter::repeat_n(b' ', pad)));
        }
        n.text = String::from_utf8(b).expect("ASCII replacements keep UTF-8");
    }
    n
}

/// Parses one Fortran file (free or fixed form). Never fails: unparsable code stays
/// verbatim with a warning.
pub fn parse(file: FileId, name: &str, text: &str, lang: Lang) -> Parsed {
    parse_with(file, name, text, lang, true)
}

/// [`parse`], saying whether OpenACC is on: without it, `!$acc` lines are comments (as
/// gfortran and Omni's xmpf90 take them without `-fopenacc`/`-xacc`), never parsed or
/// nesting-checked.
pub fn parse_with(file: FileId, name: &str, text: &str, lang: Lang, openacc: bool) -> Parsed {
    let n = parser_input(text, lang);
    let mut diags = Vec::new();

    let mut dirs = Vec::new();
    let mut dir_at = HashMap::new();
    for raw in sentinel::collect(&n) {
        if !openacc && raw.text.text.get(..3).is_some_and(|w| w.eq_ignore_ascii_case("acc")) {
            continue;
        }
        if let Some(sp) = raw.dangling {
            diags.push(
                Diagnostic::warning()
                    .with_code("XMP0202")
                    .with_message("directive line ends with `&` but the next line does not continue it")
                    .with_labels(vec![Label::primary(file, sp.range()).with_message("continued here")]),
            );
        }
        let dir = match crate::directive::parse(&raw.text, DirLang::Fortran, file) {
            Ok(mut d) => {
                d.span = raw.span;
                Some(d)
            }
            Err(e) => {
                diags.extend(e);
                None
            }
        };
        dir_at.insert(raw.lines[0], dirs.len());
        dirs.push(lower::Dir { span: raw.span, dir, used: false });
    }

    let mut parser = tree_sitter::Parser::new();
    let tree = parser.set_language(&tree_sitter_fortran::LANGUAGE.into()).ok().and_then(|_| parser.parse(&n.text, None));
    let Some(tree) = tree else {
        // Only without a grammar: keep everything as text.
        let all = Span::new(0, text.len());
        let unit = FileUnit {
            file,
            name: name.into(),
            lang,
            len: text.len(),
            types: Default::default(),
            globals: Default::default(),
            items: vec![xmpc_ir::Item::Verbatim(all)],
            host_errors: vec![all],
        };
        return Parsed { unit, diags };
    };
    let root = tree.root_node();
    let mut l = lower::Lower::new(text, &n, file, dirs, dir_at, root);
    let items = l.items(root);
    let host_errors = host_errors(&l, root);
    for d in l.dirs.iter().filter(|d| !d.used) {
        // A directive comment the walk never met (inside an expression or between
        // contained procedures).
        diags.push(
            Diagnostic::error()
                .with_code("XMP0203")
                .with_message("directive is not in a statement list and cannot be translated")
                .with_labels(vec![Label::primary(file, d.span.range()).with_message("not attached to any statement")]),
        );
    }
    for sp in &host_errors {
        diags.push(
            Diagnostic::warning().with_code("XMP0200").with_message("cannot parse this Fortran; it is kept as written").with_labels(vec![Label::primary(
                file,
                sp.range(),
            )
            .with_message("not understood")]),
        );
    }
    diags.append(&mut l.diags);
    let unit = FileUnit { file, name: name.into(), lang, len: text.len(), types: l.types, globals: l.globals, items, host_errors };
    Parsed { unit, diags }
}

/// ERROR and MISSING regions, merged when they touch.
fn host_errors(l: &lower::Lower, root: tree_sitter::Node) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    if !root.has_error() {
        return out;
    }
    let mut stack = vec![root];
    let mut found = Vec::new();
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            found.push(l.span(n));
            continue;
        }
        let mut c = n.walk();
        for k in n.children(&mut c) {
            if k.has_error() {
                stack.push(k);
            }
        }
    }
    found.sort();
    for s in found {
        match out.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => out.push(s),
        }
    }
    out
}
