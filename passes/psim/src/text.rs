//! One recursive-descent parser for the arithmetic PSIM reads from source text (an
//! `allocate` statement's bounds, `-D`/`#define` values): numbers, names, `+ - * /`,
//! unary minus and parentheses, generic over what a value is. `count` builds
//! polynomials with it (`text_poly`), `env` evaluates numbers (`eval_text`).

/// What the parser's values are and how the operators combine them; `None` refuses.
pub trait Algebra {
    type V;
    /// A number or a name (a maximal run of ASCII letters, digits, `_` and
    /// `word_extra` characters).
    fn word(&self, w: &str) -> Option<Self::V>;
    fn add(&self, a: Self::V, b: Self::V) -> Option<Self::V>;
    fn sub(&self, a: Self::V, b: Self::V) -> Option<Self::V>;
    fn mul(&self, a: Self::V, b: Self::V) -> Option<Self::V>;
    fn div(&self, a: Self::V, b: Self::V) -> Option<Self::V>;
    fn neg(&self, a: Self::V) -> Option<Self::V>;
    /// Characters a word may hold besides letters, digits and `_`.
    fn word_extra(&self, _c: u8) -> bool {
        false
    }
    /// Blanks between tokens.
    fn blank(&self, c: u8) -> bool {
        c == b' '
    }
}

/// The value of the whole of `t` (None: not an expression, or refused by the algebra).
pub fn parse<A: Algebra>(t: &str, a: &A) -> Option<A::V> {
    let mut p = Parser { s: t.as_bytes(), i: 0, a };
    let x = p.sum()?;
    p.ws();
    (p.i == p.s.len()).then_some(x)
}

struct Parser<'a, A> {
    s: &'a [u8],
    i: usize,
    a: &'a A,
}

impl<A: Algebra> Parser<'_, A> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.a.blank(self.s[self.i]) {
            self.i += 1;
        }
    }
    fn sum(&mut self) -> Option<A::V> {
        let mut x = self.prod()?;
        loop {
            self.ws();
            match self.s.get(self.i) {
                Some(b'+') => {
                    self.i += 1;
                    let y = self.prod()?;
                    x = self.a.add(x, y)?;
                }
                Some(b'-') => {
                    self.i += 1;
                    let y = self.prod()?;
                    x = self.a.sub(x, y)?;
                }
                _ => return Some(x),
            }
        }
    }
    fn prod(&mut self) -> Option<A::V> {
        let mut x = self.atom()?;
        loop {
            self.ws();
            match self.s.get(self.i) {
                Some(b'*') => {
                    self.i += 1;
                    let y = self.atom()?;
                    x = self.a.mul(x, y)?;
                }
                Some(b'/') => {
                    self.i += 1;
                    let y = self.atom()?;
                    x = self.a.div(x, y)?;
                }
                _ => return Some(x),
            }
        }
    }
    fn atom(&mut self) -> Option<A::V> {
        self.ws();
        let c = *self.s.get(self.i)?;
        if c == b'(' {
            self.i += 1;
            let x = self.sum()?;
            self.ws();
            if self.s.get(self.i) != Some(&b')') {
                return None;
            }
            self.i += 1;
            return Some(x);
        }
        if c == b'-' {
            self.i += 1;
            let x = self.atom()?;
            return self.a.neg(x);
        }
        let st = self.i;
        while self.i < self.s.len() && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_' || self.a.word_extra(self.s[self.i])) {
            self.i += 1;
        }
        let w = std::str::from_utf8(&self.s[st..self.i]).ok()?;
        if w.is_empty() {
            return None;
        }
        self.a.word(w)
    }
}

#[cfg(test)]
mod tests {
    use crate::count::text_poly;
    use crate::sym::Poly;

    #[test]
    fn polynomials_and_numbers_from_one_parser() {
        // count's algebra: names stay names, / only by a constant, kinds dropped
        let p = text_poly("2*(n + 1) - m/2").unwrap();
        let want = Poly::var("n").scale(2.0).add(&Poly::constant(2.0)).sub(&Poly::var("m").scale(0.5));
        assert_eq!(p, want);
        assert_eq!(text_poly("-(8_8)"), Some(Poly::constant(-8.0)));
        assert_eq!(text_poly("n / m"), None);
        assert_eq!(text_poly("n +"), None);
        assert_eq!(text_poly("(n"), None);
        // env's algebra: known names, C integer division, 1.5d0, whitespace
        let env: std::collections::HashMap<String, f64> = [("N".to_string(), 40.0)].into();
        let v = crate::env::eval_text_in(&env, "(N + 2)\t* 3 / 4 + 1.5d0");
        assert_eq!(v, Some(31.0 + 1.5));
        assert_eq!(crate::env::eval_text_in(&env, "M + 1"), None);
    }
}
