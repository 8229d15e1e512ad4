//! Counting from the IR: the loop nests of a compute block, and per iteration of each
//! nest's innermost statements the floating-point operations, array loads and stores
//! (with their index expressions as polynomials) and the longest loop-carried
//! dependence chain (in cycles of the machine's latencies).

use std::collections::HashMap;

use xmpc_ir::{BinOp, Expr, ExprKind, FileUnit, Function, Lang, Span, Stmt, StmtKind, Type, UnOp};
use xmpc_psim_machine::Core;

use crate::sym::{Poly, E};
use std::ops::{Add, Div, Mul, Sub};

/// Extent and lower bound of one dimension, as polynomials; None where unknown.
type DimBounds = Option<(Poly, Poly)>;

/// Operation counts per iteration.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Ops {
    pub add: f64,
    pub mul: f64,
    pub div: f64,
    pub sqrt: f64,
    pub convert: f64,
    pub libm: f64,
}

impl Ops {
    pub fn flops(&self) -> f64 {
        self.add + self.mul + self.div + self.sqrt
    }
}

/// One array reference: its array (callee arrays renamed to the caller's), the linear
/// element index as a polynomial (None: not affine, e.g. indirect), store or load.
#[derive(Clone, Debug, PartialEq)]
pub struct Ref {
    pub array: String,
    pub index: Option<Poly>,
    pub store: bool,
    pub elem_bytes: f64,
}

/// The statements run by one innermost iteration of a nest.
#[derive(Clone, Debug, Default)]
pub struct Kernel {
    pub ops: Ops,
    pub refs: Vec<Ref>,
    /// Longest loop-carried chain through scalars, in cycles.
    pub recurrence: f64,
    /// The chain is a reduction (`s = s + ...`) only (vectorisable with reassociation).
    pub reduction_only: bool,
    /// Contains an `if` (executed as if taken).
    pub branches: bool,
    /// Conditional branches per iteration.
    pub branch_count: f64,
    /// Library calls or inlined functions (not vectorised).
    pub calls: bool,
}

/// A loop nest (or straight-line code, no loops) of a block.
#[derive(Clone, Debug)]
pub struct Nest {
    /// Loop variables and trip counts, outermost first.
    pub loops: Vec<(String, E)>,
    /// The innermost trip count is a compile-time constant (numbers and `#define`s).
    pub const_trip: bool,
    pub kernel: Kernel,
    /// Where it is (the innermost statements' first span).
    pub span: Span,
}

impl Nest {
    pub fn iterations(&self) -> E {
        self.loops.iter().fold(E::num(1.0), |a, (_, t)| E::mul(a, t.clone()))
    }
    pub fn inner_var(&self) -> Option<&str> {
        self.loops.last().map(|(v, _)| v.as_str())
    }
}

/// What the counting could not do: a located message.
#[derive(Clone, Debug)]
pub struct Problem {
    pub span: Span,
    pub msg: String,
}

pub struct Counter<'a> {
    unit: &'a FileUnit,
    src: &'a str,
    /// Midpoint of each open loop's range (for trip counts that depend on it).
    mids: HashMap<String, E>,
    core: &'a Core,
    /// Functions of the file by (normalised) name.
    funcs: HashMap<String, &'a Function>,
    pub notes: Vec<String>,
    pub problems: Vec<Problem>,
    /// Names that change inside the nest being counted (loop variables, assigned
    /// scalars): an expression reading none of them (and no array) is loop-invariant
    /// and hoisted by any compiler, so its operations are not counted per iteration.
    variant: std::collections::HashSet<String>,
    /// Names `#define`d in the source (compile-time constants).
    defines: std::collections::HashSet<String>,
}

/// A scope for inlining: the function whose symbols apply and how its names map to the
/// caller's (parameters → argument names or expressions; locals → prefixed).
#[derive(Clone)]
struct Scope<'a> {
    func: &'a Function,
    rename: HashMap<String, String>,
    values: HashMap<String, E>,
    prefix: String,
}

/// Per-iteration dataflow state: latency from each carried variable's start value.
type Dep = HashMap<String, f64>;

struct KState {
    k: Kernel,
    dep: HashMap<String, Dep>,
    /// Variables whose chain is only `v = v + x`.
    reduction: HashMap<String, bool>,
}

impl<'a> Counter<'a> {
    pub fn new(unit: &'a FileUnit, src: &'a str, core: &'a Core) -> Self {
        let defines = src
            .lines()
            .filter_map(|l| l.trim_start().strip_prefix("#define "))
            .filter_map(|r| r.split_whitespace().next())
            .filter(|n| !n.contains('('))
            .map(String::from)
            .collect();
        let mut funcs = HashMap::new();
        for f in unit.functions() {
            funcs.insert(norm(unit.lang, &f.name), f);
        }
        Counter { unit, src, mids: HashMap::new(), core, funcs, notes: vec![], problems: vec![], variant: Default::default(), defines }
    }

    fn lang(&self) -> Lang {
        self.unit.lang
    }

