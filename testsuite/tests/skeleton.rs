//! The MPI test programs of `testsuite/mpi/` (issue #5): their block lists, golden
//! skeletons and instrumented versions, and the programs themselves under `mpiexec`
//! with their self-checks at 2 and 4 processes.

use std::path::{Path, PathBuf};
use std::process::Command;

use xmpc_ir::{diag::Severity, FileUnit, Lang};
use xmpc_passes::blocks::{self, BlockKind, Instrument};
use xmpc_passes::skel::{self, BlockTime, TimeTable};

/// Every program, with small arguments for the runs and what they compute.
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

fn mpi_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mpi")
}

fn parse(rel: &str) -> (String, FileUnit) {
    let text = std::fs::read_to_string(mpi_dir().join(rel)).unwrap();
    let parsed = xmpc_frontend::parse_source(0, rel, &text, Lang::from_path(rel).unwrap());
    let errs: Vec<_> = parsed.diags.iter().filter(|d| d.severity >= Severity::Error).map(|d| d.message.clone()).collect();
    assert!(errs.is_empty(), "{rel}: {errs:?}");
    (text, parsed.unit)
}

fn snap_name(rel: &str) -> String {
    rel.replace(['/', '.'], "_")
}

/// A table giving compute block k the time k × 100 µs on rank 0 and k × 100 µs + 1 µs
/// on rank 1 (close enough for the mean, so skeletons show the mean form).
fn table(bs: &[blocks::Block]) -> TimeTable {
    let mut t = TimeTable { source: "test".into(), ranks: 2, ..Default::default() };
    for b in bs.iter().filter(|b| b.kind == BlockKind::Compute) {
        let m = b.id as f64 * 1e-4;
        t.blocks.insert(b.id, BlockTime { mean_s: m, count: 1, per_rank: vec![m, m + 1e-6] });
    }
    t
}

#[test]
fn block_lists() {
    for (rel, _) in PROGRAMS {
        let (text, unit) = parse(rel);
        let bs = blocks::find(&unit, &text).unwrap_or_else(|d| panic!("{rel}: {:?}", d.iter().map(|x| &x.message).collect::<Vec<_>>()));
        // IDs count from 1 in source order; every MPI call statement is a block.
        for (i, b) in bs.iter().enumerate() {
            assert_eq!(b.id as usize, i + 1);
            if i > 0 {
                assert!(bs[i - 1].span.end <= b.span.start, "{rel}: blocks {} and {} overlap", i, i + 1);
            }
        }
        let mpi_calls = text
            .lines()
            .filter(|l| {
                !is_comment(l, unit.lang) && l.to_ascii_lowercase().contains("call mpi_")
                    || (unit.lang == Lang::C && l.trim_start().starts_with("MPI_") && l.contains('('))
            })
            .count();
        let comm = bs.iter().filter(|b| b.kind != BlockKind::Compute && b.call.as_deref().is_some_and(|c| !c.eq_ignore_ascii_case("mpi_wtime"))).count();
        assert!(comm >= mpi_calls, "{rel}: {comm} comm blocks for {mpi_calls} MPI call statements");
        insta::assert_snapshot!(format!("blocks_{}", snap_name(rel)), blocks::listing(rel, &text, &bs));
    }
}

fn is_comment(l: &str, lang: Lang) -> bool {
    let t = l.trim_start();
    t.starts_with('!') || (lang == Lang::FortranFixed && matches!(l.as_bytes().first(), Some(b'c' | b'C' | b'*')))
}

/// Identifier tokens starting with MPI_ (any case in Fortran) left in code.
fn leftover_mpi(text: &str, lang: Lang) -> Vec<String> {
    skel::rename::tokens(text, lang)
        .into_iter()
        .filter(|(_, t)| if lang == Lang::C { t.starts_with("MPI_") } else { t.len() > 4 && t[..4].eq_ignore_ascii_case("mpi_") })
        .map(|(_, t)| t.to_string())
        .collect()
}

