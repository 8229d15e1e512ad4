//! Types, symbols, statements and expressions of the C lowering.
mod c_util;

use c_util::{function, parse};
use xmpc_ir::{BinOp, ExprKind, Item, StmtKind, StorageClass, Symbol, Type, UnOp};

fn global<'a>(p: &'a xmpc_frontend::Parsed, name: &str) -> &'a Symbol {
    p.unit.globals.lookup(name).unwrap_or_else(|| panic!("no global {name}"))
}

#[test]
fn arrays_pointers_and_dims() {
    let src = "#define N 10\n#define M 20\ndouble a[N][M], b[];\nint *pa[4];\nint (*pq)[8];\nextern float g[N+1];\n";
    let p = parse(src);
    let t = &p.unit.types;
    let a = global(&p, "a");
    let Type::Array { elem, dims } = t.get(a.ty) else { panic!("{:?}", t.get(a.ty)) };
    assert_eq!(t.get(*elem), &Type::Basic("double".into()));
    assert_eq!(dims.len(), 2);
    assert_eq!(dims[0].upper.as_ref().unwrap().ident(), Some("N"));
    assert_eq!(dims[1].upper.as_ref().unwrap().ident(), Some("M"));
    assert!(dims.iter().all(|d| d.lower.is_none() && !d.deferred));
    assert_eq!(&src[a.span.range()], "a");
    let Type::Array { dims, .. } = t.get(global(&p, "b").ty) else { panic!() };
    assert!(dims[0].deferred && dims[0].upper.is_none());
    let Type::Array { elem, dims } = t.get(global(&p, "pa").ty) else { panic!() };
    assert!(matches!(t.get(*elem), Type::Pointer(_)));
    assert_eq!(dims[0].upper.as_ref().unwrap().kind, ExprKind::Int("4".into()));
    let Type::Pointer(to) = t.get(global(&p, "pq").ty) else { panic!() };
    assert!(matches!(t.get(*to), Type::Array { .. }));
    let g = global(&p, "g");
    assert_eq!(g.sclass, StorageClass::Extern);
    let Type::Array { dims, .. } = t.get(g.ty) else { panic!() };
    assert!(matches!(dims[0].upper.as_ref().unwrap().kind, ExprKind::Binary(BinOp::Add, _, _)));
}

#[test]
fn structs_unions_typedefs_and_function_pointers() {
    let src = "struct node { int v; struct node *next; union { int i; float f; } u; };\n\
               typedef struct node node_t;\n\
               typedef void (*cb_t)(int, double *);\n\
               struct node head;\nnode_t *cur;\ncb_t handlers[3];\n\
               enum color { RED, GREEN = 3 } c;\n";
    let p = parse(src);
    let t = &p.unit.types;
    let head = global(&p, "head");
    let Type::Struct { tag, fields } = t.get(head.ty) else { panic!() };
    assert_eq!(tag.as_deref(), Some("node"));
    let names: Vec<&str> = fields.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["v", "next", "u"]);
    assert_eq!(t.get(fields[1].1), &Type::Pointer(head.ty), "self-referencing struct");
    assert!(matches!(t.get(fields[2].1), Type::Struct { tag: None, fields } if fields.len() == 2));

    let node_t = global(&p, "node_t");
    assert_eq!(node_t.sclass, StorageClass::Typedef);
    assert_eq!(node_t.ty, head.ty);
    assert_eq!(t.get(global(&p, "cur").ty), &Type::Pointer(t.types.iter().position(|x| *x == Type::Basic("node_t".into())).unwrap()));

    let cb = global(&p, "cb_t");
    assert_eq!(cb.sclass, StorageClass::Typedef);
    let Type::Pointer(f) = t.get(cb.ty) else { panic!() };
    let Type::Function { ret, params } = t.get(*f) else { panic!() };
    assert_eq!(t.get(*ret), &Type::Basic("void".into()));
    assert_eq!(params.len(), 2);
    assert!(matches!(t.get(params[1]), Type::Pointer(_)));

    let green = global(&p, "GREEN");
    assert_eq!(green.init.as_ref().unwrap().kind, ExprKind::Int("3".into()));
    assert_eq!(t.get(global(&p, "c").ty), &Type::Basic("enum color".into()));
}

