//! The native part of a build, after every file is translated: compile the translated
//! sources (`-c`, `-S`), link them with the runtime (`a.out` unless `-o`), the
//! dependency files of `-MD`/`-MMD`, and `-E` (the preprocessor alone, on the
//! original sources). `-v` prints each command before it runs, `-show` prints them and
//! runs nothing (compile::Echo; docs/driver.md).

use std::path::{Path, PathBuf};

use super::{acc, compile, device_build, fortran_ext, is_object, source_lang, write_output, Cli, Failure, Mode};

fn out_err(e: String) -> Failure {
    eprintln!("error: {e}");
    Failure::Input
}

/// The folders of the sources of one language, each once.
fn source_dirs(cli: &Cli, translated: &[(PathBuf, String)], c: bool) -> Vec<PathBuf> {
    translated
        .iter()
        .filter(|(p, _)| source_lang(cli, p).is_some_and(|l| (l == xmpc_ir::Lang::C) == c))
        .map(|(p, _)| p.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf())
        .fold(Vec::<PathBuf>::new(), |mut v, d| {
            if !v.contains(&d) {
                v.push(d);
            }
            v
        })
}

/// The compiler options of the command line.
fn cc_opts(cli: &Cli, translated: &[(PathBuf, String)]) -> Result<compile::CcOpts, Failure> {
    let mut opts = compile::CcOpts {
        opt: cli.opt.clone(),
        debug: cli.debug,
        // the translations are compiled from a temporary directory: their
        // `#include "x"` / `include 'x'` look first beside the original source
        include: source_dirs(cli, translated, false).into_iter().chain(cli.include.iter().cloned()).collect(),
        quote: source_dirs(cli, translated, true),
        define: cli.define.clone(),
        undefine: cli.undefine.clone(),
        libdirs: cli.libdir.clone(),
        libs: cli.lib.clone(),
        warnings: cli.warn.clone(),
        extra: cli
            .fflag
            .iter()
            .map(|f| format!("-f{f}"))
            .chain(cli.mflag.iter().map(|m| format!("-m{m}")))
            .chain(cli.std.iter().map(|s| format!("-std={s}")))
            .chain(cli.cc_flag.iter().cloned())
            .chain(cli.verbose.then(|| "-v".to_string()))
            .chain(cli.no_warnings.then(|| "-w".to_string()))
            .collect(),
        native: cli.native_flag.clone(),
        link: cli.link_flag.clone(),
        shared: cli.shared,
        check: cli.xmp_check,
    };
    for f in acc::flags(cli.acc.as_deref(), translated.iter().map(|(_, t)| t.as_str())).map_err(Failure::Usage)? {
        if !opts.extra.contains(&f) {
            opts.extra.push(f);
        }
    }
    Ok(opts)
}

/// `-E`: the C or Fortran preprocessor on each original source, with the options of
/// the command line and `-D_XMP` (as gcc -E; XMP directives come out as written).
pub fn preprocess(cli: &Cli) -> Result<(), Failure> {
    let opts = cc_opts(cli, &[])?;
    for path in &cli.file {
        let lang = source_lang(cli, path).ok_or_else(|| Failure::Usage(format!("cannot tell the language of '{}' from its extension", path.display())))?;
        compile::preprocess(path, lang, &opts, cli.output.as_deref()).map_err(out_err)?;
    }
    Ok(())
}

