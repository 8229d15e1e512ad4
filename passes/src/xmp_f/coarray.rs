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
fn statement_uses_coarrays(code: &str, fixed: bool) -> bool {
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
        "this_image(", "num_images(", "image_index(", "co_sum(", "co_min(", "co_max(", "co_broadcast(", "co_reduce(",
        "lcobound(", "ucobound(", "codimension", "lock_type", "event_type", "atomic_define(", "atomic_ref(",
    ];
    let is_word_start = |s: &str, k: usize| k == 0 || !s.as_bytes()[k - 1].is_ascii_alphanumeric() && s.as_bytes()[k - 1] != b'_';
    for w in CALLS {
        let mut from = 0;
        while let Some(k) = squeezed[from..].find(w) {
            if fixed || is_word_start(&squeezed, from + k) {
                return true;
            }
            from += k + 1;
        }
    }
    // image control statements; statements may be separated by `;` and labelled
    for st in squeezed.split(';') {
        let st = st.trim_start_matches(|c: char| c.is_ascii_digit());
        let st = match st.find(':') {
            Some(k) if !st[..k].contains(['(', '=', ',']) && !st[k..].starts_with("::") => &st[k + 1..],
            _ => st,
        };
        if st == "syncall"
            || st.starts_with("syncall(")
            || st.starts_with("syncimages(")
            || st == "syncmemory"
            || st.starts_with("syncmemory(")
            || st == "critical"
            || st == "endcritical"
            || st.starts_with("lock(")
            || st.starts_with("unlock(")
            || st.starts_with("eventpost(")
            || st.starts_with("eventwait(")
            || st.starts_with("formteam(")
            || st.starts_with("changeteam(")
        {
            return true;
        }
    }
    false
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
}
