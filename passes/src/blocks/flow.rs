//! Flow-sensitive control for a function's own local variables: which
//! assignments of a local reach the statement that uses it (reaching
//! definitions over the statements as the block search sees them: a compute
//! statement, a whole compute loop, a comm statement; loops and `if`s that
//! communicate are entered). A control use then keeps only the assignments that
//! reach it: EP's scratch variables `t1`/`t2` seed `vranlc` (control) and are
//! reused by the Gaussian-pair loop, which no longer stays in the skeleton.
//!
//! Only locals the function alone writes take part (not dummies, COMMON,
//! module, saved or static variables: other calls change those, so they stay
//! control by name). A function with a `goto` the walk cannot follow (computed
//! or assigned, in text the IR keeps verbatim) is left to the by-name rule.

use super::{child_seqs, walk, Finder, Role};
use std::collections::{BTreeSet, HashMap, HashSet};
use xmpc_ir::{ExprKind, Function, Stmt, StmtKind, StorageClass};

type Key = (usize, usize);
/// Local variable -> the definitions (ids) that may reach here.
type State = HashMap<String, BTreeSet<u32>>;

#[derive(Default)]
pub(super) struct Flow {
    /// The locals followed.
    pub locals: HashSet<String>,
    /// Definition id -> (statement, variable).
    pub defs: Vec<(Key, String)>,
    ids: HashMap<(Key, String), u32>,
    /// Reaching definitions at each statement's start.
    pub at: HashMap<Key, State>,
    labels: HashMap<String, State>,
    /// A fixpoint pass changed something.
    changed: bool,
}

fn key(s: &Stmt) -> Key {
    (s.span.start, s.span.end)
}

fn join(into: &mut State, from: &State) -> bool {
    let mut ch = false;
    for (v, d) in from {
        let e = into.entry(v.clone()).or_default();
        for &x in d {
            ch |= e.insert(x);
        }
    }
    ch
}

impl Flow {
    /// The definition id of `var` at statement `k`, if `var` is followed.
    pub fn def(&self, k: Key, var: &str) -> Option<u32> {
        self.ids.get(&(k, var.to_string())).copied()
    }

    /// Definitions of `var` reaching statement `k` (None: not followed there).
    pub fn reaching(&self, k: Key, var: &str) -> Option<Vec<u32>> {
        if !self.locals.contains(var) {
            return None;
        }
        Some(self.at.get(&k).and_then(|st| st.get(var)).map(|d| d.iter().copied().collect()).unwrap_or_default())
    }

    fn new_def(&mut self, k: Key, v: &str) -> u32 {
        let n = self.defs.len() as u32;
        *self.ids.entry((k, v.to_string())).or_insert_with(|| {
            self.defs.push((k, v.to_string()));
            n
        })
    }
}

/// What a kept statement reads: every name in it except the variable a plain
/// assignment `x = ...` (Fortran, C `=`) replaces (its old value is not needed).
pub(super) fn kept_reads(s: &Stmt, src: &str, lang: xmpc_ir::Lang) -> HashSet<String> {
    let mut r = walk::reads(s, src, lang);
    let target = match &s.kind {
        StmtKind::Assign(l, rhs) => Some((l, rhs)),
        _ => None,
    };
    if let Some((l, rhs)) = target {
        if let ExprKind::Ident(n) = &l.kind {
            let n = if lang == xmpc_ir::Lang::C { n.clone() } else { n.to_ascii_lowercase() };
            let mut in_rhs = false;
            walk::visit_expr(rhs, &mut |x| {
                if let ExprKind::Ident(m) = &x.kind {
                    in_rhs |= m.eq_ignore_ascii_case(&n);
                }
            });
            if !in_rhs {
                r.remove(&n);
            }
        }
    }
    r
}

