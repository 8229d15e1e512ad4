//! What BSIM needs to run every rank in one process:
//! C `main` → `int bsim_main(int argc, char **argv)`, file-scope and `static` local
//! variables `BSIM_RANK_VAR` (lmpi.h: the per-rank section `bsim_rank` that the
//! contexts back end swaps per rank, or `_Thread_local` with
//! -DBSIM_THREAD_LOCAL_VARS); Fortran `program` → `subroutine bsim_main_f`, module
//! variables, COMMON blocks and saved locals of the main program `threadprivate`
//! (Fortran skeletons run as threads).

use super::super::blocks::text;
use xmpc_ir::{Edit, FileUnit, FuncKind, Function, Item, Lang, Span, StmtKind, StorageClass, SymbolTable, Type};

pub fn edits(unit: &FileUnit, src: &str) -> Vec<Edit> {
    if unit.lang == Lang::C {
        c_edits(unit, src)
    } else {
        f_edits(unit, src)
    }
}

fn c_edits(unit: &FileUnit, src: &str) -> Vec<Edit> {
    let mut out = Vec::new();
    let is_var = |t: &SymbolTable, id: usize, want_static: bool| {
        let s = t.get(id);
        let is_fn = matches!(unit.types.get(s.ty), Type::Function { .. });
        let konst = s.attrs.iter().any(|a| a == "const");
        !is_fn
            && !konst
            && if want_static {
                s.sclass == StorageClass::Static
            } else {
                !matches!(s.sclass, StorageClass::Extern | StorageClass::Typedef | StorageClass::Func)
            }
    };
    for it in &unit.items {
        match it {
            Item::Decl(s) => {
                if let StmtKind::Decl(ids) = &s.kind {
                    if !ids.is_empty()
                        && ids.iter().all(|&id| is_var(&unit.globals, id, false))
                        && !src[s.span.range()].contains("_Thread_local")
                        && !src[s.span.range()].contains("BSIM_RANK_VAR")
                    {
                        out.push(Edit::insert(s.span.start, "BSIM_RANK_VAR "));
                    }
                }
            }
            Item::Function(f) => {
                for st in &f.body {
                    st.walk(&mut |x| {
                        if let StmtKind::Decl(ids) = &x.kind {
                            if !ids.is_empty() && ids.iter().all(|&id| is_var(&f.symbols, id, true)) {
                                out.push(Edit::insert(x.span.start, "BSIM_RANK_VAR "));
                            }
                        }
                    });
                }
                if f.name == "main" {
                    out.extend(rename_main(f, src));
                }
            }
            _ => {}
        }
    }
    out
}

/// `main` → `bsim_main`, with `(int argc, char **argv)` when it had no parameters, and
/// an `int` return type.
fn rename_main(f: &Function, src: &str) -> Vec<Edit> {
    let mut out = vec![Edit::replace(f.name_span, "bsim_main")];
    let after = &src[f.name_span.end..];
    // the `)` closing the parameter list comes after its `(` (a stray `)` before it is
    // not a parameter list: `main)void)` made this slice backwards)
    if let Some((o, c)) = after.find('(').and_then(|o| Some((o, o + 1 + after[o + 1..].find(')')?))) {
        let inner = after[o + 1..c].trim();
        if inner.is_empty() || inner == "void" {
            out.push(Edit::replace(Span::new(f.name_span.end + o + 1, f.name_span.end + c), "int argc, char **argv"));
        }
    }
    let head = &src[f.span.start..f.name_span.start];
    if head.trim() == "void" {
        out.push(Edit::replace(Span::new(f.span.start, f.span.start + head.trim_end().len()), "int"));
    }
    out
}

