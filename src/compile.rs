//! `xmpc prog.c -o prog`: translate each XMP C file, compile it with `mpicc` (or
//! `$XMPC_CC`) against the runtime header and link the runtime library.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use xmpc_ir::{FileUnit, Lang};

/// Native libraries a Rust static library needs on Linux (`rustc --print
/// native-static-libs`), after `libxmpc_rt.a`.
pub const NATIVE_LIBS: &[&str] = &["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl"];

/// Translated C of one parsed file. `force`: translate even a file without XMP
/// directives (its `main` still needs `xmpc_init` when it is linked into an XMP
/// program); without it such a file comes out byte for byte. `lines`: the user's file
/// name for `#line` markers (the text that is compiled; src/linemap.rs).
/// `check`: the checking mode (`-fcheck=xmp`, docs/checking.md).
pub fn translate_c(unit: &FileUnit, text: &str, force: bool, lines: Option<&str>, check: bool) -> Result<String, Result<Vec<xmpc_ir::Diag>, String>> {
    if unit.lang != Lang::C {
        return xmpc_backends::emit(unit, text, &[]).map_err(|e| Ok(vec![e.to_diag(unit.file)]));
    }
    if !force && !xmpc_backends::c::needs_runtime(unit, text) {
        return xmpc_backends::emit(unit, text, &[]).map_err(|e| Ok(vec![e.to_diag(unit.file)]));
    }
    let edits = xmpc_backends::c::translate_checked(unit, text, check).map(|e| match lines {
        Some(name) => crate::linemap::with_markers(text, &e, name, &|_| None, crate::linemap::Form::C),
        None => e,
    });
    emit_translated(unit, text, edits)
}

/// Splices a translation pass's edits into the text (or passes its diagnostics on).
fn emit_translated(unit: &FileUnit, text: &str, edits: Result<Vec<xmpc_ir::Edit>, Vec<xmpc_ir::Diag>>) -> Result<String, Result<Vec<xmpc_ir::Diag>, String>> {
    xmpc_backends::emit(unit, text, &edits.map_err(Ok)?).map_err(|e| Ok(vec![e.to_diag(unit.file)]))
}

/// The runtime include directory (src/home.rs).
pub fn include_dir() -> PathBuf {
    crate::home::include_dir()
}

/// Where `libxmpc_rt.a` is: `$XMPC_RUNTIME_DIR`, the installation's `lib/xmpc`
/// (src/home.rs), next to the executable, its `deps/`.
pub fn runtime_dir() -> Result<PathBuf, String> {
    if let Some(d) = std::env::var_os("XMPC_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        let d = PathBuf::from(d);
        if d.join("libxmpc_rt.a").is_file() {
            return Ok(d);
        }
        return Err(format!("XMPC_RUNTIME_DIR={} holds no libxmpc_rt.a", d.display()));
    }
    let exe = std::env::current_exe().map_err(|e| format!("cannot locate the xmpc executable: {e}"))?;
    let dir = exe.parent().map(Path::to_path_buf).unwrap_or_default();
    let installed = crate::home::lib_dir();
    for d in installed.into_iter().chain([dir.clone(), dir.join("deps"), dir.parent().map(Path::to_path_buf).unwrap_or_default()]) {
        if d.join("libxmpc_rt.a").is_file() {
            return Ok(d);
        }
    }
    Err(format!(
        "the xmpc runtime library libxmpc_rt.a was not found next to {} (nor in its deps/ folder, nor in an installation's lib/xmpc/): build it with `cargo build -p xmpc-rt` (same profile as xmpc), install with `./install.sh --prefix DIR`, or set XMPC_HOME or XMPC_RUNTIME_DIR",
        exe.display()
    ))
}

