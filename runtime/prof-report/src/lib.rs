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
    /// Also print the text report to stdout
    #[arg(long)]
    pub print: bool,
}

/// Load a profile from a JSON file; errors name the file.
pub fn load_profile(path: &Path) -> Result<Profile, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read profile: {e}", path.display()))?;
    Profile::from_json(&text)
        .map_err(|e| format!("{}: not an xmpc-prof profile: {e}", path.display()))
}

/// `xmpc prof report`: re-render the text report and draw the charts.
/// Returns the paths written.
pub fn run_report(args: &ReportArgs) -> Result<Vec<PathBuf>, String> {
    let prof = load_profile(&args.profile)?;
    let dir = match &args.out_dir {
        Some(d) => d.clone(),
        None => args
            .profile
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let stem = args
        .profile
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("xmpc_prof")
        .to_string();
    let mut written = Vec::new();
    let text = text::render(&prof, args.top);
    let txt = dir.join(format!("{stem}.txt"));
    std::fs::write(&txt, &text).map_err(|e| format!("{}: {e}", txt.display()))?;
    written.push(txt);
    if args.print {
        print!("{text}");
    }
    for fmt in &args.charts {
        let fmt = fmt.trim().to_ascii_lowercase();
        let kind = match fmt.as_str() {
            "none" | "" => continue,
            "svg" => charts::Format::Svg,
            "png" => charts::Format::Png,
            other => {
                return Err(format!(
                    "--charts: unknown format '{other}' (svg, png, none)"
                ))
            }
        };
        match charts::draw_all(&prof, &dir, &stem, kind, args.top) {
            Ok(mut v) => written.append(&mut v),
            Err(e) => eprintln!("xmpc-prof-report: {fmt} charts skipped: {e}"),
        }
    }
    Ok(written)
}