fn skeleton_of(rel: &str) -> (String, Vec<String>, usize, Lang) {
    let (text, unit) = parse(rel);
    let bs = blocks::find(&unit, &text).unwrap();
    let opts = skel::Options { times: Some(table(&bs)), times_name: Some("t.json".into()), strict_times: true, ..Default::default() };
    let sk = skel::skeletonize(&unit, &text, &opts).unwrap_or_else(|d| panic!("{rel}: {:?}", d.iter().map(|x| &x.message).collect::<Vec<_>>()));
    let out = xmpc_backends::emit(&unit, &text, &sk.edits).unwrap();
    let n = bs.iter().filter(|b| b.kind == BlockKind::Compute).count();
    (out, sk.report, n, unit.lang)
}

#[test]
fn golden_skeletons() {
    for (rel, _) in PROGRAMS {
        let (out, report, ncompute, lang) = skeleton_of(rel);
        assert_eq!(leftover_mpi(&out, lang), Vec::<String>::new(), "{rel}: MPI_ identifiers left");
        let calls = out.lines().filter(|l| !is_comment(l, lang) && l.contains("BSIM_Add_time(")).count();
        assert_eq!(calls, ncompute, "{rel}: one BSIM_Add_time per compute block");
        assert!(!out.contains("\"mpi.h\"") && !out.contains("<mpi.h>") && !out.contains("'mpif.h'"), "{rel}");
        assert!(out.contains("lmpi.h") || out.contains("lmpif.h") || out.contains("use lmpi"), "{rel}");
        if lang == Lang::FortranFixed {
            for l in out.lines().filter(|l| !is_comment(l, lang)) {
                assert!(l.chars().count() <= 72, "{rel}: fixed-form line too long: {l}");
            }
        }
        // The skeleton parses again.
        let again = xmpc_frontend::parse_source(0, rel, &out, lang);
        assert!(again.diags.iter().all(|d| d.severity < Severity::Error), "{rel}: skeleton does not parse");
        insta::assert_snapshot!(format!("skeleton_{}", snap_name(rel)), format!("{}\n---- memory cut ----\n{}\n", out, report.join("\n")));
    }
}

#[test]
fn instrumented_programs() {
    for rel in ["c/cg.c", "f/cg.f", "f/jacobi2d.f90"] {
        let (text, unit) = parse(rel);
        let bs = blocks::find(&unit, &text).unwrap();
        for (mode, tag) in [(Instrument::Compute, "compute"), (Instrument::Trace, "trace")] {
            let e = blocks::instrument(&unit, &text, &bs, mode).unwrap();
            let out = xmpc_backends::emit(&unit, &text, &e).unwrap();
            let lower = out.to_ascii_lowercase();
            let ncompute = bs.iter().filter(|b| b.kind == BlockKind::Compute).count();
            match mode {
                Instrument::Compute => {
                    assert_eq!(lower.matches("mpiete_block_begin(").count() - (unit.lang == Lang::C) as usize, ncompute, "{rel}");
                    assert_eq!(lower.matches("mpiete_block_end(").count() - (unit.lang == Lang::C) as usize, ncompute, "{rel}");
                }
                Instrument::Trace => assert_eq!(lower.matches("mpiete_mark(").count() - (unit.lang == Lang::C) as usize, bs.len(), "{rel}"),
            }
            // The instrumented program has the same blocks (the calls are MPI-free).
            let again = xmpc_frontend::parse_source(0, rel, &out, unit.lang);
            assert!(again.diags.iter().all(|d| d.severity < Severity::Error));
            insta::assert_snapshot!(format!("instrument_{tag}_{}", snap_name(rel)), out);
        }
    }
}

// ------------------------------------------------------------------ real runs

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn build(rel: &str, dir: &Path) -> PathBuf {
    let src = mpi_dir().join(rel);
    let exe = dir.join(snap_name(rel));
    let tool = if rel.starts_with("c/") { "mpicc" } else { "mpif90" };
    let mut c = Command::new(tool);
    c.arg("-O2").arg(&src).arg("-o").arg(&exe);
    if tool == "mpicc" {
        c.arg("-lm");
    } else {
        c.arg(format!("-J{}", dir.display()));
    }
    let o = c.output().unwrap();
    assert!(o.status.success(), "{rel}: {}", String::from_utf8_lossy(&o.stderr));
    exe
}

