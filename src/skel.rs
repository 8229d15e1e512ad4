//! Driver of the prediction passes: `--emit=blocks[-json]`, `--instrument=compute|trace`,
//! `--skeletonize` with `--times FILE` / `--measure`, and `--check`.

use std::path::{Path, PathBuf};
use std::process::Command;

use codespan_reporting::files::SimpleFiles;
use xmpc_ir::{diag::Severity, FileUnit, Lang};
use xmpc_passes::blocks::{self, Instrument};
use xmpc_passes::skel::{self, TimeTable};

use super::{compile, report, source_lang, write_output, Cli, Emit, Failure, InstrumentArg};

/// True when the command line asks for one of these passes.
pub fn wanted(cli: &Cli) -> bool {
    cli.skeletonize
        || cli.instrument.is_some()
        || matches!(cli.emit, Some(Emit::Blocks | Emit::BlocksJson))
        || cli.times.is_some()
        || cli.measure
        || cli.check
        || cli.model.is_some()
        || cli.strict_times
}

/// Options that only make sense together.
fn usage(cli: &Cli) -> Result<(), Failure> {
    let u = |m: &str| Err(Failure::Usage(m.into()));
    if cli.skeletonize && cli.instrument.is_some() {
        return u("--skeletonize and --instrument are separate runs");
    }
    if !cli.skeletonize && (cli.times.is_some() || cli.measure || cli.check || cli.model.is_some() || cli.strict_times) {
        return u("--times, --measure, --model, --check and --strict-times go with --skeletonize");
    }
    if cli.model.as_deref().is_some_and(|m| !m.starts_with("psim:")) {
        return Err(Failure::Usage(format!("--model {}: expected psim:MACHINE.toml", cli.model.as_deref().unwrap_or(""))));
    }
    if cli.model.is_some() && cli.measure {
        return u("--model and --measure both give block times: use one");
    }
    if cli.times.is_some() && cli.measure {
        return u("--times and --measure both give block times: use one");
    }
    if cli.simplify && cli.instrument != Some(InstrumentArg::Compute) {
        return u("--simplify goes with --instrument=compute");
    }
    if cli.np == 0 {
        return u("--np must be at least 1");
    }
    if (cli.skeletonize || cli.instrument.is_some()) && matches!(cli.emit, Some(e) if e != Emit::Source) {
        return u("--emit other than source does not go with --skeletonize or --instrument");
    }
    Ok(())
}

struct Loaded {
    name: String,
    text: String,
    unit: FileUnit,
    files: SimpleFiles<String, String>,
}

fn fail(msg: String) -> Failure {
    eprintln!("error: {msg}");
    Failure::Input
}

fn load(cli: &Cli, path: &Path) -> Result<Loaded, Failure> {
    let name = path.display().to_string();
    let lang = source_lang(cli, path)
        .ok_or_else(|| Failure::Usage(format!("cannot tell the language of '{name}' from its extension (use --lang=c|fortran|fixed)")))?;
    let text = super::source::read(path).map_err(fail)?;
    let mut files = SimpleFiles::new();
    let file = files.add(name.clone(), text.clone());
    let parsed = xmpc_frontend::parse_source(file, &name, &text, lang);
    report(&files, &parsed.diags, cli.color);
    if parsed.diags.iter().any(|d| d.severity >= Severity::Error) {
        return Err(Failure::Input);
    }
    if cli.blocks {
        // MPIETE modelling transform first (src/model.rs)
        let (text, unit, files) = super::model::reload(cli, &name, lang, &text, &parsed.unit, &files)?;
        return Ok(Loaded { name, text, unit, files });
    }
    Ok(Loaded { name, text, unit: parsed.unit, files })
}

