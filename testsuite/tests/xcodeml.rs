//! The XML dump is well-formed for every corpus file, and golden for a few.

use quick_xml::events::Event;
use quick_xml::Reader;
use xmpc_testsuite::{corpus_files, run_file};

fn dump(path: &std::path::Path) -> String {
    let mut r = run_file(path);
    // Golden files must not depend on where the checkout lives.
    let root = xmpc_testsuite::corpus_dir();
    r.unit.name = path.strip_prefix(&root).unwrap_or(path).display().to_string();
    xmpc_ir::xml::dump(&xmpc_ir::Program { files: vec![r.unit] }, &[&r.text])
}

/// Parses the XML back and returns the number of elements; panics if malformed.
fn well_formed(name: &str, xml: &str) -> usize {
    let mut rd = Reader::from_str(xml);
    let mut depth = 0i32;
    let mut elems = 0;
    loop {
        match rd.read_event() {
            Ok(Event::Start(_)) => {
                depth += 1;
                elems += 1
            }
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Empty(_)) => elems += 1,
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("{name}: malformed XML at {}: {e}", rd.buffer_position()),
        }
    }
    assert_eq!(depth, 0, "{name}: unbalanced XML");
    elems
}

#[test]
fn every_dump_is_well_formed_xml() {
    for sub in ["c", "f90", "f"] {
        for f in corpus_files(sub) {
            let name = f.display().to_string();
            let xml = dump(&f);
            assert!(xml.starts_with("<XcodeProgram"), "{name}");
            assert!(well_formed(&name, &xml) > 10, "{name}: suspiciously small dump");
        }
    }
}

#[test]
fn golden_dumps() {
    let dir = xmpc_testsuite::corpus_dir();
    for rel in ["c/laplace2d_square.c", "f90/laplace2d.f90", "f/cg_nas.f"] {
        let p = dir.join(rel);
        if !p.exists() {
            panic!("golden input {rel} is missing");
        }
        let name = rel.replace(['/', '.'], "_");
        insta::assert_snapshot!(name, dump(&p));
    }
}
