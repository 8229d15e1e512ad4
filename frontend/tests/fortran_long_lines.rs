//! The Fortran front end is linear in the line length (issue 37, item 4). Counted, not
//! timed: tree-sitter's lexer logs every character it reads (`consume`/`skip`), so the
//! characters read per character of input are a load-independent measure. An overlong
//! run of identifier characters the grammar cannot take (an unterminated literal, a
//! digit glued to a name) made the Fortran scanner read the rest of the run at every
//! position: 40 KB took 8 s, 100 KB 44 s. A parse that reads more than the budget is
//! cancelled, so a quadratic front end fails here at once instead of running long.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use xmpc_frontend::fortran::parser_input;
use xmpc_ir::Lang;

/// Characters read per byte of input allowed: a run cut every `MAX_RUN` (256)
/// characters is read about 128 times per byte (measured: 130 at 100 KB, 1.0 for
/// well-formed lines); a quadratic scan reads tens of thousands at 40 KB.
const PER_BYTE: u64 = 200;

/// Characters the lexer reads parsing `text`, or `None` when over the budget.
fn chars_read(text: &str, lang: Lang) -> Option<u64> {
    let n = parser_input(text, lang);
    let count = Arc::new(AtomicU64::new(0));
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_fortran::LANGUAGE.into()).unwrap();
    let c = count.clone();
    p.set_logger(Some(Box::new(move |t, msg| {
        if t == tree_sitter::LogType::Lex && (msg.starts_with("consume") || msg.starts_with("skip")) {
            c.fetch_add(1, Ordering::Relaxed);
        }
    })));
    let budget = PER_BYTE * text.len() as u64 + 10_000;
    let bytes = n.text.as_bytes();
    let mut progress = |_: &tree_sitter::ParseState| if count.load(Ordering::Relaxed) > budget { ControlFlow::Break(()) } else { ControlFlow::Continue(()) };
    let opts = tree_sitter::ParseOptions::new().progress_callback(&mut progress);
    let tree = p.parse_with_options(&mut |i, _| if i < bytes.len() { &bytes[i..] } else { &[] }, None, Some(opts));
    tree.map(|_| count.load(Ordering::Relaxed))
}

/// One line of `len` bytes of each shape, in a small program.
fn shapes(len: usize) -> Vec<(&'static str, Lang, String)> {
    let a = "a".repeat(len);
    let sum = vec!["1"; len / 2].join("+");
    let free = |line: String| format!("program p\n  integer :: x\n{line}\n  print *, x\nend program p\n");
    let fixed = |line: String| format!("      program p\n      integer x\n{line}\n      print *, x\n      end\n");
    vec![
        ("free, unterminated '", Lang::FortranFree, free(format!("  x = '{a}"))),
        ("free, unterminated \"", Lang::FortranFree, free(format!("  x = \"{a}"))),
        ("free, digit glued to a name", Lang::FortranFree, free(format!("  x = 1{a}"))),
        ("free, long sum", Lang::FortranFree, free(format!("  x = {sum}"))),
        ("free, terminated literal", Lang::FortranFree, free(format!("  print *, '{a}'"))),
        ("fixed tab form, unterminated '", Lang::FortranFixed, fixed(format!("\tx = '{a}"))),
        ("fixed tab form, digit glued to a name", Lang::FortranFixed, fixed(format!("\tx = 1{a}"))),
        ("fixed, past column 72", Lang::FortranFixed, fixed(format!("      x = 1{a}"))),
    ]
}

#[test]
fn parsing_reads_each_character_a_bounded_number_of_times() {
    for len in [1_000, 40_000] {
        for (what, lang, text) in shapes(len) {
            match chars_read(&text, lang) {
                Some(n) => assert!(n <= PER_BYTE * text.len() as u64 + 10_000, "{what}, {len} bytes: {n} characters read"),
                None => panic!("{what}, {len} bytes: over {PER_BYTE} characters read per byte (quadratic?)"),
            }
        }
    }
}

#[test]
fn the_whole_front_end_takes_long_lines() {
    // every shape goes through lowering too (no panic, a located warning at most); on
    // a large stack as in the driver (src/main.rs): `1+1+...` nests 50,000 deep
    let run = || {
        for (what, lang, text) in shapes(100_000) {
            let p = xmpc_frontend::parse_source(0, "long.f90", &text, lang);
            let errors: Vec<_> = p.diags.iter().filter(|d| d.severity == xmpc_ir::diag::Severity::Error).map(|d| &d.message).collect();
            assert!(errors.is_empty(), "{what}: {errors:?}");
        }
    };
    std::thread::Builder::new().stack_size(1 << 30).spawn(run).unwrap().join().unwrap();
}
