//! MPIETE modelling transform (passes/src/mpiete): golden modelled sources, block
//! lists of the modelled sources and trace-instrumented programs for the inputs in
//! testsuite/mpiete; every modelled and instrumented program is compiled against
//! libxmpc_mpiete (built from its C sources) and run under mpiexec in trace mode.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// MPI jobs of the tests below run one at a time (2-core host).
static SERIAL: Mutex<()> = Mutex::new(());
use xmpc_ir::{FileUnit, Lang};
use xmpc_passes::blocks::{self, Instrument};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn parse(name: &str, text: &str) -> FileUnit {
    let lang = Lang::from_path(name).unwrap();
    let p = xmpc_frontend::parse_source(0, name, text, lang);
    assert!(p.diags.iter().all(|d| d.severity < xmpc_ir::diag::Severity::Error), "{name}: {:?}", p.diags);
    p.unit
}

/// (modelled source, block listing, trace-instrumented modelled source)
fn pipeline(rel: &str) -> (String, String, String) {
    let path = root().join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let unit = parse(&name, &text);
    let edits = xmpc_passes::mpiete::model(&unit, &text).unwrap_or_else(|d| panic!("{rel}: {d:?}"));
    let modelled = xmpc_backends::emit(&unit, &text, &edits).unwrap();
    let unit = parse(&name, &modelled);
    let b = blocks::find(&unit, &modelled).unwrap();
    let listing = blocks::listing(&name, &modelled, &b);
    let ie = blocks::instrument(&unit, &modelled, &b, Instrument::Trace).unwrap();
    let inst = xmpc_backends::emit(&unit, &modelled, &ie).unwrap();
    (modelled, listing, inst)
}

fn check(cmd: &mut Command) -> String {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let so = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{cmd:?}: {}\n{so}\n{}", out.status, String::from_utf8_lossy(&out.stderr));
    so
}

fn lib() -> &'static Path {
    static LIB: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &LIB.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let csrc = root().join("runtime/lib/mpiete-rt/csrc");
        for f in ["mpiete", "mpiete_f"] {
            check(Command::new("mpicc").args(["-O2", "-c"]).arg(csrc.join(format!("{f}.c"))).arg("-o").arg(d.path().join(format!("{f}.o"))));
        }
        let a = d.path().join("libxmpc_mpiete.a");
        check(Command::new("ar").arg("rcs").arg(&a).arg(d.path().join("mpiete.o")).arg(d.path().join("mpiete_f.o")));
        (d, a)
    })
    .1
}

/// Builds `text` (named like `name`) against libxmpc_mpiete; returns the executable.
fn build(dir: &Path, name: &str, text: &str) -> PathBuf {
    let src = dir.join(name);
    std::fs::write(&src, text).unwrap();
    let exe = dir.join(format!("{name}.exe"));
    let compiler = if name.ends_with(".c") { "mpicc" } else { "mpif90" };
    let mut c = Command::new(compiler);
    if compiler == "mpif90" {
        c.args(["-cpp", "-w"]);
    }
    check(c.arg(&src).arg(lib()).arg("-o").arg(&exe));
    exe
}

/// mpiexec -n np [taskset -c 0] exe args, MPIETE_MODE=mode, MPIETE_OUT=out; stdout.
fn run_mode(exe: &Path, np: usize, args: &[&str], mode: &str, out: &Path, one_core: bool) -> String {
    std::fs::create_dir_all(out).unwrap();
    let mut c = Command::new("mpiexec");
    c.arg("-n").arg(np.to_string()).env("UCX_ERROR_SIGNALS", "").env("MPIETE_MODE", mode).env("MPIETE_OUT", out).env("MPIETE_YIELD", "1");
    if one_core {
        c.args(["taskset", "-c", "0"]);
    }
    check(c.arg(exe).args(args))
}

/// Builds `text` (named like `name`) and runs it with 4 ranks in trace mode; returns stdout.
fn build_and_trace(dir: &Path, name: &str, text: &str, args: &[&str]) -> String {
    let exe = build(dir, name, text);
    let out = dir.join(format!("{name}.traces"));
    let so = run_mode(&exe, 4, args, "trace", &out, false);
    for r in 0..4 {
        let t = std::fs::read(out.join(format!("trace.{r}.bin"))).unwrap();
        assert_eq!(&t[..8], b"XMPETRC1", "{name}: trace {r}");
    }
    so
}

