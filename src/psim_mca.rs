//! llvm-mca on the native compiler's assembly (docs/psim.md, "llvm-mca"): the program is
//! compiled with `-O2 -g -S` (`-march` from the machine file's `compiler.march`), each
//! nest's innermost loop is found by its first statement's line and timed by llvm-mca.
//! Used two ways: `xmpc psim predict -v` prints its cycles per iteration next to the pipe
//! table's, and with `core.incore = "llvm-mca"` they are the in-core time of the closed
//! forms (`predict`, `sweep`, `--skeletonize --model psim:M.toml`).

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use xmpc_ir::Lang;
use xmpc_psim::mca::{self, AsmLoop};
use xmpc_psim::model::Mca;
use xmpc_psim::{BlockModel, Machine};

/// The program as the native compiler sees it.
pub struct Source<'a> {
    /// Its file name (the extension picks the language, the base name the `.loc` file).
    pub name: &'a str,
    /// The text modelled (after `--blocks`' transform when given).
    pub text: &'a str,
    pub lang: Lang,
    /// `-D` values (`NAME` or `NAME=VALUE`).
    pub defines: &'a [String],
    /// `-I` directories (the source's own directory is added).
    pub includes: &'a [PathBuf],
    /// The file on disk (its directory is searched for includes).
    pub file: &'a Path,
}

pub enum View {
    /// llvm-mca is not installed (or `$XMPC_LLVM_MCA` names no file): said once.
    Missing(String),
    /// It is, but the program did not compile (or similar): said once.
    Failed(String),
    Ready {
        mca: PathBuf,
        loops: Vec<AsmLoop>,
        cpu: Option<String>,
        /// Timings by source line (a sweep or `--blocktimes` models the blocks again).
        cache: RefCell<HashMap<u32, Result<Timed, String>>>,
    },
}

/// One loop timed by llvm-mca.
#[derive(Clone, Copy, Debug)]
pub struct Timed {
    /// Cycles per pass of the assembly loop.
    pub per_pass: f64,
    pub lanes: f64,
    pub insns: usize,
}

/// The blocks already said to fall back to the pipe table (said once per block).
static WARNED: std::sync::Mutex<BTreeSet<u32>> = std::sync::Mutex::new(BTreeSet::new());

impl View {
    pub fn new(s: &Source, m: &Machine) -> View {
        let Some(mca) = mca::find() else {
            return View::Missing("llvm-mca not found (Debian package llvm-14, or set XMPC_LLVM_MCA)".into());
        };
        if !mca.is_file() {
            return View::Missing(format!("llvm-mca not found: XMPC_LLVM_MCA={} is not a file", mca.display()));
        }
        let fortran = s.lang != Lang::C;
        let cc = if fortran { crate::compile::fc() } else { crate::compile::cc() };
        let mut extra: Vec<String> = s.defines.iter().map(|d| format!("-D{d}")).collect();
        for i in s.includes {
            // compiled in a scratch directory: include directories by absolute path
            let i = std::fs::canonicalize(i).unwrap_or_else(|_| i.clone());
            extra.push(format!("-I{}", i.display()));
        }
        if let Some(dir) = s.file.parent().filter(|d| !d.as_os_str().is_empty()) {
            let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            extra.push(format!("-I{}", dir.display()));
        }
        if fortran {
            extra.push("-fallow-argument-mismatch".into());
            extra.push(if s.lang == Lang::FortranFixed { "-ffixed-form" } else { "-ffree-form" }.into());
        }
        match mca::compile(&cc, s.name, s.text, m.compiler.march.as_deref(), &extra) {
            Ok(asm) => View::Ready { mca, loops: mca::loops(&asm, s.name), cpu: m.compiler.march.clone(), cache: RefCell::new(HashMap::new()) },
            Err(e) => View::Failed(e),
        }
    }

    /// The line printed once before the blocks (`-v`).
    pub fn header(&self) -> String {
        match self {
            View::Missing(e) => format!("# {e}: in-core figures from the pipe table only\n"),
            View::Failed(e) => format!("# llvm-mca: no comparison: {e}\n"),
            View::Ready { mca, cpu, .. } => format!(
                "# llvm-mca: {} -mcpu={} on the -O2 assembly; `llvm-mca` cy/it is per source iteration (a pass over the loop / its lanes)\n",
                mca.display(),
                cpu.as_deref().unwrap_or("host")
            ),
        }
    }

    /// llvm-mca's timing of the innermost loop holding source line `line`, or why not.
    pub fn timed(&self, line: u32) -> Result<Timed, String> {
        let (mca, loops, cpu, cache) = match self {
            View::Missing(e) | View::Failed(e) => return Err(e.clone()),
            View::Ready { mca, loops, cpu, cache } => (mca, loops, cpu, cache),
        };
        if let Some(r) = cache.borrow().get(&line) {
            return r.clone();
        }
        let r = (|| {
            let l = mca::pick(loops, line).ok_or_else(|| format!("no innermost loop holds line {line} in the assembly"))?;
            // compilers turn copies into a memcpy call per column (gfortran) or a `rep
            // movsq` (gcc, short constant rows): llvm-mca would time the call or guess the
            // string instruction, not the copy
            if let Some((_, c)) = l.insns.iter().find(|(_, i)| i.starts_with("call") || i.starts_with("rep")) {
                return Err(format!("not comparable: the loop holding line {line} runs `{c}`"));
            }
            let per_pass = mca::run(mca, &l.body(), cpu.as_deref())?;
            Ok(Timed { per_pass, lanes: l.lanes(), insns: l.insns.len() })
        })();
        cache.borrow_mut().insert(line, r.clone());
        r
    }

    /// The comparison line of a nest whose first statement is on `line` and whose
    /// pipe-table in-core time is `psim` cycles per iteration (`-v`).
    pub fn nest(&self, line: u32, psim: f64) -> Option<String> {
        if !matches!(self, View::Ready { .. }) {
            return None;
        }
        Some(match self.timed(line) {
            Ok(t) => format!(
                "    llvm-mca: {:.3} cy/it ({:.3} per pass, {} lanes, {} instructions) | psim in-core {psim:.2} cy/it\n",
                t.per_pass / t.lanes,
                t.per_pass,
                t.lanes,
                t.insns
            ),
            Err(e) => format!("    llvm-mca: {e} | psim in-core {psim:.2} cy/it\n"),
        })
    }

    /// Says on stderr, once per block, which of its loops fell back to the pipe table.
    pub fn warn(name: &str, m: &BlockModel) {
        if m.fallbacks.is_empty() || !WARNED.lock().map(|mut w| w.insert(m.id)).unwrap_or(true) {
            return;
        }
        eprintln!("xmpc: psim: {name}: block {}: llvm-mca cannot time {}: in-core time from the pipe table", m.id, m.fallbacks.join("; "));
    }
}

impl xmpc_psim::InCore for View {
    fn time(&self, line: u32) -> Result<Mca, String> {
        self.timed(line).map(|t| Mca { cycles: t.per_pass / t.lanes, lanes: t.lanes })
    }
}
