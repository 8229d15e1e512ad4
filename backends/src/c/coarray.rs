//! XMP/C local view: the coarray constructs the C front end recognised
//! (`xmpc_frontend::c::local_view`, a located [`LocalView`]) printed as plain C calling
//! `runtime/lib/xmp/include/xmpc_coarray.h`, before the C front end parses the file
//! for the global view (tree-sitter-c cannot parse `a[i]:[img]`).
//!
//! - `T a[N]:[*];` / `T a:[P][*];` at file scope: the codimensions are blanked (the
//!   storage stays where C puts it) and the definition goes to the linker section the
//!   file's init registers; `#pragma xmp coarray a, b : [*]` does the same for names
//!   declared without them (an `extern` declaration registers nothing: the defining
//!   file does).
//! - `x:[img] = rhs;` → a put, `lhs = x:[img];` with a section on either side → a get
//!   of the sections, any other `x:[img]` (no section) → a GNU statement expression
//!   that gets one element. Sections `[start:length:stride]` (parts optional) become
//!   `xmpc_co_sec` descriptors: counts and byte strides from `sizeof` of the object,
//!   so any array or struct-member object works and the C compiler does the layout.
//! - `post/wait/lock/unlock` pragmas and `xmp_atomic_define/ref` calls → runtime calls.
//!
//! Offsets change only inside rewritten constructs and every newline is kept, so later
//! diagnostics keep their line numbers. What is not handled is refused here with a
//! located diagnostic (XMP0701, a label and a hint), never passed on to the C compiler.

use xmpc_ir::local_view::{AccessCtx, AtomicCall, AtomicTarget, CoAccess, CoDecl, LocalView, LvDirective, LvKind, NodeRef, ObjRef, Storage, Sub};
use xmpc_ir::{Code, Diag, FileId, Span};

/// The lowered file, and what the driver adds around the translated text.
pub struct Lowered {
    pub text: String,
    /// Goes before the translated text (`#include "xmpc_coarray.h"`).
    pub prelude: String,
    /// Goes after it (the registration of this file's coarrays).
    pub trailer: String,
}

/// Every coarray defined in a translated file lives in one linker section, registered
/// as one window (`__start_xmpc_coarrays` .. `__stop_xmpc_coarrays`). The section is
/// initialised data, not `.bss`: MPICH 4.0.2 over UCX read zeros through a window
/// created on a small object at the end of `.bss` (docs/local-view.md).
/// It goes before the declaration (tree-sitter-c takes no attribute after an array
/// declarator), so the declaration's other variables share the section: harmless.
const SECTION_ATTR: &str = "__attribute__((section(\"xmpc_coarrays\"), aligned(16))) ";

fn err(file: FileId, span: Span, msg: impl std::fmt::Display, label: &str, hint: &str) -> Diag {
    Code::LocalView.error(file, msg, span, label).with_notes(vec![format!("hint: {hint}")])
}

/// Lowers the local view `lv` of the C file `src` named `name` (file id `file`).
pub fn lower(src: &str, lv: &LocalView, name: &str, file: FileId) -> Result<Lowered, Vec<Diag>> {
    let mut lw = Lw {
        src,
        file_str: c_str(name),
        file,
        line_starts: std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect(),
        edits: vec![],
        diags: vec![],
        coarrays: vec![],
        register: vec![],
        uniq: 0,
    };
    for d in &lv.decls {
        lw.decl(d);
    }
    for d in &lv.directives {
        lw.directive(d);
    }
    for a in &lv.atomics {
        lw.atomic(a);
    }
    let mut done: Vec<Span> = vec![];
    for a in &lv.accesses {
        lw.access(a, &done);
        done.push(a.obj.span);
    }
    if !lw.diags.is_empty() {
        return Err(lw.diags);
    }
    let text = splice(src, lw.edits, file)?;
    let prelude = "#include \"xmpc_coarray.h\"\n".to_string();
    let mut trailer = String::new();
    if !lw.register.is_empty() {
        trailer.push_str(&format!(
            "\n/* xmpc: the program's coarrays ({}, ...) are the section xmpc_coarrays */\nextern char __start_xmpc_coarrays[], __stop_xmpc_coarrays[];\nstatic void _XMP_init_coarrays(void)\n{{\n    xmpc_co_register(__start_xmpc_coarrays, (size_t)(__stop_xmpc_coarrays - __start_xmpc_coarrays));\n}}\n",
            lw.register.join(", ")
        ));
        trailer.push_str("\n__attribute__((constructor)) static void _XMP_register_coarrays(void)\n{\n    xmpc_register_file_init(_XMP_init_coarrays);\n}\n");
    }
    Ok(Lowered { text, prelude, trailer })
}