pub fn run(cli: &Cli) -> Result<(), Failure> {
    usage(cli)?;
    if cli.file.len() != 1 {
        return Err(Failure::Usage("--skeletonize, --instrument and --emit=blocks take one source file".into()));
    }
    let l = load(cli, &cli.file[0])?;
    let diag_err = |l: &Loaded, d: Vec<xmpc_ir::Diag>| {
        report(&l.files, &d, cli.color);
        Failure::Input
    };
    if let Some(Emit::Blocks | Emit::BlocksJson) = cli.emit {
        let b = blocks::find(&l.unit, &l.text).map_err(|d| diag_err(&l, d))?;
        let out = if cli.emit == Some(Emit::Blocks) { blocks::listing(&l.name, &l.text, &b) } else { blocks::listing_json(&l.name, &l.text, &b) };
        return write_output(cli.output.as_deref(), &out).map_err(fail);
    }
    if let Some(mode) = cli.instrument {
        let text = instrumented(&l, mode, cli.simplify).map_err(|d| diag_err(&l, d))?;
        return match &cli.output {
            Some(o) if Lang::from_path(&o.display().to_string()).is_none() => {
                let tmp = tempdir()?;
                let exe = build_instrumented(&l, &text, tmp.path(), cli)?;
                super::persist(&exe, o).map_err(fail)
            }
            o => write_output(o.as_deref(), &text).map_err(fail),
        };
    }
    // --skeletonize
    let mut opts = skel::Options { strict_times: cli.strict_times, ..Default::default() };
    if let Some(spec) = &cli.model {
        let file = l.unit.file;
        let native =
            super::psim_mca::Source { name: &l.name, text: &l.text, lang: l.unit.lang, defines: &cli.define, includes: &cli.include, file: &cli.file[0] };
        opts = super::psim_cmd::skeleton_model(&l.unit, &l.text, spec, file, &native).map_err(|e| match e {
            Ok(msg) => fail(msg),
            Err(d) => diag_err(&l, d),
        })?;
        opts.strict_times = cli.strict_times;
    }
    if let Some(t) = &cli.times {
        // a data file: bounded as every other (docs/diagnostics.md), `/dev/zero` ends
        let b = xmpc_outfile::read_bounded(t, xmpc_mpiete::data::MAX_DATA_BYTES).map_err(|e| fail(format!("time table: {e}")))?;
        let s = String::from_utf8(b).map_err(|e| fail(format!("{}: not UTF-8 (byte {})", t.display(), e.utf8_error().valid_up_to())))?;
        opts.times = Some(TimeTable::parse(&s).map_err(|e| fail(format!("{}: {e}", t.display())))?);
        opts.times_name = Some(t.display().to_string());
    }
    if cli.measure {
        let (table, json) = measure(&l, cli)?;
        if let Some(o) = &cli.output {
            let saved = blocktimes_path(o);
            write_output(Some(&saved), &json).map_err(fail)?;
            eprintln!("xmpc: block times measured with {} processes written to {}", cli.np, saved.display());
        }
        opts.times = Some(table);
        opts.times_name = Some("measured".into());
    }
    let sk = skel::skeletonize(&l.unit, &l.text, &opts).map_err(|d| diag_err(&l, d))?;
    let out = xmpc_backends::emit(&l.unit, &l.text, &sk.edits).map_err(|e| diag_err(&l, vec![e.to_diag(l.unit.file)]))?;
    for r in &sk.report {
        eprintln!("xmpc: {}: {r}", l.name);
    }
    for n in &sk.notes {
        eprintln!("note: {}:{n}", l.name);
    }
    let tmp = tempdir()?;
    // A measured skeleton is checked too: the run that measured it gave the arguments.
    if cli.check || cli.measure {
        check(&l, &out, tmp.path(), cli)?;
    }
    match &cli.output {
        // `-o skel`: an executable linked with the BSIM runtime (`--check` built it).
        Some(o) if Lang::from_path(&o.display().to_string()).is_none() => {
            let built = tmp.path().join("skeleton");
            let exe = if built.is_file() { built } else { build_bsim(&l, &out, "skeleton", tmp.path(), cli)? };
            super::persist(&exe, o).map_err(fail)
        }
        o => write_output(o.as_deref(), &out).map_err(fail),
    }
}

/// Where `--measure -o X` saves the measured block times: `X.blocktimes.json` (X's
/// extension replaced); checked with `-o` before any work (main.rs).
pub fn blocktimes_path(o: &Path) -> PathBuf {
    o.with_extension("blocktimes.json")
}

fn tempdir() -> Result<tempfile::TempDir, Failure> {
    tempfile::Builder::new().prefix("xmpc-skel-").tempdir().map_err(|e| fail(format!("cannot create a temporary directory: {e}")))
}

