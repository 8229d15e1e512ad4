//! Throughput probe, not a timed test:
//! `cargo test --release -p xmpc-frontend --test c_throughput -- --ignored --nocapture`
mod c_util;

/// About `lines` lines of XMP C: globals, directives, loops, calls, structs.
fn generate(lines: usize) -> String {
    let mut s = String::from(
        "#include <stdio.h>\n#include <xmp.h>\n#define N 1024\n#pragma xmp nodes p(*)\n#pragma xmp template t(0:N-1)\n#pragma xmp distribute t(block) onto p\n",
    );
    let mut k = 0;
    while s.lines().count() < lines.saturating_sub(40) || k == 0 {
        for _ in 0..50 {
            s.push_str(&format!(
                "\ndouble a{k}[N], b{k}[N];\n#pragma xmp align a{k}[i] with t(i)\n#pragma xmp align b{k}[i] with t(i)\n#pragma xmp shadow a{k}[1:1]\n\
                 struct rec{k} {{ int id; double v[4]; struct rec{k} *next; }};\n\
                 static double kernel{k}(int n, const double *x, double alpha)\n{{\n    int i, j;\n    double s = 0.0, m = -1.0e30;\n\
                 #pragma xmp reflect (a{k})\n#pragma xmp loop on t(i) reduction(+:s) reduction(max:m)\n    for (i = 1; i < N - 1; i++) {{\n\
                         b{k}[i] = alpha * (a{k}[i - 1] + a{k}[i + 1]) / 2.0 + x[i % n];\n        s += b{k}[i] * b{k}[i];\n        if (b{k}[i] > m)\n            m = b{k}[i];\n    }}\n\
                     for (j = 0; j < n; j++)\n#pragma acc loop\n        for (i = 0; i < 4; i++)\n            s += (double)(i * j) / (n + 1);\n\
                     switch (n & 3) {{\n    case 0: s *= 2; break;\n    default: s -= m > 0 ? m : -m;\n    }}\n    return s;\n}}\n"
            ));
            k += 1;
        }
    }
    s
}

/// For instruction counts (`perf stat`), noise-free on a busy host:
/// `C_TP_MODE=ts|full` runs only that part 5 times (`none`: setup only).
#[test]
#[ignore]
fn instructions() {
    let text = generate(50_000);
    let mode = std::env::var("C_TP_MODE").unwrap_or_default();
    let mut ts = tree_sitter::Parser::new();
    ts.set_language(&tree_sitter_c::LANGUAGE.into()).unwrap();
    for _ in 0..5 {
        match mode.as_str() {
            "ts" => drop(ts.parse(&text, None).unwrap()),
            // The IR is leaked so that only parsing is counted.
            "full" => std::mem::forget(c_util::parse(&text)),
            _ => {}
        }
    }
}

#[test]
#[ignore]
fn throughput() {
    let text = generate(50_000);
    let mb = text.len() as f64 / 1e6;
    let _ = c_util::parse(&text); // warm up
    let mut best = f64::MAX;
    for _ in 0..5 {
        let t0 = std::time::Instant::now();
        let p = c_util::parse(&text);
        best = best.min(t0.elapsed().as_secs_f64());
        assert!(p.unit.host_errors.is_empty());
    }
    let mut ts = tree_sitter::Parser::new();
    ts.set_language(&tree_sitter_c::LANGUAGE.into()).unwrap();
    let mut ts_best = f64::MAX;
    for _ in 0..5 {
        let t0 = std::time::Instant::now();
        let tree = ts.parse(&text, None).unwrap();
        ts_best = ts_best.min(t0.elapsed().as_secs_f64());
        drop(tree);
    }
    println!(
        "{} lines, {:.2} MB: parse {:.1} ms = {:.1} MB/s; tree-sitter alone {:.1} ms = {:.1} MB/s",
        text.lines().count(),
        mb,
        best * 1e3,
        mb / best,
        ts_best * 1e3,
        mb / ts_best
    );
}
