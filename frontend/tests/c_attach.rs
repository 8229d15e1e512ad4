//! Directive attachment: directives are statements; those that apply to the next
//! statement own it as `body`.
mod c_util;

use c_util::{function, list, parse};

/// The statement shapes of `main`'s body.
fn body_of(src: &str) -> String {
    let p = parse(src);
    assert!(p.unit.host_errors.is_empty(), "host errors in {src}");
    list(src, &function(&p, "main").body)
}

#[test]
fn loop_takes_the_next_for() {
    let src = "int main(void) {\n  int i;\n#pragma xmp loop on t(i)\n  for (i = 0; i < 10; i++)\n    a[i] = i;\n  return 0;\n}\n";
    assert_eq!(body_of(src), "decl1 [xmp loop](for(expr)) return");
}

#[test]
fn pragma_between_for_header_and_unbraced_body() {
    let src = "int main(void) {\n  for (j = 1; j < N - 1; j++)\n#pragma acc loop\n    for (i = 1; i < N - 1; i++)\n      u[j][i] = 0;\n}\n";
    assert_eq!(body_of(src), "for([acc loop](for(expr)))");
}

#[test]
fn nested_loops_and_chains() {
    let src = "int main(void) {
#pragma xmp loop (i, j) on t(i, j)
#pragma acc parallel loop present(u)
  for (j = 1; j < N - 1; j++)
#pragma acc loop
    for (i = 1; i < N - 1; i++)
      u[j][i] = 1;
#pragma xmp reflect_do (u) acc
#pragma xmp task on p(1)
#pragma acc parallel
  {
    x = 1;
  }
#pragma xmp loop on t(i)
}
";
    assert_eq!(body_of(src), "[xmp loop]([acc parallel](for([acc loop](for(expr))))) [xmp reflect_do] [xmp task]([acc parallel]({expr})) [xmp loop]");
}

#[test]
fn standalone_directives_take_nothing() {
    let src = "int main(void) {\n#pragma xmp reflect (a)\n  x = 1;\n#pragma xmp barrier\n#pragma acc update host(a)\n  y = 2;\n}\n";
    assert_eq!(body_of(src), "[xmp reflect] expr [xmp barrier] [acc update] expr");
}

#[test]
fn body_positions_of_if_else_while_do_and_labels() {
    let src = "int main(void) {
  if (c)
#pragma xmp task on p(1)
    x = 1;
  else
#pragma acc loop
    for (;;) ;
  while (k--)
#pragma xmp loop on t(i)
    for (i = 0; i < n; i++) s += a[i];
  do
#pragma acc kernels
    { y++; }
  while (y < 3);
L1:
#pragma xmp loop on t(i)
  for (i = 0; i < n; i++) ;
  goto L1;
}
";
    assert_eq!(
        body_of(src),
        "if([xmp task](expr))else([acc loop](for(verb))) while([xmp loop](for(expr))) do([acc kernels]({expr})) L1:[xmp loop](for(verb)) goto L1"
    );
}

#[test]
fn case_labels_and_preprocessor_groups_are_flattened() {
    let src = "int main(void) {
  switch (k) {
  case 1:
#pragma xmp loop on t(i)
    for (i = 0; i < n; i++) a[i] = 0;
    break;
  default:
    break;
  }
#ifdef USE_BARRIER
#pragma xmp barrier
#else
  x = 0;
#endif
}
";
    assert_eq!(body_of(src), "switch({verb [xmp loop](for(expr)) break verb break}) verb [xmp barrier] verb expr verb");
}

