//! mpiP-like text report.

use crate::model::{class_label, Profile, SizeStats, NCLASSES};
use std::fmt::Write;

fn ms(ns: f64) -> String {
    format!("{:.3}", ns / 1e6)
}

fn us(ns: f64) -> String {
    format!("{:.3}", ns / 1e3)
}

fn hist_line(out: &mut String, label: &str, s: &SizeStats) {
    if s.count == 0 {
        return;
    }
    let _ = write!(out, "    {label:<5}");
    if s.zero > 0 {
        let _ = write!(out, " 0:{}", s.zero);
    }
    for c in 0..NCLASSES {
        if s.hist[c] > 0 {
            let _ = write!(out, " {}:{}", class_label(c), s.hist[c]);
        }
    }
    out.push('\n');
}

/// Render the report. `top` limits the function tables (and the call sites).
pub fn render(p: &Profile, top: usize) -> String {
    render_with(p, top, top)
}

/// The call-site table (as mpiP's): the `n` sites with the most time.
fn callsites(o: &mut String, p: &Profile, n: usize) {
    let sites = p.callsites();
    let _ = writeln!(o, "@--- Call sites by total time (all ranks; top {n}) ------------------------");
    if sites.is_empty() {
        let _ = writeln!(o, "  none recorded (a profile without call sites, or no MPI call profiled)");
        o.push('\n');
        return;
    }
    let _ = writeln!(
        o,
        "{:>4} {:<32} {:<24} {:<20} {:>10} {:>12} {:>10} {:>7} {:>14} {:>6}",
        "Site", "File:Line", "Function", "Caller", "Calls", "Total(ms)", "Max(us)", "MPI%", "Bytes", "Ranks"
    );
    for (i, s) in sites.iter().take(n).enumerate() {
        let c = &s.site;
        let _ = writeln!(
            o,
            "{:>4} {:<32} {:<24} {:<20} {:>10} {:>12} {:>10} {:>7.2} {:>14} {:>6}",
            i + 1,
            c.location(),
            c.function,
            if c.caller.is_empty() { "?" } else { &c.caller },
            c.calls,
            ms(c.time_total_ns),
            us(c.time_max_ns),
            s.mpi_percent,
            c.bytes,
            s.ranks
        );
    }
    if sites.len() > n {
        let _ = writeln!(o, "  ... {} more call sites", sites.len() - n);
    }
    o.push('\n');
}

