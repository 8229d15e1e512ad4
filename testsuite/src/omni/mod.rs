//! External conformance runner for Omni XcalableMP's own test suites (in the spirit of
//! oxc's and ruff's conformance runners): `xmpc-testsuite omni ../shared/external/omni-xmp-c`.
//!
//! Each area (`<suite>/<area>/C/Makefile`) is copied to a work directory and built
//! there exactly as its Makefile asks: `make XCC=.../xmpcc prog.x` for every program of
//! its `run:` target, with a `PATH` where `xmpcc` and `xmpf90` are xmpc's drop-in
//! commands (so `$(shell xmpf90 --show-env)` answers `ONESIDED_LIB="MPI3"`, and
//! `util/`'s `xmpcc --show-env` gives the MPI compiler and link flags). Every `run:`
//! line (`$(XRUN) -n N ./prog.x`) then runs as `mpiexec -n N ./prog.x` (stdin from
//! /dev/null, its own process group, killed at the timeout) and is classified
//! ([`classify`]). The per-line classes are compared with a committed snapshot
//! ([`snapshot`]): a line that passed there and does not now fails the run.

pub mod classify;
mod discover;
pub mod makefile;
pub mod snapshot;

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use classify::Class;
pub use discover::discover;
use makefile::RunLine;

/// One directory of a suite (`align`), its Makefile's directory and its run lines.
#[derive(Clone, Debug)]
pub struct Area {
    pub name: String,
    /// `<suite>/<area>/C` or `<suite>/<area>/F`
    pub dir: PathBuf,
    pub lines: Vec<RunLine>,
    /// Environment of every run line (`XMP_ONESIDED_HEAP_SIZE=70M` in the local-view
    /// Fortran suite, whose Makefile.common sets it).
    pub env: Vec<(String, String)>,
    /// Files the Makefile includes from its parent directory (`../Makefile.common`),
    /// copied beside the area's work directory.
    pub parent_files: Vec<PathBuf>,
}

impl Area {
    /// Rough cost, to start the longest areas first.
    fn cost(&self) -> u32 {
        self.lines.iter().map(|l| 4 + l.np).sum()
    }
}

/// Runner settings.
#[derive(Clone, Debug)]
pub struct Options {
    pub suite: PathBuf,
    /// Areas to run (all when empty).
    pub filter: Vec<String>,
    /// Areas built and run at once.
    pub jobs: usize,
    /// Limit per run line.
    pub timeout: Duration,
    /// Limit per `make` of one program.
    pub build_timeout: Duration,
    pub xmpc: PathBuf,
    pub mpiexec: String,
    /// Keep the work directories (copied sources, build logs, run outputs) here.
    pub keep: Option<PathBuf>,
    pub verbose: bool,
}

/// Outcome of one run line.
#[derive(Clone, Debug)]
pub struct LineResult {
    pub area: String,
    pub line: RunLine,
    pub class: Class,
    /// Why it failed (one line), empty for a pass.
    pub reason: String,
    /// Run time (0 when it was not built).
    pub seconds: f64,
    /// The build log (not built) or the run's output, under the work directory.
    pub log: PathBuf,
}

/// Outcome of one area.
#[derive(Clone, Debug)]
pub struct AreaResult {
    pub area: String,
    pub lines: Vec<LineResult>,
    pub build_seconds: f64,
    pub run_seconds: f64,
}

