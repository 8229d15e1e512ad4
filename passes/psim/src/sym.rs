//! Closed-form expressions over program variables: built by the model, evaluated by
//! `predict` and printed as C or Fortran into skeletons. Polynomials (`Poly`) give the
//! array offsets of the layer conditions.

use std::collections::{BTreeMap, HashMap};
use std::ops::{Add, Div, Mul};

/// The number of ranks on the rank's node, which share its memory bandwidth
/// (`model::mem_share`): `predict --ranks-per-node` (default `min(np, cores)`) gives its
/// value, a skeleton asks BSIM (`BSIM_Node_ranks()`, the platform's `[nodes]`). Not a
/// name a program can declare.
pub const NODE_RANKS: &str = "@node_ranks";

#[derive(Clone, Debug, PartialEq)]
pub enum E {
    Num(f64),
    Var(String),
    Add(Vec<E>),
    Mul(Vec<E>),
    Div(Box<E>, Box<E>),
    Max(Box<E>, Box<E>),
    /// `a <= b ? t : f`
    IfLe(Box<E>, Box<E>, Box<E>, Box<E>),
}

pub type Env = HashMap<String, f64>;

impl E {
    pub fn num(x: f64) -> E {
        E::Num(x)
    }
    pub fn var(s: &str) -> E {
        E::Var(s.to_string())
    }
    fn add_raw(a: E, b: E) -> E {
        match (a, b) {
            (E::Num(x), E::Num(y)) => E::Num(x + y),
            (E::Num(z), o) | (o, E::Num(z)) if z == 0.0 => o,
            (E::Add(mut v), E::Add(w)) => {
                v.extend(w);
                E::Add(v)
            }
            (E::Add(mut v), o) | (o, E::Add(mut v)) => {
                v.push(o);
                E::Add(v)
            }
            (a, b) => E::Add(vec![a, b]),
        }
    }
    pub fn max(a: E, b: E) -> E {
        match (a, b) {
            (E::Num(x), E::Num(y)) => E::Num(x.max(y)),
            (a, b) if a == b => a,
            (a, b) => E::Max(Box::new(a), Box::new(b)),
        }
    }
    pub fn if_le(a: E, b: E, t: E, f: E) -> E {
        if let (E::Num(x), E::Num(y)) = (&a, &b) {
            return if x <= y { t } else { f };
        }
        if t == f {
            return t;
        }
        E::IfLe(Box::new(a), Box::new(b), Box::new(t), Box::new(f))
    }

    /// The value, or the first variable that has none.
    pub fn eval(&self, env: &Env) -> Result<f64, String> {
        Ok(match self {
            E::Num(x) => *x,
            E::Var(v) => *env.get(v).ok_or_else(|| v.clone())?,
            E::Add(v) => v.iter().map(|e| e.eval(env)).sum::<Result<f64, _>>()?,
            E::Mul(v) => v.iter().map(|e| e.eval(env)).product::<Result<f64, _>>()?,
            E::Div(a, b) => a.eval(env)? / b.eval(env)?,
            E::Max(a, b) => a.eval(env)?.max(b.eval(env)?),
            E::IfLe(a, b, t, f) => {
                if a.eval(env)? <= b.eval(env)? {
                    t.eval(env)?
                } else {
                    f.eval(env)?
                }
            }
        })
    }

    /// Variables used, sorted, each once.
    pub fn vars(&self) -> Vec<String> {
        let mut out = Vec::new();
        self.walk(&mut |e| {
            if let E::Var(v) = e {
                if !out.contains(v) {
                    out.push(v.clone());
                }
            }
        });
        out.sort();
        out
    }

    fn walk(&self, f: &mut dyn FnMut(&E)) {
        f(self);
        match self {
            E::Add(v) | E::Mul(v) => v.iter().for_each(|e| e.walk(f)),
            E::Div(a, b) | E::Max(a, b) => {
                a.walk(f);
                b.walk(f);
            }
            E::IfLe(a, b, t, e) => [a, b, t, e].iter().for_each(|x| x.walk(f)),
            _ => {}
        }
    }

    /// Replaces variables by expressions (a callee's parameters by the arguments).
    pub fn subst(&self, m: &HashMap<String, E>) -> E {
        match self {
            E::Var(v) => m.get(v).cloned().unwrap_or_else(|| self.clone()),
            E::Num(_) => self.clone(),
            E::Add(v) => v.iter().fold(E::Num(0.0), |a, e| E::add(a, e.subst(m))),
            E::Mul(v) => v.iter().fold(E::Num(1.0), |a, e| E::mul(a, e.subst(m))),
            E::Div(a, b) => E::div(a.subst(m), b.subst(m)),
            E::Max(a, b) => E::max(a.subst(m), b.subst(m)),
            E::IfLe(a, b, t, f) => E::if_le(a.subst(m), b.subst(m), t.subst(m), f.subst(m)),
        }
    }

