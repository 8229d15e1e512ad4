//! Malformed directives: each must give an error whose primary label lies on the
//! directive in the original file. The rendered diagnostics are golden files.

mod directives_support;

use directives_support::*;
use xmpc_frontend::directive::{parse, DirLang};
use xmpc_ir::diag::LabelStyle;
use xmpc_ir::Span;

// The table lives in a data file so the driver tests (tests/cli.rs) run every case
// through `xmpc` too.
include!("directives_support/malformed.rs");

#[test]
fn malformed_directives() {
    let mut seen = std::collections::HashSet::new();
    for (name, lang, src) in BAD {
        assert!(seen.insert(*name), "duplicate case {name}");
        let text = extract_last(src, *lang);
        let whole = text.map.span_to_orig(Span::new(0, text.text.len()));
        let diags = match parse(&text, *lang, 0) {
            Ok(d) => panic!("{name}: {:?} should not parse, got\n{d}", text.text),
            Err(d) => d,
        };
        assert!(!diags.is_empty(), "{name}");
        for d in &diags {
            let code = d.code.as_deref().unwrap_or("");
            assert!(code.starts_with("XMP00"), "{name}: code {code}");
            let prim: Vec<_> = d.labels.iter().filter(|l| l.style == LabelStyle::Primary).collect();
            assert_eq!(prim.len(), 1, "{name}: one primary label");
            let r = &prim[0].range;
            assert!(r.start < r.end, "{name}: empty primary label {r:?}");
            assert!(r.start >= whole.start && r.end <= whole.end, "{name}: label {r:?} outside directive {whole:?}");
            assert!(!d.message.is_empty() && !prim[0].message.is_empty(), "{name}");
        }
        let ext = if *lang == DirLang::C { "c" } else { "f90" };
        let out = xmpc_ir::diag::render_plain(&format!("bad.{ext}"), src, &diags);
        insta::assert_snapshot!(*name, out);
    }
    assert!(BAD.len() >= 45);
}

/// A non-identity map: the label of an error on a continuation line must land on
/// that line in the original file, not where the joined text would put it.
#[test]
fn fixed_form_label_column() {
    let src = "      PROGRAM T\nC$XMP LOOP (I) ON T(I)\nC$XMP&REDUCTON(+:S)\n      END\n";
    let text = extract(src, DirLang::Fortran);
    let diags = parse(&text, DirLang::Fortran, 0).expect_err("bad clause");
    let r = diags[0].labels[0].range.clone();
    assert_eq!(&src[r.clone()], "REDUCTON");
    let line3 = src.match_indices('\n').nth(1).map(|(i, _)| i + 1).unwrap_or(0);
    assert_eq!(r.start - line3, 6, "column 7 of line 3");
}