    /// The nests of the statements `stmts` (a block) of function `func`.
    pub fn block(&mut self, func: &str, stmts: &[&'a Stmt]) -> Vec<Nest> {
        let Some(f) = self.funcs.get(&norm(self.lang(), func)).copied() else {
            return vec![];
        };
        let scope = Scope { func: f, rename: HashMap::new(), values: HashMap::new(), prefix: String::new() };
        let mut out = Vec::new();
        self.list(stmts, &scope, &[], &mut out, 0);
        out
    }

    /// A statement list at loop context `loops`: straight statements form one nest,
    /// loops open nested contexts.
    fn list(&mut self, stmts: &[&'a Stmt], sc: &Scope<'a>, loops: &[(String, E)], out: &mut Vec<Nest>, depth: usize) {
        let saved = std::mem::take(&mut self.variant);
        if !loops.is_empty() {
            self.variant = saved.clone();
            for (v, _) in loops {
                self.variant.insert(v.clone());
            }
            for s in stmts {
                s.walk(&mut |x| {
                    let t = match &x.kind {
                        StmtKind::Assign(l, _) => l.ident(),
                        StmtKind::Expr(Expr { kind: ExprKind::Assign(_, l, _), .. }) => l.ident(),
                        StmtKind::Expr(Expr { kind: ExprKind::Unary(_, l), .. }) => l.ident(),
                        _ => None,
                    };
                    if let Some(n) = t {
                        self.variant.insert(sc.name(&norm(self.unit.lang, n)));
                    }
                });
            }
        }
        self.list_inner(stmts, sc, loops, out, depth);
        self.variant = saved;
    }

    fn list_inner(&mut self, stmts: &[&'a Stmt], sc: &Scope<'a>, loops: &[(String, E)], out: &mut Vec<Nest>, depth: usize) {
        let mut st = KState { k: Kernel::default(), dep: HashMap::new(), reduction: HashMap::new() };
        let mut first: Option<Span> = None;
        for s in stmts {
            self.stmt(s, sc, loops, out, &mut st, &mut first, depth);
        }
        if let Some(sp) = first {
            let mut n = finish(st, loops.to_vec(), sp);
            n.const_trip = n.loops.last().is_some_and(|(_, t)| t.vars().iter().all(|v| self.defines.contains(v)));
            out.push(n);
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn stmt(&mut self, s: &'a Stmt, sc: &Scope<'a>, loops: &[(String, E)], out: &mut Vec<Nest>, st: &mut KState, first: &mut Option<Span>, depth: usize) {
        match &s.kind {
            StmtKind::Compound(v) => {
                for c in v {
                    self.stmt(c, sc, loops, out, st, first, depth);
                }
            }
            StmtKind::For { init, cond, step, body } => match self.c_trip(init.as_deref(), cond.as_ref(), step.as_ref(), sc) {
                Some((v, t)) => {
                    let t = self.outer_free(t, loops, s.span);
                    let mut l = loops.to_vec();
                    l.push((v, t));
                    self.list(&[body], sc, &l, out, depth);
                }
                None => self
                    .problems
                    .push(Problem { span: s.span, msg: "loop whose trip count the model cannot read (counted `for (i = a; i < b; i++)` forms only)".into() }),
            },
            StmtKind::Do { var, lower, upper, step, body, .. } => {
                let v = var.ident().map(|x| sc.name(x)).unwrap_or_default();
                let lo = self.to_e(lower, sc);
                let hi = self.to_e(upper, sc);
                let stp = match step {
                    None => Some(1.0),
                    Some(e) => self.to_e(e, sc).and_then(|x| if let E::Num(n) = x { Some(n) } else { None }),
                };
                match (lo, hi, stp) {
                    (Some(lo), Some(hi), Some(st1)) if st1 != 0.0 => {
                        self.mids.insert(v.clone(), E::div(E::add(lo.clone(), hi.clone()), E::num(2.0)));
                        let t = E::div(E::add(E::sub(hi, lo), E::num(st1)), E::num(st1));
                        let t = self.outer_free(t, loops, s.span);
                        let mut l = loops.to_vec();
                        l.push((v, E::max(t, E::num(0.0))));
                        self.list(&[body], sc, &l, out, depth);
                    }
                    _ => self.problems.push(Problem { span: s.span, msg: "`do` loop whose bounds the model cannot read".into() }),
                }
            }
            StmtKind::While { .. } | StmtKind::DoWhile { .. } => {
                self.problems.push(Problem { span: s.span, msg: "`while` loop: its trip count is not known before it runs".into() });
            }
            StmtKind::If { cond, then, els } => {
                first.get_or_insert(s.span);
                st.k.branches = true;
                st.k.branch_count += 1.0;
                self.expr(cond, sc, st, false);
                // A loop inside a branch is counted as if the branch ran.
                self.stmt(then, sc, loops, out, st, first, depth);
                if let Some(e) = els {
                    self.stmt(e, sc, loops, out, st, first, depth);
                }
            }
            StmtKind::Expr(e) => {
                first.get_or_insert(s.span);
                if let Some(()) = self.call_stmt_expr(e, sc, loops, out, st, depth) {
                    return;
                }
                self.expr(e, sc, st, false);
            }
            StmtKind::Assign(l, r) => {
                if self.lang().is_fortran() {
                    match self.section_assign(l, r, sc, loops, s.span) {
                        Some(Ok(n)) => {
                            out.push(n);
                            return;
                        }
                        Some(Err(msg)) => {
                            self.problems.push(Problem { span: s.span, msg });
                            return;
                        }
                        None => {}
                    }
                }
                first.get_or_insert(s.span);
                self.assign(None, l, r, sc, st);
            }
            StmtKind::Call { name, args } => {
                first.get_or_insert(s.span);
                if let Some(f) = self.funcs.get(&norm(self.lang(), name)).copied() {
                    self.inline(f, args, sc, loops, out, st, depth);
                } else {
                    self.notes.push(format!("call of `{name}` (not in the file) costs nothing"));
                }
            }
            StmtKind::Decl(_) | StmtKind::Nop | StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Pragma(_) => {}
            StmtKind::Return(Some(e)) => {
                let d = self.expr(e, sc, st, false);
                let rv = sc.name(&sc.func.name);
                st.dep.insert(rv, d);
            }
            StmtKind::Verbatim => {
                let t = self.unit_text(s.span);
                if !t.trim().is_empty() {
                    self.notes.push(format!("statement not modelled (costs nothing): `{}`", t.lines().next().unwrap_or("").trim()));
                }
            }
            _ => self.notes.push("statement not modelled (costs nothing)".into()),
        }
    }

    fn unit_text(&self, sp: Span) -> String {
        self.src.get(sp.range()).unwrap_or("").to_string()
    }

    /// A trip count must not depend on the variables of enclosing loops of the same
    /// nest; when it is affine in them, its mean over the outer range replaces it.
    fn outer_free(&mut self, t: E, loops: &[(String, E)], span: Span) -> E {
        let vars = t.vars();
        let outer: Vec<&(String, E)> = loops.iter().filter(|(v, _)| vars.contains(v)).collect();
        if outer.is_empty() {
            return t;
        }
        // mean over v of an affine function of v: the value at the midpoint of v's range
        let mut m = HashMap::new();
        for (v, _) in &outer {
            match self.mids.get(v) {
                Some(mid) => {
                    m.insert(v.clone(), mid.clone());
                }
                None => {
                    self.problems.push(Problem {
                        span,
                        msg: format!("trip count depends on the loop variable `{v}`, whose range is not known: give the block a `time(...)` model"),
                    });
                    return t;
                }
            }
        }
        self.notes.push(format!(
            "a trip count depends on the enclosing loop variable(s) {}: its value at their midpoint is used (exact when affine)",
            outer.iter().map(|(v, _)| v.as_str()).collect::<Vec<_>>().join(", ")
        ));
        t.subst(&m)
    }

    /// `for (i = a; i < b; i++)` and friends: loop variable and trip count.
    fn c_trip(&mut self, init: Option<&Stmt>, cond: Option<&Expr>, step: Option<&Expr>, sc: &Scope<'a>) -> Option<(String, E)> {
        let (v, a): (String, E) = match &init?.kind {
            StmtKind::Expr(Expr { kind: ExprKind::Assign(None, l, r), .. }) => (l.ident()?.to_string(), self.to_e(r, sc)?),
            StmtKind::Decl(ids) => {
                let sym = ids.first().map(|&id| sc.func.symbols.get(id))?;
                (sym.name.clone(), self.to_e(sym.init.as_ref()?, sc)?)
            }
            _ => return None,
        };
        let s: f64 = match &step?.kind {
            ExprKind::Unary(UnOp::PostInc | UnOp::PreInc, x) if x.ident() == Some(&v) => 1.0,
            ExprKind::Unary(UnOp::PostDec | UnOp::PreDec, x) if x.ident() == Some(&v) => -1.0,
            ExprKind::Assign(Some(op @ (BinOp::Add | BinOp::Sub)), x, k) if x.ident() == Some(&v) => {
                let k = match self.to_e(k, sc)? {
                    E::Num(n) => n,
                    _ => return None,
                };
                if *op == BinOp::Add {
                    k
                } else {
                    -k
                }
            }
            _ => return None,
        };
        let ExprKind::Binary(op, l, r) = &cond?.kind else { return None };
        if l.ident() != Some(&v) {
            return None;
        }
        let b = self.to_e(r, sc)?;
        let span = match (op, s > 0.0) {
            (BinOp::Lt, true) => E::sub(b, a.clone()),
            (BinOp::Le, true) => E::add(E::sub(b, a.clone()), E::num(1.0)),
            (BinOp::Gt, false) => E::sub(a.clone(), b),
            (BinOp::Ge, false) => E::add(E::sub(a.clone(), b), E::num(1.0)),
            _ => return None,
        };
        // ceil(span / |s|) as the real quotient (exact for unit steps)
        let t = E::div(span, E::num(s.abs()));
        self.mids.insert(sc.name(&v), E::add(a, E::mul(E::num(0.5 * s), E::sub(t.clone(), E::num(1.0)))));
        Some((sc.name(&v), E::max(t, E::num(0.0))))
    }

    /// An arithmetic expression over program variables, as a closed form.
    fn to_e(&self, e: &Expr, sc: &Scope<'a>) -> Option<E> {
        Some(match &e.kind {
            ExprKind::Int(s) => E::num(parse_int(s)?),
            ExprKind::Real(s) => E::num(s.to_ascii_lowercase().replace('d', "e").trim_end_matches(['f', 'l']).parse().ok()?),
            ExprKind::Ident(n) => {
                let n = norm(self.lang(), n);
                if let Some(v) = sc.values.get(&n) {
                    return Some(v.clone());
                }
                if let Some(v) = self.param_value(&n, sc) {
                    return Some(v);
                }
                E::var(&sc.name(&n))
            }
            ExprKind::Unary(UnOp::Neg, a) => E::mul(E::num(-1.0), self.to_e(a, sc)?),
            ExprKind::Unary(UnOp::Plus, a) | ExprKind::Cast(_, a) => self.to_e(a, sc)?,
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.to_e(a, sc)?, self.to_e(b, sc)?);
                match op {
                    BinOp::Add => E::add(x, y),
                    BinOp::Sub => E::sub(x, y),
                    BinOp::Mul => E::mul(x, y),
                    BinOp::Div => E::div(x, y),
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    /// A Fortran `parameter` or C `const` with a literal initialiser.
    fn param_value(&self, n: &str, sc: &Scope<'a>) -> Option<E> {
        let s = sc.func.symbols.lookup(n).or_else(|| self.unit.globals.lookup(n))?;
        if s.attrs.iter().any(|a| a == "parameter") {
            return self.to_e(s.init.as_ref()?, sc);
        }
        None
    }

    /// Offsets: a polynomial over variables (None when not affine-polynomial).
    fn to_poly(&self, e: &Expr, sc: &Scope<'a>) -> Option<Poly> {
        Some(match &e.kind {
            ExprKind::Int(s) => Poly::constant(parse_int(s)?),
            ExprKind::Ident(n) => {
                let n = norm(self.lang(), n);
                if let Some(v) = sc.values.get(&n) {
                    return e_to_poly(v);
                }
                Poly::var(&sc.name(&n))
            }
            ExprKind::Unary(UnOp::Neg, a) => self.to_poly(a, sc)?.scale(-1.0),
            ExprKind::Unary(UnOp::Plus, a) | ExprKind::Cast(_, a) => self.to_poly(a, sc)?,
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.to_poly(a, sc)?, self.to_poly(b, sc)?);
                match op {
                    BinOp::Add => x.add(&y),
                    BinOp::Sub => x.sub(&y),
                    BinOp::Mul => x.mul(&y),
                    BinOp::Div => x.scale(1.0 / y.as_const()?),
                    _ => return None,
                }
            }
            _ => return None,
        })
    }

    /// Extents of an array's dimensions (storage order irrelevant here: as declared) and
    /// lower bounds, as polynomials; None where unknown.
    fn dims(&self, name: &str, sc: &Scope<'a>) -> Option<(Vec<DimBounds>, f64)> {
        let sym = sc.func.symbols.lookup(name).or_else(|| self.unit.globals.lookup(name))?;
        let (elem, dims) = match self.unit.types.get(sym.ty) {
            Type::Array { elem, dims } => (*elem, dims.clone()),
            Type::Pointer(e) => (*e, vec![]),
            _ => return None,
        };
        let bytes = elem_bytes(self.unit.types.get(elem));
        if dims.iter().any(|d| d.deferred) {
            if let Some(a) = self.allocated(name, sc) {
                return Some((a.into_iter().map(Some).collect(), bytes));
            }
        }
        let ds = dims
            .iter()
            .map(|d| {
                if d.deferred {
                    return None;
                }
                let up = self.to_poly(d.upper.as_ref()?, sc)?;
                match &d.lower {
                    None if self.lang() == Lang::C => Some((up, Poly::constant(0.0))),
                    None => Some((up, Poly::constant(1.0))),
                    Some(l) => {
                        let lo = self.to_poly(l, sc)?;
                        Some((up.sub(&lo).add(&Poly::constant(1.0)), lo))
                    }
                }
            })
            .collect();
        Some((ds, bytes))
    }

    /// Extents and lower bounds of a deferred-shape array from the `allocate` statement of
    /// the function (the first that allocates it).
    fn allocated(&self, name: &str, sc: &Scope<'a>) -> Option<Vec<(Poly, Poly)>> {
        let mut found = None;
        for s in &sc.func.body {
            s.walk(&mut |x| {
                if found.is_some() || !matches!(x.kind, StmtKind::Verbatim) {
                    return;
                }
                let t = self.src.get(x.span.range()).unwrap_or("").to_ascii_lowercase();
                let t = t.trim_start();
                if let Some(rest) = t.strip_prefix("allocate") {
                    found = parse_allocate(rest, name).map(|dims| {
                        dims.into_iter()
                            .filter_map(|(lo, hi)| {
                                let hi = text_poly(&hi)?;
                                let lo = match lo {
                                    Some(l) => text_poly(&l)?,
                                    None => Poly::constant(1.0),
                                };
                                Some((hi.sub(&lo).add(&Poly::constant(1.0)), lo))
                            })
                            .collect()
                    });
                }
            });
        }
        found
    }

    /// Fortran array syntax `a = expr`, `a(l:u, j) = expr`: a nest of its own, one loop per
    /// section dimension (first dimension innermost), the arrays of `expr` walked with the
    /// same subscripts. None: not array syntax.
    fn section_assign(&mut self, l: &Expr, r: &Expr, sc: &Scope<'a>, loops: &[(String, E)], span: Span) -> Option<Result<Nest, String>> {
        let lang = self.lang();
        let (name, subs): (String, Option<&Vec<Expr>>) = match &l.kind {
            ExprKind::Ident(n) if self.is_array(&norm(lang, n), sc) => (norm(lang, n), None),
            ExprKind::Call(c, args) if args.iter().any(|a| matches!(a.kind, ExprKind::Triplet(..))) => (norm(lang, c.ident()?), Some(args)),
            _ => return None,
        };
        let Some((dims, _)) = self.dims(&name, sc) else { return Some(Err(format!("array syntax on `{name}`, whose shape the model does not know"))) };
        // per dimension: the subscript polynomial (a section variable or the scalar subscript)
        let mut nl = loops.to_vec();
        let mut sub_polys: Vec<Poly> = Vec::new();
        let mut sec_loops: Vec<(String, E)> = Vec::new();
        for (d, dim) in dims.iter().enumerate() {
            let v = format!("{}__s{d}", sc.prefix);
            let (lo_d, ext_d) = match dim {
                Some((ext, lo)) => (Some(lo.clone()), Some(ext.clone())),
                None => (None, None),
            };
            let trip = match subs.map(|s| &s[d]) {
                None => ext_d.map(|e| e.to_e()),
                Some(Expr { kind: ExprKind::Triplet(a, b, None), .. }) => {
                    let lo = match a {
                        Some(a) => self.to_e(a, sc),
                        None => lo_d.clone().map(|p| p.to_e()),
                    };
                    let hi = match b {
                        Some(b) => self.to_e(b, sc),
                        None => match (&lo_d, &ext_d) {
                            (Some(lo), Some(e)) => Some(lo.add(e).sub(&Poly::constant(1.0)).to_e()),
                            _ => None,
                        },
                    };
                    match (lo, hi) {
                        (Some(lo), Some(hi)) => Some(E::max(E::add(E::sub(hi, lo), E::num(1.0)), E::num(0.0))),
                        _ => None,
                    }
                }
                Some(Expr { kind: ExprKind::Triplet(..), .. }) => return Some(Err("array section with a stride: not modelled".into())),
                Some(e) => {
                    sub_polys.push(self.to_poly(e, sc).unwrap_or_default());
                    continue;
                }
            };
            let Some(trip) = trip else { return Some(Err(format!("array syntax on `{name}`: the section's bounds are not known"))) };
            sec_loops.push((v.clone(), trip));
            sub_polys.push(Poly::var(&v));
        }
        // Fortran: first dimension fastest, so innermost
        sec_loops.reverse();
        nl.extend(sec_loops);
        let mut st = KState { k: Kernel::default(), dep: HashMap::new(), reduction: HashMap::new() };
        let lin = |me: &Self, arr: &str| -> Option<Poly> {
            let (dd, _) = me.dims(arr, sc)?;
            let mut stride = Poly::constant(1.0);
            let mut out = Poly::default();
            for (k, p) in sub_polys.iter().enumerate() {
                out = out.add(&p.mul(&stride));
                if k + 1 < sub_polys.len() {
                    stride = stride.mul(&dd.get(k)?.clone()?.0);
                }
            }
            Some(out)
        };
        let bytes = self.dims(&name, sc).map(|d| d.1).unwrap_or(8.0);
        st.k.refs.push(Ref { array: sc.name(&name), index: lin(self, &name), store: true, elem_bytes: bytes });
        // the right-hand side: arrays as whole or as sections walk with the left side
        let mut arrays = Vec::new();
        let mut ops = 0.0;
        let mut bad = None;
        xmpc_passes::blocks::walk::visit_expr(r, &mut |x| match &x.kind {
            ExprKind::Ident(n) if self.is_array(&norm(lang, n), sc) => arrays.push(norm(lang, n)),
            ExprKind::Call(c, args) => {
                if let Some(n) = c.ident().map(|n| norm(lang, n)) {
                    if self.is_array(&n, sc) {
                        if args.iter().any(|a| matches!(a.kind, ExprKind::Triplet(..))) {
                            arrays.push(n);
                        } else {
                            bad = Some(format!("`{n}(...)` with scalar subscripts in array syntax: not modelled"));
                        }
                    } else {
                        bad = Some(format!("call of `{n}` in array syntax: not modelled"));
                    }
                }
            }
            ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, ..) => ops += 1.0,
            _ => {}
        });
        if let Some(b) = bad {
            return Some(Err(b));
        }
        arrays.sort();
        arrays.dedup();
        for a in arrays {
            let b = self.dims(&a, sc).map(|d| d.1).unwrap_or(8.0);
            st.k.refs.push(Ref { array: sc.name(&a), index: lin(self, &a), store: false, elem_bytes: b });
        }
        st.k.ops.add += ops;
        Some(Ok(finish(st, nl, span)))
    }

    /// Whether a name is an array (declared with array or pointer type).
    fn is_array(&self, name: &str, sc: &Scope<'a>) -> bool {
        let s = sc.func.symbols.lookup(name).or_else(|| self.unit.globals.lookup(name));
        s.is_some_and(|s| matches!(self.unit.types.get(s.ty), Type::Array { .. } | Type::Pointer(_)))
    }

    fn is_float_sym(&self, name: &str, sc: &Scope<'a>) -> bool {
        let s = sc.func.symbols.lookup(name).or_else(|| self.unit.globals.lookup(name));
        let Some(s) = s else { return true };
        let mut t = self.unit.types.get(s.ty);
        loop {
            match t {
                Type::Array { elem, .. } | Type::Pointer(elem) => t = self.unit.types.get(*elem),
                Type::Basic(b) => return is_float_type(b),
                _ => return false,
            }
        }
    }

    /// Whether an expression has a floating-point value (types of the symbols; a
    /// literal real; an operation with a floating operand).
    fn is_float(&self, e: &Expr, sc: &Scope<'a>) -> bool {
        match &e.kind {
            ExprKind::Real(_) => true,
            ExprKind::Int(_) => false,
            ExprKind::Ident(n) => {
                let n = norm(self.lang(), n);
                self.is_float_sym(&n, sc)
            }
            ExprKind::Index(b, _) => base(b).is_some_and(|n| self.is_float_sym(&norm(self.lang(), n), sc)),
            ExprKind::Call(c, args) => match c.ident().map(|n| norm(self.lang(), n)) {
                Some(n) if self.is_array(&n, sc) => self.is_float_sym(&n, sc),
                Some(n) if matches!(n.as_str(), "int" | "nint" | "mod" | "size" | "atoi" | "floor_int") => false,
                Some(n) if matches!(n.as_str(), "max" | "min" | "abs") => args.iter().any(|a| self.is_float(a, sc)),
                _ => true,
            },
            ExprKind::Unary(_, a) => self.is_float(a, sc),
            ExprKind::Binary(_, a, b) => self.is_float(a, sc) || self.is_float(b, sc),
            ExprKind::Cast(t, _) => is_float_type(t),
            ExprKind::Cond(_, a, b) => self.is_float(a, sc) || self.is_float(b, sc),
            _ => false,
        }
    }

    /// Records an array reference.
    fn array_ref(&mut self, name: &str, subs: &[&Expr], store: bool, sc: &Scope<'a>, st: &mut KState) {
        if let Some(s) = subs.iter().find(|s| matches!(s.kind, ExprKind::Triplet(..) | ExprKind::Star)) {
            self.problems
                .push(Problem { span: s.span, msg: format!("array section `{name}(...:...)`: Fortran array syntax is not modelled (write the loop)") });
        }
        let mut bytes = 8.0;
        let index = (|| {
            let (dims, b) = self.dims(name, sc)?;
            bytes = b;
            if dims.is_empty() || subs.len() == 1 && dims.len() <= 1 {
                // pointer or 1-D: the subscript itself (C from 0; Fortran relative to the lower bound)
                let p = self.to_poly(subs[0], sc)?;
                return Some(p);
            }
            if dims.len() != subs.len() {
                return None;
            }
            // storage order: C last subscript fastest, Fortran first
            let order: Vec<usize> = if self.lang() == Lang::C { (0..subs.len()).rev().collect() } else { (0..subs.len()).collect() };
            let mut stride = Poly::constant(1.0);
            let mut lin = Poly::default();
            for (k, &d) in order.iter().enumerate() {
                let x = self.to_poly(subs[d], sc)?;
                lin = lin.add(&x.mul(&stride));
                if k + 1 < order.len() {
                    let (ext, _) = dims[d].clone()?;
                    stride = stride.mul(&ext);
                }
            }
            Some(lin)
        })();
        st.k.refs.push(Ref { array: sc.name(name), index, store, elem_bytes: bytes });
    }

    /// `lhs = rhs` or `lhs op= rhs`.
    fn assign(&mut self, op: Option<BinOp>, l: &Expr, r: &Expr, sc: &Scope<'a>, st: &mut KState) {
        let mut d = self.expr(r, sc, st, false);
        let float = self.is_float(l, sc);
        if let Some(op) = op {
            // a compound assignment reads its target
            let dl = self.expr(l, sc, st, false);
            merge(&mut d, &dl);
            if float {
                self.count_op(op, st);
                bump(&mut d, self.latency(op));
            }
        }
        match lhs_target(l, self.lang(), &|n| self.is_array(&norm(self.lang(), n), sc)) {
            Target::Scalar(n) if self.lang().is_fortran() && self.is_array(&norm(self.lang(), n), sc) => {
                self.problems
                    .push(Problem { span: l.span, msg: format!("whole-array assignment to `{n}`: Fortran array syntax is not modelled (write the loop)") });
            }
            Target::Scalar(n) => {
                let n = sc.name(&norm(self.lang(), n));
                // `s = s + x` (or `s += x`) is a reduction chain
                let red = op.is_some_and(|o| matches!(o, BinOp::Add | BinOp::Sub)) || reads_plus(r, &n, sc, self.lang());
                let was = st.reduction.get(&n).copied().unwrap_or(true);
                st.reduction.insert(n.clone(), was && red);
                st.dep.insert(n, d);
            }
            Target::Array(name, subs) => {
                for s in &subs {
                    self.expr(s, sc, st, true);
                }
                self.array_ref(&norm(self.lang(), name), &subs, true, sc, st);
            }
            Target::Other => {}
        }
    }

    fn latency(&self, op: BinOp) -> f64 {
        match op {
            BinOp::Mul => self.core.mul_latency,
            BinOp::Div => self.core.div_latency,
            _ => self.core.add_latency,
        }
    }

    fn count_op(&self, op: BinOp, st: &mut KState) {
        match op {
            BinOp::Add | BinOp::Sub => st.k.ops.add += 1.0,
            BinOp::Mul => st.k.ops.mul += 1.0,
            BinOp::Div => st.k.ops.div += 1.0,
            BinOp::Pow => st.k.ops.mul += 1.0,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => st.k.ops.add += 1.0,
            _ => {}
        }
    }

    /// Counts an expression's operations and references; returns its dependences on the
    /// iteration's carried variables. `sub`: inside a subscript (integer address
    /// arithmetic, not counted).
    fn expr(&mut self, e: &Expr, sc: &Scope<'a>, st: &mut KState, sub: bool) -> Dep {
        match &e.kind {
            ExprKind::Ident(n) => {
                let n = sc.name(&norm(self.lang(), n));
                match st.dep.get(&n) {
                    Some(d) => d.clone(),
                    None => Dep::from([(n, 0.0)]),
                }
            }
            ExprKind::Int(_) | ExprKind::Real(_) | ExprKind::Str(_) | ExprKind::Char(_) | ExprKind::Logical(_) | ExprKind::SizeOf(_) => Dep::new(),
            ExprKind::Unary(op, a) => {
                let d = self.expr(a, sc, st, sub);
                if matches!(op, UnOp::PostInc | UnOp::PreInc | UnOp::PostDec | UnOp::PreDec) {
                    if let Some(n) = a.ident() {
                        let n = sc.name(&norm(self.lang(), n));
                        st.dep.insert(n, d.clone());
                    }
                }
                d
            }
            ExprKind::Cast(t, a) => {
                let mut d = self.expr(a, sc, st, sub);
                if !sub && !is_float_type(t) && self.is_float(a, sc) {
                    st.k.ops.convert += 1.0;
                    bump(&mut d, self.core.convert_latency);
                }
                d
            }
            ExprKind::Binary(..) if !sub && !self.variant.is_empty() && self.invariant(e, sc) => Dep::new(),
            ExprKind::Binary(op, a, b) => {
                let mut d = self.expr(a, sc, st, sub);
                let d2 = self.expr(b, sc, st, sub);
                merge(&mut d, &d2);
                if !sub && self.is_float(e, sc) {
                    self.count_op(*op, st);
                    bump(&mut d, self.latency(*op));
                }
                d
            }
            ExprKind::Assign(op, l, r) => {
                self.assign(*op, l, r, sc, st);
                Dep::new()
            }
            ExprKind::Cond(c, a, b) => {
                st.k.branches = true;
                let mut d = self.expr(c, sc, st, sub);
                merge(&mut d, &self.expr(a, sc, st, sub));
                merge(&mut d, &self.expr(b, sc, st, sub));
                d
            }
            ExprKind::Index(b, i) => {
                // C a[i][j]: collect the subscripts
                let mut subs = vec![&**i];
                let mut x = &**b;
                while let ExprKind::Index(bb, ii) = &x.kind {
                    subs.push(ii);
                    x = bb;
                }
                subs.reverse();
                for s in &subs {
                    self.expr(s, sc, st, true);
                }
                if let Some(n) = x.ident() {
                    self.array_ref(&norm(self.lang(), n), &subs, false, sc, st);
                }
                Dep::new()
            }
            ExprKind::Call(c, args) => {
                let Some(n) = c.ident().map(|n| norm(self.lang(), n)) else { return Dep::new() };
                if self.lang().is_fortran() && self.is_array(&n, sc) {
                    let subs: Vec<&Expr> = args.iter().collect();
                    for s in &subs {
                        self.expr(s, sc, st, true);
                    }
                    self.array_ref(&n, &subs, false, sc, st);
                    return Dep::new();
                }
                let mut d = Dep::new();
                for a in args {
                    merge(&mut d, &self.expr(a, sc, st, sub));
                }
                if sub {
                    return d;
                }
                match n.as_str() {
                    "sqrt" | "dsqrt" => {
                        st.k.ops.sqrt += 1.0;
                        bump(&mut d, self.core.sqrt_latency);
                    }
                    "fabs" | "abs" | "dabs" | "dble" | "real" | "double" | "float" => {}
                    "aint" | "int" | "nint" | "floor" | "ceil" | "trunc" | "dint" => {
                        st.k.ops.convert += 1.0;
                        bump(&mut d, self.core.convert_latency);
                    }
                    "max" | "min" | "fmax" | "fmin" | "dmax1" | "dmin1" => {
                        st.k.ops.add += (args.len().max(2) - 1) as f64;
                        bump(&mut d, self.core.add_latency);
                    }
                    "mod" => {}
                    "log" | "exp" | "pow" | "sin" | "cos" | "tan" | "atan" | "dlog" | "dexp" | "log10" | "atan2" | "erf" => {
                        st.k.ops.libm += 1.0;
                        st.k.calls = true;
                        bump(&mut d, self.core.libm_cycles);
                    }
                    _ => {
                        if let Some(f) = self.funcs.get(&n).copied() {
                            st.k.calls = true;
                            return self.inline_value(f, args, sc, st);
                        }
                        self.notes.push(format!("call of `{n}` (not in the file) costs nothing"));
                    }
                }
                d
            }
            ExprKind::Member { base, .. } => self.expr(base, sc, st, sub),
            _ => Dep::new(),
        }
    }

    /// A callee inlined into a loop: what it assigns changes in the nest.
    fn add_variant(&mut self, f: &'a Function, inner: &Scope<'a>) {
        if self.variant.is_empty() {
            return;
        }
        for s in &f.body {
            s.walk(&mut |x| {
                let t = match &x.kind {
                    StmtKind::Assign(l, _) => l.ident(),
                    StmtKind::Expr(Expr { kind: ExprKind::Assign(_, l, _), .. }) => l.ident(),
                    _ => None,
                };
                if let Some(n) = t {
                    self.variant.insert(inner.name(&norm(self.unit.lang, n)));
                }
            });
        }
    }

    /// Reads no array, calls nothing and reads no name that changes in the nest.
    fn invariant(&self, e: &Expr, sc: &Scope<'a>) -> bool {
        let mut inv = true;
        xmpc_passes::blocks::walk::visit_expr(e, &mut |x| match &x.kind {
            ExprKind::Ident(n) if self.variant.contains(&sc.name(&norm(self.lang(), n))) => {
                inv = false;
            }
            ExprKind::Index(..)
            | ExprKind::Call(..)
            | ExprKind::Assign(..)
            | ExprKind::Unary(UnOp::PostInc | UnOp::PreInc | UnOp::PostDec | UnOp::PreDec | UnOp::Deref, _) => inv = false,
            _ => {}
        });
        inv
    }

    /// A C expression statement that calls a function of the file holding loops.
    fn call_stmt_expr(&mut self, e: &Expr, sc: &Scope<'a>, loops: &[(String, E)], out: &mut Vec<Nest>, st: &mut KState, depth: usize) -> Option<()> {
        let ExprKind::Call(c, args) = &e.kind else { return None };
        let f = self.funcs.get(&norm(self.lang(), c.ident()?)).copied()?;
        self.inline(f, args, sc, loops, out, st, depth);
        Some(())
    }

    fn callee_scope(&self, f: &'a Function, args: &[Expr], sc: &Scope<'a>) -> Scope<'a> {
        let prefix = format!("{}{}.", sc.prefix, f.name);
        let mut rename = HashMap::new();
        let mut values = HashMap::new();
        for (k, &p) in f.params.iter().enumerate() {
            let pn = norm(self.lang(), &f.symbols.get(p).name);
            let Some(a) = args.get(k) else { continue };
            let a = match &a.kind {
                ExprKind::Unary(UnOp::AddrOf, x) => &**x,
                _ => a,
            };
            match a.ident() {
                Some(n) => {
                    rename.insert(pn, sc.name(&norm(self.lang(), n)));
                }
                None => {
                    if let Some(v) = self.to_e(a, sc) {
                        values.insert(pn, v);
                    }
                }
            }
        }
        Scope { func: f, rename, values, prefix }
    }

    /// Inlines a procedure called as a statement (its loops become nests).
    #[allow(clippy::too_many_arguments)]
    fn inline(&mut self, f: &'a Function, args: &[Expr], sc: &Scope<'a>, loops: &[(String, E)], out: &mut Vec<Nest>, st: &mut KState, depth: usize) {
        if depth > 8 {
            self.notes.push(format!("call of `{}` nested too deep: not counted", f.name));
            return;
        }
        let inner = self.callee_scope(f, args, sc);
        self.add_variant(f, &inner);
        for a in args {
            self.expr(a, sc, st, false);
        }
        let stmts: Vec<&'a Stmt> = f.body.iter().collect();
        let mut first = None;
        for s in stmts {
            self.stmt(s, &inner, loops, out, st, &mut first, depth + 1);
        }
    }

    /// Inlines a function referenced in an expression: its straight-line body joins the
    /// caller's iteration; the value's dependences are the result variable's.
    fn inline_value(&mut self, f: &'a Function, args: &[Expr], sc: &Scope<'a>, st: &mut KState) -> Dep {
        let inner = self.callee_scope(f, args, sc);
        self.add_variant(f, &inner);
        // arguments that are expressions: their dependences
        let mut d = Dep::new();
        for a in args {
            merge(&mut d, &self.expr(a, sc, st, false));
        }
        let mut out = Vec::new();
        let mut first = None;
        for s in &f.body {
            if walk_has_loop(s) {
                self.problems.push(Problem { span: s.span, msg: format!("function `{}` referenced in an expression holds a loop: not modelled", f.name) });
                return d;
            }
            self.stmt(s, &inner, &[], &mut out, st, &mut first, 1);
        }
        let rv = inner.name(&norm(self.lang(), &f.name));
        st.dep.get(&rv).cloned().unwrap_or(d)
    }
}

impl<'a> Scope<'a> {
    /// A name of this scope as the caller sees it.
    fn name(&self, n: &str) -> String {
        if let Some(r) = self.rename.get(n) {
            return r.clone();
        }
        format!("{}{n}", self.prefix)
    }
}

fn walk_has_loop(s: &Stmt) -> bool {
    let mut l = false;
    s.walk(&mut |x| l |= matches!(x.kind, StmtKind::For { .. } | StmtKind::Do { .. } | StmtKind::While { .. } | StmtKind::DoWhile { .. }));
    l
}

fn finish(st: KState, loops: Vec<(String, E)>, span: Span) -> Nest {
    let mut k = st.k;
    let mut red_only = true;
    for (v, d) in &st.dep {
        if let Some(&l) = d.get(v) {
            if l > k.recurrence {
                k.recurrence = l;
            }
            if l > 0.0 && !st.reduction.get(v).copied().unwrap_or(false) {
                red_only = false;
            }
        }
    }
    k.reduction_only = red_only;
    Nest { loops, kernel: k, span, const_trip: false }
}

fn merge(a: &mut Dep, b: &Dep) {
    for (k, v) in b {
        let e = a.entry(k.clone()).or_insert(f64::NEG_INFINITY);
        if *v > *e {
            *e = *v;
        }
    }
}

fn bump(d: &mut Dep, l: f64) {
    d.values_mut().for_each(|v| *v += l);
}

/// `r` is `n + x`, `x + n` or `n - x` (a reduction update of `n`).
fn reads_plus(r: &Expr, n: &str, sc: &Scope, lang: Lang) -> bool {
    match &r.kind {
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => {
            let is = |e: &Expr| e.ident().is_some_and(|x| sc.name(&norm(lang, x)) == n);
            is(a) || is(b) || reads_plus(a, n, sc, lang)
        }
        _ => false,
    }
}

enum Target<'e> {
    Scalar(&'e str),
    Array(&'e str, Vec<&'e Expr>),
    Other,
}

fn lhs_target<'e>(l: &'e Expr, lang: Lang, is_array: &dyn Fn(&str) -> bool) -> Target<'e> {
    match &l.kind {
        ExprKind::Ident(n) => Target::Scalar(n),
        ExprKind::Index(..) => {
            let mut subs = vec![];
            let mut x = l;
            while let ExprKind::Index(bb, ii) = &x.kind {
                subs.push(&**ii);
                x = bb;
            }
            subs.reverse();
            match x.ident() {
                Some(n) => Target::Array(n, subs),
                None => Target::Other,
            }
        }
        ExprKind::Call(c, args) if lang.is_fortran() => match c.ident() {
            Some(n) if is_array(n) => Target::Array(n, args.iter().collect()),
            _ => Target::Other,
        },
        ExprKind::Unary(UnOp::Deref, _) => Target::Other,
        _ => Target::Other,
    }
}

fn base(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Ident(n) => Some(n),
        ExprKind::Index(b, _) => base(b),
        _ => None,
    }
}

pub fn norm(lang: Lang, n: &str) -> String {
    if lang == Lang::C {
        n.to_string()
    } else {
        n.to_ascii_lowercase()
    }
}

fn parse_int(s: &str) -> Option<f64> {
    let t = s.split('_').next()?.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return i64::from_str_radix(h, 16).ok().map(|x| x as f64);
    }
    t.parse::<i64>().ok().map(|x| x as f64)
}

