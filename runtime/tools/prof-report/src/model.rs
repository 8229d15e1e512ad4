//! The profile data model: what `libxmpc_prof` writes at `MPI_Finalize`
//! and what `xmpc prof report` reads back. Serialized as JSON with serde.

use serde::{Deserialize, Serialize};

/// Number of size classes: 1, 2, 4, …, 4 Mi, ≥ 8 Mi (paper §3.3).
pub const NCLASSES: usize = 24;

/// Format tag written into every profile.
pub const FORMAT: &str = "xmpc-prof/1";

/// Size class of a non-zero byte count: class `i` holds `[2^i, 2^(i+1))`,
/// the last class (23) holds everything `>= 8 MiB`. Zero-byte messages are
/// not in any class; they are counted in [`SizeStats::zero`].
#[inline(always)]
pub fn size_class(bytes: u64) -> usize {
    debug_assert!(bytes > 0);
    let c = 63 - bytes.leading_zeros() as usize;
    if c > NCLASSES - 1 {
        NCLASSES - 1
    } else {
        c
    }
}

/// Lower bound (bytes) of a size class, for labels.
pub fn class_label(c: usize) -> String {
    let b = 1u64 << c;
    let s = if b >= 1 << 20 {
        format!("{}M", b >> 20)
    } else if b >= 1 << 10 {
        format!("{}K", b >> 10)
    } else {
        format!("{b}")
    };
    if c == NCLASSES - 1 {
        format!(">={s}")
    } else {
        s
    }
}

/// Message-size statistics of one direction (send or receive) of one function.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct SizeStats {
    /// Number of calls that carried a size in this direction.
    pub count: u64,
    /// Total bytes.
    pub total: u64,
    /// Smallest size (0 when `count == 0`).
    pub min: u64,
    /// Largest size.
    pub max: u64,
    /// Calls with 0 bytes (not in `hist`).
    pub zero: u64,
    /// Power-of-two histogram, see [`size_class`].
    pub hist: [u64; NCLASSES],
}

impl SizeStats {
    #[inline(always)]
    pub fn add(&mut self, bytes: u64) {
        if self.count == 0 || bytes < self.min {
            self.min = bytes;
        }
        if bytes > self.max {
            self.max = bytes;
        }
        self.count += 1;
        self.total += bytes;
        if bytes == 0 {
            self.zero += 1;
        } else {
            self.hist[size_class(bytes)] += 1;
        }
    }

    pub fn merge(&mut self, o: &SizeStats) {
        if o.count == 0 {
            return;
        }
        if self.count == 0 || o.min < self.min {
            self.min = o.min;
        }
        self.max = self.max.max(o.max);
        self.count += o.count;
        self.total += o.total;
        self.zero += o.zero;
        for (a, b) in self.hist.iter_mut().zip(o.hist.iter()) {
            *a += *b;
        }
    }

    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.total as f64 / self.count as f64
        }
    }
}

/// Aggregates of one MPI function in one process.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct FuncStats {
    pub name: String,
    pub calls: u64,
    pub time_total_ns: f64,
    pub time_min_ns: f64,
    pub time_max_ns: f64,
    /// Calls shorter than `unreliable_factor` x overhead.
    #[serde(default)]
    pub short_calls: u64,
    /// Bytes sent (point-to-point sends; for collectives the send side;
    /// single-buffer collectives such as Bcast/Allreduce record here).
    pub send: SizeStats,
    /// Bytes received (Recv: the actual size from the status; collectives
    /// with a separate receive buffer: the bytes received by this process).
    pub recv: SizeStats,
}

impl FuncStats {
    pub fn time_mean_ns(&self) -> f64 {
        if self.calls == 0 {
            0.0
        } else {
            self.time_total_ns / self.calls as f64
        }
    }
}

/// Point-to-point traffic between this process and one peer (world rank).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct PeerStats {
    /// World rank of the peer; -1 = `MPI_ANY_SOURCE` on a non-blocking
    /// receive (unknown when posted).
    pub peer: i64,
    pub send_count: u64,
    pub send_bytes: u64,
    pub recv_count: u64,
    pub recv_bytes: u64,
}

