//! `xmpc psim predict|probe|sweep` and `--model psim:M.toml` for `--skeletonize`
//! (docs/psim.md).

use std::path::{Path, PathBuf};

use codespan_reporting::files::SimpleFiles;
use xmpc_ir::{diag::Severity, FileUnit, Lang};
use xmpc_passes::blocks::{self, Block, BlockKind};
use xmpc_psim::{sym::E, BlockModel, InCore, Machine};

use crate::psim_mca::{Source, View};

#[derive(clap::Subcommand, Debug)]
pub enum PsimCmd {
    /// Predict every compute block's time and the program's compute total on a machine.
    Predict(PredictArgs),
    /// Measure this machine (STREAM-style bandwidths per cache level, latencies, clock)
    /// and write a machine file.
    Probe {
        #[arg(short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Shorter runs (about 2 s instead of 10).
        #[arg(long)]
        quick: bool,
    },
    /// Vary one machine parameter and print the predicted block and program times.
    Sweep(SweepArgs),
}

#[derive(clap::Args, Debug, Clone)]
pub struct PredictArgs {
    /// The program (C or Fortran with MPI).
    pub file: PathBuf,
    /// Machine file (TOML, docs/psim.md).
    #[arg(long, value_name = "M.toml")]
    pub machine: PathBuf,
    /// A preprocessor value NAME=VALUE (as -D when compiling).
    #[arg(short = 'D', value_name = "NAME=VALUE")]
    pub define: Vec<String>,
    /// A program variable's value VAR=VALUE (trip counts that the source leaves to input).
    #[arg(long = "set", value_name = "VAR=VALUE")]
    pub set: Vec<String>,
    /// Process count (the value of `size`/`np` after MPI_Comm_size; 1 to 2^20).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub np: u32,
    /// Rank whose blocks are predicted.
    #[arg(long, default_value_t = 0)]
    pub rank: u32,
    /// Ranks on the predicted rank's node, sharing its memory bandwidth
    /// (`memory.socket_bandwidth_gbs`); default: min(np, the machine's cores).
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u32).range(1..=1 << 20))]
    pub ranks_per_node: Option<u32>,
    /// MPIETE modelling transform first (block IDs as `xmpc --blocks --emit=blocks`).
    #[arg(long)]
    pub blocks: bool,
    /// Per nest details (counts, traffic per level, ECM terms) and notes.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Source language, overriding the extension.
    #[arg(long, value_name = "c|fortran|fixed")]
    pub lang: Option<String>,
    /// Also write the predicted times of every rank 0..np as a block time table
    /// (xmpc-blocktimes/1: what `xmpc mpiete predict --compute` and `--skeletonize
    /// --times` read).
    #[arg(long, value_name = "FILE.json")]
    pub blocktimes: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
pub struct SweepArgs {
    #[command(flatten)]
    pub p: PredictArgs,
    /// Parameter: lanes, bandwidth (GB/s), clock (GHz), fp_pipes.
    #[arg(long)]
    pub param: String,
    /// Values, comma separated (e.g. 1,2,4,8,16,32).
    #[arg(long, value_delimiter = ',', required = true)]
    pub values: Vec<f64>,
}

/// The command line checked before any work (docs/diagnostics.md): the output
/// policy (an output's directory exists, it is not a link/FIFO/device/directory and
/// not an input), `--rank` inside `--np`, and a sweep's parameter and values. An error
/// here is a bad command line (exit status 2).
pub fn check_args(cmd: &PsimCmd) -> Result<(), String> {
    let (out, inputs): (Option<&Path>, Vec<&Path>) = match cmd {
        PsimCmd::Predict(a) => (a.blocktimes.as_deref(), vec![&a.file, &a.machine]),
        PsimCmd::Sweep(s) => (None, vec![&s.p.file, &s.p.machine]),
        PsimCmd::Probe { output, .. } => (output.as_deref(), vec![]),
    };
    let p = match cmd {
        PsimCmd::Predict(a) => Some(a),
        PsimCmd::Sweep(s) => Some(&s.p),
        PsimCmd::Probe { .. } => None,
    };
    if let Some(p) = p {
        if p.rank >= p.np {
            return Err(format!("--rank {}: not a rank of --np {} (0 to {})", p.rank, p.np, p.np - 1));
        }
        for s in &p.set {
            kv(s).map_err(|e| format!("--set {e}"))?;
        }
        for d in p.define.iter().filter(|d| d.contains('=')) {
            kv(d).map_err(|e| format!("-D {e}"))?;
        }
    }
    if let PsimCmd::Sweep(s) = cmd {
        check_sweep(s)?;
    }
    out.map_or(Ok(()), |o| xmpc_outfile::check_output(o, &inputs))
}