/// The text with the edits `(start, end, replacement)` made.
fn splice(src: &str, mut edits: Vec<(usize, usize, String)>, file: FileId) -> Result<String, Vec<Diag>> {
    edits.sort_by_key(|e| (e.0, e.1));
    let mut text = String::with_capacity(src.len() + 1024);
    let mut pos = 0;
    for (s, e, t) in edits {
        if s < pos {
            // an internal error, reported rather than mis-translated
            return Err(vec![Code::Internal
                .error(file, "xmpc: overlapping local-view rewrites", Span::new(s, e), "here")
                .with_notes(vec!["please report this".into()])]);
        }
        text.push_str(&src[pos..s]);
        text.push_str(&t);
        pos = e;
    }
    text.push_str(&src[pos..]);
    Ok(text)
}

struct Lw<'a> {
    src: &'a str,
    /// The file name as a C string literal.
    file_str: String,
    file: FileId,
    line_starts: Vec<usize>,
    edits: Vec<(usize, usize, String)>,
    diags: Vec<Diag>,
    /// name → codimension sizes (text; the last is `*`).
    coarrays: Vec<(String, Vec<String>)>,
    /// Names whose definitions go to the coarray section.
    register: Vec<String>,
    uniq: usize,
}

impl Lw<'_> {
    fn line(&self, off: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= off)
    }

    /// Replaces `[s, e)` by `text`, keeping the newlines it held.
    fn edit(&mut self, s: usize, e: usize, text: String) {
        let nl = "\n".repeat(self.src[s..e].matches('\n').count());
        self.edits.push((s, e, format!("{text}{nl}")));
    }

    /// Puts the definition starting at `at` into the coarray section (once).
    fn put_in_section(&mut self, at: usize, name: &str) {
        if !self.edits.iter().any(|e| e.0 == at && e.1 == at) {
            self.edits.push((at, at, SECTION_ATTR.to_string()));
        }
        self.register.push(name.to_string());
    }

    fn u(&mut self) -> usize {
        self.uniq += 1;
        self.uniq
    }

    fn decl(&mut self, d: &CoDecl) {
        let name = d.obj.base.text.clone();
        if !d.file_scope {
            let msg = format!("coarray `{name}` is declared inside a function: not implemented");
            self.diags.push(err(self.file, d.obj.span, msg, "local coarray", "declare the coarray at file scope"));
            return;
        }
        self.coarrays.push((name.clone(), d.obj.co.iter().map(|c| c.text.clone()).collect()));
        if d.storage == Storage::Definition {
            self.put_in_section(d.stmt_start, &name);
        }
        self.edit(d.codims.start, d.codims.end, String::new());
    }

    fn directive(&mut self, d: &LvDirective) {
        let (file, line) = (self.file_str.clone(), self.line(d.span.start));
        let code = match &d.kind {
            LvKind::Coarray { names, codims } => {
                for n in names {
                    self.coarrays.push((n.name.clone(), codims.clone()));
                    if n.is_extern {
                        continue;
                    }
                    match n.definition {
                        Some(at) => self.put_in_section(at, &n.name),
                        None => {
                            let msg = format!("coarray: `{}` is not defined at file scope before this directive", n.name);
                            let hint = "define the variable (or declare it `extern`) before `#pragma xmp coarray`";
                            self.diags.push(err(self.file, n.span, msg, "no definition before", hint));
                            return;
                        }
                    }
                }
                String::new()
            }
            LvKind::Post { node, tag } => format!("xmpc_co_post({file}, {line}, {}, ({tag}));", node_rank(node)),
            LvKind::Wait { node, tag } => {
                let node = node.as_ref().map_or("-1".to_string(), node_rank);
                match tag {
                    Some(t) => format!("xmpc_co_wait({file}, {line}, {node}, 1, ({t}));"),
                    None => format!("xmpc_co_wait({file}, {line}, {node}, 0, 0);"),
                }
            }
            LvKind::Lock { unlock, obj, image } => {
                format!("xmpc_co_{}({file}, {line}, &({obj}), ({image}));", if *unlock { "unlock" } else { "lock" })
            }
        };
        self.edit(d.span.start, d.span.end, code);
    }

    /// The image index of a coindexed reference (one cosubscript: itself).
    fn image(&mut self, r: &ObjRef) -> String {
        let line = self.line(r.span.start);
        if r.co.len() == 1 {
            return format!("({})", r.co[0].text);
        }
        let name = r.base.text.split('.').next().unwrap_or("").trim().to_string();
        match self.coarrays.iter().find(|(n, _)| *n == name).map(|(_, c)| c.clone()) {
            Some(c) if c.len() == r.co.len() => format!(
                "xmpc_co_image({}, {line}, {}, (long[]){{{}}}, (long[]){{{}}})",
                self.file_str,
                c.len(),
                c[..c.len() - 1].iter().map(|s| format!("(long)({s})")).chain(std::iter::once("0".into())).collect::<Vec<_>>().join(", "),
                r.co.iter().map(|s| format!("(long)({})", s.text)).collect::<Vec<_>>().join(", ")
            ),
            Some(c) => {
                let msg = format!("`{name}` has {} codimensions; the reference gives {}", c.len(), r.co.len());
                self.diags.push(err(self.file, r.span, msg, "coindex", "give one cosubscript per codimension"));
                "0".into()
            }
            None => {
                let msg = format!("the codimensions of `{name}` are not declared in this file");
                let hint = "declare it here with its codimensions (`extern T a[N]:[P][*];`)";
                self.diags.push(err(self.file, r.span, msg, "several cosubscripts", hint));
                "0".into()
            }
        }
    }

    /// Lowers one coindexed reference; `done` are the references lowered before it.
    fn access(&mut self, a: &CoAccess, done: &[Span]) {
        let r = &a.obj;
        // earlier references end before this one starts, unless they are inside it
        if let Some(inner) = done.iter().rev().take_while(|s| s.end > r.span.start).find(|s| r.span.start <= s.start && s.end <= r.span.end) {
            let msg = "a coindexed reference inside another one is not implemented";
            let d = err(self.file, r.span, msg, "outer coindexed reference", "get the inner value into a local variable first");
            self.diags.push(d.with_labels(vec![xmpc_ir::diag::Label::secondary(self.file, inner.range()).with_message("inner one")]));
            return;
        }
        let (file, line) = (self.file_str.clone(), self.line(r.span.start));
        match &a.ctx {
            AccessCtx::Followed(_) => {
                let msg = "a coindexed object followed by a member or subscript is not implemented";
                self.diags.push(err(self.file, r.span, msg, "coindexed", "write the member or subscript before the coindex (`s.x:[1]`)"));
            }
            AccessCtx::PutUnterminated => {
                self.diags.push(err(self.file, r.span, "cannot find the end of this assignment", "coindexed", "end the assignment with `;` inside its block"));
            }
            AccessCtx::Put { stmt, rhs, rhs_obj, rhs_coindexed } => {
                if rhs_coindexed.is_some() {
                    let msg = "both sides of the assignment are coindexed: not implemented";
                    let span = Span::new(r.span.start, rhs.span.end);
                    self.diags.push(err(self.file, span, msg, "coindexed put of a coindexed value", "get into a local variable first"));
                    return;
                }
                let img = self.image(r);
                let n = self.u();
                let code = match rhs_obj.as_ref().filter(|o| o.has_section()) {
                    Some(rs) => sections_call("put", &file, line, &img, n, r, rs),
                    None => {
                        if rhs.text.is_empty() {
                            self.diags.push(err(self.file, r.span, "missing right-hand side", "coindexed", "write the value to put before the `;`"));
                        }
                        format!(
                            "{{ {asr}__typeof__({d0}) _xmpc_v{n} = ({val}); xmpc_co_sec _xmpc_d{n} = {ds}, _xmpc_s{n} = {{0, sizeof(_xmpc_v{n}), {{0}}, {{0}}}}; xmpc_co_put({file}, {line}, {img}, (void *)&{d0}, &_xmpc_d{n}, (const void *)&_xmpc_v{n}, &_xmpc_s{n}); }}",
                            d0 = first(r),
                            ds = sec(r),
                            asr = asserts(r),
                            val = rhs.text
                        )
                    }
                };
                self.edit(stmt.start, stmt.end, code);
            }
            AccessCtx::Get { stmt, lhs } if lhs.has_section() || r.has_section() => {
                let img = self.image(r);
                let n = self.u();
                let code = sections_call("get", &file, line, &img, n, lhs, r);
                self.edit(stmt.start, stmt.end, code);
            }
            _ if r.has_section() => {
                let msg = "a coindexed array section is only implemented as a whole side of an assignment statement";
                let hint = "write `local[...] = a[s:l]:[img];` or `a[s:l]:[img] = local[...];`";
                self.diags.push(err(self.file, r.span, msg, "coindexed section", hint));
            }
            _ => {
                let img = self.image(r);
                let n = self.u();
                let code = format!(
                    "({{ __typeof__({s0}) _xmpc_v{n}; xmpc_co_sec _xmpc_d{n} = {{0, sizeof(_xmpc_v{n}), {{0}}, {{0}}}}, _xmpc_s{n} = {ss}; xmpc_co_get({file}, {line}, {img}, (void *)&_xmpc_v{n}, &_xmpc_d{n}, (const void *)&{s0}, &_xmpc_s{n}); _xmpc_v{n}; }})",
                    s0 = first(r),
                    ss = sec(r)
                );
                self.edit(r.span.start, r.span.end, code);
            }
        }
    }

    fn atomic(&mut self, a: &AtomicCall) {
        let name = if a.define { "xmp_atomic_define" } else { "xmp_atomic_ref" };
        let (file, line) = (self.file_str.clone(), self.line(a.span.start));
        let Some(target) = a.target.as_ref().filter(|_| a.args.len() == 2) else {
            let hint = if a.define { "xmp_atomic_define(a:[img], value)" } else { "xmp_atomic_ref(&value, a:[img])" };
            self.diags.push(err(self.file, a.span, format!("{name} takes two arguments"), "call", hint));
            return;
        };
        if let Some(v) = a.coindexed_value {
            let msg = format!("a coindexed value in {name} is not implemented");
            self.diags.push(err(self.file, v, msg, "coindexed", "get the value into a local variable first"));
            return;
        }
        let (obj, img) = match target {
            AtomicTarget::Local(c) => (c.text.clone(), "-1".to_string()),
            AtomicTarget::Coindexed(r) => (first(r), self.image(r)),
            AtomicTarget::Malformed(span) => {
                let msg = "the atomic variable must be one element of an int coarray";
                self.diags.push(err(self.file, *span, msg, "atomic argument", "write one element, like `a:[img]` or `a[i]:[img]`"));
                return;
            }
        };
        let other = &a.args[if a.define { 1 } else { 0 }].text;
        let code = if a.define {
            format!("xmpc_co_atomic_define({file}, {line}, &({obj}), {img}, ({other}))")
        } else {
            format!("xmpc_co_atomic_ref({file}, {line}, ({other}), &({obj}), {img})")
        };
        self.edit(a.span.start, a.span.end, code);
    }
}