/// The drop-in commands the Makefiles call: `xmpcc`/`xmpf90` beside `xmpc` when it has
/// them, else small shims (an xmpc built before the drop-ins existed) that answer
/// `--show-env` and pass everything else to `xmpc`.
fn make_bin_dir(opts: &Options, work: &Path) -> Result<PathBuf, String> {
    let bin = work.join("bin");
    std::fs::create_dir_all(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let xmpc = std::fs::canonicalize(&opts.xmpc).map_err(|e| format!("{}: {e}", opts.xmpc.display()))?;
    let beside = xmpc.parent().unwrap_or(Path::new("."));
    let home = Path::new(env!("CARGO_MANIFEST_DIR")).join("../runtime/lib/xmp");
    let home = std::fs::canonicalize(&home).unwrap_or(home);
    for name in ["xmpcc", "xmpf90"] {
        let dest = bin.join(name);
        let _ = std::fs::remove_file(&dest);
        let dropin = beside.join(name);
        if dropin.is_file() {
            std::os::unix::fs::symlink(&dropin, &dest).map_err(|e| format!("{}: {e}", dest.display()))?;
            continue;
        }
        let script = format!(
            "#!/bin/sh\n# xmpc-testsuite shim: {name} for an xmpc without the drop-in commands\n\
             if [ \"$1\" = --show-env ]; then\n\
             echo 'OMNI_HOME=\"{home}\"'\n\
             echo 'OMNI_MPICC_CMD=\"mpicc\"'\n\
             echo 'OMNI_LINKER_OPT=\"-L{rt} -lxmpc_rt -lgcc_s -lutil -lrt -lpthread -lm -ldl\"'\n\
             echo 'ONESIDED_LIB=\"MPI3\"'\n\
             exit 0\nfi\nexec '{xmpc}' \"$@\"\n",
            home = home.display(),
            rt = beside.display(),
            xmpc = xmpc.display()
        );
        std::fs::write(&dest, script).map_err(|e| format!("{}: {e}", dest.display()))?;
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o755)).map_err(|e| format!("{}: {e}", dest.display()))?;
    }
    Ok(bin)
}

/// Copies a directory tree (the suite is read-only: copies are made writable).
fn copy_dir(src: &Path, dst: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dst)?;
    for ent in std::fs::read_dir(src)? {
        let ent = ent?;
        let to = dst.join(ent.file_name());
        if ent.file_type()?.is_dir() {
            copy_dir(&ent.path(), &to)?;
        } else {
            std::fs::copy(ent.path(), &to)?;
            let mut perm = std::fs::metadata(&to)?.permissions();
            #[allow(clippy::permissions_set_readonly_false)]
            perm.set_readonly(false);
            std::fs::set_permissions(&to, perm)?;
        }
    }
    Ok(())
}

/// Runs `cmd` with its output (stdout and stderr together) in `log`; (status code,
/// output, timed out).
fn run_logged(mut cmd: Command, log: &Path, timeout: Duration) -> std::io::Result<(Option<i32>, String, bool)> {
    let f = std::fs::File::create(log)?;
    cmd.stdout(f.try_clone()?).stderr(f);
    let (st, to) = crate::conformance::wait_limited(cmd, timeout)?;
    let out = String::from_utf8_lossy(&std::fs::read(log).unwrap_or_default()).into_owned();
    Ok((st.and_then(|s| s.code()), out, to))
}

