//! SMPI's platform description as BSIM's: a SimGrid XML platform (`-platform
//! p.xml`), a hostfile (`-hostfile h`) and `--cfg=` options, so a command line
//! written for `smpirun` runs under `xmpc bsim run`.
//!
//! What is read: `<cluster>` elements (the kind `xmpc bsim platform
//! --export-simgrid` writes, and SMPI's examples use). A message between two
//! hosts crosses the source's private link, the backbone (when the cluster has
//! one) and the destination's private link: latency `2 lat + bb_lat`, bandwidth
//! the smallest of `bw` and `bb_bw` (CM02 without cross-traffic); between ranks
//! of one host it takes the loopback link. The hostfile lists hosts, one per
//! line (`name` or `name:count`, each count giving that many consecutive
//! ranks), and ranks go round it as SMPI assigns them. Other platform elements
//! are refused with their name.

use super::model::{Link, NodeMap, Platform, Segment};
use std::collections::HashMap;
use std::path::Path;

/// SI-suffixed values of SimGrid: `1e10Bps`, `10GBps`, `1Gbps`, `1us`, `5ms`, `1Gf`.
fn value(v: &str, unit: &str, what: &str) -> Result<f64, String> {
    let v = v.trim();
    let num_end = v.find(|c: char| !(c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '-' | '+'))).unwrap_or(v.len());
    // `1e10Bps`: the `e` belongs to the number only when digits follow
    let (num, suffix) = v.split_at(num_end);
    let x: f64 = num.parse().map_err(|_| format!("{what} = \"{v}\": not a number"))?;
    let scale = match (unit, suffix) {
        (_, "") => 1.0,
        ("s", s) => match s {
            "s" => 1.0,
            "ms" => 1e-3,
            "us" => 1e-6,
            "ns" => 1e-9,
            "ps" => 1e-12,
            _ => return Err(format!("{what} = \"{v}\": unknown time unit `{s}`")),
        },
        ("Bps", s) => {
            let (p, u) = match s.strip_suffix("Bps") {
                Some(p) => (p, 1.0),
                None => match s.strip_suffix("bps") {
                    Some(p) => (p, 0.125),
                    None => return Err(format!("{what} = \"{v}\": unknown bandwidth unit `{s}`")),
                },
            };
            u * prefix(p).ok_or_else(|| format!("{what} = \"{v}\": unknown prefix `{p}`"))?
        }
        ("f", s) => {
            let p = s.strip_suffix('f').ok_or_else(|| format!("{what} = \"{v}\": unknown speed unit `{s}`"))?;
            prefix(p).ok_or_else(|| format!("{what} = \"{v}\": unknown prefix `{p}`"))?
        }
        _ => return Err(format!("{what} = \"{v}\": unknown unit")),
    };
    Ok(x * scale)
}

fn prefix(p: &str) -> Option<f64> {
    Some(match p {
        "" => 1.0,
        "k" | "K" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "Ki" => 1024.0,
        "Mi" => 1048576.0,
        "Gi" => 1073741824.0,
        "Ti" => 1099511627776.0,
        _ => return None,
    })
}

/// One `<cluster>`: the link model between and within its hosts.
struct Cluster {
    hosts: Vec<String>,
    inter: Segment,
    loopback: Option<Segment>,
    speed: f64,
}

