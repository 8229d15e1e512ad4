use super::*;

/// The front end's recognition, then the lowering.
fn try_low(s: &str) -> Result<Lowered, Vec<Diag>> {
    let lv = xmpc_frontend::c::local_view::scan(0, s)?.expect("the file has local view");
    lower(s, &lv, "t.c", 0)
}

fn low(s: &str) -> Lowered {
    try_low(s).unwrap_or_else(|d| panic!("{:?}", d.iter().map(|d| &d.message).collect::<Vec<_>>()))
}

fn refused(s: &str) -> Vec<Diag> {
    let d = try_low(s).err().expect("refused");
    for x in &d {
        assert_eq!(x.code.as_deref(), Some("XMP0701"), "{}", x.message);
        assert!(!x.labels.is_empty() && !x.labels[0].message.is_empty(), "a label: {}", x.message);
        assert!(x.notes.iter().any(|n| n.starts_with("hint: ")), "a hint: {}", x.message);
    }
    d
}

/// The source text under the first label of `d`.
fn labelled<'a>(src: &'a str, d: &Diag) -> &'a str {
    &src[d.labels[0].range.clone()]
}

#[test]
fn declarations_lose_their_codimensions_and_are_registered() {
    let l = low("int a[10]:[*], b = 1;\nextern int c:[*];\n");
    assert_eq!(l.text, format!("{SECTION_ATTR}int a[10], b = 1;\nextern int c;\n"));
    assert!(l.trailer.contains("xmpc_co_register(__start_xmpc_coarrays"));
    assert!(l.trailer.contains("coarrays (a, ...)"), "{}", l.trailer);
    let l = low("extern int c:[*];\n");
    assert!(l.trailer.is_empty(), "an extern declaration registers nothing");
    let l = low("int a[10], b;\n#pragma xmp coarray a : [*]\n");
    assert_eq!(l.text, format!("{SECTION_ATTR}int a[10], b;\n\n"));
}

#[test]
fn put_get_and_expression_keep_lines() {
    let src = "int a[4]:[*];\nint f(int i){\n  a[0:2]:[1]\n   = b[1:2];\n  return a[i]:[0] + 1;\n}\n";
    let l = low(src);
    assert_eq!(l.text.matches('\n').count(), src.matches('\n').count());
    assert!(l.text.contains("xmpc_co_put(\"t.c\", 3, (1), (void *)&a[0]"), "{}", l.text);
    assert!(l.text.contains("xmpc_co_get(\"t.c\", 5, (0), (void *)&_xmpc_v"), "{}", l.text);
}

#[test]
fn expression_text_drops_comments_and_keeps_strings() {
    // A `//` comment inside the right-hand side would swallow the generated code after
    // it once the statement is one line.
    let l = low("int a:[*];\nvoid f(int x){\n  a:[1] = x // the value\n    + 1;\n  a:[0] = g(\"a  b\");\n}\n");
    assert!(l.text.contains("_xmpc_v1 = (x + 1);"), "{}", l.text);
    assert!(l.text.contains("_xmpc_v2 = (g(\"a  b\"));"), "string literals stay as written: {}", l.text);
}

#[test]
fn section_inside_an_expression_is_refused_with_a_location() {
    let src = "int a[4]:[*];\nint f(void){ return g(a[0:2]:[1]); }\n";
    let d = refused(src);
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("only implemented as a whole side"), "{}", d[0].message);
    assert_eq!(labelled(src, &d[0]), "a[0:2]:[1]");
}

#[test]
fn open_ended_sections_assert_an_array() {
    let l = low("int a[4]:[*];\nvoid f(int *q){ q[0:4] = a[:]:[1]; }\n");
    assert!(l.text.contains("_Static_assert(!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0]))"), "{}", l.text);
    let l = low("int a[4]:[*];\nvoid f(int *q){ q[0:4] = a[0:4]:[1]; }\n");
    assert!(!l.text.contains("needs an array"), "explicit lengths need no assertion: {}", l.text);
}

#[test]
fn local_coarray_is_refused() {
    let src = "void f(void){ int x:[*]; }\n";
    let d = refused(src);
    assert!(d[0].message.contains("inside a function"));
    assert_eq!(labelled(src, &d[0]), "x:[*]");
}

