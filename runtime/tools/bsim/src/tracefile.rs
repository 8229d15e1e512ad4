//! `BSIM_TRACE=DIR` (`xmpc bsim run --trace DIR`): one text file of communication
//! events per rank, `DIR/rank<N>.txt`, written under the output policy of every xmpc
//! tool (docs/diagnostics.md, `xmpc-outfile`): into a temporary file beside the target
//! and renamed into place when the run is complete; a target that is a symbolic link,
//! FIFO, device or directory is refused (never written through); a failure names the
//! rank and the file and makes the run fail (exit 1), never panics a rank thread.

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The temporary files of traces not yet put in place: a run that ends by `exit`
/// (a deadlock report, `LMPI_Abort`, the program's own `exit`) removes them at exit,
/// so it leaves no trace file, complete or not.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static AT_EXIT: std::sync::Once = std::sync::Once::new();

extern "C" fn discard_pending() {
    if let Ok(v) = PENDING.try_lock() {
        for p in v.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// One rank's trace being written.
pub struct TraceFile {
    w: BufWriter<std::fs::File>,
    pending: xmpc_outfile::Pending,
    path: PathBuf,
    rank: u32,
    /// The first write error (the run goes on; `finish` reports it).
    failed: Option<String>,
}

/// `DIR/rank<N>.txt`.
pub fn path(dir: &Path, rank: u32) -> PathBuf {
    dir.join(format!("rank{rank}.txt"))
}

impl TraceFile {
    /// Starts rank `rank`'s trace in `dir`; the error names the rank and the file.
    pub fn create(dir: &Path, rank: u32) -> Result<TraceFile, String> {
        let path = path(dir, rank);
        let what = |e: String| format!("rank {rank}: trace file: {e}");
        let mut pending = xmpc_outfile::Pending::new(&path, false).map_err(what)?;
        AT_EXIT.call_once(|| {
            // SAFETY: registers a plain extern "C" function without arguments.
            unsafe { libc::atexit(discard_pending) };
        });
        PENDING.lock().unwrap_or_else(|e| e.into_inner()).push(pending.path().to_path_buf());
        let f = pending.file().try_clone().map_err(|e| what(format!("'{}': {e}", path.display())))?;
        Ok(TraceFile { w: BufWriter::new(f), pending, path, rank, failed: None })
    }

    pub fn line(&mut self, text: &str) {
        if self.failed.is_none() {
            if let Err(e) = writeln!(self.w, "{text}") {
                self.failed = Some(format!("rank {}: cannot write '{}': {e}", self.rank, self.path.display()));
            }
        }
    }

    /// Flushes the trace; the file is put in place by [`commit_all`].
    pub fn finish(mut self) -> Result<xmpc_outfile::Pending, String> {
        if let Some(e) = self.failed.take() {
            return Err(e);
        }
        self.w.flush().map_err(|e| format!("rank {}: cannot write '{}': {e}", self.rank, self.path.display()))?;
        Ok(self.pending)
    }
}

/// The traces of the ranks that have ended in this process (either back end), put in
/// place together by [`commit_finished`].
static FINISHED: Mutex<Vec<Result<xmpc_outfile::Pending, String>>> = Mutex::new(Vec::new());

/// Keeps rank's finished trace (or the error that ended it) for [`commit_finished`].
pub fn finished(t: Result<xmpc_outfile::Pending, String>) {
    FINISHED.lock().unwrap_or_else(|e| e.into_inner()).push(t);
}

/// [`commit_all`] of every trace kept by [`finished`].
pub fn commit_finished() -> Result<(), String> {
    let v = std::mem::take(&mut *FINISHED.lock().unwrap_or_else(|e| e.into_inner()));
    commit_all(v)
}

/// Puts the finished traces in place, all or none: any error (a rank that could not
/// create or write its file) leaves no trace file and is returned, one line per rank.
pub fn commit_all(traces: Vec<Result<xmpc_outfile::Pending, String>>) -> Result<(), String> {
    let errors: Vec<String> = traces.iter().filter_map(|t| t.as_ref().err().cloned()).collect();
    if !errors.is_empty() {
        // dropping the pending files removes them
        return Err(errors.join("\n"));
    }
    for t in traces.into_iter().flatten() {
        t.commit()?;
    }
    // every trace of this process is in place (one process holds all ranks' traces,
    // or, under the mpi back end, its own)
    PENDING.lock().unwrap_or_else(|e| e.into_inner()).clear();
    Ok(())
}
