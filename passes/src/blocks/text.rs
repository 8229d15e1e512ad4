//! Placing text around a block: C statements go inline, Fortran statements on lines
//! of their own (a logical `if` body becomes a block `if` first).

use xmpc_ir::{Edit, Lang, Span};

/// Start of the line holding `pos`.
pub fn line_start(src: &str, pos: usize) -> usize {
    src[..super::floor_char(src, pos)].rfind('\n').map_or(0, |p| p + 1)
}

/// Offset just after the newline ending the line holding `pos` (or the text end).
pub fn next_line(src: &str, pos: usize) -> usize {
    let pos = super::floor_char(src, pos);
    src[pos..].find('\n').map_or(src.len(), |p| pos + p + 1)
}

/// The blanks a line starts with.
pub fn indent_of(src: &str, pos: usize) -> String {
    let ls = line_start(src, pos);
    src[ls..].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}

/// How a Fortran block sits in its lines.
pub enum FortranPlace {
    /// Alone on its lines: `start` is a line start, `end` the start of the next line.
    Lines { start: usize, end: usize, indent: String },
    /// The body of a logical `if (c) stmt` on one line.
    LogicalIf { indent: String },
    /// Shares a line with another statement.
    Shared,
}

pub fn fortran_place(src: &str, lang: Lang, span: Span) -> FortranPlace {
    let ls = line_start(src, span.start);
    let before = &src[ls..span.start];
    let mut indent = indent_of(src, span.start);
    if lang == Lang::FortranFixed && indent.len() < 6 {
        indent = "      ".into();
    }
    if !before.trim().is_empty() || (lang == Lang::FortranFixed && before.len() > indent.len() && !before.trim().is_empty()) {
        let b = before.trim().to_ascii_lowercase();
        let b = b.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
        if b.starts_with("if") && b.ends_with(')') {
            return FortranPlace::LogicalIf { indent };
        }
        return FortranPlace::Shared;
    }
    let le = next_line(src, span.end.saturating_sub(1).max(span.start));
    let rest = src[span.end..le].trim();
    if !(rest.is_empty() || rest.starts_with('!')) {
        return FortranPlace::Shared;
    }
    FortranPlace::Lines { start: ls, end: le, indent }
}

/// Edits putting statement `before` in front of the block and `after` behind it
/// (either may be empty).
pub fn wrap(src: &str, lang: Lang, span: Span, before: &str, after: &str) -> Result<Vec<Edit>, &'static str> {
    let mut out = Vec::new();
    if lang == Lang::C {
        out.push(Edit::insert(span.start, format!("{{ {before}")));
        out.push(Edit::insert(span.end, format!("{after} }}")));
        return Ok(out);
    }
    match fortran_place(src, lang, span) {
        FortranPlace::Lines { start, end, indent } => {
            if !before.is_empty() {
                out.push(Edit::insert(start, format!("{indent}{before}\n")));
            }
            if !after.is_empty() {
                let nl = if src[..end].ends_with('\n') { "" } else { "\n" };
                out.push(Edit::insert(end, format!("{nl}{indent}{after}\n")));
            }
        }
        FortranPlace::LogicalIf { indent } => {
            let inner = format!("{indent}  ");
            let b = if before.is_empty() { String::new() } else { format!("{inner}{before}\n") };
            out.push(Edit::insert(span.start, format!("then\n{b}{inner}")));
            let a = if after.is_empty() { String::new() } else { format!("\n{inner}{after}") };
            out.push(Edit::insert(span.end, format!("{a}\n{indent}end if")));
        }
        FortranPlace::Shared => return Err("shares its line with another statement; put it on a line of its own"),
    }
    Ok(out)
}