/// `xmpc_co_put`/`xmpc_co_get` between the sections of `dst` and `src` (block statement).
fn sections_call(op: &str, file: &str, line: usize, img: &str, n: usize, dst: &ObjRef, src: &ObjRef) -> String {
    format!(
        "{{ {asr}_Static_assert(__builtin_types_compatible_p(__typeof__({d0}), __typeof__({s0})), \"coarray {op}: element types differ\"); xmpc_co_sec _xmpc_d{n} = {ds}, _xmpc_s{n} = {ss}; xmpc_co_{op}({file}, {line}, {img}, (void *)&{d0}, &_xmpc_d{n}, (const void *)&{s0}, &_xmpc_s{n}); }}",
        d0 = first(dst),
        s0 = first(src),
        ds = sec(dst),
        ss = sec(src),
        asr = asserts(dst) + &asserts(src)
    )
}

/// `base[0]...[0]` with `n` zeros.
fn zeros(r: &ObjRef, n: usize) -> String {
    format!("{}{}", r.base.text, "[0]".repeat(n))
}

/// The first element (`base[s0][s1]...`).
fn first(r: &ObjRef) -> String {
    let mut s = r.base.text.clone();
    for d in &r.subs {
        match d {
            Sub::Index(e) => s.push_str(&format!("[{}]", e.text)),
            Sub::Section { start, .. } => s.push_str(&format!("[{}]", start.as_ref().map_or("0", |c| &c.text))),
        }
    }
    s
}

