//! Fortran front end: corpus tiling, fixed form, symbols, DO nesting, directives.

use std::path::PathBuf;
use xmpc_frontend::fortran;
use xmpc_ir::{ExprKind, FileUnit, Function, Item, Lang, Span, Stmt, StmtKind, StorageClass, Type};

fn corpus() -> Vec<(PathBuf, Lang)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testsuite/corpus");
    let mut v = Vec::new();
    for (dir, lang) in [("f90", Lang::FortranFree), ("f", Lang::FortranFixed)] {
        let mut files: Vec<PathBuf> = std::fs::read_dir(root.join(dir)).map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect()).unwrap_or_default();
        files.retain(|p| Lang::from_path(p.to_str().unwrap_or("")) == Some(lang));
        files.sort();
        v.extend(files.into_iter().map(|p| (p, lang)));
    }
    v
}

fn parse(src: &str, lang: Lang) -> xmpc_frontend::Parsed {
    fortran::parse(0, "t", src, lang)
}

/// Gaps between items hold only blanks and comments.
fn check_tiling(name: &str, src: &str, u: &FileUnit) {
    let masked;
    let src = if name.split('@').next().is_some_and(|n| n.ends_with(".f")) {
        masked = mask_73(src);
        masked.as_str()
    } else {
        src
    };
    let mut pos = 0;
    for it in &u.items {
        let s = it.span();
        assert!(s.start >= pos && s.end <= src.len() && s.start <= s.end, "{name}: item {s:?} out of order (at {pos})");
        assert_gap(name, &src[pos..s.start]);
        pos = s.end;
    }
    assert_gap(name, &src[pos..]);
}

/// Fixed form: blanks out columns 73 and on (same byte length).
fn mask_73(src: &str) -> String {
    let mut out = String::with_capacity(src.len());
    let mut col = 0;
    for c in src.chars() {
        if c == '\n' || c == '\r' {
            col = 0;
            out.push(c);
            continue;
        }
        col += 1;
        if col > 72 {
            out.extend(std::iter::repeat_n(' ', c.len_utf8()));
        } else {
            out.push(c);
        }
    }
    out
}

/// Statement spans nest in their parents and follow each other without overlap.
fn check_nesting(name: &str, u: &FileUnit) {
    fn list(name: &str, v: &[Stmt], outer: Span) {
        let mut pos = outer.start;
        for s in v {
            assert!(s.span.start >= pos && s.span.end <= outer.end, "{name}: {:?} not inside {outer:?} after {pos}", s.span);
            one(name, s);
            pos = s.span.end;
        }
    }
    fn one(name: &str, s: &Stmt) {
        match &s.kind {
            StmtKind::Compound(v) => list(name, v, s.span),
            StmtKind::Pragma(p) => {
                let mut pos = p.dir.span.end;
                if let Some(b) = &p.body {
                    list(name, std::slice::from_ref(&**b), Span::new(pos, s.span.end));
                    pos = b.span.end;
                }
                if let Some(e) = p.end_span {
                    assert!(e.start >= pos && e.end <= s.span.end, "{name}: end directive {e:?} misplaced");
                }
            }
            _ => {
                let kids = s.children();
                let kids: Vec<Stmt> = kids.into_iter().cloned().collect();
                list(name, &kids, s.span);
            }
        }
    }
    fn func(name: &str, f: &Function) {
        list(name, &f.body, f.span);
        f.contains.iter().for_each(|c| func(name, c));
    }
    for it in &u.items {
        match it {
            Item::Function(f) => func(name, f),
            Item::Module(m) => {
                list(name, &m.decls, m.span);
                m.contains.iter().for_each(|c| func(name, c));
            }
            _ => {}
        }
    }
}

fn assert_gap(name: &str, gap: &str) {
    let fixed = name.split('@').next().is_some_and(|n| n.ends_with(".f"));
    for line in gap.lines() {
        let t = line.trim();
        let comment = t.is_empty() || t.starts_with('!') || (fixed && line.starts_with(['c', 'C', '*', 'd', 'D']));
        assert!(comment, "{name}: gap holds code: {line:?}");
    }
}

