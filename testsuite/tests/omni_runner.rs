//! `xmpc-testsuite omni` end to end on a small suite shaped like Omni's (an area with a
//! Makefile whose `run:` target lists the cases): classes, the JSON summary, the kept
//! logs and the ratchet (a regression fails the run, a newly passing line does not).
//!
//! Skipped (with a notice) when the `xmpc` driver has not been built next to this test
//! or `mpiexec`/`make` are missing, as the conformance test is.
use std::path::Path;
use std::process::{Command, Output};

const MAKEFILE: &str = "XCC     = xmpcc
XRUN    = mpiexec
TESTS = $(wildcard *.c)
EXES  = $(TESTS:.c=.x)

all default: $(EXES)

.SUFFIXES: .x .c

.c.x:
\t$(XCC) -o $@ $<

run: $(EXES)
\t$(XRUN) -n 2 ./ok.x
#\t$(XRUN) -n 4 ./ok.x
\t$(XRUN) -np 2 ./wrong.x
\t$(XRUN) -n 2 ./refused.x

clean:
\trm -f $(EXES)
";

fn prog(body: &str) -> String {
    format!("#include <stdio.h>\n#include <xmp.h>\n#pragma xmp nodes p[2]\nint main(void) {{\n{body}\n  return 0;\n}}\n")
}

fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc-testsuite")).arg("omni").args(args).output().expect("runner runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn runner_classifies_and_ratchets() {
    let xmpc = xmpc_testsuite::conformance::Options::defaults().xmpc;
    if !xmpc.is_file() {
        eprintln!("omni runner: skipped: no xmpc driver at {}", xmpc.display());
        return;
    }
    for tool in ["mpiexec", "make"] {
        if Command::new(tool).arg("--version").output().is_err() {
            eprintln!("omni runner: skipped: `{tool}` not found");
            return;
        }
    }
    let d = tempfile::tempdir().unwrap();
    let area = d.path().join("suite/area1/C");
    std::fs::create_dir_all(&area).unwrap();
    std::fs::write(area.join("Makefile"), MAKEFILE).unwrap();
    std::fs::write(area.join("ok.c"), prog("  if (xmp_node_num() == 1) printf(\"PASS\\n\");")).unwrap();
    std::fs::write(area.join("wrong.c"), prog("  if (xmp_node_num() == 1) printf(\"ERROR: a[3] = 2\\n\");")).unwrap();
    std::fs::write(area.join("refused.c"), prog("#pragma xmp frobnicate (a)")).unwrap();
    let suite = d.path().join("suite");
    let snap = d.path().join("snap.json");
    let json = d.path().join("sum.json");
    let keep = d.path().join("keep");
    let s = |p: &Path| p.display().to_string();

    let o = runner(&[&s(&suite), "--xmpc", &s(&xmpc), "--snapshot", &s(&snap), "--update", "--json", &s(&json), "--keep", &s(&keep), "-j", "1"]);
    assert!(o.status.success(), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().last(), Some("omni: 1 passed, 2 failed"), "{}", text(&o));
    let snap_text = std::fs::read_to_string(&snap).unwrap();
    assert!(snap_text.contains(r#"{"area": "area1", "exe": "ok.x", "np": 2, "class": "pass"}"#), "{snap_text}");
    assert!(snap_text.contains(r#""exe": "wrong.x", "np": 2, "class": "wrong-answer""#), "{snap_text}");
    assert!(snap_text.contains(r#""exe": "refused.x", "np": 2, "class": "refused""#), "{snap_text}");
    assert_eq!(snap_text.lines().count(), 5, "the commented-out line is not a case: {snap_text}");
    let sum: String = std::fs::read_to_string(&json).unwrap();
    assert!(sum.contains("\"reason\": \"ERROR: a[3] = 2\""), "{sum}");
    // the refusal's build log is kept, with xmpc's diagnostic
    let log = std::fs::read_to_string(keep.join("area1/refused.x.build.log")).unwrap();
    assert!(log.contains("error[XMP"), "{log}");

    // The snapshot says wrong.x passed (a regression now) and ok.x was refused (newly
    // passing now): the run fails, naming both.
    let edited = snap_text
        .replace(r#""exe": "wrong.x", "np": 2, "class": "wrong-answer""#, r#""exe": "wrong.x", "np": 2, "class": "pass""#)
        .replace(r#""exe": "ok.x", "np": 2, "class": "pass""#, r#""exe": "ok.x", "np": 2, "class": "refused""#);
    std::fs::write(&snap, &edited).unwrap();
    let o = runner(&[&s(&suite), "--xmpc", &s(&xmpc), "--snapshot", &s(&snap), "-j", "1"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("REGRESSION area1/wrong.x -n 2: passed in the snapshot, now wrong-answer"), "{out}");
    assert!(out.contains("1 newly passing: run with --update (area1/ok.x -n 2)"), "{out}");
    assert_eq!(std::fs::read_to_string(&snap).unwrap(), edited, "without --update the snapshot is left alone");
}
