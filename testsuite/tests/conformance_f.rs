//! XMP Fortran conformance: every program of `testsuite/xmp/F/` is compiled with the
//! `xmpc` driver (`xmpc prog.f90 -o prog`) and run with `mpiexec -n N` for each `N` of
//! its header comment (`! xmpc-test: np=1,2,4`; `flags=-fopenmp,-DN=4` adds xmpc
//! arguments). A run passes when the exit status is
//! 0, exactly one line is `PASS` (after trimming: gfortran's list-directed output
//! starts with a blank) and no line starts with `ERROR`; within a time limit.
//!
//! Extra checks: `stop n` / `call exit(n)` statuses reach mpiexec, a program of two
//! files with a module, `-c` objects, and a malformed fixed-form `c$xmp` directive is
//! reported at its original column.
//!
//! The driver is `$XMPC`, else `xmpc` next to this test's target directory (build it
//! with `cargo build -p xmpc -p xmpc-rt`). Without it, or without `mpiexec`/`mpif90`,
//! the test is skipped with a notice unless `XMPC_CONFORMANCE_REQUIRE=1` (then it
//! fails). `XMPC_CONFORMANCE=0` skips it. `XMPC_F_ONLY=name` runs one program.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn xmpc() -> PathBuf {
    if let Some(p) = std::env::var_os("XMPC").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().unwrap();
    // target/<profile>/deps/conformance_f-HASH → target/<profile>/xmpc
    let dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    dir.join("xmpc")
}

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("xmp/F")
}

fn mpiexec() -> String {
    std::env::var("MPIEXEC").unwrap_or_else(|_| "mpiexec".into())
}

/// Skips (returns false) or panics when the tools are missing.
fn tools_ready(what: &str) -> bool {
    if std::env::var("XMPC_CONFORMANCE").as_deref() == Ok("0") {
        eprintln!("{what}: skipped (XMPC_CONFORMANCE=0)");
        return false;
    }
    let require = std::env::var("XMPC_CONFORMANCE_REQUIRE").as_deref() == Ok("1");
    let mut missing = vec![];
    if !xmpc().is_file() {
        missing.push(format!("no xmpc driver at {} (cargo build -p xmpc -p xmpc-rt, or set XMPC)", xmpc().display()));
    }
    for tool in [mpiexec(), std::env::var("XMPC_FC").unwrap_or_else(|_| "mpif90".into())] {
        if Command::new(&tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
            missing.push(format!("`{tool}` not found"));
        }
    }
    if missing.is_empty() {
        return true;
    }
    if require {
        panic!("{what}: {}", missing.join("; "));
    }
    eprintln!("{what}: skipped: {}", missing.join("; "));
    false
}

/// Process counts of a program's header: `xmpc-test: np=1,2,4`.
fn header_nps(text: &str) -> Vec<u32> {
    for line in text.lines().take(10) {
        if let Some(rest) = line.split("xmpc-test:").nth(1) {
            if let Some(v) = rest.trim().strip_prefix("np=") {
                return v.split_whitespace().next().unwrap_or("").split(',').filter_map(|x| x.trim().parse().ok()).collect();
            }
        }
    }
    vec![]
}

/// Extra xmpc arguments of a program's header: `xmpc-test: np=1,2 flags=-fopenmp,-DX`
/// (comma-separated).
fn header_flags(text: &str) -> Vec<String> {
    for line in text.lines().take(10) {
        if let Some(rest) = line.split("xmpc-test:").nth(1) {
            if let Some(v) = rest.split_whitespace().find_map(|w| w.strip_prefix("flags=")) {
                return v.split(',').filter(|x| !x.is_empty()).map(str::to_string).collect();
            }
        }
    }
    vec![]
}

fn is_open_mpi() -> bool {
    Command::new(mpiexec()).arg("--version").output().is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("Open MPI"))
}

