//! `xmpc-testsuite omni SUITE-DIR`: the command line of the Omni suite runner
//! (`xmpc_testsuite::omni`).
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use xmpc_testsuite::omni::{self, classify::Class, snapshot, Options};

const USAGE: &str = "\
usage: xmpc-testsuite omni SUITE-DIR [options]
  Builds each SUITE-DIR/<area>/C (or /F) with its own Makefile (XCC=xmpcc, XFC=xmpf90: xmpc's drop-ins),
  runs every `run:` line under mpiexec -n N and classifies it: pass, refused (an xmpc
  diagnostic), cc-fail / ld-fail (native compile / link), xmpc-ice (xmpc panicked),
  wrong (ERROR/Error printed), abort (non-zero exit), crash (signal), timeout.
  --json FILE       write a JSON summary (per area, per line with the reason)
  --keep DIR        build and run in DIR/<area> and keep it (sources, *.build.log,
                    *.nN.out); default: a temporary directory, removed
  -j N              areas built and run at once (default 2)
  --timeout SECS    limit per run line, the process group is killed (default 120)
  --filter AREA     only this area (repeatable)
  --snapshot FILE   the ratchet (default testsuite/omni/<SUITE-DIR name>.json): a line
                    passing there that does not pass now fails the run
  --no-snapshot     do not compare with a snapshot
  --update          rewrite the snapshot with the current results
  --xmpc PATH       the driver (default $XMPC, else xmpc next to this executable);
                    xmpcc/xmpf90 beside it are used, else shims that call it
  --mpiexec PATH    (default $MPIEXEC, else mpiexec)
  -v                print every line, not only failures
Exit status: 0 no regression against the snapshot, 1 a regression (or no snapshot
without --update), 2 bad usage or no suite there.";

pub fn main(args: &[String]) -> ExitCode {
    let bad = |m: String| {
        eprintln!("xmpc-testsuite omni: {m}\n{USAGE}");
        ExitCode::from(2)
    };
    let defaults = xmpc_testsuite::conformance::Options::defaults();
    let mut o = Options {
        suite: PathBuf::new(),
        filter: Vec::new(),
        jobs: 2,
        timeout: Duration::from_secs(120),
        build_timeout: Duration::from_secs(300),
        xmpc: defaults.xmpc,
        mpiexec: defaults.mpiexec,
        keep: None,
        verbose: false,
    };
    let (mut json, mut snap, mut no_snap, mut update) = (None::<PathBuf>, None::<PathBuf>, false, false);
    let mut suite = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = |name: &str| it.next().cloned().ok_or_else(|| format!("{name} needs a value"));
        let r: Result<(), String> = (|| {
            match a.as_str() {
                "--json" => json = Some(val(a)?.into()),
                "--keep" => o.keep = Some(val(a)?.into()),
                "-j" | "--jobs" => o.jobs = val(a)?.parse().map_err(|_| "bad -j")?,
                "--timeout" => o.timeout = Duration::from_secs(val(a)?.parse().map_err(|_| "bad --timeout")?),
                "--filter" => o.filter.push(val(a)?),
                "--snapshot" => snap = Some(val(a)?.into()),
                "--no-snapshot" => no_snap = true,
                "--update" => update = true,
                "--xmpc" => o.xmpc = val(a)?.into(),
                "--mpiexec" => o.mpiexec = val(a)?,
                "-v" | "--verbose" => o.verbose = true,
                "-h" | "--help" => return Err(String::new()),
                s if s.starts_with("-j") && s[2..].parse::<usize>().is_ok() => o.jobs = s[2..].parse().unwrap(),
                s if s.starts_with('-') => return Err(format!("unknown argument `{s}`")),
                s if suite.is_none() => suite = Some(PathBuf::from(s)),
                s => return Err(format!("one suite directory only (`{s}`)")),
            }
            Ok(())
        })();
        if let Err(m) = r {
            if m.is_empty() {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            return bad(m);
        }
    }
    let Some(suite) = suite else { return bad("no suite directory given".into()) };
    if !suite.is_dir() {
        eprintln!("xmpc-testsuite omni: {}: no such directory (Omni's suites live in ../shared/external beside the checkout)", suite.display());
        return ExitCode::from(2);
    }
    o.suite = suite.clone();
    let name = std::fs::canonicalize(&suite).ok().and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned())).unwrap_or_else(|| "suite".into());
    let snap_path = snap.unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("omni").join(format!("{name}.json")));
    let mut areas = match omni::discover(&suite) {
        Ok(a) => a,
        Err(e) => return bad(e),
    };
    if !o.filter.is_empty() {
        let unknown: Vec<&String> = o.filter.iter().filter(|f| !areas.iter().any(|a| &&a.name == f)).collect();
        if !unknown.is_empty() {
            return bad(format!("no area {unknown:?} in {}", suite.display()));
        }
        areas.retain(|a| o.filter.contains(&a.name));
    }
    if !o.xmpc.is_file() {
        eprintln!("xmpc-testsuite omni: driver not found at {} (build it: cargo build -p xmpc -p xmpc-rt, or set $XMPC)", o.xmpc.display());
        return ExitCode::from(1);
    }
    if std::process::Command::new("make").arg("--version").output().map_or(true, |o| !o.status.success()) {
        eprintln!("xmpc-testsuite omni: `make` not found: the suites are built by their own Makefiles (apt-get install make)");
        return ExitCode::from(1);
    }
    // The snapshot is read first: a broken one stops before an expensive run.
    let old = if no_snap {
        None
    } else {
        match std::fs::read_to_string(&snap_path) {
            Ok(t) => match snapshot::parse(&t) {
                Ok(v) => Some(v),
                Err(e) => {
                    eprintln!("xmpc-testsuite omni: {}: {e}", snap_path.display());
                    return ExitCode::from(1);
                }
            },
            Err(_) if update => Some(Vec::new()),
            Err(e) => {
                eprintln!("xmpc-testsuite omni: no snapshot {}: {e} (create it with --update, or pass --no-snapshot)", snap_path.display());
                return ExitCode::from(1);
            }
        }
    };
    let tmp;
    let work = match &o.keep {
        Some(d) => {
            if let Err(e) = std::fs::create_dir_all(d) {
                return bad(format!("--keep {}: {e}", d.display()));
            }
            std::fs::canonicalize(d).unwrap_or_else(|_| d.clone())
        }
        None => match tempfile::Builder::new().prefix("xmpc-omni-").tempdir() {
            Ok(t) => {
                tmp = t;
                tmp.path().to_path_buf()
            }
            Err(e) => return bad(format!("cannot create a temporary directory: {e}")),
        },
    };
    let nlines: usize = areas.iter().map(|a| a.lines.len()).sum();
    eprintln!("omni: {name}: {} areas, {nlines} run lines, -j {}, xmpc {}, work {}", areas.len(), o.jobs, o.xmpc.display(), work.display());
    let verbose = o.verbose;
    let keep = o.keep.is_some();
    let progress = move |r: &omni::AreaResult| {
        let pass = r.lines.iter().filter(|l| l.class == Class::Pass).count();
        eprintln!("{}: {pass}/{} passed ({:.0}s build, {:.0}s run)", r.area, r.lines.len(), r.build_seconds, r.run_seconds);
        for l in &r.lines {
            if l.class != Class::Pass || verbose {
                let log = if keep { format!("  [{}]", l.log.display()) } else { String::new() };
                eprintln!("  {:<13} {}/{} -n {}: {}{log}", l.class.name(), r.area, l.line.exe, l.line.np, l.reason);
            }
        }
    };
    let t0 = Instant::now();
    let results = match omni::run_all(&areas, &o, &work, &progress) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("xmpc-testsuite omni: {e}");
            return ExitCode::from(1);
        }
    };
    let wall = t0.elapsed().as_secs_f64();
    let now = omni::entries(&results);
    let cmp = old.as_ref().map(|old| snapshot::compare(old, &now));
    print!("{}", omni::table(&results));
    let passed = now.iter().filter(|e| e.class == Class::Pass).count();
    let mut failed_run = false;
    if let Some(c) = &cmp {
        for (k, class) in &c.regressions {
            println!("REGRESSION {k}: passed in the snapshot, now {class}");
        }
        for k in &c.gone {
            println!("gone from the Makefiles: {k}");
        }
        if update {
            let merged = snapshot::merge(old.as_deref().unwrap_or(&[]), &now);
            if let Some(d) = snap_path.parent() {
                let _ = std::fs::create_dir_all(d);
            }
            if let Err(e) = std::fs::write(&snap_path, snapshot::render(&name, &merged)) {
                eprintln!("xmpc-testsuite omni: cannot write {}: {e}", snap_path.display());
                return ExitCode::from(1);
            }
            println!("snapshot {} updated ({} newly passing)", snap_path.display(), c.newly_passing.len());
        } else {
            if !c.newly_passing.is_empty() {
                println!("{} newly passing: run with --update ({})", c.newly_passing.len(), c.newly_passing.join(", "));
            }
            failed_run = !c.regressions.is_empty();
        }
    }
    if let Some(j) = &json {
        let v = omni::summary_json(&name, &o, &results, wall, cmp.as_ref());
        if let Err(e) = std::fs::write(j, serde_json::to_string_pretty(&v).unwrap() + "\n") {
            eprintln!("xmpc-testsuite omni: cannot write {}: {e}", j.display());
            return ExitCode::from(1);
        }
    }
    println!("wall time {wall:.0}s");
    println!("omni: {passed} passed, {} failed{}", now.len() - passed, if failed_run { " (regressions)" } else { "" });
    if failed_run {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