    /// C text: every variable converted to double, so integer division and overflow
    /// cannot change the value; no header needed.
    pub fn to_c(&self) -> String {
        self.print(false)
    }
    /// Fortran text (`dble(n)`, `max`, `merge`).
    pub fn to_fortran(&self) -> String {
        self.print(true)
    }

    fn print(&self, f: bool) -> String {
        let num = |x: f64| {
            let s = if x == x.trunc() && x.abs() < 1e15 { format!("{x:.1}") } else { format!("{x:e}") };
            let s = if f {
                if s.contains('e') {
                    s.replace('e', "d")
                } else {
                    format!("{s}d0")
                }
            } else {
                s
            };
            if x < 0.0 {
                format!("({s})")
            } else {
                s
            }
        };
        match self {
            E::Num(x) => num(*x),
            E::Var(v) if v == NODE_RANKS => {
                if f {
                    "dble(bsim_node_ranks())".into()
                } else {
                    "(double)BSIM_Node_ranks()".into()
                }
            }
            E::Var(v) => {
                if f {
                    format!("dble({v})")
                } else {
                    format!("(double)({v})")
                }
            }
            E::Add(v) => format!("({})", v.iter().map(|e| e.print(f)).collect::<Vec<_>>().join(" + ")),
            E::Mul(v) => format!("({})", v.iter().map(|e| e.print(f)).collect::<Vec<_>>().join(" * ")),
            E::Div(a, b) => format!("({} / {})", a.print(f), b.print(f)),
            E::Max(a, b) => {
                if f {
                    format!("max({}, {})", a.print(f), b.print(f))
                } else {
                    let (x, y) = (a.print(f), b.print(f));
                    format!("({x} > {y} ? {x} : {y})")
                }
            }
            E::IfLe(a, b, t, e) => {
                if f {
                    format!("merge({}, {}, {} <= {})", t.print(f), e.print(f), a.print(f), b.print(f))
                } else {
                    format!("({} <= {} ? {} : {})", a.print(f), b.print(f), t.print(f), e.print(f))
                }
            }
        }
    }
}

impl std::fmt::Display for E {
    fn fmt(&self, fm: &mut std::fmt::Formatter) -> std::fmt::Result {
        // A readable form for listings: C without the casts.
        fn p(e: &E) -> String {
            match e {
                E::Num(x) => {
                    if *x == x.trunc() && x.abs() < 1e9 {
                        format!("{x}")
                    } else {
                        format!("{x:.4e}")
                    }
                }
                E::Var(v) => v.clone(),
                E::Add(v) => format!("({})", v.iter().map(p).collect::<Vec<_>>().join(" + ")),
                E::Mul(v) => v.iter().map(p).collect::<Vec<_>>().join("*"),
                E::Div(a, b) => format!("{}/{}", p(a), p(b)),
                E::Max(a, b) => format!("max({}, {})", p(a), p(b)),
                E::IfLe(a, b, t, f) => format!("({} <= {} ? {} : {})", p(a), p(b), p(t), p(f)),
            }
        }
        write!(fm, "{}", p(self))
    }
}

/// A polynomial over variable names with real coefficients (array offsets and
/// strides): monomial (sorted names, repeated for powers) → coefficient.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Poly(pub BTreeMap<Vec<String>, f64>);

impl Poly {
    pub fn constant(c: f64) -> Poly {
        let mut m = BTreeMap::new();
        if c != 0.0 {
            m.insert(vec![], c);
        }
        Poly(m)
    }
    pub fn var(v: &str) -> Poly {
        Poly(BTreeMap::from([(vec![v.to_string()], 1.0)]))
    }
    pub fn add(&self, o: &Poly) -> Poly {
        let mut m = self.0.clone();
        for (k, c) in &o.0 {
            *m.entry(k.clone()).or_insert(0.0) += c;
        }
        m.retain(|_, c| *c != 0.0);
        Poly(m)
    }
    pub fn scale(&self, s: f64) -> Poly {
        Poly(self.0.iter().map(|(k, c)| (k.clone(), c * s)).filter(|(_, c)| *c != 0.0).collect())
    }
    pub fn sub(&self, o: &Poly) -> Poly {
        self.add(&o.scale(-1.0))
    }
    pub fn mul(&self, o: &Poly) -> Poly {
        let mut out = Poly::default();
        for (a, x) in &self.0 {
            for (b, y) in &o.0 {
                let mut k = a.clone();
                k.extend(b.iter().cloned());
                k.sort();
                out = out.add(&Poly(BTreeMap::from([(k, x * y)])));
            }
        }
        out
    }
    pub fn is_zero(&self) -> bool {
        self.0.is_empty()
    }
    pub fn as_const(&self) -> Option<f64> {
        match self.0.len() {
            0 => Some(0.0),
            1 => self.0.get(&vec![]).copied(),
            _ => None,
        }
    }
    /// Highest degree of a monomial.
    pub fn degree(&self) -> usize {
        self.0.keys().map(|k| k.len()).max().unwrap_or(0)
    }
    /// Whether a variable occurs.
    pub fn mentions(&self, v: &str) -> bool {
        self.0.keys().any(|k| k.iter().any(|x| x == v))
    }
    /// The coefficient of `v` (linear in `v`: the terms with one `v`, `v` removed),
    /// and the rest; None when `v` occurs squared.
    pub fn split(&self, v: &str) -> Option<(Poly, Poly)> {
        let mut coef = Poly::default();
        let mut rest = Poly::default();
        for (k, c) in &self.0 {
            let n = k.iter().filter(|x| *x == v).count();
            match n {
                0 => rest = rest.add(&Poly(BTreeMap::from([(k.clone(), *c)]))),
                1 => {
                    let mut k2 = k.clone();
                    let p = k2.iter().position(|x| x == v).unwrap();
                    k2.remove(p);
                    coef = coef.add(&Poly(BTreeMap::from([(k2, *c)])));
                }
                _ => return None,
            }
        }
        Some((coef, rest))
    }
    /// A size for ordering offsets whose variables are unknown: every variable 1000.
    pub fn typical(&self) -> f64 {
        self.0.iter().map(|(k, c)| c * 1000f64.powi(k.len() as i32)).sum()
    }
    pub fn to_e(&self) -> E {
        let mut out = E::Num(0.0);
        for (k, c) in &self.0 {
            let t = k.iter().fold(E::Num(*c), |a, v| E::mul(a, E::var(v)));
            out = E::add(out, t);
        }
        out
    }
}