fn cluster(n: roxmltree::Node, file: &str) -> Result<Cluster, String> {
    let id = n.attribute("id").unwrap_or("?");
    let at = |k: &str| n.attribute(k);
    let need = |k: &str| at(k).ok_or_else(|| format!("{file}: cluster `{id}` has no `{k}`"));
    let what = |k: &str| format!("{file}: cluster `{id}` {k}");
    let (prefix_, suffix, radical) = (at("prefix").unwrap_or(""), at("suffix").unwrap_or(""), need("radical")?);
    let mut hosts = vec![];
    for part in radical.split(',') {
        let (a, b) = part.split_once('-').unwrap_or((part, part));
        let (a, b): (u64, u64) = (a.trim().parse().map_err(|_| what("radical"))?, b.trim().parse().map_err(|_| what("radical"))?);
        if b < a || b - a > super::model::MAX_NP as u64 {
            return Err(format!("{}: `{radical}` is not a range of host numbers", what("radical")));
        }
        hosts.extend((a..=b).map(|i| format!("{prefix_}{i}{suffix}")));
    }
    let lat = value(need("lat")?, "s", &what("lat"))?;
    let bw = value(need("bw")?, "Bps", &what("bw"))?;
    let (mut latency, mut bandwidth) = (2.0 * lat, bw);
    if let Some(b) = at("bb_bw") {
        bandwidth = bandwidth.min(value(b, "Bps", &what("bb_bw"))?);
        latency += at("bb_lat").map(|l| value(l, "s", &what("bb_lat"))).transpose()?.unwrap_or(0.0);
    }
    if bandwidth.is_nan() || bandwidth <= 0.0 {
        return Err(format!("{}: bandwidth must be > 0", what("bw")));
    }
    let loopback = match (at("loopback_bw"), at("loopback_lat")) {
        (Some(b), l) => Some(Segment {
            min_bytes: 0,
            latency: l.map(|l| value(l, "s", &what("loopback_lat"))).transpose()?.unwrap_or(0.0),
            bandwidth: value(b, "Bps", &what("loopback_bw"))?,
        }),
        _ => None,
    };
    let speed = at("speed").map(|s| value(s, "f", &what("speed"))).transpose()?.unwrap_or(1e9);
    Ok(Cluster { hosts, inter: Segment { min_bytes: 0, latency, bandwidth }, loopback, speed })
}

