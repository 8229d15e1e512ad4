//! Tokens of the directive language. Spans here are offsets into the directive text
//! (the parser maps them to the original file).

use super::PErr;
use xmpc_ir::directive::DirLang;
use xmpc_ir::Span;

#[derive(Clone, Debug, PartialEq)]
pub enum TokKind {
    Ident(String),
    Int(String),
    Real(String),
    Str(String),
    Char(String),
    /// Operators and punctuation.
    Punct(&'static str),
    /// Fortran `.and.`, `.eq.`, `.true.` ...: the word between the dots, lower case.
    DotOp(String),
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Tok {
    pub kind: TokKind,
    pub span: Span,
}

impl Tok {
    /// For messages: `'('`, `identifier 'foo'`, `end of directive`.
    pub fn describe(&self) -> String {
        match &self.kind {
            TokKind::Ident(s) => format!("identifier '{s}'"),
            TokKind::Int(s) | TokKind::Real(s) => format!("number '{s}'"),
            TokKind::Str(_) | TokKind::Char(_) => "a string literal".into(),
            TokKind::Punct(p) => format!("'{p}'"),
            TokKind::DotOp(w) => format!("'.{w}.'"),
            TokKind::Eof => "end of directive".into(),
        }
    }
}

const C_PUNCT: &[&str] = &[
    "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "::", "(", ")", "[", "]", ",", ":", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~",
    "<", ">", "=", "?", ".",
];
const F_PUNCT: &[&str] = &["**", "//", "/=", "==", "<=", ">=", "::", "=>", "(", ")", "[", "]", ",", ":", "+", "-", "*", "/", "%", "<", ">", "="];

/// Fortran dot-operators and logical literals.
const DOT_WORDS: &[&str] = &["and", "or", "not", "eqv", "neqv", "eq", "ne", "lt", "le", "gt", "ge", "true", "false"];

pub fn lex(text: &str, lang: DirLang) -> Result<Vec<Tok>, PErr> {
    let mut lx = Lexer { s: text.as_bytes(), text, i: 0, lang, out: Vec::new() };
    lx.run()?;
    let end = text.len();
    lx.out.push(Tok { kind: TokKind::Eof, span: Span::new(end, end) });
    Ok(lx.out)
}

struct Lexer<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    lang: DirLang,
    out: Vec<Tok>,
}

impl Lexer<'_> {
    fn at(&self, k: usize) -> u8 {
        self.s.get(self.i + k).copied().unwrap_or(0)
    }

    fn push(&mut self, kind: TokKind, start: usize) {
        self.out.push(Tok { kind, span: Span::new(start, self.i) });
    }

