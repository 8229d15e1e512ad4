//! Front end + IR + emitter throughput on generated 50k-line C and Fortran files,
//! next to tree-sitter alone (the floor: the pipeline should stay within 2x of it).

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

criterion_group!(benches, bench);
criterion_main!(benches);