/// `sweep --param P --values ...`: a known parameter, and values it can take (a core
/// count of 0 lanes was run as 1 lane, and the table said 0).
fn check_sweep(s: &SweepArgs) -> Result<(), String> {
    let whole = match s.param.as_str() {
        "lanes" | "simd_lanes" | "fp_pipes" => true,
        "bandwidth" | "memory_bandwidth" | "socket_bandwidth" | "clock" | "clock_ghz" => false,
        p => return Err(format!("--param {p}: unknown parameter (lanes, bandwidth, socket_bandwidth, clock, fp_pipes)")),
    };
    for &v in &s.values {
        let ok = v.is_finite() && v > 0.0 && (!whole || (v.fract() == 0.0 && v <= f64::from(u32::MAX)));
        if !ok {
            let want = if whole { "a whole number, at least 1" } else { "a finite number above 0" };
            return Err(format!("--values {v}: {} must be {want}", s.param));
        }
    }
    Ok(())
}

pub fn run(cmd: &PsimCmd) -> Result<(), String> {
    match cmd {
        PsimCmd::Predict(a) => {
            let m = Machine::load(&a.machine)?;
            let p = Prepared::new(a)?;
            // llvm-mca: printed next to the table (-v), or the in-core time itself
            let mca = (a.verbose || m.incore_llvm_mca()).then(|| View::new(&p.source(), &m));
            let r = p.predict(&m, mca.as_ref())?;
            print!("{}", p.render(&r, &m, mca.as_ref().filter(|_| a.verbose)));
            if let Some(out) = &a.blocktimes {
                let t = p.blocktimes(&m, mca.as_ref())?;
                xmpc_outfile::write(out, t.as_bytes())?;
                eprintln!("wrote {}", out.display());
            }
            Ok(())
        }
        PsimCmd::Probe { output, quick } => {
            let m = crate::psim_probe::probe(*quick)?;
            let t = m.to_toml();
            match output {
                Some(o) => {
                    xmpc_outfile::write(o, t.as_bytes())?;
                    eprintln!("wrote {}", o.display());
                }
                None => print!("{t}"),
            }
            Ok(())
        }
        PsimCmd::Sweep(s) => sweep(s),
    }
}

/// A parsed program, its blocks and variable values.
pub struct Prepared {
    pub name: String,
    pub text: String,
    pub unit: FileUnit,
    pub blocks: Vec<Block>,
    pub args: PredictArgs,
}

pub struct Prediction {
    pub rows: Vec<Row>,
    pub total: f64,
}

pub struct Row {
    pub id: u32,
    pub line: usize,
    pub col: usize,
    pub per_exec: Result<f64, String>,
    pub roofline: f64,
    pub count: Result<f64, String>,
    pub model: BlockModel,
}

fn kv(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("`{s}`: expected NAME=VALUE")),
    }
}

impl Prepared {
    pub fn new(a: &PredictArgs) -> Result<Prepared, String> {
        let name = a.file.display().to_string();
        let lang = match a.lang.as_deref() {
            Some("c") => Some(Lang::C),
            Some("fortran" | "free" | "f90") => Some(Lang::FortranFree),
            Some("fixed" | "f77") => Some(Lang::FortranFixed),
            Some(o) => return Err(format!("--lang {o}: use c, fortran or fixed")),
            None => Lang::from_path(&name),
        }
        .ok_or_else(|| format!("cannot tell the language of '{name}' from its extension (use --lang)"))?;
        // Bytes as the compiler reads them: bounded, non-UTF-8 comments kept.
        let text = crate::source::read(&a.file)?;
        let (text, unit) = parse(&name, &text, lang, a.blocks)?;
        let blocks = blocks::find(&unit, &text).map_err(|d| render_diags(&name, &text, &d))?;
        Ok(Prepared { name, text, unit, blocks, args: a.clone() })
    }