#[test]
fn post_wait_lock() {
    let l = low("#pragma xmp nodes p[4]\nint l:[*];\nvoid f(int t){\n#pragma xmp post (p(3), t)\n#pragma xmp wait (p[0])\n#pragma xmp wait\n#pragma xmp lock(l:[1])\n#pragma xmp unlock (l:[1])\n#pragma xmp wait (p[1], t + 1)\n}\n");
    assert!(l.text.contains("xmpc_co_post(\"t.c\", 4, xmpc_nodes_world_rank(_XMP_NODES_p, ((3) - 1)), (t));"), "{}", l.text);
    assert!(l.text.contains("xmpc_co_wait(\"t.c\", 5, xmpc_nodes_world_rank(_XMP_NODES_p, (0)), 0, 0);"));
    assert!(l.text.contains("xmpc_co_wait(\"t.c\", 6, -1, 0, 0);"));
    assert!(l.text.contains("xmpc_co_lock(\"t.c\", 7, &(l), (1));"));
    assert!(l.text.contains("xmpc_co_unlock(\"t.c\", 8, &(l), (1));"));
    assert!(l.text.contains("xmpc_co_wait(\"t.c\", 9, xmpc_nodes_world_rank(_XMP_NODES_p, (1)), 1, (t + 1));"), "{}", l.text);
    assert!(l.text.starts_with("#pragma xmp nodes p[4]\n"), "other directives stay");
}

#[test]
fn multi_codimension_image() {
    let l = low("int a:[2][*];\nvoid f(void){ a:[1][3] = 5; }\n");
    assert!(l.text.contains("xmpc_co_image(\"t.c\", 2, 2, (long[]){(long)(2), 0}, (long[]){(long)(1), (long)(3)})"), "{}", l.text);
    let src = "int a:[2][*];\nvoid f(void){ a:[1][3][4] = 5; }\n";
    let d = refused(src);
    assert!(d[0].message.contains("has 2 codimensions; the reference gives 3"), "{}", d[0].message);
    let src = "extern int b:[*];\nvoid f(void){ b:[1][3] = 5; }\n";
    assert!(refused(src)[0].message.contains("has 1 codimensions"));
}

#[test]
fn atomics() {
    let l = low("int a:[*];\nvoid f(int v){ xmp_atomic_define(a:[1], v); xmp_atomic_ref(&v, a:[0]); xmp_atomic_define(a, 3); }\n");
    assert!(l.text.contains("xmpc_co_atomic_define(\"t.c\", 2, &(a), (1), (v))"), "{}", l.text);
    assert!(l.text.contains("xmpc_co_atomic_ref(\"t.c\", 2, (&v), &(a), (0))"), "{}", l.text);
    assert!(l.text.contains("xmpc_co_atomic_define(\"t.c\", 2, &(a), -1, (3))"), "{}", l.text);
    let src = "int a[4]:[*];\nvoid f(int v){ xmp_atomic_define(a[0:2]:[1], v); }\n";
    assert_eq!(labelled(src, &refused(src)[0]), "a[0:2]:[1]");
    let src = "int a:[*];\nvoid f(int v){ xmp_atomic_define(a:[1]); }\n";
    assert!(refused(src)[0].message.contains("takes two arguments"));
    let src = "int a:[*], b:[*];\nvoid f(void){ xmp_atomic_define(a:[1], b:[0]); }\n";
    assert_eq!(labelled(src, &refused(src)[0]), ":[");
}

#[test]
fn what_is_not_translated_is_located_with_a_hint() {
    for (src, under, says) in [
        ("struct s { int x; } v:[*];\nvoid f(void){ int y = v:[1].x; }\n", "v:[1]", "followed by a member"),
        ("int a:[*], b:[*];\nvoid f(void){ a:[1] = b:[0] + 1; }\n", "a:[1] = b:[0] + 1", "both sides"),
        ("int a[2]:[*], b[2]:[*];\nvoid f(void){ a[b[0]:[1]]:[0] = 1; }\n", "a[b[0]:[1]]:[0]", "inside another"),
        ("int a:[*];\nvoid f(void){ a:[1] = ; }\n", "a:[1]", "missing right-hand side"),
        ("int x;\n#pragma xmp coarray y : [*]\n", "y", "not defined at file scope"),
    ] {
        let d = refused(src);
        assert!(d[0].message.contains(says), "{src}: {}", d[0].message);
        assert_eq!(labelled(src, &d[0]), under, "{src}");
    }
}
