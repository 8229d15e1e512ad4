//! llvm-mca side by side with the pipe table (docs/psim.md, "llvm-mca"): the program is
//! compiled by the native compiler (`-O2 -g -S`, as the measured blocks are, with
//! `-march` from the machine file), the innermost loop holding a nest's first statement
//! is cut out of the assembly by its `.loc` lines, and llvm-mca gives its cycles per
//! iteration. Only a comparison: the closed forms keep the pipe table's in-core time.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One innermost loop of the assembly: its instructions with their source lines (0:
/// no line of the main file).
#[derive(Clone, Debug, PartialEq)]
pub struct AsmLoop {
    pub insns: Vec<(u32, String)>,
}

impl AsmLoop {
    /// The loop body as llvm-mca reads it (one instruction a line).
    pub fn body(&self) -> String {
        self.insns.iter().map(|(_, i)| format!("\t{i}\n")).collect()
    }

    /// Source iterations one pass of the loop does: the vector width of its packed
    /// double-precision arithmetic or memory moves (1 when scalar). gcc `-O2` does not
    /// unroll, so this is the only factor.
    pub fn lanes(&self) -> f64 {
        let mut lanes: f64 = 1.0;
        for (_, i) in &self.insns {
            let mut w = i.split_whitespace();
            let op = w.next().unwrap_or("");
            let args = w.collect::<Vec<_>>().join(" ");
            let base = op.strip_prefix('v').unwrap_or(op);
            let arith = ["add", "sub", "mul", "div", "sqrt", "max", "min", "fmadd", "fmsub", "fnmadd", "fnmsub"].iter().any(|a| base.starts_with(a));
            let moves = (base.starts_with("movup") || base.starts_with("movap")) && args.contains('(');
            if base.ends_with("pd") && (arith || moves) {
                let w = if args.contains("%zmm") {
                    8.0
                } else if args.contains("%ymm") {
                    4.0
                } else {
                    2.0
                };
                lanes = lanes.max(w);
            }
        }
        lanes
    }
}

fn is_label(t: &str) -> Option<&str> {
    let l = t.strip_suffix(':')?;
    (!l.is_empty() && l.chars().all(|c| c.is_ascii_alphanumeric() || "._$".contains(c))).then_some(l)
}

/// The innermost loops of `asm` (GNU as, AT&T syntax, with `.loc` lines): a backward
/// jump to a label closes a loop; innermost: no other loop inside it. Source lines are
/// those of the file whose name ends with `source` (`.file N "name"`); other files' lines
/// (headers, inlined library code) count as 0.
pub fn loops(asm: &str, source: &str) -> Vec<AsmLoop> {
    let base = Path::new(source).file_name().and_then(|s| s.to_str()).unwrap_or(source);
    let mut main_files: Vec<String> = Vec::new();
    let mut insns: Vec<(u32, String)> = Vec::new();
    let mut labels: Vec<(String, usize)> = Vec::new();
    let mut line = 0u32;
    for raw in asm.lines() {
        let t = raw.trim();
        let t = t.split_once('#').map_or(t, |(a, _)| a.trim_end());
        if t.is_empty() {
            continue;
        }
        if let Some(l) = is_label(t) {
            labels.push((l.to_string(), insns.len()));
            continue;
        }
        if let Some(rest) = t.strip_prefix(".file") {
            // .file N "name"  or  .file N "dir" "name"
            let mut w = rest.split_whitespace();
            if let (Some(n), Some(last)) = (w.next(), rest.split('"').rev().nth(1)) {
                if n.parse::<u32>().is_ok() && Path::new(last).file_name().and_then(|s| s.to_str()) == Some(base) {
                    main_files.push(n.to_string());
                }
            }
            continue;
        }
        if let Some(rest) = t.strip_prefix(".loc") {
            let mut w = rest.split_whitespace();
            let (f, l) = (w.next().unwrap_or(""), w.next().and_then(|l| l.parse().ok()).unwrap_or(0));
            line = if main_files.iter().any(|m| m == f) { l } else { 0 };
            continue;
        }
        if t.starts_with('.') {
            continue; // another directive
        }
        insns.push((line, t.split_whitespace().collect::<Vec<_>>().join(" ")));
    }
    // loops: (start, end) instruction indices, end the backward jump
    let mut ranges: Vec<(usize, usize)> = Vec::new();
    for (k, (_, i)) in insns.iter().enumerate() {
        let mut w = i.split_whitespace();
        let (Some(op), Some(target), None) = (w.next(), w.next(), w.next()) else {
            continue;
        };
        if !op.starts_with('j') {
            continue;
        }
        if let Some((_, at)) = labels.iter().find(|(l, _)| l == target) {
            if *at <= k {
                ranges.push((*at, k));
            }
        }
    }
    let inner = |&(s, e): &(usize, usize)| !ranges.iter().any(|&(s2, e2)| s <= s2 && e2 <= e && (s2, e2) != (s, e));
    ranges.iter().filter(|r| inner(r)).map(|&(s, e)| AsmLoop { insns: insns[s..=e].to_vec() }).collect()
}