#[test]
fn modelled_programs_golden_and_running() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &[&str], &str); 6] = [
        ("exchange", "testsuite/mpiete/model/exchange.f90", &[], "EXCHANGE VERIFIED"),
        ("ring_fixed", "testsuite/mpiete/model/ring.f", &[], "RING VERIFIED"),
        ("ring_c", "testsuite/mpiete/model/ring.c", &[], "RING VERIFIED"),
        ("ep", "testsuite/mpiete/ep.F90", &["16", "4"], "EP VERIFIED"),
        ("cg", "testsuite/mpiete/cg.F90", &["64", "10"], "CG VERIFIED"),
        ("lu", "testsuite/mpiete/lu.F", &["40", "16", "2"], "LU VERIFIED"),
    ];
    for (snap, rel, args, ok) in cases {
        let (modelled, listing, inst) = pipeline(rel);
        insta::assert_snapshot!(format!("mpiete_model_{snap}"), modelled);
        insta::assert_snapshot!(format!("mpiete_blocks_{snap}"), listing);
        insta::assert_snapshot!(format!("mpiete_trace_{snap}"), inst);
        // no blocking point-to-point call or MPI collective is left
        let low = modelled.to_ascii_lowercase();
        for f in ["mpi_send(", "mpi_recv(", "mpi_sendrecv(", "mpi_allreduce(", "mpi_reduce(", "mpi_bcast(", "mpi_barrier(", "mpi_alltoall("] {
            assert!(!low.contains(f), "{rel}: {f} left in the modelled source");
        }
        let file = Path::new(rel).file_name().unwrap().to_string_lossy().to_string();
        let o = build_and_trace(d.path(), &format!("m_{file}"), &modelled, args);
        assert!(o.contains(ok), "{rel} modelled: {o}");
        let o = build_and_trace(d.path(), &format!("i_{file}"), &inst, args);
        assert!(o.contains(ok), "{rel} instrumented: {o}");
    }
}

#[test]
fn diagnostics_for_calls_it_cannot_rewrite() {
    let text = "program p\n  use mpi\n  integer :: ierr, a\n  a = 1; call MPI_Send(a, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)\n  call MPI_Recv(a, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)\nend program p\n";
    let unit = parse("p.f90", text);
    let d = xmpc_passes::mpiete::model(&unit, text).unwrap_err();
    let msgs: Vec<String> = d.iter().map(|x| format!("{} {}", x.code.clone().unwrap_or_default(), x.message)).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs[0].starts_with("XMP0602") && msgs[0].contains("shares its line"), "{msgs:?}");
    assert!(msgs[1].starts_with("XMP0601") && msgs[1].contains("takes 8 arguments (with ierr), found 7"), "{msgs:?}");
    // the label sits on the offending line
    let l = &d[1].labels[0];
    assert_eq!(&text[l.range.clone()], "call MPI_Recv(a, 1, MPI_INTEGER, 0, 0, MPI_COMM_WORLD, ierr)");
}

/// Executions per rank of a compute block, from the program's parameters: (function,
/// loop depth, after the region) → count.
type Expect = fn(&str, usize, bool) -> usize;