fn f_edits(unit: &FileUnit, src: &str) -> Vec<Edit> {
    let mut out = Vec::new();
    for it in &unit.items {
        match it {
            Item::Function(f) if f.kind == FuncKind::Program => {
                // `program name` line → `subroutine bsim_main_f`; the `end` line likewise.
                let first_end = text::next_line(src, f.span.start);
                let head = src[f.span.start..first_end].trim_end();
                let has_program = head.trim_start().get(..7).is_some_and(|w| w.eq_ignore_ascii_case("program"));
                if has_program {
                    out.push(Edit::replace(Span::new(f.span.start, f.span.start + head.len()), "subroutine bsim_main_f"));
                } else {
                    // a main program without a `program` statement (it may be just `end`)
                    out.push(Edit::insert(f.span.start, "subroutine bsim_main_f\n"));
                }
                let last_start = text::line_start(src, f.span.end.saturating_sub(1));
                let tail = src[last_start..f.span.end].trim_end();
                let lead = tail.len() - tail.trim_start().len();
                if tail.trim_start().to_ascii_lowercase().starts_with("end") {
                    out.push(Edit::replace(Span::new(last_start + lead, last_start + tail.len()), "end subroutine bsim_main_f"));
                }
                unit_threadprivate(&mut out, unit, src, f);
            }
            // COMMON blocks and saved variables of every other unit are per rank too
            Item::Function(f) => unit_threadprivate(&mut out, unit, src, f),
            Item::Module(m) => {
                let names = saved(unit, &m.symbols, true);
                let decl_end = m.decls.iter().filter(|s| matches!(s.kind, StmtKind::Decl(_))).map(|s| s.span.end).max();
                push_threadprivate(&mut out, src, unit.lang, decl_end, &names);
                for f in &m.contains {
                    unit_threadprivate(&mut out, unit, src, f);
                }
            }
            _ => {}
        }
    }
    out
}

/// `threadprivate` for a program unit's COMMON blocks and saved variables, after
/// its specification part (declarations, COMMON, `include` lines).
fn unit_threadprivate(out: &mut Vec<Edit>, unit: &FileUnit, src: &str, f: &Function) {
    let names = saved(unit, &f.symbols, false);
    let spec = |s: &xmpc_ir::Stmt| {
        matches!(s.kind, StmtKind::Decl(_))
            || (matches!(s.kind, StmtKind::Verbatim) && {
                let t = src[s.span.range()].trim_start().to_ascii_lowercase();
                crate::blocks::spec_stmt(&t) && !t.starts_with("data") && !t.starts_with("format") && !t.starts_with("entry")
            })
    };
    let decl_end = f.body.iter().take_while(|s| spec(s) || matches!(s.kind, StmtKind::Nop | StmtKind::Pragma(_))).filter(|s| spec(s)).map(|s| s.span.end).max();
    push_threadprivate(out, src, unit.lang, decl_end, &names);
}

/// Variables that live across calls: module variables (all), saved or initialised
/// locals, COMMON blocks (as `/name/`). Parameters are constants and stay shared.
fn saved(unit: &FileUnit, t: &SymbolTable, module: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in &t.symbols {
        if s.attrs.iter().any(|a| a == "parameter") || matches!(unit.types.get(s.ty), Type::Function { .. }) || s.sclass == StorageClass::Func {
            continue;
        }
        if s.sclass == StorageClass::Common {
            if let Some(b) = s.attrs.iter().find_map(|a| a.strip_prefix("common /").and_then(|r| r.strip_suffix('/'))) {
                let n = format!("/{b}/");
                if !out.contains(&n) && !b.is_empty() {
                    out.push(n);
                }
            }
            continue;
        }
        if module || s.init.is_some() || s.attrs.iter().any(|a| a == "save") {
            out.push(s.name.clone());
        }
    }
    out
}

fn push_threadprivate(out: &mut Vec<Edit>, src: &str, lang: Lang, decl_end: Option<usize>, names: &[String]) {
    let (Some(end), false) = (decl_end, names.is_empty()) else { return };
    let at = text::next_line(src, end.saturating_sub(1));
    let sentinel = if lang == Lang::FortranFixed { "!$omp " } else { "  !$omp " };
    // One directive per name keeps fixed-form lines short.
    let mut t = String::new();
    if !src[..at].ends_with('\n') {
        t.push('\n');
    }
    for n in names {
        t.push_str(&format!("{sentinel}threadprivate({n})\n"));
    }
    out.push(Edit::insert(at, t));
}
