//! XcalableACC translation (`docs/xacc.md`): golden snapshots of the generated code
//! (the appendix-A Laplace and Himeno corpus programs in C, a Fortran program with
//! every `acc` directive), the translation compiled with `mpicc -fopenacc -Wall`,
//! and the forms that are refused with a located diagnostic. The programs run under
//! `mpiexec` in the conformance suites (`testsuite/xmp/C/xacc_*`, `testsuite/xmp/F/xacc_*`).

use std::path::{Path, PathBuf};
use std::process::Command;

use xmpc_ir::{diag::Severity, Lang};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root").to_path_buf()
}

fn translate(name: &str, text: &str) -> Result<String, String> {
    let lang = Lang::from_path(name).expect("known extension");
    let parsed = xmpc_frontend::parse_source(0, name, text, lang);
    let errs: Vec<_> = parsed.diags.iter().filter(|d| d.severity >= Severity::Error).collect();
    assert!(errs.is_empty(), "{name}: front-end errors {errs:?}");
    let edits = if lang == Lang::C { xmpc_backends::c::translate(&parsed.unit, text) } else { xmpc_backends::fortran::translate(&parsed.unit, text) };
    match edits {
        Ok(e) => Ok(xmpc_backends::emit(&parsed.unit, text, &e).expect("edits splice")),
        Err(d) => Err(xmpc_ir::diag::render_plain(name, text, &d)),
    }
}

/// (snapshot name, file)
const GOLDEN: &[(&str, &str)] = &[
    ("xacc_laplace", "testsuite/corpus/c/xacc_laplace.c"),
    ("himeno_xacc", "testsuite/corpus/c/himeno_xacc.c"),
    ("xacc_comm_f90", "testsuite/xmp/F/xacc_comm.f90"),
];

#[test]
fn xacc_translation_snapshots() {
    for (snap, file) in GOLDEN {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let name = Path::new(file).file_name().unwrap().to_string_lossy().to_string();
        let out = translate(&name, &text).unwrap_or_else(|e| panic!("{file}:\n{e}"));
        insta::assert_snapshot!(*snap, out);
    }
}

/// The facts the snapshots show, asserted on their own: data clauses get the local
/// block, `acc` communication is staged inside one compound statement, the
/// persistent halo goes through xmpc_reflect_init/do, nothing is left verbatim.
#[test]
fn laplace_data_clauses_and_staging() {
    let text = std::fs::read_to_string(root().join("testsuite/corpus/c/xacc_laplace.c")).unwrap();
    let out = translate("xacc_laplace.c", &text).unwrap();
    assert!(
        out.contains("#pragma acc data copy(_XMP_ADDR_u[0:_XMP_acc_elems(_XMP_DESC_u, 2)]) copyin(_XMP_ADDR_uu[0:_XMP_acc_elems(_XMP_DESC_uu, 2)])"),
        "{out}"
    );
    assert!(!out.contains("present(u, uu)") && !out.contains("copy(u)"), "an aligned array left in a data clause:\n{out}");
    assert!(out.contains("xmpc_reflect_init(&_XMP_LOC_61, _XMP_DESC_uu, NULL, NULL, NULL);"));
    let rd = out.find("xmpc_reflect_do(&_XMP_LOC_69, _XMP_DESC_uu, -1);").expect("reflect_do call");
    let before = &out[..rd];
    let open = before.rfind('{').unwrap();
    assert!(before[open..].contains("#pragma acc update self(_XMP_ADDR_uu[0:"), "{}", &before[open..]);
    assert!(out[rd..].trim_start_matches(|c| c != '\n').trim_start().starts_with("#pragma acc update device(_XMP_ADDR_uu[0:"));
    // the acc loop between the two loops of `loop (i, j)` is kept
    assert_eq!(out.matches("#pragma acc loop").count(), text.matches("#pragma acc loop").count());
}

