//! Unit tests of the directive expression parser (precedence, Fortran operators).

use xmpc_frontend::directive::{parse_expr, DirLang, DirectiveText};
use xmpc_ir::directive::show_expr;
use xmpc_ir::{ExprKind, OffsetMap};

fn ex(lang: DirLang, s: &str) -> String {
    let src = DirectiveText { text: s.into(), map: OffsetMap::identity(0) };
    match parse_expr(&src, lang, 0) {
        Ok(e) => show_expr(&e),
        Err(d) => panic!("{s}: {}", xmpc_ir::diag::render_plain("e", s, &d)),
    }
}
fn c(s: &str) -> String {
    ex(DirLang::C, s)
}
fn f(s: &str) -> String {
    ex(DirLang::Fortran, s)
}

#[test]
fn c_precedence() {
    assert_eq!(c("a + b * c"), "a + (b * c)");
    assert_eq!(c("a * b + c"), "(a * b) + c");
    assert_eq!(c("a - b - c"), "(a - b) - c");
    assert_eq!(c("(a - b) * c"), "(a - b) * c");
    assert_eq!(c("a << 1 + b"), "a << (1 + b)");
    assert_eq!(c("a & b == c"), "a & (b == c)");
    assert_eq!(c("a || b && c | d ^ e & f"), "a || (b && (c | (d ^ (e & f))))");
    assert_eq!(c("a < b == c > d"), "(a < b) == (c > d)");
    assert_eq!(c("-a * b"), "-a * b");
    assert_eq!(c("!a && ~b"), "!a && ~b");
    assert_eq!(c("a ? b : c ? d : e"), "(a ? b : (c ? d : e))");
    assert_eq!(c("N/2-1"), "(N / 2) - 1");
    assert_eq!(c("n % 4"), "n % 4");
}

#[test]
fn c_postfix_and_primary() {
    assert_eq!(c("a[i+1]"), "a[i + 1]");
    assert_eq!(c("p->q.r"), "p->q.r");
    assert_eq!(c("f(x, y*2)"), "f(x, y * 2)");
    assert_eq!(c("(double)n / 2"), "((double) n) / 2");
    assert_eq!(c("sizeof(int)"), "sizeof(int)");
    assert_eq!(c("i++"), "i++");
    assert_eq!(c("0x1F + 1.5e-3f"), "0x1F + 1.5e-3f");
    assert_eq!(c("'c'"), "'c'");
}

#[test]
fn fortran_operators() {
    assert_eq!(f("a ** b ** c"), "a ** (b ** c)");
    assert_eq!(f("-a ** 2"), "-(a ** 2)");
    assert_eq!(f("-a + b"), "-a + b");
    assert_eq!(f("-a * b"), "-(a * b)");
    assert_eq!(f("a .AND. b .or. c"), "(a && b) || c");
    assert_eq!(f(".not. a .and. b"), "!a && b");
    assert_eq!(f(".not. a == b"), "!(a == b)");
    assert_eq!(f("a .eqv. b .neqv. c"), "(a .eqv. b) .neqv. c");
    assert_eq!(f("a .eq. b .and. c /= d"), "(a == b) && (c != d)");
    assert_eq!(f("x .LT. 1 .or. x .ge. n"), "(x < 1) || (x >= n)");
    assert_eq!(f("s // 'x'"), "s // \"x\"");
    assert_eq!(f("obj%field + 1"), "obj.field + 1");
    assert_eq!(f("a(1:n:2, :)"), "a(1:n:2, :)");
    assert_eq!(f(".TRUE."), ".true.");
    assert_eq!(f("1.0d0 + 2_8"), "1.0d0 + 2_8");
    assert_eq!(f("1.eq.2"), "1 == 2");
}

#[test]
fn spans_are_mapped() {
    let mut map = OffsetMap::new();
    map.push_copy(0, 100);
    let src = DirectiveText { text: "n - 1".into(), map };
    let e = parse_expr(&src, DirLang::C, 0).expect("parses");
    assert_eq!(e.span, xmpc_ir::Span::new(100, 105));
    let ExprKind::Binary(_, l, r) = e.kind else { panic!("binary") };
    assert_eq!((l.span.start, r.span.start), (100, 104));
}

#[test]
fn expression_errors() {
    for (lang, s) in
        [(DirLang::C, "a +"), (DirLang::C, "(a"), (DirLang::C, "a b"), (DirLang::Fortran, "a .xor. b"), (DirLang::Fortran, "a **"), (DirLang::C, "")]
    {
        let src = DirectiveText { text: s.into(), map: OffsetMap::identity(0) };
        assert!(parse_expr(&src, lang, 0).is_err(), "{s}");
    }
}