/// One MPI call site of one process (as mpiP): the source line of the call,
/// resolved from its return address through the program's debug information.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct CallSite {
    /// The MPI function called there.
    pub function: String,
    /// Source file of the call ("" without debug information: see `address`).
    pub file: String,
    /// Source line (0 = unknown).
    pub line: u32,
    /// The function that makes the call ("" when unknown).
    #[serde(default)]
    pub caller: String,
    /// The return address, only when no line is known.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub address: String,
    pub calls: u64,
    pub time_total_ns: f64,
    pub time_max_ns: f64,
    /// Bytes sent plus received at this site.
    pub bytes: u64,
}

impl CallSite {
    /// `file:line` (the basename of the file), or the address.
    pub fn location(&self) -> String {
        if self.file.is_empty() {
            return if self.address.is_empty() { "??:0".into() } else { format!("??:0 ({})", self.address) };
        }
        let base = std::path::Path::new(&self.file).file_name().map(|b| b.to_string_lossy().into_owned()).unwrap_or_else(|| self.file.clone());
        format!("{base}:{}", self.line)
    }
}

/// A call site summed over the ranks that have it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SiteSummary {
    pub site: CallSite,
    /// Number of ranks with calls at this site.
    pub ranks: u64,
    /// Share of all MPI time (percent).
    pub mpi_percent: f64,
}

/// One process's profile.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct RankProfile {
    pub rank: i64,
    pub host: String,
    pub pid: u32,
    /// Wall time from the end of `MPI_Init` to the start of `MPI_Finalize`.
    pub wall_ns: f64,
    /// Sum of the recorded time of all functions.
    pub mpi_ns: f64,
    /// True when written by a crash handler (incomplete).
    #[serde(default)]
    pub partial: bool,
    pub functions: Vec<FuncStats>,
    pub peers: Vec<PeerStats>,
    /// Per call site, by time (empty in profiles written before call sites, and in
    /// partial ones).
    #[serde(default)]
    pub callsites: Vec<CallSite>,
}

/// Timer and overhead calibration.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct TimerInfo {
    /// "tsc" (invariant time-stamp counter) or "clock_gettime".
    pub source: String,
    pub ticks_per_ns: f64,
    /// Number of timer pairs used for the calibration.
    pub calibration_pairs: u64,
    /// Median cost of a pair of timer reads (ns).
    pub timer_pair_ns: f64,
    /// Mean cost of one bookkeeping update (ns).
    pub record_ns: f64,
    /// Per-call overhead = timer pair + record (ns); the reference for the
    /// "unreliable" flag.
    pub overhead_ns: f64,
}

/// Whole-job aggregate of one function (computed from the ranks).
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct FuncSummary {
    pub name: String,
    pub calls: u64,
    pub time_total_ns: f64,
    pub time_mean_ns: f64,
    pub time_min_ns: f64,
    pub time_max_ns: f64,
    /// Per-rank total time: min / max / mean across ranks (imbalance).
    pub rank_time_min_ns: f64,
    pub rank_time_max_ns: f64,
    pub rank_time_mean_ns: f64,
    /// Calls shorter than `unreliable_factor` x overhead (all ranks).
    #[serde(default)]
    pub short_calls: u64,
    pub send: SizeStats,
    pub recv: SizeStats,
    /// Share of all MPI time (percent).
    pub mpi_percent: f64,
    /// Mean time per call within `unreliable_factor` × overhead, or most
    /// calls (the median) that short: timer overhead dominates.
    pub unreliable: bool,
}

/// The largest `world_size` a profile may claim (2^24 ranks, beyond any MPI job).
pub const MAX_WORLD: i64 = 1 << 24;

/// The job profile written by rank 0.
#[derive(Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
pub struct Profile {
    pub format: String,
    pub mpi_library: String,
    pub command: String,
    pub world_size: i64,
    pub timer: TimerInfo,
    pub unreliable_factor: f64,
    pub ranks: Vec<RankProfile>,
    /// Derived from `ranks` by [`Profile::summarize`]; re-derived on load.
    #[serde(default)]
    pub summary: Vec<FuncSummary>,
}

