//! `xmpc bsim cc` / `xmpc bsim fc` (also installed as `bsimcc` / `bsimf90`):
//! the command lines of `mpicc` / `mpif90` build BSIM skeletons, so an
//! unmodified Makefile builds one with `MPICC=` / `MPIF77=` overridden.
//!
//! Each source is skeletonized (docs/skeleton.md; compute blocks without a
//! time run in the skeleton and are charged their host time) and compiled with
//! the same flags against LMPI's headers; Fortran include files it uses are
//! translated beside it (`passes::skel::include`). Without `-c` everything is
//! linked with BSIM's runtime. Objects, archives and `-l`/`-L` pass through.
//! Options of the wrapper itself: `--bsim-times=zero` (compute blocks commented
//! out with time 0: compute removed), `--bsim-show` (print the commands run).

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use codespan_reporting::files::SimpleFiles;
use xmpc_ir::{diag::Severity, Lang};
use xmpc_passes::skel;

use super::{compile, report, Failure};

/// `bsimcc ...`, `bsimf90 ...`, `xmpc bsim cc|fc ...`: handled here (None: not a wrapper call).
pub fn intercept() -> Option<ExitCode> {
    let args: Vec<String> = std::env::args().collect();
    let prog = Path::new(args.first()?).file_name()?.to_str()?.to_string();
    let (fortran, rest) = match prog.as_str() {
        "bsimcc" => (false, &args[1..]),
        "bsimf90" | "bsimf77" | "bsimfc" => (true, &args[1..]),
        _ if args.get(1).map(String::as_str) == Some("bsim") => match args.get(2).map(String::as_str) {
            Some("cc") => (false, &args[3..]),
            Some("fc" | "f90" | "f77") => (true, &args[3..]),
            _ => return None,
        },
        _ => return None,
    };
    Some(match run(fortran, rest) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input) => ExitCode::from(1),
        Err(Failure::Usage(m)) => {
            eprintln!("error: {m}");
            ExitCode::from(2)
        }
    })
}

/// `xmpc bsim run -platform p.xml -hostfile h`: SMPI's single-dash spellings.
pub fn smpi_args(args: impl Iterator<Item = OsString>) -> Vec<OsString> {
    let v: Vec<OsString> = args.collect();
    if v.get(1).and_then(|a| a.to_str()) != Some("bsim") {
        return v;
    }
    v.into_iter()
        .map(|a| match a.to_str() {
            Some("-platform") => OsString::from("--platform"),
            Some("-hostfile") => OsString::from("--hostfile"),
            _ => a,
        })
        .collect()
}

#[derive(Default)]
struct Line {
    compile_only: bool,
    output: Option<PathBuf>,
    sources: Vec<PathBuf>,
    /// Objects, archives, `-l`, `-L`, `-Wl,`: link inputs in order.
    link: Vec<String>,
    /// Flags for both compiling and linking (`-O2`, `-g`, `-f...`, `-m...`).
    flags: Vec<String>,
    /// `-I`, `-D`, `-U`: compiling only.
    cpp: Vec<String>,
    includes: Vec<PathBuf>,
    zero_times: bool,
    show: bool,
}

fn source_lang(p: &Path) -> Option<Lang> {
    match p.extension()?.to_str()? {
        "c" => Some(Lang::C),
        "f" | "F" | "for" | "f77" | "F77" => Some(Lang::FortranFixed),
        "f90" | "F90" | "f95" | "F95" | "f03" | "F03" => Some(Lang::FortranFree),
        _ => None,
    }
}