/// Render the report: `top` functions in the tables, `nsites` call sites.
pub fn render_with(p: &Profile, top: usize, nsites: usize) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "@ xmpc-prof (MPIPROF) report   format {}", p.format);
    let _ = writeln!(o, "@ Command        : {}", p.command);
    let _ = writeln!(o, "@ MPI library    : {}", p.mpi_library);
    let _ = writeln!(o, "@ Ranks          : {} (profiles from {})", p.world_size, p.ranks.len());
    let partial = p.ranks.iter().filter(|r| r.partial).count();
    if partial > 0 {
        let _ = writeln!(o, "@ PARTIAL        : {partial} rank profile(s) written by a crash handler");
    }
    let _ = writeln!(
        o,
        "@ Timer          : {} ({:.4} ticks/ns); overhead {:.1} ns/call (timer pair {:.1} ns + record {:.1} ns, {} pairs)",
        p.timer.source, p.timer.ticks_per_ns, p.timer.overhead_ns, p.timer.timer_pair_ns, p.timer.record_ns, p.timer.calibration_pairs
    );
    let _ = writeln!(
        o,
        "@ Unreliable     : mean time/call < {:.0} x overhead = {:.1} ns  (marked '!')",
        p.unreliable_factor,
        p.unreliable_factor * p.timer.overhead_ns
    );
    o.push('\n');

    let _ = writeln!(o, "---------------------------------------------------------------------------");
    let _ = writeln!(o, "@--- Time per rank (ms) ----------------------------------------------------");
    let _ = writeln!(o, "{:>6} {:>14} {:>14} {:>8}  host", "Rank", "Wall", "MPI", "MPI%");
    for r in &p.ranks {
        let pct = if r.wall_ns > 0.0 { 100.0 * r.mpi_ns / r.wall_ns } else { 0.0 };
        let _ = writeln!(o, "{:>6} {:>14} {:>14} {:>8.2}  {}{}", r.rank, ms(r.wall_ns), ms(r.mpi_ns), pct, r.host, if r.partial { " (partial)" } else { "" });
    }
    o.push('\n');

    let _ = writeln!(o, "@--- Functions by total time (all ranks) ----------------------------------");
    let _ = writeln!(
        o,
        "{:<24} {:>10} {:>12} {:>10} {:>10} {:>10} {:>7} {:>14} {:>14}",
        "Function", "Calls", "Total(ms)", "Mean(us)", "Min(us)", "Max(us)", "MPI%", "SentBytes", "RecvBytes"
    );
    for f in p.summary.iter().take(top) {
        let _ = writeln!(
            o,
            "{:<24} {:>10} {:>12} {:>10} {:>10} {:>10} {:>7.2} {:>14} {:>14}",
            format!("{}{}", if f.unreliable { "!" } else { "" }, f.name),
            f.calls,
            ms(f.time_total_ns),
            us(f.time_mean_ns),
            us(f.time_min_ns),
            us(f.time_max_ns),
            f.mpi_percent,
            f.send.total,
            f.recv.total
        );
    }
    o.push('\n');

    callsites(&mut o, p, nsites);

    let _ = writeln!(o, "@--- Imbalance: per-rank total time (ms) ----------------------------------");
    let _ = writeln!(o, "{:<24} {:>12} {:>12} {:>12} {:>10}", "Function", "Min", "Mean", "Max", "Max/Mean");
    for f in p.summary.iter().take(top) {
        let ratio = if f.rank_time_mean_ns > 0.0 { f.rank_time_max_ns / f.rank_time_mean_ns } else { 0.0 };
        let _ = writeln!(o, "{:<24} {:>12} {:>12} {:>12} {:>10.2}", f.name, ms(f.rank_time_min_ns), ms(f.rank_time_mean_ns), ms(f.rank_time_max_ns), ratio);
    }
    o.push('\n');

    let _ = writeln!(o, "@--- Message sizes (bytes; all ranks) ------------------------------------");
    let _ = writeln!(o, "{:<24} {:<5} {:>10} {:>14} {:>12} {:>12} {:>14}", "Function", "Dir", "Count", "Total", "Min", "Max", "Mean");
    for f in p.summary.iter().take(top) {
        for (d, s) in [("send", &f.send), ("recv", &f.recv)] {
            if s.count > 0 {
                let _ = writeln!(o, "{:<24} {:<5} {:>10} {:>14} {:>12} {:>12} {:>14.1}", f.name, d, s.count, s.total, s.min, s.max, s.mean());
            }
        }
    }
    o.push('\n');
    let _ = writeln!(o, "@--- Size histograms (class lower bound: calls; class i = [2^i, 2^(i+1)))");
    for f in p.summary.iter().take(top) {
        if f.send.count + f.recv.count == 0 {
            continue;
        }
        let _ = writeln!(o, "  {}", f.name);
        hist_line(&mut o, "send", &f.send);
        hist_line(&mut o, "recv", &f.recv);
    }
    o.push('\n');

    let _ = writeln!(o, "@--- Point-to-point peer matrix (sender world rank -> receiver) ----------");
    let mut pairs: Vec<(usize, usize, u64, u64)> = p.send_pairs().into_iter().map(|((s, d), (c, b))| (s, d, c, b)).collect();
    pairs.sort_by(|a, b| b.3.cmp(&a.3).then(b.2.cmp(&a.2)));
    let sent_c: u64 = p.ranks.iter().flat_map(|r| &r.peers).map(|x| x.send_count).sum();
    let sent_b: u64 = p.ranks.iter().flat_map(|r| &r.peers).map(|x| x.send_bytes).sum();
    let recv_c: u64 = p.ranks.iter().flat_map(|r| &r.peers).map(|x| x.recv_count).sum();
    let recv_b: u64 = p.ranks.iter().flat_map(|r| &r.peers).map(|x| x.recv_bytes).sum();
    let _ = writeln!(o, "  pairs with traffic: {}   sends: {} msgs / {} B   receives: {} msgs / {} B", pairs.len(), sent_c, sent_b, recv_c, recv_b);
    let _ = writeln!(o, "{:>8} {:>8} {:>12} {:>16}", "Src", "Dst", "Msgs", "Bytes");
    for (s, d, c, b) in pairs.iter().take(top) {
        let _ = writeln!(o, "{s:>8} {d:>8} {c:>12} {b:>16}");
    }
    if pairs.len() > top {
        let _ = writeln!(o, "  ... {} more pairs", pairs.len() - top);
    }
    o
}
