//! The XMP/C local view through the `xmpc` driver: coarray syntax, recognised by the
//! C front end, is lowered before the global-view translation (translated source, kept
//! line numbers); what is not implemented is refused with a located diagnostic and no
//! output; a file without local view passes through byte for byte.

use std::process::{Command, Output};

fn xmpc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).output().expect("xmpc runs")
}

const GOOD: &str = "#include <xmp.h>\n#pragma xmp nodes p[*]\nint a[10]:[*];\nint main(void) {\n  int me = xmpc_this_image();\n  a[0:5]:[1] = a[5:5];\n#pragma xmp post (p[1], 3)\n  return a[2]:[0] + me;\n}\n";

#[test]
fn coarray_source_is_lowered_to_runtime_calls() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("co.c");
    std::fs::write(&src, GOOD).unwrap();
    let o = xmpc(&[src.to_str().unwrap(), "--emit=source"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(!err.contains("warning"), "no front-end warning on lowered code: {err}");
    let t = String::from_utf8(o.stdout).unwrap();
    assert!(t.contains("#include \"xmpc_coarray.h\""), "{t}");
    assert!(t.contains("__attribute__((section(\"xmpc_coarrays\"), aligned(16))) int a[10];"), "{t}");
    assert!(t.contains("xmpc_co_put(\"") && t.contains(", 6, (1), (void *)&a[0]"), "put at line 6: {t}");
    assert!(t.contains("xmpc_co_post(\"") && t.contains("xmpc_nodes_world_rank(_XMP_NODES_p, (1)), (3));"), "{t}");
    assert!(t.contains("xmpc_co_register(__start_xmpc_coarrays"), "{t}");
    assert!(!t.contains(":["), "no coarray syntax left: {t}");
}

#[test]
fn unsupported_local_view_is_refused_located_without_output() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("bad.c");
    std::fs::write(&src, GOOD.replace("  return a[2]:[0] + me;", "  return f(a[0:2]:[0]);")).unwrap();
    let out = d.path().join("bad.out.c");
    let o = xmpc(&[src.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("error[XMP0701]") && err.contains("bad.c:8:12"), "{err}");
    assert!(!out.exists());
}

#[test]
fn open_ended_section_of_a_pointer_does_not_compile() {
    // `[:]` takes its extent from sizeof: a pointer would silently give 2 elements.
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("ptr.c");
    std::fs::write(&src, "#include <xmp.h>\nint a[8]:[*];\nint main(void) {\n  int *p = a;\n  int b[8];\n  b[0:8] = p[:]:[0];\n  return b[0];\n}\n").unwrap();
    let exe = d.path().join("ptr");
    let o = xmpc(&[src.to_str().unwrap(), "-o", exe.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "compiled: {err}");
    assert!(err.contains("needs an array, not a pointer"), "{err}");
    assert!(!exe.exists());
}

/// Issue 37: text that only looks like coarray syntax (in a string, a comment, a macro
/// body) made the driver add `#include "xmpc_coarray.h"` to plain C files.
#[test]
fn plain_c_with_coarray_lookalikes_passes_through_byte_for_byte() {
    let d = tempfile::tempdir().unwrap();
    let corpus = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/corpus/c/local_view_lookalikes.c");
    let mut inputs = vec![("lookalikes.c", std::fs::read_to_string(corpus).unwrap())];
    inputs.push(("puts.c", "int f(void){ puts(\"[a]:[b]\"); return 0; }\n".into()));
    inputs.push(("range.c", "#include <stdio.h>\nvoid g(long s, long e){ printf(\"range: [0x%lx-0x%lx] too big\\n\", s, e); }\n".into()));
    for (name, text) in inputs {
        let src = d.path().join(name);
        std::fs::write(&src, &text).unwrap();
        let o = xmpc(&[src.to_str().unwrap(), "--emit=source"]);
        assert!(o.status.success(), "{name}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8(o.stdout).unwrap(), text, "{name} is not passed through byte for byte");
    }
}

#[test]
fn malformed_local_view_directive_is_located_with_a_hint() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("pw.c");
    std::fs::write(&src, GOOD.replace("#pragma xmp post (p[1], 3)", "#pragma xmp post (p[1][2], 3)")).unwrap();
    let o = xmpc(&[src.to_str().unwrap(), "--emit=source"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("error[XMP0701]") && err.contains("pw.c:7:19") && err.contains("hint: write p[k]"), "{err}");
    assert!(o.stdout.is_empty(), "no half-written output");
}
