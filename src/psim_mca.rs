//! `xmpc psim predict -v`: llvm-mca's cycles per iteration next to PSIM's in-core
//! figure for each loop nest (docs/psim.md, "llvm-mca side by side"). The program is
//! compiled by the native compiler with `-O2 -g -S` (`-march` from the machine file's
//! `compiler.march`), each nest's innermost loop is found by its first statement's line.

use std::path::PathBuf;

use xmpc_ir::Lang;
use xmpc_psim::mca::{self, AsmLoop};
use xmpc_psim::Machine;

use crate::psim_cmd::Prepared;

pub enum View {
    /// llvm-mca is not installed: said once, the pipe table alone.
    Missing,
    /// It is, but the program did not compile (or similar): said once.
    Failed(String),
    Ready {
        mca: PathBuf,
        loops: Vec<AsmLoop>,
        cpu: Option<String>,
    },
}

impl View {
    pub fn new(p: &Prepared, m: &Machine) -> View {
        let Some(mca) = mca::find() else {
            return View::Missing;
        };
        let fortran = p.unit.lang != Lang::C;
        let cc = if fortran {
            crate::compile::fc()
        } else {
            crate::compile::cc()
        };
        let mut extra: Vec<String> = p.args.define.iter().map(|d| format!("-D{d}")).collect();
        if let Some(dir) = p.args.file.parent().filter(|d| !d.as_os_str().is_empty()) {
            extra.push(format!("-I{}", dir.display()));
        }
        if fortran {
            extra.push("-fallow-argument-mismatch".into());
            extra.push(
                if p.unit.lang == Lang::FortranFixed {
                    "-ffixed-form"
                } else {
                    "-ffree-form"
                }
                .into(),
            );
        }
        match mca::compile(&cc, &p.name, &p.text, m.compiler.march.as_deref(), &extra) {
            Ok(asm) => View::Ready {
                mca,
                loops: mca::loops(&asm, &p.name),
                cpu: m.compiler.march.clone(),
            },
            Err(e) => View::Failed(e),
        }
    }

    /// The line printed once before the blocks.
    pub fn header(&self) -> String {
        match self {
            View::Missing => "# llvm-mca not found (Debian package llvm-14, or set XMPC_LLVM_MCA): in-core figures from the pipe table only\n".into(),
            View::Failed(e) => format!("# llvm-mca: no comparison: {e}\n"),
            View::Ready { mca, cpu, .. } => format!("# llvm-mca: {} -mcpu={} on the -O2 assembly; `llvm-mca` cy/it is per source iteration (a pass over the loop / its lanes)\n", mca.display(), cpu.as_deref().unwrap_or("host")),
        }
    }

    /// The comparison line of a nest whose first statement is on `line` and whose
    /// in-core time is `psim` cycles per iteration.
    pub fn nest(&self, line: u32, psim: f64) -> Option<String> {
        let View::Ready { mca, loops, cpu } = self else {
            return None;
        };
        let Some(l) = mca::pick(loops, line) else {
            return Some(format!("    llvm-mca: no innermost loop holds line {line} in the assembly | psim in-core {psim:.2} cy/it\n"));
        };
        // compilers turn copies into a memcpy call per column (gfortran) or a `rep movsq`
        // (gcc, short constant rows): llvm-mca would time the call or guess the string
        // instruction, not the copy
        if let Some((_, c)) = l.insns.iter().find(|(_, i)| i.starts_with("call") || i.starts_with("rep")) {
            return Some(format!("    llvm-mca: not comparable: the loop holding line {line} runs `{c}` | psim in-core {psim:.2} cy/it\n"));
        }
        Some(match mca::run(mca, &l.body(), cpu.as_deref()) {
            Ok(c) => format!("    llvm-mca: {:.2} cy/it ({c:.2} per pass, {} lanes, {} instructions) | psim in-core {psim:.2} cy/it\n", c / l.lanes(), l.lanes(), l.insns.len()),
            Err(e) => format!("    llvm-mca: {e} | psim in-core {psim:.2} cy/it\n"),
        })
    }
}
