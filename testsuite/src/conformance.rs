//! Conformance runner for the self-checking XMP C programs in `testsuite/xmp/C`.
//!
//! Each program declares its process counts in a header comment:
//!
//! ```text
//! // xmpc-test: np=1,2,4
//! /* xmpc-test: np=2 expect-fail="xmpc runtime error;4;2" */
//! ```
//!
//! The runner compiles every program once with the `xmpc` driver
//! (`xmpc prog.c -o prog`), runs it with `mpiexec -n N` for each declared `N`
//! (bounded by `--np-max`) under a wall-clock limit that kills the whole process
//! group, and passes a run only when
//! - the exit status is 0, `PASS` is printed exactly once (a line that is exactly
//!   `PASS`) and no line starts with `ERROR`; or, for an `expect-fail` program,
//! - the exit status is non-zero and standard error contains every `;`-separated
//!   piece of the expected text.
//!
//! Programs are grouped into directive families by file-name prefix (see
//! [`family_of`]); the report is a table of pass counts per family and the line
//! `conformance: N passed, M failed` (counting runs: one per program and process
//! count; a program that fails to compile counts one failure per declared count).

use std::collections::{BTreeMap, VecDeque};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Directory holding the C conformance programs.
pub fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("xmp").join("C")
}

/// One conformance program and what its header declares.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub path: PathBuf,
    /// File stem (`reflect_periodic_1d`).
    pub name: String,
    pub family: &'static str,
    /// Declared process counts, ascending.
    pub nps: Vec<u32>,
    /// `expect-fail="a;b"`: the run must fail and stderr must contain each piece.
    pub expect_fail: Option<Vec<String>>,
}

/// Family names, longest prefixes first (`loop_red` before `loop`, `tasks` before `task`).
const FAMILIES: &[(&str, &str)] = &[
    ("loop_red_", "loop-reduction"),
    ("local_", "local-view"),
    ("loop_", "loop"),
    ("nodes_", "nodes"),
    ("template_", "template"),
    ("dist_", "distribute"),
    ("align_", "align"),
    ("shadow_", "shadow"),
    ("reflect_", "reflect"),
    ("reduction_", "reduction"),
    ("bcast_", "bcast"),
    ("barrier_", "barrier"),
    ("tasks_", "task"),
    ("task_", "task"),
    ("gmove_", "gmove"),
    ("array_", "array"),
    ("inquiry_", "inquiry"),
    ("lib_", "library"),
    ("neg_", "negative"),
    ("xacc_", "xacc"),
];

/// The program `--fast` (and `cargo test`) runs for each family: a basic one.
pub const FAST: &[&str] = &[
    "nodes_star",
    "template_square",
    "dist_block_1d",
    "align_offset",
    "shadow_reflect_1d",
    "reflect_2d_block",
    "loop_1d_partial",
    "loop_red_sum",
    "reduction_ops",
    "bcast_from",
    "barrier_on",
    "task_range",
    "gmove_block_cyclic",
    "array_1d",
    "inquiry_nodes",
    "neg_nodes_size",
    "xacc_laplace_a1",
];

/// The directive family of a program, from its file name.
pub fn family_of(name: &str) -> &'static str {
    FAMILIES.iter().find(|(p, _)| name.starts_with(p)).map(|(_, f)| *f).unwrap_or("other")
}

