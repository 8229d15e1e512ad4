//! The crate's layers (src/lib.rs): the kernel never imports the C ABI, the
//! process entries or the tools; the ABI never imports the process entries or
//! the tools; and no two modules import each other, directly or in a circle.
//! Imports are read from the source (`crate::x`, `super::x` paths outside
//! comments and `#[cfg(test)]` modules).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

fn module_name(rel: &Path) -> String {
    let s = rel.with_extension("").to_string_lossy().replace('/', "::");
    s.strip_suffix("::mod").map(str::to_string).unwrap_or(s)
}

/// `crate::a::b` / `super::b` paths of one file, as module names (`kernel::b`).
fn imports(name: &str, text: &str) -> BTreeSet<String> {
    let code: String = text.split("#[cfg(test)]").next().unwrap_or("").lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n");
    let parent: Vec<&str> = name.split("::").collect();
    let parent = &parent[..parent.len() - 1];
    let mut out = BTreeSet::new();
    let word = |s: &str| s.chars().take_while(|c| c.is_ascii_lowercase() || *c == '_').collect::<String>();
    for (i, _) in code.match_indices("::") {
        let before = &code[..i];
        let head: String = before.chars().rev().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect::<Vec<_>>().into_iter().rev().collect();
        let rest = &code[i + 2..];
        let first = word(rest);
        let dep = match head.as_str() {
            "crate" => {
                if first == "kernel" || first == "abi" {
                    let second = rest.strip_prefix(&first).and_then(|r| r.strip_prefix("::")).map(word).unwrap_or_default();
                    if second.is_empty() {
                        first
                    } else {
                        format!("{first}::{second}")
                    }
                } else {
                    first
                }
            }
            "super" if !before.ends_with("::super") => {
                let mut p: Vec<String> = parent.iter().map(|s| s.to_string()).collect();
                p.push(first);
                p.join("::")
            }
            _ => continue,
        };
        if dep != name && !dep.is_empty() {
            out.insert(dep);
        }
    }
    out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = vec![];
    let mut dirs = vec![src.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut g = BTreeMap::new();
    for f in files {
        let name = module_name(f.strip_prefix(&src).unwrap());
        let text = std::fs::read_to_string(&f).unwrap();
        g.insert(name.clone(), imports(&name, &text));
    }
    let known: BTreeSet<String> = g.keys().cloned().collect();
    for deps in g.values_mut() {
        deps.retain(|d| known.contains(d));
    }
    g
}

#[test]
fn the_kernel_imports_no_layer_above_it() {
    let g = graph();
    assert!(g.keys().filter(|k| k.starts_with("kernel::")).count() >= 10, "kernel modules not found: {:?}", g.keys());
    for (m, deps) in &g {
        let above: &[&str] = if m == "kernel" || m.starts_with("kernel::") {
            &["abi", "run", "run_mpi", "cli", "simgrid"]
        } else if m == "abi" || m.starts_with("abi::") {
            &["run", "run_mpi", "cli", "simgrid"]
        } else {
            &[]
        };
        for d in deps {
            assert!(!above.iter().any(|a| d == a || d.starts_with(&format!("{a}::"))), "{m} imports {d}, a layer above it");
        }
    }
}

#[test]
fn no_import_circle() {
    let g = graph();
    // a module on a circle reaches itself
    let mut circle = vec![];
    for m in g.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = g[m].iter().collect();
        while let Some(d) = todo.pop() {
            if seen.insert(d.clone()) {
                todo.extend(g[d].iter());
            }
        }
        if seen.contains(m) {
            circle.push(m.clone());
        }
    }
    assert!(circle.is_empty(), "modules on an import circle: {circle:?}");
}
