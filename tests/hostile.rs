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
    let m =
        write(d.path(), "name.c", "#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); mpiete日本語(1); MPI_Finalize(); return 0; }\n".as_bytes());
    no_crash(&xmpc(&[&m, "--emit=blocks"]));
    no_crash(&xmpc(&[&m, "--skeletonize", "-o", d.path().join("s.c").to_str().unwrap()]));
}

const PLAIN: &str = "#include <stdio.h>\nint main(void) { return 0; }\n";

/// `xmpc a.c -o a.c` replaced the source with its translation.
#[test]
fn output_equal_to_an_input_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let a = write(d.path(), "a.c", PLAIN.as_bytes());
    let dot = d.path().join(".").join("a.c");
    for o in [a.as_str(), dot.to_str().unwrap()] {
        let r = xmpc(&[&a, "-o", o]);
        assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
        assert!(stderr(&r).contains("is the input"), "{}", stderr(&r));
    }
    assert_eq!(std::fs::read_to_string(&a).unwrap(), PLAIN);
}

/// `-o` replaced symlinks, FIFOs and device files with a regular file.
#[cfg(unix)]
#[test]
fn output_through_a_symlink_fifo_or_device_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let a = write(d.path(), "a.c", PLAIN.as_bytes());
    let target = write(d.path(), "target.c", b"keep\n");
    let link = d.path().join("link.c");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let r = xmpc(&[&a, "-o", link.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(stderr(&r).contains("link.c") && stderr(&r).contains("symbolic link"), "{}", stderr(&r));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep\n");
    let fifo = d.path().join("fifo.c");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let r = xmpc(&[&a, "-o", fifo.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{}", stderr(&r));
    assert!(stderr(&r).contains("fifo.c") && stderr(&r).contains("not a regular file"), "{}", stderr(&r));
    let r = xmpc(&[&a, "-o", "/dev/null"]);
    assert!(stderr(&r).contains("/dev/null") && r.status.code() == Some(2), "{}", stderr(&r));
}

/// Outputs were mode 0600 whatever the umask (the test runs under the usual 022 or
/// whatever the caller has: the mode must be 0666 less it).
#[cfg(unix)]
#[test]
fn outputs_honour_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let a = write(d.path(), "a.c", PLAIN.as_bytes());
    let out = d.path().join("out.c");
    let r = Command::new("sh").arg("-c").arg(format!("umask 022 && exec '{}' '{a}' -o '{}'", env!("CARGO_BIN_EXE_xmpc"), out.display())).output().unwrap();
    assert!(r.status.success(), "{}", stderr(&r));
    assert_eq!(std::fs::metadata(&out).unwrap().permissions().mode() & 0o777, 0o644);
}

/// A closed pipe (`xmpc bad.c 2>&1 | head -1`) panicked (exit 101); now SIGPIPE ends the
/// program quietly, as for any Unix filter.
#[cfg(unix)]
#[test]
fn closed_pipe_ends_quietly() {
    use std::io::Read;
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;
    let d = tempfile::tempdir().unwrap();
    let mut src = String::from("int main(void) {\n");
    for i in 0..5000 {
        src.push_str(&format!("#pragma xmp bogus{i}\n"));
    }
    src.push_str("return 0; }\n");
    let bad = write(d.path(), "many.c", src.as_bytes());
    let mut c = Command::new(env!("CARGO_BIN_EXE_xmpc")).arg(&bad).stderr(Stdio::piped()).stdout(Stdio::null()).spawn().unwrap();
    let mut buf = [0u8; 16];
    c.stderr.as_mut().unwrap().read_exact(&mut buf).unwrap();
    drop(c.stderr.take());
    let st = c.wait().unwrap();
    assert_eq!(st.signal(), Some(13), "{st:?}");
}

/// `mpiete predict --jitter 0` exited 1 (a bad command-line value exits 2); `/dev/zero`
/// as compute data was read forever.
#[test]
fn mpiete_bad_values_and_endless_inputs() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().to_str().unwrap();
    let o = xmpc(&["mpiete", "predict", "--compute", "/dev/null", "--comm", "/dev/null", "--program", dir, "--jitter", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--jitter"), "{}", stderr(&o));
    let o = xmpc(&["mpiete", "merge", "/dev/zero", "/dev/zero", "-o", d.path().join("m.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("/dev/zero"), "{}", stderr(&o));
}

/// `bsim run -np 0` exited 1 (a bad command-line value exits 2); `--gantt
/// /nonexistent/g.svg` created the directory or failed silently after the run.
#[test]
fn bsim_bad_values_and_unusable_outputs() {
    let d = tempfile::tempdir().unwrap();
    let exe = write(d.path(), "skel", b"not run");
    let o = xmpc(&["bsim", "run", &exe, "-np", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let missing = d.path().join("nonexistent").join("g.svg");
    let o = xmpc(&["bsim", "run", &exe, "--gantt", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("does not exist") && stderr(&o).contains("g.svg"), "{}", stderr(&o));
    assert!(!d.path().join("nonexistent").exists());
    let o = xmpc(&["bsim", "run", &exe, "--trace-json", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("/dev/null"), "{}", stderr(&o));
}

/// Shift-JIS and EUC-JP comments and strings were refused ("is not UTF-8; convert",
/// no location); they compile now, their bytes passed through unchanged, and the
/// diagnostics keep file:line:col.
#[test]
fn non_utf8_sources_pass_through_with_located_diagnostics() {
    let d = tempfile::tempdir().unwrap();
    // 日本語 in Shift-JIS (the second byte of 本 is '{'), こんにちは-ish EUC-JP
    let plain: &[u8] = b"#include <stdio.h>\n/* \x93\xfa\x96\x7b\x8c\xea */\nint main(void) { printf(\"\xc6\xfc\xcb\xdc\\n\"); return 0; }\n";
    let c = write(d.path(), "sjis.c", plain);
    let o = xmpc(&[&c, "--emit=source"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(o.stdout, plain);
    let xmp: &[u8] = b"/* \x93\xfa\x96\x7b */\n#pragma xmp nodes p(2)\nint main(void) { return 0; } /* \xc6\xfc */\n";
    let c = write(d.path(), "x.c", xmp);
    let out = d.path().join("x.out.c");
    let o = xmpc(&[&c, "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let t = std::fs::read(&out).unwrap();
    assert!(t.windows(10).any(|w| w == b"/* \x93\xfa\x96\x7b */"), "{}", String::from_utf8_lossy(&t));
    assert!(t.windows(6).any(|w| w == b"/* \xc6\xfc "), "{}", String::from_utf8_lossy(&t));
    let bad = write(d.path(), "bad.c", b"/* \x93\xfa */\n#pragma xmp bogus\nint main(void) { return 0; }\n");
    let o = xmpc(&[&bad, "--emit=source"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("bad.c:2:13"), "{}", stderr(&o));
    let f: &[u8] = b"program p\n  ! \x93\xfa\x96\x7b\x8c\xea\n  print *, '\xc6\xfc\xcb\xdc'\nend program\n";
    let f = write(d.path(), "sjis.f90", f);
    let o = xmpc(&[&f, "--emit=source"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(o.stdout.windows(6).any(|w| w == b"\x93\xfa\x96\x7b\x8c\xea"));
    assert!(o.stdout.windows(4).any(|w| w == b"\xc6\xfc\xcb\xdc"));
}

/// `/dev/zero` as a source was read forever.
#[test]
fn endless_source_is_refused() {
    let o = xmpc(&["/dev/zero", "--lang=c", "--emit=source"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("/dev/zero"), "{}", stderr(&o));
}

/// The 9-byte file `end mpi_r` under --skeletonize: "internal error: edits … overlap"
/// (the `end` line was rewritten whole and as a `program` line, and renamed inside).
#[test]
fn main_program_without_program_statement_skeletonizes() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "e.f90", b"end mpi_r");
    let out = d.path().join("s.f90");
    let o = xmpc(&[&f, "--skeletonize", "-o", out.to_str().unwrap()]);
    no_crash(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "subroutine bsim_main_f\nend subroutine bsim_main_f");
}

/// `nodes p(-2)`, `p(0)`, `block(0)`, `cyclic(0)`, huge literals, `shadow a[-1]`,
/// constant `on` references out of range and `reflect` of an array without shadow were
/// accepted (and ran wrongly, or failed at run time at another line): located errors at
/// translation time, the same in C and Fortran.
#[test]
fn literal_sizes_widths_and_references_are_checked() {
    let d = tempfile::tempdir().unwrap();
    let c = write(
        d.path(),
        "lit.c",
        b"#pragma xmp nodes p(-2)\n#pragma xmp nodes q(0)\n#pragma xmp nodes r(4)\n#pragma xmp template t(0:99)\n#pragma xmp template u(1:0)\n#pragma xmp template w(0:99999999999999999999)\n#pragma xmp distribute t(cyclic(0)) onto r\ndouble a[100], b[100];\n#pragma xmp align a[i] with t(i)\n#pragma xmp align b[i] with t(i)\n#pragma xmp shadow a[-1]\nint main(void) {\n#pragma xmp reflect (b)\n#pragma xmp task on r(5)\n  { }\n#pragma xmp task on r(4)\n  { }\n#pragma xmp task on r[4]\n  { }\n  return 0;\n}\n",
    );
    let o = xmpc(&[&c, "--emit=source"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    for want in [
        "XMP0110]: node set size `-2`",
        "lit.c:1:21",
        "node set size `0`",
        "lit.c:2:21",
        "template dimension `1:0` is empty",
        "lit.c:6:26",
        "`cyclic(0)`",
        "lit.c:7:33",
        "negative shadow width `-1`",
        "lit.c:11:22",
        "XMP0112]: `reflect` of `b`",
        "lit.c:13:22",
        "XMP0111]: `r(5)`",
        "lit.c:14:23",
        "`r[4]`",
        "lit.c:18:23",
    ] {
        assert!(e.contains(want), "missing {want}:\n{e}");
    }
    assert!(!e.contains("lit.c:16:"), "r(4) is in range:\n{e}");
    assert_eq!(e.matches("negative shadow width").count(), 1, "{e}");
    let f = write(
        d.path(),
        "lit.f90",
        b"program p\n!$xmp nodes p(-2)\n!$xmp nodes r(4)\n!$xmp template t(0:99)\n!$xmp distribute t(block(0)) onto r\n  real a(0:99), b(0:99)\n!$xmp align a(i) with t(i)\n!$xmp align b(i) with t(i)\n!$xmp shadow a(-1)\n!$xmp reduce_shadow (b)\n!$xmp task on r(5)\n!$xmp end task\nend program\n",
    );
    let o = xmpc(&[&f, "--emit=source"]);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    for want in ["lit.f90:2:15", "`block(0)`", "lit.f90:5:26", "lit.f90:9:16", "XMP0112", "lit.f90:10:22", "XMP0111", "lit.f90:11:17"] {
        assert!(e.contains(want), "missing {want}:\n{e}");
    }
}

/// A 40 kB line of `1 + 1 + ...` nests 10,000 deep: the front end's recursion overflowed
/// the main thread's stack (an abort, exit 134). The work runs on a thread with a large
/// stack; the line takes well under a second (the "40 kB line ~6 s" did not
/// reproduce: parse time grows linearly with the line, docs/diagnostics.md).
#[test]
fn deeply_nested_long_lines_do_not_overflow_the_stack() {
    let d = tempfile::tempdir().unwrap();
    let terms = vec!["1"; 10_000].join(" + ");
    let f = write(d.path(), "long.f90", format!("program p\n  integer :: a\n  a = {terms}\nend program\n").as_bytes());
    let c = write(d.path(), "long.c", format!("int main(void) {{ int a = {terms}; return a; }}\n").as_bytes());
    for src in [&f, &c] {
        let t = std::time::Instant::now();
        let o = xmpc(&[src, "--emit=source"]);
        assert!(o.status.success(), "{src}: {:?} {}", o.status, stderr(&o));
        assert!(t.elapsed().as_secs() < 60, "{src}: {:?}", t.elapsed());
    }
}

/// Every input under testsuite/fuzz/regressions once crashed the compiler (a panic, an
/// abort, an unlocated "internal error"); each goes through `--emit=source`,
/// `--emit=blocks` and `--skeletonize` and must end with success or located errors.
#[test]
fn fuzz_regressions_replay() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/fuzz/regressions");
    let d = tempfile::tempdir().unwrap();
    let mut n = 0;
    for sub in ["c", "f90", "f"] {
        for e in std::fs::read_dir(root.join(sub)).unwrap() {
            let p = e.unwrap().path();
            let src = p.to_str().unwrap();
            let out = d.path().join(format!("skel.{sub}"));
            for args in [vec![src, "--emit=source"], vec![src, "--emit=blocks"], vec![src, "--skeletonize", "-o", out.to_str().unwrap()]] {
                let o = xmpc(&args);
                no_crash(&o);
                if o.status.code() == Some(1) {
                    let e = stderr(&o);
                    let name = p.file_name().unwrap().to_str().unwrap();
                    assert!(e.contains(&format!("{name}:")), "{args:?}: unlocated:\n{e}");
                }
            }
            n += 1;
        }
    }
    assert!(n >= 9, "{n} regression inputs");
}

// The fuzz targets' bodies, the same code libFuzzer drives (testsuite/fuzz/run.sh).
#[path = "../testsuite/fuzz/src/lib.rs"]
#[allow(dead_code)]
mod fuzz_bodies;

/// Runs one fuzz target's body on `data`; a panic names the target and keeps the input
/// in a file for `run.sh`-style reproduction.
fn run_body(name: &str, body: fn(&[u8]), data: &[u8]) {
    if std::panic::catch_unwind(|| body(data)).is_err() {
        let h = data.iter().fold(0xcbf29ce484222325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x100000001b3));
        let p = std::env::temp_dir().join(format!("xmpc-fuzz-{name}-{h:016x}"));
        std::fs::write(&p, data).unwrap();
        panic!("fuzz target {name} failed; input kept in {}", p.display());
    }
}

/// CI cannot afford the instrumented libFuzzer build (testsuite/fuzz/README.md), so
/// every fuzz target's body runs here, in process, on every input kept in
/// testsuite/fuzz/regressions (by target: `c/` and `f90/`/`f/` are the front ends'
/// with the form byte added, `directive/` and `readers/` are raw target inputs),
/// then on a bounded number of deterministic mutations of them (byte flips, cuts,
/// repeats): the same checks as the fuzzer (no panic, no unlocated error).
#[test]
fn fuzz_targets_replay_and_mutate_their_regressions() {
    // the driver's stack (src/main.rs): deep nesting is not a finding
    std::thread::Builder::new().stack_size(1 << 30).spawn(replay_and_mutate).unwrap().join().unwrap();
}

fn replay_and_mutate() {
    use fuzz_bodies as f;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/fuzz/regressions");
    let read = |sub: &str, prefix: &[u8]| -> Vec<Vec<u8>> {
        let mut v: Vec<_> = std::fs::read_dir(root.join(sub)).unwrap().map(|e| e.unwrap().path()).collect();
        v.sort();
        v.iter().map(|p| [prefix, &std::fs::read(p).unwrap()].concat()).collect()
    };
    let mut fortran = read("f90", &[0]);
    fortran.extend(read("f", &[1]));
    // open findings (testsuite/fuzz/findings): still internal errors, but located
    let findings = root.with_file_name("findings");
    let open = |ext: &str, prefix: &[u8]| -> Vec<Vec<u8>> {
        let mut v: Vec<_> = std::fs::read_dir(&findings).unwrap().map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == ext)).collect();
        v.sort();
        v.iter().map(|p| [prefix, &std::fs::read(p).unwrap()].concat()).collect()
    };
    fortran.extend(open("f90", &[0]));
    fortran.extend(open("f", &[1]));
    let mut c = read("c", &[]);
    c.extend(open("c", &[]));
    // (name, fuzz body, inputs)
    type Target<'a> = (&'a str, fn(&[u8]), Vec<Vec<u8>>);
    let targets: [Target; 4] = [
        ("c_front", f::c_front, c),
        ("fortran_front", f::fortran_front, fortran),
        ("directive", f::directive, read("directive", &[])),
        ("readers", f::readers, read("readers", &[])),
    ];
    let mut rng = 0x9e3779b97f4a7c15u64;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n.max(1) as u64) as usize
    };
    for (name, body, inputs) in &targets {
        assert!(inputs.len() >= 2, "{name}: {} regression inputs", inputs.len());
        for x in inputs {
            run_body(name, *body, x);
        }
        for _ in 0..100 {
            let mut x = inputs[next(inputs.len())].clone();
            for _ in 0..1 + next(4) {
                let i = next(x.len());
                match next(4) {
                    0 if !x.is_empty() => x[i] ^= 1 << next(8),
                    1 => x.insert(i, [b'(', b')', b'[', b'\n', b'!', b'#', 0xff, b'9'][next(8)]),
                    2 if !x.is_empty() => {
                        x.drain(i..(i + next(16)).min(x.len()));
                    }
                    _ => {
                        let j = (i + next(32)).min(x.len());
                        let chunk = x[i..j].to_vec();
                        x.splice(i..i, chunk);
                    }
                }
            }
            run_body(name, *body, &x);
        }
    }
}

const PLAT: &str = "[network]\nlatency = 1e-6\nbandwidth = 1e9\n";

/// `xmpc bsim platform`: sizes in the platform file were not bounded (a node number
/// of 2^64-1 in `[nodes] map` overflowed, `header_bytes` near 2^64 overflowed every
/// message size, a file of any size was read whole); `--np` took any value (`0`, or
/// a hostfile of 10^12 lines); `--equivalent` ranks near 2^32 overflowed; and the
/// outputs were not checked first: `--export-simgrid` naming the platform file
/// replaced it with XML.
#[test]
fn bsim_platform_sizes_and_outputs_are_checked() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n).display().to_string();
    let map = write(d.path(), "map.toml", format!("{PLAT}[nodes]\nmap = [0, 1, 9223372036854775807]\n").as_bytes());
    let o = xmpc(&["bsim", "platform", &map, "--export-simgrid", &p("x.xml")]);
    no_crash(&o);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("map.toml:5:7: [nodes] map: node 9223372036854775807 is out of range"), "{}", stderr(&o));
    assert!(!d.path().join("x.xml").exists());
    let hb = write(d.path(), "hb.toml", format!("{PLAT}[protocol]\nheader_bytes = 9223372036854775807\n").as_bytes());
    let o = xmpc(&["bsim", "platform", &hb]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("hb.toml:5:16: [protocol] header_bytes"), "{}", stderr(&o));
    // a file over the limit is refused by its size, unparsed
    let big = write(d.path(), "big.toml", format!("{PLAT}{}", "#".repeat(17 << 20)).as_bytes());
    let o = xmpc(&["bsim", "platform", &big]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("big.toml") && stderr(&o).contains("limit"), "{}", stderr(&o));
    // bad command-line values exit 2
    let ok = write(d.path(), "ok.toml", PLAT.as_bytes());
    for np in ["0", "1000000000000"] {
        let o = xmpc(&["bsim", "platform", &ok, "--np", np, "--hostfile", &p("h")]);
        assert_eq!(o.status.code(), Some(2), "--np {np}: {}", stderr(&o));
        assert!(!d.path().join("h").exists());
    }
    let nsim = write(d.path(), "n.toml", b"[network]\nmodel = \"nsim\"\n[network.nsim.topology]\nkind = \"torus\"\ndims = [8]\n[network.nsim.link]\nbandwidth = \"1 GB/s\"\nlatency = \"100ns\"\n[network.nsim.router]\ndelay = \"50ns\"\n");
    let o = xmpc(&["bsim", "platform", &nsim, "--equivalent", "0:4294967295"]);
    no_crash(&o);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // an output naming the input, or a symbolic link, is refused before any work
    let o = xmpc(&["bsim", "platform", &ok, "--export-simgrid", &ok]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&ok).unwrap(), PLAT);
    let victim = write(d.path(), "victim", b"keep");
    std::os::unix::fs::symlink(&victim, d.path().join("link.xml")).unwrap();
    let o = xmpc(&["bsim", "platform", &ok, "--hostfile", &p("link.xml")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = xmpc(&["bsim", "calibrate", "-o", &p("link.xml")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
}

/// `xmpc mpiete commdata -o FILE`: the ping-pong program wrote FILE itself, through a
/// symbolic link or into a FIFO, after the build and the run; `--max` beyond what the
/// program can allocate was accepted; `merge -o` naming an input replaced it, and
/// `predict --json` was checked only after the prediction.
#[test]
fn mpiete_outputs_are_checked_first() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n).display().to_string();
    let victim = write(d.path(), "victim", b"keep");
    std::os::unix::fs::symlink(&victim, d.path().join("link.json")).unwrap();
    let o = xmpc(&["mpiete", "commdata", "--max", "1KiB", "-o", &p("link.json")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("symbolic link") && !stderr(&o).contains("measuring"), "{}", stderr(&o));
    let o = xmpc(&["mpiete", "commdata", "--max", "3GiB", "-o", &p("c.json")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let a = write(d.path(), "a.json", b"{}");
    let o = xmpc(&["mpiete", "merge", &a, &a, "-o", &a]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&a).unwrap(), b"{}");
    let o = xmpc(&["mpiete", "predict", "--compute", &a, "--comm", &a, "--program", &p(""), "--json", &p("link.json")]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    // a real measurement lands in place, under the umask, with nothing left beside it
    let o = xmpc(&["mpiete", "commdata", "--max", "64", "-o", &p("c.json")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read_to_string(p("c.json")).unwrap().contains("xmpc-commdata/1"));
    let mut left: Vec<_> = std::fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    left.sort();
    assert_eq!(left, ["a.json", "c.json", "link.json", "victim"]);
}

/// `xmpc prof report`: an unknown `--charts` format and an unusable output (a link
/// where the report goes) exited 1 after reading the profile; both are command-line
/// errors (exit status 2) found before any work.
#[test]
fn prof_report_bad_values_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let prof = write(d.path(), "xmpc_prof.json", b"not read");
    let o = xmpc(&["prof", "report", &prof, "--charts", "bogus"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    std::os::unix::fs::symlink("/dev/null", d.path().join("xmpc_prof_time.svg")).unwrap();
    let o = xmpc(&["prof", "report", &prof]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("xmpc_prof_time.svg"), "{}", stderr(&o));
    // `-o FILE` (a regular file where the output directory goes) exited 1 after
    // reading the profile
    let o = xmpc(&["prof", "report", &prof, "-o", &prof]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a directory"), "{}", stderr(&o));
}

/// `bsim run --network bogus` exited 1 (a malformed value is a bad command line, 2);
/// `--stack-kb 0` started every rank on a stack too small to run; `bsim calibrate
/// --reps 0` ran and wrote a platform file claiming 0 repetitions, and `--split 0`
/// measured, wrote a platform file it then found invalid, and left it behind (exit 1).
#[test]
fn bsim_values_are_checked_first() {
    let d = tempfile::tempdir().unwrap();
    let exe = write(d.path(), "skel", b"not run");
    for args in [&["--network", "bogus"][..], &["--network", "nsim:"], &["--stack-kb", "0"]] {
        let o = xmpc(&[&["bsim", "run", &exe][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    let out = d.path().join("c.toml");
    for args in [["--reps", "0"], ["--split", "0"]] {
        let o = xmpc(&[&["bsim", "calibrate", "-o", out.to_str().unwrap()][..], &args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!out.exists());
    }
}

/// `bsim run --out FILE` (a regular file where the report directory goes) started the
/// skeleton, which failed to create the directory (exit 1); a link where a report
/// goes was replaced. Both are unusable outputs, refused before the run (exit 2).
#[test]
fn bsim_run_out_directory_is_checked_first() {
    let d = tempfile::tempdir().unwrap();
    let exe = write(d.path(), "skel", b"not run");
    let file = write(d.path(), "file", b"keep");
    let o = xmpc(&["bsim", "run", &exe, "--out", &file]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a directory"), "{}", stderr(&o));
    let out = d.path().join("out");
    std::fs::create_dir(&out).unwrap();
    std::os::unix::fs::symlink(&file, out.join("report.json")).unwrap();
    let o = xmpc(&["bsim", "run", &exe, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("report.json") && stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&file).unwrap(), b"keep");
}

/// `xmpc psim`: `--blocktimes` and `probe -o` wrote with `std::fs::write` (through a
/// symbolic link, over the program itself); `--np` took any value (`0`, or 2^32-1
/// ranks predicted one by one); a source that is not UTF-8 was refused.
#[test]
fn psim_outputs_and_values_are_checked() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "p.c", b"/* \x93\xfa\x96\x7b */\nint main(void) { double a[100]; for (int i = 0; i < 100; i++) a[i] = i; return 0; }\n");
    let m = Path::new(env!("CARGO_MANIFEST_DIR")).join("passes/psim/tests/round.toml");
    let m = m.to_str().unwrap();
    let o = xmpc(&["psim", "predict", &src, "--machine", m, "--blocktimes", &src]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(std::fs::read(&src).unwrap().starts_with(b"/* \x93"));
    for np in ["0", "4294967295"] {
        let o = xmpc(&["psim", "predict", &src, "--machine", m, "--np", np]);
        assert_eq!(o.status.code(), Some(2), "--np {np}: {}", stderr(&o));
    }
    let o = xmpc(&["psim", "predict", &src, "--machine", m]);
    assert!(o.status.success(), "{}", stderr(&o));
    // bad values exited 1 after the work (`--param bogus`) or were taken silently:
    // `--rank 5` of one rank, `--values 0` lanes swept as 1 lane and shown as 0
    let bad: [&[&str]; 4] = [
        &["predict", &src, "--machine", m, "--rank", "5"],
        &["sweep", &src, "--machine", m, "--np", "2", "--rank", "2", "--param", "clock", "--values", "1"],
        &["sweep", &src, "--machine", m, "--param", "bogus", "--values", "1"],
        &["sweep", &src, "--machine", m, "--param", "lanes", "--values", "4,0"],
    ];
    for args in bad {
        let o = xmpc(&[&["psim"], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    }
    let o = xmpc(&["psim", "sweep", &src, "--machine", m, "--param", "lanes", "--values", "1,2"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `mpiete commdata --step 0` and `--step bogus` exited 1, as an input error would; a
/// bad command-line value exits 2.
#[test]
fn mpiete_commdata_bad_step_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("c.f90");
    for step in ["0", "bogus"] {
        let o = xmpc(&["mpiete", "commdata", "--max", "1KiB", "--step", step, "--emit-source", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "--step {step}: {}", stderr(&o));
        assert!(!f.exists());
    }
    let o = xmpc(&["mpiete", "commdata", "--max", "1KiB", "--step", "256", "--emit-source", f.to_str().unwrap()]);
    assert!(o.status.success() && f.is_file(), "{}", stderr(&o));
}

/// `xmpc a.c -o /nonexistent/a.out` (and `xmpcc`) translated, compiled and linked, then
/// failed to place the result (exit 1): an output directory that does not exist is a
/// bad command line found before any work.
#[test]
fn missing_output_directory_is_refused_first() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "a.c", PLAIN.as_bytes());
    let out = d.path().join("no").join("a.out");
    for tool in [env!("CARGO_BIN_EXE_xmpc"), env!("CARGO_BIN_EXE_xmpcc")] {
        let o = Command::new(tool).args([&src, "-o", out.to_str().unwrap()]).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{tool}: {}", stderr(&o));
        assert!(stderr(&o).contains("does not exist") && stderr(&o).contains("a.out"), "{}", stderr(&o));
    }
}

/// `--skeletonize --times /dev/zero` read the time table until memory ran out (with
/// `ulimit -v 4000000`: "out of memory" after a minute); data files are bounded.
#[test]
fn endless_time_table_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "a.c", PLAIN.as_bytes());
    let mut c = Command::new(env!("CARGO_BIN_EXE_xmpc"))
        .args([&src, "--skeletonize", "--times", "/dev/zero", "-o", d.path().join("s.c").to_str().unwrap()])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while c.try_wait().unwrap().is_none() {
        if t0.elapsed().as_secs() > 60 {
            c.kill().unwrap();
            panic!("--times /dev/zero still reading after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = c.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("/dev/zero") && stderr(&o).contains("limit"), "{}", stderr(&o));
    assert!(!d.path().join("s.c").exists());
}

/// `--skeletonize --measure -o s.c` also writes the measured table to
/// `s.blocktimes.json`: that path was checked only after the instrumented build and
/// the MPI run (a symbolic link there: exit 1 after all the work). It is an output like
/// `-o` and is checked with it, before any work (exit 2, nothing built or run).
#[test]
fn measured_block_times_path_is_checked_first() {
    let d = tempfile::tempdir().unwrap();
    let src = write(d.path(), "a.c", b"#include <mpi.h>\nint main(int c, char **v) { MPI_Init(&c, &v); MPI_Finalize(); return 0; }\n");
    let victim = write(d.path(), "victim", b"keep");
    std::os::unix::fs::symlink(&victim, d.path().join("s.blocktimes.json")).unwrap();
    let out = d.path().join("s.c");
    let t0 = std::time::Instant::now();
    let o = xmpc(&[&src, "--skeletonize", "--measure", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("s.blocktimes.json") && stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("measured"), "{}", stderr(&o));
    assert!(t0.elapsed().as_secs() < 10, "checked after the work: {:?}", t0.elapsed());
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    assert!(!out.exists());
}

/// Standard output that is already closed when the program starts writing: a pipe
/// whose reading end was closed before the program ran (deterministic, unlike a
/// reader that exits early).
#[cfg(unix)]
fn closed_pipe() -> std::process::Stdio {
    use std::os::fd::{FromRawFd, OwnedFd};
    extern "C" {
        fn pipe(fds: *mut i32) -> i32;
        fn close(fd: i32) -> i32;
    }
    let mut fds = [0i32; 2];
    assert_eq!(unsafe { pipe(fds.as_mut_ptr()) }, 0);
    unsafe { close(fds[0]) };
    std::process::Stdio::from(unsafe { OwnedFd::from_raw_fd(fds[1]) })
}

/// `xmpcc --help | head -1` and `xmpf90 --version` on a closed pipe panicked ("failed
/// printing to stdout", exit 101): the drop-in commands did not restore SIGPIPE as
/// every other tool does. Every CLI tool on a closed stdout ends by SIGPIPE (141).
#[cfg(unix)]
#[test]
fn every_tool_ends_quietly_on_a_closed_stdout() {
    use std::os::unix::process::ExitStatusExt;
    let xmpc = env!("CARGO_BIN_EXE_xmpc");
    let cases: [(&str, &[&str]); 9] = [
        (env!("CARGO_BIN_EXE_xmpcc"), &["--help"]),
        (env!("CARGO_BIN_EXE_xmpcc"), &["--version"]),
        (env!("CARGO_BIN_EXE_xmpf90"), &["--help"]),
        (env!("CARGO_BIN_EXE_xmpf90"), &["--version"]),
        (xmpc, &["--help"]),
        (xmpc, &["--show-env"]),
        (xmpc, &["bsim", "--help"]),
        (xmpc, &["psim", "--help"]),
        (xmpc, &["mpiete", "--help"]),
    ];
    for (exe, args) in cases {
        let o = Command::new(exe).args(args).stdout(closed_pipe()).output().unwrap();
        assert_eq!(o.status.signal(), Some(13), "{exe} {args:?}: {:?} {}", o.status, stderr(&o));
    }
}

/// `xmpc -c a.c` writes `a.o` in the current directory, an output no option names: a
/// symbolic link there was refused only after the translation and the C compiler ran
/// (exit 1). It is checked before any work like `-o` (exit 2); `--keep`'s translation
/// beside the source likewise.
#[test]
fn implicit_outputs_are_checked_first() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "a.c", PLAIN.as_bytes());
    let victim = write(d.path(), "victim", b"keep");
    std::os::unix::fs::symlink(&victim, d.path().join("a.o")).unwrap();
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).current_dir(d.path()).output().unwrap();
    let o = run(&["-c", "a.c"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a.o") && stderr(&o).contains("symbolic link"), "{}", stderr(&o));
    std::fs::remove_file(d.path().join("a.o")).unwrap();
    std::os::unix::fs::symlink(&victim, d.path().join("a.xmpc.c")).unwrap();
    let o = run(&["-c", "a.c", "--keep"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("a.xmpc.c"), "{}", stderr(&o));
    assert!(!d.path().join("a.o").exists());
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
}