#[test]
fn gmove_section_statement_is_parsed_without_warning() {
    let src = "int main(void) {\n#pragma xmp gmove\n  b[:] = a[0:N];\n  x = 1;\n#pragma xmp gmove in // comment\n  c[1:n][:] =\n      d[0:n][:];\n  if (x) y = 1;\n}\n";
    let p = parse(src);
    let main = function(&p, "main");
    assert_eq!(list(src, &main.body), "[xmp gmove](expr) expr [xmp gmove](expr) if(expr)");
    let xmpc_ir::StmtKind::Pragma(g) = &main.body[2].kind else { panic!() };
    let body = g.body.as_ref().unwrap();
    assert_eq!(&src[body.span.range()], "c[1:n][:] =\n      d[0:n][:];");
    let xmpc_ir::StmtKind::Expr(e) = &body.kind else { panic!() };
    let xmpc_ir::ExprKind::Assign(None, l, r) = &e.kind else { panic!() };
    // c[1:n][:] → Index(Index(c, 1 : 1+n-1), :)
    let xmpc_ir::ExprKind::Index(inner, all) = &l.kind else { panic!() };
    assert_eq!(all.kind, xmpc_ir::ExprKind::Triplet(None, None, None));
    let xmpc_ir::ExprKind::Index(_, first) = &inner.kind else { panic!() };
    let xmpc_ir::ExprKind::Triplet(Some(lo), Some(hi), None) = &first.kind else { panic!("{first:?}") };
    assert_eq!(lo.kind, xmpc_ir::ExprKind::Int("1".into()));
    assert!(matches!(hi.kind, xmpc_ir::ExprKind::Binary(xmpc_ir::BinOp::Sub, _, _)));
    assert_eq!(&src[first.span.range()], "1:n");
    // d[0:n] → 0 : n-1 is not folded (n is not a literal); a[0:N] on the first gmove.
    let xmpc_ir::ExprKind::Index(d0, _) = &r.kind else { panic!() };
    assert!(matches!(&d0.kind, xmpc_ir::ExprKind::Index(_, t) if matches!(t.kind, xmpc_ir::ExprKind::Triplet(Some(_), Some(_), None))));

    // Literal sections fold; something the section parser does not know stays verbatim.
    let src = "int main(void) {\n#pragma xmp gmove\n  a[0:16] = b[8:16:2];\n#pragma xmp gmove\n  a[:] = (double) b[:];\n}\n";
    let p = parse(src);
    let main = function(&p, "main");
    assert_eq!(list(src, &main.body), "[xmp gmove](expr) [xmp gmove](verb)");
    let xmpc_ir::StmtKind::Pragma(g) = &main.body[0].kind else { panic!() };
    let xmpc_ir::StmtKind::Expr(e) = &g.body.as_ref().unwrap().kind else { panic!() };
    let xmpc_ir::ExprKind::Assign(None, l, r) = &e.kind else { panic!() };
    assert!(matches!(&l.kind, xmpc_ir::ExprKind::Index(_, t) if matches!(&t.kind, xmpc_ir::ExprKind::Triplet(Some(a), Some(b), None)
        if a.kind == xmpc_ir::ExprKind::Int("0".into()) && b.kind == xmpc_ir::ExprKind::Int("15".into()))));
    assert!(matches!(&r.kind, xmpc_ir::ExprKind::Index(_, t) if matches!(&t.kind, xmpc_ir::ExprKind::Triplet(Some(_), Some(b), Some(_))
        if b.kind == xmpc_ir::ExprKind::Int("23".into()))));
    assert!(p.diags.is_empty());
    assert!(p.diags.is_empty(), "{:?}", p.diags);
}

#[test]
fn pragma_span_covers_directive_and_body() {
    let src = "int main(void) {\n#pragma xmp loop on t(i)\n  for (;;) x++;\n}\n";
    let p = parse(src);
    let s = &function(&p, "main").body[0];
    assert_eq!(&src[s.span.range()], "#pragma xmp loop on t(i)\n  for (;;) x++;");
    let xmpc_ir::StmtKind::Pragma(pr) = &s.kind else { panic!() };
    assert_eq!(&src[pr.dir.span.range()], "#pragma xmp loop on t(i)");

    // A trailing comment is not part of the directive; continuation lines are.
    let src = "int main(void) {\n  # pragma xmp loop \\\n    on t(i) /* note */\n  for (;;) x++;\n}\n";
    let p = parse(src);
    let xmpc_ir::StmtKind::Pragma(pr) = &function(&p, "main").body[0].kind else { panic!() };
    assert_eq!(&src[pr.dir.span.range()], "# pragma xmp loop \\\n    on t(i)");
}

#[test]
fn corpus_xacc_loop_nest() {
    let (_, text) = c_util::corpus().into_iter().find(|(n, _)| n == "xacc_laplace.c").unwrap();
    let p = parse(&text);
    let shapes = list(&text, &function(&p, "main").body);
    assert!(shapes.contains("[acc data]({[xmp reflect_init] for({[xmp loop]([acc parallel](for(for(expr)))) [xmp reflect_do] [xmp loop]([acc parallel](for([acc loop](for(expr)))))})"), "{shapes}");
}

#[test]
fn directive_after_include_with_trailing_blanks_is_a_file_scope_item() {
    // tree-sitter-c takes the masked directive after `#include <x.h>   ` into the
    // include line; it used to be dropped with a warning (Omni's bcast tests do this).
    for inc in ["#include <stdio.h>      \n", "#include <stdio.h> \t\n", "#define N 4   \n"] {
        let src = format!("{inc}#pragma xmp nodes p[4]\n#pragma xmp template t[N]\nint main(void) {{ return 0; }}\n");
        let p = parse(&src);
        assert!(p.diags.is_empty(), "{inc:?}: {:?}", p.diags);
        let kinds: Vec<String> = p
            .unit
            .items
            .iter()
            .map(|i| match i {
                xmpc_ir::Item::Pragma(pr) => format!("[{}]", pr.dir.name()),
                xmpc_ir::Item::Verbatim(s) => format!("v{:?}", &src[s.range()]),
                xmpc_ir::Item::Function(_) => "fn".into(),
                _ => "other".into(),
            })
            .collect();
        assert_eq!(kinds, vec![format!("v{:?}", inc.trim_end()), "[nodes]".into(), "[template]".into(), "fn".into()], "{inc:?}");
    }
}