/// The innermost loop with the most instructions from source line `line` (the first
/// of them on a tie), if any has one.
pub fn pick(loops: &[AsmLoop], line: u32) -> Option<&AsmLoop> {
    let mut best: Option<(&AsmLoop, usize)> = None;
    for l in loops {
        let n = l.insns.iter().filter(|(x, _)| *x == line).count();
        if n > 0 && best.is_none_or(|(_, b)| n > b) {
            best = Some((l, n));
        }
    }
    best.map(|(l, _)| l)
}

/// Cycles per iteration from llvm-mca's summary (`Iterations:`, `Total Cycles:`).
pub fn parse_summary(out: &str) -> Option<f64> {
    let get = |k: &str| out.lines().find_map(|l| l.trim().strip_prefix(k)).and_then(|v| v.trim().parse::<f64>().ok());
    let (it, cy) = (get("Iterations:")?, get("Total Cycles:")?);
    (it > 0.0).then(|| cy / it)
}

/// llvm-mca: `$XMPC_LLVM_MCA`, else `llvm-mca` or `llvm-mca-N` on the PATH.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("XMPC_LLVM_MCA").filter(|s| !s.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    let names: Vec<String> = std::iter::once("llvm-mca".to_string()).chain((11..=20).rev().map(|v| format!("llvm-mca-{v}"))).collect();
    for n in &names {
        for d in std::env::split_paths(&path) {
            let p = d.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Cycles per iteration of `body` by llvm-mca (`-mcpu=cpu` when given).
pub fn run(mca: &Path, body: &str, cpu: Option<&str>) -> Result<f64, String> {
    let mut c = Command::new(mca);
    if let Some(cpu) = cpu {
        c.arg(format!("-mcpu={cpu}"));
    }
    let mut ch = c
        .arg("-iterations=200")
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {}: {e}", mca.display()))?;
    ch.stdin.take().expect("piped").write_all(body.as_bytes()).map_err(|e| format!("llvm-mca's input: {e}"))?;
    let o = ch.wait_with_output().map_err(|e| format!("llvm-mca: {e}"))?;
    let err = String::from_utf8_lossy(&o.stderr);
    if !o.status.success() {
        return Err(format!("llvm-mca failed: {}", err.lines().next().unwrap_or("")));
    }
    if let Some(l) = err.lines().find(|l| l.contains("not a recognized processor")) {
        return Err(format!("llvm-mca: {}", l.trim()));
    }
    parse_summary(&String::from_utf8_lossy(&o.stdout)).ok_or_else(|| "llvm-mca printed no summary".into())
}

/// The assembly of the program `text` (named `name`: its extension picks the language
/// and its base name is the `.file` the `.loc` lines point at) by `cc` (`-O2 -g -S`,
/// `-march=` when given, then `extra`), compiled in a scratch directory.
pub fn compile(cc: &str, name: &str, text: &str, march: Option<&str>, extra: &[String]) -> Result<String, String> {
    let base = Path::new(name).file_name().ok_or_else(|| format!("{name}: no file name"))?;
    let dir = std::env::temp_dir().join(format!("xmpc-psim-mca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let (src, out) = (dir.join(base), dir.join("block.s"));
    let r = std::fs::write(&src, text).map_err(|e| format!("{}: {e}", src.display())).and_then(|_| {
        let mut c = Command::new(cc);
        c.args(["-O2", "-g", "-S", "-o"]).arg(&out);
        if let Some(a) = march {
            c.arg(format!("-march={a}"));
        }
        c.args(extra).arg(&src).current_dir(&dir).output().map_err(|e| format!("cannot run {cc}: {e}"))
    });
    let asm = std::fs::read_to_string(&out);
    let _ = std::fs::remove_dir_all(&dir);
    let r = r?;
    if !r.status.success() {
        let e = String::from_utf8_lossy(&r.stderr);
        return Err(format!("{cc} -S failed: {}", e.lines().find(|l| l.contains("rror")).unwrap_or(e.lines().next().unwrap_or("")).trim()));
    }
    asm.map_err(|e| format!("{cc} wrote no assembly: {e}"))
}
