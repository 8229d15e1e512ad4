//! `xmpcc` / `xmpf90`: the drop-ins for Omni's commands. An Omni-style Makefile builds
//! with `XCC=xmpcc` unchanged (Omni's flags reach the right stage), `--show-env`
//! answers what Omni's Makefiles ask, and unsupported flags are named (exit 2).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn run(exe: &str, args: &[&str], dir: &Path) -> Output {
    Command::new(exe).args(args).current_dir(dir).output().expect("drop-in runs")
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A bin directory holding `xmpcc` and `xmpf90` (links to this build's), for PATH.
fn bin_dir(d: &Path) -> PathBuf {
    let bin = d.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for (n, p) in [("xmpcc", env!("CARGO_BIN_EXE_xmpcc")), ("xmpf90", env!("CARGO_BIN_EXE_xmpf90"))] {
        std::os::unix::fs::symlink(p, bin.join(n)).unwrap();
    }
    bin
}

#[test]
fn show_env_answers_omni_makefiles() {
    let d = tempfile::tempdir().unwrap();
    let o = run(env!("CARGO_BIN_EXE_xmpf90"), &["--show-env"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let s = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(s.lines().any(|l| l == "ONESIDED_LIB=\"MPI3\""), "{s}");
    assert!(s.contains("OMNI_MPIFC_CMD=\""), "{s}");
    // intrinsic/F/Makefile: -DXMP_MPI_VERSION=$(MPI_VERSION) feeds `#if (XMP_MPI_VERSION >= 3)`
    let v = s.lines().find_map(|l| l.strip_prefix("MPI_VERSION=\"")?.strip_suffix('"')?.parse::<u32>().ok());
    assert!(v.is_some_and(|v| v >= 3), "the MPI library's MPI_VERSION (xmpc's runtime needs MPI-3): {s}");
    assert!(s.lines().any(|l| l.starts_with("MPI_SUBVERSION=\"")), "{s}");
    let o = run(env!("CARGO_BIN_EXE_xmpcc"), &["--show-env"], d.path());
    let s = String::from_utf8_lossy(&o.stdout).into_owned();
    let var = |k: &str| s.lines().find_map(|l| l.strip_prefix(&format!("{k}=\""))?.strip_suffix('"').map(String::from)).unwrap_or_else(|| panic!("{k} in {s}"));
    // util/C/Makefile compiles `mpi_xmp.c` with `-I$(OMNI_HOME)/include` and links
    // with $(OMNI_LINKER_OPT): the header and the library must be there.
    assert!(Path::new(&var("OMNI_HOME")).join("include/xmp.h").is_file(), "{s}");
    let lopt = var("OMNI_LINKER_OPT");
    let libdir = lopt.split_whitespace().find_map(|w| w.strip_prefix("-L")).unwrap();
    assert!(Path::new(libdir).join("libxmpc_rt.a").is_file(), "{s}");
    assert!(lopt.contains("-lxmpc_rt"));
    assert!(!var("OMNI_MPICC_CMD").is_empty());
}

#[test]
fn unsupported_flags_are_named_and_nothing_is_built() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a.c"), "int main(void) { return 0; }\n").unwrap();
    // (`-E` was one of them until issue 39: it is gcc's preprocess-only now)
    let o = run(env!("CARGO_BIN_EXE_xmpcc"), &["--stop-pp", "--Wx-fxmp", "-o", "a.x", "a.c"], d.path());
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("xmpcc: error: `--stop-pp` (stop after Omni's preprocessor) is not supported by xmpc"), "{e}");
    assert!(e.contains("`--Wx-fxmp`"), "{e}");
    assert!(!d.path().join("a.x").exists());
}

/// An Omni test Makefile's shape (gmove/C: `xmpf90 --show-env` decides -D_MPI3, a
/// helper object compiled with `-c`, `-lm`), with Omni's own flags: `-omp`, `--tmp`,
/// `--Wn"..."`, `--Wl"..."`, all through `make XCC=xmpcc`.
#[test]
fn an_omni_makefile_builds_unchanged() {
    let d = tempfile::tempdir().unwrap();
    let bin = bin_dir(d.path());
    std::fs::create_dir(d.path().join("chk")).unwrap();
    std::fs::write(
        d.path().join("chk/chk.c"),
        "#include <stdio.h>\nvoid chk_int(int e, int r) { if (e == 0 && r == 0) printf(\"PASS\\n\"); else printf(\"ERROR %d %d\\n\", e, r); }\n",
    )
    .unwrap();
    std::fs::write(
        d.path().join("t.c"),
        r#"#include <stdio.h>
#include <math.h>
#include <xmp.h>
#pragma xmp nodes p[2]
#pragma xmp template t[8]
#pragma xmp distribute t[block] onto p
int a[8];
#pragma xmp align a[i] with t[i]
void chk_int(int, int);
int main(void) {
  int s = 0, i;
#pragma xmp loop on t[i] reduction(+:s)
  for (i = 0; i < 8; i++) { a[i] = i; s += a[i]; }
#ifndef _MPI3
  s = -1;
#endif
  if (xmp_node_num() == 1) chk_int(s != 28 || FROM_WN != 7 || (int)sqrt(49.0) != 7, 0);
  return 0;
}
"#,
    )
    .unwrap();
    let mk = "ONESIDED_LIB=$(shell xmpf90 --show-env | sed -n '/ONESIDED_LIB=/p' | sed 's/ONESIDED_LIB=//' | sed \"s/\\\"//g\")\nXCC = xmpcc\nCFLAG =\nifeq ($(ONESIDED_LIB),MPI3)\n\tCFLAG = -D_MPI3\nendif\n\nchk.o: ./chk/chk.c\n\t$(XCC) -c $^ -o $@\n\n%.x: %.c chk.o\n\t$(XCC) ${CFLAG} -omp --tmp --Wn\"-DFROM_WN=7 -O2\" --Wl\"-Wl,-Map,t.map\" -o $@ $< ./chk.o -lm\n";
    std::fs::write(d.path().join("Makefile"), mk).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let o =
        Command::new("make").arg("t.x").env("PATH", &path).env_remove("MAKEFLAGS").current_dir(d.path()).output().expect("make runs (apt-get install make)");
    assert!(o.status.success(), "{}", text(&o));
    let log = String::from_utf8_lossy(&o.stdout);
    assert!(log.contains("-D_MPI3"), "xmpf90 --show-env did not answer MPI3:\n{log}");
    assert!(d.path().join("t.xmpc.c").is_file(), "--tmp keeps the translated source");
    assert!(d.path().join("t.map").is_file(), "--Wl options reach the linker");
    let r = Command::new("mpiexec").args(["-n", "2", "./t.x"]).current_dir(d.path()).stdin(std::process::Stdio::null()).output().unwrap();
    assert!(r.status.success(), "{}", text(&r));
    assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), "PASS", "{}", text(&r));
}

