//! Broken or odd input: warnings, never errors or panics.
mod c_util;

use xmpc_ir::diag::Severity;

fn tiles(text: &str, p: &xmpc_frontend::Parsed) -> bool {
    let mut last = 0;
    for it in &p.unit.items {
        let s = it.span();
        if s.start < last || s.end > text.len() || !c_util::only_comments(&text[last..s.start]) {
            return false;
        }
        last = s.end;
    }
    true
}

#[test]
fn host_syntax_error_is_one_warning_per_region() {
    let src = "int main(void) {\n  int x = ;\n  x = 1 +* 2 @;\n  return 0;\n}\nint ok(void) { return 1; }\n";
    let p = c_util::parse(src);
    assert!(!p.unit.host_errors.is_empty());
    assert!(p.diags.iter().all(|d| d.severity == Severity::Warning && d.code.as_deref() == Some("XMP0200")));
    assert_eq!(p.diags.len(), p.unit.host_errors.len());
    assert!(p.diags.iter().all(|d| !d.labels.is_empty()));
    assert!(tiles(src, &p));
    assert!(c_util::function(&p, "ok").body.len() == 1);
    let shown = xmpc_ir::diag::render_plain("bad.c", src, &p.diags);
    assert!(shown.contains("warning[XMP0200]"), "{shown}");
}

#[test]
fn missing_token_is_reported_where_it_is_missing() {
    let src = "int main(void) {\n  int x = 1\n  return x;\n}\n";
    let p = c_util::parse(src);
    assert_eq!(p.diags.len(), 1);
    assert_eq!(p.unit.host_errors.len(), 1);
    let shown = xmpc_ir::diag::render_plain("m.c", src, &p.diags);
    assert!(shown.contains("XMP0200"), "{shown}");
}

#[test]
fn directive_inside_unparsable_code_is_reported() {
    let src = "struct s {\n#pragma xmp barrier\n  int a;\n};\n";
    let p = c_util::parse(src);
    // Refused, not ignored: a dropped directive changes what the program means.
    let d = p.diags.iter().find(|d| d.code.as_deref() == Some("XMP0203")).expect("XMP0203");
    assert_eq!(d.severity, Severity::Error);
}

#[test]
fn odd_files() {
    for src in [
        "",
        "\n",
        "/* only a comment */",
        "#pragma xmp",
        "#pragma xmp nodes p(4) \\",
        "int",
        "}",
        "#if 0\n#pragma xmp loop on t(i)\n",
        "int f() {\n#pragma xmp loop on t(i)\n",
        "\u{feff}int x;\n",
    ] {
        let p = c_util::parse(src);
        assert!(tiles(src, &p), "{src:?}");
        assert!(p.diags.iter().all(|d| d.severity <= Severity::Error));
    }
}

#[test]
fn deep_nesting_does_not_overflow() {
    let mut src = String::from("int main(void) { x = ");
    src.push_str(&"(".repeat(3000));
    src.push('1');
    src.push_str(&")".repeat(3000));
    src.push_str(";\n y = 1");
    src.push_str(&" + 1".repeat(20000));
    src.push_str(";\n");
    src.push_str(&"{".repeat(2000));
    src.push_str(&"}".repeat(2000));
    src.push_str(&"if (a) ".repeat(2000));
    src.push_str("int ");
    src.push_str(&"(".repeat(2000));
    src.push('v');
    src.push_str(&")".repeat(2000));
    src.push_str(";\n");
    src.push_str("b = 2;\n}\n");
    let p = c_util::parse(&src);
    assert!(tiles(&src, &p));
    assert!(p.unit.host_errors.is_empty());
}

#[test]
fn truncated_corpus_files_do_not_panic() {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    for (name, text) in c_util::corpus() {
        for _ in 0..50 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut cut = (seed % (text.len() as u64 + 1)) as usize;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            let t = &text[..cut];
            let p = c_util::parse(t);
            assert!(tiles(t, &p), "{name} cut at {cut}");
            assert!(p.diags.iter().all(|d| d.code.as_deref() != Some("XMP0200") || d.severity == Severity::Warning));
        }
    }
}