#[test]
fn corpus_tiles_and_parses_cleanly() {
    let files = corpus();
    assert!(files.len() >= 14, "corpus too small: {}", files.len());
    for (p, lang) in files {
        let src = std::fs::read_to_string(&p).expect("corpus file");
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_string();
        let r = parse(&src, lang);
        check_tiling(&name, &src, &r.unit);
        check_nesting(&name, &r.unit);
        assert!(r.unit.host_errors.is_empty(), "{name}: host errors {:?}", r.unit.host_errors.iter().map(|s| &src[s.range()]).collect::<Vec<_>>());
        let errors: Vec<_> = r.diags.iter().filter(|d| d.severity == xmpc_ir::diag::Severity::Error).collect();
        assert!(errors.is_empty(), "{name}: {}", xmpc_ir::diag::render_plain(&name, &src, &r.diags));
        // Every directive is in the IR, and each span starts at a sentinel.
        let n_dirs = src.lines().filter(|l| is_dir_line(l) && !is_cont_line(l)).count();
        let pragmas = r.unit.pragmas();
        assert_eq!(pragmas.len() + count_end_lines(&r.unit), n_dirs, "{name}: directive count");
        for p in pragmas {
            let t = &src[p.dir.span.start..];
            assert!(t[1..].to_ascii_lowercase().starts_with("$xmp") || t[1..].to_ascii_lowercase().starts_with("$acc"), "{name}: {t:.20}");
        }
    }
}

fn is_dir_line(l: &str) -> bool {
    let t = l.trim_start().to_ascii_lowercase();
    (t.starts_with("!$xmp") || t.starts_with("!$acc") || l.to_ascii_lowercase().starts_with("c$xmp") || l.starts_with("*$xmp")) && t.len() > 1
}

/// Fixed-form column-6 or free-form `&` continuation of a directive.
fn is_cont_line(l: &str) -> bool {
    let b = l.trim_start().as_bytes();
    b.len() > 5 && b[5] != b' ' && b[5] != b'0'
}

/// `end task`-style lines are folded into their opener's `end_span`.
fn count_end_lines(u: &FileUnit) -> usize {
    u.pragmas().iter().filter(|p| p.end_span.is_some()).count()
}

#[test]
fn nas_fixed_form_has_no_host_errors() {
    let src = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testsuite/corpus/f/cg_nas.f")).expect("cg_nas.f");
    let r = parse(&src, Lang::FortranFixed);
    assert!(r.unit.host_errors.is_empty());
    let f = match &r.unit.items[0] {
        Item::Function(f) => f,
        other => panic!("expected the program, got {other:?}"),
    };
    assert_eq!(f.name, "cgkern");
    // Common members keep their block.
    let rho = f.symbols.lookup("rho").expect("rho");
    assert_eq!(rho.sclass, StorageClass::Common);
    assert!(rho.attrs.contains(&"common /scal/".to_string()));
    let sp = f.symbols.lookup("sp").expect("sp");
    assert_eq!(sp.sclass, StorageClass::Common);
    assert!(matches!(r.unit.types.get(sp.ty), Type::Array { dims, .. } if dims.len() == 1));
    assert!(r.unit.globals.lookup("scal").is_some());
    let na = f.symbols.lookup("na").expect("na");
    assert!(na.attrs.contains(&"parameter".to_string()));
    assert!(matches!(&na.init, Some(e) if e.kind == ExprKind::Int("1024".into())));
    // The continued ALIGN directive is one pragma whose span covers both lines.
    let al = r.unit.pragmas().into_iter().find(|p| src[p.dir.span.range()].contains("X, Q, R, Z")).expect("align");
    assert!(src[al.dir.span.range()].starts_with("C$XMP ALIGN (I) WITH T(I) ::"));
}