/// The automatic pipeline on the NPB-style programs (no hand marks): the main loops are
/// compute blocks; `--instrument=compute` (plain and `--simplify`) and
/// `--instrument=trace` programs are golden, build, and run under mpiexec; every compute
/// block runs as often as the program's parameters say (token mode on one core, trace
/// mode), and the predictor replays the traces with either compute data set.
#[test]
fn npb_programs_automatic_pipeline() {
    use xmpc_mpiete::data::{BlockTimes, CommModel};
    use xmpc_mpiete::predict::Predictor;
    use xmpc_mpiete::trace::{trace_files, Event, TraceReader};
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = tempfile::tempdir().unwrap();
    let np = 4;
    // EP m=16, 4 batches; CG n=64, 10 iterations (halo: 10 + 1 calls); LU 40x40x16, 2 iterations
    // (a plane sweep runs nz-1 = 15 times per iteration and direction). Simplified: region
    // loops at 2 iterations, nothing after the region.
    let cases: [(&str, &str, &[&str], Expect, Expect); 3] = [
        ("ep", "testsuite/mpiete/ep.F90", &["16", "4"], |_, _, _| 1, |_, _, after| usize::from(!after)),
        (
            "cg",
            "testsuite/mpiete/cg.F90",
            &["64", "10"],
            |f, depth, _| {
                if f == "halo" {
                    11
                } else if depth == 1 {
                    10
                } else {
                    1
                }
            },
            |f, depth, after| {
                if after {
                    0
                } else if f == "halo" || depth == 1 {
                    2
                } else {
                    1
                }
            },
        ),
        (
            "lu",
            "testsuite/mpiete/lu.F",
            &["40", "16", "2"],
            |_, depth, _| if depth == 2 { 2 * 15 } else { 1 },
            |_, depth, after| {
                if after {
                    0
                } else if depth == 2 {
                    2 * 2
                } else {
                    1
                }
            },
        ),
    ];
    let model = CommModel::constant(1e-6, 1e9);
    for (snap, rel, args, plain_n, simple_n) in cases {
        let path = root().join(rel);
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let unit = parse(&name, &text);
        let modelled = xmpc_backends::emit(&unit, &text, &xmpc_passes::mpiete::model(&unit, &text).unwrap()).unwrap();
        let unit = parse(&name, &modelled);
        let map = blocks::analyse(&unit, &modelled).unwrap();
        let compute: Vec<&blocks::Block> = map.blocks.iter().filter(|b| b.kind == blocks::BlockKind::Compute).collect();
        let first_line = |b: &blocks::Block| modelled[b.span.range()].lines().next().unwrap().trim().to_string();
        // the main loops are compute blocks
        match snap {
            "ep" => assert!(compute.iter().any(|b| b.whole_loop && first_line(b) == "do b = 1, nbatch"), "{snap}: batch loop"),
            "cg" => {
                let in_loop: Vec<String> = compute.iter().filter(|b| b.func == "cg" && b.loops.len() == 1).map(|b| first_line(b)).collect();
                assert_eq!(in_loop, ["do j = j0, j1", "alpha = rho / glob(1)", "rho = glob(1)"], "{snap}");
            }
            _ => {
                let sweeps: Vec<String> = compute.iter().filter(|b| b.loops.len() == 2 && b.whole_loop).map(|b| first_line(b)).collect();
                assert_eq!(sweeps, ["do j = j0, j1", "do j = j1, j0, -1"], "{snap}");
            }
        }
        let region_end = modelled.find("call mpiete_region_end()").unwrap();
        let after = |b: &blocks::Block| b.func == snap && b.span.start > region_end;
        // instrumented programs
        let ce = blocks::instrument(&unit, &modelled, &map.blocks, Instrument::Compute).unwrap();
        let plain = xmpc_backends::emit(&unit, &modelled, &ce).unwrap();
        let s = blocks::simplify(&unit, &modelled, &map);
        assert!(s.notes.is_empty(), "{snap}: {:?}", s.notes);
        let mut se = blocks::instrument_except(&unit, &modelled, &map.blocks, Instrument::Compute, &s.dropped).unwrap();
        se.extend(s.edits);
        let simple = xmpc_backends::emit(&unit, &modelled, &se).unwrap();
        let te = blocks::instrument(&unit, &modelled, &map.blocks, Instrument::Trace).unwrap();
        let traced = xmpc_backends::emit(&unit, &modelled, &te).unwrap();
        insta::assert_snapshot!(format!("mpiete_compute_{snap}"), plain);
        insta::assert_snapshot!(format!("mpiete_simplified_{snap}"), simple);

        let run = |tag: &str, src: &str, mode: &str, one_core: bool| {
            let exe = build(d.path(), &format!("{tag}_{name}"), src);
            let out = d.path().join(format!("{tag}_{snap}.out"));
            let so = run_mode(&exe, np, args, mode, &out, one_core);
            (so, out)
        };
        let check_counts = |bt: &BlockTimes, expect: Expect, what: &str| {
            for b in &compute {
                let n = expect(&b.func, b.loops.len(), after(b));
                let got = bt.blocks.iter().find(|x| x.id == b.id);
                match got {
                    Some(x) => {
                        assert_eq!(x.count as usize, n * np, "{snap} {what}: block {} `{}`", b.id, first_line(b));
                        for r in &x.per_rank {
                            assert_eq!(r.count as usize, n, "{snap} {what}: block {}", b.id);
                        }
                    }
                    None => assert_eq!(n, 0, "{snap} {what}: block {} missing", b.id),
                }
            }
        };
        let (so, cdir) = run("compute", &plain, "token", true);
        assert!(so.contains("VERIFIED"), "{snap}: {so}");
        let full = BlockTimes::load(&cdir.join("blocktimes.json")).unwrap();
        check_counts(&full, plain_n, "compute");
        // the simplified program finishes (its self-check is commented out)
        let (so, sdir) = run("simple", &simple, "token", true);
        assert!(!so.contains("FAILED"), "{snap}: {so}");
        let simp = BlockTimes::load(&sdir.join("blocktimes.json")).unwrap();
        check_counts(&simp, simple_n, "simplified");
        // traces: one BLOCK record per compute block execution
        let (so, tdir) = run("trace", &traced, "trace", false);
        assert!(so.contains("VERIFIED"), "{snap}: {so}");
        let files = trace_files(&tdir).unwrap();
        assert_eq!(files.len(), np);
        for f in &files {
            let mut rd = TraceReader::open(f).unwrap();
            let mut seen = std::collections::HashMap::new();
            while let Some(e) = rd.next_event().unwrap() {
                if let Event::Block(id) = e {
                    *seen.entry(id).or_insert(0usize) += 1;
                }
            }
            for b in &compute {
                assert_eq!(seen.get(&b.id).copied().unwrap_or(0), plain_n(&b.func, b.loops.len(), after(b)), "{snap} trace {}: block {}", f.display(), b.id);
            }
        }
        // prediction with the full and the simplified compute data: the only compute
        // blocks without a time are those the simplified program leaves out (marks before
        // untraced calls such as MPI_Comm_rank are unknown blocks of cost 0)
        let dropped: Vec<u32> = compute.iter().filter(|b| simple_n(&b.func, b.loops.len(), after(b)) == 0).map(|b| b.id).collect();
        for (bt, allowed) in [(&full, &[][..]), (&simp, &dropped[..])] {
            let tables = bt.tables(np);
            let readers = files.iter().map(|f| TraceReader::open(f).unwrap()).collect();
            let p = Predictor::new(&tables, &model).run(readers).unwrap();
            let unknown: Vec<&u32> = p.unknown_blocks.iter().filter(|u| compute.iter().any(|b| b.id == **u)).collect();
            assert!(unknown.iter().all(|u| allowed.contains(u)), "{snap}: unknown compute blocks {unknown:?}");
            assert!(p.total_s > 0.0);
        }
    }
}