    /// The program as the native compiler (and llvm-mca) sees it.
    pub fn source(&self) -> Source<'_> {
        Source { name: &self.name, text: &self.text, lang: self.unit.lang, defines: &self.args.define, includes: &[], file: &self.args.file }
    }

    /// Every compute block's time; the in-core times from `mca` when the machine says
    /// `incore = "llvm-mca"` (a loop it cannot time: the pipe table's, said on stderr).
    /// Ranks sharing the node's memory bandwidth: `--ranks-per-node`, else min(np, cores).
    pub fn node_ranks(&self, m: &Machine) -> u32 {
        self.args.ranks_per_node.unwrap_or(self.args.np.min(m.cores.max(1)))
    }

    pub fn predict(&self, m: &Machine, mca: Option<&View>) -> Result<Prediction, String> {
        let defines: Vec<(String, String)> =
            self.args.define.iter().map(|d| if d.contains('=') { kv(d) } else { Ok((d.clone(), "1".into())) }).collect::<Result<_, _>>()?;
        let sets: Vec<(String, String)> = self.args.set.iter().map(|s| kv(s)).collect::<Result<_, _>>()?;
        let mut rows = Vec::new();
        let mut total = 0.0;
        for b in self.blocks.iter().filter(|b| b.kind == BlockKind::Compute) {
            let model = xmpc_psim::model_block_with(&self.unit, &self.text, b, m, mca.map(|v| v as &dyn InCore));
            View::warn(&self.name, &model);
            // values: program state before the block
            let mut vals = xmpc_psim::env::Values::new(&self.text, self.unit.lang, &defines, &sets, self.args.np, self.args.rank)?;
            vals.env.insert(xmpc_psim::sym::NODE_RANKS.into(), self.node_ranks(m) as f64);
            if let Some(f) = self.unit.functions().into_iter().find(|f| f.span.start <= b.span.start && b.span.end <= f.span.end) {
                vals.run(&self.unit, &self.text, &f.body, &f.symbols, b.span.end);
            }
            let per_exec = if !model.problems.is_empty() {
                Err(model.problems.iter().map(|(_, m)| m.clone()).collect::<Vec<_>>().join("; "))
            } else {
                model.seconds.eval(&vals.env).map_err(|v| format!("needs the value of `{v}` (--set {v}=...)"))
            };
            let roofline = model.roofline.eval(&vals.env).unwrap_or(f64::NAN);
            let count = match xmpc_psim::executions(&self.unit, &self.text, b, m) {
                Some(e) => e.eval(&vals.env).map_err(|v| format!("its loop count needs `{v}`")),
                None => Err("an enclosing loop is not countable".into()),
            };
            if let (Ok(t), Ok(c)) = (&per_exec, &count) {
                total += t * c;
            }
            let (line, col) = line_col(&self.text, b.span.start);
            rows.push(Row { id: b.id, line, col, per_exec, roofline, count, model });
        }
        Ok(Prediction { rows, total })
    }

    /// The table; with `mca` (`-v`), every nest's terms and llvm-mca's figure next to them.
    pub fn render(&self, p: &Prediction, m: &Machine, mca: Option<&View>) -> String {
        let verbose = mca.is_some();
        let mut s = format!("# psim: {} on {} ({} GHz)\n", self.name, m.name, m.clock_ghz);
        if let Some(sock) = m.memory.socket_bandwidth_gbs {
            let k = self.node_ranks(m);
            s += &format!("# memory: {k} rank(s) of a node share {sock} GB/s: transfers from memory x{:.3}\n", m.mem_share(k as f64));
        }
        if let Some(r) = m.memory.reuse_cost.filter(|r| *r > 0.0) {
            s += &format!("# memory: beside a stream from memory, L1 misses that a cache below serves cost {r} x a read from memory (memory.reuse_cost)\n");
        }
        if m.incore_llvm_mca() {
            s.push_str("# in-core: llvm-mca (the pipe table where it cannot time a loop)\n");
        }
        if let Some(v) = mca {
            s.push_str(&v.header());
        }
        for r in &p.rows {
            let loc = format!("{}:{}:{}", self.name, r.line, r.col);
            match (&r.per_exec, &r.count) {
                (Ok(t), Ok(c)) => {
                    s.push_str(&format!("block {} {loc} per_exec {t:.4e} s roofline {:.4e} s count {c} total {:.4e} s\n", r.id, r.roofline, t * c))
                }
                (Ok(t), Err(e)) => s.push_str(&format!("block {} {loc} per_exec {t:.4e} s roofline {:.4e} s count ? ({e})\n", r.id, r.roofline)),
                (Err(e), _) => s.push_str(&format!("block {} {loc} not modelled: {e}\n", r.id)),
            }
            if verbose {
                s.push_str(&format!("  closed form: {}\n", r.model.seconds));
                for (n, nm) in &r.model.nests {
                    let loops: Vec<String> = n.loops.iter().map(|(v, t)| format!("{v}:{t}")).collect();
                    s.push_str(&format!(
                        "  nest [{}]: flops {} loads {} stores {} streams {} lanes {} T_OL {:.2} T_nOL {:.2} cy/it{}, recurrence {:.1} cy; traffic/it {}; ECM {}\n",
                        loops.join(", "),
                        nm.flops,
                        nm.loads,
                        nm.stores,
                        nm.groups.len(),
                        nm.lanes,
                        nm.t_ol,
                        nm.t_nol,
                        if nm.mca.is_some() { " (in-core: llvm-mca)" } else { "" },
                        n.kernel.recurrence,
                        nm.traffic.iter().zip(&m.caches).map(|(t, c)| format!("{}: {t}", c.name)).collect::<Vec<_>>().join(", "),
                        nm.ecm
                    ));
                    if let (Some(v), false) = (mca, n.loops.is_empty()) {
                        let line = line_col(&self.text, n.span.start).0 as u32;
                        s.extend(v.nest(line, nm.table_incore));
                    }
                }
                for n in &r.model.notes {
                    s.push_str(&format!("  note: {n}\n"));
                }
            }
        }
        s.push_str(&format!("total {:.6e}\n", p.total));
        s
    }
}