fn instrumented(l: &Loaded, mode: InstrumentArg, simplify: bool) -> Result<String, Vec<xmpc_ir::Diag>> {
    let map = blocks::analyse(&l.unit, &l.text)?;
    let m = match mode {
        InstrumentArg::Compute => Instrument::Compute,
        InstrumentArg::Trace => Instrument::Trace,
    };
    let mut s = blocks::Simplified::default();
    if simplify {
        s = blocks::simplify(&l.unit, &l.text, &map);
        for n in &s.notes {
            eprintln!("xmpc: {}: {n}", l.name);
        }
        eprintln!(
            "xmpc: {}: --simplify: {} loop(s) capped at 2 iterations, {} statement(s) after the region commented out",
            l.name,
            s.capped.len(),
            s.dropped_stmts
        );
    }
    let mut edits = blocks::instrument_except(&l.unit, &l.text, &map.blocks, m, &s.dropped)?;
    edits.extend(s.edits);
    xmpc_backends::emit(&l.unit, &l.text, &edits).map_err(|e| vec![e.to_diag(l.unit.file)])
}

/// Extension for a generated source of this language.
fn ext(lang: Lang) -> &'static str {
    match lang {
        Lang::C => "c",
        Lang::FortranFree => "f90",
        Lang::FortranFixed => "f",
    }
}

/// Where a runtime archive is: `$XMPC_RUNTIME_DIR`, next to the executable, its `deps/`.
pub(crate) fn find_lib(name: &str, hint: &str) -> Result<PathBuf, Failure> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("XMPC_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        dirs.push(PathBuf::from(d));
    }
    dirs.extend(super::home::lib_dir());
    if let Ok(exe) = std::env::current_exe() {
        if let Some(d) = exe.parent() {
            dirs.push(d.to_path_buf());
            dirs.push(d.join("deps"));
            if let Some(p) = d.parent() {
                dirs.push(p.to_path_buf());
            }
        }
    }
    if let Some(p) = dirs.iter().map(|d| d.join(name)).find(|p| p.is_file()) {
        return Ok(p);
    }
    // A library built only as a dependency (`cargo test`) stays hashed in deps/.
    let prefix = format!("{}-", name.trim_end_matches(".a"));
    let mut hashed: Vec<(std::time::SystemTime, PathBuf)> = dirs
        .iter()
        .filter_map(|d| std::fs::read_dir(d).ok())
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_str().is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".a")))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    hashed.sort();
    hashed.pop().map(|(_, p)| p).ok_or_else(|| fail(format!("{name} was not found next to the xmpc executable: {hint}, or set XMPC_RUNTIME_DIR")))
}

