//! Compute base data (`xmpc-blocktimes/1`) and communication base data
//! (`xmpc-commdata/1`), both JSON.

use serde::{Deserialize, Serialize};
use std::path::Path;

#[derive(Serialize, Deserialize, Debug, Clone, Default)]
pub struct RankTime {
    pub mean_s: f64,
    pub count: f64,
    /// Standard deviation of one execution (0: unknown or one execution).
    #[serde(default)]
    pub sd_s: f64,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct BlockTime {
    pub id: u32,
    pub mean_s: f64,
    pub count: f64,
    #[serde(default)]
    pub per_rank: Vec<RankTime>,
}

/// `blocktimes.json` as written at MPI_Finalize in compute (or token) mode.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct BlockTimes {
    pub format: String,
    #[serde(default)]
    pub source: String,
    pub ranks: usize,
    #[serde(default)]
    pub token: bool,
    pub blocks: Vec<BlockTime>,
}

/// The largest data file read (an endless input such as `/dev/zero` is refused).
pub const MAX_DATA_BYTES: u64 = 256 << 20;
/// The largest block id and rank count a compute data file may give (the predictor's
/// tables are dense in both).
pub const MAX_BLOCK_ID: u32 = 1 << 20;
pub const MAX_RANKS: usize = 1 << 20;

fn read_json<T: for<'a> Deserialize<'a>>(path: &Path, what: &str) -> Result<T, String> {
    let bytes = xmpc_outfile::read_bounded(path, MAX_DATA_BYTES).map_err(|e| format!("{what}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| format!("{}: {what} is not UTF-8 (byte {})", path.display(), e.utf8_error().valid_up_to()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}:{}:{}: not valid {what}: {e}", path.display(), e.line(), e.column()))
}

impl BlockTimes {
    pub fn load(path: &Path) -> Result<Self, String> {
        let b: BlockTimes = read_json(path, "compute base data")?;
        if b.format != "xmpc-blocktimes/1" {
            return Err(format!("{}: format is '{}', expected 'xmpc-blocktimes/1'", path.display(), b.format));
        }
        if b.ranks > MAX_RANKS {
            return Err(format!("{}: ranks {} is out of range (at most {MAX_RANKS})", path.display(), b.ranks));
        }
        for blk in &b.blocks {
            if blk.id > MAX_BLOCK_ID {
                return Err(format!("{}: block id {} is out of range (at most {MAX_BLOCK_ID})", path.display(), blk.id));
            }
            if !(blk.mean_s.is_finite() && blk.mean_s >= 0.0) {
                return Err(format!("{}: block {}: mean_s {} is not a time", path.display(), blk.id, blk.mean_s));
            }
        }
        Ok(b)
    }

    /// T_comp(r, id) as dense per-rank tables (index = block id). A rank the
    /// data does not cover, or a block that rank never ran, gets the block's
    /// mean over all ranks.
    pub fn tables(&self, ranks: usize) -> Vec<Vec<f64>> {
        let n = self.blocks.iter().map(|b| b.id as usize + 1).max().unwrap_or(0);
        (0..ranks)
            .map(|r| {
                let mut t = vec![f64::NAN; n];
                for b in &self.blocks {
                    t[b.id as usize] = match b.per_rank.get(r) {
                        Some(p) if p.count > 0.0 => p.mean_s,
                        _ => b.mean_s,
                    };
                }
                t
            })
            .collect()
    }

