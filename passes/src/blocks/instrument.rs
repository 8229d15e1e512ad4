//! `--instrument=compute|trace`: calls into libxmpc_mpiete around blocks.
//! compute: `mpiete_block_begin(id)` / `mpiete_block_end(id)` around each compute
//! block (a whole loop when the block is one); trace: `mpiete_mark(id)` before every
//! block.

use super::{text, Block, BlockKind};
use xmpc_ir::{diag, Diag, Edit, FileUnit, Lang, Span};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Instrument {
    Compute,
    Trace,
}

/// Edits instrumenting `blocks` (from `find` on the same text).
pub fn instrument(unit: &FileUnit, src: &str, blocks: &[Block], mode: Instrument) -> Result<Vec<Edit>, Vec<Diag>> {
    instrument_except(unit, src, blocks, mode, &[])
}

/// The same, leaving out the blocks inside `skip` (code `simplify` comments out).
pub fn instrument_except(unit: &FileUnit, src: &str, blocks: &[Block], mode: Instrument, skip: &[Span]) -> Result<Vec<Edit>, Vec<Diag>> {
    let mut edits = Vec::new();
    let mut diags = Vec::new();
    let c = unit.lang == Lang::C;
    if c {
        edits.push(Edit::insert(
            0,
            "/* xmpc --instrument: libxmpc_mpiete entry points */\nvoid mpiete_block_begin(int); void mpiete_block_end(int); void mpiete_mark(int);\n",
        ));
    }
    let call = |f: &str, id: u32| if c { format!("{f}({id}); ") } else { format!("call {f}({id})") };
    for b in blocks {
        if skip.iter().any(|s| b.span.start >= s.start && b.span.end <= s.end) {
            continue;
        }
        let (before, after) = match mode {
            Instrument::Compute if b.kind == BlockKind::Compute => (call("mpiete_block_begin", b.id), call("mpiete_block_end", b.id)),
            Instrument::Compute => continue,
            Instrument::Trace => (call("mpiete_mark", b.id), String::new()),
        };
        let after = if c && !after.is_empty() { format!(" {}", after.trim_end()) } else { after };
        match text::wrap(src, unit.lang, b.span, &before, &after) {
            Ok(e) => edits.extend(e),
            Err(msg) => diags.push(diag::error("XMP0810", format!("cannot instrument block {}: it {msg}", b.id), unit.file, b.span, format!("block {}", b.id))),
        }
    }
    if diags.is_empty() {
        Ok(edits)
    } else {
        Err(diags)
    }
}