impl Profile {
    /// (Re)compute `summary` from `ranks`, sorted by total time, descending.
    pub fn summarize(&mut self) {
        use std::collections::BTreeMap;
        let nranks = self.ranks.len().max(1) as f64;
        let mut by: BTreeMap<String, (FuncSummary, Vec<f64>)> = BTreeMap::new();
        for r in &self.ranks {
            for f in &r.functions {
                let e = by
                    .entry(f.name.clone())
                    .or_insert_with(|| (FuncSummary { name: f.name.clone(), time_min_ns: f64::INFINITY, ..Default::default() }, Vec::new()));
                let s = &mut e.0;
                s.calls += f.calls;
                s.short_calls += f.short_calls;
                s.time_total_ns += f.time_total_ns;
                if f.calls > 0 {
                    s.time_min_ns = s.time_min_ns.min(f.time_min_ns);
                    s.time_max_ns = s.time_max_ns.max(f.time_max_ns);
                }
                s.send.merge(&f.send);
                s.recv.merge(&f.recv);
                e.1.push(f.time_total_ns);
            }
        }
        let total: f64 = by.values().map(|(s, _)| s.time_total_ns).sum();
        let limit = self.unreliable_factor * self.timer.overhead_ns;
        let mut out: Vec<FuncSummary> = by
            .into_values()
            .map(|(mut s, mut per_rank)| {
                // ranks that never called the function count as 0
                while (per_rank.len() as f64) < nranks {
                    per_rank.push(0.0);
                }
                s.rank_time_min_ns = per_rank.iter().cloned().fold(f64::INFINITY, f64::min);
                s.rank_time_max_ns = per_rank.iter().cloned().fold(0.0, f64::max);
                s.rank_time_mean_ns = per_rank.iter().sum::<f64>() / nranks;
                if !s.time_min_ns.is_finite() {
                    s.time_min_ns = 0.0;
                }
                s.time_mean_ns = if s.calls > 0 { s.time_total_ns / s.calls as f64 } else { 0.0 };
                s.mpi_percent = if total > 0.0 { 100.0 * s.time_total_ns / total } else { 0.0 };
                s.unreliable = s.calls > 0 && (s.time_mean_ns < limit || 2 * s.short_calls > s.calls);
                s
            })
            .collect();
        out.sort_by(|a, b| b.time_total_ns.partial_cmp(&a.time_total_ns).unwrap_or(std::cmp::Ordering::Equal).then_with(|| a.name.cmp(&b.name)));
        self.summary = out;
    }

    /// Parse a profile from JSON text and recompute the summary.
    /// Sizes are checked before anything is allocated for them: `world_size` in
    /// `1..=MAX_WORLD`, every rank in `0..world_size`. Errors give `line:col`.
    pub fn from_json(text: &str) -> Result<Profile, String> {
        let mut p: Profile = serde_json::from_str(text).map_err(|e| format!("{}:{}: not an xmpc-prof profile: {e}", e.line(), e.column()))?;
        let at = |key: &str| {
            let off = text.find(&format!("\"{key}\"")).unwrap_or(0);
            let line = text[..off].matches('\n').count() + 1;
            let col = off - text[..off].rfind('\n').map_or(0, |n| n + 1) + 1;
            format!("{line}:{col}")
        };
        if p.world_size < 1 || p.world_size > MAX_WORLD {
            return Err(format!("{}: world_size {} is out of range (1..={MAX_WORLD})", at("world_size"), p.world_size));
        }
        if p.ranks.len() as i64 > p.world_size {
            return Err(format!("{}: {} ranks listed for a world_size of {}", at("ranks"), p.ranks.len(), p.world_size));
        }
        if let Some(r) = p.ranks.iter().find(|r| r.rank < 0 || r.rank >= p.world_size) {
            return Err(format!("{}: rank {} is outside 0..{}", at("ranks"), r.rank, p.world_size));
        }
        p.summarize();
        Ok(p)
    }

