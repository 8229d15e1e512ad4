//! `xmpc --skeletonize` / `--instrument` / `--emit=blocks` as a user runs them, with
//! the BSIM and MPIETE runtimes: `--check` on every test program, every skeleton built
//! and run under `xmpc bsim run`, predictions against closed forms, diagnostics.
//! Needs the runtime archives next to `xmpc` (`cargo build` first, as test.sh does).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn xmpc(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).current_dir(dir).output().expect("xmpc runs")
}

fn mpi(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testsuite/mpi").join(rel).display().to_string()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A block time table: every compute block of `src` gets `f(id)` seconds.
fn table(src: &str, dir: &Path, f: &dyn Fn(u64, &str) -> f64) -> PathBuf {
    let o = xmpc(&[src, "--emit=blocks"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let mut entries = Vec::new();
    for l in String::from_utf8_lossy(&o.stdout).lines() {
        let mut w = l.split_whitespace();
        let id: u64 = w.next().unwrap().parse().unwrap();
        if w.next() == Some("compute") {
            entries.push(format!("{{\"id\":{id},\"mean_s\":{:e},\"count\":1}}", f(id, l)));
        }
    }
    let p = dir.join(format!("{}.times.json", Path::new(src).file_name().unwrap().to_string_lossy()));
    std::fs::write(&p, format!("{{\"format\":\"xmpc-blocktimes/1\",\"source\":\"{src}\",\"ranks\":1,\"blocks\":[{}]}}", entries.join(","))).unwrap();
    p
}

const PROGRAMS: &[(&str, &str)] = &[
    ("c/jacobi2d.c", "24 20"),
    ("c/jacobi3d.c", "5"),
    ("c/cg.c", "200 15"),
    ("c/ring.c", "100 4 2000"),
    ("c/master_worker.c", "20 2000"),
    ("f/jacobi2d.f90", "24 20"),
    ("f/jacobi3d.f90", "5"),
    ("f/cg.f", "200 15"),
    ("f/ring.f", "4"),
    ("f/master_worker.f90", "20 2000"),
];

/// The skeleton text of a golden snapshot of testsuite/tests/skeleton.rs.
fn golden_skeleton(rel: &str) -> String {
    let name = rel.replace(['/', '.'], "_");
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("testsuite/tests/snapshots/skeleton__skeleton_{name}.snap"));
    let t = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    // insta: a `---` header, then the body; the body ends with the memory-cut report.
    let body = t.splitn(3, "---\n").nth(2).expect("insta header");
    body.split("\n---- memory cut ----").next().unwrap().to_string()
}

/// Every golden skeleton is what `xmpc --skeletonize` writes; `--check` passes on every
/// test program (4 ranks: the original under payload mode and the skeleton send the
/// same messages); the skeleton built with `-o skel` runs under `xmpc bsim run`.
#[test]
fn check_and_run_every_skeleton() {
    let d = tempfile::tempdir().unwrap();
    for (rel, args) in PROGRAMS {
        let src = mpi(rel);
        // The table of the golden skeletons (testsuite/tests/skeleton.rs): k × 100 µs.
        let t = table(&src, d.path(), &|id, _| id as f64 * 1e-4);
        let golden_out = format!("golden.{}", rel.rsplit('.').next().unwrap());
        let o = xmpc(&[&src, "--skeletonize", "--times", t.to_str().unwrap(), "-o", &golden_out], d.path());
        assert!(o.status.success(), "{rel}: {}", text(&o));
        let golden = golden_skeleton(rel);
        assert_eq!(
            std::fs::read_to_string(d.path().join(&golden_out)).unwrap().trim_end(),
            golden.trim_end(),
            "{rel}: the golden skeleton is what xmpc writes"
        );
        let o = xmpc(&[&src, "--skeletonize", "--times", t.to_str().unwrap(), "--check", "--np", "4", "--run-args", args, "-o", "skel"], d.path());
        assert!(o.status.success() && text(&o).contains("send the same messages"), "{rel}: {}", text(&o));
        let mut a = vec!["bsim", "run", "--host-time", "off", "./skel", "-np", "2", "--"];
        a.extend(args.split_whitespace());
        let o = xmpc(&a, d.path());
        assert!(o.status.success() && text(&o).contains("predicted time"), "{rel}: {}", text(&o));
    }
}

fn field(out: &str, line: &str, col: usize) -> f64 {
    let l = out.lines().find(|l| l.trim_start().starts_with(line)).unwrap_or_else(|| panic!("no {line} in {out}"));
    l.split_whitespace().nth(col).unwrap().parse().unwrap()
}

/// The ring skeleton with only the work block timed (T seconds): every rank computes
/// loops × T, and the token's trip is serial, so the run lasts at least P × loops × T.
#[test]
fn ring_prediction_matches_closed_form() {
    let d = tempfile::tempdir().unwrap();
    let src = mpi("c/ring.c");
    let t_work = 2.5e-3;
    let t = table(&src, d.path(), &|_, l| if l.contains("for (k = 1; k <= work") { t_work } else { 0.0 });
    let o = xmpc(&[&src, "--skeletonize", "--times", t.to_str().unwrap(), "-o", "ring_skel"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let (np, loops) = (4.0, 6.0);
    let o = xmpc(&["bsim", "run", "--host-time", "off", "./ring_skel", "-np", "4", "--", "1000", "6"], d.path());
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    for col in 1..=3 {
        let c = field(&out, "compute", col);
        assert!((c - loops * t_work).abs() < 1e-9, "compute {c} vs {}: {out}", loops * t_work);
    }
    let end = field(&out, "predicted time:", 2);
    assert!(end >= np * loops * t_work && end < np * loops * t_work * 1.01, "{end}: {out}");
    // `-o` links the main of libxmpc_bsim_mpi.a: the same executable runs as 4 MPI
    // processes and predicts the same time
    let o = xmpc(&["bsim", "run", "--host-time", "off", "./ring_skel", "-np", "4", "--backend", "mpi", "--", "1000", "6"], d.path());
    let out = text(&o);
    assert!(o.status.success() && out.contains("mpi back end"), "{out}");
    assert_eq!(field(&out, "predicted time:", 2), end, "{out}");
}

/// Per-rank block times (rank 1 twice rank 0 in every block) reach each rank: C through
/// a table indexed by BSIM_Rank(), Fortran through merge(.., bsim_rank() == r).
#[test]
fn per_rank_times_reach_each_rank() {
    let d = tempfile::tempdir().unwrap();
    for (rel, args) in [("c/cg.c", "200 3"), ("f/cg.f", "200 3")] {
        let src = mpi(rel);
        let o = xmpc(&[&src, "--emit=blocks"], d.path());
        let ids: Vec<String> =
            String::from_utf8_lossy(&o.stdout).lines().filter(|l| l.contains(" compute ")).map(|l| l.split_whitespace().next().unwrap().to_string()).collect();
        let entries: Vec<String> = ids
            .iter()
            .map(|id| format!("{{\"id\":{id},\"mean_s\":1.5e-3,\"count\":2,\"per_rank\":[{{\"mean_s\":1e-3,\"count\":1}},{{\"mean_s\":2e-3,\"count\":1}}]}}"))
            .collect();
        let t = d.path().join("pr.json");
        std::fs::write(&t, format!("{{\"format\":\"xmpc-blocktimes/1\",\"source\":\"x\",\"ranks\":2,\"blocks\":[{}]}}", entries.join(","))).unwrap();
        let o = xmpc(&[&src, "--skeletonize", "--times", t.to_str().unwrap(), "-o", "pr_skel"], d.path());
        assert!(o.status.success(), "{rel}: {}", text(&o));
        let mut a = vec!["bsim", "run", "--host-time", "off", "./pr_skel", "-np", "2", "--"];
        a.extend(args.split_whitespace());
        let o = xmpc(&a, d.path());
        let out = text(&o);
        assert!(o.status.success(), "{rel}: {out}");
        let (lo, hi) = (field(&out, "compute", 1), field(&out, "compute", 3));
        assert!(lo > 0.0 && (hi - 2.0 * lo).abs() < 1e-12, "{rel}: {lo} {hi}: {out}");
    }
}

/// A skeleton that lost a tag computation (forced into a compute region) is caught.
#[test]
fn check_reports_the_first_differing_event() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("bad.c");
    std::fs::write(
        &src,
        "#include <mpi.h>\nint main(int argc, char **argv) {\n  int rank, size, tag = 0, x = 1;\n  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  MPI_Comm_size(MPI_COMM_WORLD, &size);\n#pragma bsim compute time(1e-6)\n  tag = 5;\n  MPI_Sendrecv_replace(&x, 1, MPI_INT, (rank + 1) % size, tag, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n  MPI_Finalize();\n  return 0;\n}\n",
    )
    .unwrap();
    let o = xmpc(&[src.to_str().unwrap(), "--skeletonize", "--check", "--np", "2", "-o", "bad_skel.c"], d.path());
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("rank 0, event 1") && out.contains("tag=5") && out.contains("tag=0"), "{out}");
    assert!(!d.path().join("bad_skel.c").exists());
}

#[test]
fn missing_time_is_a_located_error_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let src = mpi("c/ring.c");
    let o = xmpc(&[&src, "--skeletonize", "--strict-times", "-o", "out.c", "--color", "never"], d.path());
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("error[XMP0812]: compute block 4 has no time"), "{out}");
    assert!(out.contains("ring.c:19:5"), "{out}");
    assert!(out.contains("--measure") && out.contains("--times"), "{out}");
    assert!(!d.path().join("out.c").exists());
    // A table without the block names it.
    let t = d.path().join("t.json");
    std::fs::write(&t, r#"{"format":"xmpc-blocktimes/1","source":"ring.c","ranks":1,"blocks":[{"id":5,"mean_s":1e-3,"count":1}]}"#).unwrap();
    let o = xmpc(&[&src, "--skeletonize", "--strict-times", "--times", t.to_str().unwrap(), "-o", "out.c"], d.path());
    assert!(text(&o).contains("has no entry for block 4") && !d.path().join("out.c").exists(), "{}", text(&o));
    // A malformed table is an error naming the file.
    std::fs::write(&t, "{").unwrap();
    let o = xmpc(&[&src, "--skeletonize", "--times", t.to_str().unwrap(), "-o", "out.c"], d.path());
    assert!(o.status.code() == Some(1) && text(&o).contains("t.json: not JSON"), "{}", text(&o));
}

/// A new user's first try: one block with a time, the others (a loop and a printf)
/// without. They run in the skeleton and are charged their host time, with a note
/// each; `--strict-times` refuses as before.
#[test]
fn blocks_without_a_time_run_and_are_charged_their_host_time() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("first.c");
    std::fs::write(
        &src,
        "#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n  int rank, size;\n  double s = 0;\n  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  MPI_Comm_size(MPI_COMM_WORLD, &size);\n#pragma bsim compute time(2.5e-3)\n  s = s + 1;\n  MPI_Barrier(MPI_COMM_WORLD);\n  for (long i = 0; i < 20000000; i++)\n    s += i * 1e-9;\n  printf(\"rank %d of %d: %.3f\\n\", rank, size, s);\n  MPI_Finalize();\n  return 0;\n}\n",
    )
    .unwrap();
    let p = src.to_str().unwrap();
    let o = xmpc(&[p, "--skeletonize", "-o", "first_skel"], d.path());
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    assert_eq!(out.matches("note: ").count(), 1, "{out}");
    assert!(out.contains("first.c:12:3: compute block ") && out.contains(" has no time") && out.contains("measured host time"), "{out}");
    let o = xmpc(&["bsim", "run", "./first_skel", "-np", "2"], d.path());
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    // the untimed block ran (its printf) and its CPU time was added to the 2.5 ms
    assert!(out.contains("rank 0 of 2: 199999.990") && out.contains("rank 1 of 2: 199999.990"), "{out}");
    let c = field(&out, "compute", 1);
    assert!(c > 2.5e-3 + 1e-3 && c < 5.0, "compute {c}: {out}");
    let o = xmpc(&[p, "--skeletonize", "--strict-times", "-o", "strict.c", "--color", "never"], d.path());
    let out = text(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("error[XMP0812]: compute block ") && out.contains("first.c:12:3"), "{out}");
    assert!(!d.path().join("strict.c").exists());
}

