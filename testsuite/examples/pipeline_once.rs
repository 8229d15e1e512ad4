//! One pass of the pipeline (or of tree-sitter alone) over a generated 50k-line file,
//! for instruction counting under callgrind, which is immune to machine load:
//!   valgrind --tool=callgrind target/release/examples/pipeline_once c pipeline
use xmpc_ir::Lang;
use xmpc_testsuite::generated::{c_source, f90_source};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (lang, text) = match args.get(1).map(String::as_str) {
        Some("f90") => (Lang::FortranFree, f90_source(50_000)),
        _ => (Lang::C, c_source(50_000)),
    };
    if args.get(2).map(String::as_str) == Some("none") {
        println!("{} bytes generated", text.len());
    } else if args.get(2).map(String::as_str) == Some("tree-sitter") {
        let mut p = tree_sitter::Parser::new();
        let l: tree_sitter::Language = if lang == Lang::C { tree_sitter_c::LANGUAGE.into() } else { tree_sitter_fortran::LANGUAGE.into() };
        p.set_language(&l).unwrap();
        let t = p.parse(&text, None).unwrap();
        println!("{} bytes, {} nodes at root", text.len(), t.root_node().child_count());
    } else {
        let parsed = xmpc_frontend::parse_source(0, "gen", &text, lang);
        let out = xmpc_backends::emit(&parsed.unit, &text, &[]).unwrap();
        assert_eq!(out, text);
        println!("{} bytes, {} items, {} diagnostics", text.len(), parsed.unit.items.len(), parsed.diags.len());
    }
}