impl Prepared {
    /// Every rank's predicted block times as an `xmpc-blocktimes/1` table: blocks that
    /// have a time and a count on every rank (a block a rank never runs has count 0).
    pub fn blocktimes(&self, m: &Machine, mca: Option<&View>) -> Result<String, String> {
        let np = self.args.np.max(1);
        let mut per_rank: Vec<Prediction> = Vec::new();
        for r in 0..np {
            let mut a = self.args.clone();
            a.rank = r;
            let p = Prepared { name: self.name.clone(), text: self.text.clone(), unit: self.unit.clone(), blocks: self.blocks.clone(), args: a };
            per_rank.push(p.predict(m, mca)?);
        }
        let mut blocks = Vec::new();
        let mut missing = Vec::new();
        for (k, row) in per_rank[0].rows.iter().enumerate() {
            let mut ranks = Vec::new();
            for p in &per_rank {
                match (&p.rows[k].per_exec, &p.rows[k].count) {
                    (Ok(t), Ok(c)) => ranks.push((*t, *c)),
                    _ => break,
                }
            }
            if ranks.len() != per_rank.len() {
                missing.push(row.id);
                continue;
            }
            let count: f64 = ranks.iter().map(|r| r.1).sum();
            let mean = if count > 0.0 { ranks.iter().map(|r| r.0 * r.1).sum::<f64>() / count } else { ranks[0].0 };
            let pr: Vec<serde_json::Value> = ranks.iter().map(|(t, c)| serde_json::json!({"mean_s": t, "count": *c as u64})).collect();
            let b = serde_json::json!({"id": row.id, "mean_s": mean, "count": count as u64, "per_rank": pr});
            blocks.push(serde_json::to_string(&b).map_err(|e| format!("block {}: {e}", row.id))?);
        }
        if !missing.is_empty() {
            eprintln!("xmpc: psim: blocks without a prediction on every rank are not in the table: {missing:?}");
        }
        // serde_json writes every value (a non-finite time would be `null`, never `NaN`);
        // the layout keeps one block per line
        let head = serde_json::json!({"format": "xmpc-blocktimes/1", "source": self.name, "ranks": np, "model": format!("psim:{}", m.name)});
        let head = serde_json::to_string(&head).map_err(|e| e.to_string())?;
        Ok(format!("{},\"blocks\":[\n{}\n]}}\n", head.trim_end_matches('}'), blocks.join(",\n")))
    }
}

