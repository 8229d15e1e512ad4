//! Profile data model and reports for `libxmpc_prof` (MPIPROF).
//!
//! This crate needs no MPI: the `xmpc` driver uses it for
//! `xmpc prof report profile.json` (see [`ReportArgs`] and [`run_report`]).

pub mod charts;
pub mod model;
pub mod text;

pub use model::*;

use std::path::{Path, PathBuf};

/// Arguments of `xmpc prof report` (also the standalone `xmpc-prof-report`).
#[derive(clap::Args, Debug, Clone)]
pub struct ReportArgs {
    /// Profile written by libxmpc_prof (xmpc_prof.json)
    pub profile: PathBuf,
    /// Directory for the re-rendered report and the charts
    /// (default: the profile's directory)
    #[arg(short, long)]
    pub out_dir: Option<PathBuf>,
    /// Chart formats to draw: svg, png (comma separated), or none
    #[arg(long, default_value = "svg", value_delimiter = ',')]
    pub charts: Vec<String>,
    /// Number of functions shown in tables and charts
    #[arg(long, default_value_t = 20)]
    pub top: usize,
    /// Number of MPI call sites (file:line, as mpiP) listed, by time
    #[arg(long, default_value_t = 20)]
    pub callsites: usize,
    /// Also print the text report to stdout
    #[arg(long)]
    pub print: bool,
}

/// The largest profile read (bytes): a bigger file, or an endless one such as
/// `/dev/zero`, is refused before it is read whole.
pub const MAX_PROFILE_BYTES: u64 = 256 << 20;

/// Load a profile from a JSON file; errors name the file (and `line:col` in it).
pub fn load_profile(path: &Path) -> Result<Profile, String> {
    let bytes = xmpc_outfile::read_bounded(path, MAX_PROFILE_BYTES)?;
    let text = String::from_utf8(bytes).map_err(|e| format!("{}: not UTF-8 (byte {})", path.display(), e.utf8_error().valid_up_to()))?;
    Profile::from_json(&text).map_err(|e| format!("{}:{e}", path.display()))
}

/// The chart formats asked for (`--charts svg,png`, `none`).
fn chart_kinds(args: &ReportArgs) -> Result<Vec<(String, charts::Format)>, String> {
    let mut kinds = Vec::new();
    for fmt in &args.charts {
        let fmt = fmt.trim().to_ascii_lowercase();
        match fmt.as_str() {
            "none" | "" => {}
            "svg" => kinds.push((fmt, charts::Format::Svg)),
            "png" => kinds.push((fmt, charts::Format::Png)),
            other => return Err(format!("--charts: unknown format '{other}' (svg, png, none)")),
        }
    }
    Ok(kinds)
}

/// Where the report goes: `--out-dir` or the profile's directory, and the file stem.
fn out_dir_and_stem(args: &ReportArgs) -> (PathBuf, String) {
    let dir = match &args.out_dir {
        Some(d) => d.clone(),
        None => match args.profile.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        },
    };
    let stem = args.profile.file_stem().and_then(|s| s.to_str()).unwrap_or("xmpc_prof").to_string();
    (dir, stem)
}

/// The command line checked before any work (docs/diagnostics.md, output policy):
/// known chart formats, and every file the report would write usable (not a link,
/// FIFO, device or directory, not the profile itself). An error here is a bad command
/// line (exit status 2).
pub fn check_args(args: &ReportArgs) -> Result<(), String> {
    let kinds = chart_kinds(args)?;
    let (dir, stem) = out_dir_and_stem(args);
    let mut outs = vec![dir.join(format!("{stem}.txt"))];
    for (_, k) in &kinds {
        let ext = match k {
            charts::Format::Svg => "svg",
            charts::Format::Png => "png",
        };
        outs.push(dir.join(format!("{stem}_time.{ext}")));
        outs.push(dir.join(format!("{stem}_sizes.{ext}")));
    }
    // the directory may be missing: the report creates it; anything else than a
    // directory there is refused before the profile is read
    if std::fs::metadata(&dir).is_ok_and(|m| !m.is_dir()) {
        return Err(format!("{}: not a directory (the report and the charts go there)", dir.display()));
    }
    for o in &outs {
        xmpc_outfile::check_target(o)?;
        xmpc_outfile::check_not_input(o, &[&args.profile])?;
    }
    Ok(())
}

/// `xmpc prof report`: re-render the text report and draw the charts.
/// Returns the paths written. Arguments are checked and everything is rendered before
/// the first file is written; then all files are written or none.
pub fn run_report(args: &ReportArgs) -> Result<Vec<PathBuf>, String> {
    let kinds = chart_kinds(args)?;
    let prof = load_profile(&args.profile)?;
    let (dir, stem) = out_dir_and_stem(args);
    let text = text::render_with(&prof, args.top, args.callsites);
    let txt = dir.join(format!("{stem}.txt"));
    xmpc_outfile::check_not_input(&txt, &[&args.profile])?;
    let mut files = vec![(txt, text.clone().into_bytes())];
    // a chart that cannot be drawn is an error (it was "skipped", exit status 0)
    for (fmt, kind) in kinds {
        let mut v = charts::draw_all(&prof, &dir, &stem, kind, args.top).map_err(|e| format!("{fmt} charts: {e}"))?;
        files.append(&mut v);
    }
    for (p, _) in &files {
        xmpc_outfile::check_not_input(p, &[&args.profile])?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    xmpc_outfile::write_all(&files)?;
    if args.print {
        use std::io::Write;
        let mut so = std::io::stdout().lock();
        so.write_all(text.as_bytes()).and_then(|_| so.flush()).map_err(|e| format!("standard output: {e}"))?;
    }
    Ok(files.into_iter().map(|(p, _)| p).collect())
}
