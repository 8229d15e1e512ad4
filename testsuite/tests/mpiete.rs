//! MPIETE modelling transform (passes/src/mpiete): golden modelled sources, block
//! lists of the modelled sources and trace-instrumented programs for the inputs in
//! testsuite/mpiete; every modelled and instrumented program is compiled against
//! libxmpc_mpiete (built from its C sources) and run under mpiexec in trace mode.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
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
        let csrc = root().join("runtime/mpiete-rt/csrc");
        for f in ["mpiete", "mpiete_f"] {
            check(Command::new("mpicc").args(["-O2", "-c"]).arg(csrc.join(format!("{f}.c"))).arg("-o").arg(d.path().join(format!("{f}.o"))));
        }
        let a = d.path().join("libxmpc_mpiete.a");
        check(Command::new("ar").arg("rcs").arg(&a).arg(d.path().join("mpiete.o")).arg(d.path().join("mpiete_f.o")));
        (d, a)
    })
    .1
}

/// Builds `text` (named like `name`) and runs it with 4 ranks in trace mode; returns stdout.
fn build_and_trace(dir: &Path, name: &str, text: &str, args: &[&str]) -> String {
    let src = dir.join(name);
    std::fs::write(&src, text).unwrap();
    let exe = dir.join(format!("{name}.exe"));
    let compiler = if name.ends_with(".c") { "mpicc" } else { "mpif90" };
    let mut c = Command::new(compiler);
    if compiler == "mpif90" {
        c.args(["-cpp", "-w"]);
    }
    check(c.arg(&src).arg(lib()).arg("-o").arg(&exe));
    let out = dir.join(format!("{name}.traces"));
    std::fs::create_dir_all(&out).unwrap();
    let so = check(Command::new("mpiexec").args(["-n", "4"]).arg(&exe).args(args).env("UCX_ERROR_SIGNALS", "").env("MPIETE_MODE", "trace").env("MPIETE_OUT", &out).env("MPIETE_YIELD", "1"));
    for r in 0..4 {
        let t = std::fs::read(out.join(format!("trace.{r}.bin"))).unwrap();
        assert_eq!(&t[..8], b"XMPETRC1", "{name}: trace {r}");
    }
    so
}

#[test]
fn modelled_programs_golden_and_running() {
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