    /// Point-to-point pairs `(src, dst) -> (count, bytes)` with traffic, from the send
    /// side of every rank (peers outside `0..world_size` are dropped); sparse, so its
    /// size follows the profile, not `world_size`².
    pub fn send_pairs(&self) -> std::collections::BTreeMap<(usize, usize), (u64, u64)> {
        let n = self.world_size.max(0) as usize;
        let mut m = std::collections::BTreeMap::new();
        for r in &self.ranks {
            if r.rank < 0 || r.rank as usize >= n {
                continue;
            }
            for p in &r.peers {
                if p.peer >= 0 && (p.peer as usize) < n && p.send_count > 0 {
                    let c: &mut (u64, u64) = m.entry((r.rank as usize, p.peer as usize)).or_default();
                    c.0 += p.send_count;
                    c.1 += p.send_bytes;
                }
            }
        }
        m
    }

    /// Call sites over all ranks (same function, file, line and caller), by total time,
    /// descending.
    pub fn callsites(&self) -> Vec<SiteSummary> {
        use std::collections::BTreeMap;
        let mut by: BTreeMap<(String, String, u32, String, String), SiteSummary> = BTreeMap::new();
        for r in &self.ranks {
            for c in &r.callsites {
                let key = (c.function.clone(), c.file.clone(), c.line, c.caller.clone(), c.address.clone());
                let e = by.entry(key).or_insert_with(|| SiteSummary {
                    site: CallSite { calls: 0, time_total_ns: 0.0, time_max_ns: 0.0, bytes: 0, ..c.clone() },
                    ..Default::default()
                });
                e.ranks += 1;
                e.site.calls += c.calls;
                e.site.time_total_ns += c.time_total_ns;
                e.site.time_max_ns = e.site.time_max_ns.max(c.time_max_ns);
                e.site.bytes += c.bytes;
            }
        }
        let total: f64 = self.ranks.iter().map(|r| r.mpi_ns).sum();
        let mut out: Vec<SiteSummary> = by.into_values().collect();
        for s in &mut out {
            s.mpi_percent = if total > 0.0 { 100.0 * s.site.time_total_ns / total } else { 0.0 };
        }
        out.sort_by(|a, b| b.site.time_total_ns.total_cmp(&a.site.time_total_ns));
        out
    }

    /// Function summary by name.
    pub fn func(&self, name: &str) -> Option<&FuncSummary> {
        self.summary.iter().find(|f| f.name == name)
    }

    /// Dense point-to-point matrix `m[src][dst] = (count, bytes)` from the
    /// send side of every rank (peers outside `0..world_size` are dropped).
    pub fn send_matrix(&self) -> Vec<Vec<(u64, u64)>> {
        let n = self.world_size.max(0) as usize;
        let mut m = vec![vec![(0u64, 0u64); n]; n];
        for r in &self.ranks {
            if r.rank < 0 || r.rank as usize >= n {
                continue;
            }
            for p in &r.peers {
                if p.peer >= 0 && (p.peer as usize) < n {
                    let c = &mut m[r.rank as usize][p.peer as usize];
                    c.0 += p.send_count;
                    c.1 += p.send_bytes;
                }
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes() {
        assert_eq!(size_class(1), 0);
        assert_eq!(size_class(2), 1);
        assert_eq!(size_class(3), 1);
        assert_eq!(size_class(4 << 20), 22);
        assert_eq!(size_class((8 << 20) - 1), 22);
        assert_eq!(size_class(8 << 20), 23);
        assert_eq!(size_class(16 << 20), 23);
        assert_eq!(size_class(u64::MAX), 23);
        assert_eq!(class_label(0), "1");
        assert_eq!(class_label(10), "1K");
        assert_eq!(class_label(23), ">=8M");
    }

    #[test]
    fn size_stats() {
        let mut s = SizeStats::default();
        for b in [0u64, 1, 1024, 16 << 20] {
            s.add(b);
        }
        assert_eq!(s.count, 4);
        assert_eq!(s.zero, 1);
        assert_eq!(s.min, 0);
        assert_eq!(s.max, 16 << 20);
        assert_eq!(s.hist[0], 1);
        assert_eq!(s.hist[10], 1);
        assert_eq!(s.hist[23], 1);
        let mut t = SizeStats::default();
        t.merge(&s);
        t.merge(&s);
        assert_eq!(t.count, 8);
        assert_eq!(t.total, 2 * s.total);
    }
}
