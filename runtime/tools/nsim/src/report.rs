//! Statistics and reports (JSON, CSV), progress bar.

use crate::engine::{SimResult, MAX_BUCKETS};
use crate::topo::{LinkKind, Topo};
use crate::Time;
use serde::Serialize;
use std::fmt::Write as _;

/// Counters of one directed link.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct LinkStats {
    /// time spent transmitting (ps).
    pub busy: Time,
    pub pkts: u64,
    /// bytes on the wire (payload + headers).
    pub bytes: u64,
    pub payload: u64,
}
impl LinkStats {
    pub fn add(&mut self, o: &LinkStats) {
        self.busy += o.busy;
        self.pkts += o.pkts;
        self.bytes += o.bytes;
        self.payload += o.payload;
    }
}

/// Time series: link busy time per direction class, and the histogram of
/// virtual-channel buffer utilisation in 10 classes (0–10 %, …, 90–100 %).
/// The interval doubles whenever the series would exceed `MAX_BUCKETS`.
#[derive(Clone, Debug, Serialize)]
pub struct Series {
    pub interval: Time,
    pub ndirs: usize,
    /// busy[bucket * ndirs + dir], ps
    pub busy: Vec<u64>,
    /// hist[bucket][class], number of (link, VC) samples
    pub hist: Vec<[u64; 10]>,
    /// the bucket `add_busy` last used, [lo, hi) and its offset in `busy`:
    /// nearly every call falls in it, and two divisions per call were 10% of a run
    #[serde(skip)]
    last: (Time, Time, usize),
}

impl Series {
    pub fn new(interval: Time, ndirs: usize) -> Series {
        Series { interval, ndirs, busy: Vec::new(), hist: Vec::new(), last: (1, 0, 0) }
    }
    fn grow(&mut self, mut b: usize) {
        while b >= MAX_BUCKETS {
            // double the interval: merge bucket pairs
            let nb = self.busy.len() / self.ndirs;
            let mut busy = vec![0; nb.div_ceil(2) * self.ndirs];
            for i in 0..nb {
                for d in 0..self.ndirs {
                    busy[(i / 2) * self.ndirs + d] += self.busy[i * self.ndirs + d];
                }
            }
            self.busy = busy;
            let mut hist = vec![[0u64; 10]; self.hist.len().div_ceil(2)];
            for (i, h) in self.hist.iter().enumerate() {
                for (a, v) in hist[i / 2].iter_mut().zip(h) {
                    *a += v;
                }
            }
            self.hist = hist;
            self.interval *= 2;
            self.last = (1, 0, 0);
            b /= 2;
        }
    }
    fn bucket(&mut self, t: Time) -> usize {
        let b = (t / self.interval) as usize;
        if b >= MAX_BUCKETS {
            self.grow(b);
            return (t / self.interval) as usize;
        }
        b
    }
    /// Add busy time [s, e) on direction `dir`.
    pub fn add_busy(&mut self, dir: usize, s: Time, e: Time) {
        if e <= s {
            return;
        }
        let (lo, hi, off) = self.last;
        if s >= lo && e <= hi {
            self.busy[off + dir] += e - s;
            return;
        }
        self.bucket(e - 1);
        let mut t = s;
        while t < e {
            let b = (t / self.interval) as usize;
            let bend = ((b as u64 + 1) * self.interval).min(e);
            let need = (b + 1) * self.ndirs;
            if self.busy.len() < need {
                self.busy.resize(need, 0);
            }
            self.busy[b * self.ndirs + dir] += bend - t;
            self.last = (b as u64 * self.interval, (b as u64 + 1) * self.interval, b * self.ndirs);
            t = bend;
        }
    }
    pub fn add_hist(&mut self, t: Time, h: [u64; 10]) {
        let b = self.bucket(t);
        if self.hist.len() <= b {
            self.hist.resize(b + 1, [0; 10]);
        }
        for (a, v) in self.hist[b].iter_mut().zip(&h) {
            *a += v;
        }
    }
    /// Next sampling instant after `now`.
    pub fn next_sample(&self, now: Time) -> Time {
        (now / self.interval + 1) * self.interval
    }
    /// Merge another series (possibly with a finer interval) into this one.
    pub fn merge(&mut self, o: &Series) {
        let mut o = o.clone();
        while o.interval < self.interval {
            let n = (o.busy.len() / o.ndirs).max(o.hist.len()).max(MAX_BUCKETS);
            o.grow(n);
        }
        while self.interval < o.interval {
            let n = (self.busy.len() / self.ndirs).max(self.hist.len()).max(MAX_BUCKETS);
            self.grow(n);
        }
        if self.busy.len() < o.busy.len() {
            self.busy.resize(o.busy.len(), 0);
        }
        for (i, v) in o.busy.iter().enumerate() {
            self.busy[i] += v;
        }
        if self.hist.len() < o.hist.len() {
            self.hist.resize(o.hist.len(), [0; 10]);
        }
        for (i, h) in o.hist.iter().enumerate() {
            for (a, v) in self.hist[i].iter_mut().zip(h) {
                *a += v;
            }
        }
    }
}