/// Runs a command, showing its stderr on failure.
pub(crate) fn run_cmd(cmd: &mut Command, what: &str) -> Result<String, Failure> {
    // a step over ~2 s says what it is doing (--measure, --check)
    let out = xmpc_mpiete::progress::step("xmpc", what, || cmd.output()).map_err(|e| fail(format!("cannot run {what}: {e}")))?;
    if !out.status.success() {
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
        eprint!("{}", String::from_utf8_lossy(&out.stdout));
        return Err(fail(format!("{what} failed ({})", out.status)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Compiles one source with mpicc/mpif90 and links `libs`.
fn build(src: &Path, lang: Lang, exe: &Path, libs: &[PathBuf], includes: &[PathBuf], extra: &[&str], cli: &Cli) -> Result<(), Failure> {
    build_with(&[], src, lang, exe, libs, includes, extra, cli)
}

/// `build` with `pre` sources (a Fortran module) compiled first on the same line.
#[allow(clippy::too_many_arguments)]
fn build_with(pre: &[PathBuf], src: &Path, lang: Lang, exe: &Path, libs: &[PathBuf], includes: &[PathBuf], extra: &[&str], cli: &Cli) -> Result<(), Failure> {
    let tool = if lang == Lang::C { compile::cc() } else { compile::fc() };
    let mut c = Command::new(&tool);
    c.arg(format!("-O{}", cli.opt.clone().filter(|o| !o.is_empty()).unwrap_or_else(|| "2".into())));
    for i in includes {
        c.arg(format!("-I{}", i.display()));
    }
    for d in &cli.define {
        c.arg(format!("-D{d}"));
    }
    for i in &cli.include {
        c.arg(format!("-I{}", i.display()));
    }
    if lang.is_fortran() {
        if lang == Lang::FortranFixed {
            c.arg("-ffixed-form");
        } else {
            c.args(["-ffree-form", "-ffree-line-length-none"]);
        }
        c.arg("-fallow-argument-mismatch");
        c.arg(format!("-J{}", exe.parent().unwrap_or(Path::new(".")).display()));
    }
    c.args(extra);
    // unreferenced sections of the Rust archives dropped, as in compile::link_args
    c.arg("-Wl,--gc-sections");
    c.args(pre).arg(src).args(libs).args(compile::NATIVE_LIBS).arg("-o").arg(exe);
    run_cmd(&mut c, &format!("`{tool}` on {}", src.display())).map(|_| ())
}

fn build_instrumented(l: &Loaded, text: &str, dir: &Path, cli: &Cli) -> Result<PathBuf, Failure> {
    let lib = find_lib("libxmpc_mpiete.a", "build it with `cargo build -p xmpc-mpiete-rt`")?;
    let src = dir.join(format!("instrumented.{}", ext(l.unit.lang)));
    std::fs::write(&src, super::source::restore(text)).map_err(|e| fail(format!("cannot write {}: {e}", src.display())))?;
    let exe = dir.join("instrumented");
    build(&src, l.unit.lang, &exe, &[lib], &[], &[], cli)?;
    Ok(exe)
}

/// `--measure`: builds the compute-instrumented program, runs it with mpiexec and reads
/// the block time table it writes.
fn measure(l: &Loaded, cli: &Cli) -> Result<(TimeTable, String), Failure> {
    let text = instrumented(l, InstrumentArg::Compute, false).map_err(|d| {
        report(&l.files, &d, cli.color);
        Failure::Input
    })?;
    let tmp = tempdir()?;
    let exe = build_instrumented(l, &text, tmp.path(), cli)?;
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).map_err(|e| fail(e.to_string()))?;
    let mut c = Command::new(mpiexec());
    c.arg("-n").arg(cli.np.to_string()).arg(&exe).args(run_args(cli)).env("MPIETE_MODE", "compute").env("MPIETE_OUT", &out).current_dir(tmp.path());
    run_cmd(&mut c, &format!("the instrumented program (mpiexec -n {})", cli.np))?;
    let path = out.join("blocktimes.json");
    let json = std::fs::read_to_string(&path).map_err(|e| fail(format!("the instrumented run wrote no {}: {e}", path.display())))?;
    let t = TimeTable::parse(&json).map_err(|e| fail(format!("{}: {e}", path.display())))?;
    Ok((t, json))
}

fn mpiexec() -> String {
    std::env::var("XMPC_MPIEXEC").ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "mpiexec".into())
}

fn run_args(cli: &Cli) -> Vec<String> {
    cli.run_args.as_deref().map(|a| a.split_whitespace().map(String::from).collect()).unwrap_or_default()
}

/// `--check`: the original (renamed only, LMPI payload mode) and the skeleton, both under
/// LMPI's trace mode at `--np` ranks, must send the same messages in the same order.
fn check(l: &Loaded, skeleton: &str, dir: &Path, cli: &Cli) -> Result<(), Failure> {
    let renamed = xmpc_backends::emit(&l.unit, &l.text, &skel::rename_only(&l.unit, &l.text)).map_err(|e| {
        report(&l.files, &[e.to_diag(l.unit.file)], cli.color);
        Failure::Input
    })?;
    let mut traces = Vec::new();
    for (tag, text) in [("original", renamed.as_str()), ("skeleton", skeleton)] {
        let exe = build_bsim(l, text, tag, dir, cli)?;
        let tdir = dir.join(format!("{tag}.trace"));
        std::fs::create_dir_all(&tdir).map_err(|e| fail(e.to_string()))?;
        let mut c = Command::new(&exe);
        // message order only: the original's compute runs but is not charged
        // (host time would decide ANY_SOURCE matches unlike the skeleton's table)
        c.args(run_args(cli)).env("BSIM_NP", cli.np.to_string()).env("BSIM_TRACE", &tdir).env("BSIM_QUIET", "1").env("BSIM_HOST_TIME", "0").current_dir(dir);
        if tag == "original" {
            c.env("BSIM_PAYLOAD", "1");
        }
        // The original keeps its arrays (Fortran main-program arrays live on the rank
        // thread's stack with -frecursive): give the ranks room.
        if std::env::var_os("BSIM_STACK_KB").is_none() {
            c.env("BSIM_STACK_KB", "131072");
        }
        run_cmd(&mut c, &format!("the {tag} under BSIM ({} ranks)", cli.np))?;
        traces.push(tdir);
    }
    for r in 0..cli.np {
        let read = |d: &Path| -> Result<Vec<String>, Failure> {
            let p = trace_file(d, r).ok_or_else(|| fail(format!("no trace file for rank {r} in {}", d.display())))?;
            let t = std::fs::read_to_string(&p).map_err(|e| fail(format!("{}: {e}", p.display())))?;
            Ok(t.lines().map(|x| x.trim().to_string()).filter(|x| !x.is_empty() && !x.starts_with('#')).map(|x| comparable(&x)).collect())
        };
        let (a, b) = (read(&traces[0])?, read(&traces[1])?);
        if let Some(i) = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)) {
            return Err(fail(format!(
                "--check: {}: rank {r}, event {}: the original does `{}`, the skeleton `{}`",
                l.name,
                i + 1,
                a.get(i).map_or("(nothing)", |s| s.as_str()),
                b.get(i).map_or("(nothing)", |s| s.as_str())
            )));
        }
    }
    eprintln!("xmpc: --check: {} ranks, original and skeleton send the same messages", cli.np);
    Ok(())
}

