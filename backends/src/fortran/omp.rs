//! Where the code of a `loop` directive goes when OpenMP or OpenACC directives
//! (`!$omp parallel do`, `!$acc parallel loop`) sit between it and its `do`, as in
//! Omni's global view + OpenMP programs:
//!
//! ```fortran
//! !$xmp loop on t(j)
//! !$omp parallel do private(i)
//!       do j = 1, n
//! ...
//!       end do
//! !$omp end parallel do
//! ```
//!
//! The schedule calls must precede the OpenMP directive (a statement between
//! `!$omp parallel do` and its `do` is an error), and the reduction calls after the
//! nest must follow its `!$omp end parallel do`.

use xmpc_ir::directive::DirectiveKind;
use xmpc_ir::{Stmt, StmtKind};

/// True when a line of a sentinel directive other than XMP's (`!$omp`, `!$acc`; in
/// fixed form `c$omp`, `*$omp`) lies in `src[from..to]`.
pub(super) fn sentinel_lines_between(src: &str, from: usize, to: usize) -> bool {
    if from >= to || to > src.len() {
        return false;
    }
    src[from..to].lines().any(is_other_sentinel)
}

fn is_other_sentinel(line: &str) -> bool {
    let t = line.trim_start().to_ascii_lowercase();
    let t = t.as_bytes();
    t.len() >= 5 && matches!(t[0], b'!' | b'c' | b'*') && t[1] == b'$' && (&t[2..5] == b"omp" || &t[2..5] == b"acc")
}

fn is_end_sentinel(line: &str) -> bool {
    if !is_other_sentinel(line) {
        return false;
    }
    let t = line.trim_start()[5..].trim_start().to_ascii_lowercase();
    t.starts_with("end")
}

/// The offset just past the `!$omp end ...` / `!$acc end ...` lines that directly
/// follow the line holding `off` (or `off` itself when there are none).
pub(super) fn past_end_directives(src: &str, off: usize) -> usize {
    let mut at = src[off..].find('\n').map_or(src.len(), |p| off + p);
    let mut best = off;
    while at < src.len() {
        let start = at + 1;
        let end = src[start..].find('\n').map_or(src.len(), |p| start + p);
        let line = &src[start..end];
        if line.trim().is_empty() {
            at = end;
            continue;
        }
        if !is_end_sentinel(line) {
            break;
        }
        best = end;
        at = end;
    }
    best
}

/// Splits the text of a rewritten `do` header, `call ...\n<IND>call ...\n<IND>do ...`,
/// into its leading calls and the `do` lines.
pub(super) fn split_calls(text: &str, ind: &str) -> Option<(String, String)> {
    let pat = format!("\n{ind}do ");
    let k = text.find(&pat)?;
    Some((text[..k].to_string(), text[k + 1 + ind.len()..].to_string()))
}

/// The `do` statement a loop nest continues with: `st` itself, the first `do` of a
/// compound, or the statement under an OpenACC directive (`!$acc loop`) there.
pub(super) fn nest_do(st: &Stmt) -> &Stmt {
    let mut st = st;
    for _ in 0..8 {
        match &st.kind {
            StmtKind::Pragma(q) if matches!(q.dir.kind, DirectiveKind::Acc { .. }) => match &q.body {
                Some(b) => st = b,
                None => return st,
            },
            StmtKind::Compound(v) => match v.iter().find(|x| matches!(x.kind, StmtKind::Do { .. }) || is_acc_do(x)) {
                Some(x) => st = x,
                None => return st,
            },
            _ => return st,
        }
    }
    st
}

fn is_acc_do(s: &Stmt) -> bool {
    match &s.kind {
        StmtKind::Pragma(q) => {
            matches!(q.dir.kind, DirectiveKind::Acc { .. }) && q.body.as_deref().is_some_and(|b| matches!(b.kind, StmtKind::Do { .. }) || is_acc_do(b))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_openmp_lines_and_their_ends() {
        let src = "!$xmp loop on t(j)\n!$omp parallel do &\n!$omp private(i)\n  do j = 1, n\n  end do\n\n!$OMP END PARALLEL DO\n  x = 1\n";
        let d = src.find("  do j").unwrap();
        assert!(sentinel_lines_between(src, src.find('\n').unwrap(), d));
        assert!(!sentinel_lines_between(src, d, src.find("  end do").unwrap()));
        let e = src.find("  end do").unwrap() + "  end do".len();
        let p = past_end_directives(src, e);
        assert_eq!(&src[..p], &src[..src.find("\n  x = 1").unwrap()]);
        let q = src.find("  x = 1").unwrap() + 7;
        assert_eq!(past_end_directives(src, q), q);
        assert!(is_other_sentinel("C$OMP PARALLEL DO"));
        assert!(!is_other_sentinel("!$xmp loop"));
        assert_eq!(
            split_calls("call a()\n  call b()\n  do x = 1, 2\n  do y = 1, 2", "  "),
            Some(("call a()\n  call b()".into(), "do x = 1, 2\n  do y = 1, 2".into()))
        );
    }
}
