//! No input makes the directive parser panic: every prefix of every valid case, and
//! assorted garbage (random ASCII soup, non-ASCII, Japanese text, deep nesting).

mod directives_support;

use directives_support::*;
use xmpc_frontend::directive::{parse, parse_expr, DirLang};

fn no_panic(text: &str, lang: DirLang) {
    let d = dt(text);
    if let Err(diags) = parse(&d, lang, 0) {
        // Rendering must not panic either (labels inside the text, on char boundaries).
        let _ = xmpc_ir::diag::render_plain("fuzz", text, &diags);
        for g in &diags {
            for l in &g.labels {
                assert!(l.range.end <= text.len() && l.range.start <= l.range.end, "{text:?}: {:?}", l.range);
            }
        }
    }
    let _ = parse_expr(&d, lang, 0);
}

#[test]
fn every_prefix_of_every_valid_case() {
    for (_, lang, text) in VALID {
        for k in 0..=text.len() {
            if text.is_char_boundary(k) {
                no_panic(&text[..k], *lang);
                let other = if *lang == DirLang::C { DirLang::Fortran } else { DirLang::C };
                no_panic(&text[..k], other);
            }
        }
    }
}

#[test]
fn garbage() {
    let fixed = [
        "",
        " ",
        "\n",
        "xmp",
        "acc",
        "xmp ",
        "XMP",
        "xmp 並列 ループ",
        "acc 並列",
        "xmp loop on t(ｉ)",
        "xmp nodes p(４)",
        "xmp reflect (a) width(/",
        "xmp reflect (a) width(//",
        "xmp loop on t(i) reduction(max:m/",
        "xmp loop on t(i) reduction(max:m//",
        "xmp template t[",
        "xmp template t[]]",
        "xmp nodes p(2)[2](3)",
        "xmp \\",
        "xmp loop on t(i) \\",
        "xmp a'",
        "xmp wait_async (\"",
        "xmp wait_async ('",
        "xmp wait_async (\"\\",
        "xmp &",
        "xmp loop on t(i) &",
        "xmp loop on t(i) &\n",
        "xmp loop &\n!$xmp",
        "xmp loop &\n!$xmp&",
        "xmp wait_async (1.e)",
        "xmp wait_async (1.eq)",
        "xmp wait_async (.a)",
        "xmp wait_async (1..2)",
        "xmp wait_async (0x)",
        "acc \u{0}",
        "xmp \u{0}",
        "xmp wait_async (a\u{7f})",
        "\u{feff}xmp barrier",
        "xmp end",
        "xmp end device",
        "xmp device",
        "xmp loop (i) on t(i) reduction(+:s,",
        "xmp loop (i) on t(i) reduction(+:s, max",
        "xmp loop (i) on t(i) reduction(+:s, max:",
        "xmp nodes p(4) =",
        "xmp nodes (4) ::",
        "xmp distribute t(gblock(",
        "xmp distribute t(gblock(*",
        "xmp static_desc ::",
        "xmp loop on t(i) peel_and_wait(",
        "xmp loop on t(i) peel_and_wait(t,",
        "xmp wait_async (a ? b",
        "xmp wait_async (a ? b :",
        "xmp wait_async ((int",
        "xmp wait_async (sizeof",
        "xmp wait_async (a->",
        "xmp wait_async (s%",
        "ｘｍｐ barrier",
        "xmp\u{3000}barrier",
    ];
    for s in fixed {
        no_panic(s, DirLang::C);
        no_panic(s, DirLang::Fortran);
    }
    // Deep nesting is refused, not a stack overflow.
    for open in ["(", "-", "!", ".not. ", "[", "a**"] {
        let s = format!("xmp wait_async ({}", open.repeat(5000));
        no_panic(&s, DirLang::C);
        no_panic(&s, DirLang::Fortran);
    }
    // Pseudo-random soup over the characters the grammar cares about.
    let alphabet: Vec<char> =
        "xmpacc loop on t(i)[]:,*+-/%&|^!~<>=?.'\"\\\n\t0123456789 block gblock reduction width async periodic 並列ü:: .and. ** //".chars().collect();
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..3000 {
        let mut s = String::from(if seed & 1 == 0 { "xmp " } else { "acc " });
        for _ in 0..(seed % 40) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            s.push(alphabet[(seed % alphabet.len() as u64) as usize]);
        }
        no_panic(&s, DirLang::C);
        no_panic(&s, DirLang::Fortran);
    }
}
