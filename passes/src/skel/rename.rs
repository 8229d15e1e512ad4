//! `MPI_x` → `LMPI_x` on every identifier token outside comments and strings, and the
//! MPI header / module swapped for LMPI's.

use xmpc_ir::{Edit, Lang, Span};

/// Identifier tokens outside comments, strings and `skip` ranges: (span, text).
pub fn tokens(src: &str, lang: Lang) -> Vec<(Span, &str)> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if lang == Lang::FortranFixed && line_start && matches!(c, b'c' | b'C' | b'*' | b'!') {
            i = skip_line(b, i);
            continue;
        }
        line_start = false;
        match c {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b'/' if lang == Lang::C && b.get(i + 1) == Some(&b'/') => i = skip_line(b, i),
            b'/' if lang == Lang::C && b.get(i + 1) == Some(&b'*') => {
                i = src[i + 2..].find("*/").map_or(b.len(), |p| i + 2 + p + 2);
            }
            b'!' if lang != Lang::C => i = skip_line(b, i),
            b'"' | b'\'' => {
                let q = c;
                i += 1;
                while i < b.len() && b[i] != q && b[i] != b'\n' {
                    if b[i] == b'\\' && lang == Lang::C {
                        i += 1;
                    }
                    i += 1;
                }
                i += 1;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                out.push((Span::new(s, i), &src[s..i]));
            }
            c if c.is_ascii_digit() => {
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn skip_line(b: &[u8], i: usize) -> usize {
    b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| i + p)
}

fn inside(skip: &[Span], at: usize) -> bool {
    skip.iter().any(|s| s.start <= at && at < s.end)
}

/// Renaming edits for text outside `skip` (ranges other edits replace).
pub fn rename(src: &str, lang: Lang, skip: &[Span]) -> Vec<Edit> {
    let mut out = Vec::new();
    let toks = tokens(src, lang);
    for (k, (sp, t)) in toks.iter().enumerate() {
        if inside(skip, sp.start) {
            continue;
        }
        let is_mpi = if lang == Lang::C { t.starts_with("MPI_") } else { t.len() > 4 && t.as_bytes()[..4].eq_ignore_ascii_case(b"mpi_") };
        if is_mpi {
            // Keep the user's case: `MPI_` → `LMPI_`, `mpi_` → `lmpi_`.
            let l = if t.as_bytes()[0].is_ascii_lowercase() { "l" } else { "L" };
            out.push(Edit::insert(sp.start, l));
            continue;
        }
        if lang != Lang::C
            && t.eq_ignore_ascii_case("mpi")
            && k > 0
            && toks[k - 1].1.eq_ignore_ascii_case("use")
            && line_of(src, toks[k - 1].0.start) == line_of(src, sp.start)
        {
            let l = if t.as_bytes()[0].is_ascii_lowercase() { "l" } else { "L" };
            out.push(Edit::insert(sp.start, l));
        }
    }
    out.extend(headers(src, lang, skip));
    out
}

fn line_of(src: &str, at: usize) -> usize {
    src[..at].matches('\n').count()
}

/// `#include <mpi.h>` → `#include "lmpi.h"`; `include 'mpif.h'` → `include 'lmpif.h'`.
fn headers(src: &str, lang: Lang, skip: &[Span]) -> Vec<Edit> {
    let mut out = Vec::new();
    let mut pos = 0;
    for line in src.split_inclusive('\n') {
        let at = pos;
        pos += line.len();
        if inside(skip, at) {
            continue;
        }
        let t = line.trim_start();
        let lead = line.len() - t.len();
        if lang == Lang::C {
            let Some(r) = t.strip_prefix('#') else { continue };
            let r2 = r.trim_start();
            let Some(r3) = r2.strip_prefix("include") else { continue };
            let r4 = r3.trim_start();
            if r4.starts_with("<mpi.h>") || r4.starts_with("\"mpi.h\"") {
                let s = at + lead + (t.len() - r4.len());
                out.push(Edit::replace(Span::new(s, s + 7), "\"lmpi.h\""));
            }
        } else {
            let lower = t.to_ascii_lowercase();
            if lang == Lang::FortranFixed && lead == 0 && matches!(t.as_bytes().first(), Some(b'c' | b'C' | b'*' | b'!')) {
                continue;
            }
            if let Some(r) = lower.strip_prefix("include") {
                let r2 = r.trim_start();
                for q in ["'mpif.h'", "\"mpif.h\""] {
                    if r2.starts_with(q) {
                        let s = at + lead + (lower.len() - r2.len()) + 1;
                        out.push(Edit::insert(s, "l"));
                    }
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(src: &str, e: &[Edit]) -> String {
        let mut e = e.to_vec();
        e.sort_by_key(|x| x.span.start);
        let mut out = String::new();
        let mut pos = 0;
        for x in e {
            out.push_str(&src[pos..x.span.start]);
            out.push_str(&x.text);
            pos = x.span.end;
        }
        out + &src[pos..]
    }

    #[test]
    fn c_tokens_comments_strings() {
        let src = "#include <mpi.h>\n/* MPI_Send */ MPI_Status s; s.MPI_SOURCE; printf(\"MPI_x\"); PMPI_Send(); xMPI_a;\n";
        let out = apply(src, &rename(src, Lang::C, &[]));
        assert_eq!(out, "#include \"lmpi.h\"\n/* MPI_Send */ LMPI_Status s; s.LMPI_SOURCE; printf(\"MPI_x\"); PMPI_Send(); xMPI_a;\n");
    }

    #[test]
    fn fortran_case_and_modules() {
        let src = "      include 'mpif.h'\nc     call MPI_Send\n      call mpi_send(a, 1, MPI_REAL, 0, 0, MPI_COMM_WORLD, ie) ! MPI_x\n";
        let out = apply(src, &rename(src, Lang::FortranFixed, &[]));
        assert_eq!(out, "      include 'lmpif.h'\nc     call MPI_Send\n      call lmpi_send(a, 1, LMPI_REAL, 0, 0, LMPI_COMM_WORLD, ie) ! MPI_x\n");
        let src = "  use mpi\n  USE MPI\n  x = mpi\n";
        assert_eq!(apply(src, &rename(src, Lang::FortranFree, &[])), "  use lmpi\n  USE LMPI\n  x = mpi\n");
    }
}