fn parse(args: &[String]) -> Result<Line, Failure> {
    let mut l = Line::default();
    let mut i = 0;
    let usage = |m: String| Failure::Usage(m);
    while i < args.len() {
        let a = &args[i];
        let next = |i: &mut usize| -> Result<String, Failure> {
            *i += 1;
            args.get(*i).cloned().ok_or_else(|| usage(format!("{a} needs a value")))
        };
        match a.as_str() {
            "-c" => l.compile_only = true,
            "-o" => l.output = Some(PathBuf::from(next(&mut i)?)),
            "-I" => {
                let d = next(&mut i)?;
                l.includes.push(PathBuf::from(&d));
                l.cpp.push(format!("-I{d}"));
            }
            "-D" | "-U" => {
                let v = next(&mut i)?;
                l.cpp.push(format!("{a}{v}"));
            }
            "-L" | "-l" => {
                let v = next(&mut i)?;
                l.link.push(format!("{a}{v}"));
            }
            "--bsim-times=zero" => l.zero_times = true,
            "--bsim-show" => l.show = true,
            "-E" | "-S" | "-M" | "-MM" => return Err(usage(format!("{a}: the BSIM wrappers compile and link only"))),
            _ if a.starts_with("--bsim-") => return Err(usage(format!("{a}: unknown wrapper option (--bsim-times=zero, --bsim-show)"))),
            _ if a.starts_with("-I") => {
                l.includes.push(PathBuf::from(&a[2..]));
                l.cpp.push(a.clone());
            }
            _ if a.starts_with("-D") || a.starts_with("-U") => l.cpp.push(a.clone()),
            _ if a.starts_with("-L") || a.starts_with("-l") || a.starts_with("-Wl,") => l.link.push(a.clone()),
            _ if a.starts_with('-') => l.flags.push(a.clone()),
            _ => {
                let p = PathBuf::from(a);
                if source_lang(&p).is_some() {
                    l.sources.push(p);
                } else {
                    l.link.push(a.clone());
                }
            }
        }
        i += 1;
    }
    if l.sources.is_empty() && l.link.is_empty() {
        return Err(usage("no input files".into()));
    }
    if l.compile_only && l.output.is_some() && l.sources.len() > 1 {
        return Err(usage("-c -o with several sources".into()));
    }
    Ok(l)
}

fn fail(msg: String) -> Failure {
    eprintln!("error: {msg}");
    Failure::Input
}

fn exec(c: &mut Command, show: bool, what: &str) -> Result<(), Failure> {
    if show {
        eprintln!("{c:?}");
    }
    super::skel::run_cmd(c, what).map(|_| ())
}

/// The skeleton of one source, written into `dir` under the source's name.
fn skeleton(src: &Path, lang: Lang, dir: &Path, l: &Line) -> Result<PathBuf, Failure> {
    let name = src.display().to_string();
    let text = super::source::read(src).map_err(fail)?;
    let mut files = SimpleFiles::new();
    let file = files.add(name.clone(), text.clone());
    let parsed = xmpc_frontend::parse_source(file, &name, &text, lang);
    report(&files, &parsed.diags, super::Colour::Auto);
    if parsed.diags.iter().any(|d| d.severity >= Severity::Error) {
        return Err(Failure::Input);
    }
    let opts = skel::Options { zero_times: l.zero_times, ..Default::default() };
    let sk = skel::skeletonize(&parsed.unit, &text, &opts).map_err(|d| {
        report(&files, &d, super::Colour::Auto);
        Failure::Input
    })?;
    let out = xmpc_backends::emit(&parsed.unit, &text, &sk.edits).map_err(|e| {
        report(&files, &[e.to_diag(file)], super::Colour::Auto);
        Failure::Input
    })?;
    let dst = dir.join(src.file_name().unwrap_or_default());
    std::fs::write(&dst, super::source::restore(&out)).map_err(|e| fail(format!("cannot write {}: {e}", dst.display())))?;
    if lang.is_fortran() {
        let mut dirs = vec![src.parent().unwrap_or(Path::new(".")).to_path_buf()];
        dirs.extend(l.includes.iter().cloned());
        translate_includes(&text, lang, &dirs, dir)?;
    }
    Ok(dst)
}

/// Every include file `text` uses (found in `dirs`), translated into `out`, recursively.
fn translate_includes(text: &str, lang: Lang, dirs: &[PathBuf], out: &Path) -> Result<(), Failure> {
    for inc in skel::include::includes(text, lang) {
        let dst = out.join(&inc);
        if dst.exists() {
            continue;
        }
        let Some(found) = dirs.iter().map(|d| d.join(&inc)).find(|p| p.is_file()) else { continue };
        let t = super::source::read(&found).map_err(fail)?;
        if let Some(p) = dst.parent() {
            std::fs::create_dir_all(p).map_err(|e| fail(e.to_string()))?;
        }
        std::fs::write(&dst, skel::include::translate(&t, lang)).map_err(|e| fail(format!("cannot write {}: {e}", dst.display())))?;
        translate_includes(&t, lang, dirs, out)?;
    }
    Ok(())
}