/// Compiles the translated files and, unless `-c`/`-S`, links them.
pub fn build(cli: &Cli, translated: &[(PathBuf, String)], mode: Mode) -> Result<(), Failure> {
    let opts = cc_opts(cli, translated)?;
    let show = compile::echo() == compile::Echo::Show;
    let tmp = tempfile::Builder::new().prefix("xmpc-").tempdir().map_err(|e| out_err(format!("cannot create a temporary directory: {e}")))?;
    let suffix = if mode == Mode::Assembly { "s" } else { "o" };
    let mut cs = Vec::new();
    for (k, (path, text)) in translated.iter().enumerate() {
        let stem = path.file_stem().map_or("prog".into(), |s| s.to_string_lossy().to_string());
        let ext = source_lang(cli, path).map_or("c", fortran_ext);
        let c = if cli.keep { path.with_file_name(format!("{stem}.xmpc.{ext}")) } else { tmp.path().join(format!("{k}_{stem}.xmpc.{ext}")) };
        compile::echo_line("xmpc", &["--emit=source".into(), path.display().to_string(), "-o".into(), c.display().to_string()]);
        // XMP-dev: the kernels go to .cu, nvcc, and back in as a fatbin
        let text = device_build::build(text, &c).map_err(out_err)?;
        write_output(Some(&c), &text).map_err(out_err)?;
        let obj = tmp.path().join(format!("{k}_{stem}.{suffix}"));
        cs.push((path.clone(), c, obj, stem));
    }
    let step = if mode == Mode::Assembly { "-S" } else { "-c" };
    let pairs: Vec<(PathBuf, PathBuf)> = cs.iter().filter(|(_, c, _, _)| !compile::is_fortran_path(c)).map(|(_, c, o, _)| (c.clone(), o.clone())).collect();
    compile::compile_objects(&pairs, &opts, step).map_err(out_err)?;
    let fpairs: Vec<(PathBuf, PathBuf, bool)> = cs
        .iter()
        .filter(|(_, c, _, _)| compile::is_fortran_path(c))
        .map(|(_, c, o, _)| (c.clone(), o.clone(), matches!(c.extension().and_then(|e| e.to_str()), Some("f" | "F"))))
        .collect();
    let any_fortran = !fpairs.is_empty();
    compile::compile_fortran(&fpairs, &opts, &super::module_dir(cli), step).map_err(out_err)?;
    if matches!(mode, Mode::Object | Mode::Assembly) {
        for (src, _, obj, stem) in &cs {
            let dest = cli.output.clone().unwrap_or_else(|| PathBuf::from(format!("{stem}.{suffix}")));
            depfile(cli, src, &dest, &opts)?;
            if !show {
                super::persist(obj, &dest).map_err(out_err)?;
            }
        }
        return Ok(());
    }
    let mut objs: Vec<PathBuf> = Vec::new();
    let mut k = 0;
    for f in &cli.file {
        if is_object(f) {
            objs.push(f.clone());
        } else {
            objs.push(cs[k].2.clone());
            k += 1;
        }
    }
    let out = cli.output.clone().unwrap_or_else(|| PathBuf::from("a.out"));
    for (src, _, _, stem) in &cs {
        depfile(cli, src, &PathBuf::from(format!("{stem}.o")), &opts)?;
    }
    let linked = tmp.path().join("a.out");
    if any_fortran || cli.file.iter().any(|f| is_object(f) && compile::object_is_fortran(f)) {
        compile::link_fortran(&objs, &linked, &opts).map_err(out_err)?;
    } else {
        compile::link(&objs, &linked, &opts).map_err(out_err)?;
    }
    if show {
        return Ok(());
    }
    super::persist(&linked, &out).map_err(out_err)
}

/// `-MD`/`-MMD` (with `-MF`, `-MT`, `-MQ`, `-MP`): the dependencies of the user's
/// source (not of its translation in a temporary folder), by the compiler's
/// preprocessor with the same options; the target is the object the user asked for.
fn depfile(cli: &Cli, src: &Path, target: &Path, opts: &compile::CcOpts) -> Result<(), Failure> {
    let all = cli.dep_flag.iter().any(|f| f == "-MD");
    if !all && !cli.dep_flag.iter().any(|f| f == "-MMD") {
        return Ok(());
    }
    let mut flags = vec![if all { "-M" } else { "-MM" }.to_string()];
    let mut it = cli.dep_flag.iter();
    let (mut mf, mut mt) = (None, false);
    while let Some(f) = it.next() {
        match f.as_str() {
            "-MP" => flags.push(f.clone()),
            "-MF" => mf = it.next().cloned(),
            "-MT" | "-MQ" => {
                mt = true;
                flags.push(f.clone());
                flags.extend(it.next().cloned());
            }
            _ => {}
        }
    }
    if !mt {
        flags.push("-MT".into());
        flags.push(target.display().to_string());
    }
    flags.push("-MF".into());
    flags.push(mf.unwrap_or_else(|| target.with_extension("d").display().to_string()));
    let lang = source_lang(cli, src).unwrap_or(xmpc_ir::Lang::C);
    compile::depend(src, lang, opts, &flags).map_err(out_err)
}

/// `-show` without input files: the compile-and-link line a program would get, as
/// `mpicc -show` prints it.
pub fn show_base(cli: &Cli) -> Result<(), Failure> {
    let opts = cc_opts(cli, &[])?;
    let fortran = matches!(cli.lang, Some(super::LangArg::Fortran | super::LangArg::Fixed));
    println!("{}", compile::show_base(&opts, fortran).map_err(out_err)?);
    Ok(())
}

pub fn wants_build(mode: Mode) -> bool {
    matches!(mode, Mode::Object | Mode::Link | Mode::Assembly)
}

/// True for an object or archive of an XMP program (it calls the runtime).
pub fn object_has_xmp(p: &Path) -> bool {
    let Ok(bytes) = std::fs::read(p) else { return false };
    bytes.windows(5).any(|w| w == b"xmpc_")
}