/// The platform of a SimGrid XML file and an SMPI hostfile (`None`: one rank per
/// host, in the platform's host order) for `np` ranks.
pub fn load(xml: &Path, hostfile: Option<&Path>, np: u64) -> Result<Platform, String> {
    let file = xml.display().to_string();
    let bytes = xmpc_outfile::read_bounded(xml, super::model::MAX_PLATFORM_BYTES).map_err(|e| format!("platform file: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("{file}: the file is not UTF-8 text"))?;
    let opt = roxmltree::ParsingOptions { allow_dtd: true, ..Default::default() };
    let doc = roxmltree::Document::parse_with_options(&text, opt).map_err(|e| format!("{file}: {e}"))?;
    let mut clusters = vec![];
    for n in doc.descendants().filter(|n| n.is_element()) {
        match n.tag_name().name() {
            "platform" | "zone" | "AS" | "prop" | "config" => {}
            "cluster" => clusters.push(cluster(n, &file)?),
            other => {
                let (line, col) = {
                    let p = doc.text_pos_at(n.range().start);
                    (p.row, p.col)
                };
                return Err(format!("{file}:{line}:{col}: <{other}> is not supported (BSIM reads SimGrid platforms made of <cluster> elements)"));
            }
        }
    }
    let Some(first) = clusters.first() else { return Err(format!("{file}: no <cluster> element")) };
    if clusters.len() > 1 {
        return Err(format!("{file}: {} clusters; BSIM reads one (routes between clusters are not modelled)", clusters.len()));
    }
    let host_index: HashMap<&str, u64> = first.hosts.iter().enumerate().map(|(i, h)| (h.as_str(), i as u64)).collect();
    let nodes = match hostfile {
        None => NodeMap::Block(1),
        Some(h) => {
            let hf = h.display().to_string();
            let t = xmpc_outfile::read_bounded(h, super::model::MAX_PLATFORM_BYTES).map_err(|e| format!("hostfile: {e}"))?;
            let t = String::from_utf8_lossy(&t).into_owned();
            let mut slots: Vec<u64> = vec![];
            for (i, line) in t.lines().enumerate() {
                let l = line.trim();
                if l.is_empty() || l.starts_with('#') {
                    continue;
                }
                let (name, count) = match l.split_once(':') {
                    Some((n, c)) => (n.trim(), c.trim().parse::<u64>().map_err(|_| format!("{hf}:{}: `{l}`: expected HOST or HOST:COUNT", i + 1))?),
                    None => (l, 1),
                };
                let node = *host_index.get(name).ok_or_else(|| format!("{hf}:{}: host `{name}` is not in {file}", i + 1))?;
                for _ in 0..count {
                    if slots.len() as u64 >= np.max(1) {
                        break;
                    }
                    slots.push(node);
                }
            }
            if slots.is_empty() {
                return Err(format!("{hf}: no host"));
            }
            NodeMap::List(slots)
        }
    };
    let mut p = Platform {
        name: xml.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default(),
        inter: Link { segments: vec![first.inter] },
        intra: first.loopback.map(|s| Link { segments: vec![s] }),
        nodes,
        ..Platform::default()
    };
    // SMPI's defaults (smpi/send-is-detached-thresh, smpi/async-small-thresh,
    // smpi/test; 16 header bytes per message) until --cfg says otherwise
    p.eager_threshold = 65536;
    p.async_threshold = 0;
    p.o_test = 1e-4;
    p.header_bytes = 16;
    // measured seconds x host-speed flops, run at the hosts' speed
    p.compute.factor = 1e9 / first.speed;
    Ok(p)
}

/// Apply `smpirun --cfg=NAME:VALUE` options BSIM models; the others are
/// returned (for a warning).
pub fn apply_cfg(p: &mut Platform, cfgs: &[String], host_speed_of_platform: f64) -> Result<Vec<String>, String> {
    let mut ignored = vec![];
    for c in cfgs {
        let c = c.strip_prefix("--cfg=").unwrap_or(c);
        let Some((k, v)) = c.split_once(':') else { return Err(format!("--cfg={c}: expected NAME:VALUE")) };
        let bad = || format!("--cfg={c}: bad value");
        match k {
            "smpi/send-is-detached-thresh" => p.eager_threshold = v.parse().map_err(|_| bad())?,
            "smpi/async-small-thresh" => p.async_threshold = v.parse().map_err(|_| bad())?,
            "smpi/test" => p.o_test = v.parse().map_err(|_| bad())?,
            "smpi/simulate-computation" => p.compute.host = matches!(v, "yes" | "1" | "true" | "on"),
            "smpi/cpu-threshold" => p.compute.threshold = v.parse().map_err(|_| bad())?,
            "smpi/host-speed" => p.compute.factor = value(v, "f", "smpi/host-speed")? / host_speed_of_platform,
            _ => ignored.push(c.to_string()),
        }
    }
    Ok(ignored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units() {
        assert_eq!(value("1e10Bps", "Bps", "x").unwrap(), 1e10);
        assert_eq!(value("10GBps", "Bps", "x").unwrap(), 1e10);
        assert_eq!(value("8Gbps", "Bps", "x").unwrap(), 1e9);
        assert_eq!(value("1us", "s", "x").unwrap(), 1e-6);
        assert_eq!(value("1e-6s", "s", "x").unwrap(), 1e-6);
        assert_eq!(value("1Gf", "f", "x").unwrap(), 1e9);
        assert!(value("1parsec", "s", "x").is_err());
    }

    #[test]
    fn exported_cluster_round_trips() {
        let d = tempfile::tempdir().unwrap();
        let x = d.path().join("p.xml");
        std::fs::write(&x, "<?xml version='1.0'?>\n<platform version=\"4.1\"><zone id=\"w\" routing=\"Full\">\n<cluster id=\"c\" prefix=\"node-\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" core=\"1\" bw=\"1e15Bps\" lat=\"0s\" bb_bw=\"1e10Bps\" bb_lat=\"1e-6s\" bb_sharing_policy=\"FATPIPE\" loopback_bw=\"4e10Bps\" loopback_lat=\"3e-7s\"/>\n</zone></platform>\n").unwrap();
        let h = d.path().join("h");
        std::fs::write(&h, "node-0:2\nnode-1\nnode-3\n").unwrap();
        let p = load(&x, Some(&h), 4).unwrap();
        assert_eq!(p.inter.segments[0].latency, 1e-6);
        assert_eq!(p.inter.segments[0].bandwidth, 1e10);
        assert_eq!(p.intra.as_ref().unwrap().segments[0].bandwidth, 4e10);
        assert_eq!(p.nodes, NodeMap::List(vec![0, 0, 1, 3]));
        std::fs::write(&h, "node-9\n").unwrap();
        assert!(load(&x, Some(&h), 4).unwrap_err().contains("host `node-9` is not in"));
        std::fs::write(&x, "<platform><zone id=\"w\"><host id=\"a\" speed=\"1Gf\"/></zone></platform>").unwrap();
        assert!(load(&x, None, 4).unwrap_err().contains("<host> is not supported"));
    }
}
