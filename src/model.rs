//! `--blocks`: the MPIETE modelling transform (docs/mpiete.md). Alone it writes the
//! modelled source; with `--emit=blocks`, `--instrument` or `--skeletonize` those
//! passes run on the modelled source.

use std::path::Path;

use codespan_reporting::files::SimpleFiles;
use xmpc_ir::{diag::Severity, FileUnit, Lang};

use super::{report, source_lang, write_output, Cli, Failure};

/// The modelled text of a parsed file, parsed again (diagnostics name the file
/// `NAME (modelled)` from here on).
pub fn reload(
    cli: &Cli,
    name: &str,
    lang: Lang,
    text: &str,
    unit: &FileUnit,
    files: &SimpleFiles<String, String>,
) -> Result<(String, FileUnit, SimpleFiles<String, String>), Failure> {
    let edits = xmpc_passes::mpiete::model(unit, text).map_err(|d| {
        report(files, &d, cli.color);
        Failure::Input
    })?;
    let out = xmpc_backends::emit(unit, text, &edits).map_err(|e| {
        report(files, &[e.to_diag(unit.file)], cli.color);
        Failure::Input
    })?;
    let mut files = SimpleFiles::new();
    let id = files.add(format!("{name} (modelled)"), out.clone());
    let parsed = xmpc_frontend::parse_source(id, name, &out, lang);
    report(&files, &parsed.diags, cli.color);
    if parsed.diags.iter().any(|d| d.severity >= Severity::Error) {
        return Err(Failure::Input);
    }
    Ok((out, parsed.unit, files))
}

/// `xmpc --blocks prog.f90 [-o out.f90]`: the modelled source.
pub fn run(cli: &Cli) -> Result<(), Failure> {
    if cli.file.len() != 1 {
        return Err(Failure::Usage("--blocks takes one source file".into()));
    }
    let path: &Path = &cli.file[0];
    let name = path.display().to_string();
    let lang = source_lang(cli, path)
        .ok_or_else(|| Failure::Usage(format!("cannot tell the language of '{name}' from its extension (use --lang=c|fortran|fixed)")))?;
    let text = super::source::read(path).map_err(|e| {
        eprintln!("error: {e}");
        Failure::Input
    })?;
    let mut files = SimpleFiles::new();
    let id = files.add(name.clone(), text.clone());
    let parsed = xmpc_frontend::parse_source(id, &name, &text, lang);
    report(&files, &parsed.diags, cli.color);
    if parsed.diags.iter().any(|d| d.severity >= Severity::Error) {
        return Err(Failure::Input);
    }
    let (out, _, _) = reload(cli, &name, lang, &text, &parsed.unit, &files)?;
    write_output(cli.output.as_deref(), &out).map_err(|e| {
        eprintln!("error: {e}");
        Failure::Input
    })
}
