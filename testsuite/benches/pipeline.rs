//! Front end + IR + emitter throughput on generated 50k-line C and Fortran files,
//! next to tree-sitter alone (the floor: the pipeline should stay within 2x of it);
//! and the whole translation of 2,000-line XMP C and Fortran files (parse, the XMP
//! model, the printer, emit), which must stay at or under 20 ms; and the Fortran front
//! end on one line of 1 KB, 10 KB and 100 KB (issue 37: linear in the line length; an
//! unterminated literal of 100 KB took 44 s before `frontend/src/fortran/runs.rs`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xmpc_ir::Lang;
use xmpc_testsuite::generated::{c_source, f90_source};

fn bench(c: &mut Criterion) {
    for (name, lang, text) in [("c_50k", Lang::C, c_source(50_000)), ("f90_50k", Lang::FortranFree, f90_source(50_000))] {
        let mut g = c.benchmark_group(name);
        g.sample_size(10);
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function("tree-sitter alone", |b| {
            let mut p = tree_sitter::Parser::new();
            let l: tree_sitter::Language = if lang == Lang::C { tree_sitter_c::LANGUAGE.into() } else { tree_sitter_fortran::LANGUAGE.into() };
            p.set_language(&l).unwrap();
            b.iter(|| p.parse(&text, None).unwrap())
        });
        g.bench_function("parse + IR + emit", |b| {
            b.iter(|| {
                let parsed = xmpc_frontend::parse_source(0, name, &text, lang);
                assert!(parsed.diags.is_empty());
                xmpc_backends::emit(&parsed.unit, &text, &[]).unwrap()
            })
        });
        g.finish();
    }
}

fn translate(c: &mut Criterion) {
    let mut g = c.benchmark_group("translate_2k_lines");
    g.sample_size(20);
    for (name, lang, text) in [("xmp_c", Lang::C, c_source(2_000)), ("xmp_f90", Lang::FortranFree, f90_source(2_000))] {
        g.bench_function(name, |b| {
            b.iter(|| {
                let parsed = xmpc_frontend::parse_source(0, name, &text, lang);
                assert!(xmpc_passes::check::check(&parsed.unit, &text).is_empty());
                let edits = if lang == Lang::C {
                    xmpc_backends::c::translate(&parsed.unit, &text).expect("translates")
                } else {
                    xmpc_backends::fortran::translate(&parsed.unit, &text).expect("translates")
                };
                xmpc_backends::emit(&parsed.unit, &text, &edits).unwrap()
            })
        });
    }
    g.finish();
}

/// One long line in a small program: a well-formed call with many arguments (flat: a
/// long sum nests as deep as it is long, beyond the bench thread's stack), an
/// unterminated literal (the parser in error recovery over one identifier run), the
/// call as a tab-form fixed-form line.
fn long_lines(c: &mut Criterion) {
    for (shape, lang) in [("args", Lang::FortranFree), ("unterminated", Lang::FortranFree), ("tab_fixed", Lang::FortranFixed)] {
        let mut g = c.benchmark_group(format!("long_line_{shape}"));
        g.sample_size(10);
        for len in [1_000, 10_000, 100_000] {
            let line = match shape {
                "args" => format!("  call f({})", vec!["1"; len / 2].join(",")),
                "unterminated" => format!("  x = '{}", "a".repeat(len)),
                _ => format!("\tcall f({})", vec!["1"; len / 2].join(",")),
            };
            let text = format!("program p\n  integer x\n{line}\n  print *, x\nend program p\n");
            g.throughput(Throughput::Bytes(text.len() as u64));
            g.bench_function(format!("{}KB", len / 1000), |b| b.iter(|| xmpc_frontend::parse_source(0, "long.f90", &text, lang)));
        }
        g.finish();
    }
}

criterion_group!(benches, bench, translate, long_lines);
criterion_main!(benches);
