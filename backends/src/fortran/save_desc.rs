//! `!$xmp save_desc :: p, t, a` (Omni's Fortran translator): the descriptors of a
//! procedure's node sets, templates and aligned arrays survive its return and are
//! built at its first call only, like SAVE variables.
//!
//! Translation: each named object's handle becomes `integer(8), save :: h = 0_8`; the
//! setup lines that build it (`xmpf_nodes`, `xmpf_nodes_sub`, `xmpf_template`,
//! `xmpf_distribute`, and an array's `xmpf_array` .. `xmpf_array_attach`) run under
//! `if (.not. xmpf_sdone) then ... end if`, a saved flag set at the end of the
//! setup; a saved array is never freed at return. A named array's storage is saved
//! too (`allocatable, target, save`): allocated and attached once, so its reflect
//! plans (persistent requests, shared-memory windows) are kept from call to call.
//! Omni allocates a non-`save` array's storage again at every call (its contents
//! are undefined at the next call, so no correct program sees the difference), and
//! keeps its reflect schedule only when the new block lands at the same address;
//! xmpc's cache-colouring allocator moves large blocks, so a storage made at every
//! call would rebuild the exchange plans at every call (measured:
//! testsuite/bench/save_desc/run.sh).
//!
//! A name of the main program or of a module is accepted and changes nothing (their
//! objects live for the run, as in Omni), as is an aligned dummy (its descriptor is
//! the caller's array, or a view of it, described again at each call) and an array
//! declared `save` (made once already). Refused, located: a name that is not
//! declared or is not a node set, template or aligned array (XMP0402, as Omni's "is
//! not declared" / "is not an aligned array"), an allocatable aligned array
//! (XMP0403, Omni: "an allocatable array cannot have the save_desc attribute"), a
//! template with a `:` extent fixed by `template_fix` (XMP0403: a second call would
//! fix it again).

use super::{lc, Tr, Unit, View};
use std::collections::BTreeSet;
use xmpc_ir::directive::DirectiveKind;
use xmpc_ir::Directive;

/// The saved flag of a unit's `save_desc` objects.
const FLAG: &str = "xmpf_sdone";

/// Setup calls that build a saved object, by the handle they take first.
const BUILDERS: [&str; 7] = ["xmpf_nodes", "xmpf_nodes_sub", "xmpf_template", "xmpf_distribute", "xmpf_array", "xmpf_array_type", "xmpf_array_shadow"];

impl<'a> Tr<'a> {
    /// Applies the `save_desc` directives among `late`, once the unit's objects are
    /// set up (before its setup lines are emitted).
    pub(super) fn save_descs(&mut self, late: &[&Directive], f: &View<'a>, is_main: bool, u: &mut Unit) {
        let mut saved: BTreeSet<String> = BTreeSet::new();
        for d in late {
            let DirectiveKind::SaveDesc { names } = &d.kind else {
                continue;
            };
            for n in names {
                if let Some(h) = self.save_desc_handle(n, f, u) {
                    saved.insert(h);
                }
            }
        }
        if saved.is_empty() || is_main || f.module.is_some() {
            return;
        }
        for h in &saved {
            if u.decls.remove(&format!("integer(8) :: {h}")) {
                u.decls.insert(format!("integer(8), save :: {h} = 0_8"));
            }
            u.frees.retain(|l| l != &format!("call xmpf_array_free({h})"));
            // the array's storage is saved too (made once, attached once: its
            // reflect plans are kept from call to call)
            if let Some(key) = h.strip_prefix("xmpf_d_") {
                for r in u.redecl.iter_mut().filter(|r| lc(&r.0) == key) {
                    if !r.1.ends_with(", save") {
                        r.1.push_str(", save");
                    }
                }
            }
        }
        let builds = |l: &str| {
            BUILDERS.iter().any(|b| {
                l.strip_prefix("call ")
                    .and_then(|r| r.strip_prefix(b))
                    .and_then(|r| r.strip_prefix('('))
                    .is_some_and(|r| saved.iter().any(|h| r.starts_with(&format!("{h},"))))
            })
        };
        // a saved array's lines, `xmpf_array` to `xmpf_array_attach`
        let attach_of = |l: &str| saved.iter().any(|h| l.starts_with(&format!("call xmpf_array_attach({h},")));
        let mut out: Vec<String> = vec![];
        let mut open = false;
        let mut in_array = false;
        for l in std::mem::take(&mut u.setup) {
            in_array |= l.starts_with("call xmpf_array(") && builds(&l);
            let b = in_array || builds(&l);
            if attach_of(&l) {
                in_array = false;
            }
            if b && !open {
                out.push(format!("if (.not. {FLAG}) then"));
            } else if !b && open {
                out.push("end if".into());
            }
            open = b;
            out.push(if b { format!("  {l}") } else { l });
        }
        if open {
            out.push("end if".into());
        }
        out.push(format!("{FLAG} = .true."));
        u.setup = out;
        u.decls.insert(format!("logical, save :: {FLAG} = .false."));
    }

    /// The handle of the object `name` of a `save_desc` directive when it is one this
    /// unit builds, `None` when there is nothing to save (an inherited object, a
    /// dummy, a `save` array) or on error.
    fn save_desc_handle(&mut self, n: &xmpc_ir::directive::Name, f: &View<'a>, u: &Unit) -> Option<String> {
        let (name, span) = (n.name.as_str(), n.span);
        let key = lc(name);
        let own = |h: &str| u.decls.contains(&format!("integer(8) :: {h}"));
        if let Some(id) = self.m.name_nodes(n) {
            let h = self.nh(id);
            return own(&h).then_some(h);
        }
        if let Some(id) = self.m.name_template(n) {
            let h = self.th(id);
            if !own(&h) {
                return None;
            }
            let fixed_later = u.setup.iter().any(|l| l.starts_with(&format!("call xmpf_template({h},")) && l.ends_with(", 0)"));
            if fixed_later {
                self.err(
                    "XMP0303",
                    span,
                    &format!("save_desc of template '{name}', fixed by template_fix"),
                    "not supported: give the template its extents in its declaration",
                );
                return None;
            }
            return Some(h);
        }
        if u.arrays.contains_key(&key) {
            let h = format!("xmpf_d_{key}");
            if u.pending.contains_key(&key) && (own(&h) || u.decls.contains(&format!("integer(8), save :: {h} = 0_8"))) {
                self.err(
                    "XMP0303",
                    span,
                    &format!("save_desc of allocatable array '{name}'"),
                    "an allocatable aligned array cannot have the save_desc attribute (as in Omni)",
                );
                return None;
            }
            let dummy = f.symbols.lookup(&key).is_some_and(|s| s.sclass == xmpc_ir::StorageClass::Param);
            return (own(&h) && !dummy).then_some(h);
        }
        let msg = if f.symbols.lookup(&key).is_some() {
            format!("'{name}' of save_desc is not a node set, template or aligned array")
        } else {
            format!("'{name}' of save_desc is not declared")
        };
        self.err("XMP0103", span, &msg, "save_desc names node sets, templates and aligned arrays of this unit");
        None
    }
}
