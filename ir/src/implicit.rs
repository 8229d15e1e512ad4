//! Fortran `implicit` statements: which type a letter's names get (`implicit real*8
//! (a-h, o-z)`, `implicit none`). Shared by the front end (symbols first named in a
//! `dimension` or `common` statement) and the Fortran translator (directive variables
//! never declared).

/// What the `implicit` statements of one unit say about a letter.
pub enum Rule {
    None,
    Type(String),
    Unspecified,
}

/// Reads the `implicit` statements of `body` (statement texts) for `letter`.
pub fn rule(texts: &[String], letter: u8) -> Rule {
    let mut out = Rule::Unspecified;
    for t in texts {
        let t = t.trim();
        let Some(rest) = t.strip_prefix("implicit") else { continue };
        let rest = rest.split('!').next().unwrap_or("").trim();
        if rest.replace(' ', "") == "none" || rest.starts_with("none") {
            return Rule::None;
        }
        // `type (ranges), type (ranges)`; a type may have its own parentheses
        // (`real(8) (a-h)`, `character(len=8) (c)`): the ranges are the last group
        for spec in split_specs(rest) {
            let Some(open) = spec.rfind('(') else { continue };
            let ty = spec[..open].trim().to_string();
            let ranges = spec[open + 1..].trim_end_matches(')');
            for r in ranges.split(',') {
                let r: Vec<u8> = r.bytes().filter(|b| b.is_ascii_alphabetic()).collect();
                let hit = match r.as_slice() {
                    [a] => *a == letter,
                    [a, b] => (*a..=*b).contains(&letter),
                    _ => false,
                };
                if hit {
                    out = Rule::Type(ty.clone());
                }
            }
        }
    }
    out
}

/// Splits `real(8) (a-h, o-z), integer (i-n)` at the commas outside parentheses.
fn split_specs(s: &str) -> Vec<String> {
    let mut out = vec![];
    let mut depth = 0i32;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}
