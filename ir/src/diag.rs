//! Diagnostics are codespan-reporting's own type; the file id is the index of the
//! source file in the driver's `SimpleFiles`.
//!
//! Codes: `XMP0001`–`XMP0099` lexical/syntactic directive errors, `XMP0100`–`XMP0199`
//! semantic directive errors, `XMP0200`+ host-language problems. See `docs/diagnostics.md`.

pub use codespan_reporting::diagnostic::{Diagnostic, Label, LabelStyle, Severity};

pub type FileId = usize;
pub type Diag = Diagnostic<FileId>;

/// Builds an error with a code, a message and a primary label.
pub fn error(code: &str, msg: impl std::fmt::Display, file: FileId, span: crate::Span, label: impl std::fmt::Display) -> Diag {
    Diagnostic::error().with_code(code).with_message(msg).with_labels(vec![Label::primary(file, span.range()).with_message(label)])
}

/// The closest candidate for a "did you mean" hint. Ties go to the alphabetically
/// first name so output is stable; a candidate must keep at least one character of the
/// name (`x` is not a typo of `a`).
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(usize, &str)> = None;
    let lower = name.to_ascii_lowercase();
    for c in candidates {
        let d = levenshtein(&lower, &c.to_ascii_lowercase());
        let limit = (name.len().max(c.len()) / 3).max(1);
        if d <= limit && d < name.chars().count().max(c.chars().count()) && best.is_none_or(|b| (d, c) < b) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + (ca != *cb) as usize).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Renders diagnostics as plain text (no colour), for snapshots and redirected output.
pub fn render_plain(name: &str, text: &str, diags: &[Diag]) -> String {
    use codespan_reporting::files::SimpleFiles;
    use codespan_reporting::term::{self, Config};
    let mut files = SimpleFiles::new();
    let id = files.add(name, text);
    let config = Config::default();
    let mut out = String::new();
    for d in diags {
        let d = d.clone();
        // Every diagnostic of one file carries that file's id; remap to ours.
        let d = Diagnostic { labels: d.labels.into_iter().map(|l| Label { file_id: id, ..l }).collect(), ..d };
        term::emit_to_string(&mut out, &config, &files, &d).expect("the file is in the database");
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn suggestions() {
        assert_eq!(super::did_you_mean("blok", ["block", "cyclic", "gblock"]), Some("block"));
        assert_eq!(super::did_you_mean("zzz", ["block", "cyclic"]), None);
        assert_eq!(super::did_you_mean("x", ["b", "a"]), None);
        assert_eq!(super::did_you_mean("tt", ["u", "t"]), Some("t"));
        assert_eq!(super::did_you_mean("ab", ["ac", "aa"]), Some("aa"));
    }
}
