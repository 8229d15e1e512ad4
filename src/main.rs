//! `xmpc`: the XcalableMP compiler driver.

mod acc;
mod bsim_cc;
mod build;
mod coarray;
mod compile;
mod device_build;
mod diag_format;
mod fpp;
mod gcc;
mod gendoc;
mod home;
mod linemap;
mod model;
// xmpcc's and xmpf90's help, for their man pages (src/gendoc.rs)
#[allow(dead_code)]
mod omni_cli;
mod psim_cmd;
mod psim_mca;
mod psim_probe;
mod skel;
mod source;

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{
    self,
    termcolor::{ColorChoice, StandardStream},
};
use xmpc_ir::{diag::Severity, Diag, Lang, Program};

const EXAMPLES: &str = "\
Examples:
  xmpc laplace.c -o laplace -O2                   translate, compile with mpicc and link the runtime
  xmpc laplace.c                                  the same into a.out, as gcc
  xmpc -c part1.c                                 translate and compile to part1.o
  xmpc -show laplace.c                            print the commands (as mpicc -show); -v: print and run
  xmpc -E laplace.c                               the C preprocessor on the source (-D_XMP), on stdout
  xmpc main.c solver.c -o app --keep              several files; keep main.xmpc.c, solver.xmpc.c
  xmpc laplace.c --emit=source -o laplace.out.c   parse, check and write the (translated) source
  xmpc himeno.f90 --emit=xcodeml                  dump the IR as XcodeML-like XML on stdout
  xmpc nas.f --emit=directives                    list the directives found, one per line
  xmpc prog.F --lang=fixed                        force fixed-form Fortran
  xmpc prof report run/xmpc_prof.json             re-render an MPI profile and draw charts
  xmpc nsim run -c torus.toml -p ring             the NSIM interconnect simulator (as xmpc-nsim)
  xmpc --show-env                                 OMNI_HOME, ONESIDED_LIB, ... as Omni's xmpcc prints them
  xmpcc -omp --Wn\"-O3\" -o prog prog.c            Omni's flags, through the drop-in beside xmpc

Exit status: 0 success, 1 errors in the input, 2 bad command line.";

