//! Block time tables (`xmpc-blocktimes/1`, shared with MPIETE): block id → seconds per
//! execution, overall and per rank.

use std::collections::HashMap;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlockTime {
    pub mean_s: f64,
    pub count: u64,
    /// Mean per rank (empty when the table has none).
    pub per_rank: Vec<f64>,
}

#[derive(Clone, Debug, Default)]
pub struct TimeTable {
    pub source: String,
    pub ranks: usize,
    pub blocks: HashMap<u32, BlockTime>,
}

impl TimeTable {
    /// Parses the JSON text of a table; the error says what is wrong.
    pub fn parse(text: &str) -> Result<TimeTable, String> {
        let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let fmt = v.get("format").and_then(|f| f.as_str()).unwrap_or("");
        if fmt != "xmpc-blocktimes/1" {
            return Err(format!("format is `{fmt}`, expected `xmpc-blocktimes/1`"));
        }
        let mut t = TimeTable {
            source: v.get("source").and_then(|s| s.as_str()).unwrap_or("").to_string(),
            ranks: v.get("ranks").and_then(|r| r.as_u64()).unwrap_or(0) as usize,
            blocks: HashMap::new(),
        };
        let blocks = v.get("blocks").and_then(|b| b.as_array()).ok_or("no `blocks` array")?;
        for (i, b) in blocks.iter().enumerate() {
            let id = b.get("id").and_then(|x| x.as_u64()).ok_or(format!("blocks[{i}] has no integer `id`"))? as u32;
            let mean_s = b.get("mean_s").and_then(|x| x.as_f64()).ok_or(format!("block {id} has no number `mean_s`"))?;
            if !(mean_s.is_finite() && mean_s >= 0.0) {
                return Err(format!("block {id}: mean_s {mean_s} is not a non-negative number"));
            }
            let count = b.get("count").and_then(|x| x.as_u64()).unwrap_or(0);
            let per_rank = match b.get("per_rank").and_then(|x| x.as_array()) {
                Some(a) => a.iter().map(|r| r.get("mean_s").and_then(|x| x.as_f64()).unwrap_or(mean_s)).collect(),
                None => vec![],
            };
            t.blocks.insert(id, BlockTime { mean_s, count, per_rank });
        }
        Ok(t)
    }
}

/// A real literal: C `1.25e-03`, Fortran double precision `1.25d-03`.
pub fn literal(x: f64, fortran: bool) -> String {
    let s = format!("{x:.6e}");
    if fortran {
        s.replace('e', "d")
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_table() {
        let t = TimeTable::parse(r#"{"format":"xmpc-blocktimes/1","source":"p.c","ranks":2,"blocks":[{"id":3,"mean_s":1.5e-3,"count":10,"per_rank":[{"mean_s":1e-3,"count":5},{"mean_s":2e-3,"count":5}]}]}"#).unwrap();
        assert_eq!(t.blocks[&3].per_rank, vec![1e-3, 2e-3]);
        assert!(TimeTable::parse(r#"{"format":"x","blocks":[]}"#).is_err());
        assert!(TimeTable::parse(r#"{"format":"xmpc-blocktimes/1","blocks":[{"id":1}]}"#).unwrap_err().contains("block 1"));
        assert_eq!(literal(1.5e-3, true), "1.500000d-3");
    }
}
