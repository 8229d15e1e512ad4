//! Clause-level pieces: widths, reductions and the any-order clause list.

use super::lexer::TokKind;
use super::parser::{PResult, P};
use super::PErr;
use xmpc_ir::diag::did_you_mean;
use xmpc_ir::directive::*;
use xmpc_ir::{Expr, Span};

impl P<'_> {
    // ---------------------------------------------------------------- widths

    /// Optional `/qual/` prefix; true when present.
    fn qualifier(&mut self, qual: &str) -> PResult<bool> {
        if !(self.is_p("/") && self.is_ident_at(1) && self.nth_is_p(2, "/")) {
            return Ok(false);
        }
        let w = match &self.nth(1).kind {
            TokKind::Ident(w) => w.clone(),
            _ => String::new(),
        };
        if !self.kw_eq(&w, qual) {
            let span = self.peek().span.to(self.nth(2).span);
            return Err(PErr::new("XMP0026", format!("unknown qualifier '/{w}/'"), span, format!("expected /{qual}/"))
                .help(format!("the only qualifier allowed here is /{qual}/")));
        }
        self.bump();
        self.bump();
        self.bump();
        Ok(true)
    }
    fn is_ident_at(&self, k: usize) -> bool {
        matches!(self.nth(k).kind, TokKind::Ident(_))
    }

    /// `[/qual/] e [: e]` → (flag, lower, upper, span).
    fn width_like(&mut self, qual: &str) -> PResult<(bool, Expr, Expr, Span)> {
        let start = self.pos_start();
        let flag = self.qualifier(qual)?;
        let lower = self.expr()?;
        let upper = if self.eat_p(":").is_some() { self.expr()? } else { lower.clone() };
        Ok((flag, lower, upper, self.since(start)))
    }
    pub fn width(&mut self) -> PResult<Width> {
        let (periodic, lower, upper, span) = self.width_like("periodic")?;
        Ok(Width { span, periodic, lower, upper })
    }
    pub fn expand_width(&mut self) -> PResult<ExpandWidth> {
        let (unbound, lower, upper, span) = self.width_like("unbound")?;
        Ok(ExpandWidth { span, unbound, lower, upper })
    }

    // ---------------------------------------------------------------- reductions

    const WORD_OPS: &'static [&'static str] = &["max", "min", "firstmax", "firstmin", "lastmax", "lastmin"];
    const F_WORD_OPS: &'static [&'static str] = &["iand", "ior", "ieor"];

    fn red_op_at(&self, k: usize) -> Option<RedOp> {
        let fortran = self.lang == DirLang::Fortran;
        Some(match &self.nth(k).kind {
            TokKind::Punct(p) => match *p {
                "+" => RedOp::Sum,
                "*" => RedOp::Prod,
                "-" => RedOp::Sub,
                "&" => RedOp::BitAnd,
                "|" => RedOp::BitOr,
                "^" => RedOp::BitXor,
                "&&" => RedOp::LogAnd,
                "||" => RedOp::LogOr,
                _ => return None,
            },
            TokKind::DotOp(w) => match w.as_str() {
                "and" => RedOp::LogAnd,
                "or" => RedOp::LogOr,
                "eqv" => RedOp::Eqv,
                "neqv" => RedOp::Neqv,
                _ => return None,
            },
            // Word operators are case-insensitive in C too: Omni accepts `MAX`/`MIN` (its own
            // tests use them), see docs/omni-compat.md.
            TokKind::Ident(w) => match w.to_ascii_lowercase().as_str() {
                "max" => RedOp::Max,
                "min" => RedOp::Min,
                "firstmax" => RedOp::FirstMax,
                "firstmin" => RedOp::FirstMin,
                "lastmax" => RedOp::LastMax,
                "lastmin" => RedOp::LastMin,
                "iand" if fortran => RedOp::BitAnd,
                "ior" if fortran => RedOp::BitOr,
                "ieor" if fortran => RedOp::BitXor,
                _ => return None,
            },
            _ => return None,
        })
    }

    fn red_op(&mut self) -> PResult<(RedOp, Span)> {
        if let Some(op) = self.red_op_at(0) {
            let s = self.bump().span;
            return Ok((op, self.m(s)));
        }
        let all = if self.lang == DirLang::Fortran {
            "+, *, -, .and., .or., .eqv., .neqv., max, min, iand, ior, ieor, firstmax, firstmin, lastmax or lastmin"
        } else {
            "+, *, -, &, |, ^, &&, ||, max, min, firstmax, firstmin, lastmax or lastmin"
        };
        let t = self.peek().clone();
        if t.kind == TokKind::Eof || t.kind == TokKind::Punct(":") {
            return Err(self.expected("a reduction operator").help(format!("operators: {all}")));
        }
        let written = match &t.kind {
            TokKind::Ident(w) | TokKind::Int(w) => w.clone(),
            TokKind::Punct(p) => p.to_string(),
            TokKind::DotOp(w) => format!(".{w}."),
            _ => "?".into(),
        };
        let mut e = PErr::new("XMP0021", format!("unknown reduction operator '{written}'"), t.span, "not a reduction operator");
        let mut cands: Vec<&str> = Self::WORD_OPS.to_vec();
        if self.lang == DirLang::Fortran {
            cands.extend(Self::F_WORD_OPS);
        }
        if let TokKind::Ident(w) = &t.kind {
            if let Some(s) = did_you_mean(w, cands) {
                e = e.help(format!("did you mean '{s}'?"));
            }
            if self.lang == DirLang::C && ["iand", "ior", "ieor"].contains(&w.to_ascii_lowercase().as_str()) {
                e = e.help("iand/ior/ieor are Fortran; in C write &, | or ^");
            }
        }
        if let TokKind::DotOp(_) = &t.kind {
            e = e.help("'.and.'-style operators are Fortran; in C write && or ||");
        }
        Err(e.help(format!("expected one of {all}")))
    }

    fn red_var(&mut self) -> PResult<RedVar> {
        let name = self.ident("a reduction variable")?;
        let mut locs = Vec::new();
        let mut loc_sections = Vec::new();
        if let Some(open) = self.eat_p("/") {
            loop {
                let r = self.reference("a location variable")?;
                if r.subs.is_some() {
                    loc_sections.push(r);
                } else {
                    locs.push(r.name);
                }
                if self.eat_p(",").is_none() {
                    break;
                }
            }
            if self.eat_p("/").is_none() {
                return Err(self.expected("'/' closing the location list").also(open, "location list starts here"));
            }
        }
        Ok(RedVar { name, locs, loc_sections })
    }

    /// `( op : v {, v} {, op : v ...} )`; several operator groups may share one clause.
    pub fn reduction_paren(&mut self) -> PResult<Vec<Reduction>> {
        let open = self.expect_p("(", "'(' and a reduction operator")?;
        let mut groups = Vec::new();
        loop {
            let (op, op_span) = self.red_op()?;
            self.expect_p(":", "':' after the reduction operator")?;
            let mut vars = vec![self.red_var()?];
            let mut again = false;
            while self.eat_p(",").is_some() {
                if self.red_op_at(0).is_some() && self.nth_is_p(1, ":") {
                    again = true;
                    break;
                }
                vars.push(self.red_var()?);
            }
            groups.push(Reduction { op, op_span, vars });
            if !again {
                self.close(")", open, "',' or ')'")?;
                return Ok(groups);
            }
        }
    }
}