#[derive(Parser, Debug)]
#[command(name = "xmpc", version, about = "XcalableMP compiler for C and Fortran", after_help = EXAMPLES)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true, propagate_version = true)]
// an option given twice (`-O2 ... -O2`, `-g -g`: Makefiles that add their flags twice)
// is taken as gcc takes it: the last one wins (lists such as -I, -D, -l still append)
#[command(args_override_self = true)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
    /// Source files (.c; .f90/.F90/.f95 free form; .f/.F/.for fixed form); objects
    /// (.o, .a) are linked as they are.
    #[arg(required_unless_present = "show", num_args = 1..)]
    file: Vec<PathBuf>,
    /// Output: an executable (linked with mpicc and the runtime; a.out without -o), an
    /// object with -c, assembly with -S, or translated source when it ends in .c/.f90.
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,
    /// Preprocess only (the compiler's preprocessor on the original source, with
    /// -D_XMP): to stdout, or to -o FILE.
    #[arg(short = 'E')]
    preprocess: bool,
    /// Translate and compile to assembly (STEM.s, or -o FILE).
    #[arg(short = 'S')]
    assembly: bool,
    /// Print each command (translation, compile, link) before it runs, and pass -v to
    /// the compiler and linker, as gcc -v.
    #[arg(short = 'v')]
    verbose: bool,
    /// Print the commands without running them, as mpicc -show (also -show, -showme;
    /// without input files: the compile-and-link options of a program).
    #[arg(long)]
    show: bool,
    /// Link a shared library (-shared; the runtime is left to the program that loads it).
    #[arg(long)]
    shared: bool,
    /// Option for compiling and linking (-pthread arrives here).
    #[arg(long = "cc-flag", value_name = "FLAG", allow_hyphen_values = true)]
    cc_flag: Vec<String>,
    /// Dependency options for the compile (-MD, -MMD, -MP, -MF F, -MT T, -MQ T arrive here).
    #[arg(long = "dep-flag", value_name = "FLAG", allow_hyphen_values = true)]
    dep_flag: Vec<String>,
    /// What to produce (`source`: the translated C).
    #[arg(long, value_enum)]
    emit: Option<Emit>,
    /// Compile to object files, do not link.
    #[arg(short = 'c')]
    compile_only: bool,
    /// Optimisation level passed to the C compiler (-O2, -O3, -O).
    #[arg(short = 'O', value_name = "LEVEL", num_args = 0..=1, default_missing_value = "")]
    opt: Option<String>,
    /// Debug information (passed to the C compiler).
    #[arg(short = 'g')]
    debug: bool,
    /// Library directory (passed to the linker).
    #[arg(short = 'L', value_name = "DIR")]
    libdir: Vec<PathBuf>,
    /// Library (passed to the linker).
    #[arg(short = 'l', value_name = "LIB")]
    lib: Vec<String>,
    /// Warning option passed to the C compiler (-Wall).
    #[arg(short = 'W', value_name = "WARN")]
    warn: Vec<String>,
    /// Code-generation option passed to the C compiler (-fopenmp, -fno-strict-aliasing).
    #[arg(short = 'f', value_name = "FLAG")]
    fflag: Vec<String>,
    /// The checking mode: `-fcheck=xmp` (taken out of the `-f` options) or
    /// `XMPC_CHECK=1` in the environment (docs/checking.md).
    #[arg(skip)]
    xmp_check: bool,
    /// Machine option passed to the C compiler (-march=native).
    #[arg(short = 'm', value_name = "FLAG")]
    mflag: Vec<String>,
    /// C language standard passed to the C compiler (-std=c11).
    #[arg(long = "std", value_name = "STD")]
    std: Option<String>,
    /// OpenACC (XcalableACC) build: `host` (gcc -fopenacc host fallback, the default
    /// when a source has `#pragma acc`/`!$acc`), `nvptx` (GPU offload), `none`.
    #[arg(long, value_name = "MODE", num_args = 0..=1, default_missing_value = "host", require_equals = true)]
    acc: Option<String>,
    /// Keep the translated C beside each input (prog.xmpc.c).
    #[arg(long, alias = "tmp")]
    keep: bool,
    /// Option for the native compiler only (not the link); xmpcc's `--Wn`.
    #[arg(long = "native-flag", value_name = "FLAG", allow_hyphen_values = true)]
    native_flag: Vec<String>,
    /// Option for the link only, placed after the objects; xmpcc's `--Wl`.
    #[arg(long = "link-flag", value_name = "FLAG", allow_hyphen_values = true)]
    link_flag: Vec<String>,
    /// Source language, overriding the file extension.
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// Fortran module directory: `.mod` and `.xmpmod` files are written there and read
    /// from there (as gfortran -J; default: the current directory).
    #[arg(short = 'J', value_name = "DIR")]
    module_dir: Option<PathBuf>,
    /// Inhibit the native compilers' warnings (as gcc -w).
    #[arg(short = 'w')]
    no_warnings: bool,
    /// Include directory (kept for native compilation).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Preprocessor definition NAME[=VALUE] (kept for native compilation).
    #[arg(short = 'D', value_name = "DEF")]
    define: Vec<String>,
    /// Preprocessor: undefine NAME (native compilation and the Fortran preprocessor;
    /// a name given to both -D and -U is refused, since their order is not kept).
    #[arg(short = 'U', value_name = "NAME")]
    undefine: Vec<String>,
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    color: Colour,
    /// How xmpc prints its own diagnostics: `human` (source excerpts), `short` (one
    /// `file:line:col: error[CODE]: message` line each, as gcc), `json` (one object per line).
    #[arg(long, value_enum, default_value_t = diag_format::DiagFormat::Human, value_name = "FORMAT")]
    diagnostic_format: diag_format::DiagFormat,
    /// Turn an MPI program into a BSIM skeleton (`-o skel.c|.f90|.f`; docs/skeleton.md).
    #[arg(long)]
    skeletonize: bool,
    /// Block times from a processor model: `psim:MACHINE.toml` (closed forms, docs/psim.md).
    #[arg(long, value_name = "psim:M.toml")]
    model: Option<String>,
    /// Block time table (xmpc-blocktimes/1 JSON) giving --skeletonize its block times.
    #[arg(long, value_name = "FILE")]
    times: Option<PathBuf>,
    /// Measure block times first: build with --instrument=compute, run with mpiexec -n NP.
    #[arg(long)]
    measure: bool,
    /// Check that the skeleton sends the messages the original sends (LMPI trace mode;
    /// always done with --measure).
    #[arg(long)]
    check: bool,
    /// With --skeletonize: a compute block without a time is an error (XMP0812) instead
    /// of running in the skeleton charged its measured host time.
    #[arg(long)]
    strict_times: bool,
    /// Processes for --measure and --check.
    #[arg(long, value_name = "N", default_value_t = 2)]
    np: usize,
    /// Program arguments for the runs of --measure and --check.
    #[arg(long, value_name = "ARGS", allow_hyphen_values = true)]
    run_args: Option<String>,
    /// Insert libxmpc_mpiete calls: timers around compute blocks, or a mark before every block.
    #[arg(long, value_enum)]
    instrument: Option<InstrumentArg>,
    /// With --instrument=compute: simplify the compute base-data program (loops of the
    /// predicted region capped at 2 iterations, code after the region commented out).
    #[arg(long)]
    simplify: bool,
    /// MPIETE modelling transform first: blocking calls as start + wait, collectives as
    /// point-to-point (docs/mpiete.md); alone, writes the modelled source.
    #[arg(long)]
    blocks: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum InstrumentArg {
    Compute,
    Trace,
}

