//! Small helpers over tree-sitter nodes.

use tree_sitter::Node;
use xmpc_ir::Span;

/// Field ids of the C grammar, looked up once: `child_by_field_name` scans the
/// grammar's field names on every call.
#[derive(Clone, Copy)]
pub(super) struct Fields {
    pub alternative: u16,
    pub argument: u16,
    pub arguments: u16,
    pub body: u16,
    pub condition: u16,
    pub consequence: u16,
    pub declarator: u16,
    pub field: u16,
    pub function: u16,
    pub index: u16,
    pub initializer: u16,
    pub label: u16,
    pub left: u16,
    pub name: u16,
    pub operator: u16,
    pub parameters: u16,
    pub right: u16,
    pub size: u16,
    pub ty: u16,
    pub update: u16,
    pub value: u16,
}

impl Fields {
    pub fn new(lang: &tree_sitter::Language) -> Self {
        let id = |n: &str| lang.field_id_for_name(n).map_or(0, |x| x.get());
        Fields {
            alternative: id("alternative"),
            argument: id("argument"),
            arguments: id("arguments"),
            body: id("body"),
            condition: id("condition"),
            consequence: id("consequence"),
            declarator: id("declarator"),
            field: id("field"),
            function: id("function"),
            index: id("index"),
            initializer: id("initializer"),
            label: id("label"),
            left: id("left"),
            name: id("name"),
            operator: id("operator"),
            parameters: id("parameters"),
            right: id("right"),
            size: id("size"),
            ty: id("type"),
            update: id("update"),
            value: id("value"),
        }
    }
}

pub(super) fn span(n: Node) -> Span {
    Span::new(n.start_byte(), n.end_byte())
}

/// Children with their field names (a cursor walk; `Node::child(i)` is not O(1)).
pub(super) fn kids<'t>(n: Node<'t>) -> Vec<(Option<&'t str>, Node<'t>)> {
    let mut c = n.walk();
    let mut v = Vec::with_capacity(n.child_count() as usize);
    if c.goto_first_child() {
        loop {
            v.push((c.field_name(), c.node()));
            if !c.goto_next_sibling() {
                break;
            }
        }
    }
    v
}

/// Named children that are not comments.
pub(super) fn named<'t>(n: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    kids(n).into_iter().map(|k| k.1).filter(|k| k.is_named() && k.kind() != "comment")
}

/// The first named child that is not a comment (no allocation).
pub(super) fn first_named(n: Node) -> Option<Node> {
    let mut c = n.walk();
    if !c.goto_first_child() {
        return None;
    }
    loop {
        let k = c.node();
        if k.is_named() && k.kind() != "comment" {
            return Some(k);
        }
        if !c.goto_next_sibling() {
            return None;
        }
    }
}
