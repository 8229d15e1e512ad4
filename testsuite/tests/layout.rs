//! The shape of the compiler crates (frontend, ir, passes, backends, the driver in
//! src/): no function is over 150 lines and no file over 1,500 (a larger one is a
//! design to split, not a place to add), and every crate of the workspace starts with
//! a `//!` crate doc. Functions are found in the syntax tree (syn), with their lines
//! from the first attribute or doc comment to the closing brace.

use std::path::{Path, PathBuf};
use syn::spanned::Spanned;
use syn::visit::Visit;

const MAX_FN_LINES: usize = 150;
const MAX_FILE_LINES: usize = 1500;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n == "target") {
                continue;
            }
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

struct Fns<'f> {
    file: &'f Path,
    long: Vec<String>,
}

impl Fns<'_> {
    fn check(&mut self, name: &str, span: proc_macro2::Span) {
        let lines = span.end().line - span.start().line + 1;
        if lines > MAX_FN_LINES {
            self.long.push(format!("{}:{}: fn {name} is {lines} lines", self.file.display(), span.start().line));
        }
    }
}

impl<'ast> Visit<'ast> for Fns<'_> {
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.check(&f.sig.ident.to_string(), f.span());
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.sig.ident.to_string(), f.span());
        syn::visit::visit_impl_item_fn(self, f);
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        self.check(&f.sig.ident.to_string(), f.span());
        syn::visit::visit_trait_item_fn(self, f);
    }
}

#[test]
fn compiler_functions_and_files_stay_small() {
    let root = root();
    let mut files = vec![];
    for d in ["frontend", "ir", "passes", "backends", "src"] {
        rust_files(&root.join(d), &mut files);
    }
    assert!(files.len() > 50, "found only {} files under {}", files.len(), root.display());
    let mut problems = vec![];
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let n = text.lines().count();
        if n > MAX_FILE_LINES {
            problems.push(format!("{}: {n} lines", f.display()));
        }
        let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mut v = Fns { file: f, long: vec![] };
        v.visit_file(&ast);
        problems.extend(v.long);
    }
    assert!(problems.is_empty(), "over {MAX_FN_LINES} lines a function or {MAX_FILE_LINES} a file:\n{}", problems.join("\n"));
}

/// Every crate of the workspace documents itself (`//!` at the top of its root file).
#[test]
fn every_crate_has_a_crate_doc() {
    let root = root();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members: Vec<&str> = manifest
        .split("members = [")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .unwrap()
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    assert!(members.len() > 10, "{members:?}");
    let mut missing = vec![];
    for m in members {
        let dir = root.join(m);
        let roots = ["src/lib.rs", "src/main.rs"].map(|r| dir.join(r));
        let Some(first) = roots.iter().find(|r| r.is_file()) else { continue };
        let text = std::fs::read_to_string(first).unwrap();
        if !text.trim_start().starts_with("//!") {
            missing.push(first.display().to_string());
        }
    }
    assert!(missing.is_empty(), "no `//!` crate doc: {missing:?}");
}

/// One table of diagnostic codes: every code the compiler crates and the tools emit is
/// in `xmpc_ir::codes`, and `docs/diagnostics.md` lists exactly those codes.
#[test]
fn diagnostic_codes_are_one_table() {
    let root = root();
    let table: std::collections::BTreeSet<&str> = xmpc_ir::Code::ALL.iter().map(|c| c.as_str()).collect();
    let code_like = |s: &str| s.len() == 7 && s.starts_with("XMP") && s[3..].bytes().all(|b| b.is_ascii_digit());
    // codes written in the sources as string literals ("XMP0102")
    let mut files = vec![];
    for d in ["frontend", "ir", "passes", "backends", "src", "runtime"] {
        rust_files(&root.join(d), &mut files);
    }
    let mut unknown = vec![];
    for f in &files {
        if f.components().any(|c| c.as_os_str() == "tests") {
            continue;
        }
        let text = std::fs::read_to_string(f).unwrap();
        for (k, _) in text.match_indices("\"XMP") {
            let lit = &text[k + 1..];
            let code = &lit[..lit.find('"').unwrap_or(0)];
            if code_like(code) && !table.contains(code) {
                unknown.push(format!("{}: {code}", f.display()));
            }
        }
    }
    assert!(unknown.is_empty(), "codes not in ir/src/codes.rs:\n{}", unknown.join("\n"));
    // the documented codes: the first cell of the tables' rows
    let doc = std::fs::read_to_string(root.join("docs/diagnostics.md")).unwrap();
    let documented: std::collections::BTreeSet<&str> =
        doc.lines().filter_map(|l| l.strip_prefix("| ")).filter_map(|l| l.split(' ').next()).filter(|c| code_like(c)).collect();
    let missing: Vec<&&str> = table.difference(&documented).collect();
    let extra: Vec<&&str> = documented.difference(&table).collect();
    assert!(missing.is_empty() && extra.is_empty(), "docs/diagnostics.md: not documented {missing:?}, not in the table {extra:?}");
}

/// JSON is written by serde_json (issue 39: it was assembled with `format!` in two
/// places, with a hand-written escape): no format string of the tools' sources starts a
/// JSON object (`"{{\"` or `"\n{{\"`). Test files may build JSON inputs as they like.
#[test]
fn json_is_written_by_serde() {
    let mut files = Vec::new();
    for d in ["src", "frontend/src", "ir/src", "passes/src", "backends/src", "runtime"] {
        rust_files(&root().join(d), &mut files);
    }
    let mut bad = Vec::new();
    for f in files.iter().filter(|f| !f.components().any(|c| c.as_os_str() == "tests" || c.as_os_str() == "benches")) {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate() {
            if line.contains(r#""{{\""#) || line.contains(r#""\n{{\""#) {
                bad.push(format!("{}:{}: {}", f.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(bad.is_empty(), "JSON built with format! (use serde_json):\n{}", bad.join("\n"));
}