#[test]
fn declarations_and_types() {
    let src = "\
module m
  implicit none
  integer, parameter :: n = 10, m = 4
  real(8), dimension(0:n-1, m) :: a
  real(8), allocatable :: b(:,:)
  character(len=*), parameter :: s = 'x'
  type(foo) :: t
  double precision :: d(n, 0:*)
  common /blk/ x, y(10)
contains
  subroutine sub(p, q, r)
    integer, intent(in) :: p
    real :: q(*)
    dimension r(3)
    parameter (k = 5)
  end subroutine
end module
";
    let r = parse(src, Lang::FortranFree);
    assert!(r.unit.host_errors.is_empty());
    let Item::Module(m) = &r.unit.items[0] else { panic!("module") };
    let ty = |name: &str| r.unit.types.get(m.symbols.lookup(name).expect(name).ty).clone();
    let Type::Array { elem, dims } = ty("a") else { panic!("a is an array") };
    assert_eq!(r.unit.types.get(elem), &Type::Basic("real(8)".into()));
    assert_eq!(dims.len(), 2);
    assert!(matches!(&dims[0].lower, Some(e) if e.kind == ExprKind::Int("0".into())));
    assert!(matches!(&dims[0].upper, Some(e) if matches!(e.kind, ExprKind::Binary(xmpc_ir::BinOp::Sub, _, _))));
    assert!(dims[1].lower.is_none() && matches!(&dims[1].upper, Some(e) if e.kind == ExprKind::Ident("m".into())));
    let Type::Array { dims, .. } = ty("b") else { panic!("b") };
    assert!(dims.iter().all(|d| d.deferred));
    let Type::Array { dims, .. } = ty("d") else { panic!("d") };
    assert!(dims[1].deferred && dims[1].lower.is_some());
    assert_eq!(ty("s"), Type::Basic("character(len=*)".into()));
    assert_eq!(ty("t"), Type::Basic("type(foo)".into()));
    assert_eq!(m.symbols.lookup("a").map(|s| s.sclass), Some(StorageClass::ModuleVar));
    assert_eq!(m.symbols.lookup("y").map(|s| s.sclass), Some(StorageClass::Common));
    assert!(m.symbols.lookup("b").is_some_and(|s| s.attrs == ["allocatable"]));
    let sub = &m.contains[0];
    assert_eq!(sub.params.len(), 3);
    let names: Vec<_> = sub.params.iter().map(|&i| sub.symbols.get(i).name.as_str()).collect();
    assert_eq!(names, ["p", "q", "r"]);
    assert!(sub.symbols.get(sub.params[0]).attrs.contains(&"intent(in)".to_string()));
    assert!(matches!(r.unit.types.get(sub.symbols.get(sub.params[2]).ty), Type::Array { dims, .. } if dims.len() == 1));
    assert_eq!(sub.symbols.get(sub.params[2]).sclass, StorageClass::Param);
    assert!(sub.symbols.lookup("k").is_some_and(|s| s.init.is_some()));
}

#[test]
fn labelled_do_nesting() {
    let src = "      DO 10 I = 1, N\n      DO 10 J = 1, M, 2\n   10 A(I, J) = 0\n      DO 20 K = 1, 3\n   20 CONTINUE\n      END\n";
    let r = parse(src, Lang::FortranFixed);
    let Item::Function(f) = &r.unit.items[0] else { panic!() };
    let StmtKind::Do { var, end_label, body, .. } = &f.body[0].kind else { panic!("{:?}", f.body[0]) };
    assert_eq!(var.ident(), Some("i"));
    assert_eq!(end_label.as_deref(), Some("10"));
    let StmtKind::Compound(v) = &body.kind else { panic!() };
    let StmtKind::Do { var, step, body: inner, .. } = &v[0].kind else { panic!() };
    assert_eq!(var.ident(), Some("j"));
    assert!(step.is_some());
    // The shared terminal statement belongs to the innermost loop.
    let StmtKind::Compound(iv) = &inner.kind else { panic!() };
    assert_eq!(iv.len(), 1);
    assert_eq!(iv[0].label.as_deref(), Some("10"));
    assert!(matches!(iv[0].kind, StmtKind::Assign(..)));
    assert_eq!(&src[f.body[0].span.range()], &src[6..src.find("\n      DO 20").unwrap()]);
    let StmtKind::Do { body, .. } = &f.body[1].kind else { panic!() };
    let StmtKind::Compound(v) = &body.kind else { panic!() };
    assert!(matches!(v[0].kind, StmtKind::Nop) && v[0].label.as_deref() == Some("20"));
}

