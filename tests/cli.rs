//! The `xmpc` driver as a user meets it: exit codes, diagnostics, output files.

use std::path::Path;
use std::process::{Command, Output};

fn xmpc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).output().expect("xmpc runs")
}

fn write(dir: &Path, name: &str, text: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

const GOOD: &str = "#include <stdio.h>\n#pragma xmp nodes p(2)\n#pragma xmp template t(0:99)\n#pragma xmp distribute t(block) onto p\ndouble a[100];\n#pragma xmp align a[i] with t(i)\nint main(void) {\n  /* 日本語のコメント */\n#pragma xmp loop on t(i)\n  for (int i = 0; i < 100; i++) a[i] = i;\n  return 0;\n}\n";

#[test]
fn unchanged_input_comes_out_byte_for_byte() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "good.c", GOOD.as_bytes());
    let out = d.path().join("good.out.c");
    let o = xmpc(&[&src, "--emit=source", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), GOOD);
}

#[test]
fn bad_directive_gives_located_diagnostic_exit_1_and_no_output() {
    let d = tempfile::tempdir().unwrap();
    let bad = GOOD.replace("t(block)", "t(blok)");
    let src = write(d.path(), "bad.c", bad.as_bytes());
    let out = d.path().join("bad.out.c");
    let o = xmpc(&[&src, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("bad.c:4:"), "no file:line in:\n{err}");
    assert!(err.contains("blok"), "{err}");
    assert!(err.contains("block"), "no hint in:\n{err}");
    assert!(!err.contains("\x1b["), "colour on a pipe:\n{err}");
    assert!(!out.exists(), "an output file was written despite errors");
    // An existing output file is left untouched.
    std::fs::write(&out, "previous").unwrap();
    let o = xmpc(&[&src, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "previous");
    // No temporary file is left behind either.
    assert_eq!(std::fs::read_dir(d.path()).unwrap().count(), 2);
}

#[test]
fn usage_errors_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "prog.xyz", b"int x;\n");
    assert_eq!(xmpc(&[&src]).status.code(), Some(2));
    assert_eq!(xmpc(&["--emit=nonsense", &src]).status.code(), Some(2));
    assert_eq!(xmpc(&[]).status.code(), Some(2));
    // --lang overrides the extension.
    assert_eq!(xmpc(&[&src, "--lang=c"]).status.code(), Some(0));
}

#[test]
fn unreadable_and_non_utf8_inputs_exit_1() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("nope.c");
    let o = xmpc(&[missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    let sjis = write(d.path(), "sjis.c", b"/* \x93\xfa\x96\x7b */ int x;\n");
    let o = xmpc(&[&sjis]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not UTF-8"));
}

#[test]
fn xcodeml_and_directive_listing() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "good.c", GOOD.as_bytes());
    let o = xmpc(&[&src, "--emit=xcodeml"]);
    assert!(o.status.success());
    let xml = String::from_utf8(o.stdout).unwrap();
    assert!(xml.starts_with("<XcodeProgram"));
    assert!(xml.contains("<functionDefinition"), "{xml}");
    assert!(xml.contains("<XMPPragma"), "{xml}");
    let o = xmpc(&[&src, "--emit=directives"]);
    let listing = String::from_utf8(o.stdout).unwrap();
    let heads: Vec<&str> = listing.lines().filter(|l| !l.starts_with(' ')).collect();
    assert_eq!(heads.len(), 5, "{listing}");
    assert!(heads[4].contains("good.c:9:1: loop"), "{listing}");
    assert!(heads[2].contains("good.c:4:1: distribute"), "{listing}");
}

#[test]
fn help_shows_examples_and_version_works() {
    let o = xmpc(&["--help"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("Examples:"));
    let o = xmpc(&["--version"]);
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("xmpc "));
}
