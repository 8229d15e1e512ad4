//! Trace exports of a BSIM run for other tools: Paje (the text format of SimGrid,
//! ViTE and PajeNG) and OTF2 (Score-P's format, read by Vampir and `otf2-print`),
//! written through the OTF2 C library (csrc/otf2_export.c).

use crate::output::{EvKind, RankResult};
use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, CString};
use std::fmt::Write as _;
use std::path::Path;

/// The Paje event definitions used (field names as in the Paje file format).
const PAJE_HEADER: &str = "\
%EventDef PajeDefineContainerType 0
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineStateType 1
%       Alias string
%       Type string
%       Name string
%EndEventDef
%EventDef PajeDefineEntityValue 2
%       Alias string
%       Type string
%       Name string
%       Color color
%EndEventDef
%EventDef PajeDefineLinkType 3
%       Alias string
%       Type string
%       StartContainerType string
%       EndContainerType string
%       Name string
%EndEventDef
%EventDef PajeCreateContainer 4
%       Time date
%       Alias string
%       Type string
%       Container string
%       Name string
%EndEventDef
%EventDef PajeDestroyContainer 5
%       Time date
%       Type string
%       Name string
%EndEventDef
%EventDef PajePushState 6
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
%EventDef PajePopState 7
%       Time date
%       Type string
%       Container string
%EndEventDef
%EventDef PajeStartLink 8
%       Time date
%       Type string
%       Container string
%       Value string
%       StartContainer string
%       Key string
%EndEventDef
%EventDef PajeEndLink 9
%       Time date
%       Type string
%       Container string
%       Value string
%       EndContainer string
%       Key string
%EndEventDef
%EventDef PajeNewEvent 10
%       Time date
%       Type string
%       Container string
%       Value string
%EndEventDef
";

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "'"))
}

/// The run as a Paje trace: one container per rank under the program's, a state per
/// region (compute, waiting, then the LMPI call) pushed and popped, a link per message
/// from its send to the end of its receive, user events as Paje events. Lines after
/// the definitions are in time order, as Paje readers require.
pub fn paje_trace(res: &[RankResult], tmax: f64) -> String {
    let mut s = String::from(PAJE_HEADER);
    s.push_str("0 CT_Prog 0 \"Program\"\n0 CT_Rank CT_Prog \"Rank\"\n1 ST_State CT_Rank \"State\"\n");
    s.push_str("3 LT_Msg CT_Prog CT_Rank CT_Rank \"Message\"\n1 ET_User CT_Rank \"User event\"\n");
    s.push_str("2 V_compute ST_State \"compute\" \"0.2 0.2 0.2\"\n2 V_wait ST_State \"waiting\" \"0.94 0.78 0.16\"\n");
    // one value per LMPI call name
    let mut values: BTreeMap<&str, usize> = BTreeMap::new();
    for r in res {
        for e in r.events.iter().filter(|e| e.kind == EvKind::Comm) {
            let n = values.len();
            values.entry(e.name).or_insert(n);
        }
    }
    for (name, i) in &values {
        let _ = writeln!(s, "2 V_c{i} ST_State {} \"0.27 0.51 0.86\"", quote(name));
    }
    s.push_str("4 0 C_Prog CT_Prog 0 \"bsim\"\n");
    for r in res {
        let _ = writeln!(s, "4 0 R{} CT_Rank C_Prog \"rank {}\"", r.rank, r.rank);
    }
    // (time, order at equal times, line): pops first, then pushes, link ends, link starts
    let mut lines: Vec<(f64, u8, String)> = Vec::new();
    let mut key = 0u64;
    for r in res {
        let c = format!("R{}", r.rank);
        for e in &r.events {
            match e.kind {
                EvKind::Compute => {
                    lines.push((e.t0, 1, format!("6 {:.12} ST_State {c} V_compute", e.t0)));
                    lines.push((e.t1, 0, format!("7 {:.12} ST_State {c}", e.t1)));
                }
                EvKind::Comm => {
                    let v = values[e.name];
                    lines.push((e.t0, 1, format!("6 {:.12} ST_State {c} V_c{v}", e.t0)));
                    if e.wait_end > e.t0 {
                        // waiting nested in the call
                        lines.push((e.t0, 2, format!("6 {:.12} ST_State {c} V_wait", e.t0)));
                        lines.push((e.wait_end, 0, format!("7 {:.12} ST_State {c}", e.wait_end)));
                    }
                    lines.push((e.t1, 0, format!("7 {:.12} ST_State {c}", e.t1)));
                }
                EvKind::User => lines.push((e.t0, 3, format!("10 {:.12} ET_User {c} {}", e.t0, quote(e.name)))),
            }
        }
        for m in &r.msgs {
            key += 1;
            lines.push((m.ts, 4, format!("8 {:.12} LT_Msg C_Prog \"{}\" R{} m{key}", m.ts, m.bytes, m.src)));
            lines.push((m.tr, 3, format!("9 {:.12} LT_Msg C_Prog \"{}\" {c} m{key}", m.tr, m.bytes)));
        }
    }
    // stable: a rank's pops keep their nesting order
    lines.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    for (_, _, l) in lines {
        s.push_str(&l);
        s.push('\n');
    }
    for r in res {
        let _ = writeln!(s, "5 {tmax:.12} CT_Rank R{}", r.rank);
    }
    let _ = writeln!(s, "5 {tmax:.12} CT_Prog C_Prog");
    s
}