/// Parses the `xmpc-test:` header (searched in the first 40 lines).
pub fn parse_header(text: &str) -> Result<(Vec<u32>, Option<Vec<String>>), String> {
    let line = text
        .lines()
        .take(40)
        .find_map(|l| l.find("xmpc-test:").map(|k| &l[k + "xmpc-test:".len()..]))
        .ok_or_else(|| "no `xmpc-test:` header in the first 40 lines".to_string())?;
    let mut nps = Vec::new();
    let mut expect = None;
    let mut rest = line.trim().trim_end_matches("*/").trim();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("np=") {
            let end = r.find(char::is_whitespace).unwrap_or(r.len());
            for n in r[..end].split(',').filter(|s| !s.is_empty()) {
                let n: u32 = n.trim().parse().map_err(|_| format!("bad process count `{n}`"))?;
                if !(1..=64).contains(&n) {
                    return Err(format!("process count {n} out of range 1..=64"));
                }
                nps.push(n);
            }
            rest = r[end..].trim_start();
        } else if let Some(r) = rest.strip_prefix("expect-fail=\"") {
            let end = r.find('"').ok_or("unterminated expect-fail string")?;
            expect = Some(r[..end].split(';').map(|s| s.to_string()).filter(|s| !s.is_empty()).collect());
            rest = r[end + 1..].trim_start();
        } else {
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            return Err(format!("unknown header item `{}`", &rest[..end]));
        }
    }
    if nps.is_empty() {
        return Err("header declares no `np=`".into());
    }
    nps.sort_unstable();
    nps.dedup();
    Ok((nps, expect))
}

/// Every `*.c` program under `dir`, sorted by name.
pub fn discover(dir: &Path) -> Result<Vec<Program>, String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "c")).collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let (nps, expect_fail) = parse_header(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        out.push(Program { family: family_of(&name), path, name, nps, expect_fail });
    }
    Ok(out)
}

/// Runner settings.
#[derive(Clone, Debug)]
pub struct Options {
    pub dir: PathBuf,
    pub filter: Vec<String>,
    pub np_max: u32,
    pub jobs: usize,
    pub xmpc: PathBuf,
    pub mpiexec: String,
    pub work: PathBuf,
    pub timeout: Duration,
    /// Extra flags for `xmpc` (e.g. `-O2`).
    pub xmpc_flags: Vec<String>,
    /// One program per family at its smallest process count.
    pub fast: bool,
    pub verbose: bool,
    /// Environment variables for the `mpiexec` runs (not for the compile).
    pub run_env: Vec<(String, String)>,
}

impl Options {
    /// Defaults: programs from [`programs_dir`], `xmpc` from `$XMPC` or next to the
    /// running executable (`target/<profile>/xmpc`, also one level up for test
    /// binaries in `deps/`), `mpiexec` from `$MPIEXEC`, work files under
    /// `target/<profile>/conformance`.
    pub fn defaults() -> Options {
        let exe_dir = std::env::current_exe().ok().and_then(|p| p.parent().map(Path::to_path_buf));
        let profile_dir = exe_dir
            .clone()
            .map(|d| if d.file_name().is_some_and(|n| n == "deps") { d.parent().unwrap().to_path_buf() } else { d })
            .unwrap_or_else(|| PathBuf::from("."));
        let xmpc = std::env::var_os("XMPC").map(PathBuf::from).unwrap_or_else(|| profile_dir.join("xmpc"));
        Options {
            dir: programs_dir(),
            filter: Vec::new(),
            np_max: 8,
            jobs: 1,
            xmpc,
            mpiexec: std::env::var("MPIEXEC").unwrap_or_else(|_| "mpiexec".into()),
            work: profile_dir.join("conformance"),
            timeout: Duration::from_secs(60),
            xmpc_flags: std::env::var("XMPC_FLAGS").map(|s| s.split_whitespace().map(String::from).collect()).unwrap_or_default(),
            fast: false,
            verbose: false,
            run_env: Vec::new(),
        }
    }
}

/// Outcome of one (program, process count) run.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub program: String,
    pub family: &'static str,
    pub np: u32,
    pub passed: bool,
    /// Why it failed (or a short note), with output excerpts.
    pub detail: String,
    pub seconds: f64,
}

