//! XMP local view in Fortran (coarrays, docs/local-view.md): every program of
//! `testsuite/xmp/Flocal/` is compiled with the `xmpc` driver and run with
//! `mpiexec -n N` for each `N` of its header (`! xmpc-test: np=1,2,4`). A run passes
//! when the exit status is 0, exactly one line is `PASS` and no line starts with
//! `ERROR`. Also: separate compilation (the main program's file has no coarray), a
//! program without coarrays links no coarray library, and the refusals are located.
//!
//! Each program is built twice: with xmpc's own libcaf (`XMPC_CAF=xmpc`, run at every
//! count of its header) and with OpenCoarrays (`XMPC_CAF=opencoarrays`, run at one
//! count), and each binary is checked to hold the library it was meant to.
//!
//! Needs the driver (`cargo build -p xmpc -p xmpc-rt`), `mpiexec`, `mpif90`, and for
//! the second build OpenCoarrays for MPICH (`libcoarrays-mpich-dev`: `pkg-config
//! caf-mpich`); without them the tests (or the OpenCoarrays half) are skipped with a
//! notice unless `XMPC_CONFORMANCE_REQUIRE=1`. `XMPC_F_ONLY=name` runs one program.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn xmpc() -> PathBuf {
    if let Some(p) = std::env::var_os("XMPC").filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().unwrap();
    exe.parent().and_then(Path::parent).unwrap().join("xmpc")
}

fn mpiexec() -> String {
    std::env::var("MPIEXEC").unwrap_or_else(|_| "mpiexec".into())
}

fn have_libcaf() -> bool {
    Command::new("pkg-config").args(["--exists", "caf-mpich"]).status().is_ok_and(|s| s.success())
}

fn tools_ready(what: &str) -> bool {
    if std::env::var("XMPC_CONFORMANCE").as_deref() == Ok("0") {
        eprintln!("{what}: skipped (XMPC_CONFORMANCE=0)");
        return false;
    }
    let mut missing = vec![];
    if !xmpc().is_file() {
        missing.push(format!("no xmpc driver at {} (cargo build -p xmpc -p xmpc-rt)", xmpc().display()));
    }
    for tool in [mpiexec(), std::env::var("XMPC_FC").unwrap_or_else(|_| "mpif90".into())] {
        if Command::new(&tool).arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
            missing.push(format!("`{tool}` not found"));
        }
    }
    if missing.is_empty() {
        return true;
    }
    if std::env::var("XMPC_CONFORMANCE_REQUIRE").as_deref() == Ok("1") {
        panic!("{what}: {}", missing.join("; "));
    }
    eprintln!("{what}: skipped: {}", missing.join("; "));
    false
}

fn header_nps(text: &str) -> Vec<u32> {
    for line in text.lines().take(5) {
        if let Some(rest) = line.split("xmpc-test:").nth(1) {
            if let Some(v) = rest.trim().strip_prefix("np=") {
                return v.split_whitespace().next().unwrap_or("").split(',').filter_map(|x| x.trim().parse().ok()).collect();
            }
        }
    }
    vec![]
}

/// (status, stdout, stderr, timed out)
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

fn mpirun(exe: &Path, np: u32) -> (Option<i32>, String, String, bool) {
    let mut cmd = Command::new(mpiexec());
    cmd.arg("-n").arg(np.to_string()).arg(exe);
    run_limited(cmd, Duration::from_secs(120))
}

/// Runs xmpc with `XMPC_CAF=caf` (unset for `None`) and no `XMPC_CAF_LIBS`.
fn xmpc_in(args: &[&str], dir: &Path, caf: Option<&str>) -> std::process::Output {
    let mut c = Command::new(xmpc());
    c.args(args).current_dir(dir).env_remove("XMPC_CAF_LIBS");
    match caf {
        Some(v) => c.env("XMPC_CAF", v),
        None => c.env_remove("XMPC_CAF"),
    };
    c.output().expect("run xmpc")
}

fn compile(args: &[&str], dir: &Path) -> Result<(), String> {
    compile_with(args, dir, "xmpc")
}

/// Builds with `XMPC_CAF=caf` (`xmpc`: xmpc's own libcaf, `opencoarrays`).
fn compile_with(args: &[&str], dir: &Path, caf: &str) -> Result<(), String> {
    let out = Command::new(xmpc()).args(args).current_dir(dir).env("XMPC_CAF", caf).env_remove("XMPC_CAF_LIBS").output().expect("run xmpc");
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("xmpc {} failed:\n{}", args.join(" "), String::from_utf8_lossy(&out.stderr)))
    }
}