/// Options passed through to the C compiler.
#[derive(Default, Debug)]
pub struct CcOpts {
    pub opt: Option<String>,
    pub debug: bool,
    pub include: Vec<PathBuf>,
    pub define: Vec<String>,
    pub undefine: Vec<String>,
    pub libdirs: Vec<PathBuf>,
    pub libs: Vec<String>,
    pub warnings: Vec<String>,
    /// Other options for compiling and linking (-fopenmp, -march=native, -std=c11).
    pub extra: Vec<String>,
    /// Options for the native compiler only (`--native-flag`, Omni's `--Wn`).
    pub native: Vec<String>,
    /// Options for the linker only (`--link-flag`, Omni's `--Wl`), after the objects.
    pub link: Vec<String>,
    /// `-shared`: link a shared library, without the runtime (the program links it).
    pub shared: bool,
    /// The folders of the C sources: the translation is compiled from a temporary
    /// folder, and their `#include "x"` look there first (`-iquote`, C only).
    pub quote: Vec<PathBuf>,
    /// The checking mode (`-fcheck=xmp`): Fortran is compiled with `-fcheck=bounds`.
    pub check: bool,
}

/// `-v` (print each command before it runs) and `-show` (print them, run nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Echo {
    #[default]
    Off,
    Verbose,
    Show,
}

static ECHO: OnceLock<Echo> = OnceLock::new();

pub fn set_echo(e: Echo) {
    let _ = ECHO.set(e);
}

pub fn echo() -> Echo {
    ECHO.get().copied().unwrap_or_default()
}

/// Prints a command under `-v` (stderr, as gcc -v) or `-show` (stdout, as mpicc -show).
pub fn echo_line(prog: &str, args: &[String]) {
    match echo() {
        Echo::Off => {}
        Echo::Verbose => eprintln!("{}", crate::gcc::shell_line(prog, args)),
        Echo::Show => println!("{}", crate::gcc::shell_line(prog, args)),
    }
}

pub fn cc() -> String {
    std::env::var("XMPC_CC").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpicc".into())
}

/// True when the C compiler is GCC (whose `-O2` cost model will not version a loop
/// for aliasing: distributed arrays are pointers, so their loops would not vectorise).
fn cc_is_gcc() -> bool {
    // Asked once per run, not once per source file.
    static GCC: OnceLock<bool> = OnceLock::new();
    *GCC.get_or_init(|| {
        Command::new(cc()).arg("--version").output().is_ok_and(|o| {
            let v = String::from_utf8_lossy(&o.stdout);
            v.contains("Free Software Foundation") && !v.contains("clang")
        })
    })
}

fn base_args(o: &CcOpts) -> Vec<String> {
    let mut a = vec![];
    if let Some(l) = &o.opt {
        a.push(format!("-O{l}"));
        // Plain C arrays are distinct objects; xmpc's local parts are pointers. Let
        // GCC -O2 vectorise with a run-time alias check, as it does at -O3.
        if l == "2" && cc_is_gcc() {
            a.push("-fvect-cost-model=cheap".into());
        }
    }
    if o.debug {
        a.push("-g".into());
    }
    a.extend(o.extra.iter().cloned());
    a.extend(o.native.iter().cloned());
    for w in &o.warnings {
        a.push(format!("-W{w}"));
    }
    for q in &o.quote {
        a.push("-iquote".into());
        a.push(q.display().to_string());
    }
    push_defines_and_includes(&mut a, o);
    a
}

/// `-D_XMP`, the user's `-D`, `-U` and `-I`, then the runtime's include directory (C and
/// Fortran alike).
fn push_defines_and_includes(a: &mut Vec<String>, o: &CcOpts) {
    a.push("-D_XMP".into());
    a.push("-D_XCALABLEMP".into());
    for d in &o.define {
        a.push(format!("-D{d}"));
    }
    for u in &o.undefine {
        a.push(format!("-U{u}"));
    }
    for i in &o.include {
        a.push(format!("-I{}", i.display()));
    }
    a.push(format!("-I{}", include_dir().display()));
}

/// Runs the C compiler; on failure returns its stderr (already shown).
fn run(args: &[String]) -> Result<(), String> {
    run_with(&cc(), args, "set XMPC_CC to your MPI C compiler")
}

