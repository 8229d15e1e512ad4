//! SVG plots like the paper's Figure 11: (A) virtual-channel buffer
//! utilisation in 10 classes over time (stacked areas), (B) link efficiency
//! per direction over time.

use crate::report::Report;
use plotters::prelude::*;
use std::path::Path;

/// Picture format of [`figure11`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

/// Write `PREFIX.vc.svg` and `PREFIX.links.svg` (or `.png`).
pub fn figure11(rep: &Report, prefix: &Path, fmt: Format) -> Result<(), String> {
    let p = prefix.display().to_string();
    let ext = if fmt == Format::Svg { "svg" } else { "png" };
    for (name, plot) in [("vc", vc_plot as fn(&Report, &mut String) -> R), ("links", link_plot)] {
        let path = format!("{p}.{name}.{ext}");
        let mut svg = String::new();
        plot(rep, &mut svg).map_err(|e| format!("{path}: {e}"))?;
        let bytes = match fmt {
            Format::Svg => svg.into_bytes(),
            Format::Png => rasterize(&svg).map_err(|e| format!("{path}: {e}"))?,
        };
        // beside and renamed (never a half-written picture), never through a link
        xmpc_outfile::write(std::path::Path::new(&path), &bytes)?;
    }
    Ok(())
}

/// SVG → PNG: the one chart path of the tools (xmpc-charts: resvg with the system
/// fonts, `sans-serif` mapped to a family the system has).
fn rasterize(svg: &str) -> Result<Vec<u8>, String> {
    xmpc_charts::rasterize(svg)
}

type R = Result<(), Box<dyn std::error::Error>>;

fn vc_plot(rep: &Report, out: &mut String) -> R {
    let root = SVGBackend::with_string(out, (900, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let iv = rep.series_interval_ps as f64 / 1e6;
    let n = rep.vc_utilisation_series.len().max(1);
    let xmax = n as f64 * iv;
    let mut ch = ChartBuilder::on(&root)
        .caption("(A) VC buffer utilisation, 10 classes", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .right_y_label_area_size(0)
        .build_cartesian_2d(0f64..xmax, 0f64..100f64)?;
    ch.configure_mesh().x_desc("time [us]").y_desc("share of buffers [%]").draw()?;
    // stacked: class 9 on top; draw cumulative areas from the top class down
    for c in (0..10).rev() {
        let color = HSLColor(0.66 - 0.66 * c as f64 / 9.0, 0.8, 0.5);
        let pts: Vec<(f64, f64)> =
            rep.vc_utilisation_series.iter().enumerate().map(|(i, row)| ((i as f64 + 0.5) * iv, row[..=c].iter().sum::<f64>() * 100.0)).collect();
        ch.draw_series(AreaSeries::new(pts, 0.0, color.mix(0.9)).border_style(color))?
            .label(format!("{}-{}%", c * 10, c * 10 + 10))
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 10, y + 5)], color.filled()));
    }
    ch.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}

fn link_plot(rep: &Report, out: &mut String) -> R {
    let root = SVGBackend::with_string(out, (900, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let iv = rep.series_interval_ps as f64 / 1e6;
    let n = rep.link_efficiency_series.len().max(1);
    let ymax = rep.link_efficiency_series.iter().flat_map(|r| r.iter().copied()).fold(0.0f64, f64::max).max(0.01) * 100.0 * 1.1;
    let mut ch = ChartBuilder::on(&root)
        .caption("(B) link efficiency per direction", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..n as f64 * iv, 0f64..ymax)?;
    ch.configure_mesh().x_desc("time [us]").y_desc("efficiency [%]").draw()?;
    for (d, name) in rep.directions.iter().enumerate() {
        let color = if name == "mean" { BLACK.to_rgba() } else { Palette99::pick(d).to_rgba() };
        let pts: Vec<(f64, f64)> = rep.link_efficiency_series.iter().enumerate().map(|(i, row)| ((i as f64 + 0.5) * iv, row[d] * 100.0)).collect();
        ch.draw_series(LineSeries::new(pts, color.stroke_width(if name == "mean" { 2 } else { 1 })))?
            .label(name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 15, y)], color));
    }
    ch.configure_series_labels().background_style(WHITE.mix(0.8)).border_style(BLACK).draw()?;
    root.present()?;
    Ok(())
}
