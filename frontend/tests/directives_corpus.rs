//! Every directive of the shared test corpus (`testsuite/corpus`) parses, and its
//! spans stay inside the directive.

mod directives_support;

use directives_support::all_directives;
use xmpc_frontend::directive::{parse, DirLang};
use xmpc_ir::Span;

fn corpus(sub: &str) -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testsuite/corpus").join(sub);
    let Ok(rd) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut v: Vec<(String, String)> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter_map(|p| Some((p.file_name()?.to_string_lossy().into_owned(), std::fs::read_to_string(&p).ok()?)))
        .collect();
    v.sort();
    v
}

#[test]
fn corpus_directives_parse() {
    let mut count = 0;
    for (sub, lang, fixed) in [("c", DirLang::C, false), ("f90", DirLang::Fortran, false), ("f", DirLang::Fortran, true)] {
        for (name, src) in corpus(sub) {
            for d in all_directives(&src, lang, fixed) {
                count += 1;
                let whole = d.map.span_to_orig(Span::new(0, d.text.len()));
                match parse(&d, lang, 0) {
                    Ok(dir) => {
                        assert!(dir.span.start >= whole.start && dir.span.end <= whole.end, "{name}: {dir}");
                        assert!(dir.name_span.start >= whole.start && dir.name_span.end <= whole.end, "{name}: {dir}");
                    }
                    Err(e) => panic!("{sub}/{name}: {:?}\n{}", d.text, xmpc_ir::diag::render_plain(&name, &src, &e)),
                }
            }
        }
    }
    assert!(count > 0 || corpus("c").is_empty());
}