// -------------------------------------------------------------------- clauses

/// Everything a clause list may set.
#[derive(Default)]
pub(crate) struct Clauses {
    pub reductions: Vec<Reduction>,
    pub option: Option<LoopOption>,
    pub trailers: Trailers,
    pub width: Option<Vec<Width>>,
    pub on: Option<Ref>,
    pub from: Option<Ref>,
    pub nocomm: bool,
    pub nowait: bool,
    pub mode: Option<GmoveMode>,
}

/// Every clause word of the language, for "not allowed here" messages.
const ALL_CLAUSES: &[&str] =
    &["reduction", "expand", "margin", "peel_and_wait", "async", "acc", "host", "profile", "width", "on", "from", "nocomm", "nowait", "in", "out"];

/// Pairs that exclude each other.
const CONFLICTS: &[(&str, &str)] = &[("acc", "host"), ("in", "out"), ("expand", "margin"), ("expand", "peel_and_wait"), ("margin", "peel_and_wait")];

impl P<'_> {
    /// Clauses in any order until the end of the directive; each at most once except
    /// `reduction`, which accumulates.
    pub fn clauses(&mut self, dir: &str, allowed: &[&'static str]) -> PResult<Clauses> {
        let mut c = Clauses::default();
        let mut seen: Vec<(&'static str, Span)> = Vec::new();
        while !self.at_eof() {
            let t = self.peek().clone();
            let list = if allowed.is_empty() { "none".to_string() } else { allowed.join(", ") };
            let TokKind::Ident(w) = &t.kind else {
                let what = if allowed.is_empty() { "end of directive".to_string() } else { "a clause".to_string() };
                return Err(PErr::new("XMP0010", format!("unexpected {} in '{dir}' directive", t.describe()), t.span, format!("expected {what}"))
                    .help(format!("clauses allowed on '{dir}': {list}")));
            };
            let Some(&word) = allowed.iter().find(|a| self.kw_eq(w, a)) else {
                let known = ALL_CLAUSES.iter().any(|a| self.kw_eq(w, a));
                let msg = if known { format!("clause '{w}' is not allowed on '{dir}'") } else { format!("unknown clause '{w}' on '{dir}'") };
                let mut e = PErr::new("XMP0012", msg, t.span, "unexpected clause");
                if let Some(s) = did_you_mean(w, allowed.iter().copied()).filter(|_| !known) {
                    e = e.help(format!("did you mean '{s}'?"));
                }
                return Err(e.help(format!("clauses allowed on '{dir}': {list}")));
            };
            if word != "reduction" {
                if let Some((_, first)) = seen.iter().find(|(s, _)| *s == word) {
                    return Err(PErr::new("XMP0013", format!("duplicate '{word}' clause"), t.span, "given again here").also(*first, "first given here"));
                }
                for (a, b) in CONFLICTS {
                    let other = if *a == word {
                        b
                    } else if *b == word {
                        a
                    } else {
                        continue;
                    };
                    if let Some((_, s)) = seen.iter().find(|(s, _)| s == other) {
                        return Err(PErr::new("XMP0014", format!("'{word}' conflicts with '{other}'"), t.span, "conflicting clause")
                            .also(*s, format!("'{other}' given here"))
                            .help(format!("give either '{other}' or '{word}'")));
                    }
                }
            }
            seen.push((word, t.span));
            self.bump();
            let here = self.m(t.span);
            match word {
                "reduction" => c.reductions.extend(self.reduction_paren()?),
                "expand" => c.option = Some(LoopOption::Expand(self.paren_list("a width", |p| p.expand_width())?)),
                "margin" => c.option = Some(LoopOption::Margin(self.paren_list("a width", |p| p.expand_width())?)),
                "peel_and_wait" => {
                    let open = self.expect_p("(", "'(' and a tag")?;
                    let tag = self.expr()?;
                    self.expect_p(",", "',' and a width list")?;
                    let mut ws = vec![self.expand_width()?];
                    while self.eat_p(",").is_some() {
                        ws.push(self.expand_width()?);
                    }
                    self.close(")", open, "',' or ')'")?;
                    c.option = Some(LoopOption::PeelAndWait(tag, ws));
                }
                "async" => {
                    let open = self.expect_p("(", "'(' and an async id")?;
                    c.trailers.async_id = Some(self.expr()?);
                    self.close(")", open, "')'")?;
                }
                "acc" => c.trailers.acc = Some(here),
                "host" => c.trailers.host = Some(here),
                "profile" => c.trailers.profile = Some(here),
                "width" => c.width = Some(self.paren_list("a width", |p| p.width())?),
                "on" => c.on = Some(self.reference("a node or template name after 'on'")?),
                "from" => c.from = Some(self.reference("a node name after 'from'")?),
                "nocomm" => c.nocomm = true,
                "nowait" => c.nowait = true,
                "in" => c.mode = Some(GmoveMode::In),
                "out" => c.mode = Some(GmoveMode::Out),
                _ => {}
            }
        }
        Ok(c)
    }
}
