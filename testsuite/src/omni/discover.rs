//! Where a suite's test cases are. Three layouts, as Omni's `tests/` tree has them:
//! - global view and C local view: `<suite>/<area>/C/Makefile` or `<suite>/<area>/F/Makefile`
//!   with a `run:` target of `$(XRUN) -n N ./prog.x` lines (area `<area>`);
//! - XcalableACC: `<suite>/<group>/<area>/Makefile` (`C-Round/shadow-reflect`), the same
//!   `run:` lines with `$(XRUN_ENV)` after the count (empty outside Omni's PBS set-up);
//!   Makefiles whose `run:` target is commented out have no cases;
//! - Fortran local view: `<suite>/coarray/F/Makefile` lists its directories in `DIRS=`;
//!   each directory's Makefile names its programs in `OUT` and their image count in `NPE`
//!   and includes `../Makefile.common`, which runs every program as
//!   `XMP_ONESIDED_HEAP_SIZE=70M mpirun -np NPE ./prog.x`. `make` itself expands the two
//!   variables (the Makefiles use `+=` and `ifneq`), exactly as Omni's `make run` does.

use std::path::{Path, PathBuf};
use std::process::Command;

use super::makefile::{self, RunLine};
use super::Area;

/// Every area of `suite`, sorted by name.
pub fn discover(suite: &Path) -> Result<Vec<Area>, String> {
    let mut areas = Vec::new();
    for ent in read_dir_sorted(suite)? {
        if !ent.is_dir() {
            continue;
        }
        let name = file_name(&ent);
        if let Some(dir) = ["C", "F"].iter().map(|l| ent.join(l)).find(|d| d.join("Makefile").is_file()) {
            let text = read(&dir.join("Makefile"))?;
            if let Some(dirs) = variable(&text, "DIRS") {
                for d in dirs.split_whitespace() {
                    areas.push(local_view_area(&dir, d)?);
                }
                continue;
            }
            // `omni-xacc/F/` has a Makefile with no cases next to `shadow-reflect/`
            if !(has_run_target(&text) || sub_makefiles(&dir)?.is_empty()) {
                areas.extend(grouped(&ent, &name)?);
                continue;
            }
            let lines = makefile::run_lines(&text).map_err(|e| format!("{}: {e}", dir.join("Makefile").display()))?;
            areas.push(Area { name, dir, lines, env: vec![], parent_files: vec![] });
            continue;
        }
        areas.extend(grouped(&ent, &name)?);
    }
    if areas.is_empty() {
        return Err(format!("{}: no <area>/C/Makefile, <area>/F/Makefile or <group>/<area>/Makefile found (is this an Omni test suite?)", suite.display()));
    }
    areas.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(areas)
}

/// The areas `<group>/<area>/Makefile` under `group` that have a `run:` target.
fn grouped(group: &Path, gname: &str) -> Result<Vec<Area>, String> {
    let mut out = Vec::new();
    for dir in sub_makefiles(group)? {
        let mk = dir.join("Makefile");
        let text = read(&mk)?;
        if !has_run_target(&text) {
            continue;
        }
        let lines = makefile::run_lines(&text).map_err(|e| format!("{}: {e}", mk.display()))?;
        out.push(Area { name: format!("{gname}/{}", file_name(&dir)), dir, lines, env: vec![], parent_files: vec![] });
    }
    Ok(out)
}

/// Subdirectories of `dir` holding a Makefile.
fn sub_makefiles(dir: &Path) -> Result<Vec<PathBuf>, String> {
    Ok(read_dir_sorted(dir)?.into_iter().filter(|p| p.join("Makefile").is_file()).collect())
}

/// One directory of the Fortran local-view suite: its `OUT` programs at `NPE` images.
fn local_view_area(parent: &Path, d: &str) -> Result<Area, String> {
    let dir = parent.join(d);
    let mk = dir.join("Makefile");
    if !mk.is_file() {
        return Err(format!("{}: `DIRS` names {d}, which has no Makefile", parent.join("Makefile").display()));
    }
    // make evaluates both variables as Omni's `make run` would (no PBS, MPI-3 one-sided)
    let o = Command::new("make")
        .args(["-s", "--no-print-directory", "-C"])
        .arg(&dir)
        .args(["ONESIDED_LAYER=MPI3", "EXEC_FC=mpif90", "--eval", "xmpc_cases: ; @echo $(NPE) : $(OUT)", "xmpc_cases"])
        .env_remove("MAKEFLAGS")
        .env_remove("MAKELEVEL")
        .output()
        .map_err(|e| format!("cannot run make: {e}"))?;
    let text = String::from_utf8_lossy(&o.stdout);
    let bad = |why: &str| format!("{}: {why} (`make` printed `{}`{})", mk.display(), text.trim(), String::from_utf8_lossy(&o.stderr).trim());
    if !o.status.success() {
        return Err(bad("cannot read NPE and OUT"));
    }
    let (npe, out) = text.trim().split_once(':').ok_or_else(|| bad("cannot read NPE and OUT"))?;
    let np: u32 = npe.trim().parse().map_err(|_| bad("NPE is not a process count"))?;
    if np == 0 {
        return Err(bad("NPE is 0"));
    }
    let lines = out
        .split_whitespace()
        .map(|exe| RunLine { line: 0, np, exe: exe.to_string(), text: format!("XMP_ONESIDED_HEAP_SIZE=70M mpirun -np {np} ./{exe}") })
        .collect::<Vec<_>>();
    if lines.iter().any(|l| l.exe.contains('/') || !l.exe.ends_with(".x")) {
        return Err(bad("OUT names something other than ./NAME.x"));
    }
    let common = parent.join("Makefile.common");
    Ok(Area {
        name: d.to_string(),
        dir,
        lines,
        env: vec![("XMP_ONESIDED_HEAP_SIZE".into(), "70M".into())],
        parent_files: if common.is_file() { vec![common] } else { vec![] },
    })
}

