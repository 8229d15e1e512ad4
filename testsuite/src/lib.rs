//! Test-suite helpers: the corpus of realistic XMP/MPI sources and ways to run the
//! pipeline over it.

pub mod conformance;
pub mod omni;

use std::path::{Path, PathBuf};

use xmpc_ir::{diag::Severity, Lang};

/// Root of the corpus (`testsuite/corpus`).
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every corpus file of one language, sorted by path.
pub fn corpus_files(sub: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::fs::read_dir(corpus_dir().join(sub)).map(|rd| rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_file()).collect()).unwrap_or_default();
    v.sort();
    v
}

/// Result of running the front end, checks and emitter over one file.
pub struct Run {
    pub text: String,
    /// The XMP/C local view the front end found (the driver lowers it first): `Ok(None)`
    /// for a file without one, and for Fortran.
    pub local_view: Result<Option<xmpc_ir::local_view::LocalView>, Vec<xmpc_ir::Diag>>,
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
    let local_view = if lang == Lang::C { xmpc_frontend::c::local_view::scan(0, text) } else { Ok(None) };
    let parsed = xmpc_frontend::parse_source(0, name, text, lang);
    let mut diags = parsed.diags;
    diags.extend(xmpc_passes::check::check(&parsed.unit, text));
    let emitted = xmpc_backends::emit(&parsed.unit, text, &[]);
    Run { text: text.to_string(), local_view, unit: parsed.unit, diags, emitted }
}

/// Generated inputs for throughput measurements (`benches/pipeline.rs`,
/// `examples/pipeline_once.rs`): realistic XMP code repeated to `lines` lines.
pub mod generated {
    pub fn c_source(lines: usize) -> String {
        let mut s = String::from("#include <stdio.h>\n#pragma xmp nodes p(*)\n#pragma xmp template t(0:999)\n#pragma xmp distribute t(block) onto p\ndouble a[1000], b[1000];\n#pragma xmp align [i] with t(i) :: a, b\n#pragma xmp shadow a[1:1]\n");
        let mut k = 0;
        let mut n = s.lines().count();
        while n < lines {
            let piece = format!(
            "\n/* kernel {k}: 日本語のコメント */\nstatic double kernel{k}(int n, double w)\n{{\n  double sum = 0.0;\n  int i;\n#pragma xmp reflect (a)\n#pragma xmp loop on t(i) reduction(+:sum)\n  for (i = 1; i < n - 1; i++) {{\n    b[i] = w * (a[i - 1] + a[i + 1]) + (1.0 - w) * a[i];\n    sum += b[i] * b[i];\n  }}\n  if (sum > 1.0e3) {{\n    printf(\"big %d %f\\n\", n, sum);\n  }} else {{\n    sum = sum / 2;\n  }}\n  return sum;\n}}\n"
        );
            n += piece.matches('\n').count();
            s.push_str(&piece);
            k += 1;
        }
        s
    }

    pub fn f90_source(lines: usize) -> String {
        let mut s = String::from("module data\n  implicit none\n  integer, parameter :: n = 1000\n  real(8) :: a(n), b(n)\n!$xmp nodes p(*)\n!$xmp template t(n)\n!$xmp distribute t(block) onto p\n!$xmp align (i) with t(i) :: a, b\n!$xmp shadow a(1:1)\ncontains\n");
        let mut k = 0;
        let mut n = s.lines().count();
        while n < lines {
            let piece = format!(
            "\n  ! kernel {k}: 日本語のコメント\n  subroutine kernel{k}(m, w, total)\n    integer, intent(in) :: m\n    real(8), intent(in) :: w\n    real(8), intent(out) :: total\n    integer :: i\n    total = 0.0d0\n!$xmp reflect (a)\n!$xmp loop on t(i) reduction(+:total)\n    do i = 2, m - 1\n      b(i) = w * (a(i - 1) + a(i + 1)) + (1.0d0 - w) * a(i)\n      total = total + b(i) ** 2\n    end do\n    if (total > 1.0d3) then\n      print *, 'big', m, total\n    else\n      total = total / 2\n    end if\n  end subroutine kernel{k}\n"
        );
            n += piece.matches('\n').count();
            s.push_str(&piece);
            k += 1;
        }
        s.push_str("end module data\n");
        s
    }
}

/// The program runners of the Fortran tests: `f` on every item, `XMPC_TEST_JOBS`
/// (default 2, as `conformance -j 2` on this 2-core machine) at a time; `f` returns
/// the item's failures and runs. Returns the failures in the items' order, and the
/// number of runs.
pub fn par_map<T: Sync>(items: &[T], f: impl Fn(&T) -> (Vec<String>, usize) + Sync) -> (Vec<String>, usize) {
    let jobs = std::env::var("XMPC_TEST_JOBS").ok().and_then(|v| v.parse().ok()).filter(|&j: &usize| j > 0).unwrap_or(2);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let out = std::sync::Mutex::new(vec![(vec![], 0); items.len()]);
    std::thread::scope(|sc| {
        for _ in 0..jobs.min(items.len().max(1)) {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let r = f(item);
                out.lock().unwrap()[i] = r;
            });
        }
    });
    let out = out.into_inner().unwrap();
    let runs = out.iter().map(|r| r.1).sum();
    (out.into_iter().flat_map(|r| r.0).collect(), runs)
}