/// Compiles translated sources (path of the .c written, path of the object wanted);
/// `step` is `-c` (objects) or `-S` (assembly).
pub fn compile_objects(srcs: &[(PathBuf, PathBuf)], o: &CcOpts, step: &str) -> Result<(), String> {
    for (c, obj) in srcs {
        let mut args = base_args(o);
        args.push(step.into());
        args.push(c.display().to_string());
        args.push("-o".into());
        args.push(obj.display().to_string());
        run(&args)?;
    }
    Ok(())
}

/// Links objects into `out` with the runtime.
pub fn link(objs: &[PathBuf], out: &Path, o: &CcOpts) -> Result<(), String> {
    run(&link_args(objs, out, o)?)
}

/// The link command line after the compiler: flags, objects, libraries, the runtime
/// and its native dependencies (shared by the C and Fortran links).
fn link_args(objs: &[PathBuf], out: &Path, o: &CcOpts) -> Result<Vec<String>, String> {
    let rt = if o.shared { PathBuf::new() } else { runtime_dir()? };
    let mut args = vec![];
    if o.shared {
        args.push("-shared".into());
    }
    if let Some(l) = &o.opt {
        args.push(format!("-O{l}"));
    }
    if o.debug {
        args.push("-g".into());
    }
    // Drop the sections nothing references, as rustc does for its own executables:
    // the runtime is a Rust staticlib whose objects are whole codegen units, so a
    // program pulls in most of it otherwise (bcast.c of Omni's suite: 52 MB and
    // 2.3 s to link against the debug runtime, 40 MB / 1.9 s with this flag).
    args.push("-Wl,--gc-sections".into());
    args.extend(o.extra.iter().filter(|x| !x.starts_with("-std=")).cloned());
    for obj in objs {
        args.push(obj.display().to_string());
    }
    args.extend(o.link.iter().cloned());
    for d in &o.libdirs {
        args.push(format!("-L{}", d.display()));
    }
    for l in &o.libs {
        args.push(format!("-l{l}"));
    }
    if !o.shared {
        args.push(rt.join("libxmpc_rt.a").display().to_string());
        args.extend(NATIVE_LIBS.iter().map(|s| s.to_string()));
    }
    args.push("-o".into());
    args.push(out.display().to_string());
    Ok(args)
}

/// `-E`: the preprocessor of the C or Fortran compiler on an original source (to
/// stdout, or to `out`).
pub fn preprocess(src: &Path, lang: Lang, o: &CcOpts, out: Option<&Path>) -> Result<(), String> {
    let (tool, mut args) = native_cpp(lang, o);
    args.push("-E".into());
    args.push(src.display().to_string());
    if let Some(out) = out {
        args.push("-o".into());
        args.push(out.display().to_string());
    }
    run_with(&tool, &args, "set XMPC_CC / XMPC_FC to your MPI compilers")
}

/// The dependency rule of an original source (`flags`: `-M`/`-MM`, `-MF F`, `-MT T`, ...).
pub fn depend(src: &Path, lang: Lang, o: &CcOpts, flags: &[String]) -> Result<(), String> {
    let (tool, mut args) = native_cpp(lang, o);
    args.retain(|a| a != "-v");
    args.extend(flags.iter().cloned());
    args.push(src.display().to_string());
    run_with(&tool, &args, "set XMPC_CC / XMPC_FC to your MPI compilers")
}

/// The compiler and its preprocessing options for an original source.
fn native_cpp(lang: Lang, o: &CcOpts) -> (String, Vec<String>) {
    if lang == Lang::C {
        return (cc(), base_args(o));
    }
    let mut a = fortran_args(o, lang == Lang::FortranFixed);
    a.insert(0, "-cpp".into());
    (fc(), a)
}

