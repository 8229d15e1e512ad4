//! The directive mask: same length, same line structure, directive text.
mod c_util;

use xmpc_frontend::c::mask::mask;

fn newlines(s: &str) -> Vec<usize> {
    s.bytes().enumerate().filter(|(_, b)| *b == b'\n' || *b == b'\r').map(|(i, _)| i).collect()
}

#[test]
fn corpus_keeps_length_and_lines() {
    for (name, text) in c_util::corpus() {
        let m = mask(&text);
        assert_eq!(m.text.len(), text.len(), "{name}");
        assert_eq!(newlines(&m.text), newlines(&text), "{name}");
        for d in &m.directives {
            let masked = &m.text[d.span.range()];
            assert!(masked.starts_with("/*") && masked.ends_with("*/"), "{name}: {masked:?}");
            assert!(!masked[2..masked.len() - 2].contains("*/"), "{name}: {masked:?}");
        }
        // Outside directives and gmove/array statements nothing changes.
        let mut changed: Vec<_> = m.directives.iter().map(|d| d.span).chain(m.sections.iter().copied()).collect();
        changed.sort();
        let mut last = 0;
        for s in changed {
            assert_eq!(&m.text[last..s.start], &text[last..s.start], "{name}");
            last = s.end;
        }
        for s in &m.sections {
            assert!(m.text[s.range()].starts_with('{') && m.text[s.range()].ends_with('}'));
            assert!(text[s.range()].ends_with(';'));
        }
        assert_eq!(&m.text[last..], &text[last..], "{name}");
    }
}

#[test]
fn finds_spelling_variants() {
    let src = "#pragma xmp nodes p(4)\n  # pragma  acc   data copy(a)\n#pragma omp parallel\n#pragma xmpfoo\n#pragmaxmp x\nint x; // #pragma xmp barrier\n/*\n#pragma xmp loop on t(i)\n*/\nchar *s = \"\\\n#pragma xmp barrier\";\n";
    let m = mask(src);
    let texts: Vec<&str> = m.directives.iter().map(|d| d.text.text.as_str()).collect();
    assert_eq!(texts, ["xmp nodes p(4)", "acc   data copy(a)"]);
    assert_eq!(&src[m.directives[1].span.range()], "# pragma  acc   data copy(a)");
    assert!(m.text.contains("#pragma omp parallel"));
}

#[test]
fn continuation_lines_are_joined_and_mapped() {
    let src = "#pragma xmp loop (i) \\\n    on t(i) \\\r\n    reduction(+:s) /* sum */\nfor(;;);\n";
    let m = mask(src);
    assert_eq!(m.directives.len(), 1);
    let d = &m.directives[0];
    assert_eq!(d.text.text, "xmp loop (i)     on t(i)     reduction(+:s)");
    assert_eq!(&src[d.span.range()], "#pragma xmp loop (i) \\\n    on t(i) \\\r\n    reduction(+:s) /* sum */");
    // `on` in the joined text maps back to `on` in the file.
    let on = d.text.text.find("on").unwrap();
    let orig = d.text.map.to_orig(on);
    assert_eq!(&src[orig..orig + 2], "on");
    let red = d.text.text.find("reduction").unwrap();
    let orig = d.text.map.to_orig(red);
    assert_eq!(&src[orig..orig + 9], "reduction");
    assert_eq!(m.text.len(), src.len());
    assert_eq!(newlines(&m.text), newlines(src));
    assert!(m.text.ends_with("*/\nfor(;;);\n"));
}

#[test]
fn short_last_line_and_non_ascii() {
    // The last continued line is one byte long: the comment closes on the line before.
    let src = "#pragma xmp template t(0:N-1,\\\n)\nint x; /* 日本語 */\n#pragma acc loop // ループ\n";
    let m = mask(src);
    assert_eq!(m.text.len(), src.len());
    assert_eq!(newlines(&m.text), newlines(src));
    assert_eq!(m.directives[0].text.text, "xmp template t(0:N-1,)");
    assert_eq!(m.directives[1].text.text, "acc loop");
    assert!(m.text.is_char_boundary(m.text.len()));
    assert!(m.text.contains("/* 日本語 */"));
}

#[test]
fn crlf_line_end_is_not_masked() {
    let src = "#pragma xmp barrier\r\nint x;\r\n";
    let m = mask(src);
    assert_eq!(&src[m.directives[0].span.range()], "#pragma xmp barrier");
    assert_eq!(&m.text[..21], "/*ragma xmp barri*/\r\n");
}

/// XMP C array assignments outside a directive (`y[i][:] = 0;`) are masked like the
/// statement of an `array` directive; C with `:` in brackets (`?:`), labels, `case`
/// and bit-fields is left alone.
#[test]
fn sections_outside_directives() {
    let src = "void f(void) {\n  for (i = 0; i < n; i++)\n    y[i][:] = 0;\n  y[0:9][0:9] = 1;\n  a[b ? 1 : 2] = c ? d : e;\n  a[b ? c[1:2] : 2] = 0;\nlab: x = 1;\n  switch (k) { case 1: z[k] = 0; }\n}\nstruct s { int a : 3; };\n";
    let m = mask(src);
    let texts: Vec<&str> = m.sections.iter().map(|s| &src[s.range()]).collect();
    assert_eq!(texts, ["y[i][:] = 0;", "y[0:9][0:9] = 1;", "a[b ? c[1:2] : 2] = 0;"]);
    assert_eq!(m.text.len(), src.len());
    assert!(m.text.contains("a[b ? 1 : 2] = c ? d : e;") && m.text.contains("lab: x = 1;") && m.text.contains("int a : 3;"));
}

/// `_Complex` (unknown to tree-sitter-c) is blanked as a whole word only.
#[test]
fn complex_keyword_is_blanked() {
    let src = "double _Complex z[4];\n_Complex float f;\nint my_Complex, _Complexity;\n/* _Complex */\n";
    let m = mask(src);
    assert_eq!(m.text, "double          z[4];\n         float f;\nint my_Complex, _Complexity;\n/* _Complex */\n");
}
