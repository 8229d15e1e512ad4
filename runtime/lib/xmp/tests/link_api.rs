//! No user-visible library routine is declared without being implemented: every
//! function prototype of `include/xmp.h` and every `external` of
//! `include/xmp_lib.h` is referenced from a generated program linked against the
//! staticlib (a missing symbol fails the link). Both headers must also declare
//! every routine of the XMP 1.4 specification's library chapter (global view).

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::staticlib;

/// The XMP 1.4 library chapter (system/inquiry routines, the MPI interface and the
/// intrinsic procedures of the global-view model), for both languages unless noted.
const SPEC: &[&str] = &[
    "xmp_all_node_num",
    "xmp_all_num_nodes",
    "xmp_node_num",
    "xmp_num_nodes",
    "xmp_wtime",
    "xmp_wtick",
    "xmp_test_async",
    "xmp_desc_of",
    "xmp_get_mpi_comm",
    "xmp_align_axis",
    "xmp_align_offset",
    "xmp_align_replicated",
    "xmp_align_template",
    "xmp_array_gtol",
    "xmp_array_lbound",
    "xmp_array_lshadow",
    "xmp_array_ndims",
    "xmp_array_ubound",
    "xmp_array_ushadow",
    "xmp_array_lsize",
    "xmp_array_lead_dim",
    "xmp_dist_axis",
    "xmp_dist_blocksize",
    "xmp_dist_format",
    "xmp_dist_gblockmap",
    "xmp_dist_nodes",
    "xmp_nodes_attr",
    "xmp_nodes_equiv",
    "xmp_nodes_index",
    "xmp_nodes_ndims",
    "xmp_nodes_size",
    "xmp_nodes_rank",
    "xmp_template_fixed",
    "xmp_template_lbound",
    "xmp_template_ndims",
    "xmp_template_ubound",
    "xmp_gather",
    "xmp_scatter",
    "xmp_matmul",
    "xmp_pack",
    "xmp_unpack",
    "xmp_transpose",
    "xmp_sort_up",
    "xmp_sort_down",
];
/// C only: the MPI interface and Omni's C extensions.
const SPEC_C: &[&str] = &["xmp_init", "xmp_init_mpi", "xmp_finalize", "xmp_finalize_mpi", "xmp_array_laddr", "xmpc_node_num"];

fn include() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("include")
}

fn outdir(tag: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("xmpc-link-{tag}-{}", std::process::id())); // not the system /tmp
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Names of the functions a C header declares (one prototype per line, comments
/// removed; preprocessor lines and typedefs skipped).
fn c_prototypes(text: &str) -> Vec<String> {
    let mut src = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        src.push_str(&rest[..i]);
        rest = rest[i..].find("*/").map_or("", |j| &rest[i + j + 2..]);
    }
    src.push_str(rest);
    let mut out = vec![];
    for line in src.lines().map(str::trim) {
        if line.starts_with('#') || line.starts_with("typedef") || !line.ends_with(';') {
            continue;
        }
        let Some(p) = line.find('(') else { continue };
        let name: String = line[..p].trim_end().chars().rev().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<Vec<_>>().into_iter().rev().collect();
        if name.starts_with("xmp") && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// Names a Fortran include file declares `external`.
fn f_externals(text: &str) -> Vec<String> {
    let mut out = vec![];
    for line in text.lines().map(str::trim) {
        if let Some(r) = line.strip_prefix("external ") {
            out.extend(r.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()));
        }
    }
    out
}

fn link(cmd: &str, src: &Path, exe: &Path, extra: &[&str]) {
    let out = Command::new(cmd)
        .arg("-o")
        .arg(exe)
        .arg(src)
        .arg("-I")
        .arg(include())
        .args(extra)
        .arg(staticlib())
        .args(["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"])
        .output()
        .unwrap_or_else(|e| panic!("{cmd}: {e}"));
    assert!(out.status.success(), "{cmd} {}:\n{}", src.display(), String::from_utf8_lossy(&out.stderr));
}

#[test]
fn every_xmp_h_prototype_links() {
    let names = c_prototypes(&std::fs::read_to_string(include().join("xmp.h")).unwrap());
    for s in SPEC.iter().chain(SPEC_C) {
        assert!(names.iter().any(|n| n == s), "xmp.h does not declare `{s}` (XMP 1.4 library chapter)");
    }
    let d = outdir("c");
    let mut c = String::from("#include <xmp.h>\n#include <stdio.h>\ntypedef void (*fp)(void);\n__attribute__((used)) static fp const refs[] = {\n");
    for n in &names {
        c.push_str(&format!("    (fp){n},\n"));
    }
    c.push_str("};\nint main(void) {\n    int n = 0;\n    for (unsigned i = 0; i < sizeof refs / sizeof refs[0]; i++) n += refs[i] != 0;\n    printf(\"%d\\n\", n);\n    return 0;\n}\n");
    let src = d.join("all.c");
    std::fs::write(&src, c).unwrap();
    let exe = d.join("all");
    link(&std::env::var("MPICC").unwrap_or_else(|_| "mpicc".into()), &src, &exe, &["-O0", "-Wall", "-Werror"]);
    let out = Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), names.len().to_string());
}

