//! Values of program variables for `xmpc psim predict`: `#define`s of the source, `-D`
//! definitions, `--set` values, the rank and process count, and the straight-line
//! assignments of the block's function before the block (C integer semantics).

use std::collections::{HashMap, HashSet};

use xmpc_ir::{BinOp, Expr, ExprKind, FileUnit, Lang, Stmt, StmtKind, UnOp};

use crate::count::norm;
use crate::sym::Env;

/// A value with C's distinction between integers and reals.
#[derive(Copy, Clone, Debug, PartialEq)]
enum V {
    I(i64),
    R(f64),
}

impl V {
    fn f(self) -> f64 {
        match self {
            V::I(i) => i as f64,
            V::R(r) => r,
        }
    }
}

pub struct Values {
    pub env: Env,
    /// Names fixed by the user (`--set`, `-D`): assignments do not change them.
    pub fixed: HashSet<String>,
    ints: HashSet<String>,
}

impl Values {
    /// `#define NAME VALUE` lines of C source (numbers and expressions of earlier ones).
    pub fn new(src: &str, lang: Lang, defines: &[(String, String)], sets: &[(String, String)], np: u32, rank: u32) -> Result<Values, String> {
        let mut v = Values { env: Env::new(), fixed: HashSet::new(), ints: HashSet::new() };
        for (k, x) in defines.iter().chain(sets.iter()) {
            let val = v.eval_text(x).ok_or_else(|| format!("`{k}={x}`: not a number or an expression of known names"))?;
            let k = norm(lang, k);
            v.env.insert(k.clone(), val);
            v.fixed.insert(k.clone());
            if val == val.trunc() {
                v.ints.insert(k);
            }
        }
        if lang == Lang::C {
            for l in src.lines() {
                let t = l.trim_start();
                let Some(rest) = t.strip_prefix("#define ").or_else(|| t.strip_prefix("# define ")) else { continue };
                let rest = rest.trim();
                let (name, body) = match rest.find(|c: char| c.is_whitespace()) {
                    Some(p) => (&rest[..p], rest[p..].trim()),
                    None => continue,
                };
                if name.contains('(') || v.fixed.contains(name) {
                    continue;
                }
                if let Some(x) = v.eval_text(body) {
                    v.env.insert(name.to_string(), x);
                    v.ints.insert(name.to_string());
                }
            }
        }
        for (n, x) in [("size", np), ("nprocs", np), ("np", np), ("rank", rank), ("myrank", rank)] {
            if !v.fixed.contains(n) {
                v.env.insert(n.into(), x as f64);
            }
        }
        Ok(v)
    }

    /// A number or an arithmetic expression over known names (`-D N=40`, `NX N`).
    fn eval_text(&self, t: &str) -> Option<f64> {
        eval_text_in(&self.env, t)
    }

    /// Runs the straight-line assignments of `body` that end before `until` (top level and
    /// the bodies of statements whose condition is known).
    pub fn run(&mut self, unit: &FileUnit, src: &str, body: &[Stmt], symbols: &xmpc_ir::SymbolTable, until: usize) {
        for s in body {
            if s.span.start >= until {
                break;
            }
            self.stmt(unit, src, s, symbols, until);
        }
    }

    fn stmt(&mut self, unit: &FileUnit, src: &str, s: &Stmt, symbols: &xmpc_ir::SymbolTable, until: usize) {
        let lang = unit.lang;
        match &s.kind {
            StmtKind::Decl(ids) => {
                for &id in ids {
                    let sym = symbols.get(id);
                    let n = norm(lang, &sym.name);
                    if let Some(xmpc_ir::Type::Basic(b)) = unit.types.types.get(sym.ty) {
                        let b = b.to_ascii_lowercase();
                        if b.contains("int") || b.contains("long") {
                            self.ints.insert(n.clone());
                        }
                    }
                    if let Some(init) = &sym.init {
                        if sym.attrs.iter().any(|a| a == "parameter") || lang == Lang::C {
                            if let Some(x) = self.eval(init, lang) {
                                self.set(&n, x);
                            }
                        }
                    }
                }
            }
            StmtKind::Assign(l, r) => {
                if let (Some(n), Some(x)) = (l.ident(), self.eval(r, lang)) {
                    self.set(&norm(lang, n), x);
                }
            }
            StmtKind::Expr(e) => {
                if let ExprKind::Assign(None, l, r) = &e.kind {
                    if let (Some(n), Some(x)) = (l.ident(), self.eval(r, lang)) {
                        self.set(&norm(lang, n), x);
                    }
                }
            }
            StmtKind::Compound(v) => self.run(unit, src, v, symbols, until),
            StmtKind::If { cond, then, els } => match self.eval(cond, lang).map(|v| v.f() != 0.0) {
                Some(true) => self.stmt(unit, src, then, symbols, until),
                Some(false) => {
                    if let Some(e) = els {
                        self.stmt(unit, src, e, symbols, until)
                    }
                }
                None => {
                    // a branch that may or may not run: what it assigns is unknown after it
                    for st in [Some(&**then), els.as_deref()].into_iter().flatten() {
                        self.forget(st, src, lang);
                    }
                }
            },
            // loops and calls: what they assign is unknown after them
            _ => self.forget(s, src, lang),
        }
    }

