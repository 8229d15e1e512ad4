//! `cargo test` entry of the XMP C conformance suite: a fast subset (one basic program per
//! directive family, at its smallest process count >= 2 when it declares one). The full suite runs from CI:
//! `cargo run -p xmpc-testsuite -- conformance -j 2`.
//!
//! Skipped (with a notice) when the `xmpc` driver has not been built next to this
//! test (`cargo build --bin xmpc`, or set `$XMPC`), when `mpiexec` is missing, or
//! when `XMPC_CONFORMANCE=0`.
use std::process::Command;

use xmpc_testsuite::conformance::{self, Options};

#[test]
fn conformance_fast_subset() {
    if std::env::var("XMPC_CONFORMANCE").is_ok_and(|v| v == "0") {
        eprintln!("conformance: skipped (XMPC_CONFORMANCE=0)");
        return;
    }
    let mut o = Options::defaults();
    if !o.xmpc.is_file() {
        eprintln!("conformance: skipped: no xmpc driver at {}", o.xmpc.display());
        return;
    }
    if Command::new(&o.mpiexec).arg("--version").output().is_err() {
        eprintln!("conformance: skipped: `{}` not found", o.mpiexec);
        return;
    }
    o.fast = true;
    o.np_max = 4;
    o.jobs = 2;
    o.work = o.work.with_file_name("conformance-fast");
    let programs = conformance::discover(&o.dir).expect("programs");
    let sel = conformance::select(&programs, &o);
    let results = conformance::run_all(&sel, &o, &|_| {});
    let report = conformance::report(&results);
    let failures: Vec<String> = results.iter().filter(|r| !r.passed).map(|r| format!("{} np={}: {}", r.program, r.np, r.detail)).collect();
    eprintln!("{report}");
    assert!(failures.is_empty(), "{report}\n{}", failures.join("\n\n"));
}
