//! `select case` constructs that hold directives (`!$xmp task` in a case, as in
//! Omni-ported applications): lowered to a compound of one compound per case, so the
//! directives reach the IR. A `select case` without directives stays verbatim text.

use super::lower::Lower;
use tree_sitter::Node;
use xmpc_ir::{Span, Stmt, StmtKind};

impl<'a> Lower<'a> {
    /// True when a directive line lies inside `k`.
    pub(super) fn has_directives_inside(&self, k: Node<'a>) -> bool {
        let (s, e) = (k.start_byte(), k.end_byte());
        let lo = self.dir_starts.partition_point(|d| d.0 < s);
        let hi = self.dir_starts.partition_point(|d| d.0 < e);
        hi > lo
    }

    /// The cases of a `select case` as statements; None when the construct has a
    /// shape this does not model (preprocessor lines between cases).
    pub(super) fn select_case(&mut self, k: Node<'a>) -> Option<Stmt> {
        // each case with the nodes tree-sitter left after it in the construct itself
        // (comments, so directive lines, at the end of a case)
        let mut groups: Vec<(Node<'a>, Vec<Node<'a>>)> = Vec::new();
        for c in self.kids(k) {
            match c.kind() {
                "case_statement" => groups.push((c, Vec::new())),
                "comment" => {
                    if let Some(g) = groups.last_mut() {
                        g.1.push(c);
                    }
                }
                _ if c.kind().starts_with("preproc") => return None,
                _ => {}
            }
        }
        let mut cases = Vec::new();
        for (c, extra) in groups {
            let ck = self.kids(c);
            let pos = ck.iter().position(|x| matches!(x.kind(), "case_value_range_list" | "default"))?;
            let mut nodes: Vec<Node<'a>> = ck[pos + 1..].iter().copied().filter(|x| x.is_named()).collect();
            nodes.extend(extra);
            let at = self.n.to_orig(ck[pos].end_byte());
            let body = self.stmts(&nodes);
            let mut case = self.compound(body, at);
            // the case's span covers its `case (...)` line too
            case.span = Span::new(self.span(c).start, case.span.end.max(self.span(c).start));
            cases.push(case);
        }
        Some(Stmt { span: self.span(k), label: None, kind: StmtKind::Compound(cases) })
    }
}
