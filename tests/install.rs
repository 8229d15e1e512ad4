//! `./install.sh --prefix DIR` (issue 39, docs/install.md): drivers, runtime libraries,
//! headers, man pages and completions under DIR; moved elsewhere, the installation
//! still compiles and runs XMP programs (C and Fortran, with mpiexec) and BSIM
//! skeletons, from its own files, not the source tree's.
//!
//! Installs this build's files (`--from`, the folder of the xmpc under test): run
//! `cargo build --workspace` first, as ./test.sh does.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A command of the installation, with no variable that would point it elsewhere.
fn tool(exe: &Path, args: &[&str], dir: &Path) -> Output {
    let mut c = Command::new(exe);
    c.args(args).current_dir(dir);
    for v in ["XMPC_HOME", "XMPC_INCLUDE", "XMPC_RUNTIME_DIR", "XMPC_BSIM_INCLUDE"] {
        c.env_remove(v);
    }
    c.output().unwrap_or_else(|e| panic!("{}: {e}", exe.display()))
}

fn mpiexec(exe: &Path, n: &str, dir: &Path) -> Output {
    Command::new("mpiexec").args(["-n", n]).arg(exe).current_dir(dir).output().unwrap()
}

#[test]
fn install_move_and_use() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let built = PathBuf::from(env!("CARGO_BIN_EXE_xmpc")).parent().unwrap().to_path_buf();
    let d = tempfile::tempdir().unwrap();
    let prefix = d.path().join("inst");
    let o = Command::new(root.join("install.sh")).arg("--prefix").arg(&prefix).arg("--from").arg(&built).output().unwrap();
    assert!(o.status.success(), "install.sh (run `cargo build --workspace` first): {}", text(&o));
    for f in [
        "bin/xmpc",
        "bin/xmpcc",
        "bin/xmpf90",
        "bin/bsimcc",
        "bin/xmpc-prof-report",
        "bin/xmpc-nsim",
        "lib/xmpc/libxmpc_rt.a",
        "lib/xmpc/libxmpc_bsim.a",
        "lib/xmpc/libxmpc_mpiete.a",
        "include/xmp.h",
        "include/xmpc_rt.h",
        "include/xmp_lib.h",
        "include/bsim/lmpi.h",
        "share/man/man1/xmpc.1",
        "share/man/man1/xmpcc.1",
        "share/man/man1/xmpc-bsim-run.1",
        "share/bash-completion/completions/xmpc",
        "share/zsh/site-functions/_xmpc",
        "share/fish/vendor_completions.d/xmpc.fish",
    ] {
        assert!(prefix.join(f).exists(), "{f} not installed");
    }
    let man = std::fs::read_to_string(prefix.join("share/man/man1/xmpc-bsim-run.1")).unwrap();
    assert!(man.starts_with(".ie") || man.contains(".TH"), "{man}");
    assert!(std::fs::read_to_string(prefix.join("share/bash-completion/completions/xmpc")).unwrap().contains("--skeletonize"));

    // moved: everything it uses is under the new place
    let moved = d.path().join("moved");
    std::fs::rename(&prefix, &moved).unwrap();
    let bin = moved.join("bin");
    let work = d.path().join("work");
    std::fs::create_dir(&work).unwrap();
    let o = tool(&bin.join("xmpcc"), &["-show"], &work);
    let show = text(&o);
    assert!(o.status.success(), "{show}");
    assert!(
        show.contains(&format!("-I{}", moved.join("include").display())) && show.contains(&moved.join("lib/xmpc/libxmpc_rt.a").display().to_string()),
        "{show}"
    );
    assert!(!show.contains(root.to_str().unwrap()) && !show.contains(built.to_str().unwrap()), "a path of the source tree: {show}");
    let o = tool(&bin.join("xmpcc"), &["--show-env"], &work);
    assert!(text(&o).contains(&format!("OMNI_HOME=\"{}\"", moved.display())), "{}", text(&o));

    // C
    std::fs::write(
        work.join("sum.c"),
        "#include <stdio.h>\n#pragma xmp nodes p(2)\n#pragma xmp template t(0:99)\n#pragma xmp distribute t(block) onto p\ndouble a[100];\n#pragma xmp align a[i] with t(i)\nint main(void) {\n  double s = 0;\n#pragma xmp loop on t(i) reduction(+:s)\n  for (int i = 0; i < 100; i++) { a[i] = i; s += a[i]; }\n#pragma xmp task on p(1)\n  printf(s == 4950 ? \"PASS\\n\" : \"ERROR\\n\");\n  return 0;\n}\n",
    )
    .unwrap();
    let o = tool(&bin.join("xmpcc"), &["-O2", "sum.c", "-o", "sum"], &work);
    assert!(o.status.success(), "{}", text(&o));
    let r = mpiexec(&work.join("sum"), "2", &work);
    assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), "PASS", "{}", text(&r));
    // Fortran (xmp_lib.h from the installation)
    std::fs::write(
        work.join("f.f90"),
        "program f\n  include 'xmp_lib.h'\n!$xmp nodes n(2)\n  if (xmp_num_nodes() /= 2) error stop 1\n  if (xmp_node_num() == 1) print *, 'PASS'\nend program\n",
    )
    .unwrap();
    let o = tool(&bin.join("xmpf90"), &["f.f90", "-o", "f"], &work);
    assert!(o.status.success(), "{}", text(&o));
    let r = mpiexec(&work.join("f"), "2", &work);
    assert_eq!(String::from_utf8_lossy(&r.stdout).trim(), "PASS", "{}", text(&r));
    // BSIM: an MPI program built with the installed bsimcc, run in virtual time
    std::fs::write(
        work.join("mpi.c"),
        "#include <mpi.h>\nint main(int argc, char **argv) {\n  int r; double x = 1;\n  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &r);\n  MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);\n  MPI_Finalize();\n  return 0;\n}\n",
    )
    .unwrap();
    let o = tool(&bin.join("bsimcc"), &["mpi.c", "-o", "sk"], &work);
    assert!(o.status.success(), "{}", text(&o));
    let o = tool(&bin.join("xmpc"), &["bsim", "run", "./sk", "-np", "16"], &work);
    assert!(o.status.success() && text(&o).contains("predicted time"), "{}", text(&o));
}

