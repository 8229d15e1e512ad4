//! Golden trees for every valid directive form (see `directives_support::VALID`).
//! Review a changed snapshot before accepting it: these trees are what later passes
//! are written against.

mod directives_support;

use directives_support::*;
use xmpc_frontend::directive::{parse, DirLang, DirectiveText};
use xmpc_ir::directive::Directive;

fn header(d: &Directive) -> String {
    format!("attaches_to_next: {}  opens_block: {}  closes_block: {}", d.attaches_to_next(), d.opens_block().unwrap_or("-"), d.closes_block().unwrap_or("-"))
}

fn render(src: &DirectiveText, lang: DirLang) -> Directive {
    match parse(src, lang, 0) {
        Ok(d) => d,
        Err(e) => panic!("{:?} should parse:\n{}", src.text, xmpc_ir::diag::render_plain("case", &src.text, &e)),
    }
}

#[test]
fn valid_directive_trees() {
    let mut seen = std::collections::HashSet::new();
    for (name, lang, text) in VALID {
        assert!(seen.insert(*name), "duplicate case name {name}");
        let d = render(&dt(text), *lang);
        assert_eq!(d.span.start, 0, "{name}");
        assert!(d.span.end <= text.len(), "{name}");
        let snap = format!("input: {text:?} ({lang:?})\n{}\n{d}\n", header(&d));
        insta::assert_snapshot!(*name, snap);
    }
    assert!(VALID.len() >= 80);
}

#[test]
fn valid_directives_from_sources() {
    for (name, lang, src) in VALID_SOURCES {
        let text = extract(src, *lang);
        let d = render(&text, *lang);
        let snap = format!("source:\n{src}\njoined: {:?}\ndirective span text: {:?}\n{}\n{d}\n", text.text, &src[d.span.range()], header(&d));
        insta::assert_snapshot!(*name, snap);
    }
}

#[test]
fn attachment_rules() {
    let att = |lang, s: &str| render(&dt(s), lang);
    // C: directives that take the next statement.
    for s in [
        "xmp loop on t(i)",
        "xmp task on p(1)",
        "xmp tasks",
        "xmp gmove",
        "xmp array on t(1:n)",
        "xmp device loop on t(i)",
        "xmp device replicate (a)",
        "acc parallel loop",
        "acc kernels",
        "acc data copy(a)",
        "acc loop",
        "acc host_data use_device(a)",
        "acc serial",
        "acc atomic",
    ] {
        let d = att(DirLang::C, s);
        assert!(d.attaches_to_next(), "{s}");
        assert_eq!(d.opens_block(), None, "{s}");
    }
    for s in [
        "xmp barrier",
        "xmp reflect (a)",
        "acc update host(a)",
        "acc wait",
        "xmp nodes p(4)",
        "xmp reduction(+:s)",
        "acc enter data copyin(a)",
        "xmp device replicate_sync in (a)",
    ] {
        assert!(!att(DirLang::C, s).attaches_to_next(), "{s}");
    }
    // Fortran: blocks closed by `end`.
    for (s, b) in [
        ("xmp task on p(1)", "task"),
        ("xmp tasks", "tasks"),
        ("xmp device replicate (a)", "device replicate"),
        ("acc parallel", "parallel"),
        ("acc data copy(a)", "data"),
        ("ACC KERNELS", "kernels"),
    ] {
        let d = att(DirLang::Fortran, s);
        assert_eq!(d.opens_block(), Some(b), "{s}");
        assert!(!d.attaches_to_next(), "{s}");
    }
    for s in ["xmp loop on t(i)", "acc parallel loop", "acc loop", "xmp gmove", "xmp device loop on t(i)"] {
        let d = att(DirLang::Fortran, s);
        assert!(d.attaches_to_next(), "{s}");
        assert_eq!(d.opens_block(), None, "{s}");
    }
    for (s, b) in
        [("xmp end task", "task"), ("xmp end device replicate", "device replicate"), ("acc end parallel loop", "parallel loop"), ("acc end data", "data")]
    {
        assert_eq!(att(DirLang::Fortran, s).closes_block(), Some(b), "{s}");
    }
    assert_eq!(att(DirLang::C, "acc parallel loop gang").name(), "acc parallel loop");
    assert_eq!(att(DirLang::C, "xmp device loop on t(i)").name(), "device loop");
}

#[test]
fn upper_case_word_reduction_operators_are_accepted_in_c() {
    // Omni accepts `MAX`/`MIN` (its gmove tests' chk.c uses them).
    use xmpc_ir::directive::{DirectiveKind, RedOp};
    for (text, op) in [("xmp reduction(MAX:m)", RedOp::Max), ("xmp reduction(MIN:m)", RedOp::Min), ("xmp reduction(FirstMax:m/k/)", RedOp::FirstMax)] {
        let d = render(&dt(text), DirLang::C);
        let DirectiveKind::Reduction { reductions, .. } = &d.kind else { panic!("{text}: {d}") };
        assert_eq!(reductions[0].op, op, "{text}");
    }
}

/// Omni's square form of the loop index list, `loop [i][j] on t[i][j]` (XcalableACC's
/// `489.c`), is the round `(j, i)`.
#[test]
fn square_loop_index_list() {
    let sq = render(&dt("xmp loop [i][j] on t[i][j] reduction(+:s)"), DirLang::C);
    let round = render(&dt("xmp loop (j, i) on t[i][j] reduction(+:s)"), DirLang::C);
    // the same tree but for the index spans
    let no_index = |d: &Directive| format!("{d}").lines().filter(|l| !l.contains("(index")).collect::<Vec<_>>().join("\n");
    assert_eq!(no_index(&sq), no_index(&round));
    let xmpc_ir::directive::DirectiveKind::Loop(l) = &sq.kind else { panic!("{sq}") };
    assert_eq!(l.indices.iter().map(|i| i.name.as_str()).collect::<Vec<_>>(), ["j", "i"]);
    let e = parse(&dt("xmp loop [i on t[i]"), DirLang::C, 0).unwrap_err();
    let msg = xmpc_ir::diag::render_plain("case", "xmp loop [i on t[i]", &e);
    assert!(msg.contains("']'"), "{msg}");
}
