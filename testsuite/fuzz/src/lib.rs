//! What every fuzz target checks: the compiler (front end, checks, translation,
//! blocks, skeleton) on any bytes either succeeds or reports errors that are located
//! (a primary label with a span inside the file); a panic, an abort or an unlocated
//! error is a finding. The input is decoded as the driver decodes it (src/source.rs).

#[path = "../../../src/source.rs"]
#[allow(dead_code)]
mod source;

use xmpc_ir::diag::Severity;
use xmpc_ir::{Diag, Lang};

/// Panics (a finding) when an error has no label inside `len` bytes.
pub fn assert_located(diags: &[Diag], len: usize, what: &str) {
    for d in diags.iter().filter(|d| d.severity >= Severity::Error) {
        let ok = d.labels.iter().any(|l| l.range.start <= l.range.end && l.range.end <= len);
        assert!(ok, "{what}: unlocated error: {} {:?}", d.message, d.labels);
    }
}

/// The whole compiler on one source, as `--emit=source`, `--emit=blocks` and
/// `--skeletonize` run it.
pub fn compile(bytes: &[u8], lang: Lang) {
    let text = source::decode(bytes).into_owned();
    let parsed = xmpc_frontend::parse_source(0, "fuzz", &text, lang);
    assert_located(&parsed.diags, text.len(), "front end");
    if parsed.diags.iter().any(|d| d.severity >= Severity::Error) {
        return;
    }
    let checks = xmpc_passes::check::check(&parsed.unit, &text);
    assert_located(&checks, text.len(), "check");
    if checks.iter().all(|d| d.severity < Severity::Error) {
        let edits = if lang == Lang::C {
            xmpc_passes::xmp_c::translate(&parsed.unit, &text)
        } else {
            xmpc_passes::xmp_f::translate_with_modules(&parsed.unit, &text, &|_| None).map(|(e, _)| e)
        };
        match edits {
            Ok(e) => {
                if let Err(err) = xmpc_backends::emit(&parsed.unit, &text, &e) {
                    assert_located(&[err.to_diag(0)], text.len(), "emit");
                }
            }
            Err(d) => assert_located(&d, text.len(), "translate"),
        }
    }
    match xmpc_passes::blocks::find(&parsed.unit, &text) {
        Ok(b) => {
            let _ = xmpc_passes::blocks::listing("fuzz", &text, &b);
        }
        Err(d) => assert_located(&d, text.len(), "blocks"),
    }
    let opts = xmpc_passes::skel::Options::default();
    match xmpc_passes::skel::skeletonize(&parsed.unit, &text, &opts) {
        Ok(s) => {
            if let Err(err) = xmpc_backends::emit(&parsed.unit, &text, &s.edits) {
                panic!("skeleton emit: {err}");
            }
        }
        Err(d) => assert_located(&d, text.len(), "skeletonize"),
    }
    let _ = source::restore(&text);
}