fn line_col(t: &str, at: usize) -> (usize, usize) {
    let before = &t[..at.min(t.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |p| p + 1) + 1;
    (line, col)
}

fn render_diags(name: &str, text: &str, d: &[xmpc_ir::Diag]) -> String {
    let mut files = SimpleFiles::new();
    files.add(name.to_string(), text.to_string());
    super::report(&files, d, super::Colour::Auto);
    format!("{name}: the block finder failed (see above)")
}

/// Parses, optionally through the MPIETE modelling transform.
fn parse(name: &str, text: &str, lang: Lang, model: bool) -> Result<(String, FileUnit), String> {
    let mut files = SimpleFiles::new();
    let id = files.add(name.to_string(), text.to_string());
    let parsed = xmpc_frontend::parse_source(id, name, text, lang);
    if parsed.diags.iter().any(|d| d.severity >= Severity::Error) {
        super::report(&files, &parsed.diags, super::Colour::Auto);
        return Err(format!("{name} has errors"));
    }
    if !model {
        return Ok((text.to_string(), parsed.unit));
    }
    let edits = xmpc_passes::mpiete::model(&parsed.unit, text).map_err(|d| {
        super::report(&files, &d, super::Colour::Auto);
        format!("{name}: the modelling transform failed")
    })?;
    let out = xmpc_backends::emit(&parsed.unit, text, &edits).map_err(|e| format!("{name}: {e}"))?;
    let p2 = xmpc_frontend::parse_source(id, name, &out, lang);
    Ok((out, p2.unit))
}

fn sweep(s: &SweepArgs) -> Result<(), String> {
    let base = Machine::load(&s.p.machine)?;
    let p = Prepared::new(&s.p)?;
    // llvm-mca times the host compiler's assembly once: lanes and pipes do not move it
    let mca = base.incore_llvm_mca().then(|| View::new(&p.source(), &base));
    let mut table: Vec<(f64, Prediction)> = Vec::new();
    for &v in &s.values {
        let mut m = base.clone();
        m.set(&s.param, v)?;
        table.push((v, p.predict(&m, mca.as_ref())?));
    }
    let ids: Vec<u32> = table.first().map(|t| t.1.rows.iter().map(|r| r.id).collect()).unwrap_or_default();
    let mut out = format!("# psim sweep: {} on {}, {} =", p.name, base.name, s.param);
    if mca.is_some() && matches!(s.param.as_str(), "lanes" | "simd_lanes" | "fp_pipes") {
        out = format!("# note: in-core from llvm-mca on this host's assembly: {} moves only the loops it cannot time\n{out}", s.param);
    }
    out.push_str(&format!(" {:?}\n{:>12}", s.values, s.param));
    for id in &ids {
        out.push_str(&format!(" {:>12}", format!("block{id}")));
    }
    out.push_str(&format!(" {:>12}\n", "total"));
    for (v, pr) in &table {
        out.push_str(&format!("{v:>12}"));
        for r in &pr.rows {
            match &r.per_exec {
                Ok(t) => out.push_str(&format!(" {t:>12.4e}")),
                Err(_) => out.push_str(&format!(" {:>12}", "-")),
            }
        }
        out.push_str(&format!(" {:>12.4e}\n", pr.total));
    }
    print!("{out}");
    Ok(())
}

/// `--skeletonize --model psim:M.toml`: each compute block's closed form, keyed by span,
/// and the variables they read (which the skeleton must keep). The block finder runs
/// again with those variables as control until the set settles (keeping a statement
/// can split a block).
///
/// With `core.incore = "llvm-mca"` the program (`native`: as the native compiler sees
/// it) is compiled and its loops timed by llvm-mca; a loop it cannot time keeps the
/// pipe table's time, said on stderr once per block.
pub fn skeleton_model(
    unit: &FileUnit,
    src: &str,
    spec: &str,
    file: usize,
    native: &Source,
) -> Result<xmpc_passes::skel::Options, Result<String, Vec<xmpc_ir::Diag>>> {
    let path = spec.strip_prefix("psim:").ok_or_else(|| Ok(format!("--model {spec}: expected psim:MACHINE.toml")))?;
    let m = Machine::load(Path::new(path)).map_err(Ok)?;
    let mca = m.incore_llvm_mca().then(|| View::new(native, &m));
    let mut vars: Vec<String> = Vec::new();
    let mut opts = xmpc_passes::skel::Options::default();
    // the blocks of the last round (block IDs can change while the set settles)
    let mut said: Vec<BlockModel> = Vec::new();
    for _ in 0..4 {
        let map = blocks::analyse_with(unit, src, &vars).map_err(Err)?;
        let models = xmpc_psim::model_blocks_with(unit, src, &map.blocks, &m, mca.as_ref().map(|v| v as &dyn InCore));
        let mut diags = Vec::new();
        let mut nv = vars.clone();
        opts.model_times.clear();
        said.clear();
        for (b, bm) in map.blocks.iter().filter(|b| b.kind == BlockKind::Compute).zip(&models) {
            if b.time.is_some() {
                continue;
            }
            if !bm.problems.is_empty() {
                diags.extend(bm.diags(file));
                continue;
            }
            said.push(bm.clone());
            let e: &E = &bm.seconds;
            opts.model_times.insert((b.span.start, b.span.end), if unit.lang.is_fortran() { e.to_fortran() } else { e.to_c() });
            for v in bm.vars() {
                if !nv.contains(&v) {
                    nv.push(v);
                }
            }
        }
        if !diags.is_empty() {
            return Err(Err(diags));
        }
        if nv.len() == vars.len() {
            break;
        }
        vars = nv;
    }
    for bm in &said {
        View::warn(native.name, bm);
    }
    opts.model_vars = vars;
    Ok(opts)
}