    fn forget(&mut self, s: &Stmt, src: &str, lang: Lang) {
        s.walk(&mut |x| {
            let target = match &x.kind {
                StmtKind::Assign(l, _) => l.ident(),
                StmtKind::Expr(Expr { kind: ExprKind::Assign(_, l, _), .. }) => l.ident(),
                _ => None,
            };
            if let Some(n) = target {
                let n = norm(lang, n);
                if !self.fixed.contains(&n) {
                    self.env.remove(&n);
                }
            }
            if let StmtKind::Verbatim = x.kind {
                // `read(arg, *) n` and the like are kept as text
                for n in xmpc_passes::blocks::walk::verbatim_writes(src.get(x.span.range()).unwrap_or("")) {
                    let n = norm(lang, n);
                    if !self.fixed.contains(&n) {
                        self.env.remove(&n);
                    }
                }
            }
            if let StmtKind::Call { args, .. } = &x.kind {
                for a in args {
                    if let Some(n) = a.ident() {
                        let n = norm(lang, n);
                        if !self.fixed.contains(&n) && !matches!(n.as_str(), "size" | "rank" | "np" | "nprocs" | "myrank") {
                            self.env.remove(&n);
                        }
                    }
                }
            }
        });
    }

    fn set(&mut self, n: &str, x: V) {
        if self.fixed.contains(n) {
            return;
        }
        let x = if self.ints.contains(n) { V::I(x.f().trunc() as i64) } else { x };
        self.env.insert(n.to_string(), x.f());
    }

    fn get(&self, n: &str) -> Option<V> {
        let x = *self.env.get(n)?;
        // variables declared integer (and integral -D/--set/#define values) take integer arithmetic
        Some(if self.ints.contains(n) { V::I(x as i64) } else { V::R(x) })
    }

