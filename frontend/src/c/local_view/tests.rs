use super::*;
use xmpc_ir::local_view::{AccessCtx, AtomicTarget, LvKind, Storage, Sub};

fn lv(src: &str) -> LocalView {
    match scan(0, src) {
        Ok(Some(lv)) => lv,
        Ok(None) => panic!("no local view found in {src:?}"),
        Err(d) => panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()),
    }
}

fn errors(src: &str) -> Vec<Diag> {
    let d = scan(0, src).err().unwrap_or_else(|| panic!("no error for {src:?}"));
    for x in &d {
        assert_eq!(x.code.as_deref(), Some("XMP0701"), "{}", x.message);
        assert!(!x.labels[0].message.is_empty() && x.notes.iter().any(|n| n.starts_with("hint: ")), "label and hint: {}", x.message);
    }
    d
}

fn under(src: &str, s: xmpc_ir::Span) -> &str {
    &src[s.range()]
}

/// Text that only looks like coarray syntax: in literals, comments, macro bodies,
/// other preprocessor lines, asm operands and `?:`. Issue 37: the first two made the
/// driver add `#include "xmpc_coarray.h"` to plain C files.
#[test]
fn lookalikes_are_no_local_view() {
    for src in [
        "int f(void){ puts(\"[a]:[b]\"); return 0; }\n",
        "void g(long s, long e){ printf(\"range: [0x%lx-0x%lx] too big\\n\", s, e); }\n",
        "/*GFALL: [0    ] START OF EXCUTION OF GFALL */\nint x;\n",
        "/*\n *    0.80      11-07-27  H.Tomita  : [NEW]\n */\n",
        "// a: [b]\nint y;\n",
        "char c = ':', d = '[';\nchar *s = \"x\" \":[\" \"1]\";\n",
        "#define CO(x) x:[1]\n#define LOCK lock\nint z;\n",
        "#include \"a:[1].h\"\n#error a: [b]\n#pragma omp parallel for\nint w;\n",
        "void h(int x){ int y; __asm__(\"mov %[in], %[out]\" : [out] \"=r\"(y) : [in] \"r\"(x)); }\n",
        "int k(int c, int *a){ return c ? a[0] : 1; }\n",
        "#pragma xmp nodes p[4]\n#pragma xmp template t[:]\nint q;\n",
    ] {
        assert!(matches!(scan(0, src), Ok(None)), "{src:?}");
    }
}

#[test]
fn the_prefilter_only_skips_files_without_local_view() {
    assert!(!may_have_local_view("int main(void) { return a[1] ? b : c; }\n"));
    assert!(may_have_local_view("int a :\n  [*];\n"));
    assert!(may_have_local_view("#pragma xmp \\\n  post (p[1], 0)\n"));
    assert!(may_have_local_view("void f(void){ xmp_atomic_ref(&v, a); }\n"));
    // spaced or split over lines, it is still found
    let l = lv("int a[4] :\n [*];\nvoid f(void){ a[1] : [0] = 2; }\n");
    assert_eq!(l.decls.len(), 1);
    assert_eq!(l.accesses.len(), 1);
}

#[test]
fn declarations() {
    let src = "int a[10]:[*], b;\nextern double c[2][3]:[2][*];\ntypedef int t:[*];\nvoid f(void){ int l:[*]; }\n";
    let l = lv(src);
    let d: Vec<_> = l.decls.iter().map(|d| (d.obj.base.text.as_str(), under(src, d.codims), d.storage, d.file_scope)).collect();
    assert_eq!(
        d,
        [
            ("a", ":[*]", Storage::Definition, true),
            ("c", ":[2][*]", Storage::Extern, true),
            ("t", ":[*]", Storage::Typedef, true),
            ("l", ":[*]", Storage::Definition, false)
        ]
    );
    assert_eq!(l.decls[1].obj.co.iter().map(|c| c.text.as_str()).collect::<Vec<_>>(), ["2", "*"]);
    assert_eq!(under(src, xmpc_ir::Span::new(l.decls[0].stmt_start, l.decls[0].stmt_start + 3)), "int");
    assert!(l.accesses.is_empty(), "a declaration is no access");
}

#[test]
fn accesses_and_their_statements() {
    let src = "int a[8]:[*], s:[*];\nvoid f(int *q, int i){\n  a[0:4:2]:[1] = q[1:4];\n  q[0:8] = a[:]:[i + 1];\n  if (i) s:[0] = a[i]:[1] * 2;\n  q[i] = s:[1];\n  g(a[i] /* c */ :[ 0 ]);\n}\n";
    let l = lv(src);
    let shapes: Vec<_> = l
        .accesses
        .iter()
        .map(|a| {
            let ctx = match &a.ctx {
                AccessCtx::Put { stmt, rhs, rhs_obj, .. } => format!("put {} | {} | {}", under(src, *stmt), rhs.text, rhs_obj.is_some()),
                AccessCtx::Get { stmt, lhs } => format!("get {} | {}", under(src, *stmt), lhs.base.text),
                other => format!("{other:?}"),
            };
            (under(src, a.obj.span), ctx)
        })
        .collect();
    assert_eq!(
        shapes,
        [
            ("a[0:4:2]:[1]", "put a[0:4:2]:[1] = q[1:4]; | q[1:4] | true".to_string()),
            ("a[:]:[i + 1]", "get q[0:8] = a[:]:[i + 1]; | q".to_string()),
            ("s:[0]", "put s:[0] = a[i]:[1] * 2; | a[i]:[1] * 2 | false".to_string()),
            ("s:[1]", "get q[i] = s:[1]; | q".to_string()),
            ("a[i] /* c */ :[ 0 ]", "Expr".to_string()),
        ]
    );
    let AccessCtx::Put { rhs_coindexed, .. } = &l.accesses[2].ctx else { unreachable!() };
    assert_eq!(rhs_coindexed.map(|s| under(src, s)), Some(":["), "the coindex in the right-hand side is seen");
    assert_eq!(l.accesses[4].obj.co[0].text, "0");
    match &l.accesses[0].obj.subs[0] {
        Sub::Section { start, len, stride } => {
            assert_eq!([start, len, stride].map(|c| c.as_ref().map(|c| c.text.as_str())), [Some("0"), Some("4"), Some("2")]);
        }
        s => panic!("{s:?}"),
    }
    assert!(matches!(l.accesses[1].obj.subs[0], Sub::Section { start: None, len: None, stride: None }));
}

