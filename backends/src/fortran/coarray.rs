//! Fortran coarrays (XMP local view, docs/local-view.md): which files use them.
//! Such a file is compiled with `gfortran -fcoarray=lib` (the driver, `src/coarray.rs`)
//! and, when it holds the main program, the unit the translator makes of it
//! (`subroutine xmpf_main`) gets a `save` statement: variables of a main program have
//! the SAVE attribute implicitly, which a non-allocatable coarray needs, but a
//! subroutine's locals do not.

/// True when the Fortran text uses coarray syntax or a coarray intrinsic: a
/// codimension or coindex (`a(n)[*]`, `x[2]`), an image control statement (`sync`,
/// `critical`, `lock`, `event`), a collective or image intrinsic (`co_sum`,
/// `this_image`), or Omni's `include 'xmp_coarray.h'`. Comments (and so XMP
/// directives) and character literals are skipped; in fixed form blanks are not
/// significant. An array constructor `[1, 2]` follows `=`, `(`, `,` or an operator,
/// never a name or `)`, so it is not taken for a coindex.
pub fn uses_coarrays(text: &str, fixed: bool) -> bool {
    let mut in_str: Option<char> = None;
    for raw in text.lines() {
        if fixed && raw.chars().next().is_some_and(|c| matches!(c, 'c' | 'C' | '*' | '!')) {
            continue;
        }
        let low = raw.to_ascii_lowercase();
        if low.trim_start().starts_with("include") && low.contains("xmp_coarray.h") {
            return true;
        }
        // fixed form: columns 7-72 hold the statement (a continuation mark in column 6)
        let body: String = if fixed { low.chars().skip(6).take(66).collect() } else { low.clone() };
        let mut code = String::new();
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            match in_str {
                Some(q) => {
                    if c == q {
                        if chars.peek() == Some(&q) {
                            chars.next();
                        } else {
                            in_str = None;
                        }
                    }
                }
                None => match c {
                    '\'' | '"' => {
                        in_str = Some(c);
                        code.push(' ');
                    }
                    '!' => break,
                    _ => code.push(c),
                },
            }
        }
        // a free-form string continued with `&` stays open on the next line;
        // otherwise a line ends any unterminated literal
        if !(code.trim_end().ends_with('&')) {
            in_str = None;
        }
        if statement_uses_coarrays(&code, fixed) {
            return true;
        }
    }
    false
}

/// One line of code (comments and literals removed, lower case).
pub(crate) fn statement_uses_coarrays(code: &str, fixed: bool) -> bool {
    let squeezed: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    // `[` after a name, `)` or `]` is a codimension or coindex
    let mut prev: Option<char> = None;
    for c in code.chars() {
        if c == '[' && prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == '_' || p == ')') {
            return true;
        }
        if !c.is_whitespace() {
            prev = Some(c);
        }
    }
    const CALLS: &[&str] = &[
        "this_image(",
        "num_images(",
        "image_index(",
        "co_sum(",
        "co_min(",
        "co_max(",
        "co_broadcast(",
        "co_reduce(",
        "lcobound(",
        "ucobound(",
        "codimension",
        "lock_type",
        "event_type",
        "atomic_define(",
        "atomic_ref(",
    ];
    let is_word_start = |s: &str, k: usize| k == 0 || !s.as_bytes()[k - 1].is_ascii_alphanumeric() && s.as_bytes()[k - 1] != b'_';
    for w in CALLS {
        if fixed {
            // blanks are not significant: any occurrence
            if squeezed.contains(w) {
                return true;
            }
            continue;
        }
        // free form: a whole name, then `(` after optional blanks
        let name = w.trim_end_matches('(');
        let mut from = 0;
        while let Some(k) = code[from..].find(name) {
            let at = from + k;
            let after = code[at + name.len()..].trim_start();
            let ends = !after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            if is_word_start(code, at) && ends && (!w.ends_with('(') || after.starts_with('(')) {
                return true;
            }
            from = at + 1;
        }
    }
    // image control statements; statements may be separated by `;` and labelled
    for st in squeezed.split(';') {
        let st = st.trim_start_matches(|c: char| c.is_ascii_digit());
        let st = match st.find(':') {
            Some(k) if !st[..k].contains(['(', '=', ',']) && !st[k..].starts_with("::") => &st[k + 1..],
            _ => st,
        };
        let st = after_logical_if(st);
        if st == "syncall" || st == "syncmemory" || st == "critical" || st == "endcritical" {
            return true;
        }
        // `lock(l[1])`, not an assignment to an array element `lock(3) = 0`
        const CONTROL: &[&str] = &["syncall(", "syncimages(", "syncmemory(", "lock(", "unlock(", "eventpost(", "eventwait(", "formteam(", "changeteam("];
        if CONTROL.iter().any(|w| st.starts_with(w)) && !after_parens(st).starts_with(['=', '%', '(']) {
            return true;
        }
    }
    false
}