/// `MPI_Gather`/`MPI_Scatter` become `mpiete_gather`/`mpiete_scatter` (Fortran and
/// C); the modelled programs still check their data and trace the binomial trees.
#[test]
fn gather_scatter_modelled() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = tempfile::tempdir().unwrap();
    for (file, np, args, sizes) in [
        ("anytest.f90", 4, &["gather"][..], vec![vec![128u64, 64], vec![64], vec![128, 64], vec![64]]),
        ("anytest.c", 2, &[][..], vec![vec![0, 32], vec![8, 800, 32]]),
    ] {
        let path = root().join("runtime/tools/mpiete/tests/programs").join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let unit = parse(file, &text);
        let edits = xmpc_passes::mpiete::model(&unit, &text).unwrap();
        let mut modelled = xmpc_backends::emit(&unit, &text, &edits).unwrap();
        let low = modelled.to_ascii_lowercase();
        assert!(!low.contains("mpi_gather(") && !low.contains("mpi_scatter("), "{file}: {modelled}");
        assert!(low.contains("mpiete_gather(") && low.contains("mpiete_scatter("), "{file}: {modelled}");
        if file.ends_with(".c") {
            assert!(modelled.contains("int mpiete_gather(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);"));
            modelled = modelled.replace(
                "#include \"mpiete.h\"",
                "void mpiete_region_begin(void); void mpiete_region_end(void); void mpiete_block_begin(int); void mpiete_block_end(int);",
            );
        }
        let exe = build(d.path(), &format!("m_{file}"), &modelled);
        let out = d.path().join(format!("{file}.traces"));
        assert!(run_mode(&exe, np, args, "trace", &out, false).contains("ok"), "{file}");
        // the sends of each rank, in order (the transform's sends are Isend + Wait too)
        let got: Vec<Vec<u64>> = (0..np)
            .map(|r| {
                let mut tr = xmpc_mpiete::trace::TraceReader::open(&out.join(format!("trace.{r}.bin"))).unwrap();
                let mut v = Vec::new();
                while let Some(e) = tr.next_event().unwrap() {
                    if let xmpc_mpiete::trace::Event::Isend { bytes, .. } = e {
                        v.push(bytes);
                    }
                }
                v
            })
            .collect();
        assert_eq!(got, sizes, "{file}");
    }
}