fn run(fortran: bool, args: &[String]) -> Result<(), Failure> {
    let l = parse(args)?;
    let tmp = tempfile::Builder::new().prefix("xmpc-bsimcc-").tempdir().map_err(|e| fail(format!("cannot create a temporary directory: {e}")))?;
    let inc = super::skel::bsim_include();
    let tool = if fortran { compile::fc() } else { compile::cc() };
    let mut objects: Vec<PathBuf> = vec![];
    let lmpi = if fortran { Some(super::skel::lmpi_module(tmp.path(), &inc)?) } else { None };
    for src in &l.sources {
        let lang = source_lang(src).unwrap_or(Lang::C);
        let sk = skeleton(src, lang, tmp.path(), &l)?;
        let obj = match (&l.output, l.compile_only) {
            (Some(o), true) => o.clone(),
            (_, true) => PathBuf::from(src.file_stem().unwrap_or_default()).with_extension("o"),
            _ => tmp.path().join(src.file_name().unwrap_or_default()).with_extension("o"),
        };
        let ctool = if lang.is_fortran() { compile::fc() } else { compile::cc() };
        let mut c = Command::new(&ctool);
        c.arg("-c").args(&l.flags).args(&l.cpp).arg(format!("-I{}", inc.display()));
        c.arg(format!("-I{}", src.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).display()));
        if lang.is_fortran() {
            c.args(["-fopenmp", "-frecursive"]).arg(format!("-J{}", tmp.path().display())).arg(format!("-I{}", tmp.path().display()));
        } else {
            c.arg("-pthread");
        }
        c.arg(&sk).arg("-o").arg(&obj);
        exec(&mut c, l.show, &format!("`{ctool}` on the skeleton of {}", src.display()))?;
        objects.push(obj);
    }
    if l.compile_only {
        return Ok(());
    }
    let lib = super::skel::find_lib("libxmpc_bsim.a", "build it with `cargo build -p xmpc-bsim`")?;
    let main = match super::skel::find_lib("libxmpc_bsim_mpi.a", "") {
        Ok(m) => m,
        Err(_) => super::skel::find_lib("libxmpc_bsim_main.a", "build it with `cargo build -p xmpc-bsim`")?,
    };
    let out = l.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
    let mut c = Command::new(&tool);
    c.args(&l.flags).args(&objects);
    c.args(&l.link).args(lmpi.iter());
    c.arg(&main).arg(&lib);
    c.args(if fortran { ["-fopenmp", "-Wl,--gc-sections"] } else { ["-pthread", "-Wl,--gc-sections"] });
    c.args(compile::NATIVE_LIBS).arg("-o").arg(&out);
    exec(&mut c, l.show, &format!("linking {} with `{tool}`", out.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mpicc_command_lines() {
        let a = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let l = parse(&a("-c -O2 -I../common -DX=1 -I inc cg.f")).unwrap();
        assert!(l.compile_only && l.sources == [PathBuf::from("cg.f")]);
        assert_eq!(l.flags, ["-O2"]);
        assert_eq!(l.cpp, ["-I../common", "-DX=1", "-Iinc"]);
        assert_eq!(l.includes, [PathBuf::from("../common"), PathBuf::from("inc")]);
        let l = parse(&a("-O -o ../bin/cg.S.4 cg.o ../common/timers.o -L/x -lm --bsim-times=zero")).unwrap();
        assert_eq!(l.link, ["cg.o", "../common/timers.o", "-L/x", "-lm"]);
        assert!(l.zero_times && !l.compile_only);
        assert!(parse(&a("-E x.c")).is_err());
        assert!(parse(&a("--bsim-nope x.c")).is_err());
    }
}