/// What follows the first parenthesised group of `st`.
fn after_parens(st: &str) -> &str {
    let Some(open) = st.find('(') else { return "" };
    let mut depth = 0;
    for (i, c) in st[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &st[open + i + 1..];
                }
            }
            _ => {}
        }
    }
    ""
}

/// The statement of a logical `if (cond) stmt` (blanks removed), else `st`.
fn after_logical_if(st: &str) -> &str {
    let Some(rest) = st.strip_prefix("if(") else { return st };
    let mut depth = 1;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return after_logical_if(&rest[i + 1..]);
                }
            }
            _ => {}
        }
    }
    st
}

/// True when one statement's text (its own line(s), comments allowed) uses a coarray
/// feature (see [`uses_coarrays`]).
pub fn statement_text_uses_coarrays(text: &str, fixed: bool) -> bool {
    uses_coarrays(text, fixed)
}

/// True when one statement's text allocates a coarray: `allocate` with a coshape
/// (`allocate(a(n)[*])`). (A `deallocate` of a coarray is refused at run time.)
pub fn allocates_coarray(text: &str, fixed: bool) -> bool {
    let low = text.to_ascii_lowercase();
    let code: String = if fixed { low.chars().filter(|c| *c != ' ').collect() } else { low };
    let code = code.trim_start();
    let code = code.split('!').next().unwrap_or("");
    (code.starts_with("allocate") || code.contains("allocate(") || code.contains("allocate (")) && !code.contains("deallocate") && code.contains('[')
}

