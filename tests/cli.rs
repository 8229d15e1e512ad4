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

/// Changed with the C translator: `--emit=source` (and `-o x.c`) writes the
/// *translated* C; a C file without XMP still comes out byte for byte.
#[test]
fn source_output_is_translated_and_plain_c_is_unchanged() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "good.c", GOOD.as_bytes());
    let out = d.path().join("good.out.c");
    let o = xmpc(&[&src, "--emit=source", "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let t = std::fs::read_to_string(&out).unwrap();
    assert!(t.contains("#include \"xmpc_rt.h\""), "{t}");
    assert!(t.contains("xmpc_loop_sched(") && t.contains("_XMP_ADDR_a[i - _XMP_a_off0] = i;"), "{t}");
    assert!(t.contains("int xmpc_user_main(void)") && t.contains("xmpc_finalize("), "{t}");
    assert!(t.contains("/* 日本語のコメント */"), "{t}");
    // The same with `-o x.c` and no --emit.
    let out2 = d.path().join("good2.c");
    assert!(xmpc(&[&src, "-o", out2.to_str().unwrap()]).status.success());
    assert_eq!(std::fs::read_to_string(&out2).unwrap(), t);
    let plain = "#include <stdio.h>\n/* 日本語 */\nint main(void) { return 0; }\n";
    let p = write(d.path(), "plain.c", plain.as_bytes());
    let o = xmpc(&[&p, "--emit=source"]);
    assert_eq!(String::from_utf8(o.stdout).unwrap(), plain);
}

#[test]
fn translation_error_is_located_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let bad = GOOD.replace("a[i] = i;", "a[i] = i; f(a);");
    let src = write(d.path(), "pass.c", bad.as_bytes());
    let out = d.path().join("pass.out.c");
    let o = xmpc(&[&src, "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("error[XMP0301]") && err.contains("pass.c:10:"), "{err}");
    assert!(!out.exists());
}

/// `xmpc prog.c -o prog` with mpicc and the runtime library, when both are there.
#[test]
fn compiles_and_links_an_executable() {
    if std::process::Command::new("mpicc").arg("--version").output().is_err() {
        eprintln!("skipped: no mpicc");
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "good.c", GOOD.as_bytes());
    // -c makes an object.
    let obj = d.path().join("good.o");
    let o = xmpc(&[&src, "-c", "-O2", "-o", obj.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(obj.exists());
    let exe = d.path().join("good");
    let o = xmpc(&[&src, "-O2", "-g", "--keep", "-o", exe.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    if err.contains("libxmpc_rt.a was not found") {
        assert_eq!(o.status.code(), Some(1));
        assert!(err.contains("cargo build -p xmpc-rt"), "{err}");
        assert!(!exe.exists());
        return;
    }
    assert!(o.status.success(), "{err}");
    assert!(exe.exists());
    assert!(d.path().join("good.xmpc.c").exists(), "--keep keeps the translated C");
    // A C compiler error: exit 1, its message shown, no output.
    let broken = write(d.path(), "broken.c", b"int main(void) { return undefined_thing; }\n");
    let exe2 = d.path().join("broken");
    let o = xmpc(&[&broken, "-o", exe2.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("undefined_thing"));
    assert!(!exe2.exists());
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
    assert_eq!(xmpc(&[&src, "--lang=c", "--emit=source"]).status.code(), Some(0));
}

/// Changed with issue 20: a non-UTF-8 source (Shift-JIS comment) is no longer refused;
/// its bytes pass through (tests/hostile.rs).
#[test]
fn unreadable_inputs_exit_1_and_non_utf8_inputs_pass_through() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("nope.c");
    let o = xmpc(&[missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot read"));
    let sjis = write(d.path(), "sjis.c", b"/* \x93\xfa\x96\x7b */ int x;\n");
    // (without `-o` xmpc links a.out since issue 39, as gcc)
    let o = xmpc(&[&sjis, "--emit=source"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(o.stdout, b"/* \x93\xfa\x96\x7b */ int x;\n");
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

mod malformed {
    use xmpc_frontend::directive::DirLang;
    const C: DirLang = DirLang::C;
    const F: DirLang = DirLang::Fortran;
    include!("../frontend/tests/directives_support/malformed.rs");

    /// Every malformed directive of the parser's golden set, through the driver: exit
    /// status 1, a `file:line:col` diagnostic, no panic, and no output file.
    #[test]
    fn every_malformed_directive_exits_1_without_output() {
        assert!(BAD.len() >= 40, "only {} malformed cases", BAD.len());
        let d = tempfile::tempdir().unwrap();
        let mut failures = Vec::new();
        for (name, lang, src) in BAD {
            // `#pragma xpm` is not an XMP directive to a C compiler: it is passed through
            // (the front end warns about the look-alike sentinel; see c_typo_sentinel).
            if *name == "bad_sentinel" {
                continue;
            }
            // The directive parser alone refuses `#pragma xmp coarray` (its golden case), but
            // the driver lowers the local view first (backends/src/c/coarray.rs), so the
            // file is a valid program there (tests/local_view_cli.rs covers its refusals).
            if *name == "unsupported_coarray" {
                continue;
            }
            let ext = if *lang == C {
                "c"
            } else if name.contains("fixed") {
                "f"
            } else {
                "f90"
            };
            let file = format!("{name}.{ext}");
            let path = super::write(d.path(), &file, src.as_bytes());
            let out = d.path().join(format!("{name}.out"));
            let o = super::xmpc(&[&path, "-o", out.to_str().unwrap()]);
            let err = String::from_utf8_lossy(&o.stderr);
            if o.status.code() != Some(1) {
                failures.push(format!("{name}: exit status {:?}\n{err}", o.status));
                continue;
            }
            assert!(err.contains(&format!("{file}:")) && err.contains("error[XMP"), "{name}: no located diagnostic:\n{err}");
            assert!(!err.contains("panicked"), "{name}: panic\n{err}");
            assert!(!out.exists(), "{name}: output written despite errors");
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        let _ = F;
    }
}

#[test]
fn c_typo_sentinel_warns_but_compiles() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "typo.c", b"int x;\n#pragma xpm nodes p(4)\n#pragma omp parallel\nint y;\n");
    let o = xmpc(&[&src, "--emit=source"]);
    assert_eq!(o.status.code(), Some(0));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("warning[XMP0003]") && err.contains("typo.c:2:9") && err.contains("did you mean `xmp`?"), "{err}");
    assert!(!err.contains("omp"), "omp must not be flagged:\n{err}");
}

#[test]
fn prof_report_subcommand() {
    let d = tempfile::tempdir().unwrap();
    let missing = d.path().join("missing.json");
    let o = xmpc(&["prof", "report", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("missing.json"));
    assert_eq!(xmpc(&["prof", "report"]).status.code(), Some(2));
    assert_eq!(xmpc(&["prof"]).status.code(), Some(2));
    let bad = write(d.path(), "bad.json", b"{\"not\": \"a profile\"}");
    let o = xmpc(&["prof", "report", &bad]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not an xmpc-prof profile"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `xmpc nsim` said "cannot tell the language of 'nsim'"; it is a subcommand now, the
/// commands of xmpc-nsim (issue 39).
#[test]
fn nsim_is_a_subcommand() {
    let cfg = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/bench/nsim/configs/bgl128.toml");
    let o = xmpc(&["nsim", "check", cfg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("nodes"), "{}", String::from_utf8_lossy(&o.stdout));
    let o = xmpc(&["nsim", "run", "-c", cfg.to_str().unwrap(), "-p", "ring:bytes=1K,loops=1", "--brief", "-q"]);
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains("sim_ms="), "{}", String::from_utf8_lossy(&o.stderr));
    let o = xmpc(&["nsim", "run", "-c", cfg.to_str().unwrap(), "-p", "bogus"]);
    assert_eq!(o.status.code(), Some(2));
}

/// `--version` was refused by every subcommand (issue 39).
#[test]
fn every_subcommand_answers_version() {
    for sub in [
        &["prof"][..],
        &["prof", "report"],
        &["bsim"],
        &["bsim", "run"],
        &["bsim", "platform"],
        &["mpiete"],
        &["mpiete", "predict"],
        &["psim"],
        &["nsim"],
        &["nsim", "run"],
    ] {
        let o = xmpc(&[sub, &["--version"][..]].concat());
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success() && out.contains(env!("CARGO_PKG_VERSION")), "{sub:?}: {out}{}", String::from_utf8_lossy(&o.stderr));
    }
}

/// `--diagnostic-format=short|json` (issue 39): one gcc-style line, or one JSON object
/// per line, per diagnostic; `human` stays the default. Through xmpcc/xmpf90 too.
#[test]
fn diagnostic_formats_short_and_json() {
    let d = tempfile::tempdir().unwrap();
    let src = "#pragma xmp nodes p(2)\n#pragma xmp template t(0:9)\n#pragma xmp distribute t(block) onto p\nint main(void) {\n  double sum = 0;\n#pragma xmp loop on t(i) reduction(+:summ)\n  for (int i = 0; i < 10; i++) sum += i;\n#pragma xmp task on p(kk)\n  sum = 1;\n  return 0;\n}\n";
    let f = write(d.path(), "r.c", src.as_bytes());
    let o = xmpc(&[&f, "--diagnostic-format=short", "-o", &d.path().join("r").display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = e.lines().collect();
    assert_eq!(lines, vec![format!("{f}:6:38: error[XMP0115]: `summ` is not declared"), format!("{f}:8:23: error[XMP0115]: `kk` is not declared")], "{e}");
    let o = xmpc(&[&f, "--diagnostic-format=json"]);
    assert_eq!(o.status.code(), Some(1));
    let e = String::from_utf8_lossy(&o.stderr);
    let objs: Vec<serde_json::Value> = e.lines().map(|l| serde_json::from_str(l).expect("one JSON object per line")).collect();
    assert_eq!(objs.len(), 2, "{e}");
    let v = &objs[0];
    assert_eq!((v["file"].as_str(), v["line"].as_u64(), v["column"].as_u64()), (Some(f.as_str()), Some(6), Some(38)));
    assert_eq!(v["end"], serde_json::json!({"line": 6, "column": 42}));
    assert_eq!((v["code"].as_str(), v["severity"].as_str()), (Some("XMP0115"), Some("error")));
    assert_eq!(v["message"], "`summ` is not declared");
    assert_eq!(v["labels"][0]["message"], "not declared here");
    assert_eq!(v["hint"], "did you mean `sum`?");
    // the default is codespan's picture
    let o = xmpc(&[&f, "--emit=source"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("┌─"), "{}", String::from_utf8_lossy(&o.stderr));
    // xmpcc passes the option on
    let o = Command::new(env!("CARGO_BIN_EXE_xmpcc")).args([f.as_str(), "--diagnostic-format=short", "-c"]).current_dir(d.path()).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stderr).starts_with(&format!("{f}:6:38: error[XMP0115]")), "{}", String::from_utf8_lossy(&o.stderr));
}