/// Summary report.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub runtime_ps: Time,
    pub runtime_s: f64,
    pub wall_s: f64,
    pub threads: usize,
    pub events: u64,
    pub packet_hops: u64,
    pub events_per_s: f64,
    pub network_links: usize,
    /// mean over network links of payload bytes / run time (B/s)
    pub avg_link_throughput_bps: f64,
    /// mean over network links of payload / (bandwidth × run time)
    pub avg_link_efficiency: f64,
    /// mean over network links of busy time / run time
    pub avg_link_busy_ratio: f64,
    pub max_link_busy_ratio: f64,
    pub packets_received_total: u64,
    pub packets_received_min: u64,
    pub packets_received_max: u64,
    pub packets_received_per_node: Vec<u64>,
    pub directions: Vec<String>,
    pub series_interval_ps: Time,
    /// per bucket: link efficiency (busy / capacity) per direction, then the mean
    pub link_efficiency_series: Vec<Vec<f64>>,
    /// per bucket: fraction of (link, VC) buffers in each 10 % utilisation class
    pub vc_utilisation_series: Vec<[f64; 10]>,
}

impl Report {
    pub fn new(r: &SimResult, topo: &Topo) -> Report {
        let rt = r.runtime.max(1) as f64;
        let nets: Vec<usize> = topo.links.iter().enumerate().filter(|(_, l)| l.kind == LinkKind::Net).map(|(i, _)| i).collect();
        let nl = nets.len().max(1) as f64;
        let mut thr = 0.0;
        let mut eff = 0.0;
        let mut busy = 0.0;
        let mut maxb: f64 = 0.0;
        for &i in &nets {
            let s = &r.links[i];
            let l = &topo.links[i];
            thr += s.payload as f64 / (rt / 1e12);
            eff += s.payload as f64 / (l.bw as f64 * rt / 1e12);
            let b = s.busy as f64 / rt;
            busy += b;
            maxb = maxb.max(b);
        }
        let ndirs = topo.dir_names.len();
        let mut per_dir = vec![0usize; ndirs];
        for l in &topo.links {
            per_dir[l.dir as usize] += 1;
        }
        let s = &r.series;
        let nb = (s.busy.len() / s.ndirs.max(1)).max(s.hist.len());
        let nbuck = ((r.runtime / s.interval) as usize + 1).min(nb.max(1));
        let netd = topo.net_dirs();
        let mut effs = Vec::new();
        for b in 0..nbuck {
            let mut row = Vec::new();
            let mut tot = 0.0;
            let mut cap = 0.0;
            for (d, &n) in per_dir.iter().enumerate().take(netd) {
                let v = s.busy.get(b * s.ndirs + d).copied().unwrap_or(0) as f64;
                let c = n as f64 * s.interval as f64;
                row.push(if c > 0.0 { v / c } else { 0.0 });
                tot += v;
                cap += c;
            }
            row.push(if cap > 0.0 { tot / cap } else { 0.0 });
            effs.push(row);
        }
        let mut vcu = Vec::new();
        for b in 0..nbuck {
            let h = s.hist.get(b).copied().unwrap_or([0; 10]);
            let t: u64 = h.iter().sum();
            let mut row = [0.0; 10];
            if t > 0 {
                for c in 0..10 {
                    row[c] = h[c] as f64 / t as f64;
                }
            }
            vcu.push(row);
        }
        let mut dirs: Vec<String> = topo.dir_names[..netd].to_vec();
        dirs.push("mean".into());
        Report {
            runtime_ps: r.runtime,
            runtime_s: r.runtime as f64 / 1e12,
            wall_s: r.wall_s,
            threads: r.threads,
            events: r.events,
            packet_hops: r.packet_hops,
            events_per_s: r.events as f64 / r.wall_s.max(1e-9),
            network_links: nets.len(),
            avg_link_throughput_bps: thr / nl,
            avg_link_efficiency: eff / nl,
            avg_link_busy_ratio: busy / nl,
            max_link_busy_ratio: maxb,
            packets_received_total: r.node_pkts.iter().sum(),
            packets_received_min: r.node_pkts.iter().copied().min().unwrap_or(0),
            packets_received_max: r.node_pkts.iter().copied().max().unwrap_or(0),
            packets_received_per_node: r.node_pkts.clone(),
            directions: dirs,
            series_interval_ps: s.interval,
            link_efficiency_series: effs,
            vc_utilisation_series: vcu,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap()
    }

    /// Human-readable summary.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "run time            {:.6} ms", self.runtime_s * 1e3);
        let _ = writeln!(s, "wall time           {:.3} s on {} thread(s)", self.wall_s, self.threads);
        let _ = writeln!(s, "events              {} ({:.2} M/s), packet-hops {}", self.events, self.events_per_s / 1e6, self.packet_hops);
        let _ = writeln!(s, "avg link throughput {:.3} MB/s over {} links", self.avg_link_throughput_bps / 1e6, self.network_links);
        let _ = writeln!(s, "avg link efficiency {:.4}", self.avg_link_efficiency);
        let _ = writeln!(s, "link busy ratio     mean {:.4}, max {:.4}", self.avg_link_busy_ratio, self.max_link_busy_ratio);
        let _ = writeln!(
            s,
            "packets received    total {}, per node min {} max {}",
            self.packets_received_total, self.packets_received_min, self.packets_received_max
        );
        s
    }

