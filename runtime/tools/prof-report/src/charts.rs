//! SVG/PNG charts with plotters: time per function and the size histogram.
//!
//! SVG is drawn by plotters' SVG backend with its built-in text layout (no
//! font files needed). PNG is made from the SVG in process by xmpc-charts (resvg, its
//! text with the system fonts), the one chart path of BSIM, NSIM and the profiler.
//! Until issue 39 PNG needed `rsvg-convert` and, without it, was "skipped" with exit
//! status 0.

use crate::model::{class_label, Profile, NCLASSES};
use plotters::prelude::*;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Png,
}

/// Draw all charts in memory; returns the files to write (path, bytes), so that the
/// caller writes them all or none.
pub fn draw_all(p: &Profile, dir: &Path, stem: &str, fmt: Format, top: usize) -> Result<Vec<(PathBuf, Vec<u8>)>, String> {
    let t = dir.join(format!("{stem}_time.svg"));
    let h = dir.join(format!("{stem}_sizes.svg"));
    let (mut ts, mut hs) = (String::new(), String::new());
    time_chart(SVGBackend::with_string(&mut ts, (900, 520)).into_drawing_area(), p, top)?;
    hist_chart(SVGBackend::with_string(&mut hs, (900, 520)).into_drawing_area(), p)?;
    match fmt {
        Format::Svg => Ok(vec![(t, ts.into_bytes()), (h, hs.into_bytes())]),
        Format::Png => Ok(vec![(t.with_extension("png"), rasterize(&ts)?), (h.with_extension("png"), rasterize(&hs)?)]),
    }
}

/// SVG → PNG: the one chart path of the tools (xmpc-charts: resvg with the system
/// fonts, `sans-serif` mapped to a family the system has).
pub fn rasterize(svg: &str) -> Result<Vec<u8>, String> {
    xmpc_charts::rasterize(svg)
}

fn e<T: std::fmt::Display>(x: T) -> String {
    format!("chart: {x}")
}

/// Horizontal bars: total time (ms, all ranks) per function, top `top`.
pub fn time_chart<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>, p: &Profile, top: usize) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(e)?;
    let funcs: Vec<_> = p.summary.iter().take(top.max(1)).collect();
    let n = funcs.len().max(1);
    let maxv = funcs.iter().map(|f| f.time_total_ns / 1e6).fold(0.0, f64::max).max(1e-6) * 1.1;
    let names: Vec<String> = funcs.iter().map(|f| format!("{}{}", if f.unreliable { "!" } else { "" }, f.name)).collect();
    let mut chart = ChartBuilder::on(&root)
        .caption("MPI time per function (all ranks, ms)", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(170)
        .build_cartesian_2d(0.0..maxv, (0..n).into_segmented())
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n)
        .y_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) | SegmentValue::Exact(i) => names.get(*i).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        .x_desc("ms")
        .draw()
        .map_err(e)?;
    chart
        .draw_series(funcs.iter().enumerate().map(|(i, f)| {
            let color = if f.unreliable { RGBColor(200, 120, 40) } else { RGBColor(60, 110, 180) };
            Rectangle::new([(0.0, SegmentValue::Exact(i)), (f.time_total_ns / 1e6, SegmentValue::Exact(i + 1))], color.filled())
        }))
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}

/// Bars per size class (all functions, all ranks), send and receive side by side.
pub fn hist_chart<DB: DrawingBackend>(root: DrawingArea<DB, plotters::coord::Shift>, p: &Profile) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    root.fill(&WHITE).map_err(e)?;
    // class 0 of the chart = 0 bytes, then the 24 classes
    let mut send = [0u64; NCLASSES + 1];
    let mut recv = [0u64; NCLASSES + 1];
    for f in &p.summary {
        send[0] += f.send.zero;
        recv[0] += f.recv.zero;
        for c in 0..NCLASSES {
            send[c + 1] += f.send.hist[c];
            recv[c + 1] += f.recv.hist[c];
        }
    }
    let maxv = send.iter().chain(recv.iter()).cloned().max().unwrap_or(0).max(1) as f64 * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption("Message size histogram (calls; blue = send, green = recv)", ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..(NCLASSES + 1) as f64, 0.0..maxv)
        .map_err(e)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(NCLASSES + 1)
        .x_label_formatter(&|v| {
            let i = v.floor() as usize;
            if i == 0 {
                "0".into()
            } else if i <= NCLASSES {
                class_label(i - 1)
            } else {
                String::new()
            }
        })
        .x_desc("bytes (class lower bound)")
        .y_desc("calls")
        .draw()
        .map_err(e)?;
    chart
        .draw_series((0..=NCLASSES).map(|i| Rectangle::new([(i as f64 + 0.1, 0.0), (i as f64 + 0.5, send[i] as f64)], RGBColor(60, 110, 180).filled())))
        .map_err(e)?;
    chart
        .draw_series((0..=NCLASSES).map(|i| Rectangle::new([(i as f64 + 0.5, 0.0), (i as f64 + 0.9, recv[i] as f64)], RGBColor(60, 160, 90).filled())))
        .map_err(e)?;
    root.present().map_err(e)?;
    Ok(())
}
