//! The checking mode (`-fcheck=xmp` or `XMPC_CHECK=1`, docs/checking.md; issue 39):
//! an access to a distributed array outside the executing node's block and shadow
//! stops the job with the rank, file:line, array and index. Without the mode the
//! translation is unchanged. Real mpicc, mpif90 and mpiexec.

use std::path::Path;
use std::process::{Command, Output};

const XMPC: &str = env!("CARGO_BIN_EXE_xmpc");
const XMPF90: &str = env!("CARGO_BIN_EXE_xmpf90");

fn run(exe: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(exe).args(args).current_dir(dir).env_remove("XMPC_CHECK").output().expect("driver runs")
}

fn err(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn mpiexec(exe: &str, dir: &Path) -> Output {
    Command::new("mpiexec").args(["-n", "2", exe]).current_dir(dir).output().expect("mpiexec runs")
}

/// A 1-D block array of 16 over 2 nodes; `a[i+1]` crosses the block boundary at i = 7.
/// `SHADOW` is replaced by the shadow and reflect directives (or nothing).
const C_PROG: &str = "#include <stdio.h>
#pragma xmp nodes p[2]
#pragma xmp template t[16]
#pragma xmp distribute t[block] onto p
double a[16];
#pragma xmp align a[i] with t[i]
SHADOW
int main(void) {
  double s = 0;
#pragma xmp loop on t[i]
  for (int i = 0; i < 16; i++) a[i] = i;
REFLECT
#pragma xmp loop on t[i] reduction(+:s)
  for (int i = 0; i < 15; i++) s += a[i+1];
  if (s != 120) { printf(\"ERROR %g\\n\", s); return 1; }
#pragma xmp task on p[0]
  printf(\"PASS\\n\");
  return 0;
}
";

const F_PROG: &str = "program chk
  implicit none
  integer, parameter :: n = 16
  real(8) :: a(n), s
  integer :: i
!$xmp nodes p(2)
!$xmp template t(n)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
SHADOW
!$xmp loop on t(i)
  do i = 1, n
    a(i) = i
  end do
REFLECT
  s = 0
!$xmp loop on t(i) reduction(+:s)
  do i = 1, n - 1
    s = s + a(i+1)
  end do
  if (s /= 135) error stop 1
!$xmp task on p(1)
  print *, 'PASS'
!$xmp end task
end program
";

fn program(text: &str, shadow: &str, reflect: &str) -> String {
    text.replace("SHADOW\n", shadow).replace("REFLECT\n", reflect)
}

fn line_of(text: &str, what: &str) -> usize {
    text.lines().position(|l| l.contains(what)).unwrap() + 1
}

#[test]
fn c_read_across_the_block_boundary_stops_with_rank_and_line() {
    let d = tempfile::tempdir().unwrap();
    let src = program(C_PROG, "", "");
    std::fs::write(d.path().join("chk.c"), &src).unwrap();
    let o = run(XMPC, &["-fcheck=xmp", "chk.c", "-o", "chk"], d.path());
    assert!(o.status.success(), "{}", err(&o));
    let r = mpiexec("./chk", d.path());
    let e = err(&r);
    assert!(!r.status.success(), "the job stops: {e}");
    let line = line_of(&src, "s += a[i+1]");
    assert!(e.contains(&format!("[rank 0] xmpc runtime error: chk.c:{line}: a[i+1]:")), "{e}");
    assert!(e.contains("`a` element with index 8 in dimension 1 belongs to another node (this node holds 0:7"), "{e}");
    assert!(!e.contains("PASS"), "{e}");
    // the same through XMPC_CHECK=1
    let o = Command::new(XMPC).args(["chk.c", "-o", "chk2"]).env("XMPC_CHECK", "1").current_dir(d.path()).output().unwrap();
    assert!(o.status.success(), "{}", err(&o));
    assert!(!mpiexec("./chk2", d.path()).status.success());
}

#[test]
fn c_with_shadow_and_reflect_passes_and_default_code_is_unchanged() {
    let d = tempfile::tempdir().unwrap();
    let src = program(C_PROG, "#pragma xmp shadow a[1]\n", "#pragma xmp reflect (a)\n");
    std::fs::write(d.path().join("ok.c"), &src).unwrap();
    let o = run(XMPC, &["-fcheck=xmp", "ok.c", "-o", "ok"], d.path());
    assert!(o.status.success(), "{}", err(&o));
    let r = mpiexec("./ok", d.path());
    assert!(r.status.success() && String::from_utf8_lossy(&r.stdout).contains("PASS"), "{}", err(&r));
    // without the mode: no check in the translation; with it: one per subscript
    let plain = run(XMPC, &["ok.c", "--emit=source"], d.path());
    let checked = run(XMPC, &["-fcheck=xmp", "ok.c", "--emit=source"], d.path());
    let (plain, checked) = (String::from_utf8_lossy(&plain.stdout).to_string(), String::from_utf8_lossy(&checked.stdout).to_string());
    assert!(!plain.contains("xmpc_check_index") && plain.contains("_XMP_ADDR_a[(i+1) - _XMP_a_off0]"), "{plain}");
    assert_eq!(checked.matches("xmpc_check_index(").count(), 2, "{checked}");
    // -fcheck=bounds,xmp leaves -fcheck=bounds to the compiler (gcc ignores it for C
    // with a warning at most)
    let o = run(XMPC, &["-fcheck=bounds,xmp", "ok.c", "--emit=source"], d.path());
    assert!(String::from_utf8_lossy(&o.stdout).contains("xmpc_check_index("), "{}", err(&o));
}

#[test]
fn fortran_read_across_the_block_boundary_stops_with_rank_and_line() {
    let d = tempfile::tempdir().unwrap();
    let src = program(F_PROG, "", "");
    std::fs::write(d.path().join("chk.f90"), &src).unwrap();
    let o = run(XMPF90, &["-fcheck=xmp", "chk.f90", "-o", "chk"], d.path());
    assert!(o.status.success(), "{}", err(&o));
    let r = mpiexec("./chk", d.path());
    let e = err(&r);
    assert!(!r.status.success(), "the job stops: {e}");
    let line = line_of(&src, "s = s + a(i+1)");
    assert!(e.contains(&format!("At line {line} of file chk.f90")), "{e}");
    assert!(e.contains("Index '9' of dimension 1 of array 'a' above upper bound of 8"), "{e}");
    assert!(e.contains("[rank 0] xmpc runtime error: checking mode"), "{e}");
    // with shadow(1) and reflect it passes
    let src = program(F_PROG, "!$xmp shadow a(1)\n", "!$xmp reflect (a)\n");
    std::fs::write(d.path().join("ok.f90"), &src).unwrap();
    let o = run(XMPC, &["-fcheck=xmp", "ok.f90", "-o", "ok"], d.path());
    assert!(o.status.success(), "{}", err(&o));
    let r = mpiexec("./ok", d.path());
    assert!(r.status.success() && String::from_utf8_lossy(&r.stdout).contains("PASS"), "{}", err(&r));
    // the translation differs only by the call that arms the check
    let plain = String::from_utf8_lossy(&run(XMPC, &["ok.f90", "--emit=source"], d.path()).stdout).to_string();
    let checked = String::from_utf8_lossy(&run(XMPC, &["-fcheck=xmp", "ok.f90", "--emit=source"], d.path()).stdout).to_string();
    assert!(!plain.contains("xmpf_check_on"), "{plain}");
    assert_eq!(checked.replace("\n      call xmpf_check_on()", ""), plain);
}

/// Variables in directive expressions (`task on p[k]`, `wait_async (id)`) are
/// checked by xmpc (XMP0115), not left to the compiler on a generated line.
#[test]
fn undeclared_variables_in_on_references_are_located() {
    let d = tempfile::tempdir().unwrap();
    let c = "#pragma xmp nodes p[2]\nint main(void) {\n  int k = 0;\n#pragma xmp task on p[kk]\n  k = 1;\n#pragma xmp barrier on p[k]\n  return k;\n}\n";
    std::fs::write(d.path().join("on.c"), c).unwrap();
    let o = run(XMPC, &["on.c", "-o", "on"], d.path());
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains("error[XMP0115]: `kk` is not declared") && e.contains("on.c:4:23"), "{e}");
    assert!(!e.contains("mpicc"), "{e}");
    let f = "program on\n  implicit none\n  integer :: k\n!$xmp nodes p(2)\n  k = 1\n!$xmp task on p(kk)\n  k = 2\n!$xmp end task\nend program\n";
    std::fs::write(d.path().join("on.f90"), f).unwrap();
    let o = run(XMPC, &["on.f90", "-o", "onf"], d.path());
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains("error[XMP0115]: `kk` is not declared") && e.contains("on.f90:6:17"), "{e}");
}

/// Fixed-form sources get line markers too: gfortran names the user's file and line.
#[test]
fn fixed_form_errors_name_the_users_file_and_line() {
    let d = tempfile::tempdir().unwrap();
    // a sequence number in columns 73-80 on the line that gets a marker stays ignored
    let src = "      program p\n      implicit none                                                     SEQ00020\n      integer a(10), i, s\n!$xmp nodes n(2)\n!$xmp template t(10)\n!$xmp distribute t(block) onto n\n!$xmp align a(i) with t(i)\n      s = 0\n!$xmp loop on t(i) reduction(+:s)\n      do i = 1, 10\n        a(i) = i\n        s = s +\n     &      a(i)\n      end do\n      undecl = s\n      end\n";
    std::fs::write(d.path().join("p.f"), src).unwrap();
    let line = line_of(src, "undecl");
    let o = run(XMPF90, &["p.f", "-o", "p"], d.path());
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains(&format!("p.f:{line}:")) && e.contains("undecl"), "line {line}: {e}");
    assert!(!e.contains(".xmpc."), "{e}");
    let ok = src.replace("      undecl = s\n", "      if (s .ne. 55) error stop 1\n!$xmp task on n(1)\n      print *, 'PASS'\n!$xmp end task\n");
    std::fs::write(d.path().join("p.f"), ok).unwrap();
    let o = run(XMPF90, &["p.f", "-o", "p"], d.path());
    assert!(o.status.success(), "{}", err(&o));
    let r = mpiexec("./p", d.path());
    assert!(String::from_utf8_lossy(&r.stdout).contains("PASS"), "{}", err(&r));
}