impl std::ops::Add for E {
    type Output = E;
    fn add(self, b: E) -> E {
        let a = self;
        let r = E::add_raw(a, b);
        // one constant term per sum
        if let E::Add(v) = r {
            let c: f64 = v.iter().filter_map(|e| if let E::Num(x) = e { Some(*x) } else { None }).sum();
            let mut w: Vec<E> = v.into_iter().filter(|e| !matches!(e, E::Num(_))).collect();
            if c != 0.0 {
                w.push(E::Num(c));
            }
            return match w.len() {
                0 => E::Num(0.0),
                1 => w.pop().unwrap(),
                _ => E::Add(w),
            };
        }
        r
    }
}

impl std::ops::Sub for E {
    type Output = E;
    fn sub(self, b: E) -> E {
        let a = self;
        E::add(a, E::mul(E::Num(-1.0), b))
    }
}

impl std::ops::Mul for E {
    type Output = E;
    fn mul(self, b: E) -> E {
        let a = self;
        match (a, b) {
            (E::Num(x), E::Num(y)) => E::Num(x * y),
            (E::Num(z), _) | (_, E::Num(z)) if z == 0.0 => E::Num(0.0),
            (E::Num(o), e) | (e, E::Num(o)) if o == 1.0 => e,
            (E::Mul(mut v), E::Mul(w)) => {
                v.extend(w);
                E::Mul(v)
            }
            (E::Mul(mut v), o) | (o, E::Mul(mut v)) => {
                v.push(o);
                E::Mul(v)
            }
            (a, b) => E::Mul(vec![a, b]),
        }
    }
}

impl std::ops::Div for E {
    type Output = E;
    fn div(self, b: E) -> E {
        let a = self;
        match (a, b) {
            (E::Num(x), E::Num(y)) if y != 0.0 => E::Num(x / y),
            (a, E::Num(1.0)) => a,
            (a, b) => E::Div(Box::new(a), Box::new(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_eval_print() {
        let n = E::var("n");
        let e = E::add(E::mul(E::num(2.0), n.clone()), E::num(1.0));
        let env: Env = [("n".to_string(), 10.0)].into();
        assert_eq!(e.eval(&env).unwrap(), 21.0);
        assert_eq!(e.to_c(), "((2.0 * (double)(n)) + 1.0)");
        assert_eq!(e.to_fortran(), "((2.0d0 * dble(n)) + 1.0d0)");
        let c = E::if_le(n.clone(), E::num(5.0), E::num(1.0), E::num(2.0));
        assert_eq!(c.eval(&env).unwrap(), 2.0);
        assert_eq!(c.to_fortran(), "merge(1.0d0, 2.0d0, dble(n) <= 5.0d0)");
        assert_eq!(E::var("m").eval(&env).unwrap_err(), "m");
        // constant folding
        assert_eq!(E::mul(E::num(0.0), n.clone()), E::num(0.0));
        assert_eq!(E::if_le(E::num(1.0), E::num(2.0), n.clone(), E::num(3.0)), n);
    }

    #[test]
    fn poly_split_and_order() {
        // (i - 1) * w + j
        let p = Poly::var("i").add(&Poly::constant(-1.0)).mul(&Poly::var("w")).add(&Poly::var("j"));
        let (ci, rest) = p.split("i").unwrap();
        assert_eq!(ci, Poly::var("w"));
        assert_eq!(rest, Poly::var("j").sub(&Poly::var("w")));
        assert!(Poly::var("w").typical() > Poly::constant(5.0).typical());
        assert_eq!(Poly::var("i").mul(&Poly::var("i")).split("i"), None);
    }
}
