//! The one chart path of the xmpc tools: every chart (BSIM's Gantt, NSIM's Figure 11,
//! the profiler's charts) is drawn as SVG by plotters, with its text as SVG `<text>`,
//! and a PNG is that SVG rasterised in process by resvg with the system fonts
//! (fontdb `load_system_fonts`; Debian: `fonts-dejavu-core`, installed by setup.sh).
//!
//! fontdb's default `sans-serif` family is Arial, which Debian does not have: without
//! [`rasterize`]'s choice of a family the system has, resvg drew no text at all (NSIM's
//! PNGs until issue 39).

use resvg::{tiny_skia, usvg};
use std::sync::OnceLock;

/// Families tried for `sans-serif`, in order.
const SANS: [&str; 5] = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans", "Bitstream Vera Sans"];

/// The system fonts, loaded once per process, with `sans-serif` (and `serif`,
/// `monospace`) mapped to a family that is there.
fn fontdb() -> &'static std::sync::Arc<usvg::fontdb::Database> {
    static DB: OnceLock<std::sync::Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        let families: Vec<String> = db.faces().flat_map(|f| f.families.iter().map(|(n, _)| n.clone())).collect();
        let pick = SANS.iter().find(|f| families.iter().any(|n| n == *f)).map(|f| f.to_string()).or_else(|| families.first().cloned());
        if let Some(f) = pick {
            db.set_sans_serif_family(f.clone());
            db.set_serif_family(f.clone());
            if families.iter().any(|n| n == "DejaVu Sans Mono") {
                db.set_monospace_family("DejaVu Sans Mono");
            } else {
                db.set_monospace_family(f);
            }
        }
        std::sync::Arc::new(db)
    })
}

/// Number of font faces found on the system (0: PNG text cannot be drawn).
pub fn system_font_faces() -> usize {
    fontdb().len()
}

/// SVG → PNG with resvg. An error when the SVG has text and the system has no font
/// (a PNG without its labels is not written silently).
pub fn rasterize(svg: &str) -> Result<Vec<u8>, String> {
    if svg.contains("<text") && system_font_faces() == 0 {
        return Err("PNG: no font found on this system for the chart's text (install fonts-dejavu-core)".into());
    }
    let opt = usvg::Options { fontdb: fontdb().clone(), ..Default::default() };
    let tree = usvg::Tree::from_str(svg, &opt).map_err(|e| format!("PNG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pix = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("PNG: empty picture")?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pix.as_mut());
    pix.encode_png().map_err(|e| format!("PNG: {e}"))
}

/// The SVG with its `<text>…</text>` elements removed (tests: the PNG of a chart must
/// differ from the PNG of the same chart without text).
pub fn strip_text(svg: &str) -> String {
    let mut out = String::with_capacity(svg.len());
    let mut rest = svg;
    while let Some(i) = rest.find("<text") {
        out.push_str(&rest[..i]);
        match rest[i..].find("</text>") {
            Some(j) => rest = &rest[i + j + "</text>".len()..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const SVG: &str = r#"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="100%" height="100%" fill="white"/><text x="10" y="40" font-family="sans-serif" font-size="30">Axis</text></svg>"#;

    /// Text is drawn: the PNG differs from the one without text.
    #[test]
    fn png_has_text() {
        assert!(system_font_faces() > 0, "no system font (install fonts-dejavu-core)");
        let with = rasterize(SVG).unwrap();
        let without = rasterize(&strip_text(SVG)).unwrap();
        assert!(!strip_text(SVG).contains("<text"));
        assert_ne!(with, without, "the text was not drawn");
    }
}