/// Runs `cmd` with a time limit; (status code, stdout, stderr, timed out).
fn run_limited(mut cmd: Command, limit: Duration) -> (Option<i32>, String, String, bool) {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn");
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = so.read_to_string(&mut s);
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = se.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            timed_out = true;
            break child.wait().ok().and_then(|s| s.code());
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    (status, t_out.join().unwrap_or_default(), t_err.join().unwrap_or_default(), timed_out)
}

fn mpirun(exe: &Path, np: u32, open_mpi: bool) -> (Option<i32>, String, String, bool) {
    let mut cmd = Command::new(mpiexec());
    if open_mpi {
        cmd.arg("--oversubscribe");
    }
    cmd.arg("-n").arg(np.to_string()).arg(exe);
    run_limited(cmd, Duration::from_secs(120))
}

fn compile(args: &[&str], dir: &Path) -> Result<(), String> {
    let out = Command::new(xmpc()).args(args).current_dir(dir).output().map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("xmpc {} failed:\n{}", args.join(" "), String::from_utf8_lossy(&out.stderr)))
    }
}

#[test]
fn fortran_programs_pass() {
    if !tools_ready("conformance_f") {
        return;
    }
    let only = std::env::var("XMPC_F_ONLY").ok();
    let mut progs: Vec<PathBuf> = std::fs::read_dir(programs_dir())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("f90" | "f" | "F90" | "F")))
        .filter(|p| only.as_deref().is_none_or(|o| p.file_stem().is_some_and(|s| s == o)))
        .collect();
    progs.sort();
    assert!(only.is_some() || progs.len() >= 60, "expected at least 60 Fortran programs, found {}", progs.len());
    run_programs("conformance_f", &progs);
}

/// The self-checking Fortran programs of the front-end corpus (`testsuite/corpus/f90`,
/// `testsuite/corpus/f`), all of them.
#[test]
fn corpus_programs_pass() {
    if !tools_ready("conformance_f corpus") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let mut progs: Vec<PathBuf> = ["f90", "f"].iter().flat_map(|d| std::fs::read_dir(root.join(d)).unwrap().filter_map(|e| e.ok().map(|e| e.path()))).collect();
    progs.sort();
    assert!(progs.len() >= 15, "corpus: {} programs", progs.len());
    run_programs("conformance_f corpus", &progs);
}