/// `MPI_Gatherv/Scatterv/Allgatherv/Alltoallv` become `mpiete_gatherv/...` (Fortran
/// and C, runtime/tools/mpiete/tests/programs/more.*, phase "v"): the modelled programs
/// still check their data, and each rank sends the messages of MPICH's algorithms
/// (linear Gatherv/Scatterv rooted at 1, ring Allgatherv, scattered Alltoallv).
#[test]
fn v_collectives_modelled() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = tempfile::tempdir().unwrap();
    // counts in doubles, as in more.c
    let (gv, sv, ag) = ([2u64, 3, 0, 5], [4u64, 1, 2, 0], [1u64, 4, 2, 3]);
    let rt = 1usize;
    let want: Vec<Vec<(i32, u64)>> = (0..4usize)
        .map(|r| {
            let mut w = Vec::new();
            if r != rt && gv[r] > 0 {
                w.push((rt as i32, 8 * gv[r]));
            }
            if r == rt {
                w.extend((0..4).filter(|&p| p != rt && sv[p] > 0).map(|p| (p as i32, 8 * sv[p])));
            }
            w.extend((0..3).map(|s| (((r + 1) % 4) as i32, 8 * ag[(r + 4 - s) % 4])));
            w.extend((1..4).map(|i| (r + 4 - i) % 4).filter(|&p| (r + p) % 3 > 0).map(|p| (p as i32, 8 * ((r + p) % 3) as u64)));
            w
        })
        .collect();
    for file in ["more.f90", "more.c"] {
        let path = root().join("runtime/tools/mpiete/tests/programs").join(file);
        let text = std::fs::read_to_string(&path).unwrap();
        let unit = parse(file, &text);
        let edits = xmpc_passes::mpiete::model(&unit, &text).unwrap();
        let mut modelled = xmpc_backends::emit(&unit, &text, &edits).unwrap();
        let low = modelled.to_ascii_lowercase();
        for c in ["gatherv", "scatterv", "allgatherv", "alltoallv"] {
            assert!(!low.contains(&format!("mpi_{c}(")) && low.contains(&format!("mpiete_{c}(")), "{file}: {c}\n{modelled}");
        }
        if file.ends_with(".c") {
            assert!(modelled.contains("int mpiete_scatterv(const void *, const int *, const int *, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);"));
            modelled = modelled.replace(
                "#include \"mpiete.h\"",
                "void mpiete_region_begin(void); void mpiete_region_end(void); void mpiete_block_begin(int); void mpiete_block_end(int);",
            );
        }
        let exe = build(d.path(), &format!("m_{file}"), &modelled);
        let out = d.path().join(format!("{file}.traces"));
        assert!(run_mode(&exe, 4, &["v"], "trace", &out, false).contains("ok"), "{file}");
        for (r, w) in want.iter().enumerate() {
            let mut tr = xmpc_mpiete::trace::TraceReader::open(&out.join(format!("trace.{r}.bin"))).unwrap();
            let mut got = Vec::new();
            while let Some(e) = tr.next_event().unwrap() {
                if let xmpc_mpiete::trace::Event::Isend { peer, bytes, .. } = e {
                    got.push((peer, bytes));
                }
            }
            assert_eq!(&got, w, "{file} rank {r}");
        }
    }
}