/// Builds and runs one area in `work/<area>`.
pub fn run_area(area: &Area, opts: &Options, work: &Path, bin: &Path, open_mpi: bool) -> AreaResult {
    let dir = work.join(&area.name);
    let _ = std::fs::remove_dir_all(&dir);
    let t0 = Instant::now();
    let fail_all = |why: String| AreaResult {
        area: area.name.clone(),
        lines: area
            .lines
            .iter()
            .map(|l| LineResult { area: area.name.clone(), line: l.clone(), class: Class::CompileFail, reason: why.clone(), seconds: 0.0, log: dir.clone() })
            .collect(),
        build_seconds: 0.0,
        run_seconds: 0.0,
    };
    if let Err(e) = copy_dir(&area.dir, &dir) {
        return fail_all(format!("cannot copy {}: {e}", area.dir.display()));
    }
    for f in &area.parent_files {
        let to = dir.parent().unwrap_or(work).join(f.file_name().unwrap_or_default());
        if let Err(e) = std::fs::copy(f, &to) {
            return fail_all(format!("cannot copy {}: {e}", f.display()));
        }
    }
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    // Build every program the run lines name, one `make` each (its own log).
    let mut built: BTreeMap<String, Result<(), (Class, String)>> = BTreeMap::new();
    for l in &area.lines {
        if built.contains_key(&l.exe) {
            continue;
        }
        let mut mk = Command::new("make");
        mk.current_dir(&dir)
            .arg(format!("XCC={}", bin.join("xmpcc").display()))
            .arg(format!("XFC={}", bin.join("xmpf90").display()))
            .arg(format!("XRUN={}", opts.mpiexec))
            .arg(&l.exe)
            .env("PATH", &path)
            .env("LC_ALL", "C")
            .env_remove("MAKEFLAGS")
            .env_remove("MFLAGS")
            .env_remove("MAKELEVEL");
        let log = dir.join(format!("{}.build.log", l.exe));
        let r = match run_logged(mk, &log, opts.build_timeout) {
            Err(e) => Err((Class::CompileFail, format!("cannot run make: {e}"))),
            Ok((_, out, true)) => {
                Err((Class::CompileFail, format!("build timed out after {}s: {}", opts.build_timeout.as_secs(), classify::build_reason(&out))))
            }
            Ok((Some(0), _, false)) if dir.join(&l.exe).is_file() => Ok(()),
            Ok((_, out, false)) => Err((classify::classify_build(&out), classify::build_reason(&out))),
        };
        built.insert(l.exe.clone(), r);
    }
    let build_seconds = t0.elapsed().as_secs_f64();
    let mut lines = Vec::new();
    for l in &area.lines {
        let t1 = Instant::now();
        let (class, reason, log) = match &built[&l.exe] {
            Err((c, why)) => (*c, why.clone(), dir.join(format!("{}.build.log", l.exe))),
            Ok(()) => {
                let mut cmd = Command::new(&opts.mpiexec);
                cmd.current_dir(&dir).env("LC_ALL", "C").envs(area.env.iter().map(|(k, v)| (k, v)));
                if open_mpi {
                    cmd.arg("--oversubscribe");
                }
                cmd.arg("-n").arg(l.np.to_string()).arg(format!("./{}", l.exe));
                let log = dir.join(format!("{}.n{}.out", l.exe, l.np));
                match run_logged(cmd, &log, opts.timeout) {
                    Err(e) => (Class::Abort, format!("cannot run {}: {e}", opts.mpiexec), log),
                    Ok((code, out, to)) => {
                        let c = classify::classify_run(code, &out, to);
                        let why = if to { format!("killed after {}s", opts.timeout.as_secs()) } else { classify::run_reason(c, &out) };
                        (c, why, log)
                    }
                }
            }
        };
        lines.push(LineResult { area: area.name.clone(), line: l.clone(), class, reason, seconds: t1.elapsed().as_secs_f64(), log });
    }
    AreaResult { area: area.name.clone(), lines, build_seconds, run_seconds: t0.elapsed().as_secs_f64() - build_seconds }
}

/// Runs the selected areas with `opts.jobs` workers (longest first) in `work`; calls
/// `progress` after each area. Results in area-name order.
pub fn run_all(areas: &[Area], opts: &Options, work: &Path, progress: &(dyn Fn(&AreaResult) + Sync)) -> Result<Vec<AreaResult>, String> {
    let bin = make_bin_dir(opts, work)?;
    let open_mpi = crate::conformance::is_open_mpi(&opts.mpiexec);
    let mut order: Vec<usize> = (0..areas.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(areas[k].cost()));
    let queue = Arc::new(Mutex::new(order.into_iter().collect::<VecDeque<usize>>()));
    let results: Arc<Mutex<Vec<AreaResult>>> = Arc::new(Mutex::new(Vec::new()));
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1) {
            let (queue, results, bin) = (queue.clone(), results.clone(), bin.clone());
            s.spawn(move || loop {
                let Some(k) = queue.lock().unwrap().pop_front() else { break };
                let r = run_area(&areas[k], opts, work, &bin, open_mpi);
                progress(&r);
                // Without --keep an area's build (every program statically linked with
                // the runtime) goes as soon as it is reported: the whole suite's builds
                // at once took the disk a CI machine had left (No space left on device).
                if opts.keep.is_none() {
                    let _ = std::fs::remove_dir_all(work.join(&areas[k].name));
                }
                results.lock().unwrap().push(r);
            });
        }
    });
    let mut v = Arc::try_unwrap(results).unwrap().into_inner().unwrap();
    v.sort_by(|a, b| a.area.cmp(&b.area));
    Ok(v)
}