fn is_float_type(t: &str) -> bool {
    let t = t.to_ascii_lowercase();
    t.contains("double") || t.contains("float") || t.starts_with("real") || t.contains("complex")
}

fn elem_bytes(t: &Type) -> f64 {
    match t {
        Type::Basic(b) => {
            let b = b.to_ascii_lowercase();
            if b.contains("double") || b.contains("(8)") || b.contains("kind=8") || b.contains("long") || b.contains("int64") {
                8.0
            } else if b == "real" || b.contains("float") || b.contains("int") || b.contains("integer") {
                4.0
            } else if b.contains("char") {
                1.0
            } else {
                8.0
            }
        }
        _ => 8.0,
    }
}

/// Converts a closed form to a polynomial when it is one.
fn e_to_poly(e: &E) -> Option<Poly> {
    Some(match e {
        E::Num(x) => Poly::constant(*x),
        E::Var(v) => Poly::var(v),
        E::Add(v) => v.iter().try_fold(Poly::default(), |a, x| Some(a.add(&e_to_poly(x)?)))?,
        E::Mul(v) => v.iter().try_fold(Poly::constant(1.0), |a, x| Some(a.mul(&e_to_poly(x)?)))?,
        E::Div(a, b) => match **b {
            E::Num(d) if d != 0.0 => e_to_poly(a)?.scale(1.0 / d),
            _ => return None,
        },
        _ => return None,
    })
}