impl Finder<'_> {
    /// Reaching definitions of `g`'s locals (None: it has a jump the walk cannot follow).
    pub(super) fn flow_of(&self, g: &Function) -> Option<Flow> {
        let mut unstructured = false;
        for s in &g.body {
            s.walk(&mut |x| {
                if matches!(x.kind, StmtKind::Verbatim) {
                    let t = self.src[x.span.range()].to_ascii_lowercase().replace(' ', "");
                    unstructured |= t.contains("goto") || t.starts_with("assign") || t.contains("longjmp");
                }
            });
        }
        if unstructured {
            return None;
        }
        let mut f = Flow::default();
        for (i, s) in g.symbols.symbols.iter().enumerate() {
            let shared = g.params.contains(&i)
                || !matches!(s.sclass, StorageClass::Auto | StorageClass::Register)
                || s.attrs.iter().any(|a| a == "save" || a == "parameter" || a.starts_with("common") || a.starts_with("intent"))
                || (s.init.is_some() && self.lang != xmpc_ir::Lang::C);
            if !shared {
                f.locals.insert(self.norm(&s.name));
            }
        }
        let body: Vec<&Stmt> = g.body.iter().collect();
        for _ in 0..8 {
            f.changed = false;
            let mut st = State::new();
            self.rd_seq(&body, &mut st, &mut f);
            if !f.changed {
                break;
            }
        }
        Some(f)
    }

    fn rd_seq(&self, stmts: &[&Stmt], st: &mut State, f: &mut Flow) {
        for s in stmts {
            self.rd_stmt(s, st, f);
        }
    }

    fn rd_stmt(&self, s: &Stmt, st: &mut State, f: &mut Flow) {
        if let Some(l) = &s.label {
            if let Some(ls) = f.labels.get(l).cloned() {
                join(st, &ls);
            }
        }
        let k = key(s);
        let e = f.at.entry(k).or_default();
        f.changed |= join(e, st);
        *st = e.clone();
        match self.role(s) {
            Role::Descend => self.rd_descend(s, st, f),
            _ => self.rd_atomic(s, st, f),
        }
        if let StmtKind::Goto(l) = &s.kind {
            let e = f.labels.entry(l.clone()).or_default();
            f.changed |= join(e, st);
        }
    }

    /// A statement the search does not enter: its writes are definitions here.
    fn rd_atomic(&self, s: &Stmt, st: &mut State, f: &mut Flow) {
        let k = key(s);
        let mut w = walk::writes(s, self.src, self.lang, &|n| self.arrays.contains(n), &|g, i| self.procs.arg(g, i));
        // a declaration's initial value defines its variables
        if let StmtKind::Decl(ids) = &s.kind {
            w.extend(ids.iter().filter_map(|&i| self.inits.get(i)).map(|(n, _)| n.clone()));
        }
        // `x = ...` of a scalar replaces x; anything else may leave the old value
        let strong: Option<String> = match &s.kind {
            StmtKind::Assign(l, _) => match &l.kind {
                ExprKind::Ident(n) => Some(self.norm(n)),
                _ => None,
            },
            StmtKind::Expr(e) => match &e.kind {
                ExprKind::Assign(_, l, _) => match &l.kind {
                    ExprKind::Ident(n) => Some(self.norm(n)),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        for v in w {
            if !f.locals.contains(&v) {
                continue;
            }
            let id = f.new_def(k, &v);
            let e = st.entry(v.clone()).or_default();
            if strong.as_deref() == Some(v.as_str()) && !self.arrays.contains(&v) {
                e.clear();
            }
            e.insert(id);
        }
    }

    /// A loop or `if` that communicates: its own expressions, then its lists.
    fn rd_descend(&self, s: &Stmt, st: &mut State, f: &mut Flow) {
        // the Fortran DO variable (and a C `for` init) is written by the statement
        if let StmtKind::Do { var, .. } = &s.kind {
            if let Some(v) = walk::base_name(var).map(|n| self.norm(n)) {
                if f.locals.contains(&v) {
                    let id = f.new_def(key(s), &v);
                    st.entry(v).or_default().insert(id);
                }
            }
        }
        if let StmtKind::For { init: Some(i), .. } = &s.kind {
            self.rd_atomic(i, st, f);
        }
        let seqs = child_seqs(s);
        if walk::is_loop(s) {
            // the body runs 0, 1 or more times: iterate to the loop's fixpoint
            let entry = st.clone();
            let mut head = st.clone();
            for _ in 0..4 {
                let mut body = head.clone();
                for (b, _, _) in &seqs {
                    self.rd_seq(b, &mut body, f);
                }
                let mut next = entry.clone();
                join(&mut next, &body);
                if next == head {
                    break;
                }
                head = next;
            }
            // the loop's own expressions (its condition, bounds) are evaluated at
            // every iteration: what the body defines reaches them too
            let e = f.at.entry(key(s)).or_default();
            f.changed |= join(e, &head);
            *st = head;
        } else {
            // branches (an `if` without `else` may run none)
            let entry = st.clone();
            let mut out = entry.clone();
            for (b, _, _) in &seqs {
                let mut br = entry.clone();
                self.rd_seq(b, &mut br, f);
                join(&mut out, &br);
            }
            *st = out;
        }
    }
}