    /// Repeated measurements of one program combined: per rank and block the median
    /// of the runs' means, spreads and counts (noise in one run, e.g. a descheduled
    /// rank, does not reach the prediction). The runs must have the same ranks and
    /// blocks.
    pub fn median(runs: &[BlockTimes]) -> Result<BlockTimes, String> {
        let first = runs.first().ok_or("no compute data to merge")?;
        fn med(mut v: Vec<f64>) -> f64 {
            v.sort_by(f64::total_cmp);
            let n = v.len();
            if n % 2 == 1 {
                v[n / 2]
            } else {
                0.5 * (v[n / 2 - 1] + v[n / 2])
            }
        }
        let mut out = first.clone();
        out.source = format!("median of {} runs of {}", runs.len(), first.source);
        for (i, r) in runs.iter().enumerate() {
            if r.ranks != first.ranks || r.blocks.len() != first.blocks.len() {
                return Err(format!(
                    "run {}: {} ranks and {} blocks, run 1: {} and {} (not the same program and arguments?)",
                    i + 1,
                    r.ranks,
                    r.blocks.len(),
                    first.ranks,
                    first.blocks.len()
                ));
            }
        }
        for b in out.blocks.iter_mut() {
            let same: Vec<&BlockTime> =
                runs.iter().map(|r| r.blocks.iter().find(|x| x.id == b.id).ok_or(format!("block {} is missing from a run", b.id))).collect::<Result<_, _>>()?;
            for (k, pr) in b.per_rank.iter_mut().enumerate() {
                let col = |f: &dyn Fn(&RankTime) -> f64| med(same.iter().map(|x| x.per_rank.get(k).map_or(0.0, f)).collect());
                *pr = RankTime { mean_s: col(&|p| p.mean_s), count: col(&|p| p.count).round(), sd_s: col(&|p| p.sd_s) };
            }
            let n: f64 = b.per_rank.iter().map(|p| p.count).sum();
            if n > 0.0 {
                b.count = n;
                b.mean_s = b.per_rank.iter().map(|p| p.mean_s * p.count).sum::<f64>() / n;
            } else {
                b.mean_s = med(same.iter().map(|x| x.mean_s).collect());
            }
        }
        Ok(out)
    }

    /// The spread of one execution, laid out as `tables` (0 where the data has none;
    /// a rank the data does not cover gets the largest spread of the covered ranks).
    pub fn spreads(&self, ranks: usize) -> Vec<Vec<f64>> {
        let n = self.blocks.iter().map(|b| b.id as usize + 1).max().unwrap_or(0);
        (0..ranks)
            .map(|r| {
                let mut t = vec![0.0; n];
                for b in &self.blocks {
                    let sd = match b.per_rank.get(r) {
                        Some(p) if p.count > 0.0 => p.sd_s,
                        _ => b.per_rank.iter().map(|p| p.sd_s).fold(0.0, f64::max),
                    };
                    t[b.id as usize] = if sd.is_finite() && sd > 0.0 { sd } else { 0.0 };
                }
                t
            })
            .collect()
    }
}

#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq)]
pub struct CommPoint {
    pub bytes: u64,
    pub seconds: f64,
}

/// Receive time by message size, measured by ping-pong between two ranks
/// (one-way time: half a round trip).
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct CommData {
    pub format: String,
    #[serde(default)]
    pub reps_note: String,
    pub points: Vec<CommPoint>,
}

impl CommData {
    pub fn load(path: &Path) -> Result<Self, String> {
        let c: CommData = read_json(path, "communication base data")?;
        if c.format != "xmpc-commdata/1" {
            return Err(format!("{}: format is '{}', expected 'xmpc-commdata/1'", path.display(), c.format));
        }
        c.check().map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(c)
    }

    pub fn new(mut points: Vec<CommPoint>) -> Result<Self, String> {
        points.sort_by_key(|p| p.bytes);
        let c = CommData { format: "xmpc-commdata/1".into(), reps_note: String::new(), points };
        c.check()?;
        Ok(c)
    }

    fn check(&self) -> Result<(), String> {
        if self.points.is_empty() {
            return Err("no points".into());
        }
        for w in self.points.windows(2) {
            if w[1].bytes <= w[0].bytes {
                return Err(format!("sizes must increase ({} then {})", w[0].bytes, w[1].bytes));
            }
        }
        if let Some(p) = self.points.iter().find(|p| !(p.seconds.is_finite() && p.seconds >= 0.0)) {
            return Err(format!("{} bytes: {} is not a time", p.bytes, p.seconds));
        }
        Ok(())
    }

    /// A lookup table for the predictor.
    pub fn model(&self) -> CommModel {
        CommModel { bytes: self.points.iter().map(|p| p.bytes as f64).collect(), secs: self.points.iter().map(|p| p.seconds).collect() }
    }
}

/// Piecewise-linear T_comm(size); beyond the last point the last segment's
/// slope continues; below the first point, the first point's time.
#[derive(Clone, Debug)]
pub struct CommModel {
    bytes: Vec<f64>,
    secs: Vec<f64>,
}

impl CommModel {
    pub fn constant(latency: f64, bandwidth: f64) -> Self {
        CommModel { bytes: vec![0.0, 1e9], secs: vec![latency, latency + 1e9 / bandwidth] }
    }