#[test]
fn functions_params_locals_and_qualifiers() {
    let src = "#define N 8\nstatic int f(int n, double v[][N], const char *s) { static double acc = 0.5; const unsigned long int k = 3; int n2; return n; }\n\
               double (*pick(int w))(double);\nint main(void) { for (int i = 0; i < 3; i++) { int i2 = i; } return 0; }\n";
    let p = parse(src);
    let t = &p.unit.types;
    let f = function(&p, "f");
    assert_eq!(&src[f.name_span.range()], "f");
    assert_eq!(t.get(f.ret.unwrap()), &Type::Basic("int".into()));
    assert_eq!(f.params.len(), 3);
    let v = f.symbols.get(f.params[1]);
    assert_eq!((v.name.as_str(), v.sclass), ("v", StorageClass::Param));
    let Type::Array { dims, .. } = t.get(v.ty) else { panic!() };
    assert!(dims[0].deferred);
    assert_eq!(dims[1].upper.as_ref().unwrap().ident(), Some("N"));
    let s = f.symbols.get(f.params[2]);
    assert_eq!(s.attrs, ["const"]);
    let acc = f.symbols.lookup("acc").unwrap();
    assert_eq!(acc.sclass, StorageClass::Static);
    assert_eq!(acc.init.as_ref().unwrap().kind, ExprKind::Real("0.5".into()));
    let k = f.symbols.lookup("k").unwrap();
    assert_eq!(t.get(k.ty), &Type::Basic("unsigned long int".into()));
    assert_eq!(k.attrs, ["const"]);
    assert_eq!(global(&p, "f").sclass, StorageClass::Static);
    assert!(matches!(t.get(global(&p, "f").ty), Type::Function { params, .. } if params.len() == 3));

    let pick = global(&p, "pick");
    assert_eq!(pick.sclass, StorageClass::Func);
    let Type::Function { ret, params } = t.get(pick.ty) else { panic!() };
    assert_eq!(params.len(), 1);
    assert!(matches!(t.get(*ret), Type::Pointer(_)));

    let main = function(&p, "main");
    assert!(main.params.is_empty());
    let StmtKind::For { init, .. } = &main.body[0].kind else { panic!() };
    let StmtKind::Decl(ids) = &init.as_ref().unwrap().kind else { panic!() };
    assert_eq!(main.symbols.get(ids[0]).name, "i");
    assert!(main.symbols.lookup("i2").is_some());
}

#[test]
fn expressions() {
    let src = "void g(void) { x = a[i][j] + s->c.d * -f(1, 2.0e3); y += (k << 2); p = (double *) q; n = sizeof(int) + sizeof x; z = c ? 'a' : \"s\"; i++, --j; *r = &v; }\n";
    let p = parse(src);
    let g = function(&p, "g");
    let e = |i: usize| match &g.body[i].kind {
        StmtKind::Expr(e) => e.clone(),
        k => panic!("{k:?}"),
    };
    let ExprKind::Assign(None, lhs, rhs) = e(0).kind else { panic!() };
    assert_eq!(lhs.ident(), Some("x"));
    let ExprKind::Binary(BinOp::Add, l, r) = rhs.kind else { panic!() };
    assert!(matches!(&l.kind, ExprKind::Index(a, _) if matches!(a.kind, ExprKind::Index(..))));
    let ExprKind::Binary(BinOp::Mul, m, n) = r.kind else { panic!() };
    assert!(matches!(&m.kind, ExprKind::Member { field, arrow: false, base } if field == "d" && matches!(&base.kind, ExprKind::Member { arrow: true, .. })));
    let ExprKind::Unary(UnOp::Neg, call) = n.kind else { panic!() };
    assert!(matches!(&call.kind, ExprKind::Call(f, args) if f.ident() == Some("f") && args.len() == 2 && args[1].kind == ExprKind::Real("2.0e3".into())));

    let ExprKind::Assign(Some(BinOp::Add), _, rhs) = e(1).kind else { panic!() };
    assert!(matches!(rhs.kind, ExprKind::Binary(BinOp::Shl, ..)));
    assert_eq!(&src[rhs.span.range()], "(k << 2)", "parentheses keep their span");
    let ExprKind::Assign(_, _, rhs) = e(2).kind else { panic!() };
    assert!(matches!(&rhs.kind, ExprKind::Cast(t, _) if t == "double *"));
    let ExprKind::Assign(_, _, rhs) = e(3).kind else { panic!() };
    let ExprKind::Binary(BinOp::Add, a, b) = rhs.kind else { panic!() };
    assert!(matches!(&a.kind, ExprKind::SizeOf(t) if t.kind == ExprKind::Verbatim("int".into())));
    assert!(matches!(&b.kind, ExprKind::SizeOf(x) if x.ident() == Some("x")));
    let ExprKind::Assign(_, _, rhs) = e(4).kind else { panic!() };
    assert!(matches!(&rhs.kind, ExprKind::Cond(_, a, b) if a.kind == ExprKind::Char("a".into()) && b.kind == ExprKind::Str("s".into())));
    assert!(matches!(e(5).kind, ExprKind::Binary(BinOp::Comma, a, b)
        if matches!(a.kind, ExprKind::Unary(UnOp::PostInc, _)) && matches!(b.kind, ExprKind::Unary(UnOp::PreDec, _))));
    assert!(matches!(e(6).kind, ExprKind::Assign(None, l, r)
        if matches!(l.kind, ExprKind::Unary(UnOp::Deref, _)) && matches!(r.kind, ExprKind::Unary(UnOp::AddrOf, _))));
}

