//! `xmpc --blocks` and `xmpc mpiete ...` through the driver: results, and clear
//! errors (exit 1, no panic, no output file) on bad input.

use std::path::Path;
use std::process::{Command, Output};
use xmpc_mpiete::trace::{Event, TraceWriter};

fn xmpc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xmpc")).args(args).output().expect("xmpc runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn write_trace(dir: &Path, rank: u32, ranks: u32, evs: &[Event]) {
    let f = std::fs::File::create(dir.join(format!("trace.{rank}.bin"))).unwrap();
    let mut w = TraceWriter::new(f, rank, ranks).unwrap();
    for e in evs {
        w.event(e).unwrap();
    }
    w.finish().unwrap();
}

const BLOCKTIMES: &str = r#"{"format":"xmpc-blocktimes/1","source":"t","ranks":2,"blocks":[
{"id":1,"mean_s":2.0,"count":2,"per_rank":[{"mean_s":2.0,"count":1},{"mean_s":2.0,"count":1}]},
{"id":2,"mean_s":3.0,"count":1,"per_rank":[{"mean_s":0,"count":0},{"mean_s":3.0,"count":1}]}]}"#;
const COMM: &str = r#"{"format":"xmpc-commdata/1","points":[{"bytes":0,"seconds":0.5},{"bytes":1000,"seconds":1.5}]}"#;

