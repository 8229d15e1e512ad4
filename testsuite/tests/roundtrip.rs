//! Every corpus file parses without errors and comes out byte for byte through the IR.

use xmpc_testsuite::{corpus_files, run_file};

fn check_dir(sub: &str, at_least: usize) {
    let files = corpus_files(sub);
    assert!(files.len() >= at_least, "corpus/{sub} has {} files, expected at least {at_least}", files.len());
    for f in files {
        let r = run_file(&f);
        let name = f.display().to_string();
        assert!(r.errors().is_empty(), "{name} has errors:\n{}", r.rendered(&name));
        assert!(!r.unit.items.is_empty(), "{name}: the IR has no items");
        let out = r.emitted.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(out == r.text, "{name}: --emit=source is not byte-identical");
    }
}

#[test]
fn c_corpus_round_trips() {
    check_dir("c", 12);
}

#[test]
fn free_form_corpus_round_trips() {
    check_dir("f90", 8);
}

#[test]
fn fixed_form_corpus_round_trips() {
    check_dir("f", 6);
}