    /// CSV time series: time, link efficiency per direction + mean, VC utilisation classes.
    pub fn series_csv(&self) -> String {
        let mut s = String::from("time_us");
        for d in &self.directions {
            let _ = write!(s, ",eff_{d}");
        }
        for c in 0..10 {
            let _ = write!(s, ",vc_{}_{}pct", c * 10, c * 10 + 10);
        }
        s.push('\n');
        for (b, row) in self.link_efficiency_series.iter().enumerate() {
            let _ = write!(s, "{:.4}", (b as f64 + 0.5) * self.series_interval_ps as f64 / 1e6);
            for v in row {
                let _ = write!(s, ",{v:.5}");
            }
            for v in &self.vc_utilisation_series[b] {
                let _ = write!(s, ",{v:.5}");
            }
            s.push('\n');
        }
        s
    }

    /// CSV: packets received per node.
    pub fn nodes_csv(&self) -> String {
        let mut s = String::from("node,packets\n");
        for (i, p) in self.packets_received_per_node.iter().enumerate() {
            let _ = writeln!(s, "{i},{p}");
        }
        s
    }
}

/// A spinner on stderr when it is a terminal (hidden otherwise).
pub fn progress_bar() -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if std::io::stderr().is_terminal() {
        let pb = indicatif::ProgressBar::new_spinner();
        pb.set_style(
            indicatif::ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        pb
    } else {
        indicatif::ProgressBar::hidden()
    }
}

/// A SimGrid platform (XML, version 4.1) for the same mesh/torus: one
/// `<cluster topology="TORUS">` whose links have the configured bandwidth and
/// a latency of link latency + router delay per hop. (A SimGrid torus has no
/// mesh variant; a mesh is emitted as a torus, which differs at the borders.)
pub fn simgrid_platform(cfg: &crate::Config) -> Result<String, String> {
    use crate::config::TopoKind;
    let n = cfg.num_nodes();
    let dims: Vec<String> = match cfg.topology.kind {
        TopoKind::Fattree => return Err("simgrid-platform: only mesh/torus are emitted".into()),
        _ => cfg.topology.dims.iter().map(|d| d.to_string()).collect(),
    };
    let lat_ps = cfg.link.latency + cfg.router.delay;
    Ok(format!(
        r#"<?xml version='1.0'?>
<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">
<platform version="4.1">
  <!-- generated by xmpc-nsim from {file} -->
  <cluster id="torus" prefix="node-" suffix="" radical="0-{last}" speed="1Gf"
           bw="{bw}Bps" lat="{lat}ns" topology="TORUS" topo_parameters="{dims}"/>
</platform>
"#,
        file = cfg.file_name,
        last = n - 1,
        bw = cfg.link.bandwidth,
        lat = lat_ps as f64 / 1000.0,
        dims = dims.join(",")
    ))
}
