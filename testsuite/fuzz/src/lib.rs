//! The fuzz targets' bodies, one function per target (fuzz_targets/*.rs call them;
//! testsuite/tests/fuzz_replay.rs replays regressions/ through them in `cargo test`,
//! so this file needs nothing of libFuzzer).
//!
//! What every target checks: the compiler (front end, checks, translation, blocks,
//! skeleton) on any bytes either succeeds or reports errors that are located (a
//! primary label with a span inside the file); a panic, an abort or an unlocated
//! error is a finding. The input is decoded as the driver decodes it (src/source.rs).
//! The data readers may refuse anything; they may not panic or allocate unboundedly.

#[path = "../../../src/source.rs"]
#[allow(dead_code)]
mod source;

/// `c_front`: the bytes as a C source.
pub fn c_front(data: &[u8]) {
    compile(data, Lang::C);
}

/// `fortran_front`: the first byte picks free (even) or fixed (odd) form; the rest is
/// the source.
pub fn fortran_front(data: &[u8]) {
    if let Some((&b, rest)) = data.split_first() {
        compile(rest, if b & 1 == 0 { Lang::FortranFree } else { Lang::FortranFixed });
    }
}

/// `directive`: one directive text (after the sentinel word), C (first byte even) or
/// Fortran (odd).
pub fn directive(data: &[u8]) {
    use xmpc_frontend::directive::{self as d, DirLang};
    let Some((&b, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let lang = if b & 1 == 0 { DirLang::C } else { DirLang::Fortran };
    let src = d::DirectiveText { text: text.to_string(), map: xmpc_ir::OffsetMap::identity(0) };
    if let Err(e) = d::parse(&src, lang, 0) {
        assert_located(&e, text.len(), "directive");
    }
}

/// `readers`: the data readers of the other tools; the first byte picks one (profile
/// JSON, NSIM TOML config, MPIETE trace, MPIETE compute data JSON, BSIM platform TOML,
/// PSIM machine TOML). Errors are fine;
/// panics and unbounded allocations are findings (libFuzzer's -rss_limit_mb catches
/// the latter).
pub fn readers(data: &[u8]) {
    let Some((&b, rest)) = data.split_first() else { return };
    match b % 6 {
        0 => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(p) = xmpc_prof_report::Profile::from_json(t) {
                    let _ = xmpc_prof_report::text::render(&p, 5);
                }
            }
        }
        1 => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(c) = xmpc_nsim::Config::from_toml(t, "fuzz.toml") {
                    if c.num_nodes() <= 4096 {
                        let _ = xmpc_nsim::topo::Topo::new(&c);
                    }
                }
            }
        }
        2 => {
            if let Ok(mut r) = xmpc_mpiete::trace::TraceReader::new(rest, "fuzz".into()) {
                for _ in 0..100_000 {
                    match r.next_event() {
                        Ok(Some(_)) => {}
                        _ => break,
                    }
                }
            }
        }
        4 => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(p) = xmpc_bsim::model::parse_platform(std::path::Path::new("fuzz.toml"), t) {
                    let nodes = xmpc_bsim::simgrid::nodes_for(&p, 64);
                    let _ = xmpc_bsim::simgrid::export(&p, nodes);
                    let _ = xmpc_bsim::simgrid::hostfile(&p, 64);
                    for bytes in [0, 1, 4096, 1 << 40] {
                        let _ = p.transfer(0, 1, bytes);
                    }
                }
            }
        }
        5 => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(m) = xmpc_psim_machine::Machine::parse(t) {
                    let _ = m.to_toml();
                }
            }
        }
        _ => {
            if let Ok(t) = std::str::from_utf8(rest) {
                if let Ok(b) = serde_json::from_str::<xmpc_mpiete::data::BlockTimes>(t) {
                    if b.blocks.iter().all(|x| x.id <= xmpc_mpiete::data::MAX_BLOCK_ID) {
                        let _ = b.tables(b.ranks.min(64));
                    }
                }
            }
        }
    }
}

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
    // the XMP/C local view first, as the driver lowers it (src/main.rs)
    let text = if lang == Lang::C {
        let lowered =
            xmpc_frontend::c::local_view::scan(0, &text).and_then(|lv| lv.map(|lv| xmpc_backends::c::coarray::lower(&text, &lv, "fuzz", 0)).transpose());
        match lowered {
            Ok(None) => text,
            Ok(Some(l)) => l.text,
            Err(d) => {
                assert_located(&d, text.len(), "local view");
                return;
            }
        }
    } else {
        text
    };
    let parsed = xmpc_frontend::parse_source(0, "fuzz", &text, lang);
    assert_located(&parsed.diags, text.len(), "front end");
    if parsed.diags.iter().any(|d| d.severity >= Severity::Error) {
        return;
    }
    let checks = xmpc_passes::check::check(&parsed.unit, &text);
    assert_located(&checks, text.len(), "check");
    if checks.iter().all(|d| d.severity < Severity::Error) {
        let edits = if lang == Lang::C {
            xmpc_backends::c::translate(&parsed.unit, &text)
        } else {
            xmpc_backends::fortran::translate_with_modules(&parsed.unit, &text, &|_| None).map(|(e, _)| e)
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
            // as for the translation: an internal error (XMP0900) is reported located,
            // as the driver does; its inputs are kept in findings/ for the skeletonizer
            if let Err(err) = xmpc_backends::emit(&parsed.unit, &text, &s.edits) {
                assert_located(&[err.to_diag(0)], text.len(), "skeleton emit");
            }
        }
        Err(d) => assert_located(&d, text.len(), "skeletonize"),
    }
    let _ = source::restore(&text);
}
