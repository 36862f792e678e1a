//! Run metrics, computed after the run from the execution log, the threads'
//! stats and the scheduler's output.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::exec::{ExecLog, RunOutput};
use crate::stream::Stream;
use crate::trace::{Counter, ThreadStats, SCHEDULER};

/// Latency percentiles in microseconds, from a request's delivery to its
/// completion: the end of its execution, or for an event stream the end of
/// the last event of the delivered root's tree (the reply to its client).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LatencyUs {
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub max: f64,
    pub mean: f64,
}

/// One point of throughput over time.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ThroughputPoint {
    /// End of the bucket, milliseconds since the run started.
    pub t_ms: f64,
    pub ops_s: f64,
}

/// Time accounting of one thread, in the report's units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ThreadTimes {
    pub thread: u16,
    pub executed: u64,
    pub exec_ms: f64,
    pub wait_ms: f64,
    pub idle_ms: f64,
}

/// Everything measured about one run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RunMetrics {
    pub requests: u64,
    pub duration_ms: f64,
    pub throughput_ops_s: f64,
    pub latency_us: LatencyUs,
    pub throughput_series: Vec<ThroughputPoint>,
    /// Worker threads only (the delivering thread is reported apart).
    pub threads: Vec<ThreadTimes>,
    /// Counters summed over threads, by name (e.g. `steals`).
    pub counters: BTreeMap<String, u64>,
    /// Delivering thread's busy time per delivered request.
    pub scheduler_ns_per_request: f64,
    pub queue_len_mean: f64,
    pub queue_len_max: u32,
    pub extra: BTreeMap<String, f64>,
}

/// Number of buckets of the throughput series.
const SERIES_BUCKETS: usize = 100;

impl RunMetrics {
    pub fn compute(
        stream: &Stream,
        log: &ExecLog,
        delivered: usize,
        stats: &[ThreadStats],
        out: &RunOutput,
    ) -> Self {
        let runnable = stream.runnable(delivered);
        let mut first_ns = u64::MAX;
        let mut last_ns = 0u64;
        let mut ends = Vec::with_capacity(runnable);
        for &r in &stream.canonical[..runnable] {
            let s = log.slot(r);
            if s.count.load(Ordering::Relaxed) == 0 {
                continue;
            }
            let e = s.end_ns.load(Ordering::Relaxed);
            first_ns = first_ns.min(s.admitted_ns.load(Ordering::Relaxed));
            last_ns = last_ns.max(e);
            ends.push(e);
        }
        let mut latencies = completion_latencies(stream, log, delivered);
        let executed = ends.len() as u64;
        let duration_ns = last_ns.saturating_sub(first_ns.min(last_ns)).max(1);
        let mut counters = BTreeMap::new();
        for c in Counter::ALL {
            let v: u64 = stats.iter().map(|s| s.counters[c as usize]).sum();
            counters.insert(c.name().to_string(), v);
        }
        let (qmean, qmax) = queue_stats(out);
        RunMetrics {
            requests: executed,
            duration_ms: duration_ns as f64 / 1e6,
            throughput_ops_s: if executed == 0 {
                0.0
            } else {
                executed as f64 / (duration_ns as f64 / 1e9)
            },
            latency_us: percentiles(&mut latencies),
            throughput_series: series(&mut ends, first_ns.min(last_ns), duration_ns),
            threads: stats
                .iter()
                .filter(|s| s.thread < crate::trace::AUX_BASE && s.thread != SCHEDULER)
                .map(|s| ThreadTimes {
                    thread: s.thread,
                    executed: s.executed,
                    exec_ms: s.exec_ns as f64 / 1e6,
                    wait_ms: s.wait_ns as f64 / 1e6,
                    idle_ms: s.idle_ns as f64 / 1e6,
                })
                .collect(),
            counters,
            scheduler_ns_per_request: if out.delivered == 0 {
                0.0
            } else {
                out.scheduler_busy_ns as f64 / out.delivered as f64
            },
            queue_len_mean: qmean,
            queue_len_max: qmax,
            extra: out.extra.iter().cloned().collect(),
        }
    }
}

/// One latency per completed delivery: from its admission to the end of
/// the last request it brought (itself; an instance's last command; the
/// last event of a root's tree).
fn completion_latencies(stream: &Stream, log: &ExecLog, delivered: usize) -> Vec<u64> {
    let mut out = Vec::with_capacity(delivered);
    for d in 0..delivered.min(stream.deliveries()) as u32 {
        let unit = stream.delivery(d);
        let admitted = log.slot(unit.start).admitted_ns.load(Ordering::Relaxed);
        let members = match stream.events() {
            Some(f) => {
                let root = unit.start as usize;
                let end = f
                    .roots
                    .get(d as usize + 1)
                    .copied()
                    .unwrap_or(stream.len() as u32);
                root as u32..end
            }
            None => unit,
        };
        let mut done = 0u64;
        for r in members {
            let s = log.slot(r);
            if s.count.load(Ordering::Relaxed) == 0 {
                done = 0;
                break;
            }
            done = done.max(s.end_ns.load(Ordering::Relaxed));
        }
        if done > 0 {
            out.push(done.saturating_sub(admitted));
        }
    }
    out
}

fn queue_stats(out: &RunOutput) -> (f64, u32) {
    if out.queue_samples.is_empty() {
        return (0.0, 0);
    }
    let sum: u64 = out.queue_samples.iter().map(|s| s.len as u64).sum();
    let max = out.queue_samples.iter().map(|s| s.len).max().unwrap_or(0);
    (sum as f64 / out.queue_samples.len() as f64, max)
}

/// Nearest-rank percentiles of latencies in ns, reported in µs.
pub fn percentiles(lat_ns: &mut [u64]) -> LatencyUs {
    if lat_ns.is_empty() {
        return LatencyUs::default();
    }
    lat_ns.sort_unstable();
    let at = |q: f64| {
        let rank = ((q * lat_ns.len() as f64).ceil() as usize).clamp(1, lat_ns.len());
        lat_ns[rank - 1] as f64 / 1e3
    };
    let mean = lat_ns.iter().map(|&v| v as f64).sum::<f64>() / lat_ns.len() as f64 / 1e3;
    LatencyUs {
        p50: at(0.50),
        p90: at(0.90),
        p99: at(0.99),
        max: at(1.0),
        mean,
    }
}

fn series(ends: &mut [u64], origin: u64, duration_ns: u64) -> Vec<ThroughputPoint> {
    if ends.is_empty() {
        return Vec::new();
    }
    let buckets = SERIES_BUCKETS.min(ends.len()).max(1);
    let width = (duration_ns / buckets as u64).max(1);
    let mut counts = vec![0u64; buckets];
    for &e in ends.iter() {
        let b = ((e.saturating_sub(origin)) / width).min(buckets as u64 - 1) as usize;
        counts[b] += 1;
    }
    counts
        .iter()
        .enumerate()
        .map(|(i, &c)| ThroughputPoint {
            t_ms: ((i as u64 + 1) * width) as f64 / 1e6,
            ops_s: c as f64 / (width as f64 / 1e9),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_rank_percentiles() {
        let mut v: Vec<u64> = (1..=100).map(|i| i * 1000).collect();
        let p = percentiles(&mut v);
        assert_eq!(p.p50, 50.0);
        assert_eq!(p.p99, 99.0);
        assert_eq!(p.max, 100.0);
        assert_eq!(p.mean, 50.5);
    }
}
