//! Every corpus file parses without errors and comes out byte for byte through the IR;
//! so do the plain C files (no XMP) of NPB and of Omni's suites and mini-apps in
//! `../shared/external`, when this checkout has them beside it.

use std::path::{Path, PathBuf};

use xmpc_testsuite::{corpus_files, run_file};

/// What `xmpc --emit=source` does to a file without XMP: no local view found (the
/// driver would lower it and add `#include "xmpc_coarray.h"`), no error, no runtime
/// needed (else it is translated), and the IR emits the text unchanged.
fn check_plain(f: &Path) {
    let r = run_file(f);
    let name = f.display().to_string();
    match &r.local_view {
        Ok(None) => {}
        Ok(Some(lv)) => panic!("{name}: local view found in a file without any: {lv:?}"),
        Err(d) => panic!("{name}: local-view errors:\n{}", xmpc_ir::diag::render_plain(&name, &r.text, d)),
    }
    assert!(r.errors().is_empty(), "{name} has errors:\n{}", r.rendered(&name));
    assert!(!r.unit.items.is_empty(), "{name}: the IR has no items");
    let out = r.emitted.unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(out == r.text, "{name}: --emit=source is not byte-identical");
}

fn check_dir(sub: &str, at_least: usize) {
    let files = corpus_files(sub);
    assert!(files.len() >= at_least, "corpus/{sub} has {} files, expected at least {at_least}", files.len());
    for f in files {
        check_plain(&f);
    }
}

#[test]
fn c_corpus_round_trips() {
    check_dir("c", 13);
}

#[test]
fn free_form_corpus_round_trips() {
    check_dir("f90", 8);
}

#[test]
fn fixed_form_corpus_round_trips() {
    check_dir("f", 6);
}

/// `../shared/external` (or `$XMPC_EXTERNAL`), when present.
fn external() -> Option<PathBuf> {
    let ext = std::env::var_os("XMPC_EXTERNAL").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/external"));
    if ext.is_dir() {
        Some(ext)
    } else {
        eprintln!("{}: not here, the external C files are not checked", ext.display());
        None
    }
}

/// The `.c` and `.h` files under `dir`, recursively, sorted.
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())).flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == "c" || x == "h") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// No XMP in it: no `xmp` at all (directives, `xmp.h`, library calls) and no
/// `#pragma acc`. Read independently of the front end.
fn is_plain(text: &str) -> bool {
    let acc = text.lines().any(|l| l.trim_start().strip_prefix('#').is_some_and(|r| r.trim_start().starts_with("pragma") && r.contains("acc")));
    !text.to_ascii_lowercase().contains("xmp") && !acc
}

#[test]
fn npb_c_files_round_trip() {
    let Some(ext) = external() else { return };
    let npb = ext.join("npb3.3-mpi");
    let files: Vec<PathBuf> = ["IS", "common"].iter().flat_map(|d| c_files(&npb.join(d))).collect();
    assert!(files.len() >= 4, "NPB: IS and common hold {} C files", files.len());
    for f in &files {
        check_plain(f);
    }
    eprintln!("NPB: {} C files byte for byte", files.len());
}

#[test]
fn plain_c_files_of_omni_round_trip() {
    let Some(ext) = external() else { return };
    let mut n = 0;
    for suite in ["omni-xmp-c", "omni-xacc", "xmp-apps"] {
        for f in c_files(&ext.join(suite)) {
            let text = std::fs::read(&f).unwrap();
            if is_plain(&String::from_utf8_lossy(&text)) && std::str::from_utf8(&text).is_ok() {
                check_plain(&f);
                n += 1;
            }
        }
    }
    // 52 on this checkout (FFB-MINI's gfall.c and NICAM-DC-MINI's fio.c and
    // fiof.c have `: [` in comments: issue 37).
    assert!(n >= 50, "only {n} plain C files found");
    eprintln!("Omni: {n} plain C files byte for byte");
}

/// The other way round: every file of Omni's C local-view suite has local view.
#[test]
fn omni_local_view_files_have_local_view() {
    let Some(ext) = external() else { return };
    let files = c_files(&ext.join("omni-xmp-c-local"));
    assert!(files.len() >= 27, "{} files", files.len());
    for f in files {
        let r = run_file(&f);
        assert!(matches!(r.local_view, Ok(Some(_))), "{}: {:?}", f.display(), r.local_view.err().map(|d| d.len()));
    }
}
