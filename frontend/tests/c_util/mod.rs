//! Helpers shared by the C front-end tests.
#![allow(dead_code)]

use xmpc_frontend::Parsed;
use xmpc_ir::{Function, Item, Stmt, StmtKind};

pub fn corpus() -> Vec<(String, String)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testsuite/corpus/c");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c" || x == "h"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    v
}

pub fn parse(text: &str) -> Parsed {
    xmpc_frontend::c::parse(0, "test.c", text)
}

/// True if `s` holds only whitespace and C comments.
pub fn only_comments(s: &str) -> bool {
    let mut rest = s.trim_start();
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("/*") {
            match r.find("*/") {
                Some(e) => rest = r[e + 2..].trim_start(),
                None => return false,
            }
        } else if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |e| &r[e..]).trim_start();
        } else {
            return false;
        }
    }
    true
}

pub fn function<'a>(p: &'a Parsed, name: &str) -> &'a Function {
    p.unit
        .items
        .iter()
        .find_map(|i| match i {
            Item::Function(f) if f.name == name => Some(f),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no function {name}"))
}

/// A compact picture of a statement tree: kinds only, directives by their text.
pub fn shape(text: &str, s: &Stmt) -> String {
    let label = s.label.as_ref().map_or(String::new(), |l| format!("{l}:"));
    let body = match &s.kind {
        StmtKind::Compound(v) => format!("{{{}}}", list(text, v)),
        StmtKind::Decl(ids) => format!("decl{}", ids.len()),
        StmtKind::Expr(_) => "expr".into(),
        StmtKind::If { then, els, .. } => match els {
            Some(e) => format!("if({})else({})", shape(text, then), shape(text, e)),
            None => format!("if({})", shape(text, then)),
        },
        StmtKind::For { body, .. } => format!("for({})", shape(text, body)),
        StmtKind::While { body, .. } => format!("while({})", shape(text, body)),
        StmtKind::DoWhile { body, .. } => format!("do({})", shape(text, body)),
        StmtKind::Switch { body, .. } => format!("switch({})", shape(text, body)),
        StmtKind::Return(_) => "return".into(),
        StmtKind::Goto(l) => format!("goto {l}"),
        StmtKind::Break => "break".into(),
        StmtKind::Continue => "continue".into(),
        StmtKind::Pragma(p) => {
            let t = &text[p.dir.span.range()];
            let words: Vec<&str> = t.split_whitespace().skip_while(|w| *w == "#" || w.starts_with('#') || *w == "pragma").take(2).collect();
            match &p.body {
                Some(b) => format!("[{}]({})", words.join(" "), shape(text, b)),
                None => format!("[{}]", words.join(" ")),
            }
        }
        StmtKind::Verbatim => "verb".into(),
        other => format!("{other:?}"),
    };
    format!("{label}{body}")
}

pub fn list(text: &str, v: &[Stmt]) -> String {
    v.iter().map(|s| shape(text, s)).collect::<Vec<_>>().join(" ")
}
