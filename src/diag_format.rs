//! `--diagnostic-format=human|short|json` (issue 39, docs/diagnostics.md): xmpc's own
//! diagnostics as codespan-reporting draws them (`human`, the default), one
//! `file:line:col: error[CODE]: message` line each as gcc prints (`short`), or one JSON
//! object per line for editors and CI (`json`).

use std::sync::OnceLock;

use clap::ValueEnum;
use codespan_reporting::files::{Files, SimpleFiles};
use serde_json::{json, Value};
use xmpc_ir::diag::{LabelStyle, Severity};
use xmpc_ir::Diag;

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum DiagFormat {
    /// Source excerpts with labels and hints (codespan-reporting).
    #[default]
    Human,
    /// One `file:line:col: error[CODE]: message` line per diagnostic, as gcc.
    Short,
    /// One JSON object per line: file, line, column, end, code, severity, message,
    /// labels, hint.
    Json,
}

static FORMAT: OnceLock<DiagFormat> = OnceLock::new();

/// Sets the format of this run (the command line's choice; once).
pub fn set(f: DiagFormat) {
    let _ = FORMAT.set(f);
}

/// The format of this run.
pub fn get() -> DiagFormat {
    FORMAT.get().copied().unwrap_or_default()
}

fn severity(s: Severity) -> &'static str {
    match s {
        Severity::Bug => "bug",
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
        Severity::Help => "help",
    }
}

/// (file name, line, column) of byte `at` of file `id`, 1-based; `None` when out of range.
fn position(files: &SimpleFiles<String, String>, id: usize, at: usize) -> Option<(String, usize, usize)> {
    let name = files.name(id).ok()?;
    let line = files.line_index(id, at).ok()?;
    let col = files.column_number(id, line, at).ok()?;
    Some((name, line + 1, col))
}

/// The primary label's location (the first label when none is primary).
fn primary(d: &Diag) -> Option<&xmpc_ir::diag::Label<usize>> {
    d.labels.iter().find(|l| l.style == LabelStyle::Primary).or(d.labels.first())
}

fn code_part(d: &Diag) -> String {
    d.code.as_ref().map_or(String::new(), |c| format!("[{c}]"))
}

/// `file:line:col: error[CODE]: message` (gcc's form; `xmpc:` when unlocated).
pub fn short(files: &SimpleFiles<String, String>, d: &Diag) -> String {
    let at = primary(d).and_then(|l| position(files, l.file_id, l.range.start));
    let place = match at {
        Some((f, l, c)) => format!("{f}:{l}:{c}"),
        None => "xmpc".to_string(),
    };
    format!("{place}: {}{}: {}", severity(d.severity), code_part(d), d.message)
}

fn located(files: &SimpleFiles<String, String>, l: &xmpc_ir::diag::Label<usize>) -> Value {
    let start = position(files, l.file_id, l.range.start);
    let end = position(files, l.file_id, l.range.end);
    json!({
        "file": start.as_ref().map(|s| s.0.clone()),
        "line": start.as_ref().map(|s| s.1),
        "column": start.as_ref().map(|s| s.2),
        "end": end.map(|e| json!({"line": e.1, "column": e.2})),
    })
}

/// One JSON object (one line): file, line, column, end (of the primary label), code,
/// severity, message, labels (file, line, column, end, message, primary), hint (the
/// notes, `help: ` removed; null without).
pub fn json_line(files: &SimpleFiles<String, String>, d: &Diag) -> String {
    let mut v = match primary(d) {
        Some(l) => located(files, l),
        None => json!({"file": null, "line": null, "column": null, "end": null}),
    };
    let labels: Vec<Value> = d
        .labels
        .iter()
        .map(|l| {
            let mut o = located(files, l);
            o["message"] = json!(l.message);
            o["primary"] = json!(l.style == LabelStyle::Primary);
            o
        })
        .collect();
    let notes: Vec<&str> = d.notes.iter().map(|n| n.strip_prefix("help: ").unwrap_or(n)).collect();
    v["code"] = json!(d.code);
    v["severity"] = json!(severity(d.severity));
    v["message"] = json!(d.message);
    v["labels"] = json!(labels);
    v["hint"] = if notes.is_empty() { Value::Null } else { json!(notes.join("\n")) };
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (SimpleFiles<String, String>, Diag) {
        let mut files = SimpleFiles::new();
        let id = files.add("a.c".to_string(), "int x;\n#pragma xmp loop on t[i] reduction(+:summ)\n".to_string());
        let at = 44;
        let d = xmpc_ir::diag::error("XMP0115", "`summ` is not declared", id, xmpc_ir::Span::new(at, at + 4), "not declared here")
            .with_notes(vec!["help: did you mean `sum`?".into()]);
        (files, d)
    }

    #[test]
    fn short_is_one_gcc_line() {
        let (files, d) = sample();
        assert_eq!(short(&files, &d), "a.c:2:38: error[XMP0115]: `summ` is not declared");
        let bare = Diag::error().with_message("no input files");
        assert_eq!(short(&files, &bare), "xmpc: error: no input files");
    }

    #[test]
    fn json_has_every_field() {
        let (files, d) = sample();
        let line = json_line(&files, &d);
        assert!(!line.contains('\n'));
        let v: Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["file"], "a.c");
        assert_eq!((v["line"].as_u64(), v["column"].as_u64()), (Some(2), Some(38)));
        assert_eq!(v["end"], json!({"line": 2, "column": 42}));
        assert_eq!((v["code"].as_str(), v["severity"].as_str()), (Some("XMP0115"), Some("error")));
        assert_eq!(v["message"], "`summ` is not declared");
        assert_eq!(v["labels"][0]["message"], "not declared here");
        assert_eq!(v["labels"][0]["primary"], true);
        assert_eq!(v["hint"], "did you mean `sum`?");
    }
}
