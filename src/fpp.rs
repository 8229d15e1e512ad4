//! The Fortran preprocessor, run before translation (docs/fortran.md, "Preprocessing").
//!
//! Omni's `xmpf90` runs the C preprocessor on `.F90`/`.F` sources (and on any source with
//! `-cpp`) before it translates, so `!$xmp` lines inside `#ifdef` branches are selected
//! by `-D`/`-U`, macros in directives are expanded and `#include`d files' directives are
//! translated. xmpc does the same with the Fortran compiler's own preprocessor
//! (`$XMPC_FC -cpp -E`, traditional mode as gfortran uses it: `!` lines, `//` and blanks
//! stay as written, so fixed-form columns are kept). Its `# N "file"` line markers are
//! taken out of the text the front end parses and kept as a line map, through which
//! every diagnostic is reported at the original file:line:col.

use std::path::{Path, PathBuf};
use std::process::Command;

use codespan_reporting::files::SimpleFiles;
use xmpc_ir::{Diag, FileId, Lang};

/// Whether the preprocessor runs on this source: an upper-case extension or `-cpp`
/// among the native flags (xmpf90's `-cpp`), and something for it to do (a line
/// starting with `#`, or a `-D` on the command line).
pub fn wanted(path: &Path, lang: Lang, cpp_flag: bool, has_defs: bool, text: &str) -> bool {
    if !lang.is_fortran() {
        return false;
    }
    let upper = path.extension().and_then(|e| e.to_str()).is_some_and(|e| matches!(e, "F" | "F90" | "F95" | "F03" | "F08" | "FOR" | "F77" | "FPP"));
    (upper || cpp_flag) && (has_defs || text.lines().any(|l| l.trim_start().starts_with('#')))
}

/// The preprocessed text and where each of its lines came from.
pub struct Pre {
    /// The text without line markers.
    pub text: String,
    /// For each line of `text`: (index into `files`, 1-based line there).
    lines: Vec<(usize, usize)>,
    /// File names as the markers give them.
    files: Vec<String>,
}

/// Preprocessor options.
pub struct Opts<'a> {
    pub defines: &'a [String],
    pub undefines: &'a [String],
    pub includes: &'a [PathBuf],
}

/// Runs `$XMPC_FC -cpp -E` on `path`.
pub fn run(path: &Path, lang: Lang, o: &Opts) -> Result<Pre, String> {
    let fc = crate::compile::fc();
    let mut cmd = Command::new(&fc);
    cmd.arg("-cpp").arg("-E").arg("-D_XMP").arg("-D_XCALABLEMP");
    for d in o.defines {
        cmd.arg(format!("-D{d}"));
    }
    for u in o.undefines {
        cmd.arg(format!("-U{u}"));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        cmd.arg(format!("-I{}", dir.display()));
    }
    for i in o.includes {
        cmd.arg(format!("-I{}", i.display()));
    }
    // `#include "xmp_lib.h"`, as the native compile finds it
    cmd.arg(format!("-I{}", crate::compile::include_dir().display()));
    cmd.arg("-x").arg(if lang == Lang::FortranFixed { "f77-cpp-input" } else { "f95-cpp-input" });
    cmd.arg(path);
    let out = cmd.output().map_err(|e| format!("cannot run the Fortran preprocessor `{fc} -cpp -E`: {e} (set XMPC_FC to your MPI Fortran compiler)"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("the Fortran preprocessor (`{fc} -cpp -E`) failed on {}:\n{}", path.display(), err.trim_end()));
    }
    Ok(split(&crate::source::decode(&out.stdout), &path.display().to_string()))
}

/// Splits preprocessor output into text and line map. Lines before any marker belong to
/// `main` from line 1.
pub fn split(out: &str, main: &str) -> Pre {
    let mut pre = Pre { text: String::with_capacity(out.len()), lines: Vec::new(), files: vec![main.to_string()] };
    let (mut file, mut line) = (0usize, 1usize);
    for l in out.split_inclusive('\n') {
        if let Some((n, name)) = marker(l) {
            file = pre.files.iter().position(|f| *f == name).unwrap_or_else(|| {
                pre.files.push(name);
                pre.files.len() - 1
            });
            line = n;
            continue;
        }
        pre.text.push_str(l);
        pre.lines.push((file, line));
        line += 1;
    }
    pre
}

/// `# 12 "file" 1 3` → (12, "file").
fn marker(l: &str) -> Option<(usize, String)> {
    let rest = l.strip_prefix("# ")?;
    let (n, rest) = rest.split_once(' ')?;
    let n: usize = n.parse().ok()?;
    let rest = rest.trim_end().strip_prefix('"')?;
    let end = rest.rfind('"')?;
    let name = &rest[..end];
    // Names are written with C escapes (`\\`, `\"`).
    Some((n, name.replace("\\\\", "\\").replace("\\\"", "\"")))
}

