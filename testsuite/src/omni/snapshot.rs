//! The ratchet: a committed per-line snapshot of a suite's results
//! (`testsuite/omni/<suite>.json`). A line that passes in the snapshot and does not
//! pass now is a regression (the runner fails); a line passing now that did not in the
//! snapshot is reported as newly passing until `--update` records it.
//!
//! Format: one JSON object per line of the file, in Makefile order, so a diff shows
//! exactly which lines changed:
//!
//! ```text
//! {"suite": "omni-xmp-c", "passed": 57, "lines": [
//! {"area": "align", "exe": "offset.x", "np": 2, "class": "pass"},
//! ...
//! ]}
//! ```

use std::collections::BTreeMap;

use super::classify::Class;

/// One recorded line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub area: String,
    pub exe: String,
    pub np: u32,
    pub class: Class,
}

impl Entry {
    /// `area/exe -n N`, the key lines are matched by (a Makefile may run one program at
    /// several counts).
    pub fn key(&self) -> String {
        format!("{}/{} -n {}", self.area, self.exe, self.np)
    }
}

/// Reads a snapshot file's text.
pub fn parse(text: &str) -> Result<Vec<Entry>, String> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| format!("bad snapshot JSON: {e}"))?;
    let lines = v.get("lines").and_then(|l| l.as_array()).ok_or("snapshot has no `lines` array")?;
    lines
        .iter()
        .map(|l| {
            let s = |k: &str| l.get(k).and_then(|x| x.as_str()).map(str::to_string).ok_or(format!("snapshot line without `{k}`: {l}"));
            let class = s("class")?;
            Ok(Entry {
                area: s("area")?,
                exe: s("exe")?,
                np: l.get("np").and_then(|x| x.as_u64()).ok_or(format!("snapshot line without `np`: {l}"))? as u32,
                class: Class::from_name(&class).ok_or(format!("unknown class `{class}` in snapshot"))?,
            })
        })
        .collect()
}

/// The snapshot file's text for `entries`.
pub fn render(suite: &str, entries: &[Entry]) -> String {
    let passed = entries.iter().filter(|e| e.class == Class::Pass).count();
    let mut s = format!("{{\"suite\": {}, \"passed\": {passed}, \"total\": {}, \"lines\": [\n", serde_json::Value::from(suite), entries.len());
    for (k, e) in entries.iter().enumerate() {
        s.push_str(&format!(
            "{{\"area\": {}, \"exe\": {}, \"np\": {}, \"class\": \"{}\"}}{}\n",
            serde_json::Value::from(e.area.as_str()),
            serde_json::Value::from(e.exe.as_str()),
            e.np,
            e.class,
            if k + 1 < entries.len() { "," } else { "" }
        ));
    }
    s.push_str("]}\n");
    s
}

/// How the current results compare with the snapshot.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Passed in the snapshot, do not pass now (key, class now).
    pub regressions: Vec<(String, Class)>,
    /// Pass now, did not in the snapshot (or were not in it).
    pub newly_passing: Vec<String>,
    /// Lines of the snapshot's compared areas that the Makefiles no longer list.
    pub gone: Vec<String>,
}

/// Compares `now` with `snap`, only over the areas present in `now` (a `--filter` run
/// compares what it ran).
pub fn compare(snap: &[Entry], now: &[Entry]) -> Comparison {
    let areas: std::collections::BTreeSet<&str> = now.iter().map(|e| e.area.as_str()).collect();
    let old: BTreeMap<String, Class> = snap.iter().filter(|e| areas.contains(e.area.as_str())).map(|e| (e.key(), e.class)).collect();
    let new: BTreeMap<String, Class> = now.iter().map(|e| (e.key(), e.class)).collect();
    let mut c = Comparison::default();
    for e in now {
        let k = e.key();
        match old.get(&k) {
            Some(Class::Pass) if e.class != Class::Pass => c.regressions.push((k, e.class)),
            Some(Class::Pass) => {}
            _ if e.class == Class::Pass => c.newly_passing.push(k),
            _ => {}
        }
    }
    for (k, class) in &old {
        if !new.contains_key(k) {
            if *class == Class::Pass {
                c.regressions.push((k.clone(), Class::Refused));
            }
            c.gone.push(k.clone());
        }
    }
    c
}

/// The snapshot after `--update`: the areas that ran take their current results, the
/// others keep theirs (a `--filter` update touches only what it ran). Makefile order:
/// areas sorted by name, lines in Makefile order.
pub fn merge(snap: &[Entry], now: &[Entry]) -> Vec<Entry> {
    let areas: std::collections::BTreeSet<&str> = now.iter().map(|e| e.area.as_str()).collect();
    let mut by_area: BTreeMap<String, Vec<Entry>> = BTreeMap::new();
    for e in snap.iter().filter(|e| !areas.contains(e.area.as_str())).chain(now) {
        by_area.entry(e.area.clone()).or_default().push(e.clone());
    }
    by_area.into_values().flatten().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(area: &str, exe: &str, np: u32, class: Class) -> Entry {
        Entry { area: area.into(), exe: exe.into(), np, class }
    }

    #[test]
    fn round_trip() {
        let v = vec![e("align", "offset.x", 2, Class::Pass), e("align", "scope.x", 2, Class::Refused)];
        let text = render("omni-xmp-c", &v);
        assert_eq!(text.lines().count(), 4, "{text}");
        assert!(text.starts_with("{\"suite\": \"omni-xmp-c\", \"passed\": 1, \"total\": 2,"));
        assert_eq!(parse(&text).unwrap(), v);
        assert!(parse("{\"lines\": [{\"area\": \"a\", \"exe\": \"b\", \"np\": 2, \"class\": \"ok\"}]}").unwrap_err().contains("unknown class"));
    }

    #[test]
    fn ratchet() {
        let snap = vec![
            e("loop", "reduction_plus.x", 4, Class::Pass),
            e("loop", "reduction_plus.x", 8, Class::WrongAnswer),
            e("loop", "expand.x", 4, Class::Refused),
            e("bcast", "bcast.x", 4, Class::Pass),
        ];
        // np 4 regressed, np 8 and expand newly pass; bcast not run (filtered): not compared
        let now = vec![e("loop", "reduction_plus.x", 4, Class::Abort), e("loop", "reduction_plus.x", 8, Class::Pass), e("loop", "expand.x", 4, Class::Pass)];
        let c = compare(&snap, &now);
        assert_eq!(c.regressions, vec![("loop/reduction_plus.x -n 4".to_string(), Class::Abort)]);
        assert_eq!(c.newly_passing, vec!["loop/reduction_plus.x -n 8".to_string(), "loop/expand.x -n 4".to_string()]);
        assert!(c.gone.is_empty());
        // a passing line that disappeared is a regression too
        let c = compare(&snap, &now[1..]);
        assert_eq!(c.gone, vec!["loop/reduction_plus.x -n 4".to_string()]);
        assert_eq!(c.regressions.len(), 1);
        // a line new to the snapshot that passes is newly passing
        let c = compare(&[], &now);
        assert_eq!(c.newly_passing.len(), 2);
        assert!(c.regressions.is_empty());

        let merged = merge(&snap, &now);
        assert_eq!(merged.len(), 4);
        assert_eq!(merged[0], snap[3], "areas sorted by name; bcast kept from the snapshot");
        assert_eq!(&merged[1..], &now[..]);
    }
}
