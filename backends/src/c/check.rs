//! The checking mode (`-fcheck=xmp`, docs/checking.md): each global index of an
//! access to a distributed array is passed through the runtime's `xmpc_check_index`,
//! which returns it when the executing node holds the element (block or shadow) and
//! otherwise stops the job with the rank, the access's file:line, the array and the
//! index. Only printed in this mode: the default translation is unchanged.

use super::*;

impl<'a> Tr<'a> {
    /// `idx` (global index texts of array `a`, accessed at `span`) wrapped in checks.
    pub(super) fn checked_indices(&mut self, a: usize, span: Span, idx: Vec<String>) -> Vec<String> {
        let desc = self.arrs[a].desc.clone();
        let name = c_string(&self.arrs[a].name);
        let line = self.line_of(span.start);
        let text = one_line(&self.src[span.range()], true);
        let text: String = if text.chars().count() > 60 { text.chars().take(57).chain("...".chars()).collect() } else { text };
        self.uniq += 1;
        let loc = format!("_XMP_CHK_{line}_{}", self.uniq);
        self.statics.push(format!("static const xmpc_loc {loc} = {{\"{}\", {line}, \"{}\"}};", c_string(&self.unit.name), c_string(&text)));
        idx.into_iter().enumerate().map(|(d, g)| format!("xmpc_check_index({desc}, {d}, {g}, 0, \"{name}\", &{loc})")).collect()
    }
}
