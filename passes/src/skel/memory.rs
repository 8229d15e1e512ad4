//! The memory cut: arrays the skeleton no longer uses are deleted; arrays it uses only
//! as message buffers (LMPI moves no payload) shrink to one element per dimension.
//! Dummy arguments, COMMON/module/extern data, initialised and dynamic arrays are left
//! alone.

use super::rename;
use crate::blocks::{text, walk, Block, BlockKind};
use xmpc_ir::{Edit, FileUnit, Function, Item, Lang, Span, Stmt, StmtKind, StorageClass, Symbol, SymbolTable, Type};

struct Cand<'a> {
    sym: &'a Symbol,
    decl: Span,
    /// Where uses count: the function, or the whole file for C globals.
    scope: Span,
    /// The dimension texts to replace with `1`, or None when they cannot be shrunk alone.
    dims: Option<Vec<Span>>,
}

/// What the cut did: its edits, one report line per array, and the arrays it
/// removed or shrank (name, the scope their uses were counted in).
pub struct Cut {
    pub edits: Vec<Edit>,
    pub report: Vec<String>,
    pub arrays: Vec<(String, Span)>,
}

pub fn cut(unit: &FileUnit, src: &str, blocks: &[Block], replaced: &[Span]) -> Cut {
    let lang = unit.lang;
    let mut cands: Vec<Cand> = Vec::new();
    for it in &unit.items {
        match it {
            Item::Decl(s) if lang == Lang::C => collect(unit, src, &unit.globals, s, Span::new(0, src.len()), &[], &mut cands),
            Item::Function(f) => func_cands(unit, src, f, &mut cands),
            Item::Module(m) => m.contains.iter().for_each(|f| func_cands(unit, src, f, &mut cands)),
            _ => {}
        }
    }
    // Message-buffer arguments of MPI calls that stay in the skeleton.
    let mut buffers: Vec<Span> = Vec::new();
    for f in unit.functions() {
        for s in &f.body {
            for c in walk::calls(s) {
                if walk::is_mpi(c.name, lang) {
                    for &i in walk::buffer_args(c.name) {
                        if let Some(a) = c.args.get(i) {
                            buffers.push(a.span);
                        }
                    }
                }
            }
        }
    }
    let _ = blocks.iter().filter(|b| b.kind == BlockKind::Compute).count();
    let toks = rename::tokens(src, lang);
    let in_any = |v: &[Span], at: usize| v.iter().any(|s| s.start <= at && at < s.end);
    let same = |a: &str, b: &str| if lang == Lang::C { a == b } else { a.eq_ignore_ascii_case(b) };
    let mut verdict: Vec<(usize, bool)> = Vec::new(); // (cand, deletable)
    for (k, c) in cands.iter().enumerate() {
        let mut real = false;
        let mut buf = false;
        for (sp, t) in &toks {
            if !same(t, &c.sym.name)
                || sp.start < c.scope.start
                || sp.start >= c.scope.end
                || in_any(replaced, sp.start)
                || (c.decl.start <= sp.start && sp.start < c.decl.end)
            {
                continue;
            }
            if in_any(&buffers, sp.start) {
                buf = true;
            } else {
                real = true;
            }
        }
        if !real {
            verdict.push((k, !buf));
        }
    }
    let mut edits = Vec::new();
    let mut report = Vec::new();
    let mut arrays = Vec::new();
    // Whole declarations whose every symbol goes are commented out; others shrink.
    let mut done_decls: Vec<Span> = Vec::new();
    for &(k, _) in &verdict {
        let c = &cands[k];
        if done_decls.contains(&c.decl) {
            continue;
        }
        let all: Vec<&(usize, bool)> = verdict.iter().filter(|(j, _)| cands[*j].decl == c.decl).collect();
        let total = cands.iter().filter(|x| x.decl == c.decl).count();
        let decl_syms = decl_symbol_count(unit, c.decl);
        if all.iter().all(|(_, del)| *del) && all.len() == total && total == decl_syms {
            if let Some(e) = comment_decl(src, lang, c.decl) {
                edits.push(e);
                done_decls.push(c.decl);
                for (j, _) in &all {
                    arrays.push((cands[*j].sym.name.clone(), cands[*j].scope));
                    report.push(format!("removed array `{}` (line {}): not used by the skeleton", cands[*j].sym.name, line(src, cands[*j].decl.start)));
                }
                continue;
            }
        }
    }
    for &(k, del) in &verdict {
        let c = &cands[k];
        if done_decls.contains(&c.decl) {
            continue;
        }
        let Some(dims) = &c.dims else { continue };
        for d in dims {
            edits.push(Edit::replace(*d, "1"));
        }
        arrays.push((c.sym.name.clone(), c.scope));
        let why = if del { "not used by the skeleton" } else { "used only as a message buffer" };
        report.push(format!("shrank array `{}` (line {}) to one element: {why}", c.sym.name, line(src, c.decl.start)));
    }
    Cut { edits, report, arrays }
}

