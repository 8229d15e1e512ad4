//! Small lexical helpers over Fortran statement text.

/// `s` with the contents of every character literal (quotes included) replaced by
/// blanks, byte for byte, so that word searches (`stop`, `error`, `exit`) cannot
/// match inside a string and offsets still index the original text. A doubled quote
/// inside a literal (`'don''t'`) stays inside it.
pub(super) fn mask_strings(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = b.to_vec();
    let mut q: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match q {
            None if c == b'\'' || c == b'"' => {
                q = Some(c);
                out[i] = b' ';
            }
            None => {}
            Some(x) => {
                if c == x && b.get(i + 1) == Some(&x) {
                    out[i] = b' ';
                    out[i + 1] = b' ';
                    i += 2;
                    continue;
                }
                if c == x {
                    q = None;
                }
                // keep line structure (continuations); blank everything else, a
                // multi-byte character byte by byte (the result is ASCII there)
                if c != b'\n' {
                    out[i] = b' ';
                }
            }
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_else(|_| " ".repeat(s.len()))
}

/// Offset of the start of the first line of `text` that is a `contains` statement.
/// Used where the parser saw no contained procedure although the unit has a
/// `contains` (procedures brought in by `#include`, which the translator sees as
/// preprocessor lines).
pub(super) fn contains_line(text: &str) -> Option<usize> {
    let mut off = 0;
    // inside a derived-type definition (its `contains` binds procedures)
    let mut in_type = false;
    for line in text.split_inclusive('\n') {
        let t = line.trim().to_ascii_lowercase();
        let code = t.split('!').next().unwrap_or("").trim_end();
        let squeezed = code.replace(' ', "");
        if squeezed.starts_with("endtype") {
            in_type = false;
        } else if code.starts_with("type") && !squeezed.starts_with("type(") && !squeezed.starts_with("typeis") {
            in_type = true;
        } else if code == "contains" && !in_type {
            return Some(off);
        }
        off += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{contains_line, mask_strings};

    #[test]
    fn strings_are_blanked_in_place() {
        let s = "if (i > 5) stop 'error: stop here'";
        let m = mask_strings(s);
        assert_eq!(m.len(), s.len());
        assert_eq!(m.trim_end(), "if (i > 5) stop");
        assert_eq!(mask_strings("stop \"don't\" ! x"), "stop         ! x");
        assert_eq!(mask_strings("a = 'it''s' // b"), "a =         // b");
        assert_eq!(mask_strings("x = 'é' + y"), "x =      + y");
    }

    #[test]
    fn finds_a_contains_statement() {
        let t = "module m\n  integer :: containsx\n  Contains ! procs\n#include \"a.h\"\nend module\n";
        assert_eq!(contains_line(t), Some(t.find("  Contains").unwrap()));
        assert_eq!(contains_line("module m\nend module\n"), None);
        let t = "module m\n  type, public :: r\n  contains\n    procedure :: f\n  end type r\ncontains\n";
        assert_eq!(contains_line(t), Some(t.rfind("contains").unwrap()));
    }
}