/// `xmpc -show` without files: the options a program is compiled and linked with,
/// as `mpicc -show` prints them.
pub fn show_base(o: &CcOpts, fortran: bool) -> Result<String, String> {
    let (tool, mut args) = if fortran { (fc(), fortran_args(o, false)) } else { (cc(), base_args(o)) };
    args.retain(|a| a != "-v");
    let mut link = link_args(&[], Path::new("a.out"), o)?;
    link.truncate(link.len() - 2);
    let link: Vec<String> = link.into_iter().filter(|a| !args.contains(a)).collect();
    args.extend(link);
    Ok(crate::gcc::shell_line(&tool, &args))
}

// ------------------------------------------------------------------ Fortran

/// Where Fortran module files go (`.mod`, `.xmpmod`: gfortran's `-J DIR`, else the
/// current directory) and where else they are looked for (`-I` directories).
#[derive(Clone, Debug)]
pub struct ModDirs {
    pub out: PathBuf,
    pub search: Vec<PathBuf>,
}

/// Translated Fortran of one parsed file (`backends/src/fortran`). `force` (compiling):
/// translate a file even without XMP (its main program still needs the runtime's
/// init), and write the XMP declarations of its modules to `<module>.xmpmod` in the
/// module directory (`-J DIR`, else the current directory), beside the `.mod` files,
/// for files compiled later; they are read from there and from the `-I` directories.
/// `lines`: the user's file name for `#line` markers.
pub fn translate_f(
    unit: &FileUnit,
    text: &str,
    force: bool,
    origin: xmpc_backends::fortran::Origin,
    lines: Option<&str>,
    mods: &ModDirs,
    check: bool,
) -> Result<String, Result<Vec<xmpc_ir::Diag>, String>> {
    if !unit.lang.is_fortran() || (!force && !xmpc_backends::fortran::needs_runtime(unit, text)) {
        return xmpc_backends::emit(unit, text, &[]).map_err(|e| Ok(vec![e.to_diag(unit.file)]));
    }
    let find = |m: &str| {
        let known = XMPMODS.lock().ok().and_then(|k| k.get(m).cloned());
        known.or_else(|| std::iter::once(&mods.out).chain(&mods.search).find_map(|d| std::fs::read_to_string(d.join(format!("{m}.xmpmod"))).ok()))
    };
    let (edits, infos) = match xmpc_backends::fortran::translate_for(unit, text, &find, origin, crate::coarray::own_libcaf_possible(), check) {
        Ok(x) => x,
        Err(d) => return Err(Ok(d)),
    };
    for (m, info) in infos {
        if force {
            xmpc_outfile::write(&mods.out.join(format!("{m}.xmpmod")), info.as_bytes()).map_err(Err)?;
        }
        if let Ok(mut k) = XMPMODS.lock() {
            k.insert(m, info);
        }
    }
    let edits = match lines {
        Some(name) => {
            let form = if unit.lang == Lang::FortranFixed { crate::linemap::Form::Fixed } else { crate::linemap::Form::Free };
            crate::linemap::with_markers(text, &edits, name, origin, form)
        }
        None => edits,
    };
    emit_translated(unit, text, Ok(edits))
}

/// Module descriptions made by this invocation (a later file on the command line may
/// use a module of an earlier one).
static XMPMODS: std::sync::Mutex<std::collections::BTreeMap<String, String>> = std::sync::Mutex::new(std::collections::BTreeMap::new());

/// The MPI Fortran compiler: `$XMPC_FC`, else `mpif90`.
pub fn fc() -> String {
    std::env::var("XMPC_FC").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpif90".into())
}

/// True for a translated Fortran source (by its extension).
pub fn is_fortran_path(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("f90" | "F90" | "f" | "F" | "f95" | "F95" | "for"))
}