fn line(src: &str, at: usize) -> usize {
    src[..at].matches('\n').count() + 1
}

fn func_cands<'a>(unit: &'a FileUnit, src: &str, f: &'a Function, out: &mut Vec<Cand<'a>>) {
    for s in &f.body {
        s.walk(&mut |st| collect(unit, src, &f.symbols, st, f.span, &f.params, out));
    }
}

fn decl_symbol_count(unit: &FileUnit, decl: Span) -> usize {
    let mut n = 0;
    let mut visit = |s: &Stmt| {
        if s.span == decl {
            if let StmtKind::Decl(ids) = &s.kind {
                n = ids.len();
            }
        }
    };
    for it in &unit.items {
        match it {
            Item::Decl(s) => visit(s),
            Item::Function(f) => f.body.iter().for_each(|s| s.walk(&mut |x| visit(x))),
            Item::Module(m) => m.contains.iter().for_each(|f| f.body.iter().for_each(|s| s.walk(&mut |x| visit(x)))),
            _ => {}
        }
    }
    n
}

fn collect<'a>(unit: &'a FileUnit, src: &str, table: &'a SymbolTable, s: &Stmt, scope: Span, params: &[usize], out: &mut Vec<Cand<'a>>) {
    let StmtKind::Decl(ids) = &s.kind else { return };
    let mut starts: Vec<usize> = ids.iter().map(|&i| table.get(i).span.start).collect();
    starts.sort();
    for &id in ids {
        let sym = table.get(id);
        let Type::Array { dims, .. } = unit.types.get(sym.ty) else { continue };
        let ok_class = match unit.lang {
            Lang::C => matches!(sym.sclass, StorageClass::Auto | StorageClass::Static),
            _ => matches!(sym.sclass, StorageClass::Auto | StorageClass::Static) && !params.contains(&id),
        };
        let bad_attr = sym.attrs.iter().any(|a| {
            matches!(a.as_str(), "parameter" | "allocatable" | "pointer" | "target" | "save" | "const") || a.starts_with("common") || a.starts_with("intent")
        });
        if !ok_class || bad_attr || sym.init.is_some() || dims.iter().any(|d| d.deferred || d.upper.is_none()) {
            continue;
        }
        // Dimensions must be this declarator's own (not a shared `dimension(...)`).
        let next = starts.iter().copied().find(|&p| p > sym.span.start).unwrap_or(s.span.end);
        let mut spans = Vec::new();
        let mut own = true;
        for d in dims {
            let u = d.upper.as_ref().unwrap().span;
            let sp = match &d.lower {
                Some(l) => Span::new(l.span.start, u.end),
                None => u,
            };
            if sp.start < sym.span.start || sp.end > next || sp.is_empty() {
                own = false;
            }
            spans.push(sp);
        }
        let _ = src;
        out.push(Cand { sym, decl: s.span, scope, dims: own.then_some(spans) });
    }
}

/// Comments out a whole declaration statement.
fn comment_decl(src: &str, lang: Lang, decl: Span) -> Option<Edit> {
    if lang == Lang::C {
        let body = src[decl.range()].replace("*/", "*\\/");
        return Some(Edit::replace(decl, format!("/* [bsim] unused: {body} */")));
    }
    match text::fortran_place(src, lang, decl) {
        text::FortranPlace::Lines { start, end, .. } => {
            let s: String = src[start..end].split_inclusive('\n').map(|l| format!("!{l}")).collect();
            Some(Edit::replace(Span::new(start, end), s))
        }
        _ => None,
    }
}