#[test]
fn statements() {
    let src = "\
subroutine s(x, n)
  do while (x .lt. 3 .and. .not. done)
    x = x + 1
  end do
  do
    exit
  end do
  if (n > 1) then
    goto 20
  else if (n < 0) then
    call foo(x, 1.0d0, .true., 'a' // \"b\", a%b(1:n:2, :))
  else
    stop 1
  end if
  if (x > 0) return
  if (x) 10, 20, 30
20 continue
  select case (n)
  case (1)
    x = 1
  end select
end subroutine
";
    let r = parse(src, Lang::FortranFree);
    assert!(r.unit.host_errors.is_empty());
    let Item::Function(f) = &r.unit.items[0] else { panic!() };
    let b = &f.body;
    assert!(matches!(&b[0].kind, StmtKind::While { cond: Some(_), .. }));
    assert!(matches!(&b[1].kind, StmtKind::While { cond: None, body } if matches!(&body.kind, StmtKind::Compound(v) if matches!(v[0].kind, StmtKind::Break))));
    let StmtKind::If { then, els: Some(els), .. } = &b[2].kind else { panic!() };
    assert!(matches!(&then.kind, StmtKind::Compound(v) if matches!(&v[0].kind, StmtKind::Goto(l) if l == "20")));
    let StmtKind::If { then, els: Some(last), .. } = &els.kind else { panic!() };
    let StmtKind::Compound(v) = &then.kind else { panic!() };
    let StmtKind::Call { name, args } = &v[0].kind else { panic!() };
    assert_eq!(name, "foo");
    assert_eq!(args.len(), 5);
    assert!(matches!(args[1].kind, ExprKind::Real(_)));
    assert!(matches!(args[2].kind, ExprKind::Logical(true)));
    assert!(matches!(args[3].kind, ExprKind::Binary(xmpc_ir::BinOp::Concat, _, _)));
    let ExprKind::Call(callee, subs) = &args[4].kind else { panic!("{:?}", args[4]) };
    assert!(matches!(&callee.kind, ExprKind::Member { field, .. } if field == "b"));
    assert!(matches!(&subs[0].kind, ExprKind::Triplet(Some(_), Some(_), Some(_))));
    assert!(matches!(&subs[1].kind, ExprKind::Triplet(None, None, None)));
    assert!(matches!(&last.kind, StmtKind::Compound(v) if matches!(v[0].kind, StmtKind::Stop(Some(_)))));
    assert!(matches!(&b[3].kind, StmtKind::If { then, els: None, .. } if matches!(then.kind, StmtKind::Return(None))));
    assert!(matches!(b[4].kind, StmtKind::Verbatim));
    assert!(matches!(b[5].kind, StmtKind::Nop) && b[5].label.as_deref() == Some("20"));
    assert!(matches!(b[6].kind, StmtKind::Verbatim));
}

#[test]
fn fixed_directive_span_starts_in_column_1() {
    let src = "      PROGRAM P\nC$XMP LOOP ON T(I)\nC$XMP+   REDUCTION(+:S)\n      DO 10 I = 1, 4\n   10 S = S + I\n      END\n";
    let r = parse(src, Lang::FortranFixed);
    let p = r.unit.pragmas();
    assert_eq!(p.len(), 1);
    let start = src.find("C$XMP LOOP").unwrap();
    assert_eq!(p[0].dir.span.start, start);
    assert_eq!(&src[p[0].dir.span.range()], "C$XMP LOOP ON T(I)\nC$XMP+   REDUCTION(+:S)");
}

#[test]
fn no_panic_on_truncated_files() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for (p, lang) in corpus() {
        let src = std::fs::read_to_string(&p).expect("corpus");
        for _ in 0..50 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut cut = (seed % (src.len() as u64 + 1)) as usize;
            while !src.is_char_boundary(cut) {
                cut -= 1;
            }
            let t = &src[..cut];
            let r = parse(t, lang);
            let name = format!("{}@{cut}", p.file_name().and_then(|n| n.to_str()).unwrap_or("?"));
            check_tiling(&name, t, &r.unit);
            check_nesting(&name, &r.unit);
        }
    }
}

#[test]
fn no_panic_on_mutated_files() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut rnd = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let junk = ["&", "!$xmp ", "!$xmp end task\n", "(", "end do\n", "'", "\n     &", "c$xmp+", "\t", "日本"];
    for (p, lang) in corpus() {
        let src = std::fs::read_to_string(&p).expect("corpus");
        let lines: Vec<&str> = src.split_inclusive('\n').collect();
        for _ in 0..20 {
            let mut v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            for _ in 0..3 {
                let i = rnd(v.len());
                match rnd(3) {
                    0 => {
                        v.remove(i);
                    }
                    1 => {
                        let l = v[i].clone();
                        v.insert(i, l);
                    }
                    _ => {
                        let mut at = rnd(v[i].len() + 1);
                        while !v[i].is_char_boundary(at) {
                            at -= 1;
                        }
                        v[i].insert_str(at, junk[rnd(junk.len())]);
                    }
                }
                if v.is_empty() {
                    break;
                }
            }
            let t: String = v.concat();
            if let Ok(d) = std::env::var("FORTRAN_FUZZ_DUMP") {
                let _ = std::fs::write(d, &t);
            }
            let r = parse(&t, lang);
            let name = format!("{}@mutated", p.file_name().and_then(|n| n.to_str()).unwrap_or("?"));
            check_tiling(&name, &t, &r.unit);
            check_nesting(&name, &r.unit);
        }
    }
}
