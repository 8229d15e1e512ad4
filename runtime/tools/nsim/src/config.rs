//! Interconnect configuration (TOML, via serde).
//!
//! Times are written as strings with a unit (`"90ns"`, `"1.5 us"`, `"2ms"`,
//! `"0"`), or as integers meaning picoseconds. Bandwidths are strings with a
//! unit (`"154 MB/s"`, `"1 GB/s"`, `"10 GiB/s"`, `"25 Gb/s"`) or integers
//! meaning bytes per second. Internally every time is an integer number of
//! picoseconds (see [`crate::Time`]).

use crate::Time;
use serde::{Deserialize, Deserializer};
use std::fmt;
use std::path::{Path, PathBuf};

/// A configuration error that names the file and the field.
#[derive(Debug, Clone, PartialEq)]
pub struct ConfigError {
    pub file: String,
    pub field: String,
    pub msg: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.file, self.msg)
        } else {
            write!(f, "{}: field `{}`: {}", self.file, self.field, self.msg)
        }
    }
}
impl std::error::Error for ConfigError {}

/// Parse a time with unit into picoseconds.
pub fn parse_time(s: &str) -> Result<Time, String> {
    let t = s.trim();
    let idx = t.find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')).unwrap_or(t.len());
    let (num, unit) = t.split_at(idx);
    let unit = unit.trim();
    let mult: u128 = match unit {
        "ps" => 1,
        "ns" => 1_000,
        "us" | "µs" => 1_000_000,
        "ms" => 1_000_000_000,
        "s" => 1_000_000_000_000,
        "" if num.trim() == "0" => 1,
        "" => return Err(format!("time `{s}` needs a unit (ps, ns, us, ms, s)")),
        u => return Err(format!("unknown time unit `{u}` in `{s}`")),
    };
    exact_scale(num.trim(), mult).ok_or_else(|| format!("bad time `{s}`"))
}

/// Parse a bandwidth with unit into bytes per second.
pub fn parse_bandwidth(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let idx = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (num, unit) = t.split_at(idx);
    let unit: String = unit.chars().filter(|c| !c.is_whitespace()).collect();
    let (mult, bits): (u128, bool) = match unit.as_str() {
        "B/s" => (1, false),
        "kB/s" | "KB/s" => (1_000, false),
        "MB/s" => (1_000_000, false),
        "GB/s" => (1_000_000_000, false),
        "TB/s" => (1_000_000_000_000, false),
        "KiB/s" => (1 << 10, false),
        "MiB/s" => (1 << 20, false),
        "GiB/s" => (1 << 30, false),
        "b/s" | "bps" => (1, true),
        "kb/s" | "Kb/s" | "kbps" => (1_000, true),
        "Mb/s" | "Mbps" => (1_000_000, true),
        "Gb/s" | "Gbps" => (1_000_000_000, true),
        "" => return Err(format!("bandwidth `{s}` needs a unit (B/s, MB/s, GB/s, Gb/s, ...)")),
        u => return Err(format!("unknown bandwidth unit `{u}` in `{s}`")),
    };
    let v = exact_scale(num, mult).ok_or_else(|| format!("bad bandwidth `{s}`"))?;
    let v = if bits { v / 8 } else { v };
    if v == 0 {
        return Err(format!("bandwidth `{s}` must be positive"));
    }
    Ok(v)
}

/// `num` (decimal, maybe with a fraction) × `mult`, exactly, rounded to nearest.
fn exact_scale(num: &str, mult: u128) -> Option<u64> {
    let (ip, fp) = match num.split_once('.') {
        Some((a, b)) => (a, b),
        None => (num, ""),
    };
    if ip.is_empty() && fp.is_empty() {
        return None;
    }
    let ipv: u128 = if ip.is_empty() { 0 } else { ip.parse().ok()? };
    let mut v = ipv.checked_mul(mult)?;
    if !fp.is_empty() {
        let fv: u128 = fp.parse().ok()?;
        let den = 10u128.checked_pow(fp.len() as u32)?;
        v = v.checked_add((fv * mult + den / 2) / den)?;
    }
    u64::try_from(v).ok()
}