#[test]
fn statements() {
    let src = "int main(void) {\n  int i = 0;\n  while (i < 3) i++;\n  do { i--; } while (i);\n  switch (i) { case 0: break; default: ; }\n  if (i) return 1; else if (!i) goto out;\nout:\n  __asm__(\"nop\");\n  return 0;\n}\n";
    let p = parse(src);
    let body = &function(&p, "main").body;
    assert_eq!(c_util::list(src, body), "decl1 while(expr) do({expr}) switch({verb break verb verb}) if(return)else(if(goto out)) out:expr return");
    assert!(matches!(&body[1].kind, StmtKind::While { cond: Some(c), .. } if matches!(c.kind, ExprKind::Binary(BinOp::Lt, ..))));
    assert_eq!(&src[body[5].span.range()], "out:\n  __asm__(\"nop\");");
}

#[test]
fn corpus_symbols() {
    let corpus = c_util::corpus();
    let get = |n: &str| corpus.iter().find(|c| c.0 == n).unwrap().1.clone();

    let text = get("laplace2d_square.c");
    let p = parse(&text);
    let u = global(&p, "u");
    let Type::Array { dims, .. } = p.unit.types.get(u.ty) else { panic!() };
    assert_eq!(dims.len(), 2);
    assert!(p.unit.items.iter().filter(|i| matches!(i, Item::Pragma(_))).count() >= 6);

    let text = get("structs_preproc.c");
    let p = parse(&text);
    let parts = global(&p, "parts");
    let Type::Array { elem, .. } = p.unit.types.get(parts.ty) else { panic!() };
    let Type::Struct { tag, fields } = p.unit.types.get(*elem) else { panic!() };
    assert_eq!(tag.as_deref(), Some("particle"));
    let names: Vec<&str> = fields.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names, ["pos", "vel", "mass", "kind", "extra", "next"]);
    assert_eq!(global(&p, "energy_fn").sclass, StorageClass::Typedef);
    let pick = function(&p, "pick");
    assert!(matches!(p.unit.types.get(pick.ret.unwrap()), Type::Pointer(_)));
    assert_eq!(function(&p, "main").params.len(), 2);
}

/// `_Complex` types lower to `double _Complex` / `float _Complex` (tree-sitter-c sees
/// the keyword blanked by the mask).
#[test]
fn complex_types() {
    let src = "double _Complex z[4];\n_Complex float f;\nlong double _Complex l;\nint n;\n";
    let p = parse(src);
    assert!(p.unit.host_errors.is_empty(), "{:?}", p.unit.host_errors);
    let t = &p.unit.types;
    let Type::Array { elem, .. } = t.get(global(&p, "z").ty) else { panic!() };
    assert_eq!(t.get(*elem), &Type::Basic("double _Complex".into()));
    assert_eq!(t.get(global(&p, "f").ty), &Type::Basic("float _Complex".into()));
    assert_eq!(t.get(global(&p, "l").ty), &Type::Basic("long double _Complex".into()));
    assert_eq!(t.get(global(&p, "n").ty), &Type::Basic("int".into()));
}
