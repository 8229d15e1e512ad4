//! The Fortran preprocessor runs before translation (src/fpp.rs): directives inside
//! `#ifdef` branches are selected by `-D`, `xmpf90 -cpp` preprocesses a `.f90`, and
//! an error inside an `#ifdef` branch or an `#include`d file is reported at its
//! original file:line:col.

use std::path::Path;
use std::process::{Command, Output};

fn run(exe: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(exe).args(args).current_dir(dir).output().expect("xmpc runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn have_fc() -> bool {
    let fc = std::env::var("XMPC_FC").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpif90".into());
    let ok = Command::new(fc).arg("--version").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("fpp_cli: skipped (no Fortran compiler)");
    }
    ok
}

const PROG: &str = "program t
!$xmp nodes p(2)
#ifdef FOO
!$xmp template tt(20)
#else
!$xmp template tt(10)
#endif
!$xmp distribute tt(block) onto p
end program
";

#[test]
fn ifdef_branch_is_chosen_by_define() {
    if !have_fc() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.F90"), PROG).unwrap();
    let x = env!("CARGO_BIN_EXE_xmpc");
    let o = run(x, &["t.F90", "--emit=directives", "-DFOO"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    // listed at the original lines: the chosen template is line 4
    assert!(s.contains("t.F90:4:1: template") && s.contains("[1:20]") && !s.contains("[1:10]"), "{s}");
    assert!(s.contains("t.F90:8:1: distribute"), "{s}");
    assert!(!text(&o).contains("XMP0203"), "{}", text(&o));
    let o = run(x, &["t.F90", "--emit=directives"], d.path());
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("t.F90:6:1: template") && s.contains("[1:10]") && !s.contains("[1:20]"), "{s}");
}

#[test]
fn error_inside_ifdef_is_at_the_original_line() {
    if !have_fc() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    let src = "program t
  integer :: a(10), i
!$xmp nodes p(2)
!$xmp template tt(10)
!$xmp distribute tt(block) onto p
#ifdef FOO
! a comment
!$xmp align a(i) with tt(i)
#else
!$xmp align a(i) with zz(i)
#endif
end program
";
    std::fs::write(d.path().join("e.F90"), src).unwrap();
    let x = env!("CARGO_BIN_EXE_xmpc");
    let o = run(x, &["e.F90", "--emit=source", "--color=never"], d.path());
    let s = text(&o);
    assert!(!o.status.success(), "{s}");
    // `zz` is on line 10, column 23 of e.F90 (the preprocessed text has it elsewhere)
    assert!(s.contains("e.F90:10:23"), "{s}");
    assert!(s.contains("10 │ !$xmp align a(i) with zz(i)"), "{s}");
    assert!(!s.contains("(preprocessed)"), "{s}");
    let o = run(x, &["e.F90", "--emit=source", "-DFOO"], d.path());
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn error_in_an_included_file_names_that_file() {
    if !have_fc() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("dirs.h"), "! directives\n!$xmp distribute tt(block) onto q\n").unwrap();
    std::fs::write(d.path().join("m.F90"), "program t\n!$xmp nodes p(2)\n!$xmp template tt(10)\n#include \"dirs.h\"\nend program\n").unwrap();
    let o = run(env!("CARGO_BIN_EXE_xmpc"), &["m.F90", "--emit=source", "--color=never"], d.path());
    let s = text(&o);
    assert!(!o.status.success(), "{s}");
    assert!(s.contains("dirs.h:2:"), "{s}");
}

#[test]
fn xmpf90_cpp_preprocesses_a_lower_case_f90() {
    if !have_fc() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.f90"), PROG).unwrap();
    let x = env!("CARGO_BIN_EXE_xmpc");
    // without -cpp a .f90 is not preprocessed: the directive in `#ifdef` is refused
    let o = run(x, &["t.f90", "--emit=directives", "-DFOO"], d.path());
    assert!(!String::from_utf8_lossy(&o.stdout).contains("[1:20]"), "{}", text(&o));
    let o = run(env!("CARGO_BIN_EXE_xmpf90"), &["-cpp", "-DFOO", "t.f90", "-c"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(d.path().join("t.o").is_file());
    let o = run(x, &["--native-flag=-cpp", "t.f90", "--emit=directives", "-DFOO"], d.path());
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("t.f90:4:1: template") && s.contains("[1:20]"), "{}", text(&o));
}

#[test]
fn runtime_messages_name_the_original_file_and_line() {
    if !have_fc() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("d.h"), "! one\n! two\n! three\n!$xmp distribute tt(block) onto p\n").unwrap();
    let src = "program t\n!$xmp nodes p(2)\n!$xmp template tt(10)\n#include \"d.h\"\n  integer a(10), i\n!$xmp align a(i) with tt(i)\nend program\n";
    std::fs::write(d.path().join("m2.F90"), src).unwrap();
    let o = run(env!("CARGO_BIN_EXE_xmpc"), &["m2.F90", "--emit=source"], d.path());
    let s = text(&o);
    assert!(o.status.success(), "{s}");
    // the align is line 9 of the preprocessed text, line 6 of m2.F90
    assert!(s.contains("'d.h', 4, 'distribute'"), "{s}");
    assert!(s.contains("'m2.F90', 6, 'align'"), "{s}");
}

/// `-U NAME` undefines, in the Fortran preprocessor and the native compile alike
/// (`-U_XCALABLEMP` beats the `-D_XCALABLEMP` xmpc adds); a name given to both -D
/// and -U is refused (exit 2), since their relative order is not kept.
#[test]
fn undefine_reaches_the_preprocessor_and_the_native_compile() {
    if !have_fc() {
        return;
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("t.F90"), PROG.replace("FOO", "_XCALABLEMP")).unwrap();
    let x = env!("CARGO_BIN_EXE_xmpc");
    let o = run(x, &["t.F90", "--emit=directives"], d.path());
    assert!(String::from_utf8_lossy(&o.stdout).contains("[1:20]"), "{}", text(&o));
    let o = run(x, &["t.F90", "--emit=directives", "-U_XCALABLEMP"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(s.contains("t.F90:6:1: template") && s.contains("[1:10]") && !s.contains("[1:20]"), "{s}");
    // C: the native compile gets it after xmpc's own -D_XCALABLEMP
    std::fs::write(
        d.path().join("c.c"),
        "#include <stdio.h>\nint main(void) {\n#ifdef _XCALABLEMP\n  puts(\"xmp\");\n#else\n  puts(\"plain\");\n#endif\n  return 0;\n}\n",
    )
    .unwrap();
    for (flag, want) in [(None, "xmp"), (Some("-U_XCALABLEMP"), "plain")] {
        let mut a = vec!["c.c", "-o", "c"];
        a.extend(flag);
        let o = run(x, &a, d.path());
        assert!(o.status.success(), "{}", text(&o));
        let r = Command::new(d.path().join("c")).output().unwrap();
        assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), want);
    }
    let o = run(x, &["t.F90", "--emit=directives", "-DFOO=1", "-UFOO"], d.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("`FOO` is given to both -D and -U"), "{}", text(&o));
}
