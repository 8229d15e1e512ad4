//! Messages that carry their data. BSIM moves no message data unless told: a
//! skeleton whose kept code or running blocks read what a message brings
//! (parameters broadcast from rank 0 that decide loops and peers, counts of an
//! all-to-all, the data a block that runs computes on) would compute on
//! garbage. A call whose buffer the skeleton still uses (a name that appears
//! outside commented-out blocks, outside message-buffer arguments and outside
//! declarations, and that the memory cut kept whole) is preceded by
//! `BSIM_Carry(f)`: `f` 1 for a send buffer, 2 for a receive buffer (both for a
//! Bcast's one buffer). BSIM then moves that call's data.

use crate::blocks::{text, walk, Block, BlockKind};
use xmpc_ir::{Edit, FileUnit, Function, Item, Lang, Span, Stmt, StmtKind};

/// Which side of a message an MPI routine's buffer argument is, by position
/// (as `walk::buffer_args` lists them): 1 send, 2 receive, 3 both.
fn roles(name: &str) -> Vec<(usize, u8)> {
    let l = name.to_ascii_lowercase();
    let bufs = walk::buffer_args(name);
    match l.as_str() {
        "mpi_recv" | "mpi_irecv" | "mpi_recv_init" => vec![(0, 2)],
        "mpi_bcast" | "mpi_ibcast" | "mpi_sendrecv_replace" => vec![(0, 3)],
        _ => bufs.iter().enumerate().map(|(k, &i)| (i, if k == 0 { 1 } else { 2 })).collect(),
    }
}

struct Scopes<'a> {
    src: &'a str,
    lang: Lang,
    toks: Vec<(Span, &'a str)>,
    /// Spans where a name's token is not a use: commented blocks, buffer arguments, declarations.
    not_use: Vec<Span>,
    /// Arrays the memory cut removed or shrank: (name, scope).
    cut: &'a [(String, Span)],
}

impl Scopes<'_> {
    fn same(&self, a: &str, b: &str) -> bool {
        if self.lang == Lang::C {
            a == b
        } else {
            a.eq_ignore_ascii_case(b)
        }
    }

    /// `name` (seen in function `func`) is used by code that stays in the skeleton,
    /// within `scope` (None: it may be used elsewhere, in another file), and kept whole.
    fn live(&self, name: &str, scope: Option<Span>, func: Span) -> bool {
        if self.cut.iter().any(|(n, s)| self.same(n, name) && s.start <= func.start && func.end <= s.end) {
            return false;
        }
        let Some(scope) = scope else { return true };
        self.toks.iter().any(|(sp, t)| {
            self.same(t, name) && scope.start <= sp.start && sp.start < scope.end && !self.not_use.iter().any(|n| n.start <= sp.start && sp.start < n.end)
        })
    }
}

fn declarations(unit: &FileUnit, src: &str, out: &mut Vec<Span>) {
    let mut visit = |s: &Stmt| {
        s.walk(&mut |x| {
            let spec = matches!(x.kind, StmtKind::Verbatim) && unit.lang != Lang::C && crate::blocks::spec_stmt(&src[x.span.range()]);
            if matches!(x.kind, StmtKind::Decl(_)) || spec {
                out.push(x.span);
            }
        })
    };
    for it in &unit.items {
        match it {
            Item::Decl(s) => visit(s),
            Item::Function(f) => f.body.iter().for_each(&mut visit),
            Item::Module(m) => {
                m.decls.iter().for_each(&mut visit);
                m.contains.iter().for_each(|f| f.body.iter().for_each(&mut visit));
            }
            _ => {}
        }
    }
}

