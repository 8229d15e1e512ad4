//! Program base data: the binary per-rank trace `trace.<rank>.bin` written by
//! `libxmpc_mpiete.a` in trace mode (format in docs/mpiete.md). Read and
//! written as a stream with a fixed buffer, so long runs fit.
//!
//! Header (24 bytes): magic `XMPETRC1`, u32 version (1), u32 rank, u32 ranks,
//! u32 flags (0). Records, little-endian, a kind byte then:
//! - 1 BLOCK: u32 block id
//! - 2 ISEND / 3 IRECV: u32 block id, u32 request, i32 peer (world rank, -1 =
//!   any), i32 tag (-1 = any), u32 communicator id, u64 bytes
//! - 4 WAIT: u32 block id, u32 request, i32 source, i32 tag, u64 bytes (the
//!   matched message for a receive; -1, -1, 0 for a send)
//! - 5 REGION: u32 0 = begin, 1 = end of the predicted region

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

pub const MAGIC: &[u8; 8] = b"XMPETRC1";
const BUF: usize = 64 * 1024;
const MAX_REC: usize = 29;

/// One record of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    Block(u32),
    Isend {
        id: u32,
        req: u32,
        peer: i32,
        tag: i32,
        comm: u32,
        bytes: u64,
    },
    Irecv {
        id: u32,
        req: u32,
        peer: i32,
        tag: i32,
        comm: u32,
        bytes: u64,
    },
    Wait {
        id: u32,
        req: u32,
        src: i32,
        tag: i32,
        bytes: u64,
    },
    /// Start (`false`) or end (`true`) of the predicted region.
    Region(bool),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub rank: u32,
    pub ranks: u32,
}

/// Streaming reader over one rank's trace.
pub struct TraceReader<R: Read = File> {
    src: R,
    buf: Vec<u8>,
    pos: usize,
    len: usize,
    eof: bool,
    /// Bytes consumed before `buf[0]` (for error offsets).
    base: u64,
    pub header: Header,
    name: String,
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}
fn le64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b[..8].try_into().unwrap())
}

impl TraceReader<File> {
    pub fn open(path: &Path) -> Result<Self, String> {
        let f = File::open(path).map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        TraceReader::new(f, path.display().to_string())
    }
}

impl<R: Read> TraceReader<R> {
    pub fn new(src: R, name: String) -> Result<Self, String> {
        let mut r = TraceReader { src, buf: vec![0; BUF], pos: 0, len: 0, eof: false, base: 0, header: Header { rank: 0, ranks: 0 }, name };
        r.fill().map_err(|e| format!("{}: {e}", r.name))?;
        if r.len < 24 || &r.buf[..8] != MAGIC {
            return Err(format!("{}: not an MPIETE trace (bad magic; expected a trace.<rank>.bin written with MPIETE_MODE=trace)", r.name));
        }
        let ver = le32(&r.buf[8..]);
        if ver != 1 {
            return Err(format!("{}: trace version {ver} is not supported (expected 1)", r.name));
        }
        r.header = Header { rank: le32(&r.buf[12..]), ranks: le32(&r.buf[16..]) };
        r.pos = 24;
        Ok(r)
    }

