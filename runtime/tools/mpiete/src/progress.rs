//! Steps that may take long say what they are doing: a step still running after
//! `XMPC_PROGRESS_AFTER_MS` (default 2000 ms) prints one line naming it, then one every
//! 10 s with the time so far, and the time it took when it ends (stderr). Used by
//! `xmpc mpiete commdata` and by the driver's `--measure` and `--check`.

use std::sync::mpsc;
use std::time::{Duration, Instant};

fn after() -> Duration {
    let ms = std::env::var("XMPC_PROGRESS_AFTER_MS").ok().and_then(|v| v.parse().ok()).unwrap_or(2000);
    Duration::from_millis(ms)
}

/// Run `f`, saying `prefix: what` on stderr when it lasts.
pub fn step<T>(prefix: &str, what: &str, f: impl FnOnce() -> T) -> T {
    let (tx, rx) = mpsc::channel::<()>();
    let start = Instant::now();
    let (p, w) = (prefix.to_string(), what.to_string());
    let first = after();
    let watcher = std::thread::spawn(move || {
        if rx.recv_timeout(first) != Err(mpsc::RecvTimeoutError::Timeout) {
            return false;
        }
        eprintln!("{p}: {w} ...");
        loop {
            match rx.recv_timeout(Duration::from_secs(10)) {
                Err(mpsc::RecvTimeoutError::Timeout) => eprintln!("{p}: {w}: still running ({:.0} s)", start.elapsed().as_secs_f64()),
                _ => return true,
            }
        }
    });
    let r = f();
    let _ = tx.send(());
    if watcher.join().unwrap_or(false) {
        eprintln!("{prefix}: {what}: done in {:.1} s", start.elapsed().as_secs_f64());
    }
    r
}