fn fortran_args(o: &CcOpts, fixed: bool) -> Vec<String> {
    let mut a = vec![];
    if let Some(l) = &o.opt {
        a.push(format!("-O{l}"));
    }
    if o.debug {
        a.push("-g".into());
    }
    // Aligned arrays are pointers, which may alias: as for C, let gfortran -O2
    // vectorise with run-time alias checks, and with enough of them for a stencil
    // over many arrays (Himeno: 14 arrays, 19 points; the default limit is 10).
    if o.opt.is_some() && o.opt.as_deref() != Some("0") && fc_is_gfortran10() {
        if o.opt.as_deref() == Some("2") {
            a.push("-fvect-cost-model=cheap".into());
        }
        a.push("--param=vect-max-version-for-alias-checks=64".into());
    }
    a.extend(o.extra.iter().filter(|x| !x.starts_with("-std=")).cloned());
    a.extend(o.native.iter().cloned());
    // The runtime entry points take buffers of any type (reductions, bcast): gfortran
    // ≥ 10 rejects such calls in one file without this flag.
    if fc_is_gfortran10() {
        a.push("-fallow-argument-mismatch".into());
    }
    if fixed {
        a.push("-ffixed-form".into());
    } else {
        a.push("-ffree-form".into());
        a.push("-ffree-line-length-none".into());
    }
    push_defines_and_includes(&mut a, o);
    a
}

/// True when the Fortran compiler is GNU Fortran 10 or later.
fn fc_is_gfortran10() -> bool {
    static GFORTRAN10: OnceLock<bool> = OnceLock::new();
    *GFORTRAN10.get_or_init(|| {
        Command::new(fc()).arg("--version").output().is_ok_and(|o| {
            let v = String::from_utf8_lossy(&o.stdout);
            let first = v.lines().next().unwrap_or("");
            first.contains("GNU Fortran") && first.split_whitespace().filter_map(|w| w.split('.').next()?.parse::<u32>().ok()).any(|m| m >= 10)
        })
    })
}

fn run_with(tool: &str, args: &[String], hint: &str) -> Result<(), String> {
    echo_line(tool, args);
    if echo() == Echo::Show {
        return Ok(());
    }
    let out = Command::new(tool).args(args).stdout(std::process::Stdio::inherit()).output().map_err(|e| format!("cannot run `{tool}`: {e} ({hint})"))?;
    let err = String::from_utf8_lossy(&out.stderr);
    if !err.is_empty() {
        eprint!("{err}");
    }
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("`{tool}` failed ({})", out.status))
    }
}

/// Compiles translated Fortran sources (path written, object wanted, fixed form?).
/// Module files (`.mod`) go to `moddir` (the driver passes the current directory, as
/// `mpif90` does), which is also searched: modules used across files work when the
/// files come in dependency order, on one command line or with `-c` one by one.
pub fn compile_fortran(srcs: &[(PathBuf, PathBuf, bool)], o: &CcOpts, moddir: &Path, step: &str) -> Result<(), String> {
    for (f, obj, fixed) in srcs {
        let mut args = fortran_args(o, *fixed);
        if o.check {
            // a distributed array is its local block with global bounds (shadows
            // included): gfortran's bounds check is the check (docs/checking.md)
            args.push("-fcheck=bounds".into());
        }
        let text = std::fs::read_to_string(f).unwrap_or_default();
        args.extend(crate::coarray::compile_flag(&o.extra, &text, *fixed).map(str::to_string));
        args.push(format!("-J{}", moddir.display()));
        args.push(format!("-I{}", moddir.display()));
        args.push(step.into());
        args.push(f.display().to_string());
        args.push("-o".into());
        args.push(obj.display().to_string());
        run_with(&fc(), &args, "set XMPC_FC to your MPI Fortran compiler")?;
    }
    Ok(())
}

/// Links objects of a program with Fortran parts (with the Fortran compiler).
pub fn link_fortran(objs: &[PathBuf], out: &Path, o: &CcOpts) -> Result<(), String> {
    let mut args = link_args(objs, out, o)?;
    // coarrays: libcaf after the objects, before `-o out` (src/coarray.rs)
    let caf = crate::coarray::link_libs(objs)?;
    // (the hint names OpenCoarrays: not for xmpc's own libcaf)
    let coarrays = !caf.is_empty() && !caf.iter().any(|a| a.contains("--wrap=_gfortran_caf_init"));
    let at = args.len() - 2;
    args.splice(at..at, caf);
    run_with(&fc(), &args, "set XMPC_FC to your MPI Fortran compiler").map_err(|e| if coarrays { format!("{e}: {}", crate::coarray::LINK_HINT) } else { e })
}