/// Without `--prefix`, or with an unknown option, install.sh says so (exit 2).
#[test]
fn install_sh_usage() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let o = Command::new(root.join("install.sh")).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("--prefix DIR is required"), "{}", text(&o));
    let o = Command::new(root.join("install.sh")).args(["--prefix", "/nonexistent-xmpc", "--bogus"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(!Path::new("/nonexistent-xmpc").exists());
}

/// packaging/spack/xmpc/package.py (Spack is not on this machine): loaded against a
/// stand-in for `spack.package`, its install() runs `./install.sh --prefix PREFIX`.
#[test]
fn spack_package_installs_with_install_sh() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: no python3");
        return;
    }
    let pkg = Path::new(env!("CARGO_MANIFEST_DIR")).join("packaging/spack/xmpc/package.py");
    let script = format!(
        r#"
import sys, types, importlib.util
calls = []
m = types.ModuleType("spack.package")
class Package: pass
m.Package = Package
m.version = m.depends_on = m.license = lambda *a, **k: None
m.which = lambda name: (lambda *a: calls.append((name,) + a))
m.__all__ = ["Package", "version", "depends_on", "license", "which"]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = m
spec = importlib.util.spec_from_file_location("pkg", {pkg:?})
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
mod.Xmpc().install(None, "/opt/xmpc")
print(calls)
"#,
        pkg = pkg.display().to_string()
    );
    let o = Command::new("python3").arg("-c").arg(script).output().unwrap();
    assert!(o.status.success(), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("('bash', './install.sh', '--prefix', '/opt/xmpc'"), "{}", text(&o));
}