/// The programs selected by `opts` (filter, np bound, fast subset), each with the
/// process counts it will run at.
pub fn select(programs: &[Program], opts: &Options) -> Vec<(Program, Vec<u32>)> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for p in programs {
        if !opts.filter.is_empty() && !opts.filter.iter().any(|f| p.name.contains(f.as_str()) || p.family == f) {
            continue;
        }
        let mut nps: Vec<u32> = p.nps.iter().copied().filter(|&n| n <= opts.np_max).collect();
        if nps.is_empty() {
            continue;
        }
        if opts.fast {
            let family_has_pick = programs.iter().any(|q| q.family == p.family && FAST.contains(&q.name.as_str()));
            let pick = if family_has_pick { FAST.contains(&p.name.as_str()) } else { !seen.contains(p.family) };
            if !pick || !seen.insert(p.family) {
                continue;
            }
            // the smallest count that communicates (>= 2) when declared
            let n = nps.iter().copied().find(|&n| n >= 2).unwrap_or(nps[0]);
            nps = vec![n];
        }
        out.push((p.clone(), nps));
    }
    out
}

fn tail(s: &str, n: usize) -> String {
    let lines: Vec<&str> = s.lines().collect();
    let start = lines.len().saturating_sub(n);
    lines[start..].join("\n")
}

/// Runs `cmd` with stdout/stderr sent to files, in its own process group, killing
/// the group after `timeout`. Returns (exit code or None on timeout/signal, stdout, stderr, timed out).
fn run_limited(mut cmd: Command, out_base: &Path, timeout: Duration) -> std::io::Result<(Option<i32>, String, String, bool)> {
    let out_path = PathBuf::from(format!("{}.stdout", out_base.display()));
    let err_path = PathBuf::from(format!("{}.stderr", out_base.display()));
    cmd.stdout(std::fs::File::create(&out_path)?).stderr(std::fs::File::create(&err_path)?);
    let (status, timed_out) = wait_limited(cmd, timeout)?;
    let so = std::fs::read_to_string(&out_path).unwrap_or_default();
    let se = std::fs::read_to_string(&err_path).unwrap_or_default();
    Ok((status.and_then(|s| s.code()), so, se, timed_out))
}

/// Spawns `cmd` with stdin from /dev/null in its own process group and waits for it,
/// killing the whole group after `timeout` (and reaping the group's orphans, e.g. a
/// hydra proxy, after a clean exit). Returns (exit status or None on timeout, timed out).
pub(crate) fn wait_limited(mut cmd: Command, timeout: Duration) -> std::io::Result<(Option<std::process::ExitStatus>, bool)> {
    use std::os::unix::process::CommandExt;
    cmd.stdin(Stdio::null()).process_group(0);
    let mut child = cmd.spawn()?;
    let pid = child.id();
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break Some(st);
        }
        if start.elapsed() >= timeout {
            timed_out = true;
            kill_group(pid);
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if !timed_out {
        kill_group(pid);
    }
    Ok((status, timed_out))
}

/// SIGKILL to the process group led by `pid` (a child started with `process_group(0)`).
fn kill_group(pid: u32) {
    extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    let Ok(p) = i32::try_from(pid) else { return };
    if p > 1 {
        // SAFETY: plain syscall wrapper; a negative pid names exactly that group.
        unsafe {
            kill(-p, 9);
        }
    }
}

pub(crate) fn is_open_mpi(mpiexec: &str) -> bool {
    Command::new(mpiexec)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains("Open MPI") || String::from_utf8_lossy(&o.stdout).contains("OpenRTE"))
        .unwrap_or(false)
}

