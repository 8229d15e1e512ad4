//! Small C text helpers: printing IR expressions back as C, splicing edits into a
//! span, comment/string escaping.

use xmpc_ir::{BinOp, Edit, Expr, ExprKind, Span, UnOp};

fn binop(op: BinOp) -> &'static str {
    use BinOp::*;
    match op {
        Add => "+",
        Sub => "-",
        Mul => "*",
        Div => "/",
        Rem => "%",
        Shl => "<<",
        Shr => ">>",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Eq => "==",
        Ne => "!=",
        BitAnd => "&",
        BitOr => "|",
        BitXor => "^",
        And => "&&",
        Or => "||",
        Comma => ",",
        // Fortran-only operators never reach the C translator.
        Pow => "/*pow*/",
        Eqv => "==",
        Neqv => "!=",
        Concat => "/*concat*/",
    }
}

/// Prints an expression as C. Nested non-atomic operands are parenthesised, so the
/// result is correct whatever the precedence; the top level is not.
pub fn c_expr(e: &Expr) -> String {
    let mut s = String::new();
    write(&mut s, e, true);
    s
}

fn atomic(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Ident(_)
            | ExprKind::Int(_)
            | ExprKind::Real(_)
            | ExprKind::Str(_)
            | ExprKind::Char(_)
            | ExprKind::Call(..)
            | ExprKind::Index(..)
            | ExprKind::Member { .. }
    )
}

fn write(s: &mut String, e: &Expr, top: bool) {
    let paren = !top && !atomic(e);
    if paren {
        s.push('(');
    }
    match &e.kind {
        ExprKind::Ident(x) | ExprKind::Int(x) | ExprKind::Real(x) | ExprKind::Verbatim(x) => s.push_str(x),
        ExprKind::Str(x) => {
            s.push('"');
            s.push_str(x);
            s.push('"');
        }
        ExprKind::Char(x) => {
            s.push('\'');
            s.push_str(x);
            s.push('\'');
        }
        ExprKind::Logical(b) => s.push_str(if *b { "1" } else { "0" }),
        ExprKind::Unary(op, a) => {
            let (pre, post) = match op {
                UnOp::Neg => ("-", ""),
                UnOp::Plus => ("+", ""),
                UnOp::Not => ("!", ""),
                UnOp::BitNot => ("~", ""),
                UnOp::Deref => ("*", ""),
                UnOp::AddrOf => ("&", ""),
                UnOp::PreInc => ("++", ""),
                UnOp::PreDec => ("--", ""),
                UnOp::PostInc => ("", "++"),
                UnOp::PostDec => ("", "--"),
            };
            s.push_str(pre);
            write(s, a, false);
            s.push_str(post);
        }
        ExprKind::Binary(op, a, b) => {
            write(s, a, false);
            s.push(' ');
            s.push_str(binop(*op));
            s.push(' ');
            write(s, b, false);
        }
        ExprKind::Assign(op, a, b) => {
            write(s, a, false);
            s.push(' ');
            if let Some(op) = op {
                s.push_str(binop(*op));
            }
            s.push_str("= ");
            write(s, b, false);
        }
        ExprKind::Call(f, args) => {
            write(s, f, false);
            s.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write(s, a, true);
            }
            s.push(')');
        }
        ExprKind::Index(a, i) => {
            write(s, a, false);
            s.push('[');
            write(s, i, true);
            s.push(']');
        }
        ExprKind::Member { base, field, arrow } => {
            write(s, base, false);
            s.push_str(if *arrow { "->" } else { "." });
            s.push_str(field);
        }
        ExprKind::Cond(c, a, b) => {
            write(s, c, false);
            s.push_str(" ? ");
            write(s, a, false);
            s.push_str(" : ");
            write(s, b, false);
        }
        ExprKind::Cast(t, a) => {
            s.push('(');
            s.push_str(t);
            s.push_str(") ");
            write(s, a, false);
        }
        ExprKind::SizeOf(a) => {
            s.push_str("sizeof(");
            write(s, a, true);
            s.push(')');
        }
        ExprKind::Triplet(..) | ExprKind::Star => s.push_str("/*section*/"),
    }
    if paren {
        s.push(')');
    }
}

/// `text + k` folded for literals, parenthesised otherwise.
pub fn plus(text: &str, k: i64) -> String {
    if k == 0 {
        return text.to_string();
    }
    if let Ok(v) = text.trim().parse::<i64>() {
        return (v + k).to_string();
    }
    let t = if is_simple(text) { text.to_string() } else { format!("({text})") };
    if k > 0 {
        format!("{t} + {k}")
    } else {
        format!("{t} - {}", -k)
    }
}

/// An identifier or number: needs no parentheses as an operand.
pub fn is_simple(t: &str) -> bool {
    let t = t.trim();
    !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

pub fn paren(t: &str) -> String {
    if is_simple(t) {
        t.trim().to_string()
    } else {
        format!("({t})")
    }
}

/// The text of `span` in `src` with the edits inside it applied (edits sorted, not
/// overlapping, each inside `span`).
pub fn splice(src: &str, span: Span, edits: &[Edit]) -> String {
    let mut out = String::new();
    let mut pos = span.start;
    let mut es: Vec<&Edit> = edits.iter().filter(|e| e.span.start >= span.start && e.span.end <= span.end).collect();
    es.sort_by_key(|e| (e.span.start, e.span.end));
    for e in es {
        if e.span.start < pos {
            continue;
        }
        out.push_str(&src[pos..e.span.start]);
        out.push_str(&e.text);
        pos = e.span.end;
    }
    out.push_str(&src[pos..span.end]);
    out
}

/// A directive as one line for comments and `xmpc_loc.text`: comments dropped,
/// continuations joined, blanks collapsed; `#pragma xmp` dropped when `strip`.
pub fn one_line(text: &str, strip: bool) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"/*") {
            i = text[i + 2..].find("*/").map_or(b.len(), |e| i + 2 + e + 2);
            out.push(' ');
        } else if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i] == b'\\' && matches!(b.get(i + 1), Some(b'\n' | b'\r')) {
            i += 1;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    let words: Vec<&str> = out.split_whitespace().collect();
    let mut s = words.join(" ");
    if strip {
        let t = s.trim_start_matches('#').trim_start();
        let t = t.strip_prefix("pragma").unwrap_or(t).trim_start();
        let t = t.strip_prefix("xmp").unwrap_or(t).trim_start();
        s = t.to_string();
    }
    s
}

/// Text safe inside a C block comment.
pub fn comment_safe(s: &str) -> String {
    s.replace("*/", "* /").replace("/*", "/ *")
}

/// A C string literal body.
pub fn c_string(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '?' => out.push_str("\\?"),
            c if (c as u32) < 0x20 => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
