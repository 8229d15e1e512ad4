//! `xmpc-testsuite`: test-suite tools.
//!
//! ```text
//! cargo run -p xmpc-testsuite -- conformance [--filter X]... [--np-max N] [-j N]
//!     [--fast] [--list] [--timeout SECS] [--xmpc PATH] [--mpiexec PATH] [--work DIR]
//!     [--dir DIR] [-v] [-- XMPC-FLAGS...]
//! cargo run -p xmpc-testsuite -- omni SUITE-DIR [--json FILE] [--keep DIR] [-j N]
//!     [--timeout SECS] [--filter AREA]... [--snapshot FILE | --no-snapshot] [--update]
//!     [--xmpc PATH] [--mpiexec PATH] [-v]
//! ```
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use xmpc_testsuite::conformance::{self, Options};

mod omni_main;

const USAGE: &str = "\
usage: xmpc-testsuite conformance [options] [-- xmpc flags]
  --filter X      only programs whose name contains X, or family X (repeatable)
  --np-max N      skip process counts above N (default 8)
  -j N            programs compiled/run at once (default 1; keep <= 2 on 2 cores)
  --fast          one basic program per family, at its smallest count >= 2
  --list          list programs, families and process counts, run nothing
  --timeout SECS  wall-clock limit per run (default 60; the process group is killed)
  --xmpc PATH     the driver (default $XMPC, else xmpc next to this executable)
  --mpiexec PATH  (default $MPIEXEC, else mpiexec)
  --work DIR      executables and outputs (default target/<profile>/conformance)
  --dir DIR       the programs (default testsuite/xmp/C)
  -v              print every run, not only failures
Exit status: 0 all passed, 1 a failure, 2 bad usage.

usage: xmpc-testsuite omni SUITE-DIR [options]   (Omni's own test suites; -h for more)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("conformance") => conformance_main(&args[1..]),
        Some("omni") => omni_main::main(&args[1..]),
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn conformance_main(args: &[String]) -> ExitCode {
    let mut o = Options::defaults();
    let mut list = false;
    let mut it = args.iter();
    let bad = |m: String| {
        eprintln!("xmpc-testsuite: {m}\n{USAGE}");
        ExitCode::from(2)
    };
    while let Some(a) = it.next() {
        let r: Result<(), String> = parse_one(a, &mut it, &mut o, &mut list);
        if let Err(m) = r {
            if m.is_empty() {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            return bad(m);
        }
    }
    let programs = match conformance::discover(&o.dir) {
        Ok(p) => p,
        Err(e) => return bad(e),
    };
    let sel = conformance::select(&programs, &o);
    if list {
        for (p, nps) in &sel {
            let nps: Vec<String> = nps.iter().map(|n| n.to_string()).collect();
            let fail = p.expect_fail.as_ref().map(|v| format!("  expect-fail {v:?}")).unwrap_or_default();
            println!("{:<16} {:<28} np={}{}", p.family, p.name, nps.join(","), fail);
        }
        let runs: usize = sel.iter().map(|(_, n)| n.len()).sum();
        println!("{} programs, {} runs", sel.len(), runs);
        return ExitCode::SUCCESS;
    }
    if sel.is_empty() {
        return bad("no program selected".into());
    }
    if !o.xmpc.is_file() {
        eprintln!("xmpc-testsuite: driver not found at {} (build it: cargo build --bin xmpc, or set $XMPC)", o.xmpc.display());
        return ExitCode::from(1);
    }
    let runs: usize = sel.iter().map(|(_, n)| n.len()).sum();
    eprintln!("conformance: {} programs, {} runs, -j {}, xmpc {}", sel.len(), runs, o.jobs, o.xmpc.display());
    let verbose = o.verbose;
    let progress = move |rs: &[conformance::RunResult]| {
        for r in rs {
            if !r.passed {
                eprintln!("FAIL {} np={} ({:.1}s): {}", r.program, r.np, r.seconds, r.detail.replace('\n', "\n     "));
            } else if verbose {
                eprintln!("ok   {} np={} ({:.1}s)", r.program, r.np, r.seconds);
            }
        }
    };
    let results = conformance::run_all(&sel, &o, &progress);
    print!("{}", conformance::report(&results));
    if results.iter().all(|r| r.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn parse_one(a: &str, it: &mut std::slice::Iter<'_, String>, o: &mut Options, list: &mut bool) -> Result<(), String> {
    let mut val = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
    match a {
        "--filter" => o.filter.push(val(a)?),
        "--np-max" => o.np_max = val(a)?.parse().map_err(|_| "bad --np-max")?,
        "-j" | "--jobs" => o.jobs = val(a)?.parse().map_err(|_| "bad -j")?,
        "--fast" => o.fast = true,
        "--list" => *list = true,
        "--timeout" => o.timeout = Duration::from_secs(val(a)?.parse().map_err(|_| "bad --timeout")?),
        "--xmpc" => o.xmpc = PathBuf::from(val(a)?),
        "--mpiexec" => o.mpiexec = val(a)?,
        "--work" => o.work = PathBuf::from(val(a)?),
        "--dir" => o.dir = PathBuf::from(val(a)?),
        "-v" | "--verbose" => o.verbose = true,
        "-h" | "--help" => return Err(String::new()),
        "--" => o.xmpc_flags.extend(it.by_ref().cloned()),
        s if s.starts_with("-j") && s[2..].parse::<usize>().is_ok() => o.jobs = s[2..].parse().unwrap(),
        s => return Err(format!("unknown argument `{s}`")),
    }
    Ok(())
}
