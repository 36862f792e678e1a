//! Plain-text tables of reports.

use psmr_scenario::{BenchReport, Report};

/// Left-align the first column, right-align the others.
pub fn render(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: Vec<String>| {
        let mut s = String::new();
        for (i, (c, w)) in cells.iter().zip(&widths).enumerate() {
            if i == 0 {
                s.push_str(&format!("{c:<w$}"));
            } else {
                s.push_str(&format!("  {c:>w$}"));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(header.iter().map(|h| h.to_string()).collect());
    for row in rows {
        out.push_str(&line(row.clone()));
    }
    out
}

/// The table of `psmr run`. On virtual cores the title and every row say
/// the numbers are a model's (virtual time, the cost table's source),
/// never a measurement of this machine.
pub fn runs(report: &Report) -> String {
    let model = report.mode.label();
    let rows: Vec<Vec<String>> = report
        .runs
        .iter()
        .map(|r| {
            vec![
                r.label.clone(),
                r.threads.to_string(),
                r.metrics.requests.to_string(),
                format!("{:.0}", r.throughput_ops_s),
                r.speedup_vs_sequential
                    .map_or("-".into(), |s| format!("{s:.2}x")),
                format!("{:.1}", r.latency_us.p50),
                format!("{:.1}", r.latency_us.p99),
                format!("{:.0}", r.metrics.scheduler_ns_per_request),
                if r.cancelled {
                    // The delivered prefix was judged all the same.
                    if r.correct {
                        "cancelled, ok"
                    } else {
                        "cancelled, VIOLATION"
                    }
                    .into()
                } else if r.correct {
                    "ok".into()
                } else {
                    "VIOLATION".into()
                },
            ]
            .into_iter()
            .chain(r.mode_label.clone())
            .collect()
        })
        .collect();
    let mut header = vec![
        "scheduler",
        "threads",
        "executed",
        "ops/s",
        "speedup",
        "p50 us",
        "p99 us",
        "sched ns/req",
        "correct",
    ];
    let title = match model {
        None => format!("{} ({} cores)", report.scenario, report.cores),
        Some(m) => {
            header.push("numbers");
            format!("{}: {m}, not measured on this machine", report.scenario)
        }
    };
    format!("{title}\n{}", render(&header, &rows))
}

/// The table of `psmr bench`; `*` marks oversubscribed points. A column
/// of speedups over `epaxos` and the streams' SCC sizes appear for commit
/// streams. On virtual cores the title and every row say the numbers are
/// a model's.
pub fn bench(report: &BenchReport) -> String {
    let vs_epaxos = report.points.iter().any(|p| p.speedup_vs_epaxos.is_some());
    let rows: Vec<Vec<String>> = report
        .points
        .iter()
        .map(|p| {
            let mut row = vec![
                p.label.clone(),
                format!("{}{}", p.threads, if p.oversubscribed { "*" } else { "" }),
                format!("{}", p.writes),
                format!("{:.0}", p.throughput_ops_s),
                format!("{:.2}x", p.speedup_vs_sequential),
            ];
            if vs_epaxos {
                row.push(
                    p.speedup_vs_epaxos
                        .map_or("-".into(), |s| format!("{s:.2}x")),
                );
            }
            row.extend([
                format!("{:.0}", p.scheduler_ns_per_request),
                format!("{:.1}", p.latency_p99_us),
                if p.correct {
                    "ok".into()
                } else {
                    "VIOLATION".into()
                },
            ]);
            row.extend(p.mode_label.clone());
            row
        })
        .collect();
    let mut out = match report.mode.label() {
        None => format!(
            "{} ({} cores, median of {} run(s) per point, trace off)\n",
            report.scenario, report.cores, report.repetitions
        ),
        Some(m) => format!(
            "{}: {m}, not measured on this machine (median of {} run(s) per point, trace off)\n",
            report.scenario, report.repetitions
        ),
    };
    let mut head = vec!["scheduler", "threads", "writes", "ops/s", "speedup"];
    if vs_epaxos {
        head.push("vs epaxos");
    }
    head.extend(["sched ns/req", "p99 us", "correct"]);
    if !report.mode.is_real() {
        head.push("numbers");
    }
    out.push_str(&render(&head, &rows));
    if report.points.iter().any(|p| p.oversubscribed) {
        out.push_str(
            "* oversubscribed: workers + the delivering thread (+ auxiliary threads) exceed the cores; threads time-share\n",
        );
    }
    for s in report.streams.iter().filter(|s| s.stream.scc.is_some()) {
        let h = s.stream.scc.as_ref().map(scc_sizes).unwrap_or_default();
        out.push_str(&format!(
            "writes {}: {} instances, SCC sizes (size x count) {h}\n",
            s.writes, s.stream.deliveries
        ));
    }
    out
}

/// `1x120, 2x3`: an SCC histogram in one line.
pub fn scc_sizes(h: &psmr_core::commit_sim::SccHistogram) -> String {
    let v: Vec<String> = h.sizes.iter().map(|(s, c)| format!("{s}x{c}")).collect();
    v.join(", ")
}

/// `psmr bench --csv`: a header, then one row per point. The `numbers`
/// column of every row says what the row is: measured on this machine's
/// threads, or a model's on virtual cores (its label), so rows copied out
/// of the file keep saying it.
pub fn bench_csv(report: &BenchReport) -> String {
    let field = |s: &str| {
        if s.contains([',', '"', '\n', '\r']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let measured = format!("measured, {} cores", report.cores);
    let mut out = String::from(
        "scenario,scheduler,label,threads,writes,throughput_ops_s,speedup_vs_sequential,\
         speedup_vs_epaxos,scheduler_ns_per_request,exec_us_per_request,worker_wait_share,\
         latency_p99_us,correct,oversubscribed,numbers\n",
    );
    for p in &report.points {
        let cells = [
            field(&report.scenario),
            field(&p.scheduler),
            field(&p.label),
            p.threads.to_string(),
            p.writes.to_string(),
            p.throughput_ops_s.to_string(),
            p.speedup_vs_sequential.to_string(),
            p.speedup_vs_epaxos.map_or(String::new(), |s| s.to_string()),
            p.scheduler_ns_per_request.to_string(),
            p.exec_us_per_request.to_string(),
            p.worker_wait_share.to_string(),
            p.latency_p99_us.to_string(),
            p.correct.to_string(),
            p.oversubscribed.to_string(),
            field(p.mode_label.as_deref().unwrap_or(&measured)),
        ];
        out.push_str(&cells.join(","));
        out.push('\n');
    }
    out
}