/// Compiles and runs one program at each of `nps`.
pub fn run_program(p: &Program, nps: &[u32], opts: &Options, open_mpi: bool) -> Vec<RunResult> {
    let exe = opts.work.join(&p.name);
    let t0 = Instant::now();
    let mut cc = Command::new(&opts.xmpc);
    cc.arg(&p.path).arg("-o").arg(&exe).args(&opts.xmpc_flags);
    let _ = std::fs::remove_file(&exe);
    let compiled = run_limited(cc, &opts.work.join(format!("{}.xmpc", p.name)), Duration::from_secs(120));
    let compile_err = match compiled {
        Err(e) => Some(format!("cannot run {}: {e}", opts.xmpc.display())),
        Ok((Some(0), _, _, _)) if exe.is_file() => None,
        Ok((code, so, se, to)) => {
            Some(format!("compile failed ({}):\n{}", if to { "timeout".to_string() } else { format!("status {code:?}") }, tail(&format!("{so}{se}"), 15)))
        }
    };
    if let Some(msg) = compile_err {
        let secs = t0.elapsed().as_secs_f64();
        return nps.iter().map(|&np| RunResult { program: p.name.clone(), family: p.family, np, passed: false, detail: msg.clone(), seconds: secs }).collect();
    }
    let mut results = Vec::new();
    for &np in nps {
        let t1 = Instant::now();
        let mut cmd = Command::new(&opts.mpiexec);
        if open_mpi {
            cmd.arg("--oversubscribe");
        }
        cmd.arg("-n").arg(np.to_string()).arg(&exe);
        cmd.envs(opts.run_env.iter().map(|(k, v)| (k, v)));
        let r = run_limited(cmd, &opts.work.join(format!("{}.np{np}", p.name)), opts.timeout);
        let (passed, detail) = match r {
            Err(e) => (false, format!("cannot run {}: {e}", opts.mpiexec)),
            Ok((code, so, se, to)) => judge(p, code, &so, &se, to, opts.timeout),
        };
        results.push(RunResult { program: p.name.clone(), family: p.family, np, passed, detail, seconds: t1.elapsed().as_secs_f64() });
    }
    results
}

/// Pass/fail of one run from its exit status and output.
pub fn judge(p: &Program, code: Option<i32>, so: &str, se: &str, timed_out: bool, timeout: Duration) -> (bool, String) {
    if timed_out {
        return (false, format!("timeout after {}s\n{}", timeout.as_secs(), tail(&format!("{so}{se}"), 10)));
    }
    let passes = so.lines().filter(|l| l.trim() == "PASS").count();
    let errors: Vec<&str> = so.lines().chain(se.lines()).filter(|l| l.trim_start().starts_with("ERROR")).collect();
    match &p.expect_fail {
        Some(pieces) => {
            let missing: Vec<&String> = pieces.iter().filter(|s| !se.contains(s.as_str())).collect();
            if code == Some(0) {
                (false, format!("expected a failure, got status 0\n{}", tail(&format!("{so}{se}"), 10)))
            } else if !missing.is_empty() {
                (false, format!("status {code:?} but stderr lacks {missing:?}\n{}", tail(se, 10)))
            } else {
                (true, format!("failed as expected (status {code:?})"))
            }
        }
        None => {
            if code != Some(0) {
                (false, format!("status {code:?}\n{}", tail(&format!("{so}{se}"), 12)))
            } else if !errors.is_empty() {
                (false, format!("status 0 but ERROR printed:\n{}", errors.iter().take(5).cloned().collect::<Vec<_>>().join("\n")))
            } else if passes != 1 {
                (false, format!("PASS printed {passes} times (want 1)\n{}", tail(so, 10)))
            } else {
                (true, String::new())
            }
        }
    }
}

/// Runs the selection with `opts.jobs` workers; calls `progress` after each program.
pub fn run_all(sel: &[(Program, Vec<u32>)], opts: &Options, progress: &(dyn Fn(&[RunResult]) + Sync)) -> Vec<RunResult> {
    let _ = std::fs::create_dir_all(&opts.work);
    let open_mpi = is_open_mpi(&opts.mpiexec);
    // per program, in selection order once sorted
    type Done = Vec<(usize, Vec<RunResult>)>;
    let queue: Mutex<VecDeque<usize>> = Mutex::new((0..sel.len()).collect());
    let results: Mutex<Done> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..opts.jobs.max(1) {
            let (queue, results) = (&queue, &results);
            s.spawn(move || loop {
                let Some(k) = queue.lock().unwrap().pop_front() else { break };
                let (p, nps) = &sel[k];
                let r = run_program(p, nps, opts, open_mpi);
                progress(&r);
                results.lock().unwrap().push((k, r));
            });
        }
    });
    let mut v = results.into_inner().unwrap();
    v.sort_by_key(|(k, _)| *k);
    v.into_iter().flat_map(|(_, r)| r).collect()
}