/// Where the uses of `name` (a buffer of a call in `f`) can be: `f` for its own
/// locals, the file for C `static` file-scope variables, anywhere (None) for
/// dummy arguments, COMMON, module and external variables and names declared in
/// include files.
fn scope_of(unit: &FileUnit, f: &Function, name: &str, sc: &Scopes) -> Option<Span> {
    use xmpc_ir::StorageClass;
    let own = f.symbols.symbols.iter().enumerate().find(|(_, x)| sc.same(&x.name, name));
    if let Some((id, s)) = own {
        let shared = f.params.contains(&id)
            || s.attrs.iter().any(|a| a.starts_with("common"))
            || matches!(s.sclass, StorageClass::Extern | StorageClass::Common | StorageClass::Param | StorageClass::ModuleVar);
        return if shared { None } else { Some(f.span) };
    }
    match unit.globals.symbols.iter().find(|x| sc.same(&x.name, name)) {
        Some(g) if g.sclass == StorageClass::Static => Some(Span::new(0, sc.src.len())),
        _ => None,
    }
}

fn find_stmt(f: &Function, span: Span) -> Option<&Stmt> {
    fn go(s: &Stmt, span: Span) -> Option<&Stmt> {
        if s.span == span {
            return Some(s);
        }
        s.children().into_iter().find_map(|c| go(c, span))
    }
    f.body.iter().find_map(|s| go(s, span))
}

/// `BSIM_Carry` edits for the comm blocks whose buffers the skeleton uses. C:
/// the rename edit of the call's `MPI_` token (`renames`) becomes
/// `(BSIM_Carry(f), L` and a `)` closes the call; Fortran: a
/// `call bsim_carry(f)` line before the statement.
pub fn edits(unit: &FileUnit, src: &str, blocks: &[Block], replaced: &[Span], cut: &[(String, Span)], renames: &mut [Edit]) -> Vec<Edit> {
    let lang = unit.lang;
    let mut not_use: Vec<Span> = replaced.to_vec();
    declarations(unit, src, &mut not_use);
    let funcs = unit.functions();
    for f in &funcs {
        for s in &f.body {
            for c in walk::calls(s) {
                if walk::is_mpi(c.name, lang) {
                    not_use.extend(walk::buffer_args(c.name).iter().filter_map(|&i| c.args.get(i)).map(|a| a.span));
                }
            }
        }
    }
    let sc = Scopes { src, lang, toks: super::rename::tokens(src, lang), not_use, cut };
    let mut out = vec![];
    for b in blocks.iter().filter(|b| b.kind != BlockKind::Compute && b.call.is_some()) {
        let Some(f) = funcs.iter().find(|f| f.span.start <= b.span.start && b.span.end <= f.span.end) else { continue };
        let Some(s) = find_stmt(f, b.stmts[0]) else { continue };
        for c in walk::calls(s).into_iter().filter(|c| walk::is_mpi(c.name, lang)) {
            let mut flags = 0u8;
            for (i, role) in roles(c.name) {
                let Some(name) = c.args.get(i).and_then(walk::base_name) else { continue };
                if name.len() > 4 && name[..4].eq_ignore_ascii_case("mpi_") {
                    continue;
                }
                if sc.live(name, scope_of(unit, f, name, &sc), f.span) {
                    flags |= role;
                }
            }
            if flags == 0 {
                continue;
            }
            if lang == Lang::C {
                // the call's `MPI_` token: the first at or after the statement start
                let Some(at) = sc.toks.iter().find(|(sp, t)| sp.start >= s.span.start && sp.start < s.span.end && *t == c.name).map(|(sp, _)| sp.start) else {
                    continue;
                };
                let close = c.args.last().map(|a| a.span.end).unwrap_or(at);
                let Some(p) = src[close..s.span.end.max(close)].find(')') else { continue };
                let Some(r) = renames.iter_mut().find(|e| e.span.is_empty() && e.span.start == at) else { continue };
                r.text = format!("(BSIM_Carry({flags}), {}", r.text);
                out.push(Edit::insert(close + p + 1, ")"));
            } else if let Ok(e) = text::wrap(src, lang, s.span, &format!("call bsim_carry({flags})"), "") {
                out.extend(e);
            }
        }
    }
    out
}