/// Short column headers, in [`Class::ALL`] order.
const HEADERS: [&str; 9] = ["pass", "refused", "cc-fail", "ld-fail", "xmpc-ice", "wrong", "abort", "crash", "timeout"];

/// The per-area table (lines per class) and the total.
pub fn table(results: &[AreaResult]) -> String {
    let mut s = String::new();
    let _ = write!(s, "{:<16} {:>5}", "area", "lines");
    for h in HEADERS {
        let _ = write!(s, " {h:>8}");
    }
    let _ = writeln!(s, " {:>8}", "time(s)");
    let mut total = [0usize; 9];
    let (mut tl, mut tt) = (0, 0.0);
    for r in results {
        let mut n = [0usize; 9];
        for l in &r.lines {
            n[Class::ALL.iter().position(|c| *c == l.class).unwrap()] += 1;
        }
        let secs = r.build_seconds + r.run_seconds;
        let _ = write!(s, "{:<16} {:>5}", r.area, r.lines.len());
        for (k, c) in n.iter().enumerate() {
            total[k] += c;
            let _ = write!(s, " {:>8}", if *c == 0 { ".".to_string() } else { c.to_string() });
        }
        let _ = writeln!(s, " {secs:>8.0}");
        tl += r.lines.len();
        tt += secs;
    }
    let _ = write!(s, "{:<16} {:>5}", "total", tl);
    for c in total {
        let _ = write!(s, " {c:>8}");
    }
    let _ = writeln!(s, " {tt:>8.0}");
    s
}

/// The results as snapshot entries.
pub fn entries(results: &[AreaResult]) -> Vec<snapshot::Entry> {
    results.iter().flat_map(|r| &r.lines).map(|l| snapshot::Entry { area: l.area.clone(), exe: l.line.exe.clone(), np: l.line.np, class: l.class }).collect()
}

