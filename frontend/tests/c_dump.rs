//! Manual inspection helper (does nothing unless C_DUMP is set):
//! `C_DUMP=file.c cargo test -p xmpc-frontend --test c_dump -- --nocapture`
//! prints items and statement shapes; add `C_SEXP=1` for the tree-sitter tree of the
//! masked text, `C_DEBUG=1` for the full IR.
mod c_util;

#[test]
fn dump() {
    let Ok(path) = std::env::var("C_DUMP") else { return };
    let text = std::fs::read_to_string(&path).unwrap();
    if std::env::var("C_SEXP").is_ok() {
        let m = xmpc_frontend::c::mask::mask(&text);
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&tree_sitter_c::LANGUAGE.into()).unwrap();
        println!("{}", parser.parse(&m.text, None).unwrap().root_node().to_sexp());
        return;
    }
    let p = xmpc_frontend::c::parse(0, &path, &text);
    for it in &p.unit.items {
        let s = it.span();
        let first = text[s.range()].lines().next().unwrap_or("");
        match it {
            xmpc_ir::Item::Function(f) => println!("{s:?} fn {}: {}", f.name, c_util::list(&text, &f.body)),
            _ => println!("{s:?} {first}"),
        }
    }
    if std::env::var("C_DEBUG").is_ok() {
        println!("{:#?}\n{:#?}\n{:#?}", p.unit.items, p.unit.types, p.unit.globals);
    }
    println!("{}", xmpc_ir::diag::render_plain(&path, &text, &p.diags));
}