#[test]
fn predict_from_files() {
    let d = tempfile::tempdir().unwrap();
    let tr = d.path().join("tr");
    std::fs::create_dir(&tr).unwrap();
    // rank 0 computes 2 s and sends 1000 B; rank 1 receives (T_comm 1.5 s) and computes 3 s
    write_trace(
        &tr,
        0,
        2,
        &[Event::Block(1), Event::Isend { id: 0, req: 1, peer: 1, tag: 0, comm: 0, bytes: 1000 }, Event::Wait { id: 0, req: 1, src: -1, tag: -1, bytes: 0 }],
    );
    write_trace(
        &tr,
        1,
        2,
        &[Event::Irecv { id: 0, req: 1, peer: 0, tag: 0, comm: 0, bytes: 1000 }, Event::Wait { id: 0, req: 1, src: 0, tag: 0, bytes: 1000 }, Event::Block(2)],
    );
    std::fs::write(d.path().join("c.json"), BLOCKTIMES).unwrap();
    std::fs::write(d.path().join("n.json"), COMM).unwrap();
    let j = d.path().join("p.json");
    let p = |s: &str| d.path().join(s).display().to_string();
    let o = xmpc(&["mpiete", "predict", "--compute", &p("c.json"), "--comm", &p("n.json"), "--program", &p("tr"), "--json", &p("p.json")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("predicted time: 6.500000 s"), "{out}");
    let js = std::fs::read_to_string(&j).unwrap();
    assert!(js.contains("\"comm_s\": 3.5"), "{js}"); // waiting from 0 to 2 + 1.5
                                                     // --jitter without spreads in the data: the plain prediction, with a warning
    let o = xmpc(&["mpiete", "predict", "--compute", &p("c.json"), "--comm", &p("n.json"), "--program", &p("tr"), "--jitter", "3"]);
    assert!(o.status.success() && stderr(&o).contains("no block has a spread"), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("predicted time: 6.500000 s"));
    // with a spread on rank 0's block: replays differ, rank 1 waits (2 + draw) + 1.5 on average
    std::fs::write(d.path().join("cj.json"), BLOCKTIMES.replacen("{\"mean_s\":2.0,\"count\":1}", "{\"mean_s\":2.0,\"count\":1,\"sd_s\":0.5}", 1)).unwrap();
    let o = xmpc(&["mpiete", "predict", "--compute", &p("cj.json"), "--comm", &p("n.json"), "--program", &p("tr"), "--jitter", "400", "--seed", "3"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && out.contains("mean of 400 jittered replays"), "{out}{}", stderr(&o));
    let t: f64 = out.split_whitespace().nth(2).unwrap().parse().unwrap();
    assert!((t - 6.5).abs() < 0.1 && t != 6.5, "{out}"); // E = 6.5; the mean of 400 draws: sd 0.025
                                                         // --network: the message crosses an NSIM torus (2 routers, 1 link, 1000 B at 1 GB/s:
                                                         // about a microsecond) instead of T_comm; with --jitter as well
    std::fs::write(
        d.path().join("ring8.toml"),
        "[topology]\nkind = \"torus\"\ndims = [8]\n[link]\nbandwidth = \"1 GB/s\"\nlatency = \"100ns\"\n[router]\ndelay = \"50ns\"\n",
    )
    .unwrap();
    let (c, net, trd) = (p("c.json"), p("ring8.toml"), p("tr"));
    for extra in [&[][..], &["--jitter", "3"][..]] {
        let mut args = vec!["mpiete", "predict", "--compute", &c, "--network", &net, "--program", &trd];
        args.extend_from_slice(extra);
        let o = xmpc(&args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{out}{}", stderr(&o));
        let t: f64 = out.split_whitespace().nth(2).unwrap().parse().unwrap();
        assert!(t > 5.0 && t < 5.001, "{out}");
    }
    // merge: the median of three runs per rank and block
    std::fs::write(d.path().join("c3.json"), BLOCKTIMES.replace("\"mean_s\":3.0,\"count\":1}]", "\"mean_s\":9.0,\"count\":1}]")).unwrap();
    let o = xmpc(&["mpiete", "merge", &p("c.json"), &p("c3.json"), &p("cj.json"), "-o", &p("m.json")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = xmpc(&["mpiete", "predict", "--compute", &p("m.json"), "--comm", &p("n.json"), "--program", &p("tr")]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("predicted time: 6.500000 s"), "{}", String::from_utf8_lossy(&o.stdout));
    let o = xmpc(&["mpiete", "merge", &p("c.json"), &p("n.json"), "-o", &p("m2.json")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!d.path().join("m2.json").exists());
    // dump
    let o = xmpc(&["mpiete", "dump", &p("tr/trace.1.bin")]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "# rank 1 of 2\nirecv block=0 req=1 peer=0 tag=0 comm=0 bytes=1000\nwait block=0 req=1 src=0 tag=0 bytes=1000\nblock 2\n"
    );

    // bad inputs: exit 1, one clear line, no JSON written
    std::fs::remove_file(&j).unwrap();
    std::fs::write(d.path().join("bad.json"), "{\"format\": \"xmpc-blocktimes/1\",\n \"ranks\": }").unwrap();
    let o = xmpc(&["mpiete", "predict", "--compute", &p("bad.json"), "--comm", &p("n.json"), "--program", &p("tr"), "--json", &p("p.json")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("bad.json:2:") && stderr(&o).contains("not valid compute base data"), "{}", stderr(&o));
    assert!(!j.exists());
    let o = xmpc(&["mpiete", "predict", "--compute", &p("c.json"), "--comm", &p("c.json"), "--program", &p("tr")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not valid communication base data"), "{}", stderr(&o));
    let o = xmpc(&["mpiete", "predict", "--compute", &p("c.json"), "--comm", &p("n.json"), "--program", &p("nowhere")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read the trace directory"), "{}", stderr(&o));
    std::fs::remove_file(tr.join("trace.0.bin")).unwrap();
    let o = xmpc(&["mpiete", "predict", "--compute", &p("c.json"), "--comm", &p("n.json"), "--program", &p("tr")]);
    assert!(stderr(&o).contains("trace.0.bin is missing"), "{}", stderr(&o));
    let o = xmpc(&["mpiete", "dump", &p("n.json")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not an MPIETE trace"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"));
}

#[test]
fn blocks_flag() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("p.f90");
    std::fs::write(&f, "program p\n  use mpi\n  integer :: ierr, a\n  call MPI_Init(ierr)\n  call MPI_Bcast(a, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)\n  call MPI_Finalize(ierr)\nend program p\n").unwrap();
    let o = xmpc(&["--blocks", f.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("  call mpiete_bcast(a, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)\n"));
    let o = xmpc(&["--blocks", "--emit=blocks", f.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("2 comm "), "{}", String::from_utf8_lossy(&o.stdout));
    // an error: nothing written
    let g = d.path().join("q.f90");
    std::fs::write(&g, "program q\n  use mpi\n  integer :: ierr, a\n  a = 1; call MPI_Send(a, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)\nend program q\n")
        .unwrap();
    let out = d.path().join("out.f90");
    let o = xmpc(&["--blocks", g.to_str().unwrap(), "-o", out.to_str().unwrap(), "--color=never"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("XMP0602") && stderr(&o).contains("q.f90:4:"), "{}", stderr(&o));
    assert!(!out.exists());
    let o = xmpc(&["--blocks", d.path().join("none.f90").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("cannot read"), "{}", stderr(&o));
}

/// `--instrument=compute --simplify`: which loops of the region are capped, the code
/// after the region commented out, the result still valid fixed-form Fortran.
#[test]
fn simplify_flag() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("s.f");
    let src = "      program s
      use mpi
      implicit none
      integer ierr, rank, np, it, k, n, root, longname_bound_one
      double precision x(100), y
      call MPI_Init(ierr)
      call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
      call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
      n = 10
      longname_bound_one = 1
      x = 1.0d0
      call mpiete_region_begin()
      do it = 1, n
         do k = 1, 100
            x(k) = x(k) * 0.5d0 + it
         end do
         call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM,
     &        MPI_COMM_WORLD, ierr)
      end do
      do it = n, longname_bound_one + longname_bound_one - 1, -1
         call MPI_Bcast(x, 100, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD,
     &        ierr)
      end do
      do it = 1, n
         call MPI_Bcast(x, 1, MPI_DOUBLE_PRECISION, mod(it, np),
     &        MPI_COMM_WORLD, ierr)
      end do
      do it = 1, n
         root = mod(it, np)
         call MPI_Bcast(x, 1, MPI_DOUBLE_PRECISION, root,
     &        MPI_COMM_WORLD, ierr)
      end do
      call mpiete_region_end()
      if (rank .eq. 0) print *, 'S', y
      call MPI_Finalize(ierr)
      end program s
";
    std::fs::write(&f, src).unwrap();
    let out = d.path().join("s_c.f");
    let o = xmpc(&["--blocks", "--instrument=compute", "--simplify", f.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 loop(s) capped at 2 iterations, 1 statement(s) after the region commented out"), "{}", stderr(&o));
    let t = std::fs::read_to_string(&out).unwrap();
    // the iteration loop is capped; the compute loop inside it is a block, not capped
    assert!(t.contains("      do it = 1, min(n, 1 + 1)\n         call mpiete_block_begin(5)\n         do k = 1, 100\n"), "{t}");
    // negative step; the line would pass column 72, so the bound goes on a continuation
    assert!(t.contains("      do it = n, \n     &  max(longname_bound_one + longname_bound_one - 1, n - 1), -1\n"), "{t}");
    // the loop variable is a root: kept; a loop computing a control value: kept
    assert_eq!(t.matches("      do it = 1, n\n").count(), 2, "{t}");
    assert!(t.contains("!      if (rank .eq. 0) print *, 'S', y\n      call MPI_Finalize(ierr)\n"), "{t}");
    assert!(t.lines().all(|l| l.starts_with('!') || l.len() <= 72), "{t}");
    let o = Command::new("mpif90").args(["-fsyntax-only", "-cpp"]).arg(&out).current_dir(d.path()).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // only with --instrument=compute; nothing written
    let out2 = d.path().join("s_t.f");
    let o = xmpc(&["--blocks", "--instrument=trace", "--simplify", f.to_str().unwrap(), "-o", out2.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    assert!(stderr(&o).contains("--simplify goes with --instrument=compute"), "{}", stderr(&o));
    assert!(!out2.exists());
}

/// `--simplify` on C: which counted `for` loops of the region get the 2-iteration
/// cap, the code after the region under `#if 0`, the result still valid C.
#[test]
fn simplify_flag_c() {
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("s.c");
    let src = "#include <mpi.h>
#include <stdio.h>
void mpiete_region_begin(void);
void mpiete_region_end(void);
int main(int argc, char **argv) {
    int rank, np, n = 10, k0 = 3, st = 1, it;
    double x[100], y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &np);
    for (int k = 0; k < 100; k++) x[k] = 1;
    mpiete_region_begin();
    for (int it = 0; it < n; it++) {
        for (int k = 0; k < 100; k++) x[k] = x[k] * 0.5 + it;
        MPI_Allreduce(x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
    for (it = n; it > k0 - 1; it -= 2)
        MPI_Bcast(x, 100, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (it = k0 * 2; it <= n; ++it)
        MPI_Bcast(x, 100, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int it = 0; it < n; it++)
        MPI_Bcast(x, 1, MPI_DOUBLE, it % np, MPI_COMM_WORLD);
    for (int it = 0; it < n; it += st)
        MPI_Bcast(x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int it = 0; it != n; it++)
        MPI_Bcast(x, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    mpiete_region_end();
    if (rank == 0) printf(\"S %f\\n\", y);
    MPI_Finalize();
    return 0;
}
";
    std::fs::write(&f, src).unwrap();
    let out = d.path().join("s_c.c");
    let o = xmpc(&["--blocks", "--instrument=compute", "--simplify", f.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("3 loop(s) capped at 2 iterations, 1 statement(s) after the region commented out"), "{}", stderr(&o));
    let t = std::fs::read_to_string(&out).unwrap();
    // the iteration loop (a declared variable), a negative step, a start expression
    assert!(t.contains("    for (int it = 0; it < n && it <= 0 + 1; it++) {\n"), "{t}");
    assert!(t.contains("    for (it = n; it > k0 - 1 && it >= n - 2; it -= 2)\n"), "{t}");
    assert!(t.contains("    for (it = k0 * 2; it <= n && it <= (k0 * 2) + 1; ++it)\n"), "{t}");
    // the loop variable is a root; a step that is not a literal; a `!=` test: kept
    assert!(t.contains("    for (int it = 0; it < n; it++)\n        mpiete_bcast(x, 1, MPI_DOUBLE, it % np,"), "{t}");
    assert!(t.contains("    for (int it = 0; it < n; it += st)\n"), "{t}");
    assert!(t.contains("    for (int it = 0; it != n; it++)\n"), "{t}");
    assert!(t.contains("#if 0 /* mpiete --simplify: after the region */\n    if (rank == 0) printf(\"S %f\\n\", y);\n#endif\n    MPI_Finalize();\n"), "{t}");
    let o = Command::new("mpicc").args(["-fsyntax-only", "-Wall", "-Werror"]).arg(&out).current_dir(d.path()).output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));

    // code after the region that declares a variable stays (a note says why)
    let g = d.path().join("t.c");
    std::fs::write(
        &g,
        src.replace("    if (rank == 0) printf", "    int z = rank;\n    if (z == 0) printf")
            .replace("y);\n    MPI_Finalize();\n    return 0;", "y);\n    MPI_Finalize();\n    return z;"),
    )
    .unwrap();
    let out = d.path().join("t_c.c");
    let o = xmpc(&["--blocks", "--instrument=compute", "--simplify", g.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("the code after mpiete_region_end declares a variable: it is kept"), "{}", stderr(&o));
    assert!(!std::fs::read_to_string(&out).unwrap().contains("#if 0"));
}

/// `mpiete commdata` says what it is doing in a step that lasts (it was silent while
/// the ping-pong ran); XMPC_PROGRESS_AFTER_MS=0 makes every step "long".
#[test]
fn commdata_says_what_it_is_doing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("c.json");
    let o = Command::new(env!("CARGO_BIN_EXE_xmpc"))
        .args(["mpiete", "commdata", "--max", "64", "-o", out.to_str().unwrap()])
        .env("XMPC_PROGRESS_AFTER_MS", "0")
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    for want in ["mpiete commdata: compiling the ping-pong program with", "mpiete commdata: measuring the ping-pong times of", "done in"] {
        assert!(err.contains(want), "{want:?} missing from:\n{err}");
    }
}

/// `--emit=blocks-json` is JSON written by serde_json: it parses, the source name with
/// a quote and a backslash comes back, one block per line in the documented field order.
#[test]
fn blocks_json_is_serde_json() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("a \"q\" \\ b.c");
    std::fs::write(&src, "#include <mpi.h>\nint main(int c, char **v) {\n  double x = 0;\n  MPI_Init(&c, &v);\n  for (int i = 0; i < 10; i++) x += i;\n  MPI_Finalize();\n  return (int)x;\n}\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_xmpc")).arg(&src).arg("--emit=blocks-json").output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    assert_eq!(v["format"], "xmpc-blocks/1");
    assert!(v["source"].as_str().unwrap().contains("a \"q\" \\ b.c"), "{text}");
    let blocks = v["blocks"].as_array().unwrap();
    assert!(!blocks.is_empty());
    assert_eq!(text.lines().filter(|l| l.starts_with("{\"id\":")).count(), blocks.len(), "{text}");
}