/// The JSON summary (`--json FILE`).
pub fn summary_json(suite: &str, opts: &Options, results: &[AreaResult], wall: f64, cmp: Option<&snapshot::Comparison>) -> serde_json::Value {
    use serde_json::json;
    let count = |ls: &mut dyn Iterator<Item = &LineResult>| {
        let mut m = serde_json::Map::new();
        for c in Class::ALL {
            m.insert(c.name().into(), json!(0));
        }
        for l in ls {
            let e = m.get_mut(l.class.name()).unwrap();
            *e = json!(e.as_u64().unwrap() + 1);
        }
        serde_json::Value::Object(m)
    };
    let all: Vec<&LineResult> = results.iter().flat_map(|r| &r.lines).collect();
    let passed = all.iter().filter(|l| l.class == Class::Pass).count();
    json!({
        "suite": suite,
        "dir": opts.suite.display().to_string(),
        "xmpc": opts.xmpc.display().to_string(),
        "wall_seconds": (wall * 10.0).round() / 10.0,
        "jobs": opts.jobs,
        "timeout_seconds": opts.timeout.as_secs(),
        "passed": passed,
        "failed": all.len() - passed,
        "classes": count(&mut all.iter().copied()),
        "areas": results.iter().map(|r| json!({
            "area": r.area,
            "lines": r.lines.len(),
            "build_seconds": (r.build_seconds * 10.0).round() / 10.0,
            "run_seconds": (r.run_seconds * 10.0).round() / 10.0,
            "classes": count(&mut r.lines.iter()),
        })).collect::<Vec<_>>(),
        "lines": all.iter().map(|l| json!({
            "area": l.area,
            "exe": l.line.exe,
            "np": l.line.np,
            "makefile_line": l.line.line,
            "class": l.class.name(),
            "reason": l.reason,
            "seconds": (l.seconds * 10.0).round() / 10.0,
            "log": opts.keep.as_ref().map(|_| l.log.display().to_string()),
        })).collect::<Vec<_>>(),
        "regressions": cmp.map(|c| c.regressions.iter().map(|(k, c)| json!({"line": k, "class": c.name()})).collect::<Vec<_>>()),
        "newly_passing": cmp.map(|c| c.newly_passing.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lr(area: &str, exe: &str, class: Class) -> LineResult {
        LineResult {
            area: area.into(),
            line: RunLine { line: 3, np: 2, exe: exe.into(), text: format!("$(XRUN) -n 2 ./{exe}") },
            class,
            reason: String::new(),
            seconds: 0.5,
            log: PathBuf::new(),
        }
    }

    #[test]
    fn table_counts_per_class() {
        let rs = vec![
            AreaResult {
                area: "align".into(),
                lines: vec![lr("align", "a.x", Class::Pass), lr("align", "b.x", Class::Refused)],
                build_seconds: 1.0,
                run_seconds: 2.0,
            },
            AreaResult { area: "bcast".into(), lines: vec![lr("bcast", "c.x", Class::WrongAnswer)], build_seconds: 1.0, run_seconds: 1.0 },
        ];
        let t = table(&rs);
        let rows: Vec<Vec<&str>> = t.lines().map(|l| l.split_whitespace().collect()).collect();
        assert_eq!(rows[0][..4], ["area", "lines", "pass", "refused"]);
        assert_eq!(rows[1], ["align", "2", "1", "1", ".", ".", ".", ".", ".", ".", ".", "3"]);
        assert_eq!(rows[2], ["bcast", "1", ".", ".", ".", ".", ".", "1", ".", ".", ".", "2"]);
        assert_eq!(rows[3], ["total", "3", "1", "1", "0", "0", "0", "1", "0", "0", "0", "5"]);
        let o = Options {
            suite: "s".into(),
            filter: vec![],
            jobs: 1,
            timeout: Duration::from_secs(1),
            build_timeout: Duration::from_secs(1),
            xmpc: "x".into(),
            mpiexec: "mpiexec".into(),
            keep: None,
            verbose: false,
        };
        let j = summary_json("omni-xmp-c", &o, &rs, 5.0, None);
        assert_eq!(j["passed"], 1);
        assert_eq!(j["failed"], 2);
        assert_eq!(j["classes"]["wrong-answer"], 1);
        assert_eq!(j["areas"][0]["classes"]["refused"], 1);
        assert_eq!(j["lines"][2]["exe"], "c.x");
    }

    /// The suites, when this checkout has them beside it (`../shared/external`, or
    /// `$XMPC_EXTERNAL`): every
    /// Makefile parses and the run lines are the ones the suites' READMEs count.
    #[test]
    fn suites_parse_when_present() {
        let ext = std::env::var_os("XMPC_EXTERNAL").map(PathBuf::from).unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/external"));
        for (name, want) in [("omni-xmp-c", 145), ("omni-xmp-c-local", 27), ("omni-xmp-f", 131), ("omni-xmp-f-local", 158), ("omni-xacc", 47)] {
            let dir = ext.join(name);
            if !dir.is_dir() {
                eprintln!("{}: not here, not checked", dir.display());
                continue;
            }
            let areas = discover(&dir).unwrap();
            assert_eq!(areas.iter().map(|a| a.lines.len()).sum::<usize>(), want, "{name}");
        }
    }
}