#[test]
fn code_under_preprocessor_conditionals_is_code() {
    let src = "int a:[*];\n#ifdef USE_PUT\nvoid f(void){ a:[1] = 2; }\n#else\nvoid f(void){ a:[1] = 3; }\n#endif\n";
    assert_eq!(lv(src).accesses.len(), 2);
}

#[test]
fn atomics() {
    let src = "int a[2]:[*];\nvoid f(int v){ xmp_atomic_define(a[1]:[0], v); xmp_atomic_ref(&v, a[0]); xmp_atomic_ref(&v, a[0:1]:[1]); }\n";
    let l = lv(src);
    assert_eq!(l.atomics.len(), 3);
    assert!(l.accesses.is_empty(), "the coindexes of atomic calls are theirs");
    assert!(matches!(&l.atomics[0].target, Some(AtomicTarget::Coindexed(r)) if under(src, r.span) == "a[1]:[0]"));
    assert!(matches!(&l.atomics[1].target, Some(AtomicTarget::Local(c)) if c.text == "a[0]"));
    assert!(matches!(&l.atomics[2].target, Some(AtomicTarget::Malformed(s)) if under(src, *s) == "a[0:1]:[1]"));
}

#[test]
fn directives() {
    let src = "#pragma xmp nodes p[4]\nextern int e:[*];\nint x[3];\n#pragma xmp coarray x, e : [*]\nvoid f(int t){\n#pragma xmp post (p(2), t*2) /* tag */\n#pragma xmp wait (p[1], \\\n  t)\n#pragma xmp lock (x[0]:[1])\n}\n";
    let l = lv(src);
    let kinds: Vec<_> = l.directives.iter().map(|d| d.kind.clone()).collect();
    let LvKind::Coarray { names, codims } = &kinds[0] else { panic!("{kinds:?}") };
    assert_eq!(codims, &["*"]);
    assert_eq!(names.iter().map(|n| (n.name.as_str(), n.is_extern, n.definition.is_some())).collect::<Vec<_>>(), [("x", false, true), ("e", true, false)]);
    assert_eq!(under(src, xmpc_ir::Span::new(names[0].definition.unwrap(), names[0].definition.unwrap() + 9)), "int x[3];");
    assert!(matches!(&kinds[1], LvKind::Post { node, tag } if node.nodes == "p" && node.index == "2" && node.one_based && tag == "t*2"), "{:?}", kinds[1]);
    assert!(matches!(&kinds[2], LvKind::Wait { node: Some(n), tag: Some(t) } if !n.one_based && t == "t"), "{:?}", kinds[2]);
    assert!(matches!(&kinds[3], LvKind::Lock { unlock: false, obj, image } if obj == "x[0]" && image == "1"), "{:?}", kinds[3]);
    assert_eq!(under(src, l.directives[2].span), "#pragma xmp wait (p[1], \\\n  t)");
}

#[test]
fn malformed_directives_are_located_with_a_hint() {
    for (src, at, says) in [
        ("#pragma xmp post p[1], 3\n", "post p[1], 3", "expected `post (node-ref, tag)`"),
        ("#pragma xmp post (p[1])\n", "post (p[1])", "wrong number of arguments"),
        ("#pragma xmp wait (p[1][2])\n", "p[1][2]", "not a reference to one node"),
        ("#pragma xmp wait (q(1, 2), 3)\n", "q(1, 2)", "not a reference to one node"),
        ("#pragma xmp lock l:[1]\n", "lock l:[1]", "expected `lock(lock-variable:[image])`"),
        ("#pragma xmp unlock (l:[1][2])\n", "unlock (l:[1][2])", "expected `unlock(lock-variable:[image])`"),
        ("int a;\n#pragma xmp coarray a : [2]\n", "[2]", "the last codimension must be `*`"),
        ("#pragma xmp coarray 3 : [*]\n", "3", "expected a variable name"),
        ("int a;\n#pragma xmp coarray a [*]\n", "[", "expected `names : [codimensions]`"),
        ("int a;\n#pragma xmp coarray a :\n", ":", "expected the codimensions"),
    ] {
        let d = errors(src);
        assert!(d[0].message.contains(says), "{src:?}: {}", d[0].message);
        assert_eq!(&src[d[0].labels[0].range.clone()], at, "{src:?}");
    }
}

#[test]
fn an_unpaired_quote_next_to_coarray_syntax_is_refused() {
    let src = "int a:[*];\nvoid f(void){ a:[1] = 'x; }\n";
    let d = errors(src);
    assert_eq!(&src[d[0].labels[0].range.clone()], "'");
    // elsewhere (prose under `#if 0`) it does not matter
    let l = lv("#if 0\nthis isn't C\n#endif\nint a:[*];\n");
    assert_eq!(l.decls.len(), 1);
}
