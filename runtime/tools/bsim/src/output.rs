//! Outputs: the prediction report (text + JSON), a Chrome/Perfetto trace and a
//! Gantt chart (SVG or PNG: `gantt::write_gantt`). Files are written to a temporary name and renamed.

use serde::{Deserialize, Serialize};
use std::fmt::Write as _;

#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq)]
pub struct Stats {
    /// Virtual time added by BSIM_Add_time.
    pub compute: f64,
    /// Virtual time spent inside LMPI calls.
    pub comm: f64,
    /// Part of `comm` spent waiting for a peer (late sender/receiver, collective skew).
    pub wait: f64,
    pub calls: u64,
    pub sends: u64,
    pub recvs: u64,
    pub colls: u64,
    pub bytes_sent: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvKind {
    Compute,
    Comm,
    User,
}

#[derive(Debug, Clone)]
pub struct Event {
    pub kind: EvKind,
    pub name: &'static str,
    pub t0: f64,
    pub t1: f64,
    /// End of the waiting part of a communication call.
    pub wait_end: f64,
}

/// A message as its receiver saw it: sender (world rank), send time, the time the
/// receive completed, size and tag.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MsgRec {
    pub src: u32,
    pub ts: f64,
    pub tr: f64,
    pub bytes: u64,
    pub tag: i32,
}

pub struct RankResult {
    pub rank: u32,
    pub end: f64,
    pub stats: Stats,
    pub events: Vec<Event>,
    /// Messages this rank received (timeline outputs of the contexts and threads back
    /// ends; empty for the mpi back end).
    pub msgs: Vec<MsgRec>,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct RankReport {
    pub rank: u32,
    pub end: f64,
    #[serde(flatten)]
    pub stats: Stats,
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct Report {
    pub np: u32,
    pub platform: String,
    pub backend: String,
    pub payload: bool,
    /// Predicted run time: the latest rank end.
    pub predicted_time: f64,
    pub slowest_rank: u32,
    pub host_seconds: f64,
    pub ranks: Vec<RankReport>,
}

pub fn build_report(res: &[RankResult], platform: &str, backend: &str, payload: bool, host: f64) -> Report {
    let (mut best, mut who) = (0.0f64, 0u32);
    for r in res {
        if r.end > best {
            best = r.end;
            who = r.rank;
        }
    }
    Report {
        np: res.len() as u32,
        platform: platform.to_string(),
        backend: backend.to_string(),
        payload,
        predicted_time: best,
        slowest_rank: who,
        host_seconds: host,
        ranks: res.iter().map(|r| RankReport { rank: r.rank, end: r.end, stats: r.stats }).collect(),
    }
}

fn mmm(v: impl Iterator<Item = f64> + Clone) -> (f64, f64, f64) {
    let n = v.clone().count().max(1) as f64;
    let min = v.clone().fold(f64::INFINITY, f64::min);
    let max = v.clone().fold(f64::NEG_INFINITY, f64::max);
    (if min.is_finite() { min } else { 0.0 }, v.sum::<f64>() / n, if max.is_finite() { max } else { 0.0 })
}

/// Short summary for the terminal.
pub fn summary(r: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "bsim: {} ranks, platform {}, {} back end{}", r.np, r.platform, r.backend, if r.payload { ", payload mode" } else { "" });
    let _ = writeln!(s, "predicted time: {:.9e} s (rank {})", r.predicted_time, r.slowest_rank);
    let _ = writeln!(s, "{:<10} {:>14} {:>14} {:>14}", "per rank", "min", "mean", "max");
    for (name, f) in
        [("compute", (|x: &RankReport| x.stats.compute) as fn(&RankReport) -> f64), ("comm", |x| x.stats.comm), ("wait", |x| x.stats.wait), ("end", |x| x.end)]
    {
        let (a, b, c) = mmm(r.ranks.iter().map(f));
        let _ = writeln!(s, "{name:<10} {a:>14.6e} {b:>14.6e} {c:>14.6e}");
    }
    let _ = writeln!(s, "host time: {:.3} s", r.host_seconds);
    s
}

/// Full text report: summary plus one line per rank.
pub fn text_report(r: &Report) -> String {
    let mut s = summary(r);
    let _ = writeln!(s, "\n{:>6} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8} {:>6}", "rank", "end", "compute", "comm", "wait", "sends", "recvs", "colls");
    for x in &r.ranks {
        let _ = writeln!(
            s,
            "{:>6} {:>14.6e} {:>14.6e} {:>14.6e} {:>14.6e} {:>8} {:>8} {:>6}",
            x.rank, x.end, x.stats.compute, x.stats.comm, x.stats.wait, x.stats.sends, x.stats.recvs, x.stats.colls
        );
    }
    s
}

/// Chrome trace / Perfetto JSON: one thread per rank, times in microseconds.
pub fn chrome_trace(res: &[RankResult]) -> String {
    let mut ev = vec![];
    for r in res {
        ev.push(serde_json::json!({"ph": "M", "name": "thread_name", "pid": 0, "tid": r.rank, "args": {"name": format!("rank {}", r.rank)}}));
        for e in &r.events {
            let (t0, t1) = (e.t0 * 1e6, e.t1 * 1e6);
            match e.kind {
                EvKind::User => ev.push(serde_json::json!({"ph": "i", "s": "t", "name": e.name, "cat": "user", "pid": 0, "tid": r.rank, "ts": t0})),
                EvKind::Compute => {
                    ev.push(serde_json::json!({"ph": "X", "name": "compute", "cat": "compute", "pid": 0, "tid": r.rank, "ts": t0, "dur": t1 - t0}))
                }
                EvKind::Comm => {
                    ev.push(serde_json::json!({"ph": "X", "name": e.name, "cat": "comm", "pid": 0, "tid": r.rank, "ts": t0, "dur": t1 - t0,
                        "args": {"wait_us": e.wait_end * 1e6 - t0}}));
                }
            }
        }
    }
    // messages as flow arrows (Perfetto/chrome://tracing draw them): "s" on the sender
    // at the send time, "f" on the receiver when its receive completed, bound to the
    // enclosing slices ("bp": "e"); an eager send takes no virtual time, so a
    // zero-length "send" slice gives the arrow its start
    let mut id = 0u64;
    for r in res {
        for m in &r.msgs {
            id += 1;
            let name = format!("{} B, tag {}", m.bytes, m.tag);
            ev.push(serde_json::json!({"ph": "X", "name": "send", "cat": "message", "pid": 0, "tid": m.src, "ts": m.ts * 1e6, "dur": 0.0,
                "args": {"to": r.rank, "bytes": m.bytes, "tag": m.tag}}));
            ev.push(serde_json::json!({"ph": "s", "id": id, "name": name, "cat": "message", "pid": 0, "tid": m.src, "ts": m.ts * 1e6, "bp": "e"}));
            ev.push(serde_json::json!({"ph": "f", "id": id, "name": name, "cat": "message", "pid": 0, "tid": r.rank, "ts": m.tr * 1e6, "bp": "e"}));
        }
    }
    serde_json::to_string(&serde_json::json!({"traceEvents": ev, "displayTimeUnit": "ns"})).unwrap()
}