/// A peer computed only in a declaration's initial value (`int peer = (r + px) % np;`)
/// makes what it reads control: the loop computing `px` stays in the skeleton, which
/// talks to the same ranks as the original (`--check`).
#[test]
fn declaration_initial_values_are_traced() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("init.c");
    std::fs::write(
        &src,
        "#include <mpi.h>\nint main(int argc, char **argv) {\n  int r, np, px = 0, x = 1;\n  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &r);\n  MPI_Comm_size(MPI_COMM_WORLD, &np);\n  for (int i = 0; i < 3; i++)\n    px += 1;\n  int peer = (r + px) % np;\n  int from = (r + np - px) % np;\n  MPI_Sendrecv_replace(&x, 1, MPI_INT, peer, 0, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n  MPI_Finalize();\n  return 0;\n}\n",
    )
    .unwrap();
    let p = src.to_str().unwrap();
    let t = table(p, d.path(), &|_, _| 1e-6);
    let o = xmpc(&[p, "--skeletonize", "--times", t.to_str().unwrap(), "--check", "--np", "4", "-o", "init_skel.c"], d.path());
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let sk = std::fs::read_to_string(d.path().join("init_skel.c")).unwrap();
    let kept = sk.lines().find(|l| l.contains("px += 1")).unwrap_or("");
    assert!(!kept.contains("/*") && !sk.contains("[bsim block"), "{sk}");
}