fn field(out: &str, key: &str) -> f64 {
    let at = out.find(key).unwrap_or_else(|| panic!("no {key} in {out}")) + key.len();
    out[at..].split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn programs_self_check_under_mpiexec() {
    assert!(have("mpicc") && have("mpif90"), "MPICH (mpicc, mpif90, mpiexec) is needed");
    let d = tempfile::tempdir().unwrap();
    for (rel, args) in PROGRAMS {
        let exe = build(rel, d.path());
        for np in [2, 4] {
            let o = Command::new("mpiexec").arg("-n").arg(np.to_string()).arg(&exe).args(args.split_whitespace()).current_dir(d.path()).output().unwrap();
            let out = String::from_utf8_lossy(&o.stdout).to_string();
            assert!(o.status.success() && out.contains("CHECK OK"), "{rel} at np={np}: {out}{}", String::from_utf8_lossy(&o.stderr));
            // Independent checks of the closed-form programs.
            if rel.contains("ring") {
                let loops: f64 = args.split_whitespace().nth(if rel.ends_with(".c") { 1 } else { 0 }).unwrap().parse().unwrap();
                let p = np as f64;
                assert_eq!(field(&out, "value="), loops * p * (p + 1.0) / 2.0, "{rel}");
            }
            if rel.contains("master_worker") {
                let a: Vec<u64> = args.split_whitespace().map(|x| x.parse().unwrap()).collect();
                let want: f64 = (0..a[0]).map(|t| (1..=(t % 5 + 1) * a[1]).map(|k| 1.0 / (k as f64 * k as f64)).sum::<f64>()).sum();
                assert!((field(&out, "total=") - want).abs() <= 1e-9 * want, "{rel}: {out}");
            }
        }
    }
}

/// Fortran placement: a mark before an MPI call in a logical `if` turns it into a block
/// `if` (checked by the Fortran compiler); a compute block sharing its line with an
/// MPI call cannot be commented out and says so.
#[test]
fn fortran_logical_if_and_shared_lines() {
    let src = "program t\n  use mpi\n  integer :: ierr, rank, x\n  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)\n  if (rank == 0) call MPI_Barrier(MPI_COMM_WORLD, ierr)\n  x = rank; call MPI_Finalize(ierr)\n  print *, x\nend program\n";
    let parsed = xmpc_frontend::parse_source(0, "t.f90", src, Lang::FortranFree);
    let bs = blocks::find(&parsed.unit, src).unwrap();
    let e = blocks::instrument(&parsed.unit, src, &bs, Instrument::Trace).unwrap_err();
    assert!(e[0].message.contains("shares its line"), "{}", e[0].message);
    // Without the shared line the trace instrumentation goes through.
    let src = src.replace("  x = rank; call MPI_Finalize(ierr)\n", "  x = rank\n  call MPI_Finalize(ierr)\n");
    let parsed = xmpc_frontend::parse_source(0, "t.f90", &src, Lang::FortranFree);
    let bs = blocks::find(&parsed.unit, &src).unwrap();
    let e = blocks::instrument(&parsed.unit, &src, &bs, Instrument::Trace).unwrap();
    let out = xmpc_backends::emit(&parsed.unit, &src, &e).unwrap();
    assert!(out.contains("  if (rank == 0) then\n    call mpiete_mark(3)\n    call MPI_Barrier(MPI_COMM_WORLD, ierr)\n  end if\n"), "{out}");
    assert!(out.contains("  call mpiete_mark(4)\n  x = rank\n  call mpiete_mark(5)\n  call MPI_Finalize(ierr)\n"), "{out}");
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("t.f90");
    std::fs::write(&f, &out).unwrap();
    let o = Command::new("mpif90").arg("-fsyntax-only").arg(&f).current_dir(d.path()).output().expect("mpif90 (MPICH) is needed");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
