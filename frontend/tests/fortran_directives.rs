//! Fortran directives: collection, continuation, attachment, blocks, errors.

use xmpc_frontend::fortran::{self, fixed};
use xmpc_ir::diag::Severity;
use xmpc_ir::{Function, Item, Lang, Pragma, Stmt, StmtKind};

fn parse(src: &str, lang: Lang) -> xmpc_frontend::Parsed {
    fortran::parse(0, "t", src, lang)
}

fn first_fn(u: &xmpc_ir::FileUnit) -> &Function {
    u.items.iter().find_map(|i| if let Item::Function(f) = i { Some(f) } else { None }).expect("a program unit")
}

fn pragma(s: &Stmt) -> &Pragma {
    match &s.kind {
        StmtKind::Pragma(p) => p,
        other => panic!("expected a pragma, got {other:?}"),
    }
}

fn codes(r: &xmpc_frontend::Parsed) -> Vec<(Severity, String)> {
    r.diags.iter().map(|d| (d.severity, d.code.clone().unwrap_or_default())).collect()
}

#[test]
fn loop_takes_the_next_do() {
    let src = "program p\n!$xmp loop (i) on t(i) &\n!$xmp& reduction(+: s)\n  do i = 1, n\n    s = s + i\n  end do\n  x = 1\nend program\n";
    let r = parse(src, Lang::FortranFree);
    assert!(r.diags.is_empty(), "{:?}", codes(&r));
    let f = first_fn(&r.unit);
    assert_eq!(f.body.len(), 2);
    let p = pragma(&f.body[0]);
    assert_eq!(p.dir.name(), "loop");
    assert!(matches!(p.body.as_deref().map(|b| &b.kind), Some(StmtKind::Do { .. })));
    // The pragma statement covers the directive lines and the loop.
    let t = &src[f.body[0].span.range()];
    assert!(t.starts_with("!$xmp loop") && t.ends_with("end do"));
    assert_eq!(&src[p.dir.span.range()], "!$xmp loop (i) on t(i) &\n!$xmp& reduction(+: s)");
}

#[test]
fn task_blocks_nest() {
    let src = "\
subroutine s
!$xmp tasks
!$xmp task on p(1)
  a = 1
!$xmp end task
!$xmp task on p(2)
  b = 2
  c = 3
!$xmp end task
!$xmp end tasks
end subroutine
";
    let r = parse(src, Lang::FortranFree);
    assert!(r.diags.is_empty(), "{:?}", codes(&r));
    let f = first_fn(&r.unit);
    assert_eq!(f.body.len(), 1);
    let tasks = pragma(&f.body[0]);
    assert_eq!(&src[tasks.end_span.expect("end tasks").range()], "!$xmp end tasks");
    let StmtKind::Compound(v) = &tasks.body.as_deref().expect("body").kind else { panic!() };
    assert_eq!(v.len(), 2);
    let t2 = pragma(&v[1]);
    assert!(matches!(&t2.body.as_deref().expect("body").kind, StmtKind::Compound(b) if b.len() == 2));
    assert_eq!(r.unit.pragmas().len(), 3);
}

#[test]
fn unmatched_blocks_are_errors() {
    let src = "program p\n!$xmp task on p(1)\n  a = 1\n!$xmp end tasks\nend program\n";
    let r = parse(src, Lang::FortranFree);
    let errs: Vec<_> = r.diags.iter().filter(|d| d.code.as_deref() == Some("XMP0105")).collect();
    assert_eq!(errs.len(), 2, "{:?}", codes(&r));
    assert!(errs.iter().all(|d| d.severity == Severity::Error));
    // The stray `end tasks` points back at the open `task`.
    let close = errs.iter().find(|d| d.message.contains("end tasks")).expect("close error");
    assert_eq!(close.labels.len(), 2);
    assert_eq!(&src[close.labels[1].range.clone()], "!$xmp task on p(1)");
    // Nothing is lost: both directives are still in the IR.
    assert_eq!(r.unit.pragmas().len(), 2);
}

#[test]
fn acc_parallel_loop_takes_an_optional_end() {
    let src = "\
subroutine s(a, n)
!$acc data copy(a)
!$acc parallel loop
  do i = 1, n
    a(i) = 0
  end do
!$acc end parallel loop
!$acc end data
end subroutine
";
    let r = parse(src, Lang::FortranFree);
    assert!(r.diags.is_empty(), "{:?}", codes(&r));
    let f = first_fn(&r.unit);
    assert_eq!(f.body.len(), 1);
    let data = pragma(&f.body[0]);
    assert!(data.end_span.is_some());
    let StmtKind::Compound(v) = &data.body.as_deref().expect("body").kind else { panic!() };
    assert_eq!(v.len(), 1);
    let pl = pragma(&v[0]);
    assert!(matches!(pl.body.as_deref().map(|b| &b.kind), Some(StmtKind::Do { .. })));
    assert_eq!(&src[pl.end_span.expect("end parallel loop").range()], "!$acc end parallel loop");
}