#[test]
fn malformed_bsim_directives_are_located_errors() {
    let d = tempfile::tempdir().unwrap();
    for (name, body, want) in [
        ("a.c", "#include <mpi.h>\nint main(int c, char **v) {\n  int x;\n  MPI_Init(&c, &v);\n#pragma bsim compute tme(3)\n  x = 1;\n  MPI_Finalize();\n  return x;\n}\n", "a.c:5:22"),
        ("b.f90", "program p\n  use mpi\n  integer :: ierr, x\n  call MPI_Init(ierr)\n  !$bsim end compute\n  x = 1\n  call MPI_Finalize(ierr)\nend program\n", "b.f90:5:3"),
        ("c.f", "      program p\n      include 'mpif.h'\n      integer ierr, x\n      call MPI_INIT(ierr)\nc$bsim compute time(\n      x = 1\n      call MPI_FINALIZE(ierr)\n      end\n", "c.f:5:20"),
    ] {
        let p = d.path().join(name);
        std::fs::write(&p, body).unwrap();
        let o = xmpc(&[p.to_str().unwrap(), "--skeletonize", "-o", "out.src", "--color", "never"], d.path());
        let out = text(&o);
        assert_eq!(o.status.code(), Some(1), "{name}: {out}");
        assert!(out.contains(want), "{name}: want {want} in {out}");
        assert!(!d.path().join("out.src").exists());
    }
}