impl<'a> Counter<'a> {
    /// Trip count of a loop statement of function `func` (None when not countable).
    pub fn trip_of(&mut self, func: &str, s: &'a Stmt) -> Option<E> {
        let f = self.funcs.get(&norm(self.lang(), func)).copied()?;
        let sc = Scope { func: f, rename: HashMap::new(), values: HashMap::new(), prefix: String::new() };
        match &s.kind {
            StmtKind::For { init, cond, step, .. } => self.c_trip(init.as_deref(), cond.as_ref(), step.as_ref(), &sc).map(|x| x.1),
            StmtKind::Do { lower, upper, step, .. } => {
                let st = match step {
                    None => 1.0,
                    Some(e) => match self.to_e(e, &sc)? {
                        E::Num(n) if n != 0.0 => n,
                        _ => return None,
                    },
                };
                let (lo, hi) = (self.to_e(lower, &sc)?, self.to_e(upper, &sc)?);
                Some(E::max(E::div(E::add(E::sub(hi, lo), E::num(st)), E::num(st)), E::num(0.0)))
            }
            _ => None,
        }
    }
}

/// `(x(n, 0:m+1), y(...))` → the (lower, upper) texts of `name`'s dimensions.
fn parse_allocate(t: &str, name: &str) -> Option<Vec<(Option<String>, String)>> {
    let t = t.trim_start().strip_prefix('(')?;
    // split the top-level list
    let mut depth = 0;
    let mut items = vec![String::new()];
    for c in t.chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        items.last_mut()?.push(c);
    }
    for it in items {
        let it = it.trim();
        let Some(p) = it.find('(') else { continue };
        if it[..p].trim() != name {
            continue;
        }
        let inner = it[p + 1..].strip_suffix(')')?;
        let mut dims = Vec::new();
        let mut depth = 0;
        let mut cur = String::new();
        for c in inner.chars().chain(std::iter::once(',')) {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    let d = std::mem::take(&mut cur);
                    match d.split_once(':') {
                        Some((a, b)) => dims.push((Some(a.trim().to_string()), b.trim().to_string())),
                        None => dims.push((None, d.trim().to_string())),
                    }
                    continue;
                }
                _ => {}
            }
            cur.push(c);
        }
        return Some(dims);
    }
    None
}

/// A polynomial from source text: names, integers, + - * (and / by an integer), parentheses.
pub fn text_poly(t: &str) -> Option<Poly> {
    struct Polys;
    impl crate::text::Algebra for Polys {
        type V = Poly;
        fn word(&self, w: &str) -> Option<Poly> {
            if w.as_bytes()[0].is_ascii_digit() {
                // a Fortran kind suffix (8_8) is dropped
                return w.split('_').next()?.parse::<f64>().ok().map(Poly::constant);
            }
            Some(Poly::var(w))
        }
        fn add(&self, a: Poly, b: Poly) -> Option<Poly> {
            Some(a.add(&b))
        }
        fn sub(&self, a: Poly, b: Poly) -> Option<Poly> {
            Some(a.sub(&b))
        }
        fn mul(&self, a: Poly, b: Poly) -> Option<Poly> {
            Some(a.mul(&b))
        }
        fn div(&self, a: Poly, b: Poly) -> Option<Poly> {
            Some(a.scale(1.0 / b.as_const()?))
        }
        fn neg(&self, a: Poly) -> Option<Poly> {
            Some(a.scale(-1.0))
        }
    }
    crate::text::parse(t, &Polys)
}