/// Scalar complex coarrays (`complex :: z[*]`): gfortran 12.2 with `-fcoarray=lib`
/// miscompiles them (the value lives in a SAVE_EXPR copy: an assignment writes the
/// copy, a coindexed access passes the copy's address), while complex arrays and their
/// elements work (measured with both libraries, docs/local-view.md). Returns the byte offset
/// and length of each such entity in a type declaration.
pub fn scalar_complex_coarrays(src: &str, fixed: bool) -> Vec<(usize, usize)> {
    let mut out = vec![];
    let mut off = 0;
    for line in src.split_inclusive('\n') {
        let start = off;
        off += line.len();
        if fixed && line.chars().next().is_some_and(|c| matches!(c, 'c' | 'C' | '*' | '!')) {
            continue;
        }
        let low = line.to_ascii_lowercase();
        let code = match low.find('!') {
            Some(k) => &low[..k],
            None => &low[..],
        };
        let t = code.trim_start();
        let squeezed: String = t.chars().filter(|c| !c.is_whitespace()).collect();
        if !(squeezed.starts_with("complex") || squeezed.starts_with("doublecomplex")) {
            continue;
        }
        // entities after `::` (or after the type when there is none)
        let from = match code.find("::") {
            Some(k) => k + 2,
            None => {
                let k = code.len() - t.len();
                let kw = "complex";
                let p = code[k..].find(kw).map_or(k, |p| k + p + kw.len());
                // skip a kind selector `(8)` or `*16`
                let rest = &code[p..];
                let r = rest.trim_start();
                if r.starts_with('(') {
                    p + (rest.len() - r.len()) + r.find(')').map_or(0, |q| q + 1)
                } else if let Some(r2) = r.strip_prefix('*') {
                    p + (rest.len() - r.len()) + 1 + r2.len() - r2.trim_start_matches(|c: char| c.is_ascii_digit() || c == ' ').len()
                } else {
                    p
                }
            }
        };
        let b = code.as_bytes();
        let mut i = from;
        while i < b.len() {
            if b[i].is_ascii_alphabetic() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'%')) {
                let s0 = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                let mut j = i;
                while j < b.len() && b[j] == b' ' {
                    j += 1;
                }
                if j < b.len() && b[j] == b'[' {
                    out.push((start + s0, i - s0));
                }
                // skip a parenthesised or bracketed part
                if j < b.len() && (b[j] == b'(' || b[j] == b'[') {
                    let mut depth = 0;
                    while j < b.len() {
                        match b[j] {
                            b'(' | b'[' => depth += 1,
                            b')' | b']' => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    i = j;
                }
            }
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::uses_coarrays;

    #[test]
    fn free_form_coarray_syntax_is_seen() {
        for s in [
            "real :: a(10)[*]\n",
            "integer, allocatable :: b(:)[:]\n",
            "  allocate(b(n)[*])\n",
            "  x = a(3)[2]\n",
            "  a(:)[me+1] = b\n",
            "  y = s[1]\n",
            "  sync all\n",
            "  if (me == 1) sync images(*)\n",
            "  sync memory\n",
            "  critical\n",
            "  c: critical\n",
            "  lock(l[1])\n",
            "  event post(ev[2])\n",
            "  call co_sum(x)\n",
            "  me = this_image()\n",
            "  include 'xmp_coarray.h'\n",
            "  integer :: z\n  codimension :: z[*]\n",
            "  x = 1; sync all\n",
        ] {
            assert!(uses_coarrays(s, false), "{s:?}");
        }
    }

    #[test]
    fn plain_fortran_is_not_taken_for_coarrays() {
        for s in [
            "  x = [1, 2, 3]\n",
            "  call f([a, b], (/ 1 /))\n",
            "  y = a(2) + [integer :: 4]\n",
            "  print *, 'sync all'\n",
            "  ! sync all\n",
            "!$xmp task on p(1)\n",
            "  critical_value = 3\n",
            "  lock(3) = 0\n",
            "  unlock(i)%k = 1\n",
            "  if (x > 0) lock(2) = 1\n",
            "  call my_co_sum(x)\n",
            "  s = 'a[1]'\n",
            "  t = \"he said \"\"a[1]\"\"\"\n",
        ] {
            assert!(!uses_coarrays(s, false), "{s:?}");
        }
    }

    #[test]
    fn fixed_form_ignores_blanks_and_comment_lines() {
        assert!(uses_coarrays("      sync  all\n", true));
        assert!(uses_coarrays("      syncall\n", true));
        assert!(uses_coarrays("      real a(10)[*]\n", true));
        assert!(uses_coarrays("      me = this _image()\n", true));
        assert!(!uses_coarrays("c     sync all\n      x = 1\n", true));
        assert!(!uses_coarrays("*     a(1)[2] = 0\n", true));
        // columns past 72 are a comment in fixed form
        assert!(!uses_coarrays("      x = 1                                                             a[1]\n", true));
    }

    #[test]
    fn coarray_allocations_are_told_from_other_allocations() {
        use super::allocates_coarray as f;
        assert!(f("  allocate(b(n)[*])\n", false));
        assert!(f("  if (k > 0) allocate (c[*], stat=s)\n", false));
        assert!(f("      ALLOCATE ( B ( N ) [ * ] )\n", true));
        assert!(!f("  allocate(b(n))\n", false));
        assert!(!f("  deallocate(b)\n", false));
        assert!(!f("  x = y[2]\n", false));
        assert!(!f("  allocate(b(n)) ! not [*]\n", false));
    }

    #[test]
    fn scalar_complex_coarrays_are_found() {
        use super::scalar_complex_coarrays as f;
        let src = "  complex(8) :: z[*], w(2)[*]\n  complex :: y [*]\n  real :: r[*]\n  double complex q[*]\n  complex*16 a(3)[*], b[2,*]\n";
        let names: Vec<&str> = f(src, false).iter().map(|&(o, l)| &src[o..o + l]).collect();
        assert_eq!(names, ["z", "y", "q", "b"]);
        assert!(f("! complex :: z[*]\n  complex :: s\n", false).is_empty());
    }
}
