//! `xmpc`: the XcalableMP compiler driver.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor::{ColorChoice, StandardStream}};
use xmpc_ir::{diag::Severity, Diag, Lang, Program};

const EXAMPLES: &str = "\
Examples:
  xmpc laplace.c --emit=source -o laplace.out.c   parse, check and write the (translated) source
  xmpc himeno.f90 --emit=xcodeml                  dump the IR as XcodeML-like XML on stdout
  xmpc nas.f --emit=directives                    list the directives found, one per line
  xmpc prog.F --lang=fixed                        force fixed-form Fortran
  xmpc prof report run/xmpc_prof.json             re-render an MPI profile and draw charts

Exit status: 0 success, 1 errors in the input, 2 bad command line.";

#[derive(Parser, Debug)]
#[command(name = "xmpc", version, about = "XcalableMP compiler for C and Fortran", after_help = EXAMPLES)]
#[command(args_conflicts_with_subcommands = true, subcommand_negates_reqs = true)]
struct Cli {
    #[command(subcommand)]
    tool: Option<Tool>,
    /// Source file (.c; .f90/.F90/.f95 free form; .f/.F/.for fixed form).
    #[arg(required = true)]
    file: Option<PathBuf>,
    /// Output file (default: standard output).
    #[arg(short = 'o', value_name = "OUT")]
    output: Option<PathBuf>,
    /// What to produce.
    #[arg(long, value_enum, default_value_t = Emit::Source)]
    emit: Emit,
    /// Source language, overriding the file extension.
    #[arg(long, value_enum)]
    lang: Option<LangArg>,
    /// Include directory (kept for native compilation).
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,
    /// Preprocessor definition NAME[=VALUE] (kept for native compilation).
    #[arg(short = 'D', value_name = "DEF")]
    define: Vec<String>,
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Colour::Auto)]
    color: Colour,
}

/// The tools that share the front end and runtime.
#[derive(clap::Subcommand, Debug)]
enum Tool {
    /// MPI profiler (libxmpc_prof) reports.
    Prof {
        #[command(subcommand)]
        cmd: ProfCmd,
    },
}

#[derive(clap::Subcommand, Debug)]
enum ProfCmd {
    /// Re-render a profile written by libxmpc_prof and draw charts.
    Report(xmpc_prof_report::ReportArgs),
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Emit {
    /// C or Fortran source (unchanged input comes out byte for byte).
    Source,
    /// The IR as XcodeML-like XML.
    Xcodeml,
    /// One line per directive: location, name and parse tree.
    Directives,
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(tool) = &cli.tool {
        return run_tool(tool);
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

fn run_tool(tool: &Tool) -> ExitCode {
    match tool {
        Tool::Prof { cmd: ProfCmd::Report(args) } => match xmpc_prof_report::run_report(args) {
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
    }
}

enum Failure {
    /// Diagnostics were printed already.
    Input,
    Usage(String),
}

fn run(cli: &Cli) -> Result<(), Failure> {
    let path = cli.file.as_deref().expect("clap requires FILE without a subcommand");
    let name = path.display().to_string();
    let lang = match cli.lang {
        Some(LangArg::C) => Lang::C,
        Some(LangArg::Fortran) => Lang::FortranFree,
        Some(LangArg::Fixed) => Lang::FortranFixed,
        None => Lang::from_path(&name).ok_or_else(|| {
            Failure::Usage(format!("cannot tell the language of '{name}' from its extension (use --lang=c|fortran|fixed)"))
        })?,
    };
    let bytes = std::fs::read(path).map_err(|e| {
        eprintln!("error: cannot read '{name}': {e}");
        Failure::Input
    })?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let off = e.utf8_error().valid_up_to();
        eprintln!("error: '{name}' is not UTF-8 (first bad byte at offset {off}); convert it, e.g. `iconv -f SHIFT_JIS -t UTF-8`");
        Failure::Input
    })?;

    let mut files = SimpleFiles::new();
    let file = files.add(name.clone(), text.clone());
    let parsed = xmpc_frontend::parse_source(file, &name, &text, lang);
    let mut diags = parsed.diags;
    let has_syntax_errors = diags.iter().any(|d| d.severity >= Severity::Error);
    if !has_syntax_errors {
        diags.extend(xmpc_passes::check::check(&parsed.unit, &text));
    }
    report(&files, &diags, cli.color);
    if diags.iter().any(|d| d.severity >= Severity::Error) {
        return Err(Failure::Input);
    }

    let out = match cli.emit {
        Emit::Source => xmpc_backends::emit(&parsed.unit, &text, &[]).map_err(|e| {
            eprintln!("error: {name}: {e}");
            Failure::Input
        })?,
        Emit::Xcodeml => xmpc_ir::xml::dump(&Program { files: vec![parsed.unit] }, &[&text]),
        Emit::Directives => directives_listing(&name, &text, &parsed.unit),
    };
    write_output(cli.output.as_deref(), &out).map_err(|e| {
        eprintln!("error: {e}");
        Failure::Input
    })
}

fn directives_listing(name: &str, text: &str, unit: &xmpc_ir::FileUnit) -> String {
    let mut s = String::new();
    for p in unit.pragmas() {
        let (line, col) = line_col(text, p.dir.span.start);
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

/// Writes `out` to `path` atomically (temporary file in the same directory, then
/// rename), so an error never leaves a half-written file; `None` writes to stdout.
fn write_output(path: Option<&Path>, out: &str) -> Result<(), String> {
    let Some(path) = path else {
        let mut so = std::io::stdout().lock();
        return so.write_all(out.as_bytes()).map_err(|e| format!("cannot write to standard output: {e}"));
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| format!("cannot create a file in '{}': {e}", dir.display()))?;
    tmp.write_all(out.as_bytes()).map_err(|e| format!("cannot write '{}': {e}", path.display()))?;
    tmp.persist(path).map_err(|e| format!("cannot write '{}': {}", path.display(), e.error))?;
    Ok(())
}