#[test]
fn every_xmp_lib_h_external_links() {
    let names = f_externals(&std::fs::read_to_string(include().join("xmp_lib.h")).unwrap());
    for s in SPEC {
        assert!(names.iter().any(|n| n == s), "xmp_lib.h does not declare `{s}` (XMP 1.4 library chapter)");
    }
    let d = outdir("f");
    // passing each procedure as an actual argument references its symbol (at -O0:
    // an optimizer drops the calls of an empty subroutine)
    let mut f = String::from("program linkall\n  implicit none\n  include 'xmp_lib.h'\n");
    for n in &names {
        f.push_str(&format!("  call touch({n})\n"));
    }
    f.push_str("  print *, 'linked'\nend program linkall\nsubroutine touch(p)\n  external p\nend subroutine touch\n");
    let src = d.join("all.f90");
    std::fs::write(&src, f).unwrap();
    let exe = d.join("all");
    link(&std::env::var("MPIF90").unwrap_or_else(|_| "mpif90".into()), &src, &exe, &["-O0", "-fallow-argument-mismatch", "-w"]);
}

/// The Fortran entry points `xmp_lib.h` does not declare (subroutines of the MPI
/// interface, as in Omni's `xmp_lib.h`) and the `xmpf_lib_*` aliases the translator
/// calls for undeclared library functions (`FLIB(...)` in `shim_f.c`;
/// backends/src/fortran/library.rs checks that each name it calls is there) link.
#[test]
fn fortran_mpi_interface_and_library_aliases_link() {
    let shim = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("csrc/shim_f.c")).unwrap();
    let mut names: Vec<String> = ["xmp_init", "xmp_finalize", "xmp_init_mpi", "xmp_finalize_mpi"].iter().map(|s| s.to_string()).collect();
    let aliases: Vec<String> = shim.lines().filter_map(|l| l.strip_prefix("FLIB(")?.strip_suffix(')')).map(|n| format!("xmpf_lib_{n}")).collect();
    assert!(aliases.len() >= 30, "FLIB lines in shim_f.c: {aliases:?}");
    names.extend(aliases);
    let d = outdir("f_mpi");
    let mut f = String::from("program linkmpi\n  implicit none\n");
    for n in &names {
        f.push_str(&format!("  external {n}\n"));
    }
    for n in &names {
        f.push_str(&format!("  call touch({n})\n"));
    }
    f.push_str("  print *, 'linked'\nend program linkmpi\nsubroutine touch(p)\n  external p\nend subroutine touch\n");
    let src = d.join("mpi.f90");
    std::fs::write(&src, f).unwrap();
    link(&std::env::var("MPIF90").unwrap_or_else(|_| "mpif90".into()), &src, &d.join("mpi"), &["-O0", "-fallow-argument-mismatch", "-w"]);
}

#[test]
fn header_parsers_find_what_is_there() {
    let c = c_prototypes(
        "/* int xmp_no(void); */\n#define X 1\nint xmp_a(int x);\nvoid xmp_b(void) __attribute__((noreturn));\ntypedef void *xmp_t;\nint not_xmp(void);\n",
    );
    assert_eq!(c, ["xmp_a", "xmp_b"]);
    let f = f_externals("      integer xmp_a\n      external xmp_a, xmp_b\n! external xmp_c\n");
    assert_eq!(f, ["xmp_a", "xmp_b"]);
}
