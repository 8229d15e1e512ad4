//! Re-rendering a profile: JSON round trip, text report, SVG charts, CLI.
use xmpc_prof_report::*;

fn sample() -> Profile {
    let mut send = SizeStats::default();
    for b in [0u64, 1, 1024, 1 << 20, 16 << 20] {
        send.add(b);
    }
    let f = |name: &str, calls, t: f64, send: SizeStats| FuncStats {
        name: name.into(),
        calls,
        time_total_ns: t,
        time_min_ns: t / calls as f64,
        time_max_ns: t / calls as f64,
        short_calls: 0,
        send,
        recv: SizeStats::default(),
    };
    let r = |rank: i64, scale: f64| RankProfile {
        rank,
        host: "h".into(),
        pid: 1,
        wall_ns: 1e9,
        mpi_ns: 0.0,
        partial: false,
        functions: vec![f("MPI_Send", 5, 5e6 * scale, send.clone()), f("MPI_Comm_rank", 1000, 10_000.0, SizeStats::default())],
        peers: vec![PeerStats { peer: 1 - rank, send_count: 5, send_bytes: send.total, recv_count: 0, recv_bytes: 0 }],
        callsites: Vec::new(),
    };
    let mut p = Profile {
        format: FORMAT.into(),
        mpi_library: "test".into(),
        command: "./app".into(),
        world_size: 2,
        timer: TimerInfo { source: "tsc".into(), ticks_per_ns: 2.0, calibration_pairs: 2000, timer_pair_ns: 10.0, record_ns: 5.0, overhead_ns: 15.0 },
        unreliable_factor: 5.0,
        ranks: vec![r(0, 1.0), r(1, 3.0)],
        summary: vec![],
    };
    p.summarize();
    p
}

#[test]
fn summary_imbalance_and_flags() {
    let p = sample();
    let s = p.func("MPI_Send").unwrap();
    assert_eq!(s.calls, 10);
    assert_eq!(s.rank_time_min_ns, 5e6);
    assert_eq!(s.rank_time_max_ns, 15e6);
    assert_eq!(s.rank_time_mean_ns, 10e6);
    assert!(!s.unreliable);
    assert!(p.func("MPI_Comm_rank").unwrap().unreliable); // 10 ns < 5 x 15 ns
    assert_eq!(p.summary[0].name, "MPI_Send");
    assert_eq!(p.send_matrix()[0][1].0, 5);
}

#[test]
fn json_round_trip_and_report_files() {
    let p = sample();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("prof.json");
    std::fs::write(&json, serde_json::to_string(&p).unwrap()).unwrap();
    let args = ReportArgs { profile: json.clone(), out_dir: None, charts: vec!["svg".into()], top: 10, callsites: 20, print: false };
    let written = run_report(&args).unwrap();
    assert_eq!(written.len(), 3, "{written:?}");
    let txt = std::fs::read_to_string(dir.path().join("prof.txt")).unwrap();
    assert!(txt.contains("!MPI_Comm_rank") && txt.contains("MPI_Send"), "{txt}");
    assert!(txt.contains(">=8M:2"), "{txt}");
    for f in ["prof_time.svg", "prof_sizes.svg"] {
        let svg = std::fs::read_to_string(dir.path().join(f)).unwrap();
        assert!(svg.contains("<svg") && svg.contains("MPI_Send") || f.contains("sizes"), "{f}");
        assert!(svg.contains("<rect"), "{f}");
    }
    assert_eq!(load_profile(&json).unwrap(), p);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(&bad, "{\"format\": 3}").unwrap();
    let e = load_profile(&bad).unwrap_err();
    assert!(e.contains("bad.json"), "{e}");
    let e = load_profile(&dir.path().join("missing.json")).unwrap_err();
    assert!(e.contains("missing.json"), "{e}");
    let args = ReportArgs { profile: bad, out_dir: None, charts: vec![], top: 5, callsites: 20, print: false };
    assert!(run_report(&args).is_err());
}

/// Issue 20: an unknown chart format exited 1 but left `xmpc_prof.txt` behind.
#[test]
fn unknown_chart_format_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("xmpc_prof.json");
    std::fs::write(&json, serde_json::to_string(&sample()).unwrap()).unwrap();
    let args = ReportArgs { profile: json, out_dir: None, charts: vec!["svg".into(), "bogus".into()], top: 5, callsites: 20, print: false };
    let e = run_report(&args).unwrap_err();
    assert!(e.contains("bogus"), "{e}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("xmpc_prof.json")]);
}