#[test]
fn module_spec_part_and_nested_constructs() {
    let src = "\
module m
  real(8) :: a(100)
!$xmp nodes p(*)
!$xmp template t(100)
!$xmp distribute t(block) onto p
!$xmp align a(i) with t(i)
contains
  subroutine s()
    if (.true.) then
!$xmp loop on t(i)
      do i = 1, 100
        a(i) = 0
      end do
    else
!$xmp barrier
    end if
  end subroutine
end module
";
    let r = parse(src, Lang::FortranFree);
    assert!(r.diags.is_empty(), "{:?}", codes(&r));
    let Item::Module(m) = &r.unit.items[0] else { panic!() };
    let names: Vec<_> = m.decls.iter().filter_map(|s| if let StmtKind::Pragma(p) = &s.kind { Some(p.dir.name()) } else { None }).collect();
    assert_eq!(names, ["nodes", "template", "distribute", "align"]);
    let StmtKind::If { then, els: Some(els), .. } = &m.contains[0].body[0].kind else { panic!() };
    let StmtKind::Compound(t) = &then.kind else { panic!() };
    assert!(pragma(&t[0]).body.is_some());
    let StmtKind::Compound(e) = &els.kind else { panic!() };
    assert_eq!(pragma(&e[0]).dir.name(), "barrier");
}

#[test]
fn fixed_form_directives_map_to_original_columns() {
    let seq = |s: &str| format!("{s:<72}SEQ00010");
    let src = [
        seq("      PROGRAM P"),
        seq("C$XMP LOOP ON T(I)"),
        seq("C$XMP+   REDUCTION(+:S)"),
        seq("      DO 10 I = 1,"),
        seq("     &   N"),
        seq("   10 S = S + I"),
        seq("!$XMP BCAST (S)"),
        seq("!$XMP&  FROM P(1)"),
        seq("      END"),
    ]
    .join("\r\n")
        + "\r\n";
    let r = parse(&src, Lang::FortranFixed);
    assert!(r.unit.host_errors.is_empty());
    assert!(r.diags.is_empty(), "{:?}", codes(&r));
    let f = first_fn(&r.unit);
    let lp = pragma(&f.body[0]);
    let line2 = src.find("C$XMP LOOP").unwrap();
    assert_eq!(lp.dir.span.start, line2);
    // The span covers whole lines, sequence numbers included.
    assert!(src[lp.dir.span.range()].ends_with("REDUCTION(+:S)                                                 SEQ00010"));
    let StmtKind::Do { upper, .. } = &lp.body.as_deref().expect("loop").kind else { panic!() };
    assert_eq!(&src[upper.span.range()], "N");
    let bc = pragma(&f.body[1]);
    assert_eq!(bc.dir.name(), "bcast");
    assert!(src[bc.dir.span.range()].starts_with("!$XMP BCAST (S)"));
}

#[test]
fn normaliser_maps_every_byte_back() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../testsuite/corpus/f");
    for e in std::fs::read_dir(root).expect("corpus/f") {
        let p = e.expect("entry").path();
        let src = std::fs::read_to_string(&p).expect("file");
        let n = fixed::normalise(&src);
        let mut seen = vec![false; src.len()];
        for d in 0..n.text.len() {
            if n.is_inserted(d) {
                assert!(matches!(n.text.as_bytes()[d], b'&' | b'!'));
                continue;
            }
            let o = n.to_orig(d);
            assert!(!seen[o], "{p:?}: byte {o} mapped twice");
            seen[o] = true;
            let (a, b) = (src.as_bytes()[o], n.text.as_bytes()[d]);
            // Only column-1 comment letters and column-6 markers change.
            assert!(a == b || b == b'!' || b == b'&' || b == b' ', "{p:?}: {a} -> {b} at {o}");
        }
        assert!(seen.iter().all(|&x| x), "{p:?}: unmapped bytes");
    }
}

#[test]
fn broken_code_is_a_warning_and_keeps_directives() {
    let src = "\
program p
  integer :: i
  x = = 3 +
!$xmp barrier
  y = 2
end program
";
    let r = parse(src, Lang::FortranFree);
    assert!(!r.unit.host_errors.is_empty());
    assert!(r.diags.iter().all(|d| d.severity == Severity::Warning), "{:?}", codes(&r));
    assert!(r.diags.iter().any(|d| d.code.as_deref() == Some("XMP0200")));
    assert_eq!(r.unit.pragmas().len(), 1);
}

#[test]
fn other_units_stay_verbatim() {
    let src = "\
#include \"x.h\"
block data bd
  common /c/ x
  data x /1.0/
end block data
interface
  subroutine g()
  end subroutine
end interface
subroutine h
!$ x = 1
!$omp parallel
end subroutine
";
    let r = parse(src, Lang::FortranFree);
    assert!(r.unit.host_errors.is_empty());
    let kinds: Vec<_> = r.unit.items.iter().map(|i| matches!(i, Item::Verbatim(_))).collect();
    assert_eq!(kinds, [true, true, true, false]);
    assert!(r.unit.pragmas().is_empty());
    assert_eq!(&src[r.unit.items[1].span().range()], "block data bd\n  common /c/ x\n  data x /1.0/\nend block data");
}