/// The translated appendix-A programs compile cleanly with -fopenacc.
#[test]
fn corpus_translations_compile_with_openacc() {
    let cc = std::env::var("XMPC_CC").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpicc".into());
    if Command::new(&cc).arg("--version").output().is_err() {
        eprintln!("skipped: `{cc}` not found (set XMPC_CC)");
        return;
    }
    let tmp = std::env::temp_dir().join(format!("xmpc-xacc-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let inc = format!("-I{}", root().join("runtime/lib/xmp/include").display());
    for (_, file) in GOLDEN.iter().filter(|(_, f)| f.ends_with(".c")) {
        let text = std::fs::read_to_string(root().join(file)).unwrap();
        let name = Path::new(file).file_name().unwrap().to_string_lossy().to_string();
        let c = tmp.join(&name);
        std::fs::write(&c, translate(&name, &text).unwrap()).unwrap();
        let o = Command::new(&cc).args([&inc, "-fopenacc", "-Wall", "-fsyntax-only", "-D_XMP"]).arg(&c).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success() && !err.contains("warning:"), "{file}:\n{err}");
    }
    let _ = std::fs::remove_dir_all(&tmp);
}

/// What is not translated is refused with a located diagnostic, never passed on.
#[test]
fn refused_forms_are_located() {
    const HEAD: &str = "#pragma xmp nodes p(*)\n#pragma xmp template t(0:99)\n#pragma xmp distribute t(block) onto p\ndouble a[100];\n#pragma xmp align a[i] with t(i)\n#pragma xmp shadow a[1]\n";
    let cases: &[(&str, &str, &str, &str)] = &[
        ("section_of_aligned", "void g(void) {\n#pragma acc data copy(a[0:10])\n  { }\n}\n", "XMP0304", "a section of the aligned array `a`"),
        (
            "private_aligned",
            "void g(void) { int i;\n#pragma acc parallel loop private(a)\n  for (i = 0; i < 3; i++) ; }\n",
            "XMP0304",
            "OpenACC `private` clause",
        ),
        ("task_acc", "void g(void) {\n#pragma xmp task on p(1) acc\n  { }\n}\n", "XMP0304", "`task` with the `acc` clause"),
        (
            "loop_acc",
            "void g(void) { int i;\n#pragma xmp loop on t(i) acc\n  for (i = 0; i < 100; i++) a[i] = 0; }\n",
            "XMP0304",
            "`loop` with the `acc` clause",
        ),
        (
            "reflect_init_rank",
            "void g(void) {\n#pragma xmp reflect_init (a) width(1, 1) acc\n}\n",
            "XMP0104",
            "gives 2 width(s) for the 1-dimensional array `a`",
        ),
    ];
    for (name, body, code, what) in cases {
        let text = format!("{HEAD}{body}");
        match translate(&format!("{name}.c"), &text) {
            Ok(out) => panic!("{name}: translated without an error:\n{out}"),
            Err(r) => {
                assert!(
                    r.contains(&format!("error[{code}]")) && r.contains(what) && r.contains(&format!("{name}.c:")),
                    "{name}: expected {code} `{what}`, got\n{r}"
                );
            }
        }
    }
    let f = "program x\n  integer :: a(10)\n!$xmp nodes p(*)\n!$xmp template t(10)\n!$xmp distribute t(block) onto p\n!$xmp align a(i) with t(i)\n!$xmp task on p(1) acc\n  a(1) = 0\n!$xmp end task\nend program\n";
    let r = translate("task.f90", f).expect_err("task acc in Fortran");
    assert!(r.contains("error[XMP0401]") && r.contains("task.f90:7:"), "{r}");
}

/// The appendix-A corpus programs compiled by the `xmpc` driver (which adds
/// `-fopenacc` for their `#pragma acc`) and run under `mpiexec`: Laplace on its
/// 2 x 2 node set, Himeno (`nodes p(*)`) on 1, 2 and 4 processes. Each compares with
/// the same kernel run sequentially and prints PASS once. Laplace on 1 and 2
/// processes: `testsuite/xmp/C/xacc_laplace_a1.c`, the same listing on `p(1, *)`.
#[test]
fn appendix_a_corpus_programs_run() {
    let failures = run_appendix_a(&[], |_, _, _| Ok(()));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The same programs (and the 1-2-4 Laplace) with `XMPC_TCA_SUBCLUSTER=2`: the
/// answers stay the sequential ones, and `XMPC_TCA_REPORT=1` shows that every
/// process ran its `reduction ... acc` through the TCA/IB hybrid layer (with 4
/// processes: two subclusters, so the cross-subcluster step went over MPI), and
/// its `reflect ... acc` halos through TCA descriptor chains inside the
/// subcluster (with 4 processes, the halos between subclusters over MPI).
#[test]
fn appendix_a_programs_run_on_tca_subclusters() {
    let env = [("XMPC_TCA_SUBCLUSTER", "2"), ("XMPC_TCA_REPORT", "1")];
    let failures = run_appendix_a(&env, |name, np, stderr| {
        let reports: Vec<Vec<u64>> = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("xmpc tca (TCA emulated over a shared-memory window): "))
            .map(|l| l.split(' ').filter_map(|w| w.parse().ok()).collect())
            .collect();
        if reports.len() != np as usize {
            return Err(format!("{name} np={np}: {} TCA reports for {np} processes:\n{stderr}", reports.len()));
        }
        // [hybrid collectives, TCA chains, MPI messages, handed to MPI whole]
        if let Some(r) = reports.iter().find(|r| r.len() != 4 || r[0] == 0 || r[3] != 0) {
            return Err(format!("{name} np={np}: a process did not run its collectives in the layer ({r:?}):\n{stderr}"));
        }
        if np == 4 && reports.iter().all(|r| r[2] == 0) {
            return Err(format!("{name} np=4: two subclusters but no MPI message between them:\n{stderr}"));
        }
        if np >= 2 && reports.iter().all(|r| r[1] == 0) {
            return Err(format!("{name} np={np}: no TCA chain inside a subcluster:\n{stderr}"));
        }
        // [reflect chains, Memcpy, Memcpy2D, packed, bytes, halos over MPI]
        let reflects: Vec<Vec<u64>> =
            stderr.lines().filter_map(|l| l.strip_prefix("xmpc tca reflect: ")).map(|l| l.split(' ').filter_map(|w| w.parse().ok()).collect()).collect();
        if reflects.len() != np as usize || reflects.iter().any(|r| r.len() != 6) {
            return Err(format!("{name} np={np}: {} reflect reports for {np} processes:\n{stderr}", reflects.len()));
        }
        if np >= 2 && reflects.iter().any(|r| r[0] == 0) {
            return Err(format!("{name} np={np}: a process ran no reflect chain inside its subcluster ({reflects:?}):\n{stderr}"));
        }
        if np == 2 && reflects.iter().any(|r| r[5] != 0) {
            return Err(format!("{name} np=2: a reflect halo over MPI inside one subcluster ({reflects:?}):\n{stderr}"));
        }
        if np == 4 && reflects.iter().all(|r| r[5] == 0) {
            return Err(format!("{name} np=4: no reflect halo over MPI between the two subclusters ({reflects:?}):\n{stderr}"));
        }
        Ok(())
    });
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Compiles and runs the appendix-A programs with `env`; `check(name, np, stderr)`
/// judges each passing run further. Returns the failures.
fn run_appendix_a(env: &[(&str, &str)], check: impl Fn(&str, u32, &str) -> Result<(), String>) -> Vec<String> {
    use xmpc_testsuite::conformance::{run_program, Options, Program};
    let mut opts = Options::defaults();
    if !opts.xmpc.is_file() {
        panic!("{} not built: run `cargo build -p xmpc -p xmpc-rt` or the whole workspace", opts.xmpc.display());
    }
    let dir = tempfile::tempdir().unwrap();
    opts.work = dir.path().to_path_buf();
    opts.run_env = env.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let mut failures = Vec::new();
    for (dir, name, nps) in [("corpus/c", "xacc_laplace", vec![4]), ("corpus/c", "himeno_xacc", vec![1, 2, 4]), ("xmp/C", "xacc_laplace_a1", vec![1, 2, 4])] {
        let path = root().join("testsuite").join(dir).join(format!("{name}.c"));
        let p = Program { path, name: format!("appendix_{name}"), family: "xacc", nps: nps.clone(), expect_fail: None };
        let runs = run_program(&p, &nps, &opts, false);
        assert_eq!(runs.len(), nps.len(), "{name}: {} runs", runs.len());
        for r in runs {
            if !r.passed {
                failures.push(format!("{name} np={}: {}", r.np, r.detail));
                continue;
            }
            let stderr = std::fs::read_to_string(opts.work.join(format!("{}.np{}.stderr", p.name, r.np))).unwrap_or_default();
            if let Err(e) = check(name, r.np, &stderr) {
                failures.push(e);
            }
        }
    }
    failures
}
