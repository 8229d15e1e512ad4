//! The XMP declarations of a Fortran module, as text, so that a unit of another file
//! that `use`s the module can be translated (Omni's `.xmod` files play this part).
//! The driver keeps it beside the module's `.mod` file, as `<module>.xmpmod`.
//!
//! JSON: `{"format": "xmpc-xmpmod/1", "module": m, "nodes": {name: [handle, rank]},
//! "templates": {name: [handle, rank, [format...]]}, "arrays": {name: {...}},
//! "onto": {template: nodes handle}, "pending": {array: [rank, [line...]]},
//! "setup": [line...]}`.

use super::names::{nodes_handle, templ_handle};
use super::{Arr, Unit};
use serde_json::{json, Map, Value};
use xmpc_ir::directive::DistFormat;
use xmpc_passes::xmp_model::symbols::Entity;
use xmpc_passes::xmp_model::{Import, Model};

const FORMAT: &str = "xmpc-xmpmod/1";

/// True when module `module` has XMP objects (a description is worth writing).
pub(super) fn has_objects(m: &Model, module: &str, u: &Unit) -> bool {
    !u.arrays.is_empty() || !u.vars.is_empty() || m.module(module).is_some_and(|s| !s.names.is_empty())
}

fn fmt_name(f: DistFormat) -> &'static str {
    match f {
        DistFormat::Dup => "*",
        DistFormat::Block => "block",
        DistFormat::Cyclic => "cyclic",
        DistFormat::GBlock => "gblock",
    }
}

fn fmt_parse(s: &str) -> Option<DistFormat> {
    Some(match s {
        "*" => DistFormat::Dup,
        "block" => DistFormat::Block,
        "cyclic" => DistFormat::Cyclic,
        "gblock" => DistFormat::GBlock,
        _ => return None,
    })
}

pub(super) fn write(module: &str, u: &Unit, m: &Model) -> String {
    let (mut nodes, mut templs, mut onto) = (Map::new(), Map::new(), Map::new());
    for (k, e) in m.module(module).map(|s| s.names.iter().collect::<Vec<_>>()).unwrap_or_default() {
        match *e {
            Entity::Nodes(n) => {
                nodes.insert(k.clone(), json!([nodes_handle(m, n), m.node(n).rank()]));
            }
            Entity::Template(t) => {
                let tt = m.templ(t);
                let f: Vec<&str> = tt.dist.as_ref().map(|d| d.dims.iter().map(|x| fmt_name(x.format)).collect()).unwrap_or_default();
                templs.insert(k.clone(), json!([templ_handle(m, t), tt.rank(), f]));
                if let Some(n) = tt.dist.as_ref().and_then(|d| d.onto) {
                    onto.insert(k.clone(), json!(nodes_handle(m, n)));
                }
            }
            _ => {}
        }
    }
    let arrays: Map<String, Value> = u
        .arrays
        .iter()
        .map(|(k, a)| {
            let talign: Vec<Value> = a.talign.iter().map(|t| t.as_ref().map_or(Value::Null, |(d, c)| json!([d, c]))).collect();
            (
                k.clone(),
                json!({"handle": a.handle, "ndims": a.ndims, "lower": a.dl, "extent": a.ext, "esize": a.esize,
                       "cyclic": a.cyclic, "cyc_full": a.cyc_full, "template": a.templ, "align": talign}),
            )
        })
        .collect();
    let pending: Map<String, Value> = u.pending.iter().map(|(k, (n, l))| (k.clone(), json!([n, l]))).collect();
    let v = json!({"format": FORMAT, "module": module, "nodes": nodes, "templates": templs, "arrays": arrays,
                   "onto": onto, "pending": pending, "setup": u.setup,
                   "vars": u.vars.iter().map(|(k, (t, a))| (k.clone(), json!([t, a]))).collect::<Map<String, Value>>()});
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

/// `None` for text that is not a description this version wrote.
pub(super) fn read(text: &str) -> Option<Unit> {
    let v: Value = serde_json::from_str(text).ok()?;
    if v.get("format")?.as_str()? != FORMAT {
        return None;
    }
    let s = |x: &Value| x.as_str().map(str::to_string);
    let n = |x: &Value| x.as_u64().map(|k| k as usize);
    let strs = |x: &Value| -> Option<Vec<String>> { x.as_array()?.iter().map(s).collect() };
    let mut u = Unit::default();
    for (k, a) in v.get("arrays")?.as_object()? {
        let talign: Option<Vec<Option<(usize, String)>>> =
            a.get("align")?.as_array()?.iter().map(|t| if t.is_null() { Some(None) } else { Some(Some((n(t.get(0)?)?, s(t.get(1)?)?))) }).collect();
        u.arrays.insert(
            k.clone(),
            Arr {
                handle: s(a.get("handle")?)?,
                ndims: n(a.get("ndims")?)?,
                dl: strs(a.get("lower")?)?,
                ext: strs(a.get("extent")?)?,
                esize: n(a.get("esize")?)?,
                cyclic: a.get("cyclic")?.as_bool()?,
                cyc_full: a.get("cyc_full").and_then(|v| v.as_bool()).unwrap_or(false),
                templ: s(a.get("template")?)?,
                tid: None,
                talign: talign?,
            },
        );
    }
    for (k, x) in v.get("pending")?.as_object()? {
        u.pending.insert(k.clone(), (n(x.get(0)?)?, strs(x.get(1)?)?));
    }
    u.setup = strs(v.get("setup")?)?;
    // (descriptions written before module variables were recorded have none)
    for (k, x) in v.get("vars").and_then(|x| x.as_object()).into_iter().flatten() {
        if let (Some(t), Some(a)) = (x.get(0).and_then(|t| t.as_str()), x.get(1).and_then(|a| a.as_bool())) {
            u.vars.insert(k.clone(), (t.to_string(), a));
        }
    }
    Some(u)
}

/// The XMP objects of a description, for the model: names, ranks, formats, alignment.
pub fn read_import(text: &str) -> Option<Import> {
    let v: Value = serde_json::from_str(text).ok()?;
    if v.get("format")?.as_str()? != FORMAT {
        return None;
    }
    let n = |x: &Value| x.as_u64().map(|k| k as usize);
    let mut imp = Import::default();
    for (k, x) in v.get("nodes")?.as_object()? {
        imp.nodes.push((k.clone(), n(x.get(1)?)?));
    }
    let onto = v.get("onto").and_then(|o| o.as_object());
    for (k, x) in v.get("templates")?.as_object()? {
        let f: Option<Vec<DistFormat>> = x.get(2)?.as_array()?.iter().map(|f| fmt_parse(f.as_str()?)).collect();
        // the node set by name (its handle is `xmpf_n_<name>`)
        let nodes = onto.and_then(|o| o.get(k)).and_then(|h| h.as_str()).and_then(|h| h.strip_prefix("xmpf_n_")).map(str::to_string);
        imp.templates.push((k.clone(), n(x.get(1)?)?, f?, nodes));
    }
    for (k, a) in v.get("arrays")?.as_object()? {
        let talign: Option<Vec<Option<(usize, String)>>> = a
            .get("align")?
            .as_array()?
            .iter()
            .map(|t| if t.is_null() { Some(None) } else { Some(Some((n(t.get(0)?)?, t.get(1)?.as_str()?.to_string()))) })
            .collect();
        imp.arrays.push((k.clone(), a.get("template")?.as_str()?.to_string(), talign?));
    }
    Some(imp)
}