/// The value of `NAME=...` / `NAME = ...` at column 0 (first definition).
fn variable(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let r = l.strip_prefix(name)?.trim_start();
        let v = r.strip_prefix('=')?;
        Some(v.trim().to_string())
    })
}

fn has_run_target(text: &str) -> bool {
    text.lines().any(|l| l.strip_prefix("run").is_some_and(|r| r.trim_start().starts_with(':') && !r.trim_start().starts_with(":=")))
}

fn read(p: &Path) -> Result<String, String> {
    std::fs::read_to_string(p).map_err(|e| format!("{}: {e}", p.display()))
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    v.sort();
    Ok(v)
}

fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variables_at_column_zero() {
        assert_eq!(variable("X=1\nDIRS=LIB GET  PUT\n", "DIRS").as_deref(), Some("LIB GET  PUT"));
        assert_eq!(variable("DIRS = A\n", "DIRS").as_deref(), Some("A"));
        assert_eq!(variable("DIRS_SUBMIT=A\n", "DIRS"), None);
        assert!(has_run_target("all:\nrun: $(EXES)\n"));
        assert!(!has_run_target("#run: $(EXES)\nrun := 1\n"));
    }

    /// A miniature local-view tree: `make` expands `+=` and the NPE count.
    #[test]
    fn local_view_layout_is_read_through_make() {
        let t = tempfile::tempdir().unwrap();
        let f = t.path().join("coarray/F");
        std::fs::create_dir_all(f.join("LIB")).unwrap();
        std::fs::write(f.join("Makefile"), "DIRS=LIB\nrun:\n\tfor d in $(DIRS); do $(MAKE) -C $$d run; done\n").unwrap();
        std::fs::write(f.join("Makefile.common"), "%.result: %.x\n\tmpirun -np $(NPE) ./$<\n").unwrap();
        std::fs::write(f.join("LIB/Makefile"), "NPE=3\nOUT_a = a.x #b.x\nOUT_a += c.x\nOUT=$(OUT_a)\ninclude ../Makefile.common\n").unwrap();
        let a = discover(t.path()).unwrap();
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].name, "LIB");
        let got: Vec<(u32, &str)> = a[0].lines.iter().map(|l| (l.np, l.exe.as_str())).collect();
        assert_eq!(got, vec![(3, "a.x"), (3, "c.x")]);
        assert_eq!(a[0].env, vec![("XMP_ONESIDED_HEAP_SIZE".to_string(), "70M".to_string())]);
        assert_eq!(a[0].parent_files, vec![f.join("Makefile.common")]);
    }

    /// XACC's grouped layout: `<group>/<area>/Makefile`, `$(XRUN_ENV)` in the lines, a
    /// group Makefile whose `run:` is commented out.
    #[test]
    fn grouped_layout() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join("F/shadow-reflect")).unwrap();
        std::fs::create_dir_all(t.path().join("C-Round/gmove")).unwrap();
        std::fs::write(t.path().join("F/Makefile"), "#run: $(EXES)\n#\t$(XRUN) -n 4 ./a.x\n").unwrap();
        std::fs::write(t.path().join("F/shadow-reflect/Makefile"), "run: $(EXES)\n\t$(XRUN) -n 2 $(XRUN_ENV) ./r.x\n").unwrap();
        std::fs::write(t.path().join("C-Round/gmove/Makefile"), "run:\n\t$(XRUN) -n 4 $(XRUN_ENV) ./g.x\n").unwrap();
        let a = discover(t.path()).unwrap();
        let got: Vec<(&str, u32, &str)> = a.iter().flat_map(|a| a.lines.iter().map(move |l| (a.name.as_str(), l.np, l.exe.as_str()))).collect();
        assert_eq!(got, vec![("C-Round/gmove", 4, "g.x"), ("F/shadow-reflect", 2, "r.x")]);
    }
}