/// The per-family table and the total line.
pub fn report(results: &[RunResult]) -> String {
    #[derive(Default)]
    struct Row {
        programs: std::collections::BTreeSet<String>,
        nps: std::collections::BTreeSet<u32>,
        passed: usize,
        failed: usize,
    }
    let mut rows: BTreeMap<&str, Row> = BTreeMap::new();
    for r in results {
        let row = rows.entry(r.family).or_default();
        row.programs.insert(r.program.clone());
        row.nps.insert(r.np);
        if r.passed {
            row.passed += 1
        } else {
            row.failed += 1
        }
    }
    let mut s = String::new();
    let _ = writeln!(s, "{:<16} {:>8} {:>6} {:>7} {:>7}  np", "family", "programs", "runs", "passed", "failed");
    let (mut tp, mut tr, mut tpass, mut tfail) = (0, 0, 0, 0);
    for (fam, row) in &rows {
        let nps: Vec<String> = row.nps.iter().map(|n| n.to_string()).collect();
        let _ = writeln!(s, "{:<16} {:>8} {:>6} {:>7} {:>7}  {}", fam, row.programs.len(), row.passed + row.failed, row.passed, row.failed, nps.join(","));
        tp += row.programs.len();
        tr += row.passed + row.failed;
        tpass += row.passed;
        tfail += row.failed;
    }
    let _ = writeln!(s, "{:<16} {:>8} {:>6} {:>7} {:>7}", "total", tp, tr, tpass, tfail);
    let _ = writeln!(s, "conformance: {tpass} passed, {tfail} failed");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_forms() {
        assert_eq!(parse_header("/* x\n * xmpc-test: np=4\n */").unwrap(), (vec![4], None));
        assert_eq!(parse_header("// xmpc-test: np=4,1,2").unwrap(), (vec![1, 2, 4], None));
        let (n, e) = parse_header("// xmpc-test: np=2 expect-fail=\"xmpc runtime error;4;2\"").unwrap();
        assert_eq!(n, vec![2]);
        assert_eq!(e.unwrap(), vec!["xmpc runtime error", "4", "2"]);
        assert!(parse_header("// xmpc-test: nq=2").is_err());
        assert!(parse_header("int main;").is_err());
        assert!(parse_header("/* xmpc-test: np=2 */").is_ok());
    }

    #[test]
    fn families() {
        assert_eq!(family_of("loop_red_sum"), "loop-reduction");
        assert_eq!(family_of("loop_2d_partial"), "loop");
        assert_eq!(family_of("tasks_parallel"), "task");
        assert_eq!(family_of("reflect_periodic_1d"), "reflect");
        assert_eq!(family_of("zzz"), "other");
    }

    #[test]
    fn judging() {
        let p = Program { path: "x.c".into(), name: "x".into(), family: "nodes", nps: vec![1], expect_fail: None };
        let t = Duration::from_secs(1);
        assert!(judge(&p, Some(0), "PASS\n", "", false, t).0);
        assert!(!judge(&p, Some(0), "PASS\nPASS\n", "", false, t).0);
        assert!(!judge(&p, Some(0), "", "", false, t).0);
        assert!(!judge(&p, Some(1), "PASS\n", "", false, t).0);
        assert!(!judge(&p, Some(0), "PASS\nERROR line 3\n", "", false, t).0);
        let n = Program { expect_fail: Some(vec!["xmpc runtime error".into()]), ..p };
        assert!(judge(&n, Some(1), "", "[rank 0] xmpc runtime error: x.c:3: nodes: 4 != 2", false, t).0);
        assert!(!judge(&n, Some(0), "", "", false, t).0);
        assert!(!judge(&n, Some(1), "", "segfault", false, t).0);
    }

    #[test]
    fn every_program_has_a_valid_header() {
        let progs = discover(&programs_dir()).unwrap();
        assert!(progs.len() >= 80, "{} programs", progs.len());
        for p in &progs {
            assert!(p.nps.iter().all(|&n| (1..=8).contains(&n)), "{}", p.name);
            assert_ne!(p.family, "other", "{} has no family", p.name);
        }
    }
}