/// True for an object or archive compiled from Fortran (it references the GNU Fortran
/// runtime or is an xmpc-translated Fortran file): the program is then linked with the
/// Fortran compiler.
pub fn object_is_fortran(p: &Path) -> bool {
    let Ok(bytes) = std::fs::read(p) else { return false };
    let has = |pat: &[u8]| bytes.windows(pat.len()).any(|w| w == pat);
    has(b"_gfortran_") || has(b"xmpf_main")
}

/// What `xmpc --show-env` (and Omni's `xmpcc --show-env` / `xmpf90 --show-env`)
/// prints: `NAME="value"` lines, the variables Omni's test Makefiles read
/// (`ONESIDED_LIB`, `OMNI_MPICC_CMD`, `OMNI_LINKER_OPT`, `OMNI_HOME`; docs/omni-compat.md).
/// `OMNI_HOME/include` holds `xmp.h`, as in an Omni installation.
pub fn show_env(fortran: bool) -> String {
    let inc = include_dir();
    let home = inc.parent().map(Path::to_path_buf).unwrap_or_else(|| inc.clone());
    let rt = runtime_dir().unwrap_or_else(|_| std::env::current_exe().ok().and_then(|e| e.parent().map(Path::to_path_buf)).unwrap_or_default());
    let link = format!("-L{} -lxmpc_rt {}", rt.display(), NATIVE_LIBS.join(" "));
    let (compiler, cmd_var, opt_var) = if fortran { (fc(), "OMNI_MPIFC_CMD", "OMNI_MPIFC_OPT") } else { (cc(), "OMNI_MPICC_CMD", "OMNI_MPICC_OPT") };
    let vars = [
        ("OMNI_HOME", home.display().to_string()),
        (cmd_var, compiler.clone()),
        (opt_var, format!("-I{} -D_XMP -D_XCALABLEMP", inc.display())),
        ("OMNI_LINKER_CMD", compiler),
        ("OMNI_LINKER_OPT", link),
        // xmpc's runtime is built on MPI-3 (one-sided windows): Omni's MPI-3 build
        // answers the same, and the suites then build with -D_MPI3.
        ("ONESIDED_LIB", "MPI3".into()),
    ];
    let mut out: String = vars.iter().map(|(k, v)| format!("{k}=\"{v}\"\n")).collect();
    // The MPI standard version of the MPI library, as Omni's configure recorded it:
    // Omni's intrinsic tests build with -DXMP_MPI_VERSION=$(MPI_VERSION), and an
    // empty value breaks their `#if (XMP_MPI_VERSION >= 3)`. Left out (not guessed)
    // when the MPI C compiler cannot tell.
    if let Some((v, s)) = mpi_version() {
        out.push_str(&format!("MPI_VERSION=\"{v}\"\nMPI_SUBVERSION=\"{s}\"\n"));
    }
    out
}

/// `MPI_VERSION` and `MPI_SUBVERSION` of `mpi.h`, by the MPI C compiler's preprocessor.
fn mpi_version() -> Option<(u32, u32)> {
    use std::io::Write as _;
    let mut child = Command::new(cc())
        .args(["-E", "-P", "-x", "c", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .ok()?;
    child.stdin.take()?.write_all(b"#include <mpi.h>\nxmpc_mpi_version MPI_VERSION MPI_SUBVERSION\n").ok()?;
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().rev().find(|l| l.starts_with("xmpc_mpi_version"))?;
    let mut w = line.split_whitespace().skip(1).map(|x| x.parse::<u32>().ok());
    Some((w.next()??, w.next()??))
}