    fn eval(&self, e: &Expr, lang: Lang) -> Option<V> {
        Some(match &e.kind {
            ExprKind::Int(s) => V::I(s.split('_').next()?.trim_end_matches(['u', 'U', 'l', 'L']).parse().ok()?),
            ExprKind::Real(s) => V::R(s.to_ascii_lowercase().replace('d', "e").trim_end_matches(['f', 'l']).parse().ok()?),
            ExprKind::Ident(n) => self.get(&norm(lang, n))?,
            ExprKind::Unary(UnOp::Neg, a) => match self.eval(a, lang)? {
                V::I(i) => V::I(-i),
                V::R(r) => V::R(-r),
            },
            ExprKind::Unary(UnOp::Plus, a) => self.eval(a, lang)?,
            ExprKind::Unary(UnOp::Not, a) => V::I((self.eval(a, lang)?.f() == 0.0) as i64),
            ExprKind::Cast(t, a) => {
                let x = self.eval(a, lang)?;
                if t.contains("double") || t.contains("float") {
                    V::R(x.f())
                } else {
                    V::I(x.f().trunc() as i64)
                }
            }
            ExprKind::Cond(c, a, b) => {
                if self.eval(c, lang)?.f() != 0.0 {
                    self.eval(a, lang)?
                } else {
                    self.eval(b, lang)?
                }
            }
            ExprKind::Call(c, args) if args.len() == 2 && matches!(c.ident().map(|n| n.to_ascii_lowercase()).as_deref(), Some("mod" | "min" | "max")) => {
                let (x, y) = (self.eval(&args[0], lang)?, self.eval(&args[1], lang)?);
                match (c.ident()?.to_ascii_lowercase().as_str(), x, y) {
                    ("mod", V::I(p), V::I(q)) => V::I(p.checked_rem(q)?),
                    ("min", V::I(p), V::I(q)) => V::I(p.min(q)),
                    ("max", V::I(p), V::I(q)) => V::I(p.max(q)),
                    ("min", _, _) => V::R(x.f().min(y.f())),
                    ("max", _, _) => V::R(x.f().max(y.f())),
                    _ => return None,
                }
            }
            ExprKind::Call(c, args)
                if args.len() == 1 && matches!(c.ident().map(|n| n.to_ascii_lowercase()).as_deref(), Some("dble" | "real" | "sqrt" | "int")) =>
            {
                let x = self.eval(&args[0], lang)?.f();
                match c.ident()?.to_ascii_lowercase().as_str() {
                    "sqrt" => V::R(x.sqrt()),
                    "int" => V::I(x.trunc() as i64),
                    _ => V::R(x),
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(a, lang)?, self.eval(b, lang)?);
                let cmp = |c: bool| V::I(c as i64);
                match (op, x, y) {
                    (BinOp::Add, V::I(p), V::I(q)) => V::I(p.checked_add(q)?),
                    (BinOp::Sub, V::I(p), V::I(q)) => V::I(p.checked_sub(q)?),
                    (BinOp::Mul, V::I(p), V::I(q)) => V::I(p.checked_mul(q)?),
                    (BinOp::Div, V::I(p), V::I(q)) => V::I(p.checked_div(q)?),
                    (BinOp::Rem, V::I(p), V::I(q)) => V::I(p.checked_rem(q)?),
                    (BinOp::Pow, V::I(p), V::I(q)) if q >= 0 => V::I(p.checked_pow(q as u32)?),
                    (BinOp::Add, _, _) => V::R(x.f() + y.f()),
                    (BinOp::Sub, _, _) => V::R(x.f() - y.f()),
                    (BinOp::Mul, _, _) => V::R(x.f() * y.f()),
                    (BinOp::Div, _, _) => V::R(x.f() / y.f()),
                    (BinOp::Pow, _, _) => V::R(x.f().powf(y.f())),
                    (BinOp::Lt, _, _) => cmp(x.f() < y.f()),
                    (BinOp::Le, _, _) => cmp(x.f() <= y.f()),
                    (BinOp::Gt, _, _) => cmp(x.f() > y.f()),
                    (BinOp::Ge, _, _) => cmp(x.f() >= y.f()),
                    (BinOp::Eq, _, _) => cmp(x.f() == y.f()),
                    (BinOp::Ne, _, _) => cmp(x.f() != y.f()),
                    (BinOp::And, _, _) => cmp(x.f() != 0.0 && y.f() != 0.0),
                    (BinOp::Or, _, _) => cmp(x.f() != 0.0 || y.f() != 0.0),
                    _ => return None,
                }
            }
            _ => return None,
        })
    }
}

/// The value of `t` (a `-D`/`#define` value) with the names of `env`.
pub(crate) fn eval_text_in(env: &HashMap<String, f64>, t: &str) -> Option<f64> {
    crate::text::parse(t, &Numbers(env))
}

/// `-D`/`#define` values: numbers (C suffixes `u`/`l` and Fortran `d` exponents read),
/// names already known, C integer division of integer values.
struct Numbers<'a>(&'a HashMap<String, f64>);

impl crate::text::Algebra for Numbers<'_> {
    type V = f64;
    fn word(&self, w: &str) -> Option<f64> {
        if w.as_bytes()[0].is_ascii_digit() || w.starts_with('.') {
            return w.trim_end_matches(['u', 'U', 'l', 'L']).replace(['d', 'D'], "e").parse().ok();
        }
        self.0.get(w).copied()
    }
    fn add(&self, a: f64, b: f64) -> Option<f64> {
        Some(a + b)
    }
    fn sub(&self, a: f64, b: f64) -> Option<f64> {
        Some(a - b)
    }
    fn mul(&self, a: f64, b: f64) -> Option<f64> {
        Some(a * b)
    }
    fn div(&self, x: f64, y: f64) -> Option<f64> {
        Some(if x == x.trunc() && y == y.trunc() { (x / y).trunc() } else { x / y })
    }
    fn neg(&self, a: f64) -> Option<f64> {
        Some(-a)
    }
    fn word_extra(&self, c: u8) -> bool {
        c == b'.'
    }
    fn blank(&self, c: u8) -> bool {
        c.is_ascii_whitespace()
    }
}
