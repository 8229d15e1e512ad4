//! The Gantt chart of a run (ranks × virtual time), drawn with plotters as SVG with
//! axes and a legend; PNG is that SVG rasterised by xmpc-charts (resvg with the system
//! fonts), the one chart path of the tools. Compute black, communication blue, waiting
//! yellow (as the paper's Figure 4), user events red.
//!
//! Its size is bounded: up to [`DETAIL_MAX_RANKS`] ranks and [`DETAIL_MAX_RECTS`]
//! bars every event is a bar; beyond, the chart summarises: ranks in at most
//! [`GROUPS`] groups, time in [`BINS`] bins, each cell coloured by the state that
//! takes most of the group's time there, darker for a larger share (a 1,024-rank
//! chart was 16 MB of SVG).

use crate::output::{EvKind, RankResult};
use plotters::prelude::*;

/// Most ranks drawn one row each.
pub const DETAIL_MAX_RANKS: usize = 256;
/// Most bars drawn one per event (about 90 bytes of SVG each).
pub const DETAIL_MAX_RECTS: usize = 10_000;
/// Rank groups of the summary.
pub const GROUPS: usize = 64;
/// Time bins of the summary.
pub const BINS: usize = 150;

const COLOURS: [RGBColor; 3] = [RGBColor(40, 40, 40), RGBColor(70, 130, 220), RGBColor(240, 200, 40)];
const STATES: [&str; 3] = ["compute", "communication", "waiting"];
const USER: RGBColor = RGBColor(220, 30, 30);