    /// Moves the unread tail to the front and reads until the buffer is full or
    /// the file ends.
    fn fill(&mut self) -> io::Result<()> {
        self.buf.copy_within(self.pos..self.len, 0);
        self.base += self.pos as u64;
        self.len -= self.pos;
        self.pos = 0;
        while !self.eof && self.len < self.buf.len() {
            match self.src.read(&mut self.buf[self.len..]) {
                Ok(0) => self.eof = true,
                Ok(n) => self.len += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The next record, `None` at the end.
    #[inline]
    pub fn next_event(&mut self) -> Result<Option<Event>, String> {
        if self.len - self.pos < MAX_REC && !self.eof {
            self.fill().map_err(|e| format!("{}: {e}", self.name))?;
        }
        let avail = self.len - self.pos;
        if avail == 0 {
            return Ok(None);
        }
        let b = &self.buf[self.pos..self.len];
        let need = match b[0] {
            1 | 5 => 5,
            2 | 3 => 29,
            4 => 25,
            k => return Err(format!("{}: offset {}: unknown record kind {k} (corrupt trace)", self.name, self.base + self.pos as u64)),
        };
        if avail < need {
            return Err(format!("{}: offset {}: trace ends inside a record (truncated file?)", self.name, self.base + self.pos as u64));
        }
        let ev = match b[0] {
            1 => Event::Block(le32(&b[1..])),
            5 => Event::Region(le32(&b[1..]) != 0),
            2 | 3 => {
                let (id, req, peer, tag, comm, bytes) =
                    (le32(&b[1..]), le32(&b[5..]), le32(&b[9..]) as i32, le32(&b[13..]) as i32, le32(&b[17..]), le64(&b[21..]));
                if b[0] == 2 {
                    Event::Isend { id, req, peer, tag, comm, bytes }
                } else {
                    Event::Irecv { id, req, peer, tag, comm, bytes }
                }
            }
            _ => Event::Wait { id: le32(&b[1..]), req: le32(&b[5..]), src: le32(&b[9..]) as i32, tag: le32(&b[13..]) as i32, bytes: le64(&b[17..]) },
        };
        self.pos += need;
        Ok(Some(ev))
    }
}

/// Writes a trace (the runtime's format; used by tests, benches and tools).
pub struct TraceWriter<W: Write> {
    out: io::BufWriter<W>,
}

impl<W: Write> TraceWriter<W> {
    pub fn new(w: W, rank: u32, ranks: u32) -> io::Result<Self> {
        let mut out = io::BufWriter::with_capacity(BUF, w);
        out.write_all(MAGIC)?;
        for v in [1u32, rank, ranks, 0] {
            out.write_all(&v.to_le_bytes())?;
        }
        Ok(TraceWriter { out })
    }

    pub fn event(&mut self, e: &Event) -> io::Result<()> {
        let mut b = [0u8; MAX_REC];
        let n = match *e {
            Event::Block(id) => {
                b[0] = 1;
                b[1..5].copy_from_slice(&id.to_le_bytes());
                5
            }
            Event::Region(end) => {
                b[0] = 5;
                b[1..5].copy_from_slice(&(end as u32).to_le_bytes());
                5
            }
            Event::Isend { id, req, peer, tag, comm, bytes } | Event::Irecv { id, req, peer, tag, comm, bytes } => {
                b[0] = if matches!(e, Event::Isend { .. }) { 2 } else { 3 };
                b[1..5].copy_from_slice(&id.to_le_bytes());
                b[5..9].copy_from_slice(&req.to_le_bytes());
                b[9..13].copy_from_slice(&peer.to_le_bytes());
                b[13..17].copy_from_slice(&tag.to_le_bytes());
                b[17..21].copy_from_slice(&comm.to_le_bytes());
                b[21..29].copy_from_slice(&bytes.to_le_bytes());
                29
            }
            Event::Wait { id, req, src, tag, bytes } => {
                b[0] = 4;
                b[1..5].copy_from_slice(&id.to_le_bytes());
                b[5..9].copy_from_slice(&req.to_le_bytes());
                b[9..13].copy_from_slice(&src.to_le_bytes());
                b[13..17].copy_from_slice(&tag.to_le_bytes());
                b[17..25].copy_from_slice(&bytes.to_le_bytes());
                25
            }
        };
        self.out.write_all(&b[..n])
    }

    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        self.out.into_inner().map_err(|e| e.into_error())
    }
}

/// The trace files of a directory, in rank order (`trace.0.bin` ...); every
/// rank from 0 to the header's rank count must be there.
pub fn trace_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot read the trace directory '{}': {e}", dir.display()))?;
    let mut ranks: Vec<(u32, PathBuf)> = Vec::new();
    for ent in rd.flatten() {
        let name = ent.file_name().to_string_lossy().to_string();
        if let Some(r) = name.strip_prefix("trace.").and_then(|s| s.strip_suffix(".bin")).and_then(|s| s.parse::<u32>().ok()) {
            ranks.push((r, ent.path()));
        }
    }
    if ranks.is_empty() {
        return Err(format!("'{}' holds no trace.<rank>.bin files (run the program with MPIETE_MODE=trace MPIETE_OUT={})", dir.display(), dir.display()));
    }
    ranks.sort();
    for (i, (r, _)) in ranks.iter().enumerate() {
        if *r as usize != i {
            return Err(format!("'{}': trace.{i}.bin is missing", dir.display()));
        }
    }
    Ok(ranks.into_iter().map(|(_, p)| p).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let evs = vec![
            Event::Block(3),
            Event::Isend { id: 4, req: 1, peer: 1, tag: 7, comm: 0, bytes: 800 },
            Event::Irecv { id: 5, req: 2, peer: -1, tag: -1, comm: 1, bytes: 1 << 40 },
            Event::Wait { id: 6, req: 2, src: 1, tag: 7, bytes: 800 },
            Event::Wait { id: 6, req: 1, src: -1, tag: -1, bytes: 0 },
            Event::Region(false),
            Event::Region(true),
        ];
        let mut w = TraceWriter::new(Vec::new(), 2, 4).unwrap();
        // enough records to cross the 64 KiB buffer several times
        for _ in 0..10_000 {
            for e in &evs {
                w.event(e).unwrap();
            }
        }
        let bytes = w.finish().unwrap();
        let mut r = TraceReader::new(&bytes[..], "t".into()).unwrap();
        assert_eq!(r.header, Header { rank: 2, ranks: 4 });
        for _ in 0..10_000 {
            for e in &evs {
                assert_eq!(r.next_event().unwrap().as_ref(), Some(e));
            }
        }
        assert_eq!(r.next_event().unwrap(), None);
    }

    #[test]
    fn truncated_and_corrupt() {
        let mut w = TraceWriter::new(Vec::new(), 0, 1).unwrap();
        w.event(&Event::Isend { id: 1, req: 1, peer: 0, tag: 0, comm: 0, bytes: 8 }).unwrap();
        let bytes = w.finish().unwrap();
        let mut r = TraceReader::new(&bytes[..bytes.len() - 3], "t".into()).unwrap();
        assert!(r.next_event().unwrap_err().contains("truncated"));
        let mut bad = bytes.clone();
        bad[24] = 9;
        let mut r = TraceReader::new(&bad[..], "t".into()).unwrap();
        assert!(r.next_event().unwrap_err().contains("unknown record kind 9"));
        assert!(TraceReader::new(&b"hello world, not a trace"[..], "t".into()).is_err());
    }
}