fn de_time<'de, D: Deserializer<'de>>(d: D) -> Result<Time, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum T {
        I(u64),
        S(String),
    }
    match T::deserialize(d)? {
        T::I(v) => Ok(v),
        T::S(s) => parse_time(&s).map_err(serde::de::Error::custom),
    }
}
fn de_opt_time<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Time>, D::Error> {
    de_time(d).map(Some)
}
fn de_bw<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum T {
        I(u64),
        S(String),
    }
    match T::deserialize(d)? {
        T::I(0) => Err(serde::de::Error::custom("bandwidth must be positive")),
        T::I(v) => Ok(v),
        T::S(s) => parse_bandwidth(&s).map_err(serde::de::Error::custom),
    }
}
fn de_opt_bw<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    de_bw(d).map(Some)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TopoKind {
    Mesh,
    Torus,
    Fattree,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum UpPort {
    /// destination-mod-k: the up port is the destination's digit at that level.
    #[default]
    Deterministic,
    /// a pseudo-random up port per packet (hash of seed, packet id, level).
    Random,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Topology {
    pub kind: TopoKind,
    /// mesh/torus: sizes per dimension (1 to 6 dimensions).
    #[serde(default)]
    pub dims: Vec<u32>,
    /// fat-tree: arity k of a k-ary n-tree.
    #[serde(default)]
    pub k: u32,
    /// fat-tree: number of levels n.
    #[serde(default)]
    pub n: u32,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Routing {
    #[serde(default)]
    pub fattree_up: UpPort,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkCfg {
    #[serde(deserialize_with = "de_bw")]
    pub bandwidth: u64,
    #[serde(deserialize_with = "de_time", default)]
    pub latency: Time,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RouterCfg {
    #[serde(deserialize_with = "de_time", default)]
    pub delay: Time,
    #[serde(default = "default_vcs")]
    pub vcs: u32,
    /// buffer depth per virtual channel, in packets.
    #[serde(default = "default_depth")]
    pub buffer_packets: u32,
}
fn default_vcs() -> u32 {
    2
}
fn default_depth() -> u32 {
    8
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PacketCfg {
    /// payload bytes per packet.
    #[serde(default = "default_pkt")]
    pub size: u32,
    /// header bytes added to every packet on the wire.
    #[serde(default)]
    pub header: u32,
}
fn default_pkt() -> u32 {
    256
}
impl Default for PacketCfg {
    fn default() -> Self {
        PacketCfg { size: default_pkt(), header: 0 }
    }
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct NicCfg {
    #[serde(deserialize_with = "de_opt_bw", default)]
    pub injection_bandwidth: Option<u64>,
    #[serde(deserialize_with = "de_opt_bw", default)]
    pub ejection_bandwidth: Option<u64>,
    #[serde(deserialize_with = "de_opt_time", default)]
    pub injection_latency: Option<Time>,
    #[serde(deserialize_with = "de_opt_time", default)]
    pub ejection_latency: Option<Time>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MpiCfg {
    #[serde(deserialize_with = "de_time", default)]
    pub send_overhead: Time,
    #[serde(deserialize_with = "de_time", default)]
    pub recv_overhead: Time,
    /// messages larger than this use rendezvous (RTS/CTS control packets first).
    #[serde(default = "default_eager")]
    pub eager_threshold: u64,
    /// size of an RTS/CTS control packet.
    #[serde(default = "default_ctrl")]
    pub control_bytes: u32,
}
fn default_eager() -> u64 {
    u64::MAX
}
fn default_ctrl() -> u32 {
    64
}
impl Default for MpiCfg {
    fn default() -> Self {
        MpiCfg { send_overhead: 0, recv_overhead: 0, eager_threshold: default_eager(), control_bytes: default_ctrl() }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MapKind {
    #[default]
    Linear,
    Random,
    File,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct MappingCfg {
    #[serde(default)]
    pub kind: MapKind,
    #[serde(default)]
    pub seed: u64,
    /// for `kind = "file"`: one node id per line, line i = rank i (relative to the config file).
    #[serde(default)]
    pub file: Option<PathBuf>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimCfg {
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// host threads (logical processes) for the parallel engine; 0 = all cores.
    #[serde(default = "default_threads")]
    pub threads: u32,
    /// initial sampling interval of the time series (doubled as the run grows).
    #[serde(deserialize_with = "de_time", default = "default_interval")]
    pub stats_interval: Time,
    /// check the credit invariant (no buffer overflow) on every packet (slow).
    #[serde(default)]
    pub check_invariants: bool,
}
fn default_seed() -> u64 {
    1
}
/// The most host threads (`sim.threads`, `xmpc-nsim run -t`): each is a logical
/// process of the parallel engine (a larger count partitioned the network for minutes).
pub const MAX_THREADS: u32 = 1024;

fn default_threads() -> u32 {
    1
}
fn default_interval() -> Time {
    1_000_000
}
impl Default for SimCfg {
    fn default() -> Self {
        SimCfg { seed: 1, threads: 1, stats_interval: default_interval(), check_invariants: false }
    }
}

/// The whole interconnect configuration file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub topology: Topology,
    #[serde(default)]
    pub routing: Routing,
    pub link: LinkCfg,
    pub router: RouterCfg,
    #[serde(default)]
    pub packet: PacketCfg,
    #[serde(default)]
    pub nic: NicCfg,
    #[serde(default)]
    pub mpi: MpiCfg,
    #[serde(default)]
    pub mapping: MappingCfg,
    #[serde(default)]
    pub sim: SimCfg,
    /// directory of the config file (to resolve relative paths); not in TOML.
    #[serde(skip)]
    pub base_dir: Option<PathBuf>,
    #[serde(skip)]
    pub file_name: String,
}

impl Config {
    /// Parse from TOML text; `file` is used in error messages.
    pub fn from_toml(text: &str, file: &str) -> Result<Config, ConfigError> {
        let mut c: Config = toml::from_str(text).map_err(|e| {
            let msg = e.message().to_string();
            // toml's error carries the span; find the innermost key for the message.
            let field = e.span().map(|sp| key_at(text, sp.start)).unwrap_or_default();
            ConfigError { file: file.to_string(), field, msg }
        })?;
        c.file_name = file.to_string();
        c.validate()?;
        Ok(c)
    }

    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let f = path.display().to_string();
        // bounded: an endless input (`/dev/zero`) is refused, not read forever
        let text = xmpc_outfile::read_bounded(path, 64 << 20)
            .and_then(|b| String::from_utf8(b).map_err(|e| format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to())))
            .map_err(|msg| ConfigError { file: f.clone(), field: String::new(), msg })?;
        let mut c = Config::from_toml(&text, &f)?;
        c.base_dir = path.parent().map(|p| p.to_path_buf());
        Ok(c)
    }

    fn err(&self, field: &str, msg: impl Into<String>) -> ConfigError {
        ConfigError { file: self.file_name.clone(), field: field.to_string(), msg: msg.into() }
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
        let t = &self.topology;
        match t.kind {
            TopoKind::Mesh | TopoKind::Torus => {
                if t.dims.is_empty() || t.dims.len() > 6 {
                    return Err(self.err("topology.dims", "mesh/torus needs 1 to 6 dimensions"));
                }
                if t.dims.contains(&0) {
                    return Err(self.err("topology.dims", "every dimension must be at least 1"));
                }
                let n: u64 = t.dims.iter().map(|&d| d as u64).product();
                if n > (1 << 24) {
                    return Err(self.err("topology.dims", "at most 2^24 nodes"));
                }
                if t.kind == TopoKind::Torus && self.router.vcs < 2 && t.dims.iter().any(|&d| d > 2) {
                    return Err(self.err("router.vcs", "a torus needs at least 2 virtual channels (dateline deadlock avoidance)"));
                }
            }
            TopoKind::Fattree => {
                if t.k < 2 {
                    return Err(self.err("topology.k", "fat-tree arity k must be at least 2"));
                }
                if t.n < 1 {
                    return Err(self.err("topology.n", "fat-tree levels n must be at least 1"));
                }
                let n = (t.k as u64).checked_pow(t.n).unwrap_or(u64::MAX);
                if n > (1 << 24) {
                    return Err(self.err("topology", "at most 2^24 nodes"));
                }
            }
        }
        if self.sim.threads > MAX_THREADS {
            return Err(self.err("sim.threads", "at most 1024 host threads (0: one per core)"));
        }
        if self.router.vcs == 0 || self.router.vcs > 16 {
            return Err(self.err("router.vcs", "1 to 16 virtual channels"));
        }
        if self.router.buffer_packets == 0 || self.router.buffer_packets > 64 {
            return Err(self.err("router.buffer_packets", "1 to 64 packets per virtual channel"));
        }
        if self.packet.size == 0 {
            return Err(self.err("packet.size", "packet payload must be positive"));
        }
        if self.mapping.kind == MapKind::File && self.mapping.file.is_none() {
            return Err(self.err("mapping.file", "mapping kind \"file\" needs `file`"));
        }
        if self.sim.stats_interval == 0 {
            return Err(self.err("sim.stats_interval", "must be positive"));
        }
        Ok(())
    }

    pub fn num_nodes(&self) -> u32 {
        match self.topology.kind {
            TopoKind::Fattree => self.topology.k.pow(self.topology.n),
            _ => self.topology.dims.iter().product(),
        }
    }
    pub fn inj_bw(&self) -> u64 {
        self.nic.injection_bandwidth.unwrap_or(self.link.bandwidth)
    }
    pub fn ej_bw(&self) -> u64 {
        self.nic.ejection_bandwidth.unwrap_or(self.link.bandwidth)
    }
    pub fn inj_lat(&self) -> Time {
        self.nic.injection_latency.unwrap_or(0)
    }
    pub fn ej_lat(&self) -> Time {
        self.nic.ejection_latency.unwrap_or(0)
    }

    /// rank → node mapping for `nranks` ranks.
    pub fn mapping(&self, nranks: u32) -> Result<Vec<u32>, ConfigError> {
        let nn = self.num_nodes();
        match self.mapping.kind {
            MapKind::Linear => Ok((0..nranks).map(|r| r % nn).collect()),
            MapKind::Random => {
                // ranks fill a random permutation of the nodes (round robin if ranks > nodes)
                let mut perm: Vec<u32> = (0..nn).collect();
                let mut rng = crate::SplitMix(self.mapping.seed ^ 0x6d61_7070);
                for i in (1..perm.len()).rev() {
                    let j = (rng.next() % (i as u64 + 1)) as usize;
                    perm.swap(i, j);
                }
                Ok((0..nranks).map(|r| perm[(r % nn) as usize]).collect())
            }
            MapKind::File => {
                let f = self.mapping.file.as_ref().unwrap();
                let p = match &self.base_dir {
                    Some(b) if f.is_relative() => b.join(f),
                    _ => f.clone(),
                };
                let text = std::fs::read_to_string(&p).map_err(|e| self.err("mapping.file", format!("{}: {e}", p.display())))?;
                let mut v = Vec::new();
                for (i, l) in text.lines().enumerate() {
                    let l = l.trim();
                    if l.is_empty() || l.starts_with('#') {
                        continue;
                    }
                    let n: u32 = l.parse().map_err(|_| self.err("mapping.file", format!("{} line {}: `{l}` is not a node id", p.display(), i + 1)))?;
                    if n >= nn {
                        return Err(self.err("mapping.file", format!("{} line {}: node {n} out of range (0..{nn})", p.display(), i + 1)));
                    }
                    v.push(n);
                }
                if (v.len() as u32) < nranks {
                    return Err(self.err("mapping.file", format!("{} maps {} ranks but {nranks} are needed", p.display(), v.len())));
                }
                v.truncate(nranks as usize);
                Ok(v)
            }
        }
    }
}

/// Find the dotted key path whose value contains byte offset `pos` (best effort).
fn key_at(text: &str, pos: usize) -> String {
    let mut table = String::new();
    let mut last_key = String::new();
    let mut off = 0;
    for line in text.split_inclusive('\n') {
        let l = line.trim();
        if l.starts_with('[') && !l.starts_with("[[") {
            table = l.trim_matches(|c| c == '[' || c == ']').trim().to_string();
            last_key.clear();
        } else if let Some((k, _)) = l.split_once('=') {
            last_key = k.trim().to_string();
        }
        off += line.len();
        if off > pos {
            break;
        }
    }
    match (table.is_empty(), last_key.is_empty()) {
        (true, _) => last_key,
        (false, true) => table,
        (false, false) => format!("{table}.{last_key}"),
    }
}
