//! What the procedures of a file write, decided over the file (a fixed point over
//! the call graph): which dummy arguments each may change, and which variables of
//! its host, module or COMMON blocks. A statement calling such a procedure writes
//! those variables; this is how `call init(a, j0, j1)` leaves `j0`, `j1` alone.

use super::walk::{self, ArgUse};
use std::collections::{HashMap, HashSet};
use xmpc_ir::{FileUnit, Function, Lang, Stmt};

#[derive(Default)]
pub struct Procs {
    lang: Option<Lang>,
    /// Procedure → use of each dummy argument.
    args: HashMap<String, Vec<ArgUse>>,
    /// Procedure → non-local variables it may write (itself or through its callees).
    globals: HashMap<String, HashSet<String>>,
    /// Procedure → non-local variables it may read (itself or through its callees):
    /// a kept call must keep what computes them (CG's `npcols`, set in one routine
    /// and divided by in another).
    reads: HashMap<String, HashSet<String>>,
    /// Fortran functions of other files the file references (`zeta = randlc(tran,
    /// amult)`): declared with a type and called with arguments, not arrays,
    /// characters or intrinsics. Arguments pass by reference, so each may be
    /// written (randlc advances its seed: CG's `tran`, which `makea` reads).
    externals: HashSet<String>,
}

impl Procs {
    pub fn analyse(unit: &FileUnit, src: &str, arrays: &HashSet<String>) -> Procs {
        let lang = unit.lang;
        let norm = |n: &str| if lang == Lang::C { n.to_string() } else { n.to_ascii_lowercase() };
        let funcs: Vec<&Function> = unit.functions();
        let mut p = Procs { lang: Some(lang), ..Default::default() };
        if lang != Lang::C {
            p.externals = external_functions(unit, arrays);
        }
        // Optimistic start (nothing written), grown until stable.
        // Two procedures of one name (an error for the C or Fortran compiler, but the
        // blocks are still asked for) share one entry, as long as the longer one.
        for g in &funcs {
            let uses = p.args.entry(norm(&g.name)).or_default();
            if uses.len() < g.params.len() {
                uses.resize(g.params.len(), ArgUse::ReadOnly);
            }
            p.globals.insert(norm(&g.name), HashSet::new());
            p.reads.insert(norm(&g.name), HashSet::new());
        }
        for _ in 0..funcs.len() + 2 {
            let mut changed = false;
            for g in &funcs {
                let name = norm(&g.name);
                let mut w: HashSet<String> = HashSet::new();
                let mut r: HashSet<String> = HashSet::new();
                for s in &g.body {
                    w.extend(walk::writes(s, src, lang, &|n| arrays.contains(n), &|f, i| p.arg(f, i)));
                    w.extend(p.global_writes(s));
                    r.extend(walk::reads(s, src, lang));
                    r.extend(p.global_reads(s));
                }
                let mut uses = p.args[&name].clone();
                for (i, &sid) in g.params.iter().enumerate() {
                    let sym = g.symbols.get(sid);
                    let fixed_in = sym.attrs.iter().any(|a| a.replace(' ', "") == "intent(in)" || a == "value");
                    if !fixed_in && uses[i] != ArgUse::Written && w.contains(&norm(&sym.name)) {
                        uses[i] = ArgUse::Written;
                        changed = true;
                    }
                }
                p.args.insert(name.clone(), uses);
                // Names that are not its own locals (COMMON members count as shared).
                let local: HashSet<String> = g
                    .symbols
                    .symbols
                    .iter()
                    .filter(|s| !s.attrs.iter().any(|a| a.starts_with("common")))
                    .map(|s| norm(&s.name))
                    .chain(std::iter::once(name.clone()))
                    .collect();
                let glob = p.globals.get_mut(&name).unwrap();
                for n in w {
                    if !local.contains(&n) && glob.insert(n) {
                        changed = true;
                    }
                }
                let procs: HashSet<String> = funcs.iter().map(|f| norm(&f.name)).collect();
                let rd = p.reads.get_mut(&name).unwrap();
                for n in r {
                    if !local.contains(&n) && !procs.contains(&n) && rd.insert(n) {
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        p
    }

    fn norm(&self, n: &str) -> String {
        if self.lang == Some(Lang::C) {
            n.to_string()
        } else {
            n.to_ascii_lowercase()
        }
    }

    /// Whether `f` is a procedure of the file.
    pub fn is_proc(&self, f: &str) -> bool {
        self.args.contains_key(&self.norm(f))
    }

    /// Use of argument `i` of a call to `f`.
    pub fn arg(&self, f: &str, i: usize) -> ArgUse {
        match self.args.get(&self.norm(f)) {
            Some(v) => v.get(i).copied().unwrap_or(ArgUse::Unknown),
            None if self.externals.contains(&self.norm(f)) => ArgUse::Written,
            None => ArgUse::Unknown,
        }
    }

    /// Non-local variables read by the procedures of the file that `s` calls.
    pub fn global_reads(&self, s: &Stmt) -> HashSet<String> {
        let mut out = HashSet::new();
        for c in walk::calls(s) {
            if let Some(g) = self.reads.get(&self.norm(c.name)) {
                out.extend(g.iter().cloned());
            }
        }
        out
    }

    /// Non-local variables written by the procedures of the file that `s` calls.
    pub fn global_writes(&self, s: &Stmt) -> HashSet<String> {
        let mut out = HashSet::new();
        for c in walk::calls(s) {
            if let Some(g) = self.globals.get(&self.norm(c.name)) {
                out.extend(g.iter().cloned());
            }
        }
        out
    }
}

/// Fortran function references to procedures of other files: a name called with
/// arguments in an expression that the calling procedure declares with a
/// non-character scalar type (not an array, not `intrinsic`) and that the file
/// does not define.
fn external_functions(unit: &FileUnit, arrays: &HashSet<String>) -> HashSet<String> {
    let defined: HashSet<String> = unit.functions().iter().map(|f| f.name.to_ascii_lowercase()).collect();
    let mut out = HashSet::new();
    for g in unit.functions() {
        let mut called: HashSet<String> = HashSet::new();
        for s in &g.body {
            s.walk(&mut |st| {
                for e in walk::own_exprs(st) {
                    walk::visit_expr(e, &mut |x| {
                        if let xmpc_ir::ExprKind::Call(c, args) = &x.kind {
                            if let (xmpc_ir::ExprKind::Ident(n), false) = (&c.kind, args.is_empty()) {
                                called.insert(n.to_ascii_lowercase());
                            }
                        }
                    });
                }
            });
        }
        for n in called {
            if defined.contains(&n) || arrays.contains(&n) {
                continue;
            }
            let Some(sym) = g.symbols.lookup(&n) else { continue };
            let scalar = matches!(unit.types.get(sym.ty), xmpc_ir::Type::Basic(t) if !t.starts_with("character"));
            if scalar && !sym.attrs.iter().any(|a| a == "intrinsic") {
                out.insert(n);
            }
        }
    }
    out
}