/// Issue 20: `world_size` 10^9 made the report allocate a dense world² matrix (24 GB
/// until the kernel killed it); sizes are now bounded with a located error, and the
/// peer table is sparse.
#[test]
fn huge_world_size_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("p.json");
    let mut p = sample();
    p.world_size = 1_000_000_000;
    let text = serde_json::to_string_pretty(&p).unwrap();
    std::fs::write(&json, &text).unwrap();
    let line = text.lines().position(|l| l.contains("\"world_size\"")).unwrap() + 1;
    let e = load_profile(&json).unwrap_err();
    assert!(e.contains(&format!("p.json:{line}:")) && e.contains("world_size 1000000000"), "{e}");
    // a large but allowed world with two ranks listed costs nothing
    p.world_size = 1 << 24;
    std::fs::write(&json, serde_json::to_string(&p).unwrap()).unwrap();
    let q = load_profile(&json).unwrap();
    assert_eq!(q.send_pairs().len(), 2);
    assert!(text::render(&q, 5).contains("pairs with traffic: 2"));
    // a rank outside the world
    p.world_size = 1;
    std::fs::write(&json, serde_json::to_string(&p).unwrap()).unwrap();
    assert!(load_profile(&json).unwrap_err().contains("ranks listed"));
}

/// Issue 20: `/dev/zero` as the profile never ended.
#[test]
fn endless_input_is_refused() {
    let e = load_profile(std::path::Path::new("/dev/zero")).unwrap_err();
    assert!(e.contains("/dev/zero"), "{e}");
}

/// `--charts png` without `rsvg-convert` said "skipped" and exited 0 with no PNG; the
/// PNGs are rendered in process now, with text (issue 39).
#[test]
fn png_charts_are_rendered_in_process() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("prof.json");
    std::fs::write(&json, serde_json::to_string(&sample()).unwrap()).unwrap();
    let args = ReportArgs { profile: json, out_dir: None, charts: vec!["png".into()], top: 10, callsites: 20, print: false };
    let written = run_report(&args).unwrap();
    assert_eq!(written.len(), 3, "{written:?}");
    for f in ["prof_time.png", "prof_sizes.png"] {
        let png = std::fs::read(dir.path().join(f)).unwrap();
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "{f}");
    }
    // text is drawn with a system font (fontdb's default sans-serif is not on Debian)
    let with_text = charts::rasterize(
        "<svg xmlns='http://www.w3.org/2000/svg' width='200' height='40'><text x='5' y='30' font-family='sans-serif' font-size='24'>MPI_Send</text></svg>",
    )
    .unwrap();
    let without = charts::rasterize("<svg xmlns='http://www.w3.org/2000/svg' width='200' height='40'></svg>").unwrap();
    assert!(with_text.len() > without.len() + 200, "text is rendered: {} vs {} bytes", with_text.len(), without.len());
}

/// `xmpc-prof-report --version` was refused (issue 39).
#[test]
fn version() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_xmpc-prof-report")).arg("--version").output().unwrap();
    assert!(o.status.success() && String::from_utf8_lossy(&o.stdout).contains(env!("CARGO_PKG_VERSION")));
}

/// Call sites summed over ranks, ordered by time, the table cut at `--callsites N`.
#[test]
fn callsites_summed_and_cut_at_n() {
    let mut p = sample();
    let site = |line: u32, calls: u64, t: f64| CallSite {
        function: "MPI_Send".into(),
        file: "/src/app.c".into(),
        line,
        caller: "main".into(),
        calls,
        time_total_ns: t,
        time_max_ns: t / calls as f64,
        bytes: 64 * calls,
        ..Default::default()
    };
    for r in &mut p.ranks {
        r.callsites = vec![site(12, 2, 1e6), site(30, 3, 5e6)];
        r.mpi_ns = 6e6;
    }
    p.ranks[1].callsites.push(CallSite { file: String::new(), line: 0, address: "0x4011a0".into(), ..site(0, 1, 10.0) });
    let s = p.callsites();
    assert_eq!(s.len(), 3);
    assert_eq!((s[0].site.line, s[0].site.calls, s[0].ranks), (30, 6, 2));
    assert_eq!(s[0].site.location(), "app.c:30");
    assert_eq!(s[2].site.location(), "??:0 (0x4011a0)");
    let full = text::render_with(&p, 10, 10);
    assert!(full.contains("app.c:30") && full.contains("app.c:12") && full.contains("??:0 (0x4011a0)"), "{full}");
    let cut = text::render_with(&p, 10, 1);
    assert!(cut.contains("app.c:30") && !cut.contains("app.c:12") && cut.contains("2 more call sites"), "{cut}");
}