/// Bars (rank, t0, t1, state) and user events (rank, t, name).
type Items = (Vec<(u32, f64, f64, u8)>, Vec<(u32, f64, &'static str)>);

fn items(res: &[RankResult]) -> Items {
    let mut rects = vec![];
    let mut marks = vec![];
    for r in res {
        for e in &r.events {
            match e.kind {
                EvKind::Compute => rects.push((r.rank, e.t0, e.t1, 0)),
                EvKind::Comm => {
                    if e.wait_end > e.t0 {
                        rects.push((r.rank, e.t0, e.wait_end, 2));
                    }
                    if e.t1 > e.wait_end {
                        rects.push((r.rank, e.wait_end, e.t1, 1));
                    }
                }
                EvKind::User => marks.push((r.rank, e.t0, e.name)),
            }
        }
    }
    (rects, marks)
}

/// The summary cells: per group, runs of bins with the same (state, level):
/// (group, first bin, last bin + 1, state, level 1..=4).
fn summary_cells(rects: &[(u32, f64, f64, u8)], n: usize, per: usize, tmax: f64) -> Vec<(usize, usize, usize, u8, u8)> {
    let groups = n.div_ceil(per);
    let dt = tmax / BINS as f64;
    let mut acc = vec![[0.0f64; 3]; groups * BINS];
    for &(r, t0, t1, c) in rects {
        let g = r as usize / per;
        let (b0, b1) = (((t0 / dt) as usize).min(BINS - 1), ((t1 / dt) as usize).min(BINS - 1));
        for b in b0..=b1 {
            let (lo, hi) = (b as f64 * dt, (b + 1) as f64 * dt);
            let d = t1.min(hi) - t0.max(lo);
            if d > 0.0 {
                acc[g * BINS + b][c as usize] += d;
            }
        }
    }
    let mut cells = vec![];
    for g in 0..groups {
        let members = per.min(n - g * per) as f64;
        let mut run: Option<(usize, u8, u8)> = None;
        for b in 0..=BINS {
            let key = (b < BINS)
                .then(|| {
                    let a = &acc[g * BINS + b];
                    let c = (0..3).max_by(|&x, &y| a[x].total_cmp(&a[y])).unwrap_or(0);
                    let share = a[c] / (members * dt);
                    (share >= 0.05).then(|| (c as u8, ((share * 4.0).ceil() as u8).clamp(1, 4)))
                })
                .flatten();
            if run.is_some_and(|(_, c, l)| Some((c, l)) != key) {
                let (s, c, l) = run.take().unwrap_or_default();
                cells.push((g, s, b, c, l));
            }
            if let (None, Some((c, l))) = (run, key) {
                run = Some((b, c, l));
            }
        }
    }
    cells
}

fn shade(c: RGBColor, level: u8) -> RGBColor {
    let f = level as f64 / 4.0;
    let m = |x: u8| (255.0 - (255.0 - x as f64) * f).round() as u8;
    RGBColor(m(c.0), m(c.1), m(c.2))
}

fn e<T: std::fmt::Display>(x: T) -> String {
    format!("Gantt chart: {x}")
}

/// The chart as SVG text.
pub fn gantt_svg(res: &[RankResult], tmax: f64) -> Result<String, String> {
    let (rects, marks) = items(res);
    let n = res.len().max(1);
    let summary = n > DETAIL_MAX_RANKS || rects.len() > DETAIL_MAX_RECTS;
    let per = if summary { n.div_ceil(GROUPS.min(n)) } else { 1 };
    let rows = n.div_ceil(per);
    let tend = if tmax > 0.0 { tmax } else { 1e-9 };
    let height = if summary { 760 } else { (140 + 14 * rows).clamp(320, 900) as u32 };
    let title = if summary {
        format!("BSIM timeline: {n} ranks in {rows} groups of {per} (colour: the state taking most of the time, darker: a larger share)")
    } else {
        format!("BSIM timeline: {n} ranks, predicted time {tmax:.6e} s")
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (1100, height)).into_drawing_area();
        root.fill(&WHITE).map_err(e)?;
        // rows top-down: row i is centred on y = rows - 1 - i (integer ticks name rows)
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 15))
            .margin(12)
            .x_label_area_size(42)
            .y_label_area_size(64)
            .build_cartesian_2d(0.0..tend, -0.5..rows as f64 - 0.5)
            .map_err(e)?;
        let row_of = |y: f64| rows as f64 - 1.0 - y;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("virtual time (s)")
            .y_desc(if summary { "first rank of the group" } else { "rank" })
            .x_labels(8)
            .y_labels(rows.min(12) + 1)
            .x_label_formatter(&|v| format!("{v:.2e}"))
            .y_label_formatter(&|v| {
                let r = row_of(*v);
                if r.fract().abs() < 1e-9 && r >= 0.0 && (r as usize) < rows {
                    format!("{}", r as usize * per)
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(e)?;
        let y = |row: usize| (rows as f64 - row as f64 - 1.45, rows as f64 - row as f64 - 0.55);
        for (c, (colour, name)) in COLOURS.iter().zip(STATES).enumerate() {
            let bars: Vec<Rectangle<(f64, f64)>> = if summary {
                summary_cells(&rects, n, per, tend)
                    .into_iter()
                    .filter(|x| x.3 as usize == c)
                    .map(|(g, b0, b1, _, l)| {
                        let (y0, y1) = y(g);
                        let dt = tend / BINS as f64;
                        Rectangle::new([(b0 as f64 * dt, y0), (b1 as f64 * dt, y1)], shade(*colour, l).filled())
                    })
                    .collect()
            } else {
                rects
                    .iter()
                    .filter(|x| x.3 as usize == c)
                    .map(|&(r, t0, t1, _)| {
                        let (y0, y1) = y(r as usize);
                        Rectangle::new([(t0, y0), (t1.max(t0 + tend * 2e-4), y1)], colour.filled())
                    })
                    .collect()
            };
            let colour = *colour;
            chart.draw_series(bars).map_err(e)?.label(name).legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        }
        if !summary {
            let ticks = marks.iter().map(|&(r, t, _)| {
                let (y0, y1) = y(r as usize);
                PathElement::new(vec![(t, y0), (t, y1)], USER.stroke_width(1))
            });
            chart
                .draw_series(ticks)
                .map_err(e)?
                .label("user event")
                .legend(|(x, y)| PathElement::new(vec![(x + 6, y - 6), (x + 6, y + 6)], USER.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 12))
            .draw()
            .map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// The chart as PNG (the SVG rasterised with the system fonts).
pub fn gantt_png(res: &[RankResult], tmax: f64) -> Result<Vec<u8>, String> {
    xmpc_charts::rasterize(&gantt_svg(res, tmax)?)
}

/// Write the Gantt chart; the format follows the extension (.svg or .png).
pub fn write_gantt(path: &std::path::Path, res: &[RankResult], tmax: f64) -> Result<(), String> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("png") => xmpc_outfile::write(path, &gantt_png(res, tmax)?),
        _ => xmpc_outfile::write(path, gantt_svg(res, tmax)?.as_bytes()),
    }
}