/// One OTF2 event (csrc/otf2_export.c, struct bsim_otf2_ev).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
struct Otf2Ev {
    t: u64,
    kind: u32,
    region: u32,
    peer: u32,
    tag: u32,
    bytes: u64,
}

extern "C" {
    fn bsim_otf2_write(
        dir: *const c_char,
        name: *const c_char,
        nranks: u32,
        tend: u64,
        regions: *const *const c_char,
        nregions: u32,
        evs: *const Otf2Ev,
        off: *const u64,
        err: *mut c_char,
        cap: c_int,
    ) -> c_int;
}

const RECV: u32 = 0;
const LEAVE: u32 = 1;
const ENTER: u32 = 2;
const SEND: u32 = 3;

/// Seconds of virtual time to OTF2 ticks (picoseconds).
fn ps(t: f64) -> u64 {
    (t * 1e12).round().max(0.0) as u64
}

/// Every rank's events in time order: (regions, events, offsets per rank).
fn otf2_events(res: &[RankResult]) -> (Vec<String>, Vec<Otf2Ev>, Vec<u64>) {
    let mut regions: Vec<String> = vec!["compute".into()];
    let mut ids: BTreeMap<&str, u32> = BTreeMap::new();
    let mut evs = Vec::new();
    let mut off = vec![0u64];
    for r in res {
        let mut mine: Vec<Otf2Ev> = Vec::new();
        let ev = |t: f64, kind, region, peer, tag: i32, bytes| Otf2Ev { t: ps(t), kind, region, peer, tag: tag as u32, bytes };
        for e in &r.events {
            let region = match e.kind {
                EvKind::Compute => 0,
                EvKind::Comm => *ids.entry(e.name).or_insert_with(|| {
                    regions.push(e.name.to_string());
                    regions.len() as u32 - 1
                }),
                EvKind::User => continue,
            };
            mine.push(ev(e.t0, ENTER, region, 0, 0, 0));
            mine.push(ev(e.t1.max(e.t0), LEAVE, region, 0, 0, 0));
        }
        for m in &r.msgs {
            mine.push(ev(m.tr, RECV, 0, m.src, m.tag, m.bytes));
        }
        evs.extend(mine);
        off.push(evs.len() as u64);
    }
    // sends belong to the sender: from the receivers' records
    let mut sends: Vec<Vec<Otf2Ev>> = vec![Vec::new(); res.len()];
    for r in res {
        for m in &r.msgs {
            if let Some(v) = sends.get_mut(m.src as usize) {
                v.push(Otf2Ev { t: ps(m.ts), kind: SEND, region: 0, peer: r.rank, tag: m.tag as u32, bytes: m.bytes });
            }
        }
    }
    let mut out = Vec::with_capacity(evs.len() + sends.iter().map(Vec::len).sum::<usize>());
    let mut offs = vec![0u64];
    for (i, extra) in sends.into_iter().enumerate() {
        let mut v: Vec<Otf2Ev> = evs[off[i] as usize..off[i + 1] as usize].to_vec();
        v.extend(extra);
        // at one time: a receive ends before its call leaves, a call leaves before the
        // next enters, a send follows the enter of its call; stable otherwise
        v.sort_by(|a, b| a.t.cmp(&b.t).then(a.kind.cmp(&b.kind)));
        out.extend(v);
        offs.push(out.len() as u64);
    }
    (regions, out, offs)
}

/// Write the run as an OTF2 archive `DIR/traces.otf2` (+ `traces.def`, `traces/`).
/// Written beside DIR and renamed into place; an existing DIR is replaced only when it
/// holds an OTF2 archive (`traces.otf2`), never another directory.
pub fn write_otf2(dir: &Path, res: &[RankResult], tmax: f64) -> Result<(), String> {
    if dir.exists() && !(dir.is_dir() && dir.join("traces.otf2").is_file()) {
        return Err(format!("{}: exists and is not an OTF2 archive directory (traces.otf2); not replaced", dir.display()));
    }
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    let base = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "otf2".into());
    let tmp = parent.join(format!(".{base}.tmp{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (regions, evs, off) = otf2_events(res);
    let cregions: Vec<CString> = regions.iter().map(|r| CString::new(r.as_str()).unwrap_or_default()).collect();
    let ptrs: Vec<*const c_char> = cregions.iter().map(|c| c.as_ptr()).collect();
    let cdir = CString::new(tmp.to_string_lossy().as_bytes()).map_err(|_| format!("{}: a path with a NUL byte", dir.display()))?;
    let name = CString::new("traces").unwrap();
    let mut err = vec![0 as c_char; 512];
    // SAFETY: every pointer is valid for the call; `off` has nranks + 1 entries
    // bounding `evs`; `err` has the capacity given.
    let rc = unsafe {
        bsim_otf2_write(
            cdir.as_ptr(),
            name.as_ptr(),
            res.len() as u32,
            ps(tmax),
            ptrs.as_ptr(),
            ptrs.len() as u32,
            evs.as_ptr(),
            off.as_ptr(),
            err.as_mut_ptr(),
            err.len() as c_int,
        )
    };
    if rc != 0 {
        let _ = std::fs::remove_dir_all(&tmp);
        // SAFETY: NUL-terminated by snprintf within the buffer
        let msg = unsafe { std::ffi::CStr::from_ptr(err.as_ptr()) }.to_string_lossy().into_owned();
        return Err(format!("{}: OTF2 export: {msg}", dir.display()));
    }
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::rename(&tmp, dir).map_err(|e| format!("{}: {e}", dir.display()))
}
