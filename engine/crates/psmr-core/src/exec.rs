//! The run context handed to a scheduler, and the single path through which
//! every request is delivered and executed.
//!
//! [`RunContext::deliver`] and [`RunContext::execute`] fill the
//! [`ExecLog`], which is always on (also when tracing is off): the oracle
//! and the metrics are computed from it after the run.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};

use crossbeam_utils::CachePadded;
use serde::{Deserialize, Serialize};

use crate::app::Application;
use crate::cancel::CancelToken;
use crate::class::ClassTable;
use crate::clock;
use crate::request::{Request, RequestId};
use crate::threads::ThreadHost;
use crate::trace::{EventKind, Recorder, ThreadRef, TraceHub, SCHEDULER};

/// Per-request record of one run. Each field is written by exactly one
/// thread during the run (the deliverer or the executor) and read only
/// after the run's threads were joined, so `Relaxed` stores suffice: the
/// join gives the reader happens-before over every store.
#[derive(Debug, Default)]
pub struct ExecSlot {
    pub delivered_ns: AtomicU64,
    /// Seq (from the run's [`crate::trace::SeqClock`]) taken just before
    /// the application call, and just after it.
    pub start_seq: AtomicU64,
    pub end_seq: AtomicU64,
    pub end_ns: AtomicU64,
    pub response: AtomicU64,
    /// Worker that executed the request.
    pub thread: AtomicU32,
    /// How many times the request was executed (must end as 1).
    pub count: AtomicU32,
}

/// The execution log of a run, indexed by request id.
#[derive(Debug)]
pub struct ExecLog {
    slots: Vec<ExecSlot>,
}

impl ExecLog {
    pub fn new(requests: usize) -> Self {
        ExecLog {
            slots: (0..requests).map(|_| ExecSlot::default()).collect(),
        }
    }
    pub fn slot(&self, req: RequestId) -> &ExecSlot {
        &self.slots[req as usize]
    }
    pub fn len(&self) -> usize {
        self.slots.len()
    }
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }
}

/// Live progress of a run, read by a poller while the run goes on.
/// One cache-padded counter per thread keeps workers from contending.
#[derive(Debug)]
pub struct Progress {
    executed: Vec<CachePadded<AtomicU64>>,
    delivered: CachePadded<AtomicU64>,
}

impl Progress {
    pub fn new(threads: usize) -> Self {
        Progress {
            executed: (0..threads.max(1))
                .map(|_| CachePadded::new(AtomicU64::new(0)))
                .collect(),
            delivered: CachePadded::new(AtomicU64::new(0)),
        }
    }
    /// Requests executed so far (approximate while the run goes on).
    pub fn executed(&self) -> u64 {
        // Relaxed: a monotone counter read for display only.
        self.executed
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }
    pub fn delivered(&self) -> u64 {
        self.delivered.load(Ordering::Relaxed)
    }
    fn bump(&self, thread: ThreadRef) {
        let i = (thread as usize).min(self.executed.len() - 1);
        self.executed[i].fetch_add(1, Ordering::Relaxed);
    }
}

/// A sampled queue length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QueueSample {
    pub t_ns: u64,
    pub thread: ThreadRef,
    pub len: u32,
}

/// What a scheduler reports besides the log and the recorders.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RunOutput {
    /// Requests the scheduler delivered (all, unless cancelled).
    pub delivered: u32,
    /// Time the delivering thread spent scheduling (not waiting on full
    /// queues), for the "scheduler cost per request" metric.
    pub scheduler_busy_ns: u64,
    /// Queue lengths the scheduler sampled (bounded, see
    /// [`RunOutput::MAX_QUEUE_SAMPLES`]).
    pub queue_samples: Vec<QueueSample>,
    /// Scheduler-specific numbers, by name.
    pub extra: Vec<(String, f64)>,
}

impl RunOutput {
    pub const MAX_QUEUE_SAMPLES: usize = 20_000;
    /// Record a queue sample if under the bound.
    pub fn sample_queue(&mut self, rec: &mut Recorder<'_>, thread: ThreadRef, len: usize) {
        if self.queue_samples.len() < Self::MAX_QUEUE_SAMPLES {
            let t_ns = rec.now();
            self.queue_samples.push(QueueSample {
                t_ns,
                thread,
                len: len as u32,
            });
            rec.record_at(
                EventKind::QueueLen {
                    of: thread,
                    len: len as u32,
                },
                t_ns,
            );
        }
    }
}

/// Everything a scheduler needs for one run.
pub struct RunContext<'a> {
    /// The delivered stream; `requests[i].id == i`.
    pub requests: &'a [Request],
    pub classes: &'a ClassTable,
    pub app: &'a dyn Application,
    /// Worker threads to use (the delivering thread is extra).
    pub threads: usize,
    pub host: &'a ThreadHost,
    pub cancel: &'a CancelToken,
    pub log: &'a ExecLog,
    pub trace: &'a TraceHub,
    pub progress: &'a Progress,
    /// Extra busy-spin per executed request, to slow a classroom run down
    /// to watching speed (0 = none).
    pub pace_ns: u64,
}

impl<'a> RunContext<'a> {
    /// A recorder for `thread` (worker index or [`SCHEDULER`]).
    pub fn recorder(&self, thread: ThreadRef) -> Recorder<'a> {
        self.trace.recorder(thread)
    }

    /// Mark `req` as delivered now. Returns `false` when the run was
    /// cancelled: the scheduler must then stop delivering.
    /// While the run is paused this blocks (see [`CancelToken`]).
    pub fn deliver(&self, rec: &mut Recorder<'_>, req: &Request) -> bool {
        if !self.cancel.wait_while_paused() {
            return false;
        }
        let now = rec.now();
        self.log
            .slot(req.id)
            .delivered_ns
            .store(now, Ordering::Relaxed);
        self.progress.delivered.fetch_add(1, Ordering::Relaxed);
        rec.record_at(
            EventKind::Delivered {
                req: req.id,
                class: req.class,
            },
            now,
        );
        true
    }

    /// Execute `req` on the calling worker: the only place where the
    /// application runs. Logs start/end order, response, time and counts.
    pub fn execute(&self, rec: &mut Recorder<'_>, req: &Request) {
        let slot = self.log.slot(req.id);
        let start_ns = rec.now();
        slot.start_seq
            .store(self.trace.seq.next(), Ordering::Relaxed);
        rec.record_at(EventKind::ExecStart { req: req.id }, start_ns);
        let response = self.app.execute(&req.op);
        if self.pace_ns > 0 {
            clock::spin_for(self.pace_ns);
        }
        slot.end_seq.store(self.trace.seq.next(), Ordering::Relaxed);
        let end_ns = rec.now();
        slot.end_ns.store(end_ns, Ordering::Relaxed);
        slot.response.store(response, Ordering::Relaxed);
        slot.thread.store(rec.thread as u32, Ordering::Relaxed);
        slot.count.fetch_add(1, Ordering::Relaxed);
        rec.record_at(EventKind::ExecEnd { req: req.id }, end_ns);
        rec.stats.executed += 1;
        rec.stats.exec_ns += end_ns.saturating_sub(start_ns);
        self.progress.bump(rec.thread);
    }
}

/// The thread id the delivering thread records under.
pub const DELIVERER: ThreadRef = SCHEDULER;