/// `--simplify` on a C program (testsuite/mpiete/heat.c): the iteration loop is
/// capped at 2 iterations, the self-check after the region is put under `#if 0`; the
/// simplified program builds and runs (token mode, one core) with the same block IDs,
/// 2 executions instead of `nit` of the blocks in the capped loop, the others
/// unchanged, and per-execution means close to the full program's.
#[test]
fn c_simplify_heat() {
    use xmpc_mpiete::data::BlockTimes;
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = tempfile::tempdir().unwrap();
    let name = "heat.c";
    let text = std::fs::read_to_string(root().join("testsuite/mpiete/heat.c")).unwrap();
    let unit = parse(name, &text);
    let modelled = xmpc_backends::emit(&unit, &text, &xmpc_passes::mpiete::model(&unit, &text).unwrap()).unwrap();
    let unit = parse(name, &modelled);
    let map = blocks::analyse(&unit, &modelled).unwrap();
    let plain = xmpc_backends::emit(&unit, &modelled, &blocks::instrument(&unit, &modelled, &map.blocks, Instrument::Compute).unwrap()).unwrap();
    let s = blocks::simplify(&unit, &modelled, &map);
    assert!(s.notes.is_empty(), "{:?}", s.notes);
    assert_eq!((s.capped.len(), s.dropped_stmts), (1, 2));
    let mut se = blocks::instrument_except(&unit, &modelled, &map.blocks, Instrument::Compute, &s.dropped).unwrap();
    se.extend(s.edits.iter().cloned());
    let simple = xmpc_backends::emit(&unit, &modelled, &se).unwrap();
    insta::assert_snapshot!("mpiete_simplified_heat", simple);

    let (np, nit) = (2usize, 12usize);
    let args = ["20000", "12"];
    let run = |tag: &str, src: &str| {
        let exe = build(d.path(), &format!("{tag}_{name}"), src);
        let out = d.path().join(format!("{tag}.out"));
        let so = run_mode(&exe, np, &args, "token", &out, true);
        (so, BlockTimes::load(&out.join("blocktimes.json")).unwrap())
    };
    let (so, full) = run("full", &plain);
    assert!(so.contains("HEAT VERIFIED"), "{so}");
    let (so, simp) = run("simple", &simple);
    assert!(!so.contains("HEAT"), "{so}");
    let capped = s.capped[0];
    let dropped = s.dropped[0];
    let inside = |a: xmpc_ir::Span, b: xmpc_ir::Span| a.start >= b.start && a.end <= b.end;
    let mut n_capped = 0;
    for b in map.blocks.iter().filter(|b| b.kind == blocks::BlockKind::Compute) {
        let f = full.blocks.iter().find(|x| x.id == b.id);
        let g = simp.blocks.iter().find(|x| x.id == b.id);
        if inside(b.span, dropped) {
            assert!(f.is_some() && g.is_none(), "block {} after the region", b.id);
            continue;
        }
        let (Some(f), Some(g)) = (f, g) else {
            // after MPI_Finalize: timed by neither
            assert!(f.is_none() && g.is_none(), "block {}", b.id);
            continue;
        };
        for r in 0..np {
            let (cf, cg) = (f.per_rank[r].count as usize, g.per_rank[r].count as usize);
            if inside(b.span, capped) {
                assert_eq!((cf, cg), (nit, 2), "block {} rank {r}", b.id);
                let ratio = g.per_rank[r].mean_s / f.per_rank[r].mean_s;
                assert!((0.5..2.0).contains(&ratio), "block {} rank {r}: mean {} vs {}", b.id, g.per_rank[r].mean_s, f.per_rank[r].mean_s);
                n_capped += 1;
            } else {
                assert_eq!(cf, cg, "block {} rank {r}", b.id);
            }
        }
    }
    assert_eq!(n_capped, np, "one compute block in the iteration loop");
}

/// `MPIETE_OUT` naming a folder that does not exist: the program ran, wrote nothing
/// and exited 0; it stops at MPI_Init with a message and a non-zero status (issue 39).
#[test]
fn missing_output_directory_fails_loudly() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = tempfile::tempdir().unwrap();
    let exe = build(d.path(), "plain_out.c", "#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char **argv) {\n  MPI_Init(&argc, &argv);\n  puts(\"RAN\");\n  MPI_Finalize();\n  return 0;\n}\n");
    let missing = d.path().join("no-such-dir");
    let o = Command::new("mpiexec").args(["-n", "2"]).arg(&exe).env("MPIETE_MODE", "compute").env("MPIETE_OUT", &missing).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "exit status {:?}: {err}", o.status);
    assert!(err.contains("MPIETE_OUT=") && err.contains("no-such-dir") && err.contains("must exist"), "{err}");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("RAN"), "stops at MPI_Init");
    // a folder: runs and writes
    std::fs::create_dir(&missing).unwrap();
    let o = Command::new("mpiexec").args(["-n", "2"]).arg(&exe).env("MPIETE_MODE", "compute").env("MPIETE_OUT", &missing).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(missing.join("blocktimes.json").is_file());
}
