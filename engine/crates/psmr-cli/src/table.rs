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

/// The table of `psmr run`.
pub fn runs(report: &Report) -> String {
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
                    "cancelled".into()
                } else if r.correct {
                    "ok".into()
                } else {
                    "VIOLATION".into()
                },
            ]
        })
        .collect();
    format!(
        "{} ({} cores)\n{}",
        report.scenario,
        report.cores,
        render(
            &[
                "scheduler",
                "threads",
                "executed",
                "ops/s",
                "speedup",
                "p50 us",
                "p99 us",
                "sched ns/req",
                "correct",
            ],
            &rows,
        )
    )
}

/// The table of `psmr bench`; `*` marks oversubscribed points.
pub fn bench(report: &BenchReport) -> String {
    let rows: Vec<Vec<String>> = report
        .points
        .iter()
        .map(|p| {
            vec![
                p.label.clone(),
                format!("{}{}", p.threads, if p.oversubscribed { "*" } else { "" }),
                format!("{}", p.writes),
                format!("{:.0}", p.throughput_ops_s),
                format!("{:.2}x", p.speedup_vs_sequential),
                format!("{:.0}", p.scheduler_ns_per_request),
                format!("{:.1}", p.latency_p99_us),
                if p.correct {
                    "ok".into()
                } else {
                    "VIOLATION".into()
                },
            ]
        })
        .collect();
    let mut out = format!(
        "{} ({} cores, median of {} run(s) per point, trace off)\n",
        report.scenario, report.cores, report.repetitions
    );
    out.push_str(&render(
        &[
            "scheduler",
            "threads",
            "writes",
            "ops/s",
            "speedup",
            "sched ns/req",
            "p99 us",
            "correct",
        ],
        &rows,
    ));
    if report.points.iter().any(|p| p.oversubscribed) {
        out.push_str("* oversubscribed: threads + 1 exceed the cores; threads time-share\n");
    }
    out
}
