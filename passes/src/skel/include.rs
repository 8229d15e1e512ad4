//! Fortran include files of a skeleton: the same renaming as the source
//! (`include 'mpif.h'` → `include 'lmpif.h'`, `MPI_x` → `LMPI_x`), and every
//! named COMMON block they declare made per rank (`!$omp threadprivate(/b/)`
//! after the file's last statement: the skeleton's ranks are threads, and a COMMON
//! block declared in an include file is declared by every unit that includes
//! it). The build writes the result beside the skeleton under the same name,
//! where the compiler looks first.

use super::rename;
use xmpc_ir::{Edit, Lang, Span};

/// Names (`path` as written) of the files a Fortran source includes, except mpif.h.
pub fn includes(src: &str, lang: Lang) -> Vec<String> {
    let mut out = vec![];
    for line in src.lines() {
        if lang == Lang::FortranFixed && matches!(line.as_bytes().first(), Some(b'c' | b'C' | b'*' | b'!')) {
            continue;
        }
        let t = line.trim_start();
        if !t.get(..7).is_some_and(|w| w.eq_ignore_ascii_case("include")) {
            continue;
        }
        let r = t[7..].trim_start();
        let Some(q) = r.chars().next().filter(|c| *c == '\'' || *c == '"') else { continue };
        if let Some(end) = r[1..].find(q) {
            let name = &r[1..1 + end];
            if !name.eq_ignore_ascii_case("mpif.h") && !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The statement lines of a fixed- or free-form text: (start, end) byte ranges
/// covering each statement with its continuation lines (comments skipped).
fn statements(src: &str, lang: Lang) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = vec![];
    let mut pos = 0;
    let mut cont_next = false;
    for line in src.split_inclusive('\n') {
        let (a, b) = (pos, pos + line.len());
        pos = b;
        let body = line.trim_end_matches(['\n', '\r']);
        let comment = match lang {
            Lang::FortranFixed => matches!(body.as_bytes().first(), Some(b'c' | b'C' | b'*' | b'!')) || body.trim().is_empty(),
            _ => body.trim_start().starts_with('!') || body.trim().is_empty(),
        };
        if comment {
            continue;
        }
        let continued = match lang {
            Lang::FortranFixed => body.len() > 5 && !matches!(body.as_bytes()[5], b' ' | b'0') && !body[..5].contains('\t'),
            _ => cont_next,
        };
        if lang != Lang::FortranFixed {
            cont_next = body.split('!').next().unwrap_or("").trim_end().ends_with('&');
        }
        match out.last_mut() {
            Some(last) if continued => last.1 = b,
            _ => out.push((a, b)),
        }
    }
    out
}

/// The translated text of a Fortran include file.
pub fn translate(src: &str, lang: Lang) -> String {
    let mut edits: Vec<Edit> = rename::rename(src, lang, &[]);
    let mut seen: Vec<String> = vec![];
    for (a, b) in statements(src, lang) {
        let t: String = src[a..b].to_ascii_lowercase();
        let code = if lang == Lang::FortranFixed { t.lines().map(|l| l.get(6..).unwrap_or("")).collect::<Vec<_>>().join(" ") } else { t.replace('&', " ") };
        if !code.trim_start().starts_with("common") {
            continue;
        }
        let mut names = vec![];
        let mut rest = code.as_str();
        while let Some(i) = rest.find('/') {
            let after = &rest[i + 1..];
            let Some(j) = after.find('/') else { break };
            let n = after[..j].trim();
            if !n.is_empty() && !seen.iter().any(|s| s == n) {
                names.push(n.to_string());
            }
            rest = &after[j + 1..];
        }
        let _ = b;
        seen.extend(names);
    }
    // after every COMMON statement of the file (a block may be declared in parts)
    if !seen.is_empty() {
        let sentinel = if lang == Lang::FortranFixed { "!$omp " } else { "  !$omp " };
        let mut text = String::new();
        if !src.is_empty() && !src.ends_with('\n') {
            text.push('\n');
        }
        for n in &seen {
            text.push_str(&format!("{sentinel}threadprivate(/{n}/)\n"));
        }
        edits.push(Edit::insert(src.len(), text));
    }
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::new();
    let mut at = 0;
    for e in edits {
        let Span { start, end } = e.span;
        if start < at {
            continue;
        }
        out.push_str(&src[at..start]);
        out.push_str(&e.text);
        at = end;
    }
    out.push_str(&src[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npb_mpinpb_h() {
        let src = "c comment\n      include           'mpif.h'\n\n      integer           me, nprocs, root, dp_type\n      common /mpistuff/ me, nprocs, root, dp_type\n";
        let t = translate(src, Lang::FortranFixed);
        assert!(t.contains("include           'lmpif.h'"), "{t}");
        assert!(t.ends_with("      common /mpistuff/ me, nprocs, root, dp_type\n!$omp threadprivate(/mpistuff/)\n"), "{t}");
        assert_eq!(includes("      include 'mpinpb.h'\n      include 'mpif.h'\nc     include 'x.h'\n", Lang::FortranFixed), vec!["mpinpb.h"]);
    }

    #[test]
    fn continued_common_and_two_blocks() {
        let src = "      common /a/ x,\n     >         y\n      common /b/ u, /c/ v\n      common /a/ z\n";
        let t = translate(src, Lang::FortranFixed);
        assert_eq!(t, format!("{src}!$omp threadprivate(/a/)\n!$omp threadprivate(/b/)\n!$omp threadprivate(/c/)\n"));
        let f = translate("integer :: n\ncommon /p/ n, &\n  m\n", Lang::FortranFree);
        assert!(f.ends_with("common /p/ n, &\n  m\n  !$omp threadprivate(/p/)\n"), "{f}");
    }
}
