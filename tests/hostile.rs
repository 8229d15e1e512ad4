//! Hostile and careless input (issue 20): every case here once panicked, hung,
//! overwrote what it should not, or failed without saying where.

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

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// No panic, no "internal error": the run either succeeds or reports located errors.
fn no_crash(o: &Output) {
    let e = stderr(o);
    assert!(!e.contains("panicked") && !e.contains("internal error"), "{e}");
    assert!(o.status.code().is_some_and(|c| c <= 2), "{:?} {e}", o.status);
}

/// Two procedures of one name, the longer first (procs.rs indexed the shorter one's
/// argument list).
#[test]
fn duplicate_procedure_names_do_not_panic() {
    let d = tempfile::tempdir().unwrap();
    let c = write(d.path(), "dup.c", b"void f(int *x, int *y) { *x = 2; *y = 3; }\nvoid f(int *x) { *x = 1; }\n");
    let f = write(d.path(), "dup.f90", b"subroutine f(x, y)\n  integer x, y\n  y = 2\nend subroutine\nsubroutine f(x)\n  integer x\n  x = 1\nend subroutine\n");
    for (src, out) in [(&c, "skel.c"), (&f, "skel.f90")] {
        let o = xmpc(&[src, "--emit=blocks"]);
        no_crash(&o);
        assert!(o.status.success(), "{}", stderr(&o));
        let o = xmpc(&[src, "--skeletonize", "-o", d.path().join(out).to_str().unwrap()]);
        no_crash(&o);
    }
}

/// A block ending in a multi-byte character (its last byte is inside it), and a
/// multi-byte character in a called name.
#[test]
fn multibyte_characters_at_block_ends_do_not_panic() {
    let d = tempfile::tempdir().unwrap();
    let c = write(d.path(), "mb.c", "int main(void)\n{\n    int i;\n\né#pragma xmp loop on t(i)\n    for (i = 0; i < 4; i++) ;\n    return 0;\n}\n".as_bytes());
    let o = xmpc(&[&c, "--emit=blocks"]);
    no_crash(&o);
    assert!(String::from_utf8_lossy(&o.stdout).contains("mb.c:5:1-5:1"), "{}", String::from_utf8_lossy(&o.stdout));
    let f = write(d.path(), "mb.f90", "program p\n  integer :: a\n  a = 1 ! 日本\nend program\n".as_bytes());
    no_crash(&xmpc(&[&f, "--emit=blocks"]));
    let m = write(d.path(), "name.c", "#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); mpiete日本語(1); MPI_Finalize(); return 0; }\n".as_bytes());
    no_crash(&xmpc(&[&m, "--emit=blocks"]));
    no_crash(&xmpc(&[&m, "--skeletonize", "-o", d.path().join("s.c").to_str().unwrap()]));
}