    #[inline]
    pub fn time(&self, size: u64) -> f64 {
        let x = size as f64;
        let b = &self.bytes;
        let n = b.len();
        if n == 1 || x <= b[0] {
            return self.secs[0];
        }
        // index of the first point >= x (small tables: binary search)
        let i = b.partition_point(|&v| v < x).min(n - 1).max(1);
        let (x0, x1, y0, y1) = (b[i - 1], b[i], self.secs[i - 1], self.secs[i]);
        (y0 + (y1 - y0) * (x - x0) / (x1 - x0)).max(0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation() {
        let c = CommData::new(vec![CommPoint { bytes: 0, seconds: 1e-6 }, CommPoint { bytes: 1000, seconds: 2e-6 }, CommPoint { bytes: 2000, seconds: 4e-6 }])
            .unwrap();
        let m = c.model();
        assert_eq!(m.time(0), 1e-6);
        assert!((m.time(500) - 1.5e-6).abs() < 1e-15);
        assert!((m.time(1500) - 3e-6).abs() < 1e-15);
        assert!((m.time(3000) - 6e-6).abs() < 1e-15); // extrapolated
        assert!(CommData::new(vec![CommPoint { bytes: 5, seconds: 1.0 }, CommPoint { bytes: 5, seconds: 2.0 }]).is_err());
        assert!(CommData::new(vec![]).is_err());
    }

    #[test]
    fn tables_fall_back_to_mean() {
        let b: BlockTimes = serde_json::from_str(
            r#"{"format":"xmpc-blocktimes/1","source":"x","ranks":2,"blocks":[
            {"id":2,"mean_s":2.0,"count":3,"per_rank":[{"mean_s":1.0,"count":1},{"mean_s":2.5,"count":2}]},
            {"id":0,"mean_s":5.0,"count":1,"per_rank":[{"mean_s":5.0,"count":1},{"mean_s":0,"count":0}]}]}"#,
        )
        .unwrap();
        let t = b.tables(3);
        assert_eq!(t[0][2], 1.0);
        assert_eq!(t[1][2], 2.5);
        assert_eq!(t[2][2], 2.0);
        assert_eq!(t[1][0], 5.0);
        assert!(t[0][1].is_nan());
    }

    #[test]
    fn median_of_runs() {
        let run = |a: f64, b: f64| -> BlockTimes {
            serde_json::from_str(&format!(
                r#"{{"format":"xmpc-blocktimes/1","source":"x","ranks":2,"blocks":[
                {{"id":3,"mean_s":0,"count":4,"per_rank":[{{"mean_s":{a},"count":1}},{{"mean_s":{b},"count":3,"sd_s":{b}}}]}}]}}"#
            ))
            .unwrap()
        };
        let m = BlockTimes::median(&[run(1.0, 5.0), run(9.0, 2.0), run(2.0, 4.0)]).unwrap();
        let b = &m.blocks[0];
        assert_eq!((b.per_rank[0].mean_s, b.per_rank[1].mean_s, b.per_rank[1].sd_s), (2.0, 4.0, 4.0));
        assert_eq!((b.count, b.mean_s), (4.0, (2.0 + 3.0 * 4.0) / 4.0));
        let other: BlockTimes = serde_json::from_str(r#"{"format":"xmpc-blocktimes/1","ranks":4,"blocks":[]}"#).unwrap();
        assert!(BlockTimes::median(&[run(1.0, 1.0), other]).unwrap_err().contains("not the same program"));
    }

    #[test]
    fn spreads_fall_back_to_the_largest() {
        let b: BlockTimes = serde_json::from_str(
            r#"{"format":"xmpc-blocktimes/1","source":"x","ranks":2,"blocks":[
            {"id":1,"mean_s":2.0,"count":4,"per_rank":[{"mean_s":1.0,"count":2,"sd_s":0.5},{"mean_s":3.0,"count":2,"sd_s":0.25}]},
            {"id":0,"mean_s":5.0,"count":1,"per_rank":[{"mean_s":5.0,"count":1}]}]}"#,
        )
        .unwrap();
        let s = b.spreads(3);
        assert_eq!(s[0], vec![0.0, 0.5]);
        assert_eq!(s[1], vec![0.0, 0.25]);
        assert_eq!(s[2], vec![0.0, 0.5]);
    }
}
