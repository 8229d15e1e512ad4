//! Top-level items tile each corpus file; the corpus parses cleanly.
mod c_util;

use xmpc_ir::diag::Severity;
use xmpc_ir::Item;

#[test]
fn items_tile_every_corpus_file() {
    let corpus = c_util::corpus();
    assert!(corpus.len() >= 12, "corpus has {} files", corpus.len());
    for (name, text) in &corpus {
        let p = c_util::parse(text);
        assert_eq!(p.unit.len, text.len());
        let mut last = 0;
        for it in &p.unit.items {
            let s = it.span();
            assert!(s.start >= last && s.end >= s.start && s.end <= text.len(), "{name}: item {s:?} after {last}");
            let gap = &text[last..s.start];
            assert!(c_util::only_comments(gap), "{name}: non-comment gap {gap:?} before {s:?}");
            last = s.end;
        }
        assert!(c_util::only_comments(&text[last..]), "{name}: trailing text");
    }
}

#[test]
fn corpus_has_no_host_errors_and_every_directive_is_placed() {
    for (name, text) in &c_util::corpus() {
        let p = c_util::parse(text);
        let shown = xmpc_ir::diag::render_plain(name, text, &p.diags);
        assert!(p.diags.iter().all(|d| d.severity < Severity::Error), "{name}:\n{shown}");
        assert!(p.diags.iter().all(|d| d.code.as_deref() != Some("XMP0203")), "{name}:\n{shown}");
        let host_warnings = p.diags.iter().filter(|d| d.code.as_deref() == Some("XMP0200")).count();
        assert_eq!(host_warnings, 0, "{name}:\n{shown}");
        // Each directive of the file is in the IR exactly once.
        let found = xmpc_frontend::c::mask::mask(text).directives.len();
        assert_eq!(p.unit.pragmas().len(), found, "{name}");
    }
}

#[test]
fn file_scope_items_by_kind() {
    let text =
        "#include <stdio.h>\n#pragma xmp nodes p(4)\nint x = 1, y;\nstruct s { int a; };\ntypedef int myint;\nenum { A, B };\nint f(void) { return 0; }\n";
    let p = c_util::parse(text);
    let kinds: Vec<&str> = p
        .unit
        .items
        .iter()
        .map(|i| match i {
            Item::Decl(_) => "decl",
            Item::Function(_) => "fn",
            Item::Pragma(_) => "pragma",
            Item::Verbatim(_) => "verb",
            Item::Module(_) => "module",
        })
        .collect();
    assert_eq!(kinds, ["verb", "pragma", "decl", "verb", "decl", "decl", "fn"]);
    assert_eq!(&text[p.unit.items[3].span().range()], "struct s { int a; };");
    assert_eq!(&text[p.unit.items[5].span().range()], "enum { A, B };");
    assert_eq!(&text[p.unit.items[0].span().range()], "#include <stdio.h>");
}