/// `xmpf90 -cpp --Wn"-DVAL=5"`: an XMP Fortran program whose value comes from the
/// native compiler's preprocessor.
#[test]
fn xmpf90_passes_native_options_to_the_fortran_compiler() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("t.f90"),
        "program t\n  integer :: s, i\n!$xmp nodes p(1)\n!$xmp template tt(4)\n!$xmp distribute tt(block) onto p\n  s = 0\n!$xmp loop on tt(i) reduction(+:s)\n  do i = 1, 4\n    s = s + VAL\n  end do\n  print '(a,i0)', 'S=', s\nend program t\n",
    )
    .unwrap();
    let o = run(env!("CARGO_BIN_EXE_xmpf90"), &["-cpp", "--Wn-DVAL=5 -O1", "-o", "t", "t.f90"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let r = Command::new("mpiexec").args(["-n", "1", "./t"]).current_dir(d.path()).stdin(std::process::Stdio::null()).output().unwrap();
    assert!(r.status.success(), "{}", text(&r));
    assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), "S=20", "{}", text(&r));
}

/// The flags of the XMP applications' Makefiles (issue 40, cause 12): `-w`,
/// `-x f95-cpp-input`, `-J<dir>` (modules, with their XMP declarations, written there
/// and found there by a later `-c`), and `-DDEBUG ... -UDEBUG` (the later one wins).
#[test]
fn xmpf90_takes_the_application_makefile_flags() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("mods")).unwrap();
    let m = "module grid\n  integer, parameter :: n = 8\n  integer :: a(n)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\nend module grid\n";
    let p = "program main\n  use grid\n  integer :: i, s\n  s = 0\n!$xmp loop on t(i)\n  do i = 1, n\n    a(i) = i\n  end do\n!$xmp loop on t(i) reduction(+:s)\n  do i = 1, n\n    s = s + a(i)\n  end do\n#ifdef DEBUG\n  print *, 'DEBUG is defined'\n#endif\n  if (s /= n * (n + 1) / 2) then\n    print *, 'ERROR', s\n    stop 1\n  end if\n  print *, 'SUM', s\nend program main\n";
    std::fs::write(d.path().join("grid.f90"), m).unwrap();
    std::fs::write(d.path().join("main.f90"), p).unwrap();
    let fc = env!("CARGO_BIN_EXE_xmpf90");
    let flags = ["-w", "-x", "f95-cpp-input", "-Jmods", "-DDEBUG", "-UDEBUG"];
    for f in ["grid.f90", "main.f90"] {
        let mut a: Vec<&str> = flags.to_vec();
        a.extend(["-c", f]);
        let o = run(fc, &a, d.path());
        assert!(o.status.success(), "{f}: {}", text(&o));
    }
    assert!(d.path().join("mods/grid.mod").is_file() && d.path().join("mods/grid.xmpmod").is_file());
    assert!(!d.path().join("grid.xmpmod").exists(), "-J: module files go to mods/ only");
    let o = run(fc, &["-Jmods", "main.o", "grid.o", "-o", "main.x"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let o = Command::new("mpiexec").args(["-n", "2", "./main.x"]).current_dir(d.path()).output().unwrap();
    let out = text(&o);
    let sum = out.lines().find_map(|l| l.trim().strip_prefix("SUM")).map(str::trim);
    assert!(o.status.success() && sum == Some("36"), "{out}");
    assert!(!out.contains("DEBUG is defined"), "-UDEBUG after -DDEBUG undefines it: {out}");
}

/// Without `-xacc` Omni's commands build without OpenACC: `!$acc` lines are comments,
/// so an `!$acc kernels` left out by `#ifdef _OPENACC` and its `!$acc end kernels`
/// outside it do not make a nesting error (issue 40, cause 4; NICAM-DC's pattern).
#[test]
fn acc_lines_are_comments_without_xacc() {
    let d = tempfile::tempdir().unwrap();
    let src = "program p\n  integer :: a(10), i\n!$xmp nodes n(*)\n#ifdef _OPENACC\n!$acc kernels\n#endif\n  do i = 1, 10\n    a(i) = i\n  end do\n!$acc end kernels\n  print *, 'SUM', sum(a)\nend program\n";
    std::fs::write(d.path().join("acc.F90"), src).unwrap();
    let o = run(env!("CARGO_BIN_EXE_xmpf90"), &["acc.F90", "-o", "acc.x"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let o = Command::new("mpiexec").args(["-n", "1", "./acc.x"]).current_dir(d.path()).output().unwrap();
    assert!(o.status.success() && text(&o).contains("55"), "{}", text(&o));
    // with -xacc the directives are read: the unmatched `end kernels` is an error
    let o = run(env!("CARGO_BIN_EXE_xmpf90"), &["-xacc", "acc.F90", "-o", "acc2.x"], d.path());
    assert!(!o.status.success() && text(&o).contains("XMP0105"), "{}", text(&o));
}

/// A C main program without XMP is wrapped as Omni's xmpcc wraps every main: MPI is
/// initialised before it (it may call MPI without MPI_Init) and `void main` ends with
/// status 0 (XcalableACC's `others/voidmain.c`). Only a main with preprocessor
/// alternatives (CMake's compiler identification) is compiled as mpicc would.
#[test]
fn every_c_main_is_wrapped_as_omni_does() {
    let d = tempfile::tempdir().unwrap();
    let src = "#include <stdio.h>\n#include <mpi.h>\nvoid main()\n{\n    int n;\n    MPI_Comm_size(MPI_COMM_WORLD, &n);\n    printf(\"PASS %d\\n\", n);\n}\n";
    std::fs::write(d.path().join("voidmain.c"), src).unwrap();
    let o = run(env!("CARGO_BIN_EXE_xmpcc"), &["-O2", "-o", "voidmain.x", "voidmain.c"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let o = Command::new("mpiexec").args(["-n", "2", "./voidmain.x"]).current_dir(d.path()).output().unwrap();
    assert!(o.status.success(), "exit status {:?}: {}", o.status, text(&o));
    assert_eq!(text(&o).matches("PASS 2").count(), 2, "{}", text(&o));
}

/// A flag given twice (FFB-MINI's Makefile adds `-O2` twice, `-g` may come twice): the
/// later one wins, as in gcc/gfortran and Omni's drivers (issue 40; refused before).
#[test]
fn repeated_flags_are_taken_as_gcc_takes_them() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("a.f"), "      program a\n      print *, 'OK'\n      end\n").unwrap();
    let fc = env!("CARGO_BIN_EXE_xmpf90");
    let o = run(fc, &["-O2", "-g", "-I/usr/include", "-O2", "-g", "-I/usr/include", "-O3", "-c", "a.f"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    assert!(d.path().join("a.o").is_file());
}
