//! docs/getting-started.md is run as written: every ```sh block, in order, in one bash
//! script (`set -euo pipefail`) in an empty directory, with the built `xmpc` (and the
//! libraries beside it) first on PATH. Its outputs are checked where the page says
//! what they are.

use std::path::Path;
use std::process::Command;

/// The ```sh blocks of a Markdown page, in order.
fn sh_blocks(md: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    for line in md.lines() {
        match (&mut cur, line.trim_end()) {
            (None, "```sh") => cur = Some(String::new()),
            (Some(_), "```") => out.push(cur.take().unwrap()),
            (Some(b), l) => {
                b.push_str(l);
                b.push('\n');
            }
            _ => {}
        }
    }
    out
}

#[test]
fn getting_started_commands_run() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let md = std::fs::read_to_string(root.join("docs/getting-started.md")).unwrap();
    let blocks = sh_blocks(&md);
    assert!(blocks.len() >= 5, "the page lost its commands");
    let bin = Path::new(env!("CARGO_BIN_EXE_xmpc")).parent().unwrap().to_path_buf();
    assert!(bin.join("libxmpc_prof.so").exists(), "libxmpc_prof.so is not beside xmpc: run `cargo build --workspace` first");
    let dir = tempfile::tempdir().unwrap();
    let script = format!("set -euo pipefail\n{}", blocks.join("\n"));
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let o = Command::new("bash").arg("-c").arg(&script).current_dir(dir.path()).env("PATH", path).env("BSIM_PROGRESS", "0").output().unwrap();
    let (so, se) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "docs/getting-started.md failed ({}):\n{so}\n{se}", o.status);
    assert!(so.contains("sum = 4950"), "{so}");
    assert!(so.contains("predicted time"), "{so}");
    for f in ["xmpc_prof.json", "xmpc_prof_time.png", "pp.svg", "pp.json", "pp.paje"] {
        assert!(dir.path().join(f).is_file(), "{f} not written");
    }
}