/// `_Static_assert`s that make an open-ended section (`[:]`, `[s:]`) of a pointer a
/// compile-time error: its extent comes from `sizeof`, which a pointer does not give.
fn asserts(r: &ObjRef) -> String {
    let mut out = String::new();
    for (d, sub) in r.subs.iter().enumerate() {
        if let Sub::Section { len: None, .. } = sub {
            let z = zeros(r, d);
            out.push_str(&format!(
                "_Static_assert(!__builtin_types_compatible_p(__typeof__({z}), __typeof__(&({z})[0])), \"xmpc: an open-ended section ([:] or [s:]) needs an array, not a pointer: give the length\"); "
            ));
        }
    }
    out
}

/// A `xmpc_co_sec` initializer.
fn sec(r: &ObjRef) -> String {
    let mut cnt = vec![];
    let mut strd = vec![];
    for (d, sub) in r.subs.iter().enumerate() {
        if let Sub::Section { start, len, stride } = sub {
            let ext = format!("(long)(sizeof({}) / sizeof({}))", zeros(r, d), zeros(r, d + 1));
            let len = match len {
                Some(l) => format!("(long)({})", l.text),
                None => format!("({ext} - (long)({}))", start.as_ref().map_or("0", |c| &c.text)),
            };
            cnt.push(len);
            let st = stride.as_ref().map_or(String::new(), |s| format!(" * (long)({})", s.text));
            strd.push(format!("(long)sizeof({}){st}", zeros(r, d + 1)));
        }
    }
    let (c, s) = if cnt.is_empty() { ("0".to_string(), "0".to_string()) } else { (cnt.join(", "), strd.join(", ")) };
    format!("{{{}, sizeof({}), {{{c}}}, {{{s}}}}}", cnt.len(), first(r))
}

/// `p[k]` → the world rank of node `k` of `p`; `p(k)` is 1-based.
fn node_rank(n: &NodeRef) -> String {
    let k = if n.one_based { format!("(({}) - 1)", n.index) } else { format!("({})", n.index) };
    format!("xmpc_nodes_world_rank(_XMP_NODES_{}, {k})", n.nodes)
}

fn c_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => {
                o.push('\\');
                o.push(c);
            }
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => o.push('?'),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

#[cfg(test)]
mod tests;
