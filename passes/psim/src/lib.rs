//! PSIM: compute times of xmpc's compute blocks on a described processor
//! (docs/psim.md). Per block: loop nests and per-iteration counts from the IR
//! (`count`), traffic per cache level from layer conditions and the ECM / roofline
//! combination (`model`), all as closed forms in the program's variables (`sym`).

pub mod count;
pub mod env;
pub mod mca;
pub mod model;
pub mod sym;
pub mod text;

pub use xmpc_psim_machine::Machine;

use xmpc_ir::{diag, Diag, FileUnit, Span, Stmt};
use xmpc_passes::blocks::{Block, BlockKind};

use count::{Counter, Nest};
use model::{Mca, NestModel};
use std::ops::{Add, Div, Mul};
use sym::E;

/// The model of one compute block.
#[derive(Clone, Debug)]
pub struct BlockModel {
    pub id: u32,
    pub span: Span,
    pub nests: Vec<(Nest, NestModel)>,
    /// Seconds per execution (ECM).
    pub seconds: E,
    /// Seconds per execution (roofline bound).
    pub roofline: E,
    pub notes: Vec<String>,
    /// With `core.incore = "llvm-mca"`: the loops llvm-mca could not time and why
    /// (`line L: reason`); their in-core time is the pipe table's.
    pub fallbacks: Vec<String>,
    /// What the model could not read (located); the block has no closed form then.
    pub problems: Vec<(Span, String)>,
}

impl BlockModel {
    /// Program variables the closed form needs (not [`sym::NODE_RANKS`], which the
    /// prediction or BSIM supplies).
    pub fn vars(&self) -> Vec<String> {
        self.seconds.vars().into_iter().filter(|v| v != sym::NODE_RANKS).collect()
    }
    /// A located error for each problem.
    pub fn diags(&self, file: usize) -> Vec<Diag> {
        self.problems
            .iter()
            .map(|(sp, m)| {
                diag::error("XMP0850", format!("psim cannot model compute block {}", self.id), file, *sp, m.clone())
                    .with_notes(vec!["help: mark the block `compute time(EXPR)` to give its time by hand".into()])
            })
            .collect()
    }
}

/// Statements of the block (the IR nodes whose spans the block lists).
fn block_stmts<'a>(unit: &'a FileUnit, b: &Block) -> Vec<&'a Stmt> {
    let mut out: Vec<&'a Stmt> = Vec::new();
    for f in unit.functions() {
        if !(f.span.start <= b.span.start && b.span.end <= f.span.end) {
            continue;
        }
        for s in &f.body {
            s.walk(&mut |x: &'a Stmt| {
                if b.stmts.contains(&x.span) && !out.iter().any(|o| o.span == x.span) {
                    out.push(x);
                }
            });
        }
    }
    out.sort_by_key(|s| s.span.start);
    out
}

/// In-core times from outside the pipe table (`core.incore = "llvm-mca"`): the timing
/// of the innermost loop holding source line `line` (1-based, of the text modelled), or
/// why there is none (the pipe table is used then).
pub trait InCore {
    fn time(&self, line: u32) -> Result<Mca, String>;
}

/// Models every compute block of `blocks`.
pub fn model_blocks(unit: &FileUnit, src: &str, blocks: &[Block], m: &Machine) -> Vec<BlockModel> {
    model_blocks_with(unit, src, blocks, m, None)
}

/// Models every compute block of `blocks`, in-core times from `incore` when the machine
/// asks for llvm-mca.
pub fn model_blocks_with(unit: &FileUnit, src: &str, blocks: &[Block], m: &Machine, incore: Option<&dyn InCore>) -> Vec<BlockModel> {
    blocks.iter().filter(|b| b.kind == BlockKind::Compute).map(|b| model_block_with(unit, src, b, m, incore)).collect()
}

pub fn model_block(unit: &FileUnit, src: &str, b: &Block, m: &Machine) -> BlockModel {
    model_block_with(unit, src, b, m, None)
}

/// One compute block. With `core.incore = "llvm-mca"`, each nest with a loop takes its
/// in-core time from `incore` (the nest's first statement's line picks the loop); where
/// there is none or it cannot time the loop, the pipe table's, listed in `fallbacks`.
/// Nests without a loop (straight-line statements) keep the table's: no loop to time.
pub fn model_block_with(unit: &FileUnit, src: &str, b: &Block, m: &Machine, incore: Option<&dyn InCore>) -> BlockModel {
    let stmts = block_stmts(unit, b);
    let mut c = Counter::new(unit, src, &m.core);
    let nests = c.block(&b.func, &stmts);
    let hz = m.clock_ghz * 1e9;
    let mut secs = E::num(0.0);
    let mut roof = E::num(0.0);
    let mut out = Vec::new();
    let mut fallbacks = Vec::new();
    for n in nests {
        let mca = if m.incore_llvm_mca() && !n.loops.is_empty() {
            let line = src[..n.span.start.min(src.len())].matches('\n').count() as u32 + 1;
            match incore.map_or_else(|| Err("llvm-mca was not run".to_string()), |i| i.time(line)) {
                Ok(x) => Some(x),
                Err(e) => {
                    fallbacks.push(format!("line {line}: {e}"));
                    None
                }
            }
        } else {
            None
        };
        let nm = model::nest_with(&n, m, mca);
        secs = E::add(secs, E::div(E::mul(nm.iterations.clone(), nm.ecm.clone()), E::num(hz)));
        roof = E::add(roof, E::div(E::mul(nm.iterations.clone(), nm.roofline.clone()), E::num(hz)));
        out.push((n, nm));
    }
    let mut problems: Vec<(Span, String)> = c.problems.into_iter().map(|p| (p.span, p.msg)).collect();
    if let Some(v) = secs.vars().into_iter().find(|v| v.contains('.')) {
        problems.push((b.span, format!("the time depends on `{v}`, a variable local to a called function")));
    }
    let mut notes = c.notes;
    notes.sort();
    notes.dedup();
    BlockModel { id: b.id, span: b.span, nests: out, seconds: secs, roofline: roof, notes, fallbacks, problems }
}

/// How many times block `b` runs: the product of the trip counts of its enclosing
/// loops (None when one of them is not countable, e.g. a `while`).
pub fn executions(unit: &FileUnit, src: &str, b: &Block, m: &Machine) -> Option<E> {
    let mut c = Counter::new(unit, src, &m.core);
    let mut t = E::num(1.0);
    for l in &b.loops {
        let mut found = None;
        for f in unit.functions() {
            for s in &f.body {
                s.walk(&mut |x| {
                    if x.span == *l && found.is_none() {
                        found = Some(x);
                    }
                });
            }
        }
        t = E::mul(t, c.trip_of(&b.func, found?)?);
    }
    Some(t)
}