    fn run(&mut self) -> Result<(), PErr> {
        let fortran = self.lang == DirLang::Fortran;
        while self.i < self.s.len() {
            let c = self.at(0);
            let start = self.i;
            match c {
                b' ' | b'\t' | b'\r' | 0x0c => self.i += 1,
                b'\n' => {
                    self.i += 1;
                    if fortran {
                        self.skip_sentinel();
                    }
                }
                b'\\' if !fortran && matches!(self.at(1), b'\n' | b'\r') => self.i += 1,
                b'/' if !fortran && self.at(1) == b'*' => match self.text[self.i + 2..].find("*/") {
                    Some(k) => self.i += k + 4,
                    None => {
                        return Err(PErr::new("XMP0002", "unterminated comment", Span::new(start, start + 2), "comment starts here").help("close it with '*/'"))
                    }
                },
                b'/' if !fortran && self.at(1) == b'/' => self.skip_line(),
                b'!' if fortran => self.skip_line(),
                b'&' if fortran => self.continuation(),
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    while self.at(0).is_ascii_alphanumeric() || self.at(0) == b'_' {
                        self.i += 1;
                    }
                    self.push(TokKind::Ident(self.text[start..self.i].to_string()), start);
                }
                b'0'..=b'9' => self.number(),
                b'.' if self.at(1).is_ascii_digit() => self.number(),
                b'.' if fortran && self.at(1).is_ascii_alphabetic() => self.dot_word()?,
                b'"' | b'\'' => self.string(c)?,
                _ => {
                    let table = if fortran { F_PUNCT } else { C_PUNCT };
                    match table.iter().find(|p| self.s[self.i..].starts_with(p.as_bytes())) {
                        Some(p) => {
                            self.i += p.len();
                            self.push(TokKind::Punct(p), start);
                        }
                        None => {
                            // Whole character, so non-ASCII text gets a clean span.
                            let ch = self.text[self.i..].chars().next().unwrap_or('?');
                            let end = self.i + ch.len_utf8();
                            return Err(PErr::new(
                                "XMP0001",
                                format!("unexpected character '{ch}' in directive"),
                                Span::new(start, end),
                                "not part of the directive language",
                            ));
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn skip_line(&mut self) {
        while self.i < self.s.len() && self.at(0) != b'\n' {
            self.i += 1;
        }
    }

    /// Fortran `&`: free-form continuation. Anything after it on the line is a comment;
    /// the next line's sentinel (and its leading `&`) is skipped. A `&` that does not
    /// end its line is the leading `&` of a continuation line and is ignored.
    fn continuation(&mut self) {
        self.i += 1;
        let mut k = self.i;
        while k < self.s.len() && matches!(self.s[k], b' ' | b'\t' | b'\r') {
            k += 1;
        }
        if k < self.s.len() && self.s[k] == b'!' {
            while k < self.s.len() && self.s[k] != b'\n' {
                k += 1;
            }
        }
        if k < self.s.len() && self.s[k] == b'\n' {
            self.i = k + 1;
            self.skip_sentinel();
        }
    }

    /// At the start of a line: skip `!$xmp`/`c$xmp`/`*$xmp` (or `acc`) and a following
    /// `&` (free form) or column-6 continuation mark (fixed form: any character but
    /// blank and `0`, e.g. `&`, `+`, `1`).
    fn skip_sentinel(&mut self) {
        let mut k = self.i;
        while k < self.s.len() && matches!(self.s[k], b' ' | b'\t') {
            k += 1;
        }
        let rest = &self.s[k..];
        if rest.len() >= 5 && matches!(rest[0], b'!' | b'c' | b'C' | b'*') && rest[1] == b'$' {
            let w = &rest[2..5];
            if w.eq_ignore_ascii_case(b"xmp") || w.eq_ignore_ascii_case(b"acc") {
                self.i = k + 5;
                let mark = self.at(0);
                if mark.is_ascii_graphic() && mark != b'0' {
                    self.i += 1;
                }
            }
        }
    }

    fn digits(&mut self) {
        while self.at(0).is_ascii_digit() {
            self.i += 1;
        }
    }

    fn number(&mut self) {
        let start = self.i;
        let fortran = self.lang == DirLang::Fortran;
        let mut real = false;
        if !fortran && self.at(0) == b'0' && matches!(self.at(1), b'x' | b'X') && self.at(2).is_ascii_hexdigit() {
            self.i += 2;
            while self.at(0).is_ascii_hexdigit() {
                self.i += 1;
            }
        } else {
            self.digits();
            if self.at(0) == b'.' && !(fortran && self.dot_word_at(self.i).is_some()) {
                real = true;
                self.i += 1;
                self.digits();
            }
            let exp: &[u8] = if fortran { b"eEdDqQ" } else { b"eE" };
            if exp.contains(&self.at(0)) && (self.at(1).is_ascii_digit() || (matches!(self.at(1), b'+' | b'-') && self.at(2).is_ascii_digit())) {
                real = true;
                self.i += 2;
                self.digits();
            }
        }
        if fortran {
            if self.at(0) == b'_' && self.at(1).is_ascii_alphanumeric() {
                self.i += 1;
                while self.at(0).is_ascii_alphanumeric() || self.at(0) == b'_' {
                    self.i += 1;
                }
            }
        } else {
            while matches!(self.at(0), b'u' | b'U' | b'l' | b'L' | b'f' | b'F') {
                self.i += 1;
            }
        }
        let s = self.text[start..self.i].to_string();
        self.push(if real { TokKind::Real(s) } else { TokKind::Int(s) }, start);
    }

    /// `.word.` starting at `k` when `word` is a Fortran dot-operator.
    fn dot_word_at(&self, k: usize) -> Option<(String, usize)> {
        let mut e = k + 1;
        while e < self.s.len() && self.s[e].is_ascii_alphabetic() {
            e += 1;
        }
        if e > k + 1 && self.s.get(e) == Some(&b'.') {
            let w = self.text[k + 1..e].to_ascii_lowercase();
            if DOT_WORDS.contains(&w.as_str()) {
                return Some((w, e + 1));
            }
        }
        None
    }

    fn dot_word(&mut self) -> Result<(), PErr> {
        let start = self.i;
        match self.dot_word_at(self.i) {
            Some((w, end)) => {
                self.i = end;
                self.push(TokKind::DotOp(w), start);
                Ok(())
            }
            None => {
                let mut e = start + 1;
                while e < self.s.len() && self.s[e].is_ascii_alphanumeric() {
                    e += 1;
                }
                if self.s.get(e) == Some(&b'.') {
                    e += 1;
                }
                Err(PErr::new("XMP0001", format!("unknown operator '{}'", &self.text[start..e]), Span::new(start, e), "not a Fortran operator")
                    .help("expected .and., .or., .not., .eqv., .neqv., .eq., .ne., .lt., .le., .gt., .ge., .true. or .false."))
            }
        }
    }

    fn string(&mut self, q: u8) -> Result<(), PErr> {
        let start = self.i;
        self.i += 1;
        let fortran = self.lang == DirLang::Fortran;
        loop {
            match self.at(0) {
                0 | b'\n' if self.i >= self.s.len() || self.at(0) == b'\n' => {
                    let end = self.i.min(self.s.len());
                    return Err(PErr::new("XMP0002", "unterminated string literal", Span::new(start, end), "string starts here")
                        .help("close it with a matching quote on the same line"));
                }
                b'\\' if !fortran => self.i += 2,
                c if c == q => {
                    if fortran && self.at(1) == q {
                        self.i += 2;
                    } else {
                        self.i += 1;
                        break;
                    }
                }
                _ => self.i += 1,
            }
        }
        let end = self.i.min(self.s.len());
        self.i = end;
        let inner = self.text.get(start + 1..end - 1).unwrap_or("").to_string();
        let kind = if q == b'\'' && !fortran { TokKind::Char(inner) } else { TokKind::Str(inner) };
        self.push(kind, start);
        Ok(())
    }
}