/// `--instrument=compute -o exe` links libxmpc_mpiete; its table names exactly the
/// compute blocks `--emit=blocks` lists, with the counts the program implies; and
/// `--measure` turns such a table into a skeleton.
#[test]
fn instrumented_run_and_measure() {
    let d = tempfile::tempdir().unwrap();
    let src = mpi("c/cg.c");
    let o = xmpc(&[&src, "--instrument=compute", "-o", "cg_t"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    let out = d.path().join("m");
    std::fs::create_dir_all(&out).unwrap();
    let o = Command::new("mpiexec")
        .args(["-n", "2", "./cg_t", "300", "7"])
        .env("MPIETE_MODE", "compute")
        .env("MPIETE_OUT", &out)
        .current_dir(d.path())
        .output()
        .unwrap();
    assert!(o.status.success() && text(&o).contains("CHECK OK"), "{}", text(&o));
    let json = std::fs::read_to_string(out.join("blocktimes.json")).unwrap();
    let blocks = String::from_utf8(xmpc(&[&src, "--emit=blocks"], d.path()).stdout).unwrap();
    for l in blocks.lines().filter(|l| l.contains(" compute ")) {
        let id = l.split_whitespace().next().unwrap();
        let want = if l.contains("loop depth 1") { 7 * 2 } else { 2 };
        let at = json.find(&format!("\"id\":{id},")).unwrap_or_else(|| panic!("block {id} missing in {json}"));
        let entry = &json[at..at + json[at..].find("per_rank").unwrap_or(json.len() - at)];
        assert!(entry.contains(&format!("\"count\":{want},")), "block {id} ({l}): {entry}");
    }
    let o = xmpc(&[&src, "--skeletonize", "--measure", "--np", "2", "--run-args", "300 7", "-o", "cg_skel.c"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    // --measure checks the skeleton too
    assert!(text(&o).contains("--check: 2 ranks, original and skeleton send the same messages"), "{}", text(&o));
    assert!(d.path().join("cg_skel.blocktimes.json").is_file());
    let sk = std::fs::read_to_string(d.path().join("cg_skel.c")).unwrap();
    assert_eq!(sk.matches("BSIM_Add_time(").count(), blocks.lines().filter(|l| l.contains(" compute ")).count());
}

#[test]
fn conflicting_options_are_usage_errors() {
    let d = tempfile::tempdir().unwrap();
    let src = mpi("c/ring.c");
    for args in [
        vec![src.as_str(), "--times", "t.json", "-o", "x.c"],
        vec![src.as_str(), "--skeletonize", "--instrument=trace", "-o", "x.c"],
        vec![src.as_str(), "--skeletonize", "--measure", "--times", "t.json", "-o", "x.c"],
        vec![src.as_str(), "--skeletonize", "--emit=blocks"],
    ] {
        let o = xmpc(&args, d.path());
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(!d.path().join("x.c").exists());
    }
}

/// A `time(EXPR)` model over program variables: one skeleton predicts several sizes
/// (BSIM's compute time is iters × n × 1 µs for each n given on the command line).
#[test]
fn time_model_scales_with_the_problem() {
    let d = tempfile::tempdir().unwrap();
    let src = d.path().join("model.f90");
    std::fs::write(
        &src,
        "program model\n  use mpi\n  implicit none\n  integer :: ierr, rank, n, it\n  double precision :: s\n  character(len=16) :: arg\n  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)\n  call get_command_argument(1, arg)\n  read (arg, *) n\n  s = 0\n  do it = 1, 5\n    !$bsim compute time(n * 1d-6)\n    s = s + sqrt(dble(n * it))\n    !$bsim end compute\n    call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)\n  end do\n  call MPI_Finalize(ierr)\nend program model\n",
    )
    .unwrap();
    // The block before the loop (`s = 0`) needs a time too: give it none by table.
    let t = d.path().join("t.json");
    let blocks = String::from_utf8(xmpc(&[src.to_str().unwrap(), "--emit=blocks"], d.path()).stdout).unwrap();
    let first = blocks.lines().find(|l| l.contains("compute") && !l.contains("time(")).unwrap().split_whitespace().next().unwrap().to_string();
    std::fs::write(&t, format!("{{\"format\":\"xmpc-blocktimes/1\",\"source\":\"m\",\"ranks\":1,\"blocks\":[{{\"id\":{first},\"mean_s\":0,\"count\":1}}]}}"))
        .unwrap();
    let o = xmpc(&[src.to_str().unwrap(), "--skeletonize", "--times", t.to_str().unwrap(), "-o", "model_skel"], d.path());
    assert!(o.status.success(), "{}", text(&o));
    for n in [100.0, 2500.0] {
        let o = xmpc(&["bsim", "run", "--host-time", "off", "./model_skel", "-np", "3", "--", &format!("{n}")], d.path());
        let out = text(&o);
        assert!(o.status.success(), "{out}");
        let c = field(&out, "compute", 3);
        assert!((c - 5.0 * n * 1e-6).abs() < 1e-12, "n={n}: compute {c}: {out}");
    }
}

/// NPB-like programs built with `xmpc bsim cc` / `xmpc bsim fc` from mpicc /
/// mpif90 command lines and run unmodified (testsuite/mpi/npblike): broadcast
/// parameters decide the loop and message size (they must carry their data), a
/// kept hot loop is charged its host time (`--host-time off` charges none),
/// blocks nest across files (C timers), and the Fortran include file with
/// mpif.h and a COMMON block, and a subroutine's own COMMON block, work per rank.
#[test]
fn npb_like_programs_through_the_wrappers() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let p = |f: &str| mpi(&format!("npblike/{f}"));
    let o = xmpc(&["bsim", "cc", "-O2", "-c", &p("params.c")], dir);
    assert!(o.status.success(), "{}", text(&o));
    let o = xmpc(&["bsim", "cc", "-O2", "-c", &p("timers.c"), "-o", "t.o"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let o = xmpc(&["bsim", "cc", "-O2", "-o", "pc", "params.o", "t.o"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let o = xmpc(&["bsim", "fc", "-O2", "-o", "pf", &p("params.f"), &p("report.f")], dir);
    assert!(o.status.success(), "{}", text(&o));
    // compute removed: the call of another file's routine that communicates stays
    let o = xmpc(&["bsim", "fc", "--bsim-times=zero", "-O2", "-o", "pz", &p("params.f"), &p("report.f")], dir);
    assert!(o.status.success(), "{}", text(&o));
    let o = xmpc(&["bsim", "run", "./pz", "-np", "4", "--host-time", "off", "--trace", "tz"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let t = std::fs::read_to_string(dir.join("tz/rank0.txt")).unwrap();
    assert!(t.contains("allreduce peer=0 tag=-1 bytes=4 comm=1"), "{t}");
    let run = |exe: &str, host: &str, args: &[&str]| -> f64 {
        let mut a = vec!["bsim", "run", exe, "-np", "4", "--host-time", host, "--"];
        a.extend(args);
        let o = xmpc(&a, dir);
        let s = text(&o);
        assert!(o.status.success(), "{exe}: {s}");
        assert_eq!(s.matches("CHECK OK").count(), 4, "{exe}: {s}");
        let t = s.lines().find_map(|l| l.strip_prefix("predicted time: ")).unwrap_or_else(|| panic!("{s}"));
        t.split_whitespace().next().unwrap().parse().unwrap()
    };
    for (exe, args) in [("./pc", &["3000", "3"][..]), ("./pf", &[][..])] {
        let on = run(exe, "on", args);
        let off = run(exe, "off", args);
        // the kept loop burns milliseconds of CPU; the messages cost microseconds
        assert!(on > 2e-3, "{exe}: host time charged: {on}");
        assert!(off < 1e-3, "{exe}: host time off: {off}");
    }
}

/// A Fortran function of another file writes its argument (arguments pass by
/// reference: CG's `zeta = randlc(tran, amult)` advances `tran`, which `makea`
/// reads; commented out with the compute removed, CG class S on 64 ranks built a
/// different matrix and stopped with "Space for matrix elements exceeded").
/// testsuite/mpi/npblike/seed.f: the seed decides how many Allreduce calls follow.
#[test]
fn external_function_arguments_are_written() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let p = |f: &str| mpi(&format!("npblike/{f}"));
    let o = xmpc(&["bsim", "fc", "--bsim-times=zero", "-O2", "-o", "sz", &p("seed.f"), &p("seedrng.f")], dir);
    assert!(o.status.success(), "{}", text(&o));
    let o = xmpc(&["bsim", "run", "./sz", "-np", "2", "--host-time", "off", "--trace", "tz"], dir);
    assert!(o.status.success(), "{}", text(&o));
    let t = std::fs::read_to_string(dir.join("tz/rank0.txt")).unwrap();
    assert_eq!(t.matches("allreduce ").count(), 5, "{t}");
}