/// The tools that share the front end and runtime.
#[derive(clap::Subcommand, Debug)]
enum Tool {
    /// MPI profiler (libxmpc_prof) reports.
    Prof {
        #[command(subcommand)]
        cmd: ProfCmd,
    },
    /// MPIETE execution-time estimator: predict, comm-data program, trace dump.
    Mpiete {
        #[command(subcommand)]
        cmd: xmpc_mpiete::MpieteCmd,
    },
    /// BSIM: run skeletons in virtual time, export platforms to SimGrid, calibrate.
    Bsim {
        #[command(subcommand)]
        cmd: xmpc_bsim::cli::BsimCmd,
    },
    /// PSIM: compute times of the blocks on a described processor (ECM / roofline).
    Psim {
        #[command(subcommand)]
        cmd: psim_cmd::PsimCmd,
    },
    /// NSIM: packet-level interconnect simulator (the commands of xmpc-nsim).
    Nsim {
        #[command(subcommand)]
        cmd: xmpc_nsim::cli::Cmd,
    },
}

#[derive(clap::Subcommand, Debug)]
enum ProfCmd {
    /// Re-render a profile written by libxmpc_prof and draw charts.
    Report(xmpc_prof_report::ReportArgs),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// Translated C (a C file without XMP comes out byte for byte; Fortran unchanged).
    Source,
    /// The IR as XcodeML-like XML.
    Xcodeml,
    /// One line per directive: location, name and parse tree.
    Directives,
    /// Compute/comm/wait blocks: `id kind file:line:col-line:col summary`.
    Blocks,
    /// The blocks as JSON.
    BlocksJson,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum LangArg {
    C,
    /// Free-form Fortran.
    #[value(alias = "f90", alias = "free")]
    Fortran,
    /// Fixed-form Fortran.
    #[value(alias = "f77", alias = "f")]
    Fixed,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Colour {
    Auto,
    Always,
    Never,
}

/// Stack of the thread that does the work: the front end and the passes recurse over
/// expression and statement trees, and a 40 kB line of `1 + 1 + ...` nests thousands
/// deep (the main thread's 8 MiB overflowed: an abort, not a diagnostic). The memory is
/// only reserved; pages are touched as the recursion goes.
const WORK_STACK: usize = 1 << 30;

fn main() -> ExitCode {
    xmpc_outfile::quiet_on_closed_pipe();
    match std::thread::Builder::new().name("xmpc".into()).stack_size(WORK_STACK).spawn(real_main) {
        Ok(h) => h.join().unwrap_or(ExitCode::from(101)),
        Err(_) => real_main(),
    }
}

fn real_main() -> ExitCode {
    // `bsimcc`, `bsimf90`, `xmpc bsim cc|fc`: mpicc/mpif90 command lines (src/bsim_cc.rs)
    if let Some(code) = bsim_cc::intercept() {
        return code;
    }
    // `--generate-man DIR`, `--generate-completions DIR` (install.sh; src/gendoc.rs)
    if let Some(code) = gendoc::intercept() {
        return code;
    }
    // `xmpc --show-env[=c|fortran]`: the variables Omni's `xmpcc --show-env` prints,
    // which Omni's Makefiles read (the drop-in commands pass it on).
    if let Some(a) = std::env::args().nth(1).filter(|a| a == "--show-env" || a.starts_with("--show-env=")) {
        let fortran = match a.strip_prefix("--show-env=") {
            None | Some("c") => false,
            Some("fortran") => true,
            Some(x) => {
                eprintln!("error: --show-env={x}: expected c or fortran");
                return ExitCode::from(2);
            }
        };
        print!("{}", compile::show_env(fortran));
        return ExitCode::SUCCESS;
    }
    // gcc's and mpicc's spellings (-std=c11, -Wl,..., -show, -MMD, ...; src/gcc.rs)
    let mut args = bsim_cc::smpi_args(std::env::args_os()).into_iter();
    let prog = args.next().unwrap_or_else(|| "xmpc".into());
    let mut cli = Cli::parse_from(std::iter::once(prog).chain(gcc::rewrite(args)));
    diag_format::set(cli.diagnostic_format);
    cli.xmp_check = take_check(&mut cli.fflag) || std::env::var("XMPC_CHECK").is_ok_and(|v| !matches!(v.trim(), "" | "0"));
    if let Some(tool) = &cli.tool {
        return run_tool(tool);
    }
    if let Some(n) = cli.undefine.iter().find(|n| cli.define.iter().any(|d| d.split('=').next() == Some(n.as_str()))) {
        eprintln!("error: `{n}` is given to both -D and -U: give one of them (xmpc does not keep their order)");
        return ExitCode::from(2);
    }
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Input) => ExitCode::from(1),
        Err(Failure::Usage(msg)) => {
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Takes `check=xmp` out of the `-f` options (`-fcheck=xmp`; in a list,
/// `-fcheck=bounds,xmp` leaves `-fcheck=bounds` to the compiler): whether it was there.
fn take_check(fflags: &mut Vec<String>) -> bool {
    let mut found = false;
    fflags.retain_mut(|f| {
        let Some(list) = f.strip_prefix("check=") else { return true };
        let items: Vec<&str> = list.split(',').collect();
        if !items.contains(&"xmp") {
            return true;
        }
        found = true;
        let rest = items.into_iter().filter(|i| *i != "xmp").collect::<Vec<&str>>().join(",");
        *f = format!("check={rest}");
        !rest.is_empty()
    });
    found
}

fn run_tool(tool: &Tool) -> ExitCode {
    match tool {
        Tool::Prof { cmd: ProfCmd::Report(args) } => match xmpc_prof_report::check_args(args) {
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(2)
            }
            Ok(()) => match xmpc_prof_report::run_report(args) {
                Ok(paths) => {
                    for p in paths {
                        eprintln!("wrote {}", p.display());
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("error: {e}");
                    ExitCode::from(1)
                }
            },
        },
        Tool::Nsim { cmd } => xmpc_nsim::cli::run(cmd.clone()),
        Tool::Bsim { cmd } => ExitCode::from(xmpc_bsim::cli::run(cmd).clamp(0, 255) as u8),
        Tool::Psim { cmd } => match psim_cmd::check_args(cmd).map_err(|e| (e, 2)).and_then(|_| psim_cmd::run(cmd).map_err(|e| (e, 1))) {
            Ok(()) => ExitCode::SUCCESS,
            Err((e, code)) => {
                eprintln!("error: {e}");
                ExitCode::from(code)
            }
        },
        Tool::Mpiete { cmd } => match xmpc_mpiete::check_outputs(cmd).map_err(|e| (e, 2)).and_then(|_| xmpc_mpiete::run(cmd).map_err(|e| (e, 1))) {
            Ok(()) => ExitCode::SUCCESS,
            Err((e, code)) => {
                eprintln!("error: {e}");
                ExitCode::from(code)
            }
        },
    }
}

/// The Fortran module directory (`-J DIR`, else `.`).
fn module_dir(cli: &Cli) -> PathBuf {
    cli.module_dir.clone().unwrap_or_else(|| PathBuf::from("."))
}

#[derive(Debug)]
enum Failure {
    /// Diagnostics were printed already.
    Input,
    Usage(String),
}

/// What the command line asks for.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Mode {
    Source,
    Xcodeml,
    Directives,
    Object,
    Assembly,
    Link,
    /// `-E`
    Preprocess,
}

fn mode(cli: &Cli) -> Mode {
    match cli.emit {
        Some(Emit::Source) => return Mode::Source,
        Some(Emit::Xcodeml) => return Mode::Xcodeml,
        Some(Emit::Directives) => return Mode::Directives,
        Some(Emit::Blocks | Emit::BlocksJson) => return Mode::Source,
        None => {}
    }
    if cli.preprocess {
        return Mode::Preprocess;
    }
    if cli.assembly {
        return Mode::Assembly;
    }
    if cli.compile_only {
        return Mode::Object;
    }
    match &cli.output {
        // as gcc: a.out
        None => Mode::Link,
        Some(o) if Lang::from_path(&o.display().to_string()).is_some() => Mode::Source,
        Some(_) => Mode::Link,
    }
}

fn is_object(p: &Path) -> bool {
    matches!(p.extension().and_then(|e| e.to_str()), Some("o" | "a" | "so"))
}

fn run(cli: &Cli) -> Result<(), Failure> {
    // `xmpc a.c -o a.c` would replace the source with its translation.
    if let Some(o) = &cli.output {
        let inputs: Vec<&Path> = cli.file.iter().map(|p| p.as_path()).chain(cli.times.as_deref()).collect();
        xmpc_outfile::check_output(o, &inputs).map_err(Failure::Usage)?;
        // `--skeletonize --measure -o X` also writes the measured table beside X
        if cli.measure {
            xmpc_outfile::check_output(&skel::blocktimes_path(o), &inputs).map_err(Failure::Usage)?;
        }
    }
    if cli.blocks && !skel::wanted(cli) {
        return model::run(cli);
    }
    if skel::wanted(cli) {
        return skel::run(cli);
    }
    let mode = mode(cli);
    compile::set_echo(if cli.show {
        compile::Echo::Show
    } else if cli.verbose {
        compile::Echo::Verbose
    } else {
        compile::Echo::Off
    });
    if cli.show && cli.file.is_empty() {
        return build::show_base(cli);
    }
    if mode == Mode::Preprocess {
        return build::preprocess(cli);
    }
    let sources: Vec<&PathBuf> = cli.file.iter().filter(|p| !(matches!(mode, Mode::Link) && is_object(p))).collect();
    if matches!(mode, Mode::Source | Mode::Xcodeml | Mode::Directives) && cli.file.len() != 1 {
        return Err(Failure::Usage("several input files need -c or -o EXECUTABLE".into()));
    }
    if matches!(mode, Mode::Object | Mode::Assembly) && cli.output.is_some() && sources.len() > 1 {
        return Err(Failure::Usage(format!("{} with -o takes one input file", if mode == Mode::Object { "-c" } else { "-S" })));
    }
    // The outputs named by no option are checked before any work too: `-c` without
    // `-o` writes STEM.o in the current directory, `--keep` the translation beside
    // each source.
    let inputs: Vec<&Path> = cli.file.iter().map(|p| p.as_path()).collect();
    if mode == Mode::Link && cli.output.is_none() {
        xmpc_outfile::check_output(Path::new("a.out"), &inputs).map_err(Failure::Usage)?;
    }
    for path in &sources {
        let stem = path.file_stem().map_or("prog".into(), |s| s.to_string_lossy().to_string());
        if matches!(mode, Mode::Object | Mode::Assembly) && cli.output.is_none() {
            let ext = if mode == Mode::Object { "o" } else { "s" };
            xmpc_outfile::check_output(Path::new(&format!("{stem}.{ext}")), &inputs).map_err(Failure::Usage)?;
        }
        if cli.keep && build::wants_build(mode) {
            let ext = source_lang(cli, path).map_or("c", fortran_ext);
            xmpc_outfile::check_output(&path.with_file_name(format!("{stem}.xmpc.{ext}")), &inputs).map_err(Failure::Usage)?;
        }
    }
    // Front end, checks and translation of every file first: nothing is written when
    // any of them has an error.
    let mut translated = Vec::new();
    let mut plain = Vec::new();
    let mut failed = false;
    for path in &sources {
        match front(cli, path, mode) {
            Ok((t, p)) => {
                translated.push((path.to_path_buf(), t));
                plain.push(p);
            }
            Err(Failure::Input) => failed = true,
            Err(e) => return Err(e),
        }
    }
    if failed {
        return Err(Failure::Input);
    }
    // A program without XMP anywhere (no directive, no xmp_ call, no object of an
    // XMP file, no -l library) whose `main` has preprocessor alternatives is compiled
    // as mpicc would: no generated `main` around its own, which the translator may not
    // find among the alternatives (CMake's compiler identification source). Every
    // other main program is wrapped, as by Omni (`main_alternatives`).
    // (not with -l: a library may hold XMP code that needs the runtime started)
    let no_xmp_objects = !cli.file.iter().any(|f| is_object(f) && build::object_has_xmp(f)) && cli.lib.is_empty();
    if mode == Mode::Link && plain.iter().all(Option::is_some) && no_xmp_objects {
        for ((_, t), p) in translated.iter_mut().zip(plain) {
            *t = p.unwrap_or_default();
        }
    }
    match mode {
        Mode::Source | Mode::Xcodeml | Mode::Directives => write_output(cli.output.as_deref(), &translated[0].1).map_err(|e| {
            eprintln!("error: {e}");
            Failure::Input
        }),
        _ => build::build(cli, &translated, mode),
    }
}

/// True when `text` defines `main` more than once, as preprocessor alternatives (CMake's
/// compiler identification source: a K&R and an ANSI header over one body). Such a file
/// without XMP is compiled as mpicc would; any other C main program is wrapped, as
/// Omni's xmpcc does (MPI initialised, `void main` ends with status 0).
fn main_alternatives(text: &str) -> bool {
    let heads = text
        .lines()
        .filter(|l| {
            let w: Vec<&str> = l.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).filter(|w| !w.is_empty()).collect();
            matches!(w.as_slice(), [t, "main", ..] if matches!(*t, "int" | "void")) && l.contains('(')
        })
        .count();
    heads > 1
}

/// Moves a finished file (an object, a linked executable) into place under the output
/// policy of `xmpc_outfile`.
fn persist(from: &Path, to: &Path) -> Result<(), String> {
    xmpc_outfile::install(from, to)
}

/// The language of an input file (`--lang` or its extension).
fn source_lang(cli: &Cli, path: &Path) -> Option<Lang> {
    match cli.lang {
        Some(LangArg::C) => Some(Lang::C),
        Some(LangArg::Fortran) => Some(Lang::FortranFree),
        Some(LangArg::Fixed) => Some(Lang::FortranFixed),
        None => Lang::from_path(&path.display().to_string()),
    }
}

/// Extension of a translated file: `c`, `F90` (free form) or `F` (fixed form); upper
/// case so the Fortran compiler runs the preprocessor, as for `.F90` inputs.
fn fortran_ext(l: Lang) -> &'static str {
    match l {
        Lang::C => "c",
        Lang::FortranFree => "F90",
        Lang::FortranFixed => "F",
    }
}

/// Reads, parses, checks and translates one file; returns the text to write.
/// Also returns, for a C file without XMP (and so without the runtime), its text as
/// mpicc would compile it.
fn front(cli: &Cli, path: &Path, mode: Mode) -> Result<(String, Option<String>), Failure> {
    let name = path.display().to_string();
    let lang = match cli.lang {
        Some(LangArg::C) => Lang::C,
        Some(LangArg::Fortran) => Lang::FortranFree,
        Some(LangArg::Fixed) => Lang::FortranFixed,
        None => Lang::from_path(&name)
            .ok_or_else(|| Failure::Usage(format!("cannot tell the language of '{name}' from its extension (use --lang=c|fortran|fixed)")))?,
    };
    let text = source::read(path).map_err(|e| {
        eprintln!("error: {e}");
        Failure::Input
    })?;

    // `.F90`/`.F` (or `-cpp`): the Fortran preprocessor first; diagnostics are mapped
    // back to the original lines through its line markers (src/fpp.rs).
    let cpp_flag = cli.native_flag.iter().any(|f| f == "-cpp");
    let pre = if fpp::wanted(path, lang, cpp_flag, !cli.define.is_empty() || !cli.undefine.is_empty(), &text) {
        let o = fpp::Opts { defines: &cli.define, undefines: &cli.undefine, includes: &cli.include };
        Some(fpp::run(path, lang, &o).map_err(|e| {
            eprintln!("error: {e}");
            Failure::Input
        })?)
    } else {
        None
    };
    let text = match &pre {
        Some(p) => p.text.clone(),
        None => text,
    };
    let mut files = SimpleFiles::new();
    // XMP/C local view (coarrays, post/wait, lock): lowered to plain C first.
    let tl = std::time::Instant::now();
    let (text, local_view) = lower_local_view(&name, text, lang, cli.color)?;
    let tl = tl.elapsed();
    let file = files.add(if pre.is_some() { format!("{name} (preprocessed)") } else { name.clone() }, text.clone());
    let mut mapper = pre.as_ref().map(|p| fpp::Mapper::new(p, file));
    let mut report = |files: &mut SimpleFiles<String, String>, diags: &mut Vec<Diag>, colour| {
        if let Some(m) = mapper.as_mut() {
            m.map(diags, files);
        }
        report(files, diags, colour);
    };
    // XMPC_TIMINGS=1 prints the time of each phase (stderr).
    let timings = std::env::var_os("XMPC_TIMINGS").is_some();
    let t0 = std::time::Instant::now();
    // `--acc=none`: OpenACC off, Fortran's `!$acc` lines are comments (gfortran, Omni)
    let parsed = xmpc_frontend::parse_source_with(file, &name, &text, lang, cli.acc.as_deref() != Some("none"));
    let t1 = std::time::Instant::now();
    let mut diags = parsed.diags;
    let has_syntax_errors = diags.iter().any(|d| d.severity >= Severity::Error);
    if !has_syntax_errors {
        diags.extend(xmpc_passes::check::check(&parsed.unit, &text));
    }
    let t2 = std::time::Instant::now();
    report(&mut files, &mut diags, cli.color);
    if diags.iter().any(|d| d.severity >= Severity::Error) {
        return Err(Failure::Input);
    }

    let plain =
        (lang == Lang::C && local_view.is_none() && !xmpc_backends::c::needs_runtime(&parsed.unit, &text) && main_alternatives(&text)).then(|| text.clone());
    let out = match mode {
        Mode::Xcodeml => xmpc_ir::xml::dump(&Program { files: vec![parsed.unit] }, &[&text]),
        Mode::Directives => directives_listing(&name, &text, &parsed.unit, pre.as_ref()),
        // `#line` markers in what is compiled (a local-view file's text is already
        // rewritten: its lines are not the user's)
        _ => match if lang.is_fortran() {
            let lines = build::wants_build(mode).then_some(name.as_str());
            let mods = compile::ModDirs { out: module_dir(cli), search: cli.include.clone() };
            compile::translate_f(
                &parsed.unit,
                &text,
                mode != Mode::Source,
                &|l| pre.as_ref().and_then(|p| p.origin(l)).map(|(f, l)| (f.to_string(), l)),
                lines,
                &mods,
                cli.xmp_check,
            )
        } else {
            let lines = (build::wants_build(mode) && local_view.is_none()).then_some(name.as_str());
            compile::translate_c(&parsed.unit, &text, mode != Mode::Source, lines, cli.xmp_check)
        } {
            Ok(s) => s,
            Err(Ok(mut diags)) => {
                report(&mut files, &mut diags, cli.color);
                return Err(Failure::Input);
            }
            Err(Err(e)) => {
                eprintln!("error: {name}: {e}");
                return Err(Failure::Input);
            }
        },
    };
    let out = match local_view {
        Some(lv) if !matches!(mode, Mode::Xcodeml | Mode::Directives) => format!("{}{out}{}", lv.prelude, lv.trailer),
        _ => out,
    };
    if timings {
        let ms = |a: std::time::Instant, b: std::time::Instant| (b - a).as_secs_f64() * 1e3;
        let t3 = std::time::Instant::now();
        let lv = tl.as_secs_f64() * 1e3;
        eprintln!(
            "xmpc: {name}: local view {lv:.2} ms, parse {:.2} ms, check {:.2} ms, translate+emit {:.2} ms, total {:.2} ms",
            ms(t0, t1),
            ms(t1, t2),
            ms(t2, t3),
            lv + ms(t0, t3)
        );
    }
    Ok((out, plain))
}

/// Lowers the XMP/C local view of a C file: the front end recognises it
/// (`xmpc_frontend::c::local_view`), `xmpc_backends::c::coarray` prints it as plain C.
/// A file without local view passes through untouched; errors are reported against
/// the original text.
fn lower_local_view(name: &str, text: String, lang: Lang, colour: Colour) -> Result<(String, Option<xmpc_backends::c::coarray::Lowered>), Failure> {
    if lang != Lang::C {
        return Ok((text, None));
    }
    let mut orig = SimpleFiles::new();
    let id = orig.add(name.to_string(), text.clone());
    let lowered = match xmpc_frontend::c::local_view::scan(id, &text) {
        Ok(None) => return Ok((text, None)),
        Ok(Some(lv)) => xmpc_backends::c::coarray::lower(&text, &lv, name, id),
        Err(diags) => Err(diags),
    };
    match lowered {
        Ok(mut lv) => {
            lv.prelude = format!("#include \"xmpc_rt.h\"\n{}", lv.prelude);
            Ok((std::mem::take(&mut lv.text), Some(lv)))
        }
        Err(diags) => {
            report(&orig, &diags, colour);
            Err(Failure::Input)
        }
    }
}

fn directives_listing(name: &str, text: &str, unit: &xmpc_ir::FileUnit, pre: Option<&fpp::Pre>) -> String {
    let mut s = String::new();
    for p in unit.pragmas() {
        let (line, col) = line_col(text, p.dir.span.start);
        let (name, line) = pre.and_then(|p| p.origin(line)).unwrap_or((name, line));
        s.push_str(&format!("{name}:{line}:{col}: {}\n", p.dir.name()));
        for l in p.dir.to_string().lines() {
            s.push_str(&format!("    {l}\n"));
        }
    }
    s
}

fn line_col(text: &str, off: usize) -> (usize, usize) {
    let before = &text[..off.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

fn report(files: &SimpleFiles<String, String>, diags: &[Diag], colour: Colour) {
    let line = match diag_format::get() {
        diag_format::DiagFormat::Human => None,
        diag_format::DiagFormat::Short => Some(diag_format::short as fn(&SimpleFiles<String, String>, &Diag) -> String),
        diag_format::DiagFormat::Json => Some(diag_format::json_line as fn(&SimpleFiles<String, String>, &Diag) -> String),
    };
    if let Some(render) = line {
        let text: String = diags.iter().map(|d| render(files, d) + "\n").collect();
        let mut e = std::io::stderr().lock();
        let _ = e.write_all(text.as_bytes());
        return;
    }
    let choice = match colour {
        Colour::Always => ColorChoice::Always,
        Colour::Never => ColorChoice::Never,
        Colour::Auto if std::io::stderr().is_terminal() => ColorChoice::Auto,
        Colour::Auto => ColorChoice::Never,
    };
    let mut stderr = StandardStream::stderr(choice);
    let config = term::Config::default();
    for d in diags {
        // A diagnostic that cannot be rendered (bad span) is still reported, as text.
        if term::emit_to_write_style(&mut stderr, &config, files, d).is_err() {
            eprintln!("{:?}: {}", d.severity, d.message);
        }
    }
}

/// Writes `out` to `path` under the output policy of `xmpc_outfile` (beside the target
/// and renamed, never through a link, FIFO or device); `None` writes to stdout. Bytes
/// of the source that were not UTF-8 come out as they were (`source::restore`).
fn write_output(path: Option<&Path>, out: &str) -> Result<(), String> {
    let bytes = source::restore(out);
    let Some(path) = path else {
        let mut so = std::io::stdout().lock();
        return so.write_all(&bytes).and_then(|_| so.flush()).map_err(|e| format!("cannot write to standard output: {e}"));
    };
    xmpc_outfile::write(path, &bytes)
}