/// Compiles each program with the driver and runs it at each declared process count.
/// Two programs at a time (as `conformance -j 2`), each in a folder of its own, so the
/// module files of one never meet another's.
fn run_programs(what: &str, progs: &[PathBuf]) {
    let tmp = std::env::temp_dir().join(format!("xmpc-conformance-f-{}-{}", what.len(), std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let open_mpi = is_open_mpi();
    let (failures, runs) = xmpc_testsuite::par_map(progs, |p| {
        let mut failures = vec![];
        let mut runs = 0;
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(p).unwrap();
        let nps = header_nps(&text);
        if nps.is_empty() {
            return (vec![format!("{name}: no `xmpc-test: np=...` header")], 0);
        }
        let dir = tmp.join(&name);
        std::fs::create_dir_all(&dir).unwrap();
        let exe = dir.join(&name);
        let flags = header_flags(&text);
        let mut args = vec![p.to_str().unwrap(), "-o", exe.to_str().unwrap()];
        args.extend(flags.iter().map(String::as_str));
        if let Err(e) = compile(&args, &dir) {
            return (vec![format!("{name}: {e}")], 0);
        }
        for np in nps {
            runs += 1;
            let (code, so, se, to) = mpirun(&exe, np, open_mpi);
            let passes = so.lines().filter(|l| l.trim() == "PASS").count();
            let errors = so.lines().any(|l| l.trim_start().starts_with("ERROR"));
            if to || code != Some(0) || passes != 1 || errors {
                failures.push(format!("{name} np={np}: status {code:?}, timed out {to}, PASS x{passes}\nstdout:\n{so}\nstderr:\n{se}"));
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        (failures, runs)
    });
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("{what}: {} programs, {runs} runs, {} failures", progs.len(), failures.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n---\n"));
}

/// `stop n`, `error stop` and `call exit(n)` statuses reach mpiexec (non-zero), and a
/// plain `stop` exits 0.
#[test]
fn exit_statuses_reach_mpiexec() {
    if !tools_ready("conformance_f") {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-status-f-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let open_mpi = is_open_mpi();
    let cases: &[(&str, &str, bool)] = &[
        ("stop3", "program s\n!$xmp nodes p(*)\n  stop 3\nend program s\n", false),
        ("exit5", "program s\n!$xmp nodes p(*)\n  call exit(5)\nend program s\n", false),
        ("errstop", "program s\n  error stop\nend program s\n", false),
        ("stop0", "program s\n!$xmp nodes p(*)\n  if (.true.) stop\n  print *, 'not reached'\nend program s\n", true),
        ("fixedstop", "      program s\nc$xmp nodes p(*)\n      stop 4\n      end\n", false),
    ];
    for (name, src, ok) in cases {
        let ext = if name.starts_with("fixed") { "f" } else { "f90" };
        let f = tmp.join(format!("{name}.{ext}"));
        std::fs::write(&f, src).unwrap();
        let exe = tmp.join(name);
        compile(&[f.to_str().unwrap(), "-o", exe.to_str().unwrap()], &tmp).unwrap();
        for np in [1, 2] {
            let (code, so, se, to) = mpirun(&exe, np, open_mpi);
            assert!(!to, "{name}: timed out");
            if *ok {
                assert_eq!(code, Some(0), "{name} np={np}: {so}{se}");
                assert!(!so.contains("not reached"), "{name}: ran past stop");
            } else {
                assert!(code.is_some_and(|c| c != 0), "{name} np={np}: status {code:?} should be non-zero\n{so}{se}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// An assumed-shape aligned dummy whose shadow differs from the actual argument's:
/// the callee's layout does not fit the caller's block, a located runtime error
/// (non-zero status) rather than a wrong mapping.
#[test]
fn assumed_shape_mismatch_is_a_runtime_error() {
    if !tools_ready("conformance_f") {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-asmis-f-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let src = "module m\ncontains\n  subroutine s(a, n)\n    integer :: n\n    real(8) :: a(:)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp shadow a(2:2)\n    print *, 'not reached'\n  end subroutine s\nend module m\nprogram g\n  use m\n  real(8) :: x(12)\n!$xmp nodes p(*)\n!$xmp template t(12)\n!$xmp distribute t(block) onto p\n!$xmp align x(i) with t(i)\n!$xmp shadow x(1:1)\n  call s(x, 12)\nend program g\n";
    let f = tmp.join("asmis.f90");
    std::fs::write(&f, src).unwrap();
    let exe = tmp.join("asmis");
    compile(&[f.to_str().unwrap(), "-o", exe.to_str().unwrap()], &tmp).unwrap();
    let (code, so, se, to) = mpirun(&exe, 2, is_open_mpi());
    assert!(!to, "asmis: timed out");
    assert!(code.is_some_and(|c| c != 0), "asmis: status {code:?}\n{so}{se}");
    assert!(!so.contains("not reached"), "asmis: ran on\n{so}");
    let all = format!("{so}{se}");
    assert!(all.contains("asmis.f90:9: align: the actual argument has 8 elements in dimension 1"), "asmis: no located error\n{all}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Two files: a module (no XMP) and an XMP main program using it; also through `-c`.
#[test]
fn multi_file_with_module() {
    if !tools_ready("conformance_f") {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-multi-f-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(
        tmp.join("consts.f90"),
        "module consts\n  implicit none\n  integer, parameter :: n = 20\ncontains\n  integer function sq(i)\n    integer, intent(in) :: i\n    sq = i * i\n  end function sq\nend module consts\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("main.f90"),
        "! uses module consts\nprogram main\n  use consts\n  implicit none\n  include 'xmp_lib.h'\n  integer :: i, s\n  integer :: a(n)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n  s = 0\n!$xmp loop on t(i) reduction(+:s)\n  do i = 1, n\n    a(i) = sq(i)\n    s = s + a(i)\n  end do\n  if (s /= n * (n + 1) * (2 * n + 1) / 6) then\n    print *, 'ERROR', s\n    stop 1\n  end if\n  if (xmp_node_num() == 1) print *, 'PASS'\nend program main\n",
    )
    .unwrap();
    let open_mpi = is_open_mpi();
    // one command line, module file first
    compile(&["consts.f90", "main.f90", "-o", "prog1"], &tmp).unwrap();
    // separate compilation
    compile(&["-c", "consts.f90"], &tmp).unwrap();
    compile(&["-c", "main.f90"], &tmp).unwrap();
    compile(&["consts.o", "main.o", "-o", "prog2"], &tmp).unwrap();
    for exe in ["prog1", "prog2"] {
        for np in [1, 2, 4] {
            let (code, so, se, _) = mpirun(&tmp.join(exe), np, open_mpi);
            assert_eq!(code, Some(0), "{exe} np={np}: {so}{se}");
            assert_eq!(so.lines().filter(|l| l.trim() == "PASS").count(), 1, "{exe} np={np}: {so}");
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// An MPI main program calling XMP procedures (Omni's util/F/mpi_xmp.f90): MPI_Init,
/// `call xmp_init(MPI_COMM_WORLD)`, an XMP subroutine of another file, `call
/// xmp_finalize()`, MPI_Finalize. The main is compiled by the plain MPI compiler (as
/// Omni's Makefile does) and by xmpc (a plain MPI program: left as it is), the
/// subroutine by xmpc; xmpc links.
#[test]
fn mpi_main_calls_xmp_procedures() {
    if !tools_ready("conformance_f") {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-mpixmp-f-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(
        tmp.join("main.f90"),
        "program main\n  include 'mpif.h'\n  integer :: ierr, rank, s\n  call MPI_Init(ierr)\n  call xmp_init(MPI_COMM_WORLD)\n  call hoge(s)\n  call xmp_finalize()\n  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)\n  if (s /= 210) print *, 'ERROR', s\n  if (rank == 0 .and. s == 210) print *, 'PASS'\n  call MPI_Finalize(ierr)\nend program main\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("sub.f90"),
        "subroutine hoge(s)\n  integer :: i, s, a(20)\n!$xmp nodes p(*)\n!$xmp template t(20)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n  s = 0\n!$xmp loop on t(i) reduction(+:s)\n  do i = 1, 20\n    a(i) = i\n    s = s + a(i)\n  end do\nend subroutine hoge\n",
    )
    .unwrap();
    let fc = std::env::var("XMPC_FC").unwrap_or_else(|_| "mpif90".into());
    let st = Command::new(&fc).args(["-c", "main.f90", "-o", "main_mpi.o"]).current_dir(&tmp).status().unwrap();
    assert!(st.success(), "{fc} -c main.f90");
    compile(&["-c", "sub.f90"], &tmp).unwrap();
    compile(&["main_mpi.o", "sub.o", "-o", "prog1"], &tmp).unwrap();
    compile(&["main.f90", "sub.o", "-o", "prog2"], &tmp).unwrap();
    let open_mpi = is_open_mpi();
    for exe in ["prog1", "prog2"] {
        for np in [1, 3] {
            let (code, so, se, to) = mpirun(&tmp.join(exe), np, open_mpi);
            assert!(!to, "{exe} np={np}: timed out");
            assert_eq!(code, Some(0), "{exe} np={np}: {so}{se}");
            assert_eq!(so.lines().filter(|l| l.trim() == "PASS").count(), 1, "{exe} np={np}: {so}{se}");
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A module with XMP declarations (node set, template, an aligned array with a
/// shadow, an allocatable aligned array) used from another file: the module's file
/// leaves `<module>.xmpmod` beside its `.mod`, and the using file's loop, reflect,
/// reduction and allocate are translated with it; one command line and `-c`.
#[test]
fn module_with_xmp_declarations_across_files() {
    if !tools_ready("conformance_f") {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-xmpmod-f-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(
        tmp.join("field.f90"),
        "module field\n  implicit none\n  integer, parameter :: n = 30\n  real(8) :: u(n)\n  real(8), allocatable :: v(:)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align u(i) with t(i)\n!$xmp align v(i) with t(i)\n!$xmp shadow u(1)\ncontains\n  subroutine fill()\n    integer :: i\n!$xmp loop on t(i)\n    do i = 1, n\n      u(i) = i\n    end do\n  end subroutine fill\nend module field\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("main.f90"),
        "program main\n  use field\n  implicit none\n  include 'xmp_lib.h'\n  integer :: i, err\n  real(8) :: s\n  err = 0\n  allocate(v(n))\n  call fill()\n!$xmp reflect (u)\n  s = 0\n!$xmp loop on t(i) reduction(+:s)\n  do i = 2, n - 1\n    v(i) = u(i - 1) + u(i + 1)\n    if (v(i) /= 2 * i) err = err + 1\n    s = s + v(i)\n  end do\n!$xmp reduction(+:err)\n  if (err /= 0 .or. s /= dble(n * (n + 1) - 2 - 2 * n)) then\n    print *, 'ERROR', err, s\n    stop 1\n  end if\n  if (xmp_node_num() == 1) print *, 'PASS'\nend program main\n",
    )
    .unwrap();
    let open_mpi = is_open_mpi();
    compile(&["field.f90", "main.f90", "-o", "prog1"], &tmp).unwrap();
    let info = std::fs::read_to_string(tmp.join("field.xmpmod")).expect("field.xmpmod written beside field.mod");
    assert!(info.contains("\"xmpc-xmpmod/1\"") && info.contains("\"u\""), "{info}");
    // separate compilation: a fresh directory state for the second file's translation
    std::fs::remove_file(tmp.join("field.xmpmod")).unwrap();
    compile(&["-c", "field.f90"], &tmp).unwrap();
    compile(&["-c", "main.f90"], &tmp).unwrap();
    compile(&["field.o", "main.o", "-o", "prog2"], &tmp).unwrap();
    for exe in ["prog1", "prog2"] {
        for np in [1, 2, 3] {
            let (code, so, se, _) = mpirun(&tmp.join(exe), np, open_mpi);
            assert_eq!(code, Some(0), "{exe} np={np}: {so}{se}");
            assert_eq!(so.lines().filter(|l| l.trim() == "PASS").count(), 1, "{exe} np={np}: {so}");
        }
    }
    // without the module's description the using file's directives are unknown names
    std::fs::remove_file(tmp.join("field.xmpmod")).unwrap();
    let err = compile(&["-c", "main.f90"], &tmp).unwrap_err();
    assert!(err.contains("XMP0103") && err.contains(".xmpmod"), "{err}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A malformed `c$xmp` directive in a fixed-form file is reported by the driver at
/// its line and original column.
#[test]
fn fixed_form_directive_error_column() {
    if !xmpc().is_file() {
        if std::env::var("XMPC_CONFORMANCE_REQUIRE").as_deref() == Ok("1") {
            panic!("no xmpc driver at {}", xmpc().display());
        }
        eprintln!("skipped: no xmpc driver at {}", xmpc().display());
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-diag-f-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    // line 4: `c$xmp distribute t(blok) onto p` — the bad format starts at column 20
    let src = "      program bad\n      integer a(10)\nc$xmp template t(10)\nc$xmp distribute t(blok) onto p\n      a(1) = 1\n      end\n";
    // and a continued directive: `blah` on the continuation line, column 15
    let src2 = "      program bad\n      integer a(10)\nc$xmp template t(10)\n!$xmp distribute t(block)\n!$xmp& onto p blah\n      a(1) = 1\n      end\n";
    for (name, text, want) in [("bad.f", src, "bad.f:4:20"), ("bad2.f", src2, "bad2.f:5:15")] {
        let f = tmp.join(name);
        std::fs::write(&f, text).unwrap();
        let out = Command::new(xmpc()).arg(&f).arg("-o").arg(tmp.join("bad")).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!out.status.success(), "a malformed directive must fail:\n{err}");
        assert!(err.contains(want), "diagnostic should point at {want}:\n{err}");
        assert!(!tmp.join("bad").exists(), "no executable on error");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// CloverLeaf's module pattern (issue 40 items 6 and 7), compiled file by file: aligned
/// arrays declared over continuation lines with a `dimension(:,:)` attribute and a
/// comment, a template of `gblock(*)` distributed by a `template_fix` in another file
/// (the node set it goes onto read from the module's description), and a
/// `reduction(min:dt)` of a module variable in another file (its type from the
/// description). Every node checks the minimum and the fixed template's blocks.
#[test]
fn module_declarations_as_cloverleaf_writes_them() {
    if !tools_ready("conformance_f") {
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-clover-pattern-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    std::fs::write(
        tmp.join("defs.f90"),
        "module defs\n  implicit none\n  real(kind=8), dimension(:,:), allocatable :: density & ! cells\n    ,energy   &\n    ,pressure\n  real(kind=8) :: dt\n!$xmp nodes p(*)\n!$xmp template t(:)\n!$xmp distribute t(gblock(*)) onto p\n!$xmp align (i,*) with t(i) :: density, energy, &\n!$xmp   pressure\nend module defs\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("main.f90"),
        "program main\n  use defs\n  implicit none\n  include 'xmp_lib.h'\n  integer, parameter :: n = 20\n  integer :: i, err, np, me\n  integer, allocatable :: m(:)\n  np = xmp_num_nodes()\n  me = xmp_node_num()\n  allocate(m(np))\n  m = n / np\n  m(np) = n - (np - 1) * (n / np)\n!$xmp template_fix (gblock(m)) t(1:n)\n  allocate(density(n, 3), energy(n, 3), pressure(n, 3))\n  err = 0\n  dt = 1.0d9\n!$xmp loop on t(i)\n  do i = 1, n\n    density(i, :) = i\n    dt = min(dt, dble(i) + 0.5d0)\n  end do\n!$xmp reduction(min:dt)\n  if (dt /= 1.5d0) err = err + 1\n!$xmp loop on t(i)\n  do i = 1, n\n    if (density(i, 2) /= i) err = err + 1\n    if (i <= (me - 1) * (n / np) .or. (me < np .and. i > me * (n / np))) err = err + 1\n  end do\n!$xmp reduction(+:err)\n  if (err /= 0) then\n    print *, 'ERROR', err\n    stop 1\n  end if\n  if (me == 1) print *, 'PASS'\nend program main\n",
    )
    .unwrap();
    let open_mpi = is_open_mpi();
    compile(&["-c", "defs.f90"], &tmp).unwrap();
    compile(&["-c", "main.f90"], &tmp).unwrap();
    compile(&["defs.o", "main.o", "-o", "prog"], &tmp).unwrap();
    for np in [1, 2, 3] {
        let (code, so, se, _) = mpirun(&tmp.join("prog"), np, open_mpi);
        assert_eq!(code, Some(0), "np={np}: {so}{se}");
        assert_eq!(so.lines().filter(|l| l.trim() == "PASS").count(), 1, "np={np}: {so}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}
