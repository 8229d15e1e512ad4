//! Test-suite helpers: the corpus of realistic XMP/MPI sources and ways to run the
//! pipeline over it.

use std::path::{Path, PathBuf};

use xmpc_ir::{diag::Severity, Lang};

/// Root of the corpus (`testsuite/corpus`).
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every corpus file of one language, sorted by path.
pub fn corpus_files(sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(corpus_dir().join(sub))
        .map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Result of running the front end, checks and emitter over one file.
pub struct Run {
    pub text: String,
    pub unit: xmpc_ir::FileUnit,
    pub diags: Vec<xmpc_ir::Diag>,
    pub emitted: Result<String, xmpc_backends::EmitError>,
}

impl Run {
    pub fn errors(&self) -> Vec<&xmpc_ir::Diag> {
        self.diags.iter().filter(|d| d.severity >= Severity::Error).collect()
    }
    pub fn rendered(&self, name: &str) -> String {
        xmpc_ir::diag::render_plain(name, &self.text, &self.diags)
    }
}

/// Parses, checks and emits (with no edits) one file.
pub fn run_file(path: &Path) -> Run {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.display().to_string();
    let lang = Lang::from_path(&name).unwrap_or_else(|| panic!("{name}: unknown extension"));
    run_text(&name, &text, lang)
}

pub fn run_text(name: &str, text: &str, lang: Lang) -> Run {
    let parsed = xmpc_frontend::parse_source(0, name, text, lang);
    let mut diags = parsed.diags;
    diags.extend(xmpc_passes::check::check(&parsed.unit, text));
    let emitted = xmpc_backends::emit(&parsed.unit, text, &[]);
    Run { text: text.to_string(), unit: parsed.unit, diags, emitted }
}