/// Builds `text` (a skeleton, or a program with only the renaming) against LMPI:
/// `libxmpc_bsim_mpi.a` (a main that runs either back end; built where `cargo build`
/// found mpicc), else `libxmpc_bsim_main.a` (threads only), then `libxmpc_bsim.a`.
fn build_bsim(l: &Loaded, text: &str, tag: &str, dir: &Path, cli: &Cli) -> Result<PathBuf, Failure> {
    let lib = find_lib("libxmpc_bsim.a", "build it with `cargo build -p xmpc-bsim`")?;
    let main = match find_lib("libxmpc_bsim_mpi.a", "") {
        Ok(m) => m,
        Err(_) => find_lib("libxmpc_bsim_main.a", "build it with `cargo build -p xmpc-bsim`")?,
    };
    let inc = bsim_include();
    let extra: &[&str] = if l.unit.lang.is_fortran() { &["-fopenmp", "-frecursive"] } else { &["-pthread"] };
    let src = dir.join(format!("{tag}.{}", ext(l.unit.lang)));
    std::fs::write(&src, super::source::restore(text)).map_err(|e| fail(format!("cannot write {}: {e}", src.display())))?;
    let exe = dir.join(tag);
    let pre: Vec<PathBuf> = if l.unit.lang.is_fortran() { vec![lmpi_module(dir, &inc)?] } else { vec![] };
    build_with(&pre, &src, l.unit.lang, &exe, &[main, lib], &[inc], extra, cli)?;
    Ok(exe)
}

/// LMPI's headers (src/home.rs).
pub(crate) fn bsim_include() -> PathBuf {
    super::home::bsim_include()
}

/// `module lmpi` compiled once (free form, whatever the program's form is).
pub(crate) fn lmpi_module(dir: &Path, inc: &Path) -> Result<PathBuf, Failure> {
    let obj = dir.join("lmpi.o");
    if !obj.is_file() {
        let mut c = Command::new(compile::fc());
        c.arg("-c").arg("-ffree-form").arg(format!("-J{}", dir.display())).arg(format!("-I{}", inc.display())).arg(inc.join("lmpi.f90")).arg("-o").arg(&obj);
        run_cmd(&mut c, "compiling module lmpi")?;
    }
    Ok(obj)
}

/// The trace file of a rank (`*.<rank>` or `*<rank>.txt` in the directory).
fn trace_file(dir: &Path, rank: usize) -> Option<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).ok()?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    v.into_iter().find(|p| {
        let n = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let stem = n.strip_suffix(".txt").unwrap_or(n);
        stem.rsplit(['.', '_', '-']).next() == Some(&rank.to_string()) || stem.ends_with(&format!("rank{rank}"))
    })
}

/// A trace line without its virtual times (fields that look like `t=...`).
fn comparable(line: &str) -> String {
    line.split_whitespace()
        .filter(|w| !(w.starts_with("t=") || w.starts_with("time=") || w.starts_with("t0=") || w.starts_with("t1=")))
        .collect::<Vec<_>>()
        .join(" ")
}