fn passed(code: Option<i32>, so: &str, to: bool) -> bool {
    !to && code == Some(0) && so.lines().filter(|l| l.trim() == "PASS").count() == 1 && !so.lines().any(|l| l.trim_start().starts_with("ERROR"))
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xmpc-local-f-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn local_view_programs_pass() {
    if !tools_ready("local_f") {
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("xmp/Flocal");
    let only = std::env::var("XMPC_F_ONLY").ok();
    let mut progs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("f90" | "f")))
        .filter(|p| only.as_deref().is_none_or(|o| p.file_stem().is_some_and(|s| s == o)))
        .collect();
    progs.sort();
    assert!(only.is_some() || progs.len() >= 34, "expected at least 34 local-view programs, found {}", progs.len());
    let fixed = progs.iter().filter(|p| p.extension().is_some_and(|e| e == "f")).count();
    assert!(only.is_some() || fixed >= 6, "fixed-form programs: {fixed}");
    let tmp = tmpdir("progs");
    let oca = have_libcaf();
    if !oca {
        if std::env::var("XMPC_CONFORMANCE_REQUIRE").as_deref() == Ok("1") {
            panic!("local_f: OpenCoarrays not found (apt-get install libcoarrays-mpich-dev)");
        }
        eprintln!("local_f: the OpenCoarrays builds are skipped: OpenCoarrays not found (apt-get install libcoarrays-mpich-dev)");
    }
    // two programs at a time, each in a folder of its own (module files)
    let (failures, runs) = xmpc_testsuite::par_map(&progs, |p| {
        let mut failures = vec![];
        let mut runs = 0;
        let name = p.file_stem().unwrap().to_string_lossy().to_string();
        let nps = header_nps(&std::fs::read_to_string(p).unwrap());
        if nps.is_empty() {
            return (vec![format!("{name}: no `xmpc-test: np=...` header")], 0);
        }
        let tmp = tmp.join(&name);
        std::fs::create_dir_all(&tmp).unwrap();
        for caf in ["xmpc", "opencoarrays"] {
            if caf == "opencoarrays" && OWN_LIBCAF_ONLY.contains(&name.as_str()) {
                // refused at translation, located, whether OpenCoarrays is installed or not
                let exe = tmp.join(format!("{name}-{caf}"));
                match compile_with(&[p.to_str().unwrap(), "-o", exe.to_str().unwrap()], &tmp, caf) {
                    Ok(()) => failures.push(format!("{name} ({caf}): built, but coarrays in a task need xmpc's libcaf (XMP0450)")),
                    Err(e) if !(e.contains("XMP0450") && e.contains(&format!("{}:", p.file_name().unwrap().to_string_lossy()))) => {
                        failures.push(format!("{name} ({caf}): refused without a located XMP0450:\n{e}"))
                    }
                    Err(_) => {}
                }
                continue;
            }
            if caf == "opencoarrays" && !oca {
                continue;
            }
            let exe = tmp.join(format!("{name}-{caf}"));
            if let Err(e) = compile_with(&[p.to_str().unwrap(), "-o", exe.to_str().unwrap()], &tmp, caf) {
                failures.push(format!("{name} ({caf}): {e}"));
                continue;
            }
            // the binary holds the library asked for: OpenCoarrays is a shared library
            let bin = std::fs::read(&exe).unwrap();
            let shared = bin.windows(7).any(|w| w == b"libcaf_");
            if (caf == "xmpc") == shared {
                failures.push(format!("{name} ({caf}): linked the wrong libcaf (libcaf shared library: {shared})"));
                continue;
            }
            // OpenCoarrays runs at one count (the smallest above 1), xmpc's at all
            let counts: Vec<u32> = if caf == "xmpc" { nps.clone() } else { vec![*nps.iter().find(|&&n| n > 1).unwrap_or(&nps[0])] };
            for np in counts {
                runs += 1;
                let (code, so, se, to) = mpirun(&exe, np);
                let ok = passed(code, &so, to);
                if caf == "opencoarrays" && OPENCOARRAYS_FAILS.contains(&name.as_str()) {
                    if ok {
                        failures.push(format!("{name} ({caf}) np={np}: passes now: take it off OPENCOARRAYS_FAILS"));
                    }
                } else if !ok {
                    failures.push(format!("{name} ({caf}) np={np}: status {code:?}, timed out {to}\nstdout:\n{so}\nstderr:\n{se}"));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&tmp);
        (failures, runs)
    });
    let _ = std::fs::remove_dir_all(&tmp);
    eprintln!("local_f: {} programs, {runs} runs, {} failures", progs.len(), failures.len());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n---\n"));
}

/// Programs that fail with OpenCoarrays 2.10.1 (Debian 12), checked to fail so the
/// list stays true: its fetching atomics and atomic_or/and/xor print "the atomic
/// operation requested for MPI < 3 is not yet implemented" and do nothing
/// (docs/local-view.md, defects). `caf_omni_coll`: Omni's `co_max(q, mx(0,:), ri)`
/// reduces into the strided result on the result image and from the contiguous source
/// elsewhere; OpenCoarrays' `MPI_Reduce` then gets different datatypes on the images
/// and stops with "Message truncated" (xmpc's libcaf packs strided arguments).
const OPENCOARRAYS_FAILS: &[&str] = &["caf_atomics", "caf_omni_coll"];

/// Programs that use coarrays inside an XMP `task` (images = the task's nodes) or Omni's
/// `coarray`/`image` directives (a node set's numbering), which
/// only xmpc's libcaf does: their `XMPC_CAF=opencoarrays` build is checked to be
/// refused with a located XMP0450.
const OWN_LIBCAF_ONLY: &[&str] = &["caf_fixed_task", "caf_omni_coarray_dir", "caf_task", "caf_task_alloc", "caf_task_mid"];

/// The main program's file has no coarray (compiled without -fcoarray=lib, so its
/// main does not start libcaf): xmpf_init starts it. Built from one command line and
/// with `-c`.
#[test]
fn coarrays_in_another_file_than_the_main_program() {
    if !tools_ready("local_f") {
        return;
    }
    let tmp = tmpdir("sep");
    std::fs::write(
        tmp.join("halo.f90"),
        "module halo\n  implicit none\n  integer, allocatable :: v(:)[:]\ncontains\n  subroutine setup(n)\n    integer, intent(in) :: n\n    allocate(v(n)[*])\n    v = this_image()\n    sync all\n  end subroutine setup\n  integer function left_sum()\n    integer :: l\n    l = merge(num_images(), this_image() - 1, this_image() == 1)\n    left_sum = sum(v(:)[l])\n  end function left_sum\nend module halo\n",
    )
    .unwrap();
    std::fs::write(
        tmp.join("main.f90"),
        "program main\n  use halo\n  implicit none\n  include 'xmp_lib.h'\n  integer :: me, np, l\n  call setup(5)\n  me = xmp_node_num()\n  np = xmp_num_nodes()\n  l = merge(np, me - 1, me == 1)\n  if (left_sum() /= 5 * l) then\n    print *, 'ERROR', me, left_sum()\n    stop 1\n  end if\n  if (me == 1) print *, 'PASS'\nend program main\n",
    )
    .unwrap();
    compile(&["halo.f90", "main.f90", "-o", "prog1"], &tmp).unwrap();
    compile(&["-c", "halo.f90"], &tmp).unwrap();
    compile(&["-c", "main.f90"], &tmp).unwrap();
    compile(&["halo.o", "main.o", "-o", "prog2"], &tmp).unwrap();
    for exe in ["prog1", "prog2"] {
        for np in [1, 3] {
            let (code, so, se, to) = mpirun(&tmp.join(exe), np);
            assert!(passed(code, &so, to), "{exe} np={np}: {code:?}\n{so}{se}");
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// The link rule: a program that uses an entry point xmpc's libcaf lacks
/// (`image_status`) links OpenCoarrays with a one-line note, or is refused under
/// `XMPC_CAF=xmpc`; a coindexed vector subscript, which xmpc's libcaf does not
/// implement, stops the run with a message naming it (never a wrong answer).
#[test]
fn libcaf_choice_and_refusals() {
    if !tools_ready("local_f") {
        return;
    }
    let tmp = tmpdir("choice");
    std::fs::write(
        tmp.join("st.f90"),
        "program st\n  integer :: a[*]\n  a = image_status(1)\n  sync all\n  if (a == 0 .and. this_image() == 1) print *, 'PASS'\nend program st\n",
    )
    .unwrap();
    let out = Command::new(xmpc()).args(["st.f90", "-o", "st"]).current_dir(&tmp).env_remove("XMPC_CAF").env_remove("XMPC_CAF_LIBS").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    if have_libcaf() {
        assert!(out.status.success(), "{err}");
        assert!(err.contains("note: linking OpenCoarrays") && err.contains("_gfortran_caf_image_status"), "{err}");
        assert!(std::fs::read(tmp.join("st")).unwrap().windows(7).any(|w| w == b"libcaf_"));
        let (code, so, se, to) = mpirun(&tmp.join("st"), 2);
        assert!(passed(code, &so, to), "{so}{se}");
    }
    let out = Command::new(xmpc()).args(["st.f90", "-o", "st2"]).current_dir(&tmp).env("XMPC_CAF", "xmpc").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("XMPC_CAF=xmpc") && err.contains("_gfortran_caf_image_status"), "{err}");
    assert!(!tmp.join("st2").exists());
    std::fs::write(
        tmp.join("vec.f90"),
        "program vec\n  integer :: a(4)[*], x(2)\n  a = 1\n  sync all\n  x = a([1, 3])[1]\n  print *, 'PASS', x\nend program vec\n",
    )
    .unwrap();
    compile(&["vec.f90", "-o", "vec"], &tmp).unwrap();
    let (code, so, se, _) = mpirun(&tmp.join("vec"), 2);
    assert!(code != Some(0) && !so.contains("PASS") && se.contains("vector subscript"), "{code:?}\n{so}\n{se}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// A Fortran program without coarrays is compiled and linked as before: no
/// -fcoarray=lib, no libcaf (its binary names no libcaf shared library).
#[test]
fn programs_without_coarrays_link_no_coarray_library() {
    if !tools_ready("local_f") {
        return;
    }
    let tmp = tmpdir("plain");
    std::fs::write(
        tmp.join("plain.f90"),
        "program plain\n  integer :: x(3)\n!$xmp nodes p(*)\n  x = [1, 2, 3]\n  if (sum(x) == 6) print *, 'PASS'\nend program plain\n",
    )
    .unwrap();
    compile(&["plain.f90", "-o", "plain"], &tmp).unwrap();
    let bin = std::fs::read(tmp.join("plain")).unwrap();
    assert!(!bin.windows(7).any(|w| w == b"libcaf_"), "a program without coarrays needs libcaf");
    let (code, so, _, to) = mpirun(&tmp.join("plain"), 1);
    assert!(passed(code, &so, to), "{so}");
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Refused at translation with located diagnostics, nothing built: coarray features
/// inside an XMP `task` body when the program can only be linked with OpenCoarrays
/// (`XMPC_CAF=opencoarrays`: its images are the whole program's), a scalar complex
/// coarray (gfortran 12 miscompiles it, any library), Omni's forms and directives
/// xmpc cannot translate.
#[test]
fn unsupported_coarray_uses_are_refused_with_located_diagnostics() {
    if !xmpc().is_file() {
        if std::env::var("XMPC_CONFORMANCE_REQUIRE").as_deref() == Ok("1") {
            panic!("no xmpc driver at {}", xmpc().display());
        }
        eprintln!("skipped: no xmpc driver at {}", xmpc().display());
        return;
    }
    let tmp = tmpdir("neg");
    let task =
        "program tk\n  integer :: a[*]\n!$xmp nodes p(*)\n!$xmp task on p(1)\n  if (this_image() == 1) a = 1\n  sync all\n!$xmp end task\nend program tk\n";
    let taskf = "      program tf\n      integer a[*]\nc$xmp nodes p(*)\nc$xmp task on p(1)\n      call co_sum(a)\nc$xmp end task\n      end\n";
    let cases: &[(&str, &str, &str, &[&str])] = &[
        ("task.f90", task, "opencoarrays", &["XMP0450", "task.f90:5:3", "task.f90:6:3", "OpenCoarrays"]),
        ("taskf.f", taskf, "opencoarrays", &["XMP0450", "taskf.f:5:7"]),
        // in a module: references elsewhere cannot all be rewritten to `z(1)`
        ("cplx.f90", "module cx\n  complex(8) :: w(2)[*], z[*]\nend module cx\n", "xmpc", &["XMP0451", "cplx.f90:2:26", "gfortran"]),
        ("cplx2.f90", "module cx\n  complex :: z[*]\nend module cx\n", "opencoarrays", &["XMP0451", "cplx2.f90:2:14"]),
        // Omni's XMP 1.x collectives where the translation cannot be one statement or
        // the second argument may be the result or the result image
        (
            "coif.f90",
            "program ci\n  real :: a(2), b(2)\n  if (this_image() == 1) call co_sum(a, b)\nend program ci\n",
            "xmpc",
            &["XMP0453", "coif.f90:3:26", "IF block"],
        ),
        (
            "byref.f90",
            "program br\n  type t\n    integer :: n(2)\n    integer, allocatable :: a(:)\n  end type t\n  type(t) :: x[*]\n  x%n = 1\n  if (this_image() == 2) x%n(1) = x[1]%n(2)\nend program br\n",
            "xmpc",
            &["XMP0454", "byref.f90:8:35", "_by_ref"],
        ),
        ("coamb.f90", "program ca\n  integer :: s, k\n  k = 1\n  call co_sum(s, k)\nend program ca\n", "xmpc", &["XMP0453", "coamb.f90:4:3", "result_image="]),
        // Omni's `coarray on` and `image` directives: xmpc's libcaf only; `image` before
        // a statement that is neither a sync nor a collective; a node subset
        (
            "codir.f90",
            "program cd\n!$xmp nodes p(*)\n  integer :: a[*]\n!$xmp coarray on p :: a\n  a = 1\nend program cd\n",
            "opencoarrays",
            &["XMP0450", "codir.f90:4:1", "libcaf"],
        ),
        (
            "imgdir.f90",
            "program id\n!$xmp nodes p(*)\n  integer :: a[*]\n!$xmp image(p)\n  a = 1\nend program id\n",
            "xmpc",
            &["XMP0005", "imgdir.f90:5:3", "sync all"],
        ),
        (
            "imgsub.f90",
            "program is\n!$xmp nodes p(*)\n  integer :: a[*]\n!$xmp image(p(1:2))\n  sync all\nend program is\n",
            "xmpc",
            &["XMP0005", "imgsub.f90:4:13", "node subset"],
        ),
    ];
    for (name, src, caf, want) in cases {
        std::fs::write(tmp.join(name), src).unwrap();
        let out = xmpc_in(&[name, "-o", "bad"], &tmp, Some(caf));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{name}: must fail\n{err}");
        for w in *want {
            assert!(err.contains(w), "{name}: no `{w}` in\n{err}");
        }
        assert!(!tmp.join("bad").exists(), "{name}: no executable on error");
    }
    // with xmpc's libcaf the same task bodies build (when the compilers are here)
    if tools_ready("local_f") {
        for (name, src) in [("task.f90", task), ("taskf.f", taskf)] {
            std::fs::write(tmp.join(name), src).unwrap();
            compile(&[name, "-o", "good"], &tmp).unwrap_or_else(|e| panic!("{name}: {e}"));
            let _ = std::fs::remove_file(tmp.join("good"));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Coarrays in a task need xmpc's libcaf: a program that also uses an entry point
/// only OpenCoarrays has (`image_status`) is refused at the link with the task's
/// location, never linked with OpenCoarrays (whose images would be the whole
/// program's); the same for separately compiled objects. A coarray deallocated inside
/// a task (out of the translator's sight) stops the run with a message.
#[test]
fn coarrays_in_a_task_are_never_linked_with_another_libcaf() {
    if !tools_ready("local_f") {
        return;
    }
    let tmp = tmpdir("tasklink");
    std::fs::write(
        tmp.join("ts.f90"),
        "program ts\n  integer :: a[*], s\n!$xmp nodes p(*)\n  a = image_status(1)\n!$xmp task on p(1)\n  s = this_image()\n  call co_sum(s)\n!$xmp end task\n  if (this_image() == 1) print *, 'PASS', s\nend program ts\n",
    )
    .unwrap();
    let out = xmpc_in(&["ts.f90", "-o", "ts"], &tmp, None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("ts.f90:5:1: error[XMP0450]") && err.contains("_gfortran_caf_image_status"), "{err}");
    assert!(!tmp.join("ts").exists());
    let out = xmpc_in(&["-c", "ts.f90"], &tmp, None);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let out = xmpc_in(&["ts.o", "-o", "ts"], &tmp, None);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("ts.f90:5:1: error[XMP0450]"), "{err}");
    assert!(!tmp.join("ts").exists());
    std::fs::write(
        tmp.join("td.f90"),
        "program td\n  integer, allocatable :: b(:)[:]\n!$xmp nodes p(*)\n  allocate(b(4)[*])\n!$xmp task on p(1)\n  call free_it()\n!$xmp end task\n  if (this_image() == 1) print *, 'PASS'\ncontains\n  subroutine free_it()\n    deallocate(b)\n  end subroutine free_it\nend program td\n",
    )
    .unwrap();
    compile(&["td.f90", "-o", "td"], &tmp).unwrap();
    let (code, so, se, _) = mpirun(&tmp.join("td"), 2);
    assert!(code != Some(0) && !so.contains("PASS") && se.contains("deallocating a coarray inside a `task`"), "{code:?}\n{so}\n{se}");
    let _ = std::fs::remove_dir_all(&tmp);
}