impl Pre {
    /// Where a line (1-based) of the preprocessed text came from: file name and line.
    pub fn origin(&self, line: usize) -> Option<(&str, usize)> {
        let &(f, l) = self.lines.get(line.checked_sub(1)?)?;
        Some((&self.files[f], l))
    }
}

/// Moves diagnostics from the preprocessed text (file `pp` in `files`) to the original
/// files, which are added to `files` as they are first needed. A label whose original
/// cannot be read (`<command-line>`) stays on the preprocessed text.
pub struct Mapper<'p> {
    pre: &'p Pre,
    pp: FileId,
    pp_text: String,
    starts: Vec<usize>,
    ids: Vec<Option<Option<(FileId, String)>>>,
}

impl<'p> Mapper<'p> {
    pub fn new(pre: &'p Pre, pp: FileId) -> Self {
        let starts = std::iter::once(0).chain(pre.text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Mapper { pre, pp, pp_text: pre.text.clone(), starts, ids: vec![None; pre.files.len()] }
    }

    fn original(&mut self, f: usize, files: &mut SimpleFiles<String, String>) -> Option<(FileId, String)> {
        if self.ids[f].is_none() {
            let name = &self.pre.files[f];
            let got = crate::source::read(Path::new(name)).ok().map(|t| (files.add(name.clone(), t.clone()), t));
            self.ids[f] = Some(got);
        }
        self.ids[f].clone().flatten()
    }

    /// (pp line index, column byte) of an offset.
    fn at(&self, off: usize) -> (usize, usize) {
        let k = self.starts.partition_point(|&s| s <= off).saturating_sub(1);
        (k, off - self.starts[k])
    }

    /// Byte offset in `text` of `line` (1-based), `col` bytes in, clamped to the line.
    fn offset(text: &str, line: usize, col: usize) -> usize {
        let start = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>().min(text.len());
        let len = text[start..].find('\n').unwrap_or(text.len() - start);
        let mut o = start + col.min(len);
        while !text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }

    pub fn map(&mut self, diags: &mut [Diag], files: &mut SimpleFiles<String, String>) {
        for d in diags {
            for lab in &mut d.labels {
                if lab.file_id != self.pp || lab.range.start > self.pp_text.len() {
                    continue;
                }
                let (k, col) = self.at(lab.range.start);
                let (ek, ecol) = self.at(lab.range.end.min(self.pp_text.len()).max(lab.range.start));
                let (f, line) = self.pre.lines.get(k).copied().unwrap_or((0, 1));
                let Some((id, text)) = self.original(f, files) else {
                    continue;
                };
                let start = Self::offset(&text, line, col);
                let end = match self.pre.lines.get(ek).copied() {
                    Some((ef, eline)) if ef == f && eline >= line => Self::offset(&text, eline, ecol),
                    _ => Self::offset(&text, line, usize::MAX),
                };
                lab.file_id = id;
                lab.range = start..end.max(start);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_give_the_line_map() {
        let out =
            "# 1 \"t.F90\"\n# 1 \"<built-in>\"\n# 1 \"<command-line>\"\n# 1 \"t.F90\"\nprogram t\n\n!$xmp a\n# 1 \"a.h\" 1\n!$xmp b\n# 5 \"t.F90\" 2\nend\n";
        let p = split(out, "t.F90");
        assert_eq!(p.text, "program t\n\n!$xmp a\n!$xmp b\nend\n");
        assert_eq!(p.origin(1), Some(("t.F90", 1)));
        assert_eq!(p.origin(3), Some(("t.F90", 3)));
        assert_eq!(p.origin(4), Some(("a.h", 1)));
        assert_eq!(p.origin(5), Some(("t.F90", 5)));
        assert_eq!(p.origin(6), None);
    }

    #[test]
    fn only_upper_case_or_cpp_with_work_to_do() {
        let p = Path::new;
        assert!(wanted(p("a.F90"), Lang::FortranFree, false, false, "#ifdef X\n"));
        assert!(wanted(p("a.F"), Lang::FortranFixed, false, false, "  # define X\n"));
        assert!(!wanted(p("a.F90"), Lang::FortranFree, false, false, "x = 1\n"));
        assert!(wanted(p("a.F90"), Lang::FortranFree, false, true, "x = 1\n"));
        assert!(!wanted(p("a.f90"), Lang::FortranFree, false, true, "#ifdef X\n"));
        assert!(wanted(p("a.f90"), Lang::FortranFree, true, false, "#ifdef X\n"));
        assert!(!wanted(p("a.c"), Lang::C, true, true, "#ifdef X\n"));
    }
}
